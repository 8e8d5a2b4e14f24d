"""The tile notation of RULES.md §0: `123m456p789s`, honours as letters `ESWNCFP` or `1z`-`7z`.

`parse_tiles` is strict and precise: an error names the offending character and its position.
`format_tiles` is its inverse and canonical: sorted 万 筒 条, then honours as letters.
"""

from __future__ import annotations

from .tiles import ALL_TILES, FIRST_HONOUR, HONOURS, SUITS, Tile

# The riichi order of `z` digits: 1-4 winds, 5 白, 6 发, 7 中.
Z_DIGIT_TO_HONOUR = {"1": "E", "2": "S", "3": "W", "4": "N", "5": "P", "6": "F", "7": "C"}


class InvalidNotationError(ValueError):
    """Tile notation that cannot be read. `position` is 0-based in the original text."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        char = text[position] if 0 <= position < len(text) else ""
        self.char = char
        super().__init__(f"{reason} at position {position + 1} of {text!r}")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse notation into tiles, keeping the written order."""
    if not isinstance(text, str):
        raise InvalidNotationError(str(text), 0, "tiles must be a string")
    tiles: list[Tile] = []
    pending: list[tuple[str, int]] = []  # digits waiting for their suit letter, with positions
    for pos, char in enumerate(text):
        if char.isspace():
            continue
        if char in "123456789":
            pending.append((char, pos))
        elif char in SUITS:
            if not pending:
                raise InvalidNotationError(text, pos, f"suit letter {char!r} with no digits before it")
            base = SUITS.index(char) * 9 - 1
            tiles.extend(ALL_TILES[base + int(d)] for d, _ in pending)
            pending.clear()
        elif char == "z":
            if not pending:
                raise InvalidNotationError(text, pos, "suit letter 'z' with no digits before it")
            for digit, digit_pos in pending:
                if digit not in Z_DIGIT_TO_HONOUR:
                    raise InvalidNotationError(text, digit_pos, f"{digit}z is not a tile (honours are 1z-7z)")
                tiles.append(Tile.honour(Z_DIGIT_TO_HONOUR[digit]))
            pending.clear()
        elif char in HONOURS:
            if pending:
                raise InvalidNotationError(text, pending[0][1], f"digit {pending[0][0]!r} has no suit letter")
            tiles.append(ALL_TILES[FIRST_HONOUR + HONOURS.index(char)])
        else:
            raise InvalidNotationError(text, pos, f"unexpected character {char!r}")
    if pending:
        raise InvalidNotationError(text, pending[0][1], f"digit {pending[0][0]!r} has no suit letter")
    return tuple(tiles)


def format_tiles(tiles) -> str:
    """Canonical notation: sorted, suited tiles grouped `123m456p789s`, honours as letters."""
    # Sorting plain indices and reading the notation table: every answer formats its hand several times.
    indices = sorted(tile.index for tile in tiles)
    parts: list[str] = []
    for s, suit in enumerate(SUITS):
        digits = "".join(str(i - 9 * s + 1) for i in indices if 9 * s <= i < 9 * s + 9)
        if digits:
            parts.append(digits + suit)
    parts.extend(HONOURS[i - FIRST_HONOUR] for i in indices if i >= FIRST_HONOUR)
    return "".join(parts)
