"""The explanation of a bazhi answer: every number as "name · arithmetic · value · rule", and the labels.

Lines that depend only on a few small values and codes (not on the hand) are written once per distinct value and
remembered, as FrozenDicts shared by the answers (nobody can change them); their texts are formatted only then.
"""

from __future__ import annotations

from functools import cache

from ...explain import Line, line, seat_name
from ...frozen import FrozenDict
from ...hand import MELD_NAMES, ScoreRequest
from ...text import Text
from ...tiles import ALL_TILES, Tile
from .declarations import BAO_REASONS, JIAO_TRIGGERS, LABELS, TARIFFS, ZUI, Tariff
from .reading import Reading

ZUI_NAMES = {pattern.code: pattern.name for pattern in ZUI}
TRIGGER_NAMES = {pattern.code: pattern.name for pattern in JIAO_TRIGGERS}
DI_FAN_NAMES = (
    Text("和牌", "plain win"),
    Text("压档", "middle wait"),
    Text("自摸", "self-draw"),
    Text("自摸压档", "self-draw + middle wait"),
)
YADANG = Text("压档", "middle wait")


def explain(
    request: ScoreRequest,
    tariff: Tariff,
    reading: Reading,
    bao: tuple[str, str] | None,
    waits: list[Tile],
    lang: str,
) -> list[Line]:
    """Every number of the answer, in the order a referee checks them. The list is the caller's."""
    counts = request.suit_counts
    win = request.win_tile
    unique = len(waits) == 1
    lines = [_zhi_count_line(*counts.values(), lang)]
    add = lines.append
    if reading.yadang is not None:
        add(_yadang_line(win.index, unique, lang))
    elif reading.win_role == "middle":
        waits_text = " ".join(t.notation for t in waits)
        detail = Text(
            f"坎张，但听的不止一张（{waits_text}），不算压档",
            f"middle tile, but the hand waits on more than one kind ({waits_text}): no 压档",
        )
        add(line(lang, "yadang", YADANG, detail, 0, "§1.2"))
    if reading.dandiao:
        add(_dandiao_line(win.index, lang))
    add(_zhi_fan_line(tariff.name, request.largest_suit, reading.yadang, reading.zhi_fan, lang))
    if reading.zui:
        lines.extend(_zui_lines(tuple(reading.zui), tuple(reading.sihe_kinds), tariff.zui, lang))
    lines.extend(
        _fan_lines(
            lang,
            tariff.name,
            request.discarder is None,
            reading.yadang is not None,
            reading.zhi_fan,
            len(reading.zui),
            reading.di_fan,
            tuple([m.type for m in request.kongs]),
            reading.kong_points,
            reading.fan,
            None if request.winner == request.dealer else request.dealer,
            request.discarder,
        )
    )
    lines.extend(
        _jiao_lines(
            tuple(reading.triggers),
            request.options.multi_jiao,
            reading.jiao_count,
            reading.extra_zui,
            reading.jiao_per_loser,
            tariff.name,
            request.discarder is not None,
            lang,
        )
    )
    if bao:
        add(_bao_line(*bao, lang))
    return lines


@cache
def _yadang_line(win: int, unique: bool, lang: str) -> FrozenDict:
    """压档: the win tile (kind `win`) is the middle of its sequence and the only wait, or (house rule
    yadang_wait=any) the middle alone; its value is the tile's rank."""
    tile = ALL_TILES[win]
    if unique:
        detail = Text(
            f"{tile.name_zh}是顺子的中张，且只听这一张", f"{tile} is the middle of a sequence and the only wait"
        )
    else:
        detail = Text(
            f"{tile.name_zh}是顺子的中张（桌规：压档不要求只听一张）",
            f"{tile} is the middle of a sequence (house rule: no unique wait needed)",
        )
    return FrozenDict(line(lang, "yadang", YADANG, detail, tile.rank, "§1.2"))


@cache
def _dandiao_line(win: int, lang: str) -> FrozenDict:
    """单吊: the win tile completes the pair and is the only wait."""
    tile = ALL_TILES[win]
    detail = Text(f"胡{tile.name_zh}成将，且只听这一张", f"{tile} completes the pair and is the only wait")
    return FrozenDict(line(lang, "dandiao", Text("单吊", "pair wait"), detail, 1, "§1.2"))


