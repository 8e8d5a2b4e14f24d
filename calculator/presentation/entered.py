"""The hand as entered, for the calculator page's first paint and the trainer's question (htmx and the page's
script keep it up to date as tiles are tapped)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from calculator.engine.rulesets import RULESETS
from calculator.engine.tiles import Tile

from .locale import Locale
from .tiles import TileView, tile_views
from .words import card_words


@dataclass(slots=True)
class MeldView:
    type: str
    label: str
    tiles: list[TileView]
    source: str  # the seat that fed it ("" for a concealed kong)
    source_label: str  # that seat in the page's language (北 / North)


@dataclass(slots=True)
class EnteredHand:
    tiles: list[TileView]
    win: TileView | None
    melds: list[MeldView]


def entered_hand(request: dict, locale: Locale) -> EnteredHand:
    """From the engine's normalised request echo when it answered (sorted, canonical notation), else from the
    input as typed (sorted here; tiles that cannot be read are left out). The game's wild tile (xinyu's 财神) is
    marked wherever it is held, its name saying so."""
    ruleset = RULESETS.get(request.get("ruleset") or "")
    wild = ruleset.wild_tile({"request": request}) if ruleset else None

    def views(notation: str) -> list[TileView]:
        return [marked(t, wild, request, locale) if t.n == wild else t for t in tile_views(notation, locale)]

    words = card_words(locale)
    melds_said, seats = words["melds"], words["seats"]
    hand = sorted(views(request.get("hand") or ""), key=lambda t: Tile.from_str(t.n).index)
    win = views(request.get("win_tile") or "")
    melds = [
        MeldView(m["type"], melds_said[m["type"]], views(m["tiles"]), m.get("from") or "", seats.get(m.get("from"), ""))
        for m in request.get("melds", [])
        if m["type"] in melds_said and m["tiles"]
    ]
    return EnteredHand(hand, win[0] if len(win) == 1 else None, melds)


def marked(tile: TileView, wild: str, request: dict, locale: Locale) -> TileView:
    """A held wild tile: marked, and named with the game's word for it ("五筒（财神）")."""
    option = next(o for o in RULESETS[request["ruleset"]].options if o.kind == "tile")  # the wild tile's own
    name = locale.gettext("%(tile)s (%(wild)s)") % {"tile": tile.name, "wild": option.label(locale.lang)}
    return replace(tile, name=name, wild=True)
