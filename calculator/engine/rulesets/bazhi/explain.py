"""The explanation of a bazhi answer: every number as "name · arithmetic · value · rule", and the labels.

Each line is written for its answer, in the answer's language (calculator/engine/text.py: English in the code,
Chinese in the `answers` catalogue)."""

from __future__ import annotations

from ...explain import Line, line, player_at
from ...hand import MELD_NAMES, ScoreRequest
from ...text import AND, Joined, Msg, Text, msg, pmsg
from ...tiles import Tile
from .declarations import BAO_REASONS, JIAO_TRIGGERS, LABELS, TARIFFS, ZUI, Tariff
from .reading import Reading

ZUI_NAMES = {pattern.code: pattern.name for pattern in ZUI}
TRIGGER_NAMES = {pattern.code: pattern.name for pattern in JIAO_TRIGGERS}
YADANG = msg("middle wait")
# 底番 by how the hand won: 2 × self-drawn + 压档
DI_FAN_NAMES = (msg("plain win"), YADANG, msg("self-draw"), msg("self-draw + middle wait"))


def explain(
    request: ScoreRequest,
    tariff: Tariff,
    reading: Reading,
    bao: tuple[str, str] | None,
    waits: list[Tile],
    lang: str,
) -> list[Line]:
    """Every number of the answer, in the order a referee checks them."""
    win = request.win_tile
    lines = [_zhi_count_line(*request.suit_counts.values(), lang)]
    add = lines.append
    if reading.yadang is not None:
        add(_yadang_line(win, len(waits) == 1, lang))
    elif reading.win_role == "middle":
        detail = msg(
            "middle tile, but the hand waits on more than one kind ({waits}): no 压档",
            waits=" ".join(t.notation for t in waits),
            waits_zh="、".join(t.name_zh for t in waits),  # the Chinese names its tiles as every line does
        )
        add(line(lang, "yadang", YADANG, detail, 0, "§1.2"))
    if reading.dandiao:
        detail = msg("{tile} completes the pair and is the only wait", tile=win, name_zh=win.name_zh)
        add(line(lang, "dandiao", msg("pair wait"), detail, 1, "§1.2"))
    detail = zhi_fan_formula(tariff.name, request.largest_suit, reading.yadang, reading.zhi_fan, lang)
    add(line(lang, "zhi_fan", msg("suit fan"), detail, reading.zhi_fan, "§1.3"))
    for name in zui_names(tuple(reading.zui), tuple(reading.sihe_kinds), lang):
        add(line(lang, "zui", msg("zui"), name, tariff.zui, "§1.4"))
    lines.extend(_fan_lines(request, tariff, reading, lang))
    lines.extend(_jiao_lines(request, tariff, reading, lang))
    if bao:
        add(_bao_line(*bao, lang))
    return lines


def _yadang_line(win: Tile, unique: bool, lang: str) -> Line:
    """压档: the win tile is the middle of its sequence and the only wait, or (house rule yadang_wait=any) the
    middle alone; its value is the tile's rank."""
    if unique:
        detail = msg("{tile} is the middle of a sequence and the only wait", tile=win, name_zh=win.name_zh)
    else:
        detail = msg(
            "{tile} is the middle of a sequence (house rule: no unique wait needed)", tile=win, name_zh=win.name_zh
        )
    return line(lang, "yadang", YADANG, detail, win.rank, "§1.2")


def _bao_line(payer: str, reason: str, lang: str) -> Line:
    """包牌: who pays everything, and by which row of the table (§1.6)."""
    detail = msg("{reason}: {payer} pays everything", reason=BAO_REASONS[reason], payer=player_at(payer))
    return line(lang, "bao", msg("liable payer"), detail, 0, "§1.6")


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


def _fan_lines(request: ScoreRequest, tariff: Tariff, reading: Reading, lang: str) -> list[Line]:
    """The 底番, 杠分, 番 and the dealer's and discarder's lines."""
    self_draw = request.discarder is None
    di_fan = reading.di_fan
    name = DI_FAN_NAMES[2 * self_draw + (reading.yadang is not None)]
    lines = [line(lang, "di_fan", msg("base fan"), name, di_fan, "§1.3")]
    add = lines.append
    kong_points = reading.kong_points
    if kong_points:
        parts = " + ".join(f"{MELD_NAMES[kong.type](lang)} {tariff.kong[kong.type]}" for kong in request.kongs)
        add(line(lang, "kong_points", msg("kong points"), f"{parts} = {kong_points}", kong_points, "§1.3"))
    formula = fan_formula(reading.zhi_fan, len(reading.zui), tariff.zui, self_draw, di_fan, kong_points, reading.fan)
    add(line(lang, "fan", msg("fan (each loser)"), formula, reading.fan, "§1.4"))
    dealer = None if request.winner == request.dealer else request.dealer
    add(line(lang, "dealer_extra", msg("dealer"), dealer_detail(dealer), di_fan, "§1.4"))
    if request.discarder:
        detail = msg("{seat} discarded: one more base fan", seat=player_at(request.discarder))
        add(line(lang, "discarder_extra", msg("discarder"), detail, di_fan, "§1.4"))
    return lines