@cache
def _bao_line(payer: str, reason: str, lang: str) -> FrozenDict:
    """包牌: who pays everything, and by which row of the table (§1.6)."""
    said = BAO_REASONS[reason]
    detail = Text(
        f"{said.zh}：{seat_name(payer, 'zh')}一家付全部", f"{said.en}: {seat_name(payer, 'en')} pays everything"
    )
    return FrozenDict(line(lang, "bao", Text("包牌", "liable payer"), detail, 0, "§1.6"))


def labels(request: ScoreRequest, lang: str) -> list[dict]:
    """Facts shown as labels: they change no number under the request's card."""
    card = request.options.house
    out = []
    if request.has("last_tile") and card["haidi"] == "label":
        out.append(_label("haidi", lang))
    if request.has("robbing_kong") and card["qianggang"] == "as_discard":
        out.append(_label("qianggang", lang))
    return out


def _label(code: str, lang: str) -> dict:
    name, note = LABELS[code]
    return {"code": code, "label": name(lang), "note": note(lang)}


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
) -> tuple[Line, ...]:
    """The 底番, 杠分, 番 and the dealer's and discarder's lines."""
    tariff = TARIFFS[tariff_name]
    lines = [line(lang, "di_fan", Text("底番", "base fan"), DI_FAN_NAMES[2 * self_draw + yadang], di_fan, "§1.3")]
    add = lines.append
    if kong_points:
        parts = " + ".join(f"{MELD_NAMES[kind](lang)} {tariff.kong[kind]}" for kind in kong_types)
        add(line(lang, "kong_points", Text("杠分", "kong points"), f"{parts} = {kong_points}", kong_points, "§1.3"))
    formula = fan_formula(zhi_fan, zui_count, tariff.zui, self_draw, di_fan, kong_points, fan)
    add(line(lang, "fan", Text("番（每家）", "fan (each loser)"), formula, fan, "§1.4"))
    add(line(lang, "dealer_extra", Text("庄家", "dealer"), dealer_detail(dealer), di_fan, "§1.4"))
    if discarder:
        name_zh, name_en = seat_name(discarder, "zh"), seat_name(discarder, "en")
        detail = Text(f"{name_zh}放铳，多赔一份底番", f"{name_en} discarded: one more base fan")
        add(line(lang, "discarder_extra", Text("放铳", "discarder"), detail, di_fan, "§1.4"))
    return tuple([FrozenDict(one) for one in lines])


def fan_formula(
    zhi_fan: int, zui: int, zui_value: int, self_draw: bool, di_fan: int, kong_points: int, fan: int
) -> str:
    """F = (支番 + Z × 嘴) × 2 if self-drawn + 底番 + 杠分: "(3 + 1 × 2) × 2 + 3 = 13"."""
    formula = f"({zhi_fan} + {zui} × {zui_value}){' × 2' if self_draw else ''} + {di_fan}"
    if kong_points:
        formula += f" + {kong_points}"
    return f"{formula} = {fan}"


def dealer_detail(dealer: str | None) -> Text:
    """The dealer's extra 底番: `dealer` is None when the dealer won (each loser pays it then)."""
    if dealer is None:
        return Text("庄家胡牌，每个输家各多赔一份底番", "the dealer won: each loser pays one more base fan")
    return Text(
        f"庄家（{seat_name(dealer, 'zh')}）多赔一份底番",
        f"the dealer ({seat_name(dealer, 'en')}) pays one more base fan",
    )


@cache
def _zhi_count_line(m: int, p: int, s: int, lang: str) -> FrozenDict:
    """The 支数 line: the three suits' counts, the largest is the 支数."""
    detail = Text(
        f"万 {m}，筒 {p}，条 {s}（杠算 4 张，取最多的一门）", f"m {m}, p {p}, s {s} (a kong counts 4; the largest suit)"
    )
    return FrozenDict(line(lang, "zhi_count", Text("支数", "suit count"), detail, max(m, p, s), "§1.2"))


