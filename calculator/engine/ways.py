"""The two ways a 13-tile hand can win on a wait (API.md, waits mode): by self-draw and by a discard.

A waits request's own discarder is ignored: each way sets its own. A flag that cannot apply to a way of winning
is dropped for that way (its declared conditions say so: a self-draw, or a discarder), so a flag of one way never
makes the request an error for the other. The discard way is a discard from the winner's 下家 among the table's seats, unless a flag kept
for it needs the dealer as the discarder (a condition `discarder = "dealer"`: xinyu's 地胡 is won on the dealer's
first discard).
"""

from __future__ import annotations

from dataclasses import dataclass

from .flags import listed
from .hand import ScoreRequest
from .rulesets.base import Ruleset
from .seats import next_seat


@dataclass(frozen=True, slots=True)
class Way:
    """One way of winning: "self_draw" or "discard", who discards (None: a self-draw) and the flags it keeps."""

    how: str
    discarder: str | None
    flags: frozenset[str]

    def to_dict(self) -> dict:
        """The way as a waits answer lists it (docs/API-additions.md): how, who discards, its flags in API order."""
        return {"how": self.how, "discarder": self.discarder, "flags": listed(self.flags) if self.flags else []}


def ways(request: ScoreRequest, ruleset: Ruleset) -> tuple[Way, Way]:
    """The self-draw way and the discard way of winning a waits request, each with the flags that apply to it."""
    kept = request.flags - ruleset.self_draw_flags
    by_dealer = any(
        (condition.fact, condition.test, condition.value) == ("discarder", "is", "dealer")
        for flag in kept
        for condition in ruleset.flag_by_id[flag].conditions
    )
    discarder = (
        request.dealer if by_dealer and request.dealer != request.winner else next_seat(request.winner, request.seats)
    )
    self_draw = Way(how="self_draw", discarder=None, flags=request.flags - ruleset.discard_flags)
    return self_draw, Way(how="discard", discarder=discarder, flags=kept)


def way_request(request: ScoreRequest, way: Way) -> ScoreRequest:
    """The waits request as this way of winning sees it (still without a win tile)."""
    return request.with_win(None, way.discarder, way.flags)
