"""One block of a hand (万, 筒, 条 or the honours) with what scoring asks of it, worked out once per block's counts.

A hand's 34 counts are four independent blocks, and the splits into sets, the kinds that complete a hand and the
notation are each a table per block (`decompose`, `notation`). A request reads its hand's four blocks once
(`ScoreRequest.hand_blocks`); the rules read the tables from them instead of cutting the counts into blocks and
looking each table up again, once per question.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from .decompose import (
    BlockWaits,
    Decomposition,
    PlacedSplit,
    block_waits,
    joined_splits,
    kinds_completing,
    placed_splits,
)
from .notation import block_text
from .tiles import BLOCKS, FIRST_HONOUR, NUM_KINDS, SUITS, block_of


class Block(NamedTuple):
    """One block's counts and its tables."""

    counts: tuple[int, ...]
    size: int  # its tiles
    splits: tuple[PlacedSplit, ...]  # every split into sets and at most one pair (`decompose.placed_splits`)
    waits: BlockWaits  # its status and the kinds that complete it (`decompose.block_waits`)
    text: str  # its notation ("1123m"; "" when empty)


@cache
def block(place: int, counts: tuple[int, ...]) -> Block:
    """The block at `place` (0-3, in the order of `tiles.BLOCKS`) holding `counts`. Remembered, as the tables it
    holds are, per block's counts: the same few thousand come back hand after hand (never keyed on a hand)."""
    base, _, sequences = BLOCKS[place]
    return Block(
        counts,
        sum(counts),
        placed_splits(base, counts, sequences),
        block_waits(base, counts, sequences),
        block_text(counts, SUITS[place] if place < len(SUITS) else ""),
    )


Blocks = tuple[Block, ...]  # a hand's four, in block order


def blocks_of(counts: list[int] | tuple[int, ...]) -> Blocks:
    """The four blocks of a hand's 34 counts."""
    return (
        block(0, tuple(counts[0:9])),
        block(1, tuple(counts[9:18])),
        block(2, tuple(counts[18:27])),
        block(3, tuple(counts[FIRST_HONOUR:NUM_KINDS])),
    )


def with_tile(blocks: Blocks, counts: list[int], kind: int) -> Blocks:
    """`blocks` with one more tile of `kind`, `counts` being the hand's with it: only that kind's block differs."""
    place = block_of(kind)
    base, size, _ = BLOCKS[place]
    changed = list(blocks)
    changed[place] = block(place, tuple(counts[base : base + size]))
    return tuple(changed)


def decompositions_of(blocks: Blocks) -> list[Decomposition]:
    """`decompose.decompositions` of the tiles of `blocks`, numbering two more than a multiple of three (a
    request's concealed tiles: the caller knows)."""
    return joined_splits([b.splits for b in blocks if b.size])


def completing_kinds_of(blocks: Blocks) -> list[int]:
    """`decompose.completing_kinds` of the tiles of `blocks`, numbering one more than a multiple of three (a
    request's hand before the win tile: the caller knows)."""
    return kinds_completing([b.waits for b in blocks])


def notation_of(blocks: Blocks) -> str:
    """`notation.format_tiles` of the tiles of `blocks`."""
    return blocks[0].text + blocks[1].text + blocks[2].text + blocks[3].text