def fan_formula(
    zhi_fan: int, zui: int, zui_value: int, self_draw: bool, di_fan: int, kong_points: int, fan: int
) -> str:
    """F = (支番 + Z × 嘴) × 2 if self-drawn + 底番 + 杠分: "(3 + 1 × 2) × 2 + 3 = 13"."""
    formula = f"({zhi_fan} + {zui} × {zui_value}){' × 2' if self_draw else ''} + {di_fan}"
    if kong_points:
        formula += f" + {kong_points}"
    return f"{formula} = {fan}"


def dealer_detail(dealer: str | None) -> Msg:
    """The dealer's extra 底番: `dealer` is None when the dealer won (each loser pays it then)."""
    if dealer is None:
        return msg("the dealer won: each loser pays one more base fan")
    return msg("the dealer ({dealer}) pays one more base fan", dealer=player_at(dealer))


def _zhi_count_line(m: int, p: int, s: int, lang: str) -> Line:
    """The 支数 line: the three suits' counts, the largest is the 支数."""
    detail = msg("m {m}, p {p}, s {s} (a kong counts 4; the largest suit)", m=m, p=p, s=s)
    return line(lang, "zhi_count", msg("suit count"), detail, max(m, p, s), "§1.2")


def zhi_fan_formula(tariff: str, best: int, yadang: int | None, zhi_fan: int, lang: str) -> str:
    """(9 + 压8) × 2 ÷ 10 = 3.4 → 3, or (9 + 压8) ÷ 2 = 8.5 → 9."""
    total = best + (yadang or 0)
    yadang_part = f" + {msg('mid {rank}', rank=yadang)(lang)}" if yadang else ""
    if tariff == "315":
        arithmetic = f"({best}{yadang_part}) × 2 ÷ 10 = {_decimal(total * 2, 10)} → {zhi_fan}"
    else:
        arithmetic = f"({best}{yadang_part}) ÷ 2 = {_decimal(total, 2)} → {zhi_fan}"
    return msg("{arithmetic} (rounded half up)", arithmetic=arithmetic)(lang)


def _decimal(numerator: int, denominator: int) -> str:
    """numerator ÷ denominator (10 or 2) written exactly, "3.4" or "4", with integers only (as `:g` writes it)."""
    whole, rest = divmod(numerator, denominator)
    return f"{whole}.{rest * 10 // denominator}" if rest else str(whole)


def zui_names(zui: tuple[str, ...], sihe_kinds: tuple[int, ...], lang: str) -> tuple[str, ...]:
    """Each 嘴 with its name; a 四核 names its tile kind (四核（五筒） / Four of a kind inside 5p)."""
    sihe = iter(sihe_kinds)
    names = []
    for code in zui:
        name: Msg | Text = ZUI_NAMES[code]
        if code == "sihe":
            tile = Tile(next(sihe))
            name = pmsg(
                "a 四核 and its tile kind", "{name} {tile}", name=name, tile=tile.notation, name_zh=tile.name_zh
            )
        names.append(name(lang))
    return tuple(names)


def _jiao_lines(request: ScoreRequest, tariff: Tariff, reading: Reading, lang: str) -> list[Line]:
    """The 交 lines."""
    if not reading.triggers:
        detail = msg("no jiao (no two 嘴, no direct or special jiao)")
        return [line(lang, "jiao", msg("jiao"), detail, 0, "§1.5")]
    triggers, multi = tuple(reading.triggers), request.options.multi_jiao
    detail = jiao_detail(triggers, multi, reading.jiao_count, reading.extra_zui, tariff.name, lang)
    label = msg("jiao (each loser, outside the 底)")
    lines = [line(lang, "jiao", label, detail, reading.jiao_per_loser, "§1.5")]
    if request.discarder is not None:
        extra = msg("the discarder pays one more 嘴")
        lines.append(line(lang, "discarder_jiao", msg("discarder's jiao"), extra, tariff.jiao_zui, "§1.5"))
    return lines


def jiao_detail(triggers: tuple[str, ...], multi: bool, count: int, extra_zui: int, tariff: str, lang: str) -> str:
    """What makes the 交 and its arithmetic: "清一色 · 一交 · 1 × 30 + 1 × 10 = 40"."""
    names = Joined(AND, [TRIGGER_NAMES[t] for t in triggers])(lang)
    mode = (msg("multi-jiao") if multi else msg("one jiao"))(lang)
    jiao, zui = TARIFFS[tariff].jiao, TARIFFS[tariff].jiao_zui
    return f"{names} · {mode} · {count} × {jiao} + {extra_zui} × {zui} = {count * jiao + extra_zui * zui}"
