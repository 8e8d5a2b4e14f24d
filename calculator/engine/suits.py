"""One block of a hand (万, 筒, 条 or the honours) as one number, and the tables of the blocks that are complete.

A hand's 34 counts are four independent blocks (`tiles.BLOCKS`). A block's counts, rank by rank, are the digits of
its *key* in base 5 (a kind has at most four copies): one tile of rank r adds `STEP[r]` = 5**r, so one more tile
is one addition, and the key is a plain int that tables are keyed or indexed on. The honours are a block of seven
ranks: the same keys, ranks 7 and 8 empty.

    >>> key_of((1, 1, 1, 0, 0, 0, 0, 0, 2))   # 123 and a pair of 9
    781281
    >>> counts_of_key(781281)
    (1, 1, 1, 0, 0, 0, 0, 0, 2)

The table of the complete blocks with sequences (a suit), built once at import by adding sets to the empty block
(about 10 ms; the list of the engine's tables is `tables.py`): `COMPLETE`, one bit a key, set for the 21,743 suits
that are at most four sets, with or without one pair, at most four copies a rank. Whether a complete block holds
the pair, its number of tiles says (two more than a multiple of three: with it). The table is 244 KB whatever it
holds (a bit for every key below `KEYS`), an eighth of what a set of the same keys takes: the engine has to fit the
phone's memory too (the offline pack's snapshot of the interpreter holds it). A block without sequences (the
honours, or a suit read as triplets only) is complete when every rank holds 0 or 3 tiles, one of them 2 with the
pair: read off its key. So whether a block is complete is one look-up (`complete`); its splits into sets are
searched only among splits whose rest is complete (`decompose.block_splits`), and the kinds that complete a hand
are one look-up per rank (`decompose.completing_kinds`).
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


def _complete() -> bytearray:
    """The complete blocks with sequences as bits by key: every block made of at most four sets, with or without a
    pair. Each set of sets is visited once (triplets then sequences, in rank order), at most four copies a rank."""
    bits = bytearray(KEYS // 8 + 1)
    groups = [(rank,) * 3 for rank in range(RANKS)] + [(rank, rank + 1, rank + 2) for rank in range(RANKS - 2)]
    counts = [0] * RANKS

    def visit(first: int, left: int, key: int) -> None:
        bits[key >> 3] |= 1 << (key & 7)
        for rank in range(RANKS):
            if counts[rank] <= COPIES - 2:
                paired = key + 2 * STEP[rank]
                bits[paired >> 3] |= 1 << (paired & 7)
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
    return bits


COMPLETE = _complete()


def complete(key: int, sequences: bool) -> bool:
    """Is the block of `key` complete, sets only or sets and one pair (its number of tiles says which)? With
    sequences: a suit, from `COMPLETE`; without (the honours, or a suit read as triplets only): every rank holds 0
    or 3 tiles, at most one of them 2."""
    if sequences:
        return bool(COMPLETE[key >> 3] >> (key & 7) & 1)
    pairs = 0
    while key:
        count = key % 5
        if count == 2:
            pairs += 1
        elif count and count != 3:
            return False
        key //= 5
    return pairs <= 1


def keys_of(bits: bytearray) -> list[int]:
    """The keys a table of bits holds, in order: the table as a reader prints it."""
    return [place * 8 + bit for place, byte in enumerate(bits) if byte for bit in range(8) if byte >> bit & 1]
