"""The hand as entered, for the calculator page's first paint and the trainer's question (htmx and the page's
script keep it up to date as tiles are tapped)."""

from __future__ import annotations

from dataclasses import dataclass

from calculator.engine.tiles import Tile

from .locale import Locale
from .tiles import TileView, tile_views
from .words import card_words


@dataclass(slots=True)
class MeldView:
    type: str
    label: str
    tiles: list[TileView]
    source: str


@dataclass(slots=True)
class EnteredHand:
    tiles: list[TileView]
    win: TileView | None
    melds: list[MeldView]


def entered_hand(request: dict, locale: Locale) -> EnteredHand:
    """From the engine's normalised request echo when it answered (sorted, canonical notation), else from the
    input as typed (sorted here; tiles that cannot be read are left out)."""
    melds_said = card_words(locale)["melds"]
    hand = sorted(tile_views(request.get("hand") or "", locale), key=lambda t: Tile.from_str(t.n).index)
    win = tile_views(request.get("win_tile") or "", locale)
    melds = [
        MeldView(m["type"], melds_said[m["type"]], tile_views(m["tiles"], locale), m.get("from") or "")
        for m in request.get("melds", [])
        if m["type"] in melds_said and m["tiles"]
    ]
    return EnteredHand(hand, win[0] if len(win) == 1 else None, melds)
