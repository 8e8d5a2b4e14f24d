"""`bazhi`: the 112-tile 红中 game of seed 002 (315 / 525), read as RULES.md §1.

Every number of the answer is made here, each by a small function named after its rule, and each
comes with the line that explains it (`Line`). The engine tries every decomposition of the hand and
every place the winning tile can sit in it, and keeps the reading that pays the winner the most.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from ...decompose import Decomposition, completing_kinds, decompositions, is_complete
from ...errors import ScoreError, flag_conflict, pick
from ...explain import decomposition_groups, line, not_a_win_answer
from ...frozen import FrozenDict
from ...hand import MELD_NAMES_EN, MELD_NAMES_ZH, ScoreRequest
from ...payments import round_half_up
from ...tiles import ALL_TILES, RED_DRAGON, SEAT_NAMES_EN, SEAT_NAMES_ZH, SEATS, SUITS, Tile


@dataclass(frozen=True)
class Tariff:
    name: str
    di_fan: tuple[int, int, int, int]  # 和牌, 压档, 自摸, 自摸压档
    zhi_numerator: int  # 支番 = T × numerator ÷ denominator, rounded half up
    zhi_denominator: int
    zui: int  # one 嘴子 in 番
    kong: Mapping[str, int]
    jiao: int  # 交分 of one 交 (one 底)
    jiao_zui: int  # 交分 of one extra 嘴


TARIFFS = {
    "315": Tariff("315", (1, 2, 3, 4), 2, 10, 2, {"kong_exposed": 1, "kong_added": 1, "kong_concealed": 2}, 30, 10),
    "525": Tariff("525", (2, 4, 6, 8), 1, 2, 5, {"kong_exposed": 2, "kong_added": 2, "kong_concealed": 4}, 50, 20),
}

ZUI_NAMES = {
    "duidui": ("对对胡", "all pungs"),
    "tongtian": ("通天", "straight 1-9"),
    "sihe": ("四核", "four-of-a-kind core"),
    "hunyise": ("混一色", "one suit + red dragons"),
    "ganghua": ("杠后开花", "win on a kong replacement"),
}
TRIGGER_NAMES = {
    "qingyise": ("清一色", "pure one suit"),
    "shuangbazhi": ("双八支", "double eight"),
    "shuangsihe": ("双四核", "two cores"),
    "tianhu": ("天胡", "heavenly hand"),
    "dihu": ("地胡", "earthly hand"),
    "two_zui": ("两嘴", "two 嘴"),
    "ganghua_yadang": ("杠后开花+压档", "kong bloom + middle wait"),
    "ganghua_dandiao": ("杠后开花+单吊", "kong bloom + pair wait"),
    "gangshang_ganghua": ("杠上杠后开花", "double kong bloom"),
    "hunyise_zimo": ("混一色+自摸", "one suit + red, self-drawn"),
}
DIRECT_TRIGGERS = ("qingyise", "shuangbazhi", "shuangsihe", "tianhu", "dihu")
GANGHUA_TRIGGERS = ("ganghua_yadang", "ganghua_dandiao", "gangshang_ganghua")


def _names(table, code: str, lang: str) -> str:
    zh, en = table[code]
    return pick(lang, zh, en)


def _seat(seat: str, lang: str) -> str:
    return pick(lang, SEAT_NAMES_ZH[seat] + "家", SEAT_NAMES_EN[seat])


# --------------------------------------------------------------------------- the ruleset interface


OPTION_NAMES = frozenset(["tariff", "multi_jiao"])


class Bazhi:
    name = "bazhi"
    name_zh = "八支（红中）"
    name_en = "bazhi (red dragon game)"
    kinds = frozenset(list(range(27)) + [RED_DRAGON])
    flags = frozenset(["kong_bloom", "double_kong_bloom", "robbing_kong", "last_tile", "heavenly", "earthly"])
    allows_chow = False

    def parse_options(self, raw: object):
        if raw is None:
            raw = {}
        if not isinstance(raw, (dict, Mapping)):  # dict first: the usual answer, cheaper than the abstract check
            raise ScoreError("bad_option", "options 必须是对象", "options must be an object", "options")
        if not raw.keys() <= OPTION_NAMES:
            unknown = sorted(set(raw) - OPTION_NAMES)
            raise ScoreError(
                "bad_option", f"八支没有选项 {unknown[0]!r}", f"bazhi has no option {unknown[0]!r}", "options"
            )
        tariff = raw.get("tariff", "315")
        if isinstance(tariff, int) and not isinstance(tariff, bool):
            tariff = str(tariff)
        if not isinstance(tariff, str) or tariff not in TARIFFS:  # a list here would not even be hashable
            raise ScoreError(
                "bad_option",
                f"算法必须是 315 或 525，收到 {tariff!r}",
                f"tariff must be '315' or '525', got {tariff!r}",
                "options.tariff",
            )
        multi = raw.get("multi_jiao", False)
        if not isinstance(multi, bool):
            raise ScoreError(
                "bad_option",
                "可多交 multi_jiao 必须是 true 或 false",
                "multi_jiao must be true or false",
                "options.multi_jiao",
            )
        return _options(tariff, multi)

    def check_meld(self, tiles, options, number: int, field: str) -> None:
        return None  # every bazhi meld shape is checked by the common rules

    def check_flags(self, request: ScoreRequest) -> None:
        if request.has("last_tile") and (request.has("kong_bloom") or request.has("double_kong_bloom")):
            raise flag_conflict(
                "海底捞月时（余牌不超过 4 张）不允许开杠，不能同时是杠后开花",
                "last_tile excludes kong_bloom: no kong is allowed with 4 or fewer tiles left",
            )

    def is_win(self, request: ScoreRequest) -> bool:
        return max(request.suit_counts.values()) >= 8 and is_complete(request.concealed_counts)

    def waits_of(self, request: ScoreRequest) -> list[int]:
        """The winning kinds of a 13-tile hand, from its counts (see `waits_from_counts`)."""
        return waits_from_counts(request.concealed_counts, request.all_counts, list(request.suit_counts.values()))

    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        return evaluate(request, lang, brief)


RULESET = Bazhi()


@cache
def _options(tariff: str, multi_jiao: bool):
    """The four possible option values, each built once (they are immutable)."""
    from ...hand import BazhiOptions

    return BazhiOptions(tariff, multi_jiao)


def waits_from_counts(concealed: list[int], all_counts: list[int], suit_totals: list[int] | None = None) -> list[int]:
    """Kinds that win before the last tile: they complete the shape, keep 八支, and are not a fifth copy.

    `suit_totals` (m p s, melds included) are summed from `all_counts` unless the caller has them.
    Whether the tile comes by self-draw or discard changes nothing here (`is_win` ignores it).
    """
    if suit_totals is None:
        suit_totals = [sum(all_counts[base : base + 9]) for base in (0, 9, 18)]
    eight_already = max(suit_totals) >= 8
    return [
        kind
        for kind in completing_kinds(concealed)
        if kind in RULESET.kinds and all_counts[kind] < 4 and (eight_already or _makes_eight(suit_totals, kind))
    ]


def _makes_eight(suit_totals: list[int], kind: int) -> bool:
    """八支 reached by adding `kind`: its suit had seven (红中 belongs to no suit)."""
    return kind < 27 and suit_totals[kind // 9] + 1 >= 8


# --------------------------------------------------------------------------- reading one hand


class Reading(NamedTuple):
    """One way to read the hand: a decomposition and the place of the winning tile in it.

    Readings are compared by `total` alone (what the winner receives), so no payment row is built until
    one reading is chosen (`payments_for`).
    """

    decomposition: Decomposition
    win_role: str  # "pair" | "middle" | "side" | "triplet"
    yadang: int | None
    dandiao: bool
    zui: list[str]
    sihe_kinds: list[int]
    triggers: list[str]
    zhi_fan: int
    di_fan: int
    kong_points: int
    fan: int
    jiao_count: int
    extra_zui: int
    jiao_per_loser: int
    total: int  # what the winner receives in all, fan and jiao (`winner_total`)
    bao: str | None = None  # set on the chosen reading only (`with_bao`)
    bao_rule: str | None = None

    @property
    def pattern_count(self) -> int:
        return len(self.zui) + len(self.triggers) + (self.yadang is not None) + self.dandiao


def win_roles(decomposition: Decomposition, win: int) -> list[str]:
    """Where the winning tile can sit in this decomposition (one reading per distinct place)."""
    roles = []
    if decomposition.pair == win:
        roles.append("pair")
    for first in decomposition.sequences:
        if first <= win <= first + 2:
            role = "middle" if win == first + 1 else "side"
            if role not in roles:
                roles.append(role)
    if win in decomposition.triplets:
        roles.append("triplet")
    return roles


def is_self_draw(request: ScoreRequest) -> bool:
    """自摸, 杠后开花, 杠上杠后开花, 天胡 and 海底捞月 are all self-draws: no discarder."""
    return request.discarder is None  # the field itself: `request.self_draw` is one more call, twice a score


def is_ganghua(request: ScoreRequest) -> bool:
    flags = request.flags
    return "kong_bloom" in flags or "double_kong_bloom" in flags


def tongtian_suits(decomposition: Decomposition) -> set[str]:
    """通天: the sequences 123, 456 and 789 of one suit."""
    if len(decomposition.sequences) < 3:
        return set()  # 通天 needs three sequences
    starts = set(decomposition.sequences)
    return {suit for i, suit in enumerate(SUITS) if {i * 9, i * 9 + 3, i * 9 + 6} <= starts}


def sihe_kinds(facts: HandFacts, decomposition: Decomposition, tongtian: set[str]) -> list[int]:
    """四核: all four copies held (not as a kong) as a triplet plus one in a sequence.

    With 通天 in a suit, every kind of that suit held four times counts (通天四核 [reading]).
    """
    found = []
    for kind in facts.four_held:
        in_sequence = any(first <= kind <= first + 2 for first in decomposition.sequences)
        in_triplet = kind in decomposition.triplets or kind in facts.pung_kinds
        if (in_triplet and in_sequence) or SUITS[kind // 9] in tongtian:
            found.append(kind)
    return found


def colour(request: ScoreRequest) -> str | None:
    """'qingyise' (one suit, no 红中), 'hunyise' (one suit + 红中), or None."""
    m, p, s = request.suit_counts.values()
    if (m > 0) + (p > 0) + (s > 0) != 1:
        return None
    return "hunyise" if request.all_counts[RED_DRAGON] else "qingyise"


def is_shuangbazhi(request: ScoreRequest) -> bool:
    """双八支 [reading]: a suit with 8 or more tiles and another suit with two kongs."""
    if len(request.kongs) < 2:
        return False  # most hands: no suit can hold two kongs
    kongs_by_suit = {s: 0 for s in SUITS}
    for meld in request.kongs:
        if meld.suit in kongs_by_suit:
            kongs_by_suit[meld.suit] += 1
    counts = request.suit_counts
    return any(counts[a] >= 8 and kongs_by_suit[b] >= 2 for a in SUITS for b in SUITS if a != b)


def zhi_fan(tariff: Tariff, total: int) -> int:
    """支番 = T × 2 ÷ 10 (315) or T ÷ 2 (525), rounded half up."""
    return round_half_up(total * tariff.zhi_numerator, tariff.zhi_denominator)


def di_fan(tariff: Tariff, self_draw: bool, yadang: bool) -> int:
    """底番: 和牌 / 压档 / 自摸 / 自摸压档."""
    return tariff.di_fan[2 * self_draw + yadang]


def kong_points(tariff: Tariff, request: ScoreRequest) -> int:
    """杠分: the winner's own kongs only."""
    return sum(tariff.kong[m.type] for m in request.kongs)


