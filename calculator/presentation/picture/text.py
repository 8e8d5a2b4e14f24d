"""Words in the picture: SVG writes a line where it is told and never wraps it, so the picture measures its words
before it places them. A line's width is estimated from each character's kind, an upper bound for the fonts the
picture names (Noto Sans CJK, PingFang, Microsoft YaHei: a Chinese character is one em, a Latin letter at most
about two thirds of one), so that a line estimated to fit fits in any of them. A long name wraps, then shrinks down
to the picture's smallest size and wraps again; nothing is ever cut off.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

LEAST = 24  # px: the picture's smallest text, at its width of 1080 px
LEADING = 1.3  # a line's height, in ems

# the width of a character, in ems, by what it is (an upper bound)
NARROW_LATIN = frozenset("ijlft'|.,:;!()[]")
WIDE_LATIN = frozenset("mwMW@%")
DIGITS = frozenset("0123456789+−-×÷=")
# a wide character that ends a phrase stays on the line before it; one that opens a phrase stays with what follows
CLOSING = frozenset("，。、：；！？）」』》〉”’%")
OPENING = frozenset("（「『《〈“‘")


def em(char: str) -> float:
    """The width of one character, in ems (an upper bound)."""
    if char in DIGITS:
        return 0.62
    if char in " \u00a0":
        return 0.3
    if unicodedata.combining(char):
        return 0.0
    if unicodedata.east_asian_width(char) in "WF":
        return 1.0
    if char in NARROW_LATIN:
        return 0.4
    if char in WIDE_LATIN:
        return 1.0
    if char.isascii():
        return 0.74 if char.isupper() else 0.58
    category = unicodedata.category(char)
    if unicodedata.east_asian_width(char) == "A" and category[0] in "SP":
        return 1.0  # a symbol drawn full width by a Chinese font (·, ←, ✓)
    return 0.8


def width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` is at `size` px (an upper bound)."""
    return sum(em(char) for char in text) * size * (1.06 if bold else 1.0)


def is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def pieces(text: str) -> list[str]:
    """`text` cut where a line may break: after a space, a hyphen or a slash, before and after a Chinese character (but not before a
    closing mark nor after an opening one), never inside a word or a number, nor at a no-break space."""
    out: list[str] = []
    piece = ""
    for char in text:
        if piece:
            before = piece[-1]
            joined = char in CLOSING or before in OPENING or "\u00a0" in (char, before)
            if (is_wide(char) or is_wide(before)) and not joined:
                out.append(piece)
                piece = ""
        piece += char
        if char in " -/":  # a line may break after a space, a hyphen or a slash
            out.append(piece)
            piece = ""
    if piece:
        out.append(piece)
    return out


def wrap(text: str, room: float, size: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `room` at `size` px; a word wider than a whole line is broken between its
    characters (a name of 40 letters), so no line is wider than the room."""
    lines: list[str] = []
    line = ""
    for piece in pieces(text):
        if width((line + piece).rstrip(), size, bold) <= room:
            line += piece
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = ""
        for char in piece:  # fits whole unless a word is longer than a line
            if line and width((line + char).rstrip(), size, bold) > room:
                lines.append(line.rstrip())
                line = ""
            line += char
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


@dataclass(frozen=True, slots=True)
class Fitted:
    """Words fitted into a width: their size and their lines."""

    size: int
    lines: tuple[str, ...]
    bold: bool = False

    @property
    def height(self) -> float:
        return round(len(self.lines) * self.size * LEADING, 1)

    @property
    def widest(self) -> float:
        return max((width(line, self.size, self.bold) for line in self.lines), default=0.0)


def fit(text: str, room: float, size: int, *, lines: int = 1, least: int = LEAST, bold: bool = False) -> Fitted:
    """`text` at the largest size from `size` down to `least` at which it takes at most `lines` lines of `room`
    px; at `least` in as many lines as it needs when even that is too many."""
    for at in range(size, least - 1, -2):
        wrapped = wrap(text, room, at, bold)
        if len(wrapped) <= lines:
            return Fitted(at, tuple(wrapped), bold)
    return Fitted(least, tuple(wrap(text, room, least, bold)), bold)
