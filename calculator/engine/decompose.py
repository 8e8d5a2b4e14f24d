"""Every way to split a hand's concealed tiles into one pair (将) and sets (顺子 / 刻子), and the kinds whose one
more tile completes a hand.

A hand is four independent blocks (万 筒 条, the honours), each read as its key (`suits.py`). Whether a block is
complete is one look-up in the table of complete blocks (`suits.complete`; its number of tiles says whether it
holds the pair); so is the question of one more tile, rank by rank. A block's splits are searched from its lowest
rank, following only the branches whose rest is complete: the search visits nothing but the splits it returns. A
whole hand is the product of its blocks' splits with exactly one pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

from .suits import COMPLETE, COPIES, STEP, complete, key_of
from .tiles import BLOCKS, NUM_KINDS

# A set is (kind, first tile index): kind "seq" for 顺子 (first, first+1, first+2), "tri" for 刻子.
SetGroup = tuple[str, int]

# Every set a hand can hold, written once (the vocabulary splits are made of).
SEQUENCE = tuple(("seq", kind) for kind in range(NUM_KINDS))
TRIPLET = tuple(("tri", kind) for kind in range(NUM_KINDS))

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


def keys_of(counts: Sequence[int]) -> list[int]:
    """The keys of a hand's four blocks (`suits.py`), from its 34 counts."""
    keys = [0, 0, 0, 0]
    for kind in range(NUM_KINDS):
        if counts[kind]:
            keys[BLOCK_OF_KIND[kind]] += counts[kind] * STEP_OF_KIND[kind]
    return keys


# --------------------------------------------------------------------------- one block

# A block's split: its pair (None: sets only), its sets, and the first tiles of its sequences and of its triplets
# apart, all in tile indices.
Split = tuple[int | None, tuple[SetGroup, ...], tuple[int, ...], tuple[int, ...]]


def block_splits(counts: Sequence[int], key: int, sequences: bool, base: int = 0) -> list[Split]:
    """Every split of one block (its counts rank by rank, and its key) into sets and at most one pair, in tile
    indices (the block's first kind is `base`; 0 gives ranks); none when the block is not complete. An empty block
    splits one way, into nothing."""
    if not complete(key, sequences):
        return []
    pair = sum(counts) % 3 == 2
    found: list[tuple[int | None, tuple[SetGroup, ...]]] = []
    _splits(list(counts), key, sequences, pair, base, 0, None, [], found)
    return [
        (
            pair_kind,
            sets,
            tuple([first for kind, first in sets if kind == "seq"]),
            tuple([first for kind, first in sets if kind == "tri"]),
        )
        for pair_kind, sets in found
    ]


def _splits(
    counts: list[int],
    key: int,
    sequences: bool,
    pair: bool,
    base: int,
    first: int,
    pair_kind: int | None,
    sets: list[SetGroup],
    found: list[tuple[int | None, tuple[SetGroup, ...]]],
) -> None:
    """Add to `found` the splits of a complete block (with its pair if `pair`) whose ranks below `first` are empty,
    after the sets taken so far (`sets`, and the pair's kind if taken). The lowest rank decides: its copies go to
    the pair (0 or 2), a triplet (0 or 3), and the rest must each start a sequence; deciding it in one step is what
    makes every split unique. A branch is followed only when the tiles it leaves are complete (their number says
    whether they hold the pair still to find; `counts` and `sets` are changed on the way down and put back)."""
    size = len(counts)
    while first < size and not counts[first]:
        first += 1
    if first == size:
        found.append((pair_kind, tuple(sets)))
        return
    have = counts[first]
    kind = base + first
    for paired in (False, True) if pair else (False,):
        for triplet in (0, 1):
            rest = have - 2 * paired - 3 * triplet
            if rest < 0:
                continue
            if rest and not (sequences and first < size - 2 and counts[first + 1] >= rest <= counts[first + 2]):
                continue
            left = key - have * STEP[first]
            if rest:
                left -= rest * (STEP[first + 1] + STEP[first + 2])
            still = pair and not paired
            if not complete(left, sequences):
                continue
            taken = [TRIPLET[kind]] * triplet + [SEQUENCE[kind]] * rest
            counts[first] = 0
            if rest:
                counts[first + 1] -= rest
                counts[first + 2] -= rest
            sets += taken
            _splits(counts, left, sequences, still, base, first + 1, kind if paired else pair_kind, sets, found)
            del sets[len(sets) - len(taken) :]
            counts[first] = have
            if rest:
                counts[first + 1] += rest
                counts[first + 2] += rest


