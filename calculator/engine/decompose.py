"""Every way to split a hand's concealed tiles into one pair (将) and sets (顺子 / 刻子).

The work is done per suit and cached on the suit's nine counts, so the same suit shape is only ever
split once per process; a whole hand is the product of its suits' splits with exactly one pair.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

from .tiles import BLOCKS

# A set is (kind, first tile index): kind "seq" for 顺子 (first, first+1, first+2), "tri" for 刻子.
SetGroup = tuple[str, int]


class Decomposition(NamedTuple):
    """One split. A NamedTuple: immutable, and cheap to build (as the tuple it is, `tuple.__new__` with the fields
    in their order, as bazhi's `Reading` is: its own constructor is a Python function called through its type)."""

    pair: int
    sets: tuple[SetGroup, ...]
    # The first tiles of the sequences and of the triplets: kept at hand, every rule looks at them.
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]


# One suit's split: (pair rank or None, sets as (kind, rank index 0-8)).
SuitSplit = tuple[int | None, tuple[SetGroup, ...]]


@cache
def _suit_splits(counts: tuple[int, ...], allow_sequences: bool) -> tuple[SuitSplit, ...]:
    """All splits of one suit (counts per rank) into sets and at most one pair.

    The lowest remaining rank decides: its copies go to a pair (0 or 2), a triplet (0 or 3), and the
    rest must each start a sequence. Deciding it in one step is what makes every split unique.
    """
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((None, ()),)
    results: list[SuitSplit] = []
    have = counts[first]
    for pair in (0, 1):
        for triplet in (0, 1):
            rest = have - 2 * pair - 3 * triplet
            if rest < 0:
                continue
            if rest and not (
                allow_sequences and first + 2 < len(counts) and counts[first + 1] >= rest and counts[first + 2] >= rest
            ):
                continue
            remaining = list(counts)
            remaining[first] = 0
            if rest:
                remaining[first + 1] -= rest
                remaining[first + 2] -= rest
            taken: tuple[SetGroup, ...] = (("tri", first),) * triplet + (("seq", first),) * rest
            for sub_pair, sub_sets in _suit_splits(tuple(remaining), allow_sequences):
                if pair and sub_pair is not None:
                    continue
                results.append((first if pair else sub_pair, taken + sub_sets))
    return tuple(results)


def suit_splits(counts: tuple[int, ...], allow_sequences: bool) -> tuple[SuitSplit, ...]:
    """All splits of one block's counts into sets and at most one pair (remembered per counts)."""
    return _suit_splits(counts, allow_sequences)


@cache
def _suit_can(counts: tuple[int, ...], allow_sequences: bool) -> tuple[bool, bool]:
    """(can be only sets, can be sets plus one pair): the fast completeness question."""
    splits = _suit_splits(counts, allow_sequences)
    return (any(p is None for p, _ in splits), any(p is not None for p, _ in splits))


def is_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """Can these concealed tiles be one pair plus sets? (Melds are outside `counts`.)"""
    if sum(counts) % 3 != 2:
        return False
    pairs_needed = 1
    for base, size, seqs in BLOCKS:
        block = tuple(counts[base : base + size])
        if not any(block):
            continue
        only_sets, with_pair = _suit_can(block, seqs)
        if only_sets:
            continue
        if with_pair and pairs_needed:
            pairs_needed -= 1
            continue
        return False
    return pairs_needed == 0


