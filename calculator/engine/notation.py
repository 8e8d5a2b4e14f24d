"""The tile notation of RULES.md §0: `123m456p789s`, honours as letters `ESWNCFP` or `1z`-`7z`.

`parse_tiles` is strict and precise: an error names the offending character and its position.
`format_tiles` is its inverse and canonical: sorted 万 筒 条, then honours as letters.
"""

from __future__ import annotations

from .tiles import ALL_TILES, FIRST_HONOUR, HONOURS, NUM_KINDS, SUITS, Tile, counts_of

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
    return read_tiles(text)[0]


def read_tiles(text: str) -> tuple[tuple[Tile, ...], list[int]]:
    """`parse_tiles`, and the tiles' 34 counts: a request's hand is counted while it is read, its counts being
    what every rule reads (a second pass over the tiles cost more than the counting)."""
    if not isinstance(text, str):
        raise InvalidNotationError(str(text), 0, "tiles must be a string")
    found = _parse_plain(text)
    if found is not None:
        return found
    tiles = _parse_careful(text)
    return tiles, counts_of(tiles)


def _parse_plain(text: str) -> tuple[tuple[Tile, ...], list[int]] | None:
    """The everyday spelling (digits then m/p/s, honour letters, nothing else) with its counts, or None for
    anything else.

    One pass from the end: each digit takes the suit letter written after it. Anything else (spaces, `z`
    digits, mistakes) is left to the careful reader below, which names the mistake. A plain loop rather than a
    regular expression: scoring runs between other work, and the regular-expression engine, cold, cost three
    times as much as this loop on a hand.
    """
    tiles: list[Tile] = []
    append = tiles.append
    counts = [0] * NUM_KINDS
    of_suit = _NO_SUIT  # digit -> tile for the suit letter being read, empty where no digit may stand
    # tiles read when that suit letter was met: it needs at least one digit (compared at the next letter, so
    # that a digit, the most common character, does nothing more than be read and counted)
    read = 0
    for char in reversed(text):
        tile = of_suit.get(char)  # a digit, the most common character: one look-up answers it
        if tile is not None:
            append(tile)
            counts[tile.index] += 1
        elif char in _SUITED_TILE:
            if of_suit is not _NO_SUIT and len(tiles) == read:
                return None  # a suit letter with no digits: "mp"
            of_suit, read = _SUITED_TILE[char], len(tiles)
        elif char in _HONOUR_TILE and (of_suit is _NO_SUIT or len(tiles) > read):
            tile = _HONOUR_TILE[char]
            append(tile)
            counts[tile.index] += 1
            of_suit = _NO_SUIT
        else:
            return None
    if of_suit is not _NO_SUIT and len(tiles) == read:
        return None
    tiles.reverse()
    return tuple(tiles), counts


_NO_SUIT: dict[str, Tile] = {}  # no suit letter being read: no digit reads as a tile
_SUITED_TILE = {suit: {str(r + 1): ALL_TILES[9 * s + r] for r in range(9)} for s, suit in enumerate(SUITS)}
_HONOUR_TILE = {letter: ALL_TILES[FIRST_HONOUR + i] for i, letter in enumerate(HONOURS)}
TILE_BY_NOTATION = {tile.notation: tile for tile in ALL_TILES}  # "8m" -> the tile: one tile read in one look-up


def _parse_careful(text: str) -> tuple[Tile, ...]:
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
    """Canonical notation: sorted, suited tiles grouped `123m456p789s`, honours as letters. A pair, a set or a
    kong is read from `GROUP_TEXTS`."""
    indices = sorted([tile.index for tile in tiles])
    known = GROUP_TEXTS.get(tuple(indices)) if len(indices) <= 4 else None
    return known if known is not None else _written(indices)


def _written(indices: list[int]) -> str:
    """`format_tiles` of sorted kinds."""
    parts: list[str] = []
    suit = None  # the suit whose digits are being written
    for i in indices:
        this = _SUIT_OF_INDEX[i]
        if this != suit and suit is not None:
            parts.append(suit)
        suit = this
        parts.append(_TEXT_OF_INDEX[i])
    if suit is not None:
        parts.append(suit)
    return "".join(parts)


# Per kind: the digit (or honour letter) it writes, and the letter that closes its run ("" for honours).
_TEXT_OF_INDEX = tuple(str(i % 9 + 1) if i < FIRST_HONOUR else HONOURS[i - FIRST_HONOUR] for i in range(NUM_KINDS))
_SUIT_OF_INDEX = tuple(SUITS[i // 9] if i < FIRST_HONOUR else "" for i in range(NUM_KINDS))

# Every pair, triplet, kong and sequence (the groups an answer shows, the melds a request holds) by its sorted
# kinds, written once: 123 of them.
GROUP_TEXTS: dict[tuple[int, ...], str] = {
    group: _written(list(group))
    for kind in range(NUM_KINDS)
    for group in [(kind,) * 2, (kind,) * 3, (kind,) * 4]
    + ([(kind, kind + 1, kind + 2)] if kind < FIRST_HONOUR and kind % 9 <= 6 else [])
}
