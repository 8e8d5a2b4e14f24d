"""Shapes with wildcards (财神): can the natural tiles plus J wild tiles be read as a legal hand?

A 财神 may stand for any kind, a fifth copy included, so the only question per block of the hand
(万, 筒, 条, honours) is how many wild tiles that block needs to become sets, or sets plus the pair.
That number depends on the block's nine (or seven) counts alone, so it is computed once per count
tuple and cached: a whole hand is then four table look-ups and a sum, whatever the number of 财神.

Colour and triplet patterns are answered by the same look-ups under restrictions: a block may be
closed to wild tiles (清一色 closes the other suits), required to hold tiles (混一色 needs a suit and
an honour), or read without sequences (大对对). The concrete reading, what each 财神 stands for, is
built only once, for the reading the ruleset finally chooses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import and_, not_, or_
from typing import NamedTuple

from .decompose import suit_splits
from .tiles import ALL_TILES, BLOCKS, NUM_KINDS, Tile

MAX_WILD = 4  # four copies of the 财神 kind exist; more wild tiles can never be needed
NEVER = 99  # "more wild tiles than exist": the block cannot be completed

HONOUR_BLOCK = 3

# A group inside one block: ("pair" | "triplet" | "sequence", first rank in the block, ranks the wild tiles take)
BlockGroup = tuple[str, int, tuple[int, ...]]


# --------------------------------------------------------------------------- one block


def _without(counts: tuple[int, ...], ranks: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(counts)
    for rank in ranks:
        rest[rank] -= 1
    return tuple(rest)


def block_fill(counts: tuple[int, ...], sequences: bool, pair: bool) -> tuple[int, tuple[BlockGroup, ...]]:
    """The fewest wild tiles that turn this block into sets (plus exactly one pair if `pair`), and the groups.

    Returns (NEVER, ()) beyond MAX_WILD. The search runs on the block trimmed to its natural tiles (plus
    the two ranks above them that a sequence may reach), so 1-2-3 and 5-6-7 share one cached answer.
    """
    return _fill(counts, sequences, pair, False)


def _fill(counts: tuple[int, ...], sequences: bool, pair: bool, below: bool) -> tuple[int, tuple[BlockGroup, ...]]:
    """`block_fill` of a slice of a block; `below` says a rank exists under counts[0] (for a wild 7 in 7-8-9)."""
    first = next((r for r, c in enumerate(counts) if c), None)
    if first is None:
        return (2, (("pair", 0, (0, 0)),)) if pair else (0, ())
    last = len(counts) - 1 - next(r for r, c in enumerate(reversed(counts)) if c)
    end = min(len(counts), last + 3) if sequences else last + 1
    if first == 0 and end == len(counts):
        return _fill_trimmed(counts, sequences, pair, below)
    used, groups = _fill_trimmed(counts[first:end], sequences, pair, below or first > 0)
    if not first:
        return used, groups
    return used, tuple((kind, start + first, tuple(r + first for r in wild)) for kind, start, wild in groups)


@lru_cache(maxsize=200_000)
def _fill_trimmed(
    counts: tuple[int, ...], sequences: bool, pair: bool, below: bool
) -> tuple[int, tuple[BlockGroup, ...]]:
    """The search itself, on a slice whose rank 0 holds a natural tile.

    The lowest natural rank must sit in some group; every group it can sit in is tried: a triplet with
    1–3 natural copies, the pair with 1–2, a sequence starting there (a natural tile is always used before
    a wild one: swapping a wild tile for the natural it copies never breaks another group). A sequence
    that starts one rank lower is only needed at rank 8 (7-8-9 with a wild 7); elsewhere it is the same
    as a sequence starting at this rank.
    """
    best: tuple[int, tuple[BlockGroup, ...]] = (NEVER, ())
    for used, group, natural, still_pair in _first_groups(counts, 0, sequences, pair, below):
        if used >= best[0]:
            break  # the options come cheapest first: nothing later can do better
        rest_used, rest_groups = _fill(_without(counts, natural), sequences, still_pair, below)
        total = used + rest_used
        if total < best[0] and total <= MAX_WILD:
            best = (total, (group, *rest_groups))
    return best


def _first_groups(counts: tuple[int, ...], first: int, sequences: bool, pair: bool, below: bool) -> list:
    """Every group the lowest natural rank can sit in: (wild tiles used, group, natural ranks taken, pair still open)."""
    have = counts[first]
    options = []
    for k in range(min(have, 3), 0, -1):
        options.append((3 - k, ("triplet", first, (first,) * (3 - k)), (first,) * k, pair))
    if pair:
        for k in range(min(have, 2), 0, -1):
            options.append((2 - k, ("pair", first, (first,) * (2 - k)), (first,) * k, False))
    size = len(counts)
    if sequences:
        for start in (first, first - 1) if first == size - 2 else (first,):
            if (start < 0 and not below) or start + 2 >= size:
                continue
            natural, wild = [], []
            for rank in (start, start + 1, start + 2):
                (natural if rank >= first and counts[rank] else wild).append(rank)
            options.append((len(wild), ("sequence", start, tuple(wild)), tuple(natural), pair))
    options.sort(key=lambda option: option[0])
    return options


@lru_cache(maxsize=200_000)
def block_need(counts: tuple[int, ...], sequences: bool) -> tuple[int, int]:
    """(wild tiles for sets only, wild tiles for sets plus the pair): the per-block table."""
    return block_fill(counts, sequences, False)[0], block_fill(counts, sequences, True)[0]


# --------------------------------------------------------------------------- a whole concealed part


@dataclass(frozen=True, slots=True)
class Colour:
    """Which blocks may hold tiles, and which must hold at least one (melds already counted)."""

    allowed: tuple[bool, bool, bool, bool] = (True, True, True, True)
    required: tuple[bool, bool, bool, bool] = (False, False, False, False)


ANY_COLOUR = Colour()


def block_counts(natural: list[int] | tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(natural[base : base + size]) for base, size, _ in BLOCKS]


def empty_blocks(blocks: list[tuple[int, ...]]) -> tuple[bool, ...]:
    """Per block: it holds no natural tile."""
    return tuple(map(not_, map(any, blocks)))


def fits_colour(empty: tuple[bool, ...], colour: Colour) -> bool:
    """The natural tiles lie in the colour's blocks: every block is allowed or empty."""
    return all(map(or_, colour.allowed, empty))


