"""Who pays whom in xinyu (RULES.md §2.4, house rules qianggang and dilong of §5.2): 底龙, P and the rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from ...explain import seat_name
from ...hand import ScoreRequest
from ...payments import PaymentRow, round_half_up, row
from ...seats import seats_after
from .declarations import DECLARED

PARTS = ("long",)  # every xinyu payment is in 龙
REASONS = DECLARED.texts["payments"]  # the rows' reasons by code ({unit}, {share}, {seat})


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


class Paying(NamedTuple):
    """How a win of a request is paid, all but its 龙: the 底龙, who pays and under which rule. The same for every
    hand the request's winner wins this way, so a waits answer works it out once per way for all its waits."""

    di_long: int  # `table_base`: P is this and the hand's 龙
    winner: str
    discarder: str | None
    others: tuple[str, ...]  # the other seats, in play order after the winner
    liable: str | None  # `liable_rule` of a discard: the discarder pays every share
    triple: bool  # 独缴 of the full P (house rule qianggang=triple)


def paying_of(request: ScoreRequest) -> Paying:
    rule = liable_rule(request) if request.discarder else None
    return Paying(
        di_long=table_base(request),
        winner=request.winner,
        discarder=request.discarder,
        others=seats_after(request.winner, request.seats),
        liable=rule,
        triple=rule == "qianggang" and request.options.house["qianggang"] == "triple",
    )


def payments_for(paying: Paying, unit: int, lang: str) -> list[PaymentRow]:
    winner, discarder = paying.winner, paying.discarder
    if discarder is None:
        reason = REASONS["zimo"](lang).format(unit=unit)
        return [row(seat, winner, unit, "long", "zimo", reason) for seat in paying.others]
    rows = [row(discarder, winner, unit, "long", "fangchong", REASONS["fangchong"](lang).format(unit=unit))]
    rule = paying.liable
    if rule is None:  # each other seat pays half
        share = half(unit)
        said = _said("half", lang, unit, share)
        rows.extend([row(seat, winner, share, "long", "half", said) for seat in paying.others if seat != discarder])
        return rows
    triple = paying.triple
    for seat in paying.others:
        if seat == discarder:
            continue
        share = unit if triple else half(unit)
        code = "duijiao" if rule == "qianggang" else "baopai"
        text = _said(_text_of(code, triple), lang, unit, share, seat_name(seat, lang))
        rows.append({**row(discarder, winner, share, "long", code, text), "on_behalf_of": seat})
    return rows


def _text_of(code: str, triple: bool) -> str:
    """The text of a row's code: 独缴 of the full P or of half of it."""
    if code == "duijiao":
        return "duijiao_full" if triple else "duijiao_half"
    return code


def _said(text: str, lang: str, unit: int, share: int, seat: str = "") -> str:
    return REASONS[text](lang).format(unit=unit, share=share, seat=seat)


def payment_reason(row_: Mapping, answer: Mapping, lang: str, seat_word: Callable[[str], str]) -> str | None:
    """A row's reason said again from its code (a table's stored row, in the page's language), as `payments_for`
    says it; `seat_word` names the seat whose share a liable seat paid. None: not a code of a xinyu payment."""
    triple = answer["request"]["options"]["house"].get("qianggang") == "triple"
    text = _text_of(row_.get("code", ""), triple)
    if text not in REASONS:
        return None
    behalf = row_.get("on_behalf_of")
    share = row_.get("owed", row_["amount"])
    return _said(text, lang, answer["unit"], share, seat_word(behalf) if behalf else "")