def jiao_triggers(
    request: ScoreRequest, facts: HandFacts, zui: list[str], sihe: list[int], yadang, dandiao: bool
) -> list[str]:
    triggers = []
    hue = facts.colour
    if hue == "qingyise":
        triggers.append("qingyise")
    if facts.shuangbazhi:
        triggers.append("shuangbazhi")
    if len(sihe) >= 2:
        triggers.append("shuangsihe")
    flags = request.flags
    if "heavenly" in flags:
        triggers.append("tianhu")
    if "earthly" in flags:
        triggers.append("dihu")
    if len(zui) >= 2:
        triggers.append("two_zui")
    ganghua = facts.ganghua
    if ganghua and yadang is not None:
        triggers.append("ganghua_yadang")
    if ganghua and dandiao:
        triggers.append("ganghua_dandiao")
    if "double_kong_bloom" in flags:
        triggers.append("gangshang_ganghua")
    if hue == "hunyise" and facts.self_draw:
        triggers.append("hunyise_zimo")
    return triggers


def zui_units(facts: HandFacts, zui: list[str]) -> int:
    """U: the 嘴 for 交. 自摸 is one more 嘴 inside 交, except when 杠后开花 already covers it."""
    return len(zui) + (1 if facts.self_draw and not facts.ganghua else 0)


