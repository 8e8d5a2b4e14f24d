"""Every way to split a hand's concealed tiles into one pair (将) and sets (顺子 / 刻子), and the kinds whose one
more tile completes a hand.

A hand is four independent blocks (万 筒 条, the honours), each read as its key (`suits.py`). Whether a block is
complete, as sets only or with the pair, is one look-up in the tables of complete blocks (`suits.SETS`,
`suits.PAIRED`); so is the question of one more tile, rank by rank. A block's splits are searched from its lowest
rank, following only the branches whose rest is complete: the search visits nothing but the splits it returns. A
whole hand is the product of its blocks' splits with exactly one pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

from .suits import COPIES, PAIRED, RANKS, SETS, STEP, count_at
from .tiles import BLOCKS, NUM_KINDS

# A set is (kind, first tile index): kind "seq" for 顺子 (first, first+1, first+2), "tri" for 刻子.
SetGroup = tuple[str, int]

# Every set a hand can hold, written once (the vocabulary splits are made of).
SEQUENCE = tuple(("seq", kind) for kind in range(NUM_KINDS))
TRIPLET = tuple(("tri", kind) for kind in range(NUM_KINDS))
SEQUENCES = tuple(sequences for _, _, sequences in BLOCKS)  # per block: may it hold sequences (not the honours)

# A kind's block (0-3, in the order of `tiles.BLOCKS`) and what one tile of it adds to that block's key.
BLOCK_OF_KIND = tuple(min(kind // 9, 3) for kind in range(NUM_KINDS))
STEP_OF_KIND = tuple(STEP[kind - BLOCKS[BLOCK_OF_KIND[kind]][0]] for kind in range(NUM_KINDS))


class Decomposition(NamedTuple):
    """One split of a hand: the pair's kind, the sets in block order, and the first tiles of its sequences and of
    its triplets apart (every rule looks at them)."""

    pair: int
    sets: tuple[SetGroup, ...]
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]


class PlacedSplit(NamedTuple):
    """One block's split, in tile indices: its pair (None: sets only), its sets, its sequences and triplets apart."""

    pair: int | None
    sets: tuple[SetGroup, ...]
    sequences: tuple[int, ...]
    triplets: tuple[int, ...]


def keys_of(counts: Sequence[int]) -> list[int]:
    """The keys of a hand's four blocks (`suits.py`), from its 34 counts."""
    keys = [0, 0, 0, 0]
    for kind in range(NUM_KINDS):
        if counts[kind]:
            keys[BLOCK_OF_KIND[kind]] += counts[kind] * STEP_OF_KIND[kind]
    return keys


# --------------------------------------------------------------------------- one block


def block_splits(key: int, sequences: bool, base: int = 0) -> list[tuple[int | None, tuple[SetGroup, ...]]]:
    """Every split of one block into sets and at most one pair, as (pair, sets) in tile indices (the block's first
    kind is `base`; 0 gives ranks); none when the block is not complete. An empty block splits one way, into
    nothing."""
    if key in SETS[sequences]:
        return _splits(key, sequences, False, base)
    if key in PAIRED[sequences]:
        return _splits(key, sequences, True, base)
    return []


def _splits(key: int, sequences: bool, pair: bool, base: int) -> list[tuple[int | None, tuple[SetGroup, ...]]]:
    """The splits of a complete block (with its pair if `pair`). The lowest rank decides: its copies go to the pair
    (0 or 2), a triplet (0 or 3), and the rest must each start a sequence; deciding it in one step is what makes
    every split unique. A branch is followed only when the tiles it leaves are complete."""
    if not key:
        return [(None, ())]
    first = 0
    while not count_at(key, first):
        first += 1
    have = count_at(key, first)
    found = []
    for paired in (False, True) if pair else (False,):
        for triplet in (0, 1):
            rest = have - 2 * paired - 3 * triplet
            if rest < 0:
                continue
            if rest and not (
                sequences
                and first + 2 < RANKS
                and count_at(key, first + 1) >= rest
                and count_at(key, first + 2) >= rest
            ):
                continue
            left = key - have * STEP[first]
            if rest:
                left -= rest * (STEP[first + 1] + STEP[first + 2])
            still = pair and not paired
            if left not in (PAIRED if still else SETS)[sequences]:
                continue
            taken = (TRIPLET[base + first],) * triplet + (SEQUENCE[base + first],) * rest
            for sub_pair, sub_sets in _splits(left, sequences, still, base):
                found.append((base + first if paired else sub_pair, taken + sub_sets))
    return found


