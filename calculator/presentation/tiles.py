"""Tile pictures: a tile's notation, its name in the page's language (the picture's alt text) and the URL of its
picture in the sprite `tiles/tiles.svg`; a wild tile shown standing in for another."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from calculator.engine import InvalidNotationError, parse_tiles
from calculator.engine.tiles import Tile

from .locale import Locale


@dataclass(slots=True)
class TileView:
    """One tile picture: notation, name (the alt text), picture URL; `wild` for a wild tile standing in, with
    `caption` saying for what ("当北", "as North": its title) and `stands` the tile it stands for (drawn small under
    it: a name is too wide to write under a tile); `state` in a nearest win (issue 13): "missing" (a tile still to
    draw) or "misfit" (a held tile that does not fit)."""

    n: str
    name: str
    src: str
    wild: bool = False
    caption: str = ""
    state: str = ""
    stands: str = ""  # a wild tile standing in: the tile it stands for (notation), drawn small under it


def tile_name(tile: Tile, lang: str) -> str:
    return tile.name_en if lang == "en" else tile.name_zh


@lru_cache(maxsize=256)
def tile_src(notation: str, locale: Locale) -> str:
    """The URL of a tile's picture, asked of the static files once per tile and locale."""
    return locale.static("tiles/tiles.svg") + f"#{notation}"


def tile_views(notation: str, locale: Locale) -> list[TileView]:
    """The tiles of a notation as pictures, in its order; none when it cannot be read (the engine says why)."""
    try:
        tiles = parse_tiles(notation)
    except InvalidNotationError:
        return []
    return [TileView(t.notation, tile_name(t, locale.lang), tile_src(t.notation, locale)) for t in tiles]


@lru_cache(maxsize=2048)
def group_tiles(notation: str, locale: Locale) -> tuple[TileView, ...]:
    """The pictures of one group or meld of the engine's answer (at most four tiles: a few hundred of them)."""
    return tuple(tile_views(notation, locale))


def tile_view(notation: str, locale: Locale) -> TileView:
    return group_tiles(notation, locale)[0]


def forget_static_urls() -> None:
    """After the static files' URL or storage changes (tests): the remembered picture URLs are stale."""
    tile_src.cache_clear()
    group_tiles.cache_clear()


def wild_in(tiles: list[TileView], stands_for: str, wild: str, locale: Locale) -> list[TileView]:
    """The group's tiles with the last natural `stands_for` shown as the wild tile standing in for it."""
    _ = locale.gettext
    for i in range(len(tiles) - 1, -1, -1):
        tile = tiles[i]
        if tile.n == stands_for and not tile.wild:
            name = _("wild tile as %(tile)s") % {"tile": tile.name}
            caption, stands = (stands_as(tile.n, locale), tile.n) if tile.n != wild else ("", "")
            view = TileView(wild, name, tile_src(wild, locale), True, caption, stands=stands)
            return [*tiles[:i], view, *tiles[i + 1 :]]
    return tiles


def stands_as(notation: str, locale: Locale) -> str:
    """What a wild tile stands for, by the tile's name: 当北, as North."""
    _ = locale.gettext
    return _("as %(tile)s") % {"tile": tile_name(Tile.from_str(notation), locale.lang)}


def short_name(notation: str, locale: Locale) -> str:
    """A tile's name, short enough for a list: 北, 五条 (Chinese); N, 5s (English)."""
    tile = Tile.from_str(notation)
    return tile.notation if locale.lang == "en" else tile.name_zh
