"""`xinyu`: 新余冲击麻将 v2.0.1 (seed 000), read as RULES.md §2. Payments in 龙, 财神 wildcards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import ScoreError, flag_conflict, pick
from ...explain import Line, not_a_win_answer
from ...hand import FLAGS, ScoreRequest, XinyuOptions
from ...notation import InvalidNotationError, format_tiles, parse_tiles
from ...payments import Payment, net_of, round_half_up
from ...tiles import (
    FIRST_HONOUR,
    NUM_KINDS,
    SEAT_NAMES_EN,
    SEAT_NAMES_ZH,
    SUIT_NAMES_EN,
    SUIT_NAMES_ZH,
    Tile,
    seats_after,
)
from ...wildcards import (
    ANY_COLOUR,
    BLOCKS,
    Colour,
    Group,
    block_counts,
    block_need,
    loose_groups,
    seven_pairs_groups,
    seven_pairs_plan,
    shisanbuda_natural,
    shisanbuda_plan,
    standard_groups,
    standard_plan,
)

MAX_DEALER_STREAK = 99


def caishen_after(indicator: Tile) -> Tile:
    """财神 = the tile after the turned indicator: 1→2…9→1 per suit; 东→南→西→北→东; 中→发→白→中."""
    if not indicator.is_honour:
        base = indicator.index - indicator.index % 9
        return Tile(base + (indicator.index - base + 1) % 9)
    winds = [Tile.honour(h) for h in "ESWN"]
    dragons = [Tile.honour(h) for h in "CFP"]
    cycle = winds if indicator in winds else dragons
    return cycle[(cycle.index(indicator) + 1) % len(cycle)]


def _option_tile(raw: Mapping, key: str) -> Tile | None:
    value = raw.get(key)
    if value is None:
        return None
    try:
        tiles = parse_tiles(value) if isinstance(value, str) else ()
    except InvalidNotationError:
        tiles = ()
    if len(tiles) != 1:
        raise ScoreError(
            "bad_option",
            f"{key} 必须正好是一张牌，收到 {value!r}",
            f"{key} must be exactly one tile, got {value!r}",
            f"options.{key}",
        )
    return tiles[0]


class Xinyu:
    name = "xinyu"
    name_zh = "新余冲击麻将"
    name_en = "xinyu (Xinyu chongji)"
    kinds = frozenset(range(NUM_KINDS))
    flags = frozenset(FLAGS)  # every flag of API.md applies here
    allows_chow = True

    def parse_options(self, raw: object) -> XinyuOptions:
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise ScoreError("bad_option", "options 必须是对象", "options must be an object", "options")
        unknown = sorted(set(raw) - {"caishen", "indicator", "dealer_streak"})
        if unknown:
            raise ScoreError(
                "bad_option", f"新余没有选项 {unknown[0]!r}", f"xinyu has no option {unknown[0]!r}", "options"
            )
        caishen = _option_tile(raw, "caishen")
        indicator = _option_tile(raw, "indicator")
        if caishen is None and indicator is None:
            raise ScoreError(
                "bad_option",
                "请指定财神（caishen）或翻出的指示牌（indicator）",
                "give the 财神 (caishen) or the turned indicator tile (indicator)",
                "options",
            )
        if indicator is not None:
            derived = caishen_after(indicator)
            if caishen is not None and caishen != derived:
                raise ScoreError(
                    "bad_option",
                    f"指示牌 {indicator} 的财神是 {derived}，与 caishen {caishen} 不符",
                    f"indicator {indicator} makes {derived} the 财神, not {caishen}",
                    "options.caishen",
                )
            caishen = derived
        streak = raw.get("dealer_streak", 1)
        if not isinstance(streak, int) or isinstance(streak, bool) or not 1 <= streak <= MAX_DEALER_STREAK:
            raise ScoreError(
                "bad_option",
                f"连庄数 dealer_streak 必须是 1 到 {MAX_DEALER_STREAK} 的整数，收到 {streak!r}",
                f"dealer_streak must be a whole number from 1 to {MAX_DEALER_STREAK}, got {streak!r}",
                "options.dealer_streak",
            )
        return XinyuOptions(caishen, indicator, streak)

    def check_meld(self, tiles, options: XinyuOptions, number: int, field: str) -> None:
        if options.caishen in tiles:
            raise ScoreError(
                "caishen_in_meld",
                f"财神（{options.caishen}）不能用来吃、碰、杠（第 {number} 组副露）",
                f"the 财神 ({options.caishen}) cannot be in a chow, pung or kong (meld {number})",
                field,
            )

    def check_flags(self, request: ScoreRequest) -> None:
        if request.has("earthly") and request.discarder != request.dealer:
            raise flag_conflict("地胡必须是胡庄家打出的第一张牌", "earthly needs the dealer as the discarder")

    def is_win(self, request: ScoreRequest) -> bool:
        return is_win(request)

    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        return evaluate(request, lang, brief)

    def waits_of(self, request: ScoreRequest) -> list[int]:
        return waits_of(request)


RULESET = Xinyu()


# --------------------------------------------------------------------------- the hand as natural tiles + 财神

PATTERNS: dict[str, tuple[str, str]] = {
    "qidui": ("对对碰", "seven pairs"),
    "shisanbuda": ("十三不搭", "thirteen unrelated"),
    "qifengqi": ("七风齐", "all seven honours"),
    "hunyise": ("混一色", "half flush"),
    "daduidui": ("大对对", "all triplets"),
    "qingyise": ("清一色", "full flush"),
    "qingqidui": ("清七对", "pure seven pairs"),
    "tianhu": ("天胡", "heavenly hand"),
    "dihu": ("地胡", "earthly hand"),
    "gangbao": ("杠爆", "win on a kong replacement"),
    "haidi": ("海底捞月", "last tile"),
    "dandiao": ("单吊", "single-tile wait after four melds"),
    "paolong": ("抛龙", "passed self-draw"),
    "silong": ("4龙", "four 财神"),
    "quanfeng": ("全风向", "all honours"),
}
PATTERN_ORDER = tuple(PATTERNS)
BIG = 10  # the +10 龙 bonuses
SILONG_WITH_SHAPE = 20  # 4龙 +10, and +10 more when the hand is also a legal shape
QUANFENG = 50
NO_CAISHEN_LONG = 2  # 无龙算2龙
PRIORITY_LEVEL_1 = ("dandiao", "qingyise", "qingqidui")  # 拦胡 (§2.5)
PRIORITY_LEVEL_2 = ("quanfeng",)
SHAPE_NAMES = {
    "standard": ("基本牌型", "standard shape"),
    "qidui": ("七对", "seven pairs"),
    "shisanbuda": ("十三不搭", "thirteen unrelated"),
    "none": ("无需牌型", "no shape needed"),
}
SUIT_BLOCKS = "mps"


@dataclass(frozen=True)
class Wilds:
    """The concealed part split into natural tiles and 财神, with the blocks the shape tables read."""

    caishen: Tile
    count: int  # L before 无龙算2龙: 财神 in the concealed part, the win tile included
    natural: tuple[int, ...]
    blocks: list[tuple[int, ...]]
    present: tuple[bool, bool, bool, bool]  # block holds a natural or meld tile


def wilds_of(request: ScoreRequest) -> Wilds:
    caishen = request.options.caishen
    natural = list(request.concealed_counts)
    count = natural[caishen.index]
    natural[caishen.index] = 0
    blocks = block_counts(natural)
    present = [any(block) for block in blocks]
    for meld in request.melds:
        present[_block_of(meld.kind.index)] = True
    return Wilds(caishen, count, tuple(natural), blocks, tuple(present))


def _block_of(index: int) -> int:
    return 3 if index >= FIRST_HONOUR else index // 9


def long_from_tiles(wild: int) -> int:
    """L: one 龙 per 财神; a hand without any counts 2 (无龙算2龙)."""
    return wild if wild else NO_CAISHEN_LONG


# --------------------------------------------------------------------------- which wins are legal


def is_silong(request: ScoreRequest, wilds: Wilds) -> bool:
    """4龙: four 财神 win with no shape, but only by self-draw."""
    return wilds.count == 4 and request.self_draw


def is_quanfeng(wilds: Wilds) -> bool:
    """全风向: every natural tile and meld an honour (the 财神 stand for honours)."""
    return not any(wilds.present[:3])


def has_standard(request: ScoreRequest, wilds: Wilds) -> bool:
    return standard_plan(wilds.blocks, wilds.count) is not None


def has_seven_pairs(request: ScoreRequest, wilds: Wilds) -> bool:
    return not request.melds and seven_pairs_plan(wilds.blocks, wilds.count)


def has_shisanbuda(request: ScoreRequest, wilds: Wilds) -> bool:
    return not request.melds and shisanbuda_plan(wilds.blocks, wilds.count)


def has_shape(request: ScoreRequest, wilds: Wilds) -> bool:
    return has_standard(request, wilds) or has_seven_pairs(request, wilds) or has_shisanbuda(request, wilds)


def is_win(request: ScoreRequest) -> bool:
    """A legal win of §2.2 (the waits ask this 68 times per hand, so the cheap answers come first)."""
    wilds = wilds_of(request)
    return is_silong(request, wilds) or is_quanfeng(wilds) or has_shape(request, wilds)


# --------------------------------------------------------------------------- waits from the tables


def _standard_ok(sets_need: list[int], pair_need: list[int], wild: int) -> bool:
    """Some block holds the pair and the others are sets, with at most `wild` 财神 (the tile count fixes the rest)."""
    total = sum(sets_need)
    return any(total - sets_need[b] + pair_need[b] <= wild for b in range(4))


def _shisanbuda_with(blocks: list[tuple[int, ...]], b: int, rank: int) -> bool:
    """Is the 十三不搭 of the natural tiles kept when one natural tile of (block b, rank) joins them?"""
    block = blocks[b]
    if block[rank]:
        return False
    return b == 3 or not any(block[r] for r in range(max(0, rank - 2), min(9, rank + 3)))


def waits_of(request: ScoreRequest) -> list[int]:
    """The waits of a 13-tile hand from the per-block tables, without building a request per kind.

    A kind is a wait when it wins by self-draw (a discard win is never possible without the self-draw
    one: only 4龙 tells them apart). Adding one tile changes one block, so each kind costs one look-up.
    """
    wilds = wilds_of(request)
    exhausted = request.kinds_exhausted()
    kinds = [k for k in range(NUM_KINDS) if k not in exhausted]
    if wilds.count == 4:
        return kinds  # four 财神 held: any tile wins by self-draw (4龙)
    blocks = wilds.blocks
    needs = [block_need(block, b != 3) for b, block in enumerate(blocks)]
    sets_need = [n[0] for n in needs]
    pair_need = [n[1] for n in needs]
    no_melds = not request.melds
    odd = sum(c % 2 for block in blocks for c in block)
    shisanbuda = no_melds and shisanbuda_natural(blocks)
    honours_only = is_quanfeng(wilds)
    caishen = wilds.caishen.index
    found = []
    for k in kinds:
        if k == caishen:
            wild = wilds.count + 1
            if (
                wild == 4
                or honours_only
                or _standard_ok(sets_need, pair_need, wild)
                or (no_melds and (odd <= wild or shisanbuda))
            ):
                found.append(k)
            continue
        b = _block_of(k)
        base, _, seqs = BLOCKS[b]
        rank = k - base
        if honours_only and b == 3:
            found.append(k)
            continue
        grown = list(blocks[b])
        grown[rank] += 1
        s, p = block_need(tuple(grown), seqs)
        if _standard_ok(
            [s if i == b else sets_need[i] for i in range(4)],
            [p if i == b else pair_need[i] for i in range(4)],
            wilds.count,
        ):
            found.append(k)
            continue
        if no_melds:
            new_odd = odd + (-1 if blocks[b][rank] % 2 else 1)
            if new_odd <= wilds.count or (shisanbuda and _shisanbuda_with(blocks, b, rank)):
                found.append(k)
    return found


# --------------------------------------------------------------------------- readings and their 龙


@dataclass(frozen=True)
class ColourChoice:
    code: str | None  # None | "hunyise" | "qingyise" | "quanfeng"
    colour: Colour
    suit: str | None = None


def colour_choices(wilds: Wilds) -> list[ColourChoice]:
    """The colour patterns the natural tiles and melds leave open; 财神 may supply a missing colour."""
    present = wilds.present
    need = tuple(not p for p in present)
    choices = [ColourChoice(None, ANY_COLOUR)]
    suited = [b for b in range(3) if present[b]]
    if not suited:
        choices.append(ColourChoice("quanfeng", Colour((False, False, False, True), (False, False, False, need[3]))))
    for b in range(3):
        if any(s != b for s in suited):
            continue
        only = tuple(i == b for i in range(4))
        if not present[3]:
            choices.append(
                ColourChoice("qingyise", Colour(only, tuple(i == b and need[i] for i in range(4))), SUIT_BLOCKS[b])
            )
        hun_allowed = tuple(i in (b, 3) for i in range(4))
        hun_required = tuple(i in (b, 3) and need[i] for i in range(4))
        choices.append(ColourChoice("hunyise", Colour(hun_allowed, hun_required), SUIT_BLOCKS[b]))
    return choices


@dataclass(frozen=True)
class Reading:
    """One legal way to read the hand: its shape, colour and all-triplets choice, and the patterns they give."""

    shape: str  # "standard" | "qidui" | "shisanbuda" | "none"
    colour: ColourChoice
    triplets: bool
    patterns: tuple[tuple[str, int], ...]
    plan: tuple[int, tuple[int, ...]] | None = None  # the standard shape's pair block and 财神 per block

    @property
    def bonus(self) -> int:
        return sum(value for _, value in self.patterns)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(code for code, _ in self.patterns)


def flag_patterns(request: ScoreRequest) -> list[tuple[str, int]]:
    """The +10 bonuses the user states as facts of the win."""
    found = []
    if request.has("heavenly"):
        found.append(("tianhu", BIG))
    if request.has("earthly"):
        found.append(("dihu", BIG))
    if request.has("kong_bloom") or request.has("double_kong_bloom"):
        found.append(("gangbao", BIG))  # 杠上杠 is still one 杠爆
    if request.has("last_tile"):
        found.append(("haidi", BIG))
    if request.has("pao_long"):
        found.append(("paolong", BIG))
    return found


def is_qifengqi(wilds: Wilds) -> bool:
    """七风齐: all seven honours as natural tiles (so never when the 财神 is an honour: one copy is wild)."""
    return all(wilds.blocks[3])


def shape_patterns(
    request: ScoreRequest, wilds: Wilds, shape: str, choice: ColourChoice, triplets: bool
) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if shape == "qidui":
        # 清七对 replaces both 对对碰 and 清一色 [reading]
        found.append(("qingqidui", BIG) if choice.code == "qingyise" else ("qidui", 1))
    if shape == "shisanbuda":
        found.append(("shisanbuda", 1))
        if is_qifengqi(wilds):
            found.append(("qifengqi", 1))
    if choice.code == "hunyise":
        found.append(("hunyise", 1))
    if triplets:
        found.append(("daduidui", 1))
    if choice.code == "qingyise" and shape != "qidui":
        found.append(("qingyise", BIG))
    if shape == "standard" and len(request.melds) == 4:
        found.append(("dandiao", BIG))  # four melds: the one concealed tile is paired by the win [reading]
    if is_silong(request, wilds):
        found.append(("silong", SILONG_WITH_SHAPE if shape != "none" else BIG))
    if choice.code == "quanfeng":
        found.append(("quanfeng", QUANFENG))
    return found


def _reading(request, wilds, shape, choice, triplets, plan=None) -> Reading:
    patterns = shape_patterns(request, wilds, shape, choice, triplets) + flag_patterns(request)
    patterns.sort(key=lambda item: PATTERN_ORDER.index(item[0]))
    return Reading(shape, choice, triplets, tuple(patterns), plan)


def readings(request: ScoreRequest, wilds: Wilds) -> list[Reading]:
    """Every legal reading worth telling apart: shapes × colours × all-triplets, and the shapeless wins.

    Decompositions and 财神 assignments inside one of these classes pay the same, so the tables are
    asked whether each class is reachable instead of enumerating the assignments themselves.
    """
    found: list[Reading] = []
    choices = colour_choices(wilds)
    if has_standard(request, wilds):
        no_chow = all(m.type != "chow" for m in request.melds)
        for choice in choices:
            for triplets in (False, True) if no_chow else (False,):
                plan = standard_plan(wilds.blocks, wilds.count, choice.colour, sequences=not triplets)
                if plan is not None:
                    found.append(_reading(request, wilds, "standard", choice, triplets, plan))
    if not request.melds:
        for choice in choices:
            if seven_pairs_plan(wilds.blocks, wilds.count, choice.colour):
                found.append(_reading(request, wilds, "qidui", choice, False))
        for choice in choices:
            if shisanbuda_plan(wilds.blocks, wilds.count, choice.colour):
                found.append(_reading(request, wilds, "shisanbuda", choice, False))
    quanfeng = is_quanfeng(wilds)
    if is_silong(request, wilds) or quanfeng:
        choice = next(c for c in choices if c.code == "quanfeng") if quanfeng else choices[0]
        found.append(_reading(request, wilds, "none", choice, False))
    return found


def best_reading(found: list[Reading]) -> Reading:
    """The most 龙 (P and so every payment grows with it); ties go to more patterns, then the first found."""
    best = found[0]
    for reading in found[1:]:
        if (reading.bonus, len(reading.patterns)) > (best.bonus, len(best.patterns)):
            best = reading
    return best


# --------------------------------------------------------------------------- payments


def di_long(streak: int) -> int:
    """底龙 = 11 + 10 × (streak − 1): 十十上, the first-time dealer 11, 二老庄 21, …"""
    return 11 + 10 * (streak - 1)


def half(unit: int) -> int:
    """P ÷ 2, 四舍五入."""
    return round_half_up(unit, 2)


def liable_rule(request: ScoreRequest) -> str | None:
    """Who pays for all: 抢杠胡 独缴 (the robbed seat) or 包牌 (a 财神 held back and discarded into the win)."""
    if request.has("robbing_kong"):
        return "qianggang"
    if request.has("liable_caishen"):
        return "baopai"
    return None


def payments_for(request: ScoreRequest, unit: int, lang: str) -> list[Payment]:
    winner, discarder = request.winner, request.discarder
    others = [s for s in seats_after(winner)]
    if discarder is None:
        reason = pick(lang, f"自摸：每家付 {unit}", f"self-draw: each pays {unit}")
        return [Payment(s, winner, unit, "long", "zimo", reason) for s in others]
    rows = [
        Payment(
            discarder,
            winner,
            unit,
            "long",
            "fangchong",
            pick(lang, f"放铳：付全额 {unit}", f"discarder: pays the full {unit}"),
        )
    ]
    rule = liable_rule(request)
    for seat in others:
        if seat == discarder:
            continue
        share = half(unit)
        if rule is None:
            rows.append(
                Payment(
                    seat,
                    winner,
                    share,
                    "long",
                    "half",
                    pick(lang, f"未放铳：付一半 {unit}÷2→{share}", f"not the discarder: pays half, {unit}÷2→{share}"),
                )
            )
        else:
            zh = "独缴" if rule == "qianggang" else "包牌"
            en = "robbed kong" if rule == "qianggang" else "liable"
            rows.append(
                Payment(
                    discarder,
                    winner,
                    share,
                    "long",
                    "duijiao" if rule == "qianggang" else "baopai",
                    pick(
                        lang,
                        f"{zh}：代{_seat(seat, lang)}付一半 {share}",
                        f"{en}: pays {_seat(seat, lang)}'s half, {share}",
                    ),
                    seat,
                )
            )
    return rows


def _seat(seat: str, lang: str) -> str:
    return pick(lang, SEAT_NAMES_ZH[seat] + "家", SEAT_NAMES_EN[seat])


# --------------------------------------------------------------------------- the answer


def evaluate(request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
    """The answer for a 14-tile hand.

    `brief` leaves out what only a full result page shows (the normalised request, the hand as groups, the
    explanation): a waits answer scores every wait both ways briefly and links each to its full result.
    """
    wilds = wilds_of(request)
    found = readings(request, wilds)
    if not found:
        code = "silong_discard" if wilds.count == 4 else "incomplete"
        return not_a_win(request, code, lang, brief)
    return win_result(request, wilds, best_reading(found), lang, brief)


def not_a_win(request: ScoreRequest, code: str, lang: str, brief: bool = False) -> dict:
    if code == "silong_discard":
        message = pick(
            lang,
            "4龙只能自摸胡：放铳时必须另有牌型（基本牌型、七对或十三不搭）",
            "4龙 wins only by self-draw: on a discard the hand needs a legal shape too",
        )
    else:
        message = pick(
            lang,
            "不成和牌：不是基本牌型（一对将加四组）、七对、十三不搭、4龙自摸或全风向",
            "Not a win: no standard shape (pair + four sets), seven pairs, thirteen unrelated, self-drawn 4龙 or all honours",
        )
    return not_a_win_answer("xinyu", request, code, message, brief)


def priority_level(codes: tuple[str, ...] | list[str]) -> int:
    """拦胡 level (§2.5): 2 for 全风向; 1 for 单吊, 清一色, 清七对; 0 otherwise."""
    if any(c in PRIORITY_LEVEL_2 for c in codes):
        return 2
    return 1 if any(c in PRIORITY_LEVEL_1 for c in codes) else 0


def win_result(request: ScoreRequest, wilds: Wilds, reading: Reading, lang: str, brief: bool = False) -> dict:
    base = long_from_tiles(wilds.count)
    total_long = base + reading.bonus
    dl = di_long(request.options.dealer_streak)
    unit = dl + total_long
    payments = payments_for(request, unit, lang)
    rule = liable_rule(request)
    net = net_of(payments)
    answer = {"ruleset": "xinyu", "win": True}
    if not brief:
        answer["request"] = request.to_dict()
    answer.update(
        {
            "payments": [p.to_dict() for p in payments],
            "net": net,
            "net_by_part": {"long": dict(net)},  # every xinyu payment is in 龙: one part, the whole net
            "bao": request.discarder if rule else None,
            "bao_rule": rule,
            "long": total_long,
            "caishen": wilds.caishen.notation,
            "caishen_count": wilds.count,
            "long_from_tiles": base,
            "patterns": [{"code": c, "long": v, "label": pick(lang, *PATTERNS[c])} for c, v in reading.patterns],
            "shape": reading.shape,
            "di_long": dl,
            "unit": unit,
            "quanjiao": reading.colour.code == "quanfeng" and reading.shape != "none",
            "priority_level": priority_level(reading.codes),
            "self_draw": request.self_draw,
            "labels": labels(request, reading, lang),
        }
    )
    if not brief:
        answer["decomposition"] = groups_of(request, wilds, reading)
        answer["explanation"] = [line.to_dict() for line in explain(request, wilds, reading, unit, payments, lang)]
    return answer


def concrete_groups(wilds: Wilds, reading: Reading) -> list[Group]:
    """The chosen reading with every 财神 placed (built once, for display)."""
    wild_tiles = (wilds.caishen,) * wilds.count
    if reading.shape == "standard":
        return standard_groups(wilds.blocks, reading.plan, sequences=not reading.triplets)
    if reading.shape == "qidui":
        return seven_pairs_groups(wilds.blocks, wilds.count, reading.colour.colour)
    return loose_groups(wilds.natural, wild_tiles)


def groups_of(request: ScoreRequest, wilds: Wilds, reading: Reading) -> list[dict]:
    """Concealed groups (what each 财神 stands for, the winning tile marked once), then the melds."""
    win = request.win_tile
    win_is_wild = win == wilds.caishen
    out = []
    marked = False
    for group in concrete_groups(wilds, reading):
        holds = (
            win_is_wild and bool(group.wild) or (not win_is_wild and win in group.tiles and _natural_copies(group, win))
        )
        holds = bool(holds) and not marked
        marked = marked or holds
        out.append(
            {
                "type": group.type,
                "tiles": format_tiles(group.tiles),
                "caishen": [t.notation for t in group.wild],
                "concealed": True,
                "win": holds,
            }
        )
    for meld in request.melds:
        body = {
            "type": meld.type,
            "tiles": meld.notation,
            "caishen": [],
            "concealed": meld.type == "kong_concealed",
            "win": False,
        }
        if meld.from_seat:
            body["from"] = meld.from_seat
        out.append(body)
    return out


def _natural_copies(group: Group, tile: Tile) -> bool:
    return group.tiles.count(tile) > group.wild.count(tile)


def labels(request: ScoreRequest, reading: Reading, lang: str) -> list[dict]:
    out = []
    if not reading.patterns:
        out.append(
            {
                "code": "shunhu",
                "label": pick(lang, "顺胡", "plain win"),
                "note": pick(lang, "基本牌型胡牌，无加龙", "a plain standard win: no bonus"),
            }
        )
    if reading.colour.code == "quanfeng" and reading.shape != "none":
        out.append(
            {
                "code": "quanjiao",
                "label": pick(lang, "全缴", "takes all"),
                "note": pick(
                    lang,
                    "全风向且有牌型：冲击房间里其他三家交出全部基本分",
                    "all honours with a shape: in a 冲击 room every other player pays all they have left",
                ),
            }
        )
    if request.has("robbing_kong"):
        out.append(
            {
                "code": "qianggang",
                "label": pick(lang, "抢杠胡", "robbing a kong"),
                "note": pick(lang, "被抢杠者独缴三家", "the robbed player pays for all three"),
            }
        )
    return out


def explain(
    request: ScoreRequest, wilds: Wilds, reading: Reading, unit: int, payments: list[Payment], lang: str
) -> list[Line]:
    lines = []
    cs = wilds.caishen
    if wilds.count:
        detail = pick(
            lang, f"财神 {cs.name_zh}（{cs}）{wilds.count} 张，每张 1 龙", f"{wilds.count} 财神 ({cs}), 1 龙 each"
        )
    else:
        detail = pick(lang, f"没有财神（{cs}）：无龙算2龙", f"no 财神 ({cs}) in hand: counts as 2 龙 (无龙算2龙)")
    base = long_from_tiles(wilds.count)
    lines.append(Line("long_tiles", pick(lang, "龙（财神）", "龙 from 财神"), detail, base, "§2.1"))
    shape_zh, shape_en = SHAPE_NAMES[reading.shape]
    lines.append(Line("shape", pick(lang, "牌型", "shape"), pick(lang, shape_zh, shape_en), 0, "§2.2"))
    for code, value in reading.patterns:
        lines.append(
            Line("long_bonus", pick(lang, *PATTERNS[code]), pattern_detail(code, reading, lang), value, "§2.3")
        )
    total = base + reading.bonus
    parts = " + ".join([str(base)] + [str(v) for _, v in reading.patterns])
    lines.append(Line("long", pick(lang, "龙（合计）", "龙 (total)"), f"{parts} = {total}", total, "§2.3"))
    streak = request.options.dealer_streak
    dl = di_long(streak)
    lines.append(Line("di_long", pick(lang, "底龙", "base 龙"), f"11 + 10 × ({streak} − 1) = {dl}", dl, "§2.4"))
    lines.append(Line("unit", pick(lang, "P（每份）", "P (one share)"), f"{dl} + {total} = {unit}", unit, "§2.4"))
    for row in payments:
        lines.append(
            Line(row.code, f"{_seat(row.payer, lang)} → {_seat(row.payee, lang)}", row.reason, row.amount, "§2.4")
        )
    return lines


PATTERN_DETAILS = {
    "qidui": ("七对，四张相同算两对", "seven pairs; four alike are two pairs"),
    "shisanbuda": (
        "十四张互不搭牢（同花色相隔至少 3），财神除外",
        "no two alike, suited ranks at least 3 apart; 财神 aside",
    ),
    "qifengqi": ("十三不搭中东南西北中发白七张都是真牌", "十三不搭 with all seven honours as natural tiles"),
    "hunyise": ("除风牌外都是一色，且有风牌（含吃碰杠）", "one suit plus honours, melds included"),
    "daduidui": ("一对将加四组刻子（杠）", "a pair and four triplets or kongs"),
    "qingyise": ("全部是一种花色", "every tile of one suit"),
    "qingqidui": ("一色七对：代替对对碰和清一色", "seven pairs of one suit: replaces seven pairs and full flush"),
    "tianhu": ("庄家起手即胡", "the dealer wins on the dealt hand"),
    "dihu": ("闲家胡庄家打出的第一张牌", "a non-dealer wins on the dealer's first discard"),
    "gangbao": ("杠后补牌自摸", "self-draw on a kong replacement"),
    "haidi": ("自摸最后一张牌", "self-draw of the last tile"),
    "dandiao": ("四组副露，单吊一张胡牌", "four melds, the single concealed tile paired"),
    "paolong": ("自摸不胡后再自摸", "self-draw after passing an earlier self-draw"),
    "quanfeng": ("全部是风牌（财神可当风牌）", "every tile an honour (财神 may stand for honours)"),
}


def pattern_detail(code: str, reading: Reading, lang: str) -> str:
    if code == "silong":
        if reading.shape != "none":
            return pick(
                lang, "四张财神自摸 +10，另有牌型再 +10", "four 财神 by self-draw +10, and +10 more with a legal shape"
            )
        return pick(lang, "四张财神自摸，无需牌型", "four 财神 by self-draw, no shape needed")
    if code in ("qingyise", "hunyise") and reading.colour.suit:
        suit_zh = SUIT_NAMES_ZH[reading.colour.suit]
        zh, en = PATTERN_DETAILS[code]
        return pick(lang, f"{zh}（{suit_zh}）", f"{en} ({SUIT_NAMES_EN[reading.colour.suit]})")
    return pick(lang, *PATTERN_DETAILS[code])