TRIGGER_COST = {
    "qingyise": 0,
    "shuangbazhi": 0,
    "tianhu": 0,
    "dihu": 0,
    "shuangsihe": 2,
    "ganghua_yadang": 1,
    "ganghua_dandiao": 1,
    "gangshang_ganghua": 1,
    "hunyise_zimo": 2,
    "two_zui": 2,
}


def single_jiao(triggers: list[str], units: int) -> tuple[int, int]:
    """Without 可多交: one 交 plus every 嘴 beyond those used to reach it."""
    cost = min(TRIGGER_COST[t] for t in triggers)
    return 1, units - cost


def multi_jiao(request: ScoreRequest, triggers: list[str], units: int) -> tuple[int, int]:
    """With 可多交: every direct trigger is a 交, and every two remaining 嘴 make one more."""
    count = sum(t in triggers for t in ("qingyise", "shuangbazhi", "tianhu", "dihu"))
    remaining = units
    if "shuangsihe" in triggers:
        count += 1
        remaining -= 2
    if any(t in triggers for t in GANGHUA_TRIGGERS):
        count += 1
        remaining -= 1
    return count + remaining // 2, remaining % 2


# --------------------------------------------------------------------------- 包牌


def _one_colour(melds) -> str | None:
    """The suit X when every meld is of suit X or 红中 (at least one suited), else None."""
    suits = {m.suit for m in melds if m.kind.index != RED_DRAGON}
    return next(iter(suits)) if len(suits) == 1 else None


def find_bao(request: ScoreRequest) -> tuple[str, str] | None:
    """The seat that pays for everyone, and the 报警 row that names it (RULES.md §1.6)."""
    exposed = [m for m in request.melds if m.type in ("pung", "kong_exposed", "kong_added")]
    discarder = request.discarder
    first_three = exposed[:3]
    suit = _one_colour(first_three) if len(first_three) == 3 else None
    if suit:
        feeders = {m.from_seat for m in first_three}
        if len(feeders) == 1:
            return first_three[0].from_seat, "three_same_feeder"
        if len(exposed) >= 4 and (exposed[3].suit == suit or exposed[3].kind.index == RED_DRAGON):
            return exposed[3].from_seat, "fourth_meld"
        if discarder:
            return discarder, "three_melds"
    if not discarder:
        return None
    for kong_suit in SUITS:
        if sum(1 for k in request.kongs if k.suit == kong_suit) >= 2 and any(
            m.suit != kong_suit and m.kind.index != RED_DRAGON for m in exposed
        ):
            return discarder, "shuangbazhi"
    pungs = [m for m in exposed if m.type == "pung" and m.kind.index != RED_DRAGON]
    for a in pungs:
        for b in pungs:
            if a is not b and a.suit == b.suit and 1 <= b.kind.rank - a.kind.rank <= 2:
                return discarder, "shuangsihe"
    red = any(m.kind.index == RED_DRAGON for m in exposed)
    if red and _one_colour(exposed):
        return discarder, "hunyise_red"
    return None


