"""The explanation of a xinyu answer: the hand's groups with what each 财神 stands for, every number as
"name · arithmetic · value · rule", and the labels."""

from __future__ import annotations

from functools import cache

from ...explain import Line, line, seat_name
from ...frozen import FrozenDict
from ...hand import ScoreRequest
from ...notation import format_tiles
from ...payments import PaymentRow
from ...text import Text
from ...tiles import ALL_TILES, SUIT_NAMES_EN, SUIT_NAMES_ZH
from ...wildcards import CappedPlan, Group, loose_groups, seven_pairs_groups, standard_groups
from .declarations import BONUS_BY_CODE, LABELS, SHAPE_NAMES, SILONG_DETAIL
from .payments import table_base
from .reading import Reading
from .wilds import Wilds


def concrete_groups(wilds: Wilds, reading: Reading) -> list[Group]:
    """The chosen reading with every 财神 placed (built once, for display)."""
    if reading.shape == "standard":
        if isinstance(reading.plan, CappedPlan):
            return list(reading.plan.groups)
        return standard_groups(wilds.blocks, reading.plan, sequences=not reading.triplets)
    if reading.shape == "qidui":
        return seven_pairs_groups(wilds.blocks, wilds.count, reading.colour.colour)
    return loose_groups(wilds.natural, (wilds.caishen,) * wilds.count)


def groups_of(request: ScoreRequest, wilds: Wilds, reading: Reading) -> list[dict]:
    """Concealed groups (what each 财神 stands for, the winning tile marked once), then the melds."""
    win = request.win_tile.index
    win_is_wild = win == wilds.caishen.index
    out = []
    marked = False
    for group in concrete_groups(wilds, reading):
        holds = not marked and _shows_win(group, win, win_is_wild)
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


def _shows_win(group: Group, win: int, win_is_wild: bool) -> bool:
    """Whether the group can show the winning tile (kind `win`): a 财神 won sits in a group with a 财神, a natural
    tile in a group that holds a natural copy of it."""
    if win_is_wild:
        return bool(group.wild)
    return [t.index for t in group.tiles].count(win) > [t.index for t in group.wild].count(win)


def labels(request: ScoreRequest, reading: Reading, lang: str) -> list[dict]:
    out = []
    if not reading.patterns:
        out.append(_label("shunhu", lang))
    if reading.colour.code == "quanfeng" and reading.shape != "none":
        out.append(_label("quanjiao", lang))
    if request.has("robbing_kong"):
        out.append(_label("qianggang", lang))
    return out


def _label(code: str, lang: str) -> dict:
    name, note = LABELS[code]
    return {"code": code, "label": name(lang), "note": note(lang)}


def explain(
    request: ScoreRequest, wilds: Wilds, reading: Reading, unit: int, payments: list[PaymentRow], lang: str
) -> list[Line]:
    """Every number of the answer, in the order a referee checks them. Each line is a remembered one, written
    once per the few small values it says (FrozenDicts, shared between answers, as bazhi's are); the list is the
    caller's."""
    base = reading.from_tiles
    lines = [_long_tiles_line(wilds.caishen.index, wilds.count, base, lang), _shape_line(reading.shape, lang)]
    add = lines.append
    for code, value in reading.patterns:
        add(_bonus_line(code, value, *_detail_facts(request, code, reading), lang))
    values = tuple([value for _, value in reading.patterns])
    add(_total_line(base, values, lang))
    options = request.options
    streak_ignored = (
        options.dealer_streak != 1 and options.house["dilong"] == "dealer_only" and request.winner != request.dealer
    )
    dl = table_base(request)
    add(_di_long_line(options.dealer_streak, streak_ignored, dl, lang))
    add(_unit_line(dl, base + reading.bonus, unit, lang))
    for one in payments:
        add(_payment_line(one["from"], one["to"], one["code"], one["reason"], one["amount"], lang))
    return lines


@cache
def _long_tiles_line(caishen: int, count: int, base: int, lang: str) -> FrozenDict:
    """龙 from the 财神 held (`base`): one each, or 2 when there are none (无龙算2龙), or 0 when the reading has
    龙 from its patterns under the house rule wulong=total."""
    cs = ALL_TILES[caishen]
    rule = "§2.1"
    if count:
        detail = Text(f"财神 {cs.name_zh}（{cs}）{count} 张，每张 1 龙", f"{count} 财神 ({cs}), 1 龙 each")
    elif base:
        detail = Text(f"没有财神（{cs}）：无龙算2龙", f"no 财神 ({cs}) in hand: counts as 2 龙")
    else:
        detail = Text(
            f"没有财神（{cs}），但有加龙：不算无龙（桌规：无龙指没有任何龙）",
            f"no 财神 ({cs}) in hand, but the patterns add 龙: not 无龙 (house rule: 无龙 means no 龙 at all)",
        )
        rule = "§5.2"
    return FrozenDict(line(lang, "long_tiles", Text("龙（财神）", "龙 from 财神"), detail, base, rule))


