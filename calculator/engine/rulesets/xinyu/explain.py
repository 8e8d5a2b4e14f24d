"""The explanation of a xinyu answer: the hand's groups with what each 财神 stands for, every number as
"name · arithmetic · value · rule", and the labels."""

from __future__ import annotations

from ...explain import Line, line, seat_name
from ...hand import ScoreRequest
from ...notation import format_tiles
from ...payments import PaymentRow
from ...text import Text
from ...tiles import SUIT_NAMES_EN, SUIT_NAMES_ZH, Tile
from ...wildcards import CappedPlan, Group, loose_groups, seven_pairs_groups, standard_groups
from .declarations import BONUS_BY_CODE, LABELS, SHAPE_NAMES
from .payments import table_base
from .reading import Reading
from .wilds import Wilds, long_from_tiles


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
    win = request.win_tile
    win_is_wild = win == wilds.caishen
    out = []
    marked = False
    for group in concrete_groups(wilds, reading):
        holds = (win_is_wild and bool(group.wild)) or (
            not win_is_wild and win in group.tiles and _natural_copies(group, win)
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
    lines = []
    cs = wilds.caishen
    if wilds.count:
        detail = Text(f"财神 {cs.name_zh}（{cs}）{wilds.count} 张，每张 1 龙", f"{wilds.count} 财神 ({cs}), 1 龙 each")
    else:
        detail = Text(f"没有财神（{cs}）：无龙算2龙", f"no 财神 ({cs}) in hand: counts as 2 龙")
    base = long_from_tiles(wilds.count)
    lines.append(line(lang, "long_tiles", Text("龙（财神）", "龙 from 财神"), detail, base, "§2.1"))
    lines.append(line(lang, "shape", Text("牌型", "shape"), SHAPE_NAMES[reading.shape], 0, "§2.2"))
    for code, value in reading.patterns:
        name = BONUS_BY_CODE[code].name
        lines.append(line(lang, "long_bonus", name, pattern_detail(request, code, reading), value, "§2.3"))
    total = base + reading.bonus
    parts = " + ".join([str(base)] + [str(v) for _, v in reading.patterns])
    lines.append(line(lang, "long", Text("龙（合计）", "龙 (total)"), f"{parts} = {total}", total, "§2.3"))
    lines.append(di_long_line(request, lang))
    dl = table_base(request)
    lines.append(line(lang, "unit", Text("P（每份）", "P (one share)"), f"{dl} + {total} = {unit}", unit, "§2.4"))
    for one in payments:
        label = f"{seat_name(one['from'], lang)} → {seat_name(one['to'], lang)}"
        lines.append(line(lang, one["code"], label, one["reason"], one["amount"], "§2.4"))
    return lines


def di_long_line(request: ScoreRequest, lang: str) -> Line:
    streak = request.options.dealer_streak
    dl = table_base(request)
    label = Text("底龙", "base 龙")
    if streak != 1 and request.options.house["dilong"] == "dealer_only" and request.winner != request.dealer:
        detail = Text(
            f"闲家胡：11（桌规：连庄 {streak} 只在庄家胡时算）",
            f"a non-dealer won: 11 (house rule: the streak of {streak} counts only when the dealer wins)",
        )
        return line(lang, "di_long", label, detail, dl, "§5.2")
    return line(lang, "di_long", label, f"11 + 10 × ({streak} − 1) = {dl}", dl, "§2.4")


def pattern_detail(request: ScoreRequest, code: str, reading: Reading) -> Text:
    """What a bonus is, for this hand: its pattern's meaning, with the suit of a colour and 4龙's shape."""
    if code == "silong":
        if reading.shape != "none":
            return Text(
                "四张财神自摸 +10，另有牌型再 +10", "four 财神 by self-draw +10, and +10 more with a legal shape"
            )
        return Text("四张财神自摸，无需牌型", "four 财神 by self-draw, no shape needed")
    what = BONUS_BY_CODE[code].what
    if code in ("qingyise", "hunyise") and reading.colour.suit:
        suit = reading.colour.suit
        return Text(f"{what.zh}（{SUIT_NAMES_ZH[suit]}）", f"{what.en} ({SUIT_NAMES_EN[suit]})")
    if code == "qifengqi" and 0 in request.concealed_counts[27:34]:
        return Text(f"{what.zh}（桌规：财神补缺的字牌）", f"{what.en} (house rule: 财神 fill the missing honours)")
    return what
