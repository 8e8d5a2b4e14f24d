"""One block of a hand (万, 筒, 条 or the honours) as one number, and the tables of the blocks that are complete.

A hand's 34 counts are four independent blocks (`tiles.BLOCKS`). A block's counts, rank by rank, are the digits of
its *key* in base 5 (a kind has at most four copies): one tile of rank r adds `STEP[r]` = 5**r, so one more tile
is one addition, and the key is a plain int that tables are keyed or indexed on. The honours are a block of seven
ranks: the same keys, ranks 7 and 8 empty.

    >>> key_of((1, 1, 1, 0, 0, 0, 0, 0, 2))   # 123 and a pair of 9
    781281
    >>> counts_of_key(781281)
    (1, 1, 1, 0, 0, 0, 0, 0, 2)

The tables, every complete block, built once at import by adding sets to the empty block (about 20 ms; the list
of the engine's tables is `tables.py`):
- `SETS[sequences]`: the keys of the blocks that are sets only (at most four), at most four copies a rank:
  2,869 with sequences (a suit), 256 without (the honours, or a suit read as triplets only);
- `PAIRED[sequences]`: the same with one pair: 18,874 with sequences, 1,467 without.
Whether a block is complete, and whether it holds the pair, is one look-up; its splits into sets are searched
only among splits whose rest is complete (`decompose.suit_splits`), and the kinds that complete a hand are
one look-up per rank (`decompose.completing_kinds`).
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = 9  # a suit's ranks; the honours use the first seven
COPIES = 4
MOST_SETS = 4  # a hand's pair and four sets: no block holds more
STEP: tuple[int, ...] = tuple(5**rank for rank in range(RANKS))  # one tile of rank r adds STEP[r] to the key
KEYS = 5**RANKS  # every key is below this: a table indexed by key has this many places


def key_of(counts: Sequence[int]) -> int:
    """The key of a block's counts (at most nine ranks, each 0-4)."""
    key = 0
    for rank, count in enumerate(counts):
        key += count * STEP[rank]
    return key


def counts_of_key(key: int, ranks: int = RANKS) -> tuple[int, ...]:
    """The counts of a block's key, rank by rank (the honours: `ranks` 7)."""
    return tuple(key // STEP[rank] % 5 for rank in range(ranks))


def count_at(key: int, rank: int) -> int:
    """The copies of `rank` in the block of `key`."""
    return key // STEP[rank] % 5


def _groups(sequences: bool) -> list[tuple[int, ...]]:
    """Every set a block can hold, as its ranks: the triplets, and the sequences when there are any."""
    triplets = [(rank,) * 3 for rank in range(RANKS)]
    runs = [(rank, rank + 1, rank + 2) for rank in range(RANKS - 2)]
    return triplets + runs if sequences else triplets


def _complete(sequences: bool) -> tuple[frozenset[int], frozenset[int]]:
    """(sets only, sets and one pair): every block made of at most four sets, with or without a pair. Each set of
    sets is visited once (the sets in the order of `_groups`), at most four copies a rank."""
    groups = _groups(sequences)
    counts = [0] * RANKS
    sets: set[int] = set()
    paired: set[int] = set()

    def visit(first: int, left: int, key: int) -> None:
        sets.add(key)
        for rank in range(RANKS):
            if counts[rank] <= COPIES - 2:
                paired.add(key + 2 * STEP[rank])
        if not left:
            return
        for number in range(first, len(groups)):
            group = groups[number]
            for rank in group:
                counts[rank] += 1
            if max(counts[rank] for rank in group) <= COPIES:
                visit(number, left - 1, key + sum(STEP[rank] for rank in group))
            for rank in group:
                counts[rank] -= 1

    visit(0, MOST_SETS, 0)
    return frozenset(sets), frozenset(paired)


_SUITED, _TRIPLETS = _complete(True), _complete(False)
SETS: dict[bool, frozenset[int]] = {True: _SUITED[0], False: _TRIPLETS[0]}
PAIRED: dict[bool, frozenset[int]] = {True: _SUITED[1], False: _TRIPLETS[1]}