def _fits_colour(blocks: list[tuple[int, ...]], colour: Colour) -> bool:
    return fits_colour(empty_blocks(blocks), colour)


def _missing(empty: tuple[bool, ...], colour: Colour) -> int:
    """Blocks the colour requires that hold no natural tile: the 财神 must supply them."""
    return sum(map(and_, colour.required, empty))


def block_needs(blocks: list[tuple[int, ...]], sequences: bool = True) -> tuple[tuple[int, int], ...]:
    """`block_need` of each block: (wild tiles for sets only, for sets plus the pair); no sequences among the
    honours, nor anywhere without `sequences` (大对对)."""
    return tuple([block_need(block, sequences and b != HONOUR_BLOCK) for b, block in enumerate(blocks)])


def standard_plan(
    blocks: list[tuple[int, ...]], wild: int, colour: Colour = ANY_COLOUR, sequences: bool = True
) -> tuple[int, tuple[int, ...]] | None:
    """Pair + sets with `wild` 财神: (the block holding the pair, wild tiles per block), or None."""
    return plan_of(block_needs(blocks, sequences), empty_blocks(blocks), wild, colour)


def plan_of(
    needs: tuple[tuple[int, int], ...], empty: tuple[bool, ...], wild: int, colour: Colour = ANY_COLOUR
) -> tuple[int, tuple[int, ...]] | None:
    """`standard_plan` from the blocks' needs (`block_needs`) and their emptiness (`empty_blocks`), which one
    hand's readings work out once and ask under every colour.

    Each block needs its table minimum; more wild tiles join three at a time as a triplet, so the
    hand works when the minimums for one choice of pair block add up to at most `wild`.
    """
    if not fits_colour(empty, colour):
        return None
    allowed, required = colour.allowed, colour.required
    # per block: 财神 for sets only (a required empty block takes a whole triplet), for sets and the pair
    sets_need = [
        (3 if need and hollow else s) if ok else 0
        for (s, _), ok, need, hollow in zip(needs, allowed, required, empty, strict=True)
    ]
    pair_need = [p if ok else NEVER for (_, p), ok in zip(needs, allowed, strict=True)]
    total_sets = sum(sets_need)
    least, pair_block = NEVER, None
    for b in range(4):
        need = total_sets - sets_need[b] + pair_need[b]
        if need < least and need <= wild and (wild - need) % 3 == 0:
            least, pair_block = need, b
    if pair_block is None:
        return None
    per_block = list(sets_need)
    per_block[pair_block] = pair_need[pair_block] + wild - least  # spare 财神 make triplets in the pair's block
    return pair_block, tuple(per_block)


