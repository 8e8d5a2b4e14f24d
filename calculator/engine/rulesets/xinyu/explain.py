"""The explanation of a xinyu answer: the hand's groups with what each 财神 stands for, every number as
"name · arithmetic · value · rule", and the labels."""

from __future__ import annotations

from ...explain import Line, line, seat_name
from ...hand import ScoreRequest
from ...notation import format_tiles
from ...payments import PaymentRow
from ...text import Said, msg
from ...tiles import SUIT_NAMES_EN, SUIT_NAMES_ZH, Tile
from ...wildcards import CappedPlan, Group, loose_groups, seven_pairs_groups, standard_groups
from .declarations import BONUS_BY_CODE, LABELS, SHAPE_NAMES, SILONG_DETAIL
from .payments import table_base
from .reading import Reading, Won
from .wilds import Wilds


def concrete_groups(wilds: Wilds, reading: Reading) -> list[Group]:
    """The chosen reading with every 财神 placed (built once, for display)."""
    if reading.shape == "standard":
        if isinstance(reading.plan, CappedPlan):
            return list(reading.plan.groups)
        return standard_groups(wilds.blocks, reading.plan, sequences=not reading.triplets)
    if reading.shape == "qidui":
        return seven_pairs_groups(wilds.blocks, wilds.count, reading.colour.colour)
    return loose_groups(wilds.natural, (wilds.caishen,) * wilds.count, loose_pattern(reading))


def loose_pattern(reading: Reading) -> str:
    """The pattern a hand read without sets is: 十三不搭, or a shapeless win: 全风向 (its colour), else 4龙."""
    if reading.shape == "shisanbuda":
        return "shisanbuda"
    return "quanfeng" if reading.colour.code == "quanfeng" else "silong"


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


def labels(request: ScoreRequest, won: Won, lang: str) -> list[dict]:
    out = []
    if not won.patterns:
        out.append(_label("shunhu", lang))
    if won.quanjiao:
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
    """Every number of the answer, in the order a referee checks them, written for this answer in its language."""
    base = reading.from_tiles
    lines = [
        _long_tiles_line(wilds.caishen, wilds.count, base, lang),
        line(lang, "shape", msg("shape"), SHAPE_NAMES[reading.shape], 0, "§2.2"),
    ]
    add = lines.append
    for code, value in reading.patterns:
        add(_bonus_line(code, value, *_detail_facts(request, code, reading), lang))
    values = [value for _, value in reading.patterns]
    total = base + sum(values)
    parts = " + ".join([str(base)] + [str(v) for v in values])
    add(line(lang, "long", msg("龙 (total)"), f"{parts} = {total}", total, "§2.3"))
    options = request.options
    streak_ignored = (
        options.dealer_streak != 1 and options.house["dilong"] == "dealer_only" and request.winner != request.dealer
    )
    dl = table_base(request)
    add(_di_long_line(options.dealer_streak, streak_ignored, dl, lang))
    add(line(lang, "unit", msg("P (one share)"), f"{dl} + {base + reading.bonus} = {unit}", unit, "§2.4"))
    for one in payments:
        payer, payee = one["from"], one["to"]
        label = f"{seat_name(payer, lang)} → {seat_name(payee, lang)}"
        add(line(lang, one["code"], label, one["reason"], one["amount"], "§2.4"))
    return lines


def _long_tiles_line(caishen: Tile, count: int, base: int, lang: str) -> Line:
    """龙 from the 财神 held (`base`): one each, or 2 when there are none (无龙算2龙), or 0 when the reading has
    龙 from its patterns under the house rule wulong=total."""
    rule = "§2.1"
    if count:
        detail = msg("{count} 财神 ({tile}), 1 龙 each", count=count, tile=caishen, name_zh=caishen.name_zh)
    elif base:
        detail = msg("no 财神 ({tile}) in hand: counts as 2 龙", tile=caishen)
    else:
        detail = msg(
            "no 财神 ({tile}) in hand, but the patterns add 龙: not 无龙 (house rule: 无龙 means no 龙 at all)",
            tile=caishen,
        )
        rule = "§5.2"
    return line(lang, "long_tiles", msg("龙 from 财神"), detail, base, rule)


def _bonus_line(
    code: str, value: int, shapeless: bool, suit: str | None, honours_filled: bool, discard: bool, lang: str
) -> Line:
    """One 龙 bonus with what it is for this hand (`pattern_detail`'s facts)."""
    detail = pattern_detail(code, shapeless, suit, honours_filled, discard)
    rule = "§5.2" if discard else "§2.3"  # 4龙 on a discard: the house rule silong_discard
    return line(lang, "long_bonus", BONUS_BY_CODE[code].name, detail, value, rule)


def _di_long_line(streak: int, streak_ignored: bool, dl: int, lang: str) -> Line:
    """底龙 from the dealer's streak, or 11 when the house rule counts the streak only for the dealer's own win."""
    label = msg("base 龙")
    if streak_ignored:
        detail = msg(
            "a non-dealer won: 11 (house rule: the streak of {streak} counts only when the dealer wins)", streak=streak
        )
        return line(lang, "di_long", label, detail, dl, "§5.2")
    return line(lang, "di_long", label, f"11 + 10 × ({streak} − 1) = {dl}", dl, "§2.4")


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


def pattern_detail(code: str, shapeless: bool, suit: str | None, honours_filled: bool, discard: bool) -> Said:
    """What a bonus is, for this hand: its pattern's meaning, with the suit of a colour and 4龙's shape (and its
    win by discard, under the house rule silong_discard)."""
    if code == "silong":
        return SILONG_DETAIL["by_discard" if discard else "shapeless" if shapeless else "with_shape"]
    what = BONUS_BY_CODE[code].what
    if code in ("qingyise", "hunyise") and suit:
        return msg("{what} ({suit_en})", what=what, suit_en=SUIT_NAMES_EN[suit], suit_zh=SUIT_NAMES_ZH[suit])
    if honours_filled:
        return msg("{what} (house rule: 财神 fill the missing honours)", what=what)
    return what
