"""Who pays whom in xinyu (RULES.md §2.4, house rules qianggang and dilong of §5.2): 底龙, P and the rows."""

from __future__ import annotations

from ...explain import seat_name
from ...hand import ScoreRequest
from ...payments import PaymentRow, round_half_up, row
from ...text import Text
from ...tiles import seats_after

PARTS = ("long",)  # every xinyu payment is in 龙


def di_long(streak: int) -> int:
    """底龙 = 11 + 10 × (streak − 1): 十十上, the first-time dealer 11, 二老庄 21, …"""
    return 11 + 10 * (streak - 1)


def table_base(request: ScoreRequest) -> int:
    """This hand's 底龙: the dealer's streak counts whoever wins [reading], or (house rule dilong=dealer_only)
    only when the dealer wins."""
    streak = request.options.dealer_streak
    if request.options.house["dilong"] == "dealer_only" and request.winner != request.dealer:
        streak = 1
    return di_long(streak)


def half(unit: int) -> int:
    """P ÷ 2, 四舍五入."""
    return round_half_up(unit, 2)


def liable_rule(request: ScoreRequest) -> str | None:
    """Who pays for all: 抢杠胡 独缴 (the robbed seat; it decides when both flags are set) or 包牌 (a 财神 held
    back and discarded into the win)."""
    if request.has("robbing_kong"):
        return "qianggang"
    if request.has("liable_caishen"):
        return "baopai"
    return None


def payments_for(request: ScoreRequest, unit: int, lang: str) -> list[PaymentRow]:
    winner, discarder = request.winner, request.discarder
    others = seats_after(winner)
    if discarder is None:
        reason = Text(f"自摸：每家付 {unit}", f"self-draw: each pays {unit}")(lang)
        return [row(seat, winner, unit, "long", "zimo", reason) for seat in others]
    rows = [
        row(
            discarder,
            winner,
            unit,
            "long",
            "fangchong",
            Text(f"放铳：付全额 {unit}", f"discarder: pays the full {unit}")(lang),
        )
    ]
    rule = liable_rule(request)
    triple = rule == "qianggang" and request.options.house["qianggang"] == "triple"
    for seat in others:
        if seat == discarder:
            continue
        if rule is None:
            share = half(unit)
            reason = Text(f"未放铳：付一半 {unit}÷2→{share}", f"not the discarder: pays half, {unit}÷2→{share}")
            rows.append(row(seat, winner, share, "long", "half", reason(lang)))
            continue
        share = unit if triple else half(unit)
        name_zh, name_en = seat_name(seat, "zh"), seat_name(seat, "en")
        if rule == "qianggang":
            what = "全额" if triple else "一半"
            reason = Text(
                f"独缴：代{name_zh}付{what} {share}",
                f"robbed kong: pays {name_en}'s {'full' if triple else 'half'}, {share}",
            )
            code = "duijiao"
        else:
            reason = Text(f"包牌：代{name_zh}付一半 {share}", f"liable: pays {name_en}'s half, {share}")
            code = "baopai"
        rows.append({**row(discarder, winner, share, "long", code, reason(lang)), "on_behalf_of": seat})
    return rows