# One block's table for the waits (`block_waits`).
BlockWaits = tuple[tuple[bool, bool], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@cache
def block_waits(base: int, counts: tuple[int, ...], allow_sequences: bool) -> BlockWaits:
    """One block's table for the waits, read in one look-up: its status (only sets, sets plus the pair) as it
    is, and the tile kinds (the block starts at `base`) whose one more copy lets it be (only sets, sets plus
    the pair, either of the two). An empty block is only sets, and one tile cannot complete it."""
    status = _suit_can(counts, allow_sequences) if any(counts) else (True, False)
    as_sets, as_pair, either = [], [], []
    for rank in range(len(counts)):
        grown = list(counts)
        grown[rank] += 1
        only_sets, with_pair = _suit_can(tuple(grown), allow_sequences)
        if only_sets:
            as_sets.append(base + rank)
        if with_pair:
            as_pair.append(base + rank)
        if only_sets or with_pair:
            either.append(base + rank)
    return status, tuple(as_sets), tuple(as_pair), tuple(either)


@cache
def _others_ready(status: tuple[tuple[bool, bool], ...]) -> tuple[tuple[bool, bool], ...]:
    """Per block b: can every other block be only sets, or sets with the one pair among them?

    `status` holds each block's (only sets, sets plus pair); there are at most 256 of them, so each is
    worked out once.
    """
    ready = []
    for skip in range(len(status)):
        others = [s for b, s in enumerate(status) if b != skip]
        only_sets = all(s for s, _ in others)
        with_pair = any(p and all(s for c, (s, _) in enumerate(others) if c != i) for i, (_, p) in enumerate(others))
        ready.append((only_sets, with_pair))
    return tuple(ready)


def completing_kinds(counts: list[int] | tuple[int, ...]) -> list[int]:
    """Every kind whose one more copy makes these concealed tiles complete (copy limits not checked)."""
    if sum(counts) % 3 != 1:
        return []
    return kinds_completing([block_waits(base, tuple(counts[base : base + size]), seqs) for base, size, seqs in BLOCKS])


def kinds_completing(tables: list[BlockWaits]) -> list[int]:
    """`completing_kinds` of tiles given as their four blocks' tables (`block_waits`, in block order), numbering
    one more than a multiple of three (the caller knows: `completing_kinds` sums the counts).

    Adding a tile changes one block only, so each block's answer is read once, and each kind is one
    look-up in its block's table of "with one more of this rank" instead of a fresh search. Each block is
    one table look-up: the waits are worked out before every win, between other work, where every dictionary
    the code touches costs a trip to memory.
    """
    ready = _others_ready((tables[0][0], tables[1][0], tables[2][0], tables[3][0]))
    found = []
    for (_, as_sets, as_pair, either), (only_sets, with_pair) in zip(tables, ready, strict=True):
        if not (only_sets or with_pair):
            continue  # two other blocks are broken: one tile here cannot mend both
        # the others are only sets: this block must take the pair; the others hold the pair: only sets here
        found.extend(either if only_sets and with_pair else as_pair if only_sets else as_sets)
    return found


class PlacedSplit(NamedTuple):
    """One suit's split with ranks turned into tile indices, and its sequences and triplets apart."""

    pair: int | None
    sets: tuple[SetGroup, ...]
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]


@cache
def placed_splits(base: int, counts: tuple[int, ...], allow_sequences: bool) -> tuple[PlacedSplit, ...]:
    """`_suit_splits` with ranks turned into tile indices (the block starts at `base`)."""
    placed = []
    for pair, sets in _suit_splits(counts, allow_sequences):
        groups = tuple((kind, base + rank) for kind, rank in sets)
        placed.append(
            PlacedSplit(
                None if pair is None else base + pair,
                groups,
                tuple(first for kind, first in groups if kind == "seq"),
                tuple(first for kind, first in groups if kind == "tri"),
            )
        )
    return tuple(placed)


def decompositions(counts: list[int] | tuple[int, ...]) -> list[Decomposition]:
    """Every distinct split of the concealed tiles into exactly one pair and sets."""
    if sum(counts) % 3 != 2:
        return []
    per_block = []
    for base, size, seqs in BLOCKS:
        block = tuple(counts[base : base + size])
        if any(block):  # an empty block splits one way, into nothing
            per_block.append(placed_splits(base, block, seqs))
    return joined_splits(per_block)


def joined_splits(per_block: list[tuple[PlacedSplit, ...]]) -> list[Decomposition]:
    """`decompositions` of tiles given as the splits of their blocks that hold tiles (`placed_splits`, in block
    order), numbering two more than a multiple of three (the caller knows: `decompositions` sums the counts).

    A hand is the product of its blocks' splits; the blocks' parts are joined in block order, so the
    result lists the sequences and triplets of the joined sets, without filtering them again.
    """
    one_way = True
    for splits in per_block:
        if not splits:
            return []
        one_way = one_way and len(splits) == 1
    if one_way:  # most winning hands: nothing to combine
        return _single_way([splits[0] for splits in per_block])
    found = []
    for combo in product(*per_block):
        pairs = [split.pair for split in combo if split.pair is not None]
        if len(pairs) != 1:
            continue
        sets, sequences, triplets = (), (), ()
        for split in combo:
            sets += split.sets
            sequences += split.sequences
            triplets += split.triplets
        found.append(tuple.__new__(Decomposition, (pairs[0], sets, sequences, triplets)))
    return found


def _single_way(parts: list[PlacedSplit]) -> list[Decomposition]:
    """The hand when every block splits one way (most winning hands): its one decomposition, or none when
    the blocks do not hold exactly one pair. The same result as the product loop, without building it."""
    pair = None
    for part in parts:
        if part.pair is not None:
            if pair is not None:
                return []
            pair = part.pair
    if pair is None:
        return []
    if len(parts) == 1:
        part = parts[0]  # one block holds the whole hand: its sets are the hand's, already in order
        return [tuple.__new__(Decomposition, (pair, part.sets, part.sequences, part.triplets))]
    sets, sequences, triplets = (), (), ()
    for part in parts:
        sets += part.sets
        sequences += part.sequences
        triplets += part.triplets
    return [tuple.__new__(Decomposition, (pair, sets, sequences, triplets))]
