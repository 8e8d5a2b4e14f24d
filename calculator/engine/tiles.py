"""Tile kinds: the immutable vocabulary every other module speaks (the seats are `seats.py`'s).

A tile kind is an index 0..33: 万 1-9 = 0-8, 筒 1-9 = 9-17, 条 1-9 = 18-26, then the honours
東 南 西 北 中 发 白 = 27-33. Indices make counting fast (a hand is a 34-slot count list); the
`Tile` dataclass is the readable face of one index.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = "mps"
HONOURS = "ESWNCFP"  # 东 南 西 北 中 发 白, in the order RULES.md §0 lists them
SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条"}
SUIT_NAMES_EN = {"m": "characters", "p": "dots", "s": "bamboo"}
HONOUR_NAMES_ZH = {"E": "东", "S": "南", "W": "西", "N": "北", "C": "红中", "F": "发财", "P": "白板"}
HONOUR_NAMES_EN = {
    "E": "East",
    "S": "South",
    "W": "West",
    "N": "North",
    "C": "Red Dragon",
    "F": "Green Dragon",
    "P": "White Dragon",
}
ZH_NUMERALS = "一二三四五六七八九"

NUM_KINDS = 34
FIRST_HONOUR = 27
RED_DRAGON = FIRST_HONOUR + HONOURS.index("C")


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile kind. `Tile.from_str("8m")` parses it; `str(tile)` gives the notation back."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_KINDS:
            raise ValueError(f"tile index out of range: {self.index!r}")

    @classmethod
    def from_str(cls, text: str) -> Tile:
        from .notation import parse_tiles  # local import: notation depends on this module

        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise ValueError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
        return tiles[0]

    @classmethod
    def suited(cls, suit: str, rank: int) -> Tile:
        if not 1 <= rank <= 9:
            raise ValueError(f"rank out of range: {rank!r}")
        return ALL_TILES[SUITS.index(suit) * 9 + rank - 1]

    @classmethod
    def honour(cls, letter: str) -> Tile:
        return ALL_TILES[FIRST_HONOUR + HONOURS.index(letter)]

    # The properties below read tables built once per kind: scoring asks them thousands of times.

    @property
    def is_honour(self) -> bool:
        return self.index >= FIRST_HONOUR

    @property
    def suit(self) -> str:
        """'m', 'p', 's', or 'z' for an honour."""
        return _SUIT_OF[self.index]

    @property
    def rank(self) -> int:
        """1-9 for a suited tile; 1-7 (东南西北中发白) for an honour."""
        return _RANK_OF[self.index]

    @property
    def notation(self) -> str:
        return _NOTATION_OF[self.index]

    @property
    def name_zh(self) -> str:
        if self.is_honour:
            return HONOUR_NAMES_ZH[self.notation]
        return ZH_NUMERALS[self.rank - 1] + SUIT_NAMES_ZH[self.suit]

    @property
    def name_en(self) -> str:
        if self.is_honour:
            return HONOUR_NAMES_EN[self.notation]
        return f"{self.rank} of {SUIT_NAMES_EN[self.suit]}"

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Tile.from_str({self.notation!r})"


_SUIT_OF = tuple("z" if i >= FIRST_HONOUR else SUITS[i // 9] for i in range(NUM_KINDS))
_RANK_OF = tuple(i - FIRST_HONOUR + 1 if i >= FIRST_HONOUR else i % 9 + 1 for i in range(NUM_KINDS))
_NOTATION_OF = tuple(
    HONOURS[i - FIRST_HONOUR] if i >= FIRST_HONOUR else f"{_RANK_OF[i]}{_SUIT_OF[i]}" for i in range(NUM_KINDS)
)

# One shared instance per kind: code that turns an index into a Tile reads it here instead of building one.
ALL_TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))


def counts_of(tiles: tuple[Tile, ...] | list[Tile]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile.index] += 1
    return counts


def kinds_held(counts: list[int], copies: int, below: int = NUM_KINDS) -> list[int]:
    """The kinds (below index `below`) that `counts` holds exactly `copies` times, in index order."""
    found = []
    start = 0
    while copies in counts[start:below]:
        start = counts.index(copies, start, below)
        found.append(start)
        start += 1
    return found


# The four independent blocks of the 34 kinds, 万 筒 条 then the honours: (first index, size, sequences possible).
BLOCKS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 9, True), (18, 9, True), (FIRST_HONOUR, 7, False))


def block_of(kind: int) -> int:
    """The block (0-3, in the order of `BLOCKS`) that holds a kind."""
    return min(kind // 9, 3)