BAO_RULES = {
    "three_same_feeder": (
        "清一色/混一色三对，同一家供牌：供牌者包牌",
        "three one-colour melds fed by one seat: that seat pays for all",
    ),
    "fourth_meld": ("四对转包：第四对的供牌者包牌", "fourth one-colour meld: its feeder pays for all"),
    "three_melds": ("清一色/混一色三对报警，放铳者包牌", "three one-colour melds on alarm: the discarder pays for all"),
    "shuangbazhi": ("双八支报警，放铳者包牌", "double-eight alarm: the discarder pays for all"),
    "shuangsihe": ("双四核报警，放铳者包牌", "two-core alarm: the discarder pays for all"),
    "hunyise_red": ("混一色顶嘴子，放铳者包牌", "red dragon + one suit alarm: the discarder pays for all"),
}


# --------------------------------------------------------------------------- payments


def winner_total(request: ScoreRequest, tariff: Tariff, fan: int, di_fan: int, jiao_count: int, jiao: int) -> int:
    """The sum of the rows `payments_for` would build, without building them: readings are ranked on it.

    Each loser pays the fan; the dealer one more 底番 (each loser when the dealer wins); the discarder one
    more 底番; with 交 each loser pays `jiao` and the discarder one more 嘴. 包牌 changes who pays, never how
    much, so it does not enter. `tests/engine/test_properties.py` checks this against the rows.
    """
    discard = request.discarder is not None
    total = 3 * fan + (3 if request.winner == request.dealer else 1) * di_fan + (di_fan if discard else 0)
    if jiao_count:
        total += 3 * jiao + (tariff.jiao_zui if discard else 0)
    return total


def payments_for(request: ScoreRequest, tariff: Tariff, reading: Reading, lang: str) -> list[dict]:
    """The chosen reading's payment rows, as the answer carries them (`_row`)."""
    return payments_and_nets(request, tariff, reading, lang)[0]


def payments_and_nets(
    request: ScoreRequest, tariff: Tariff, reading: Reading, lang: str
) -> tuple[list[dict], dict[str, int], dict[str, dict[str, int]]]:
    """The payment rows and each seat's balance (`nets`). The list is the caller's; the rows and balances are
    the remembered ones (`_plain_payments`, FrozenDicts: shared between answers, so nobody can change them).

    包牌 moves rows to the liable seat (new dicts for the rows it takes over), so its balances are summed again
    from the moved rows.
    """
    rows, net, by_part = _plain_payments(
        request.winner,
        request.dealer,
        request.discarder,
        reading.fan,
        reading.di_fan,
        reading.jiao_per_loser if reading.jiao_count else None,
        tariff.jiao_zui,
        lang == "en",
    )
    if reading.bao:
        moved = [_paid_by(reading.bao, row, lang) for row in rows]
        return (moved, *nets(moved))
    return list(rows), net, by_part


@cache
def _plain_payments(
    winner: str,
    dealer: str,
    discarder: str | None,
    fan: int,
    di: int,
    jiao: int | None,
    jiao_zui: int,
    en: bool,
) -> tuple[tuple[dict, ...], dict[str, int], dict[str, dict[str, int]]]:
    """The rows before 包牌 (rows of 0 left out) and their `nets`.

    They depend only on the seats and a few small amounts (a few thousand values in all), not on the hand, so
    each is built once and remembered, as the explanation's texts are; FrozenDicts, so every answer can hold them.
    """
    losers = LOSERS[winner]
    reason = PAYMENT_REASONS[en]
    rows = [_row(loser, winner, fan, "fan", "fan", reason["fan"]) for loser in losers]
    if winner == dealer:
        rows += [_row(loser, winner, di, "fan", "dealer_extra", reason["dealer_won"]) for loser in losers]
    else:
        rows.append(_row(dealer, winner, di, "fan", "dealer_extra", reason["dealer_extra"]))
    if discarder:
        rows.append(_row(discarder, winner, di, "fan", "discarder_extra", reason["discarder_extra"]))
    if jiao is not None:
        rows += [_row(loser, winner, jiao, "jiao", "jiao", reason["jiao"]) for loser in losers]
        if discarder:
            rows.append(_row(discarder, winner, jiao_zui, "jiao", "discarder_jiao", reason["discarder_jiao"]))
    rows = [row for row in rows if row["amount"]]  # 包牌 changes who pays, never an amount: filtered first
    net, by_part = nets(rows)
    parts = FrozenDict({part: FrozenDict(balances) for part, balances in by_part.items()})
    return tuple([FrozenDict(row) for row in rows]), FrozenDict(net), parts


def _row(payer: str, payee: str, amount: int, part: str, code: str, reason: str) -> dict:
    """One payment row in the answer's form (`Payment.to_dict`), built as a dict at once: an answer has up to
    eleven rows, and making each a `Payment` first only to turn it into this dict cost as much again."""
    return {"from": payer, "to": payee, "amount": amount, "part": part, "code": code, "reason": reason}


def _paid_by(liable: str, row: dict, lang: str) -> dict:
    """包牌: the liable seat pays the row (as it is); a row it takes over is a new one naming the seat it pays for."""
    payer = row["from"]
    if payer == liable:
        return row
    prefix = pick(lang, f"包牌（代{_seat(payer, lang)}）：", f"liable (for {_seat(payer, lang)}): ")
    return {**row, "from": liable, "reason": prefix + row["reason"], "on_behalf_of": payer}


