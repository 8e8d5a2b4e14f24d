"""Waits (听牌): the tile kinds that would complete a 13-tile hand under a ruleset."""

from __future__ import annotations

from .hand import ScoreRequest
from .tiles import ALL_TILES, Tile


def wait_kinds(ruleset, request: ScoreRequest) -> list[Tile]:
    """Kinds that make `request` (with no win tile) a legal win, by self-draw or by discard: each ruleset answers
    from tile counts (`waits_of`), which `search_wait_kinds` checks in the tests."""
    return [ALL_TILES[i] for i in ruleset.waits_of(request)]


def search_wait_kinds(ruleset, request: ScoreRequest) -> list[Tile]:
    """The plain definition: try every kind as the win tile. A kind held four times is never a wait."""
    exhausted = request.kinds_exhausted()
    waits = []
    for index in sorted(ruleset.kinds):
        if index in exhausted:
            continue
        tile = ALL_TILES[index]
        if ruleset.is_win(request.with_win(tile, None)) or ruleset.is_win(request.with_win(tile, "_")):
            waits.append(tile)
    return waits
