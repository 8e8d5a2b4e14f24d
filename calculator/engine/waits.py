"""Waits (听牌): the tile kinds that would complete a 13-tile hand under a ruleset."""

from __future__ import annotations

from .hand import ScoreRequest
from .tiles import Tile


def wait_kinds(ruleset, request: ScoreRequest) -> list[Tile]:
    """Kinds that make `request` (with no win tile) a legal win, by self-draw or by discard.

    A ruleset that can answer from tile counts (`waits_of`) does: the search below builds a request per
    kind and asks `is_win` twice, about 70 questions per hand, which made waits the slowest part of scoring.
    """
    fast = getattr(ruleset, "waits_of", None)
    if fast is not None:
        return [Tile(i) for i in fast(request)]
    return search_wait_kinds(ruleset, request)


def search_wait_kinds(ruleset, request: ScoreRequest) -> list[Tile]:
    """The plain definition: try every kind as the win tile. A kind held four times is never a wait."""
    exhausted = request.kinds_exhausted()
    waits = []
    for index in sorted(ruleset.kinds):
        if index in exhausted:
            continue
        tile = Tile(index)
        if ruleset.is_win(request.with_win(tile, None)) or ruleset.is_win(request.with_win(tile, "_")):
            waits.append(tile)
    return waits