LOSERS = {seat: tuple(s for s in ("E", "S", "W", "N") if s != seat) for seat in ("E", "S", "W", "N")}
# Each row's reason, per language (index 0 Chinese, 1 English), looked up once per answer.
PAYMENT_REASONS = (
    {
        "fan": "番",
        "dealer_won": "庄家胡牌，每家多赔一份底番",
        "dealer_extra": "庄家多赔一份底番",
        "discarder_extra": "放铳多赔一份底番",
        "jiao": "交牌",
        "discarder_jiao": "放铳交牌，多赔一嘴交分",
    },
    {
        "fan": "fan",
        "dealer_won": "dealer won: one more base fan each",
        "dealer_extra": "dealer pays one more base fan",
        "discarder_extra": "discarder pays one more base fan",
        "jiao": "jiao",
        "discarder_jiao": "discarder pays one more 嘴 of jiao",
    },
)


# --------------------------------------------------------------------------- choosing the reading


class HandFacts(NamedTuple):
    """What every reading of one hand shares, worked out once per hand instead of once per reading."""

    self_draw: bool
    ganghua: bool
    colour: str | None
    shuangbazhi: bool
    zhi_count: int  # the largest suit, melds included
    kong_points: int
    four_held: tuple[int, ...]  # suited kinds held four times, not as a kong: the 四核 candidates
    pung_kinds: frozenset[int]


def hand_facts(request: ScoreRequest, tariff: Tariff) -> HandFacts:
    counts = request.all_counts
    four_held: tuple[int, ...] = ()
    pung_kinds: frozenset[int] = frozenset()
    # 四核 needs a suited kind held four times: rare, so asked once before looking (红中 is the only honour)
    if 4 in counts and counts.index(4) < 27:
        kong_kinds = {m.kind.index for m in request.kongs}
        four_held = tuple(k for k in range(27) if counts[k] == 4 and k not in kong_kinds)
        pung_kinds = frozenset(m.kind.index for m in request.melds if m.type == "pung")
    kongs = request.kongs
    # positional, in the order of the fields: a score builds one per hand, and keywords cost more to bind
    return HandFacts(
        is_self_draw(request),
        bool(request.flags) and is_ganghua(request),
        colour(request),
        len(kongs) >= 2 and is_shuangbazhi(request),  # needs two kongs: most hands have none
        max(request.suit_counts.values()),
        kong_points(tariff, request) if kongs else 0,
        four_held,
        pung_kinds,  # only 四核 asks for them
    )


def read_hand(
    request: ScoreRequest,
    tariff: Tariff,
    facts: HandFacts,
    decomposition: Decomposition,
    role: str,
    unique: bool,
) -> Reading:
    win = request.win_tile
    yadang = win.rank if role == "middle" and unique else None
    dandiao = role == "pair" and unique
    tongtian = tongtian_suits(decomposition) if len(decomposition.sequences) >= 3 else ()  # 通天 needs three
    sihe = sihe_kinds(facts, decomposition, tongtian) if facts.four_held else []
    zui: list[str] = []
    if not decomposition.sequences:
        zui.append("duidui")
    if tongtian:
        zui.extend(["tongtian"] * len(tongtian))
    if sihe:
        zui.extend(["sihe"] * len(sihe))
    if facts.colour == "hunyise":
        zui.append("hunyise")
    if facts.ganghua:
        zui.append("ganghua")
    self_draw = facts.self_draw
    zhi_total = facts.zhi_count + (yadang or 0)
    zf = zhi_fan(tariff, zhi_total)
    df = di_fan(tariff, self_draw, yadang is not None)
    kp = facts.kong_points
    fan = (zf + len(zui) * tariff.zui) * (2 if self_draw else 1) + df + kp
    triggers = jiao_triggers(request, facts, zui, sihe, yadang, dandiao)
    count, extra = 0, 0
    if triggers:
        units = zui_units(facts, zui)
        count, extra = (
            multi_jiao(request, triggers, units) if request.options.multi_jiao else single_jiao(triggers, units)
        )
    jiao = count * tariff.jiao + extra * tariff.jiao_zui if triggers else 0
    # positional, in the order of the fields (see `Reading`): one is built per reading of every score
    return Reading(
        decomposition,
        role,
        yadang,
        dandiao,
        zui,
        sihe,
        triggers,
        zf,
        df,
        kp,
        fan,
        count,
        extra,
        jiao,
        winner_total(request, tariff, fan, df, count, jiao),
    )


def best_reading(readings: list[Reading]) -> Reading:
    """The reading that pays the winner most; ties go to more patterns, then the first found."""
    best = readings[0]
    for reading in readings[1:]:
        if (reading.total, reading.pattern_count) > (best.total, best.pattern_count):
            best = reading
    return best


def with_bao(request: ScoreRequest, reading: Reading) -> Reading:
    """The chosen reading with the seat that pays for everyone, if any (包牌 needs a 交)."""
    bao = find_bao(request) if reading.triggers else None
    return reading._replace(bao=bao[0], bao_rule=bao[1]) if bao else reading


