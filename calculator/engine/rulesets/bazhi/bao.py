"""包牌 (RULES.md §1.6, house rules bao_on and qianggang of §5.1): the seat that pays for everyone, and why."""

from __future__ import annotations

from ...hand import Meld, ScoreRequest
from ...tiles import RED_DRAGON, SUITS

LIABLE_TYPES = ("pung", "kong_exposed", "kong_added")  # the exposed melds of 报警 (an 暗杠 only for 双八支)


def liable_seat(request: ScoreRequest, is_jiao: bool) -> tuple[str, str] | None:
    """(the seat that pays for everyone, the answer's `bao_reason`), or None.

    The 包牌 table applies to 交 hands (house rule bao_on=any_win: to every win); where it names nobody and the
    win robs a kong, the house rule qianggang=robbed_pays_all makes the robbed seat pay.
    """
    card = request.options.house
    if is_jiao or card["bao_on"] == "any_win":
        found = bao_table(request)
        if found:
            return found
    if "robbing_kong" in request.flags and card["qianggang"] == "robbed_pays_all":
        return request.discarder, "qianggang"
    return None


def _one_colour(melds: list[Meld]) -> str | None:
    """The suit X when every meld is of suit X or 红中 (at least one suited), else None."""
    suits = {m.suit for m in melds if m.kind.index != RED_DRAGON}
    return next(iter(suits)) if len(suits) == 1 else None


def bao_table(request: ScoreRequest) -> tuple[str, str] | None:
    """The first row of the 包牌 table (§1.6) that names a payer, in the table's order."""
    exposed = [m for m in request.melds if m.type in LIABLE_TYPES]
    discarder = request.discarder
    first_three = exposed[:3]
    suit = _one_colour(first_three) if len(first_three) == 3 else None
    if suit:
        feeders = {m.from_seat for m in first_three}
        if len(feeders) == 1:
            return first_three[0].from_seat, "sandui_same_feeder"
        if len(exposed) >= 4 and (exposed[3].suit == suit or exposed[3].kind.index == RED_DRAGON):
            return exposed[3].from_seat, "sidui_zhuanbao"
        if discarder:
            return discarder, "sandui_several_feeders"
    if not discarder:
        return None
    for kong_suit in SUITS:
        if len([k for k in request.kongs if k.suit == kong_suit]) >= 2 and any(
            [m.suit != kong_suit and m.kind.index != RED_DRAGON for m in exposed]
        ):
            return discarder, "shuangbazhi"
    pungs = [m for m in exposed if m.type == "pung" and m.kind.index != RED_DRAGON]
    for a in pungs:
        for b in pungs:
            if a is not b and a.suit == b.suit and 1 <= b.kind.rank - a.kind.rank <= 2:
                return discarder, "shuangsihe"
    red = any([m.kind.index == RED_DRAGON for m in exposed])
    if red and _one_colour(exposed):
        return discarder, "hunyise_dingzui"
    return None