def odd_kinds(natural: list[int] | tuple[int, ...]) -> int:
    """Kinds held an odd number of times (one or three: a kind has at most four copies)."""
    return natural.count(1) + natural.count(3)


def seven_pairs_plan(blocks: list[tuple[int, ...]], wild: int, colour: Colour = ANY_COLOUR) -> bool:
    """对对碰 with 财神: each odd count takes one 财神; the spare 财神 pair up (as a needed colour first)."""
    return seven_pairs_fit(odd_kinds([c for block in blocks for c in block]), empty_blocks(blocks), wild, colour)


def seven_pairs_fit(odd: int, empty: tuple[bool, ...], wild: int, colour: Colour = ANY_COLOUR) -> bool:
    """`seven_pairs_plan` from the kinds held an odd number of times (`odd_kinds`) and the empty blocks."""
    if not fits_colour(empty, colour) or odd > wild:
        return False
    return wild - odd >= 2 * _missing(empty, colour)


def shisanbuda_natural(blocks: list[tuple[int, ...]]) -> bool:
    """十三不搭 on the natural tiles: no two alike, suited ranks of one suit at least 3 apart.

    The 财神 are outside the rule (the seed: 不得重复（除财神）… 财神与风牌除外), so they are not checked.
    """
    for b, block in enumerate(blocks):  # noqa: SIM110 (stops at the first block, without a generator's cost)
        if not _spread_block(block, b != HONOUR_BLOCK):
            return False
    return True


@lru_cache(maxsize=20_000)
def _spread_block(counts: tuple[int, ...], suited: bool) -> bool:
    """One block of a 十三不搭: no two alike and, in a suit, ranks at least 3 apart."""
    if any(c > 1 for c in counts):
        return False
    if suited:
        ranks = [r for r, c in enumerate(counts) if c]
        if any(later - earlier < 3 for earlier, later in zip(ranks, ranks[1:], strict=False)):
            return False
    return True


def shisanbuda_plan(blocks: list[tuple[int, ...]], wild: int, colour: Colour = ANY_COLOUR) -> bool:
    return shisanbuda_fit(shisanbuda_natural(blocks), empty_blocks(blocks), wild, colour)


def shisanbuda_fit(spread: bool, empty: tuple[bool, ...], wild: int, colour: Colour = ANY_COLOUR) -> bool:
    """`shisanbuda_plan` from whether the natural tiles are spread (`shisanbuda_natural`) and the empty blocks:
    the 财神 fill the kinds the hand lacks, a required colour among them."""
    return spread and fits_colour(empty, colour) and wild >= _missing(empty, colour)


# --------------------------------------------------------------------------- the concrete reading


class Group(NamedTuple):
    """One group of the chosen reading; `wild` lists the kinds the 财神 in it stand for.

    A NamedTuple: immutable, and much cheaper to build than a frozen dataclass (every answer builds five).
    """

    type: str  # "pair" | "sequence" | "triplet" | "tiles" (a shapeless or 十三不搭 hand)
    tiles: tuple[Tile, ...]
    wild: tuple[Tile, ...] = ()


def _spare_kind(block: tuple[int, ...]) -> int:
    """Where spare 财神 go in a block: a kind the block does not hold yet, for a clean group."""
    return next((r for r, c in enumerate(block) if c == 0), 0)


def standard_groups(
    blocks: list[tuple[int, ...]], plan: tuple[int, tuple[int, ...]], sequences: bool = True
) -> list[Group]:
    """The pair and sets of a standard reading, each 财神 placed: the pair first, then the sets block by block."""
    pair_block, per_block = plan
    pair: list[Group] = []
    sets: list[Group] = []
    for b, block in enumerate(blocks):
        for group in block_groups(b, block, sequences, b == pair_block, per_block[b]):
            (pair if group.type == "pair" else sets).append(group)
    return pair + sets