@cache
def _shape_line(shape: str, lang: str) -> FrozenDict:
    return FrozenDict(line(lang, "shape", Text("牌型", "shape"), SHAPE_NAMES[shape], 0, "§2.2"))


@cache
def _bonus_line(
    code: str, value: int, shapeless: bool, suit: str | None, honours_filled: bool, discard: bool, lang: str
) -> FrozenDict:
    """One 龙 bonus with what it is for this hand (`pattern_detail`'s facts)."""
    detail = pattern_detail(code, shapeless, suit, honours_filled, discard)
    rule = "§5.2" if discard else "§2.3"  # 4龙 on a discard: the house rule silong_discard
    return FrozenDict(line(lang, "long_bonus", BONUS_BY_CODE[code].name, detail, value, rule))


@cache
def _total_line(base: int, values: tuple[int, ...], lang: str) -> FrozenDict:
    """龙 in all: the 财神's and every bonus's."""
    total = base + sum(values)
    parts = " + ".join([str(base)] + [str(v) for v in values])
    return FrozenDict(line(lang, "long", Text("龙（合计）", "龙 (total)"), f"{parts} = {total}", total, "§2.3"))


@cache
def _di_long_line(streak: int, streak_ignored: bool, dl: int, lang: str) -> FrozenDict:
    """底龙 from the dealer's streak, or 11 when the house rule counts the streak only for the dealer's own win."""
    label = Text("底龙", "base 龙")
    if streak_ignored:
        detail = Text(
            f"闲家胡：11（桌规：连庄 {streak} 只在庄家胡时算）",
            f"a non-dealer won: 11 (house rule: the streak of {streak} counts only when the dealer wins)",
        )
        return FrozenDict(line(lang, "di_long", label, detail, dl, "§5.2"))
    return FrozenDict(line(lang, "di_long", label, f"11 + 10 × ({streak} − 1) = {dl}", dl, "§2.4"))


@cache
def _unit_line(dl: int, total: int, unit: int, lang: str) -> FrozenDict:
    """P, one share: 底龙 + 龙."""
    return FrozenDict(line(lang, "unit", Text("P（每份）", "P (one share)"), f"{dl} + {total} = {unit}", unit, "§2.4"))


@cache
def _payment_line(payer: str, payee: str, code: str, reason: str, amount: int, lang: str) -> FrozenDict:
    """One payment row as a line: who pays whom, why, how much."""
    label = f"{seat_name(payer, lang)} → {seat_name(payee, lang)}"
    return FrozenDict(line(lang, code, label, reason, amount, "§2.4"))


def _detail_facts(request: ScoreRequest, code: str, reading: Reading) -> tuple[bool, str | None, bool, bool]:
    """What `pattern_detail` says of a bonus beyond its code: a shapeless reading, the suit of its colour,
    whether 财神 filled missing honours (七风齐 under the house rule), and a win by discard (4龙 under the house
    rule silong_discard)."""
    return (
        reading.shape == "none",
        reading.colour.suit,
        code == "qifengqi" and 0 in request.concealed_counts[27:34],
        code == "silong" and request.discarder is not None,
    )


def pattern_detail(code: str, shapeless: bool, suit: str | None, honours_filled: bool, discard: bool) -> Text:
    """What a bonus is, for this hand: its pattern's meaning, with the suit of a colour and 4龙's shape (and its
    win by discard, under the house rule silong_discard)."""
    if code == "silong":
        return SILONG_DETAIL["by_discard" if discard else "shapeless" if shapeless else "with_shape"]
    what = BONUS_BY_CODE[code].what
    if code in ("qingyise", "hunyise") and suit:
        return Text(f"{what.zh}（{SUIT_NAMES_ZH[suit]}）", f"{what.en} ({SUIT_NAMES_EN[suit]})")
    if honours_filled:
        return Text(f"{what.zh}（桌规：财神补缺的字牌）", f"{what.en} (house rule: 财神 fill the missing honours)")
    return what