def evaluate(request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
    """The answer for a 14-tile hand.

    `brief` leaves out what only a full result page shows (the normalised request, the hand as groups, the
    explanation): a waits answer scores every wait both ways briefly and links each to its full result.
    """
    tariff = TARIFFS[request.options.tariff]
    counts = request.suit_counts
    splits = decompositions(request.concealed_counts)
    if not splits:
        return not_a_win(request, "incomplete", lang, brief)
    if max(counts.values()) < 8:
        return not_a_win(request, "no_bazhi", lang, brief)
    waits = waits_before_win(request)
    win = request.win_tile.index
    unique = len(waits) == 1 and waits[0].index == win
    facts = hand_facts(request, tariff)
    readings = [read_hand(request, tariff, facts, d, role, unique) for d in splits for role in win_roles(d, win)]
    reading = with_bao(request, best_reading(readings))
    return win_result(request, tariff, reading, waits, lang, brief)


def waits_before_win(request: ScoreRequest) -> list[Tile]:
    """The waits of the hand before its last tile: 压档 and 单吊 need the win tile to be the only one."""
    win = request.win_tile.index
    concealed = list(request.concealed_counts)
    concealed[win] -= 1
    all_counts = list(request.all_counts)
    all_counts[win] -= 1
    suit_totals = list(request.suit_counts.values())
    if win < 27:
        suit_totals[win // 9] -= 1
    return [ALL_TILES[kind] for kind in waits_from_counts(concealed, all_counts, suit_totals)]


def suit_counts_text(request: ScoreRequest, lang: str) -> str:
    m, p, s = request.suit_counts.values()  # in the order m p s
    return f"m {m}, p {p}, s {s}" if lang == "en" else f"万 {m}，筒 {p}，条 {s}"


def not_a_win(request: ScoreRequest, code: str, lang: str, brief: bool = False) -> dict:
    if code == "no_bazhi":
        message = pick(lang, "不够八支：", "No suit reaches eight tiles (八支): ") + suit_counts_text(request, lang)
    else:
        message = pick(
            lang,
            "不成和牌：拆不成一对将加四组（顺子或刻子）",
            "Not a complete hand: it cannot be split into one pair and four sets",
        )
    answer = not_a_win_answer("bazhi", request, code, message, brief)
    answer["suit_counts"] = dict(request.suit_counts)
    return answer


# --------------------------------------------------------------------------- the answer


def win_result(
    request: ScoreRequest, tariff: Tariff, reading: Reading, waits: list[Tile], lang: str, brief: bool = False
) -> dict:
    payments, net, net_by_part = payments_and_nets(request, tariff, reading, lang)
    triggers = reading.triggers
    answer = {
        "ruleset": "bazhi",
        "win": True,
        "request": None if brief else request.to_dict(),  # in its place in the answer; a brief one drops it below
        "payments": payments,
        "net": net,
        "net_by_part": net_by_part,
        "bao": reading.bao,
        "bao_rule": reading.bao_rule,
        "zhi_count": max(request.suit_counts.values()),
        "suit_counts": dict(request.suit_counts),
        "yadang": reading.yadang,
        "dandiao": reading.dandiao,
        "zhi_fan": reading.zhi_fan,
        "zui": reading.zui,
        "di_fan": reading.di_fan,
        "kong_points": reading.kong_points,
        "fan": reading.fan,
        "jiao": {
            "is_jiao": bool(triggers),
            "count": reading.jiao_count,
            "extra_zui": reading.extra_zui,
            "per_loser": reading.jiao_per_loser,
            "triggers": triggers,
        },
        "self_draw": request.discarder is None,
        "labels": labels(request, lang) if request.flags else [],  # labels name flags
        "waits_before_win": [t.notation for t in waits],
    }
    if brief:
        del answer["request"]
    if not brief:
        answer["decomposition"] = decomposition_groups(request, reading.decomposition, reading.win_role)
        answer["explanation"] = explain(request, tariff, reading, waits, lang)
    return answer


def nets(payments: list[dict]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Each seat's balance in all and per part ("fan", "jiao"), in one pass over the rows."""
    net = dict.fromkeys(SEATS, 0)
    by_part = {"fan": dict.fromkeys(SEATS, 0), "jiao": dict.fromkeys(SEATS, 0)}
    for row in payments:
        payer, payee, amount, part = row["from"], row["to"], row["amount"], by_part[row["part"]]
        net[payer] -= amount
        net[payee] += amount
        part[payer] -= amount
        part[payee] += amount
    return net, by_part


def labels(request: ScoreRequest, lang: str) -> list[dict]:
    """Facts shown as labels only: they change no number of this seed."""
    out = []
    if request.has("last_tile"):
        out.append(
            {
                "code": "haidi",
                "label": pick(lang, "海底捞月", "last tile"),
                "note": pick(lang, "本规则只作标注，不加分", "a label only in this game"),
            }
        )
    if request.has("robbing_kong"):
        out.append(
            {
                "code": "qianggang",
                "label": pick(lang, "抢杠胡", "robbing a kong"),
                "note": pick(lang, "按放铳胡计算，被抢杠者为放铳家", "paid as a discard win by the robbed player"),
            }
        )
    return out


def explain(request: ScoreRequest, tariff: Tariff, reading: Reading, waits: list[Tile], lang: str) -> list[dict]:
    """Every number of the answer as "name · arithmetic · value", in the order a referee checks them.

    The list is the caller's. Lines that depend only on a few small values and codes are remembered and shared
    between answers (FrozenDicts: nobody can change them); the others are built here.
    """
    counts = request.suit_counts
    best = max(counts.values())
    win = request.win_tile
    self_draw = is_self_draw(request)
    en = lang == "en"  # each detail is formatted in the user's language only
    lines = [_zhi_count_line(*counts.values(), lang)]
    add = lines.append
    if reading.yadang is not None:
        detail = (
            f"{win} is the middle of a sequence and the only wait" if en else f"{win.name_zh}是顺子的中张，且只听这一张"
        )
        add(line(lang, "yadang", ("压档", "middle wait"), detail, reading.yadang, "§1.2"))
    elif reading.win_role == "middle":
        waits_text = " ".join(t.notation for t in waits)
        if en:
            detail = f"middle tile, but the hand waits on more than one kind ({waits_text}): no 压档"
        else:
            detail = f"坎张，但听的不止一张（{waits_text}），不算压档"
        add(line(lang, "yadang", ("压档", "middle wait"), detail, 0, "§1.2"))
    if reading.dandiao:
        detail = f"{win} completes the pair and is the only wait" if en else f"胡{win.name_zh}成将，且只听这一张"
        add(line(lang, "dandiao", ("单吊", "pair wait"), detail, 1, "§1.2"))
    add(_zhi_fan_line(tariff.name, best, reading.yadang, reading.zhi_fan, lang))
    if reading.zui:
        lines.extend(_zui_lines(tuple(reading.zui), tuple(reading.sihe_kinds), tariff.zui, lang))
    dealer = None if request.winner == request.dealer else request.dealer
    fan_lines = _fan_lines(
        lang,
        tariff.name,
        self_draw,
        reading.yadang is not None,
        reading.zhi_fan,
        len(reading.zui),
        reading.di_fan,
        tuple([m.type for m in request.kongs]),
        reading.kong_points,
        reading.fan,
        dealer,
        request.discarder,
    )
    lines.extend(fan_lines)
    lines.extend(jiao_lines(request, tariff, reading, lang))
    if reading.bao:
        zh_rule, en_rule = BAO_RULES[reading.bao_rule]
        payer = _seat(reading.bao, lang)
        detail = f"{en_rule}: {payer} pays everything" if en else f"{zh_rule}：{payer}一家付全部"
        add(line(lang, "bao", ("包牌", "liable payer"), detail, 0, "§1.6"))
    return lines


@cache
def _fan_lines(
    lang: str,
    tariff_name: str,
    self_draw: bool,
    yadang: bool,
    zhi_fan: int,
    zui_count: int,
    di_fan: int,
    kong_types: tuple[str, ...],
    kong_points: int,
    fan: int,
    dealer: str | None,
    discarder: str | None,
) -> tuple[dict, ...]:
    """The 底番, 杠分, 番 and dealer's and discarder's lines: they depend on these few small values and codes, not
    on the hand, so each distinct set is written once and remembered (as FrozenDicts, shared by the answers)."""
    tariff = TARIFFS[tariff_name]
    di_name = DI_FAN_NAMES[2 * self_draw + yadang]
    lines = [line(lang, "di_fan", ("底番", "base fan"), di_name, di_fan, "§1.3")]
    add = lines.append
    if kong_points:
        parts = " + ".join(
            f"{pick(lang, MELD_NAMES_ZH[kind], MELD_NAMES_EN[kind])} {tariff.kong[kind]}" for kind in kong_types
        )
        add(
            line(
                lang,
                "kong_points",
                ("杠分", "kong points"),
                f"{parts} = {kong_points}",
                kong_points,
                "§1.3",
            )
        )
    formula = fan_formula(zhi_fan, zui_count, tariff.zui, self_draw, di_fan, kong_points, fan)
    add(line(lang, "fan", ("番（每家）", "fan (each loser)"), formula, fan, "§1.4"))
    add(line(lang, "dealer_extra", ("庄家", "dealer"), dealer_detail(dealer, lang), di_fan, "§1.4"))
    if discarder:
        detail = discarder_detail(discarder, lang)
        add(line(lang, "discarder_extra", ("放铳", "discarder"), detail, di_fan, "§1.4"))
    return tuple([FrozenDict(one) for one in lines])


@cache
def fan_formula(
    zhi_fan: int, zui: int, zui_value: int, self_draw: bool, di_fan: int, kong_points: int, fan: int
) -> str:
    """F = (支番 + Z × 嘴) × 2 if self-drawn + 底番 + 杠分: "(3 + 1 × 2) × 2 + 3 = 13"."""
    formula = f"({zhi_fan} + {zui} × {zui_value}){' × 2' if self_draw else ''} + {di_fan}"
    if kong_points:
        formula += f" + {kong_points}"
    return f"{formula} = {fan}"


@cache
def dealer_detail(dealer: str | None, lang: str) -> str:
    """The dealer's extra 底番: `dealer` is None when the dealer won (each loser pays it then)."""
    if dealer is None:
        return pick(lang, "庄家胡牌，三家各多赔一份底番", "the dealer won: each loser pays one more base fan")
    name = _seat(dealer, lang)
    return pick(lang, f"庄家（{name}）多赔一份底番", f"the dealer ({name}) pays one more base fan")


@cache
def discarder_detail(discarder: str, lang: str) -> str:
    name = _seat(discarder, lang)
    return pick(lang, f"{name}放铳，多赔一份底番", f"{name} discarded: one more base fan")


DI_FAN_NAMES = (
    ("和牌", "plain win"),
    ("压档", "middle wait"),
    ("自摸", "self-draw"),
    ("自摸压档", "self-draw + middle wait"),
)


# The lines below depend on a few small numbers and codes, not on the hand: each is written once per distinct
# value (a few hundred in all) and remembered, as the notation of groups is; their texts are formatted only then.


def zhi_count_detail(m: int, p: int, s: int, lang: str) -> str:
    if lang == "en":
        return f"m {m}, p {p}, s {s} (a kong counts 4; the largest suit)"
    return f"万 {m}，筒 {p}，条 {s}（杠算 4 张，取最多的一门）"


@cache
def _zhi_count_line(m: int, p: int, s: int, lang: str) -> FrozenDict:
    """The 支数 line: the three suits' counts, the largest is the 支数."""
    detail = zhi_count_detail(m, p, s, lang)
    return FrozenDict(line(lang, "zhi_count", ("支数", "suit count"), detail, max(m, p, s), "§1.2"))


@cache
def _zhi_fan_line(tariff: str, best: int, yadang: int | None, zhi_fan: int, lang: str) -> FrozenDict:
    detail = zhi_fan_formula(tariff, best, yadang, zhi_fan, lang)
    return FrozenDict(line(lang, "zhi_fan", ("支番", "suit fan"), detail, zhi_fan, "§1.3"))


@cache
def _zui_lines(zui: tuple[str, ...], sihe_kinds: tuple[int, ...], zui_value: int, lang: str) -> tuple[FrozenDict, ...]:
    """One line per 嘴, each worth one 嘴子 of the tariff."""
    return tuple(
        [
            FrozenDict(line(lang, "zui", ("嘴子", "zui"), name, zui_value, "§1.4"))
            for name in zui_names(zui, sihe_kinds, lang)
        ]
    )


def zhi_fan_formula(tariff: str, best: int, yadang: int | None, zhi_fan: int, lang: str) -> str:
    """(9 + 压8) × 2 ÷ 10 = 3.4 → 3, or (9 + 压8) ÷ 2 = 8.5 → 9."""
    total = best + (yadang or 0)
    yadang_part = f" + {pick(lang, '压', 'mid ')}{yadang}" if yadang else ""
    if tariff == "315":
        arithmetic = f"({best}{yadang_part}) × 2 ÷ 10 = {_decimal(total * 2, 10)} → {zhi_fan}"
    else:
        arithmetic = f"({best}{yadang_part}) ÷ 2 = {_decimal(total, 2)} → {zhi_fan}"
    return arithmetic + pick(lang, "（四舍五入）", " (rounded half up)")


def _decimal(numerator: int, denominator: int) -> str:
    """numerator ÷ denominator (10 or 2) written exactly, "3.4" or "4", with integers only (as `:g` writes it)."""
    whole, rest = divmod(numerator, denominator)
    return f"{whole}.{rest * 10 // denominator}" if rest else str(whole)


def zui_names(zui: tuple[str, ...], sihe_kinds: tuple[int, ...], lang: str) -> tuple[str, ...]:
    """Each 嘴 with its name; a 四核 names its tile kind."""
    sihe = iter(sihe_kinds)
    names = []
    for code in zui:
        name = _names(ZUI_NAMES, code, lang)
        if code == "sihe":
            name += f" {Tile(next(sihe))}"
        names.append(name)
    return tuple(names)


def jiao_lines(request: ScoreRequest, tariff: Tariff, reading: Reading, lang: str) -> tuple[dict, ...]:
    """The 交 lines, the remembered ones (`_jiao_lines`)."""
    return _jiao_lines(
        tuple(reading.triggers),
        request.options.multi_jiao,
        reading.jiao_count,
        reading.extra_zui,
        reading.jiao_per_loser,
        tariff.name,
        request.discarder is not None,
        lang,
    )


@cache
def _jiao_lines(
    triggers: tuple[str, ...],
    multi: bool,
    count: int,
    extra_zui: int,
    per_loser: int,
    tariff_name: str,
    discard: bool,
    lang: str,
) -> tuple[dict, ...]:
    """The 交 lines depend on these few small values and codes, not on the hand: each set is written once (as
    FrozenDicts, shared by the answers)."""
    if not triggers:
        detail = ("不交（没有两嘴，也没有直接交或特殊交）", "no jiao (no two 嘴, no direct or special jiao)")
        return (FrozenDict(line(lang, "jiao", ("交牌", "jiao"), detail, 0, "§1.5")),)
    detail = jiao_detail(triggers, multi, count, extra_zui, tariff_name, lang)
    label = ("交牌（每家，底外）", "jiao (each loser, outside the 底)")
    lines = [line(lang, "jiao", label, detail, per_loser, "§1.5")]
    if discard:
        detail = ("放铳家多赔一嘴交分", "the discarder pays one more 嘴")
        jiao_zui = TARIFFS[tariff_name].jiao_zui
        lines.append(line(lang, "discarder_jiao", ("放铳交牌", "discarder's jiao"), detail, jiao_zui, "§1.5"))
    return tuple([FrozenDict(one) for one in lines])


@cache
def jiao_detail(triggers: tuple[str, ...], multi: bool, count: int, extra_zui: int, tariff: str, lang: str) -> str:
    """What makes the 交 and its arithmetic: "清一色 · 一交 · 1 × 30 + 1 × 10 = 40"."""
    names = pick(lang, "、", ", ").join(_names(TRIGGER_NAMES, t, lang) for t in triggers)
    mode = pick(lang, "可多交", "multi-jiao") if multi else pick(lang, "一交", "one jiao")
    jiao, zui = TARIFFS[tariff].jiao, TARIFFS[tariff].jiao_zui
    return f"{names} · {mode} · {count} × {jiao} + {extra_zui} × {zui} = {count * jiao + extra_zui * zui}"
