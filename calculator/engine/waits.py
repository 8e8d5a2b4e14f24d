"""Waits (听牌): the tile kinds that would complete a 13-tile hand under a ruleset."""

from __future__ import annotations

from .hand import ScoreRequest
from .tiles import Tile


def wait_kinds(ruleset, request: ScoreRequest) -> list[Tile]:
    """Kinds that make `request` (with no win tile) a legal win, by self-draw or by discard.

    A kind the hand already holds four of (melds included) is never a wait.
    """
    exhausted = request.kinds_exhausted()
    waits = []
    for index in sorted(ruleset.kinds):
        if index in exhausted:
            continue
        tile = Tile(index)
        if ruleset.is_win(request.with_win(tile, None)) or ruleset.is_win(request.with_win(tile, "_")):
            waits.append(tile)
    return waits