@lru_cache(maxsize=20_000)
def block_groups(b: int, block: tuple[int, ...], sequences: bool, is_pair: bool, wild: int) -> tuple[Group, ...]:
    """Block `b` of a standard reading as groups, its `wild` 财神 placed (the pair among them if `is_pair`).
    Remembered per block's counts and 财神, as the shape tables are."""
    if not any(block) and not wild:
        return ()
    base, _, seqs = BLOCKS[b]
    used, raw = block_fill(block, sequences and seqs, is_pair)
    raw_groups = list(raw)
    spare = _spare_kind(block)
    if not any(block) and is_pair:
        raw_groups = [("pair", spare, (spare, spare))]
    for _ in range((wild - used) // 3):
        raw_groups.append(("triplet", spare, (spare,) * 3))
    groups = []
    for kind, first, wild_ranks in raw_groups:
        width = {"pair": 2, "triplet": 3, "sequence": 3}[kind]
        ranks = [first] * width if kind != "sequence" else [first, first + 1, first + 2]
        groups.append(
            Group(kind, tuple(ALL_TILES[base + r] for r in ranks), tuple(ALL_TILES[base + r] for r in wild_ranks))
        )
    return tuple(groups)


def seven_pairs_groups(blocks: list[tuple[int, ...]], wild: int, colour: Colour = ANY_COLOUR) -> list[Group]:
    """The pairs of a 对对碰 (七对) reading, each 财神 placed: the hand's pairs block by block (an odd kind paired
    with a 财神), then the spare 财神 as pairs of their own."""
    groups: list[Group] = []
    for b, block in enumerate(blocks):
        if any(block):
            groups.extend(block_pairs(b, block))
            wild -= block.count(1) + block.count(3)  # an odd kind takes one 财神
    # spare 财神 pairs: first into a colour that must still appear, then beside the hand's own colour
    targets = [b for b, block in enumerate(blocks) if colour.required[b] and not any(block)]
    targets += [b for b in range(4) if colour.allowed[b] and any(blocks[b])] or [0]
    i = 0
    while wild >= 2:
        b = targets[min(i, len(targets) - 1)]
        tile = ALL_TILES[BLOCKS[b][0] + _spare_kind(blocks[b])]
        groups.append(Group("pair", (tile, tile), (tile, tile)))
        wild -= 2
        i += 1
    return groups


@lru_cache(maxsize=20_000)
def block_pairs(b: int, block: tuple[int, ...]) -> tuple[Group, ...]:
    """Block `b` of a 对对碰 reading as pairs, in rank order, an odd kind's pair holding one 财神. Remembered per
    block's counts, as the standard reading's `block_groups` are."""
    base = BLOCKS[b][0]
    groups = []
    for r, c in enumerate(block):
        tile = ALL_TILES[base + r]
        groups.extend(Group("pair", (tile, tile)) for _ in range(c // 2))
        if c % 2:
            groups.append(Group("pair", (tile, tile), (tile,)))
    return tuple(groups)


def loose_groups(natural: list[int] | tuple[int, ...], wild_tiles: tuple[Tile, ...]) -> list[Group]:
    """A hand read without sets (十三不搭, 4龙, 全风向): its natural tiles and its 财神 as they are."""
    tiles = tuple([ALL_TILES[i] for i in range(NUM_KINDS) for _ in range(natural[i])])
    return [Group("tiles", tiles + wild_tiles, wild_tiles)]


# --------------------------------------------------------------------------- no fifth copies (house rule)
#
# Under the house rule wild_fifth_copy=false (RULES.md §5.2) a 财神 may stand for a kind only while the copies of
# that kind (natural tiles, the winner's melds, and the 财神 standing for it) stay at most four. The tables above
# cannot say that (they know a block's counts, not how many copies are left), so the standard shape is searched
# again with each rank's room: every way the block can be sets (and the pair), by the number of 财神 it takes.


class CappedPlan(NamedTuple):
    """A standard reading under capped copies: the pair's block, 财神 per block, and the groups themselves."""

    pair_block: int
    per_block: tuple[int, ...]
    groups: tuple[Group, ...]


def _capped_block(
    counts: tuple[int, ...], room: tuple[int, ...], sequences: bool, pair: bool, wild: int
) -> dict[int, tuple[BlockGroup, ...]]:
    """Every number of 财神 (at most `wild`) with which this block becomes sets (plus the pair if `pair`), each
    with one way to do it; `room[r]` is how many 财神 may stand for rank r."""
    return _capped_search(tuple(counts), tuple(room), sequences, pair, wild)


@lru_cache(maxsize=50_000)
def _capped_search(
    counts: tuple[int, ...], room: tuple[int, ...], sequences: bool, pair: bool, wild: int
) -> dict[int, tuple[BlockGroup, ...]]:
    """Each number of 财神 that gives the block a whole number of sets (and the pair) tried as every multiset of
    stand-ins within the room, the block with them read by the suit tables: bounded, whatever the block holds."""
    found: dict[int, tuple[BlockGroup, ...]] = {}
    for used in range(wild + 1):
        if (sum(counts) + used) % 3 != (2 if pair else 0):
            continue
        for stand_ins in combinations_with_replacement(range(len(counts)), used):
            if any(stand_ins.count(rank) > room[rank] for rank in set(stand_ins)):
                continue
            full = list(counts)
            for rank in stand_ins:
                full[rank] += 1
            split = next((s for s in suit_splits(tuple(full), sequences) if (s[0] is not None) == pair), None)
            if split is not None:
                found[used] = _marked(split, stand_ins)
                break
    return found


def _marked(split, stand_ins: tuple[int, ...]) -> tuple[BlockGroup, ...]:
    """A block's split as groups, each stand-in given to a group that holds its rank."""
    pair, sets = split
    groups = ([("pair", pair, [pair, pair])] if pair is not None else []) + [
        ("triplet", first, [first] * 3) if kind == "tri" else ("sequence", first, [first, first + 1, first + 2])
        for kind, first in sets
    ]
    wild: list[list[int]] = [[] for _ in groups]
    for rank in stand_ins:
        holder = next(n for n, (_, _, ranks) in enumerate(groups) if ranks.count(rank) > wild[n].count(rank))
        wild[holder].append(rank)
    return tuple((kind, first, tuple(w)) for (kind, first, _), w in zip(groups, wild, strict=True))


def capped_standard_plan(
    blocks: list[tuple[int, ...]],
    room: tuple[int, ...],
    wild: int,
    colour: Colour = ANY_COLOUR,
    sequences: bool = True,
) -> CappedPlan | None:
    """`standard_plan` when a 财神 may not make a fifth copy: `room` holds, per kind (0-33), how many more copies
    the 财神 may be. The 财神 of the hand must all be used: each block takes some number of them."""
    if not _fits_colour(blocks, colour):
        return None
    per_block_options = []
    for b, (base, size, seqs) in enumerate(BLOCKS):
        block = blocks[b]
        if not colour.allowed[b]:
            per_block_options.append(({0: ()}, {}))
            continue
        block_room = room[base : base + size]
        as_sets = _capped_block(block, block_room, sequences and seqs, False, wild)
        as_pair = _capped_block(block, block_room, sequences and seqs, True, wild)
        if colour.required[b] and not any(block):
            as_sets = {used: groups for used, groups in as_sets.items() if used}  # it must hold a tile
        per_block_options.append((as_sets, as_pair))
    for pair_block in range(4):
        choice = _share_out(per_block_options, pair_block, wild)
        if choice is not None:
            groups = []
            for b, used in enumerate(choice):
                options = per_block_options[b][1 if b == pair_block else 0]
                base = BLOCKS[b][0]
                groups.extend(_placed(base, options[used]))
            pair_first = sorted(groups, key=lambda group: group.type != "pair")
            return CappedPlan(pair_block, tuple(choice), tuple(pair_first))
    return None


def _share_out(options: list, pair_block: int, wild: int) -> list[int] | None:
    """How many 财神 each block takes, so that they add up to `wild` (the first way found, in block order)."""

    def walk(b: int, left: int) -> list[int] | None:
        if b == 4:
            return [] if left == 0 else None
        for used in sorted(options[b][1 if b == pair_block else 0]):
            if used <= left:
                rest = walk(b + 1, left - used)
                if rest is not None:
                    return [used, *rest]
        return None

    return walk(0, wild)


def _placed(base: int, groups: tuple[BlockGroup, ...]) -> list[Group]:
    out = []
    for kind, first, wild_ranks in groups:
        ranks = [first, first + 1, first + 2] if kind == "sequence" else [first] * (2 if kind == "pair" else 3)
        out.append(
            Group(kind, tuple(ALL_TILES[base + r] for r in ranks), tuple(ALL_TILES[base + r] for r in wild_ranks))
        )
    return out
