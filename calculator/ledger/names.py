"""What a player's name may hold (API.md, "A player's name"): characters that show as themselves, and at least one
that can be seen.

- No control, format, surrogate, unassigned or private-use character (Unicode Cc, Cf, Cs, Cn, Co): no tab, CR,
  right-to-left override, zero-width space or BOM. The one exception is U+200D ZERO WIDTH JOINER inside an emoji
  sequence (👨‍👩‍👧), where it joins two pictographs as Unicode's grapheme clusters do (UAX #29, rule GB11).
- At least one visible character: not whitespace, not a combining mark (Mn, Mc, Me), not a default-ignorable code
  point (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the grapheme joiner U+034F, variation selectors …) and
  not the blank braille pattern U+2800. A name of Hangul fillers is as blank as a name of spaces.
- At most MAX_MARKS combining marks on one base character ("A" and 39 accents draws over the lines around it).

Default_Ignorable_Code_Point and Extended_Pictographic are not in Python's unicodedata: they come from the Unicode
Character Database as tables of ranges (calculator/ledger/unicode_tables.py, made by tools/unicode_tables.py).
Pure Python: the offline pack runs it in the phone.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right

from calculator.ledger.unicode_tables import DEFAULT_IGNORABLE, EMOJI_MODIFIER, EXTENDED_PICTOGRAPHIC

MAX_MARKS = 4  # combining marks on one base character
ZWJ = "\u200d"
BRAILLE_BLANK = "\u2800"
HIDDEN = frozenset(("Cc", "Cf", "Cs", "Cn", "Co"))  # what cannot be shown as itself
MARKS = frozenset(("Mn", "Mc", "Me"))


class Ranges:
    """A set of code points given as sorted, inclusive ranges: membership by one binary search."""

    def __init__(self, ranges: tuple[tuple[int, int], ...]) -> None:
        self.firsts = [first for first, _ in ranges]
        self.lasts = [last for _, last in ranges]

    def __contains__(self, ch: str) -> bool:
        at = bisect_right(self.firsts, ord(ch)) - 1
        return at >= 0 and ord(ch) <= self.lasts[at]


DEFAULT_IGNORABLE_CODE_POINTS = Ranges(DEFAULT_IGNORABLE)
PICTOGRAPHS = Ranges(EXTENDED_PICTOGRAPHIC)
SKIN_TONES = Ranges(EMOJI_MODIFIER)


def hidden_character(name: str) -> bool:
    """Whether `name` holds a character that cannot be shown as itself (a joiner outside an emoji sequence too)."""
    return any(
        unicodedata.category(ch) in HIDDEN and not (ch == ZWJ and _joins_emoji(name, at)) for at, ch in enumerate(name)
    )


def _joins_emoji(name: str, at: int) -> bool:
    """Whether the joiner at `at` stands between two pictographs: a pictograph, then any marks and skin tones (a
    variation selector is a mark), then the joiner, then a pictograph (UAX #29, GB11)."""
    before = at - 1
    while before >= 0 and (unicodedata.category(name[before]) in MARKS or name[before] in SKIN_TONES):
        before -= 1
    return before >= 0 and name[before] in PICTOGRAPHS and at + 1 < len(name) and name[at + 1] in PICTOGRAPHS


def visible(ch: str) -> bool:
    """Whether `ch` shows something of its own on the screen."""
    return not (
        ch.isspace()
        or unicodedata.category(ch) in MARKS
        or unicodedata.category(ch) in HIDDEN
        or ch in DEFAULT_IGNORABLE_CODE_POINTS
        or ch == BRAILLE_BLANK
    )


def most_marks(name: str) -> int:
    """The largest number of combining marks one after another in `name` (the marks one base character carries)."""
    most = run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in MARKS else 0
        most = max(most, run)
    return most
