"""The picture as placed things, for jinja2/picture.svg to draw: groups of boxes, tiles and lines of words, each at
its place in px. What is shown is decided by verdict.py and evening.py; how it looks (colours, fonts, strokes) is
the template's: here a colour is a tone's name ("plus", "muted").

The picture is 1080 px wide (what chat apps show full width on a phone), as tall as its content.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .art import TILE_RATIO, Code
from .text import LEADING, Fitted, fit

WIDTH = 1080
MARGIN = 48
INNER = WIDTH - 2 * MARGIN
GAP = 24  # between two parts of the picture
BASELINE = 1.02  # where a line's letters stand, in ems below the top of its line box (LEADING ems tall)


@dataclass(slots=True)
class Words:
    """Lines of words with the top of the first at `y`; `anchor` is SVG's text-anchor (start, middle, end)."""

    x: float
    y: float
    fitted: Fitted
    tone: str = "ink"
    anchor: str = "start"

    @property
    def height(self) -> float:
        return self.fitted.height

    @property
    def placed(self) -> list[tuple[float, str]]:
        """Each line with its baseline's y."""
        step = self.fitted.size * LEADING
        first = self.y + self.fitted.size * (BASELINE + (LEADING - 1) / 2)
        return [(round(first + n * step, 1), line) for n, line in enumerate(self.fitted.lines)]


@dataclass(slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    tone: str = "card"
    line: str = ""  # the tone of its outline, if any
    dashed: bool = False


@dataclass(slots=True)
class PlacedTile:
    """A tile face at (x, y), `w` px wide; `mark` is "win" (the winning tile), "missing" (still to draw),
    "misfit" (does not fit) or empty."""

    x: float
    y: float
    w: float
    n: str
    mark: str = ""

    @property
    def h(self) -> float:
        return round(self.w * TILE_RATIO, 1)


@dataclass(slots=True)
class Group:
    """A <g> at (x, y) with what it holds placed relative to it; `hooks` become its data-* attributes (what the
    tests read: data-seat, data-net …)."""

    x: float = 0
    y: float = 0
    height: float = 0
    hooks: dict[str, str] = field(default_factory=dict)
    boxes: list[Box] = field(default_factory=list)
    tiles: list[PlacedTile] = field(default_factory=list)
    words: list[Words] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)


@dataclass(slots=True)
class PlacedCode:
    x: float
    y: float
    code: Code


@dataclass(slots=True)
class Picture:
    """The whole picture: its size, language (the <svg>'s lang), title, the parts top to bottom, the tile faces
    it uses (each one <symbol>) and the QR code."""

    width: int
    height: int
    lang: str
    title: str
    parts: list[Group]
    tiles: list[str]
    code: PlacedCode | None


class Column:
    """Places things one under the other in a group, `width` px wide from its left edge, and counts the height."""

    def __init__(self, group: Group, width: float, x: float = 0, y: float = 0) -> None:
        self.group, self.width, self.x, self.y = group, width, x, y

    def words(
        self, text: str, size: int, *, lines: int = 1, bold: bool = False, tone: str = "ink", gap: float = 8
    ) -> Words:
        """`text` fitted to the column's width (shrunk to at most `lines` lines, else wrapped at the smallest size),
        placed under what is there, `gap` px below it."""
        placed = Words(self.x, self.y, fit(text, self.width, size, lines=lines, bold=bold), tone)
        self.group.words.append(placed)
        self.y = round(self.y + placed.height + gap, 1)
        return placed

    def skip(self, px: float) -> None:
        self.y = round(self.y + px, 1)


def parts_stacked(parts: list[Group], top: float = 0) -> float:
    """Places the parts one under the other from `top`, GAP apart; the height they take with the gaps."""
    y = top
    for part in parts:
        part.y = round(y, 1)
        y += part.height + GAP
    return round(y, 1)


def tiles_used(parts: list[Group]) -> list[str]:
    """Every tile face drawn anywhere in the parts, once each, in the order first drawn."""
    seen: dict[str, None] = {}

    def visit(group: Group) -> None:
        for tile in group.tiles:
            seen.setdefault(tile.n)
        for inner in group.groups:
            visit(inner)

    for part in parts:
        visit(part)
    return list(seen)