@cache
def _zhi_fan_line(tariff: str, best: int, yadang: int | None, zhi_fan: int, lang: str) -> FrozenDict:
    detail = zhi_fan_formula(tariff, best, yadang, zhi_fan, lang)
    return FrozenDict(line(lang, "zhi_fan", Text("支番", "suit fan"), detail, zhi_fan, "§1.3"))


@cache
def _zui_lines(zui: tuple[str, ...], sihe_kinds: tuple[int, ...], zui_value: int, lang: str) -> tuple[FrozenDict, ...]:
    """One line per 嘴, each worth one 嘴子 of the tariff."""
    label = Text("嘴子", "zui")
    return tuple(
        [FrozenDict(line(lang, "zui", label, name, zui_value, "§1.4")) for name in zui_names(zui, sihe_kinds, lang)]
    )


def zhi_fan_formula(tariff: str, best: int, yadang: int | None, zhi_fan: int, lang: str) -> str:
    """(9 + 压8) × 2 ÷ 10 = 3.4 → 3, or (9 + 压8) ÷ 2 = 8.5 → 9."""
    total = best + (yadang or 0)
    yadang_part = f" + {Text('压', 'mid ')(lang)}{yadang}" if yadang else ""
    if tariff == "315":
        arithmetic = f"({best}{yadang_part}) × 2 ÷ 10 = {_decimal(total * 2, 10)} → {zhi_fan}"
    else:
        arithmetic = f"({best}{yadang_part}) ÷ 2 = {_decimal(total, 2)} → {zhi_fan}"
    return arithmetic + Text("（四舍五入）", " (rounded half up)")(lang)


def _decimal(numerator: int, denominator: int) -> str:
    """numerator ÷ denominator (10 or 2) written exactly, "3.4" or "4", with integers only (as `:g` writes it)."""
    whole, rest = divmod(numerator, denominator)
    return f"{whole}.{rest * 10 // denominator}" if rest else str(whole)


def zui_names(zui: tuple[str, ...], sihe_kinds: tuple[int, ...], lang: str) -> tuple[str, ...]:
    """Each 嘴 with its name; a 四核 names its tile kind."""
    sihe = iter(sihe_kinds)
    names = []
    for code in zui:
        name = ZUI_NAMES[code](lang)
        if code == "sihe":
            name += f" {Tile(next(sihe))}"
        names.append(name)
    return tuple(names)


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
) -> tuple[Line, ...]:
    """The 交 lines."""
    label = Text("交牌", "jiao")
    if not triggers:
        detail = Text("不交（没有两嘴，也没有直接交或特殊交）", "no jiao (no two 嘴, no direct or special jiao)")
        return (FrozenDict(line(lang, "jiao", label, detail, 0, "§1.5")),)
    detail = jiao_detail(triggers, multi, count, extra_zui, tariff_name, lang)
    label = Text("交牌（每家，底外）", "jiao (each loser, outside the 底)")
    lines = [line(lang, "jiao", label, detail, per_loser, "§1.5")]
    if discard:
        extra = Text("放铳家多赔一嘴交分", "the discarder pays one more 嘴")
        jiao_zui = TARIFFS[tariff_name].jiao_zui
        lines.append(line(lang, "discarder_jiao", Text("放铳交牌", "discarder's jiao"), extra, jiao_zui, "§1.5"))
    return tuple([FrozenDict(one) for one in lines])


def jiao_detail(triggers: tuple[str, ...], multi: bool, count: int, extra_zui: int, tariff: str, lang: str) -> str:
    """What makes the 交 and its arithmetic: "清一色 · 一交 · 1 × 30 + 1 × 10 = 40"."""
    names = Text("、", ", ")(lang).join(TRIGGER_NAMES[t](lang) for t in triggers)
    mode = Text("可多交", "multi-jiao")(lang) if multi else Text("一交", "one jiao")(lang)
    jiao, zui = TARIFFS[tariff].jiao, TARIFFS[tariff].jiao_zui
    return f"{names} · {mode} · {count} × {jiao} + {extra_zui} × {zui} = {count * jiao + extra_zui * zui}"