def suit_splits(counts: Sequence[int], sequences: bool) -> list[tuple[int | None, tuple[SetGroup, ...]]]:
    """Every split of one block's counts into sets and at most one pair, in ranks (`block_splits`)."""
    key = 0
    for rank, count in enumerate(counts):
        key += count * STEP[rank]
    return block_splits(key, sequences)


def placed_splits(place: int, key: int) -> list[PlacedSplit]:
    """The splits of block `place` (0-3) holding `key`, in tile indices, with their sequences and triplets apart."""
    base, _, sequences = BLOCKS[place]
    return [
        PlacedSplit(
            pair=pair,
            sets=sets,
            sequences=tuple([first for kind, first in sets if kind == "seq"]),
            triplets=tuple([first for kind, first in sets if kind == "tri"]),
        )
        for pair, sets in block_splits(key, sequences, base)
    ]


# --------------------------------------------------------------------------- a hand


def is_complete(counts: Sequence[int]) -> bool:
    """Can these concealed tiles be one pair plus sets? (Melds are outside `counts`.)"""
    if sum(counts) % 3 != 2:
        return False
    pairs = 0
    for key, sequences in zip(keys_of(counts), SEQUENCES, strict=True):
        if key in PAIRED[sequences]:
            pairs += 1
        elif key not in SETS[sequences]:
            return False
    return pairs == 1


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every distinct split of the concealed tiles into exactly one pair and sets."""
    if sum(counts) % 3 != 2:
        return []
    return decompositions_of(keys_of(counts))


def decompositions_of(keys: Sequence[int]) -> list[Decomposition]:
    """`decompositions` of tiles given as their four blocks' keys, numbering two more than a multiple of three (a
    request's concealed tiles: the caller knows).

    A hand is the product of its blocks' splits; the blocks' parts are joined in block order, so the result lists
    the sequences and triplets of the joined sets without filtering them again."""
    per_block = []
    for place in range(4):
        if keys[place]:  # an empty block splits one way, into nothing
            splits = placed_splits(place, keys[place])
            if not splits:
                return []
            per_block.append(splits)
    if all(len(splits) == 1 for splits in per_block):  # most winning hands: nothing to combine
        return _joined([splits[0] for splits in per_block])
    found = []
    for combo in product(*per_block):
        found.extend(_joined(combo))
    return found


def _joined(parts: Sequence[PlacedSplit]) -> list[Decomposition]:
    """One split per block joined into the hand's decomposition: none unless exactly one of them holds a pair."""
    pairs = [part.pair for part in parts if part.pair is not None]
    if len(pairs) != 1:
        return []
    if len(parts) == 1:
        part = parts[0]  # one block holds the whole hand: its sets are the hand's, already in order
        return [Decomposition(pair=pairs[0], sets=part.sets, sequences=part.sequences, triplets=part.triplets)]
    sets: tuple[SetGroup, ...] = ()
    sequences: tuple[int, ...] = ()
    triplets: tuple[int, ...] = ()
    for part in parts:
        sets += part.sets
        sequences += part.sequences
        triplets += part.triplets
    return [Decomposition(pair=pairs[0], sets=sets, sequences=sequences, triplets=triplets)]


def completing_kinds(counts: Sequence[int], keys: Sequence[int] | None = None) -> list[int]:
    """Every kind whose one more copy makes these concealed tiles complete, in kind order (`keys`: their blocks'
    keys, when the caller has them). A kind held four times never does: there is no fifth copy.

    One more tile changes one block: it must become complete while every other block is complete already, with
    exactly one pair among them all. So at most the blocks that are not complete are tried (at most one can be),
    each rank one look-up."""
    if sum(counts) % 3 != 1:
        return []
    if keys is None:
        keys = keys_of(counts)
    broken = []
    pairs = 0
    for place in range(4):
        key, sequences = keys[place], SEQUENCES[place]
        if key in PAIRED[sequences]:
            pairs += 1
        elif key not in SETS[sequences]:
            broken.append(place)
    if len(broken) > 1:
        return []  # one tile cannot mend two blocks
    found = []
    for place in broken or range(4):
        key, sequences = keys[place], SEQUENCES[place]
        base, size, _ = BLOCKS[place]
        others = pairs - (key in PAIRED[sequences])  # pairs in the other blocks
        sets, paired = SETS[sequences], PAIRED[sequences]
        for rank in range(size):
            if counts[base + rank] == COPIES:
                continue
            grown = key + STEP[rank]
            if (grown in paired and not others) or (others == 1 and grown in sets):
                found.append(base + rank)
    return found
