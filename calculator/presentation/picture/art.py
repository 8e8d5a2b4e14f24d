"""What the picture draws besides words: the tiles, in the project's own art (static/tiles/<tile>.svg, drawn by
tools/draw_tiles.py), and the QR code of the link (segno).

An SVG drawn as a picture (an <img> on a canvas in the phone, the rasteriser on the server) loads nothing from
outside itself: each tile the picture shows is put into it once, as a <symbol>, and placed where it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

TILES = Path(__file__).resolve().parents[3] / "static" / "tiles"
TILE_RATIO = 80 / 60  # a tile is 60 wide and 80 tall


@cache  # one small table: the 35 tile faces, each read once
def tile_art(notation: str) -> str:
    """A tile face's drawing (the inside of static/tiles/<tile>.svg: its lines less the <svg> and <title> lines
    and the closing tag, as tools/draw_tiles.py writes it), to go into a <symbol viewBox="0 0 60 80">."""
    lines = (TILES / f"{notation}.svg").read_text(encoding="utf-8").split("\n")
    return "\n".join(lines[2:-2])


@dataclass(frozen=True, slots=True)
class Code:
    """A QR code to draw: its size in px (quiet zone included) and its drawing (segno's inline SVG)."""

    size: int
    art: str


QR_ROOM = 420  # px the code aims at; a long link gets more, never less than QR_MODULE px a module
QR_MODULE = 3
QR_BORDER = 4  # modules of quiet zone around it: what a scanner needs to find it


def qr_code(url: str) -> Code:
    """The QR code of `url`, as large as QR_ROOM px, with whole pixels per module (a sharp code scans better)."""
    # imported here, when a picture is drawn: segno imported before the offline pack makes its memory snapshot
    # (Phone.warm) leaves a snapshot that Pyodide cannot restore ("RangeError: offset is out of bounds")
    import segno

    qr = segno.make(url, error="m")
    modules = qr.symbol_size(scale=1, border=QR_BORDER)[0]
    scale = max(QR_MODULE, QR_ROOM // modules)
    return Code(modules * scale, qr.svg_inline(scale=scale, border=QR_BORDER, dark="#111111"))