def suit_splits(counts: Sequence[int], sequences: bool) -> list[tuple[int | None, tuple[SetGroup, ...]]]:
    """Every split of one block's counts into sets and at most one pair, in ranks: (pair, sets)."""
    return [(pair, sets) for pair, sets, _, _ in block_splits(counts, key_of(counts), sequences)]


# --------------------------------------------------------------------------- a hand


def is_complete(counts: Sequence[int]) -> bool:
    """Can these concealed tiles be one pair plus sets? (Melds are outside `counts`.)"""
    if sum(counts) % 3 != 2:
        return False
    pairs = 0
    for place, key in enumerate(keys_of(counts)):
        base, size, sequences = BLOCKS[place]
        if not complete(key, sequences):
            return False
        pairs += sum(counts[base : base + size]) % 3 == 2  # a complete block of 3n + 2 tiles holds the pair
    return pairs == 1


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every distinct split of the concealed tiles into exactly one pair and sets."""
    if sum(counts) % 3 != 2:
        return []
    return decompositions_of(counts, keys_of(counts))


def decompositions_of(counts: Sequence[int], keys: Sequence[int]) -> list[Decomposition]:
    """`decompositions` of tiles given as their 34 counts and their four blocks' keys, numbering two more than a
    multiple of three (a request's concealed tiles: the caller knows).

    A hand is the product of its blocks' splits; the blocks' parts are joined in block order, so the result lists
    the sequences and triplets of the joined sets without filtering them again."""
    per_block = []
    for place in range(4):
        if keys[place]:  # an empty block splits one way, into nothing
            base, size, sequences = BLOCKS[place]
            splits = block_splits(counts[base : base + size], keys[place], sequences, base)
            if not splits:
                return []
            per_block.append(splits)
    if len(per_block) == 1:  # one block holds the whole hand: its splits with the pair are the hand's
        return [
            Decomposition(pair=pair, sets=sets, sequences=runs, triplets=triplets)
            for pair, sets, runs, triplets in per_block[0]
            if pair is not None
        ]
    found = []
    for combo in product(*per_block):
        pairs = [split[0] for split in combo if split[0] is not None]
        if len(pairs) == 1:
            sets: tuple[SetGroup, ...] = ()
            runs: tuple[int, ...] = ()
            triplets: tuple[int, ...] = ()
            for _, more_sets, more_runs, more_triplets in combo:
                sets += more_sets
                runs += more_runs
                triplets += more_triplets
            found.append(Decomposition(pair=pairs[0], sets=sets, sequences=runs, triplets=triplets))
    return found


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
    paired = [False, False, False, False]  # per block: complete, and holding the pair
    for place, (base, size, sequences) in enumerate(BLOCKS):
        if not complete(keys[place], sequences):
            broken.append(place)
        else:
            paired[place] = sum(counts[base : base + size]) % 3 == 2
    if len(broken) > 1:
        return []  # one tile cannot mend two blocks
    pairs = sum(paired)
    found = []
    for place in broken or range(4):
        key = keys[place]
        base, size, sequences = BLOCKS[place]
        others = pairs - paired[place]  # pairs in the other blocks
        # with one more tile the block must hold the pair when no other block does, else be sets only
        if others > 1 or (sum(counts[base : base + size]) + 1) % 3 != (0 if others else 2):
            continue
        for rank in range(size):
            grown = key + STEP[rank]
            if counts[base + rank] == COPIES:
                continue
            # a suit's bit read in place (`suits.complete` does the same): this runs for every rank of a hand
            if (COMPLETE[grown >> 3] >> (grown & 7) & 1) if sequences else complete(grown, False):
                found.append(base + rank)
    return found
