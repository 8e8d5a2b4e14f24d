"""Shapes with wildcards (财神): can the natural tiles plus J wild tiles be read as a legal hand?

A 财神 may stand for any kind, a fifth copy included, so the only question per block of the hand (万, 筒, 条,
honours) is how many wild tiles that block needs to become sets, or sets plus the pair. That number depends on the
block's counts alone: for a suit it is read from `NEEDS`, keyed on the suit's key (`suits.py`), each entry worked
out the first time a hand asks for it (at most one for each of the 5**9 keys); a block without sequences (the
honours, or a suit read as triplets only) is a sum over its ranks. A whole hand is then four look-ups and a sum, whatever the number of 财神.

Colour and triplet patterns are answered by the same look-ups under restrictions: a block may be closed to wild
tiles (清一色 closes the other suits), required to hold tiles (混一色 needs a suit and an honour), or read without
sequences (大对对). The concrete reading, what each 财神 stands for, is built only for the reading the ruleset
finally chooses, led by the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from operator import and_, not_, or_
from typing import NamedTuple

from .decompose import block_splits
from .suits import STEP, complete, key_of
from .tiles import ALL_TILES, BLOCKS, NUM_KINDS, Tile

MAX_WILD = 4  # four copies of the 财神 kind exist; more wild tiles can never be needed
NEVER = 99  # "more wild tiles than exist": the block cannot be completed

HONOUR_BLOCK = 3

# A group inside one block: ("pair" | "triplet" | "sequence", first rank in the block, ranks the wild tiles take)
BlockGroup = tuple[str, int, tuple[int, ...]]


# --------------------------------------------------------------------------- one block

# NEEDS[key], for the suit of that key: the 财神 it needs for sets only and for sets plus the pair, as
# sets * 8 + pair, each 0-4 or 7 (more than four: NEVER); worked out the first time a hand asks. At most one entry
# for each of the 5**9 keys; a hand reaches few of them (the blocks of its natural tiles and what they leave).
TOO_MANY = 7
NEEDS: dict[int, int] = {}
DECODED = tuple(
    (NEVER if code >> 3 == TOO_MANY else code >> 3, NEVER if code & 7 == TOO_MANY else code & 7) for code in range(64)
)

# A block without sequences, rank by rank (`_triplets_need`): a rank holding c natural tiles needs TRIPLETS[c] 财神
# to become triplets, and HOLDS_PAIR[c] to become triplets and the pair.
TRIPLETS = (0, 2, 1, 0, 2)
HOLDS_PAIR = (NEVER, 1, 0, 2, 1)
LONE_PAIR = 2  # a pair of 财神 alone


def suit_need(key: int) -> tuple[int, int]:
    """(财神 for sets only, 财神 for sets plus the pair) of the suit whose key is `key`: `NEEDS`, worked out the
    first time it is asked (`_work_out`)."""
    code = NEEDS.get(key)
    if code is None:
        code = _work_out(key)
    return DECODED[code]


def _work_out(key: int) -> int:
    """`NEEDS[key]`, found by the lowest natural rank: it must sit in some group, and every group it can sit in is
    tried (`_first_groups`), the rest of the block read from the table again."""
    if not key:
        sets, pair = 0, LONE_PAIR
    else:
        counts = [key // STEP[rank] % 5 for rank in range(len(STEP))]
        first = next(rank for rank, count in enumerate(counts) if count)
        sets = pair = NEVER
        for used, _, natural, pair_open in _first_groups(counts, first, True, True):
            rest_sets, rest_pair = suit_need(key - sum([STEP[rank] for rank in natural]))
            if not pair_open:  # the group is the pair
                pair = min(pair, used + rest_sets)
            else:
                sets = min(sets, used + rest_sets)
                pair = min(pair, used + rest_pair)
    code = (TOO_MANY << 3 if sets > MAX_WILD else sets << 3) | (TOO_MANY if pair > MAX_WILD else pair)
    NEEDS[key] = code
    return code


def _triplets_need(counts: tuple[int, ...] | list[int]) -> tuple[int, int]:
    """(财神 for sets only, for sets plus the pair) of a block without sequences: its ranks are apart, and the pair
    sits on one of them or is two 财神 alone."""
    sets = 0
    for count in counts:
        sets += TRIPLETS[count]
    pair = sets + LONE_PAIR
    for count in counts:
        if count:
            pair = min(pair, sets - TRIPLETS[count] + HOLDS_PAIR[count])
    return (sets if sets <= MAX_WILD else NEVER), (pair if pair <= MAX_WILD else NEVER)


def block_need(counts: tuple[int, ...], sequences: bool) -> tuple[int, int]:
    """(wild tiles for sets only, wild tiles for sets plus the pair) of one block's counts."""
    return suit_need(key_of(counts)) if sequences else _triplets_need(counts)


def block_fill(counts: tuple[int, ...], sequences: bool, pair: bool) -> tuple[int, tuple[BlockGroup, ...]]:
    """The fewest wild tiles that turn this block into sets (plus exactly one pair if `pair`), and the groups.

    Returns (NEVER, ()) beyond MAX_WILD. The groups are found from the lowest natural rank up: of the groups it can
    sit in (cheapest first), the first that leaves a rest needing the fewest 财神 in all (the rest's key is the
    block's less what the group takes). A pair of 财神 alone goes where the last group began."""
    left = list(counts)
    key = key_of(left)
    need = _need(key, left, sequences, pair)
    if need > MAX_WILD:
        return NEVER, ()
    groups: list[BlockGroup] = []
    place = 0  # where a pair of 财神 alone goes
    to_find = need
    while key:
        first = next(rank for rank, count in enumerate(left) if count)
        place = first
        for used, group, natural, still_pair in _first_groups(left, first, sequences, pair):
            rest = key - sum([STEP[rank] for rank in natural])
            taken = list(left)
            for rank in natural:
                taken[rank] -= 1
            if used + _need(rest, taken, sequences, still_pair) == to_find:
                groups.append(group)
                left, key, to_find, pair = taken, rest, to_find - used, still_pair
                break
        else:
            raise AssertionError(f"no group of {left} keeps the need of {counts} ({need})")
    if pair:
        groups.append(("pair", place, (place, place)))
    return need, tuple(groups)


def _need(key: int, counts: list[int], sequences: bool, pair: bool) -> int:
    """The 财神 a block (its key and counts) needs for sets, or sets and the pair if `pair`."""
    sets_need, pair_need = suit_need(key) if sequences else _triplets_need(counts)
    return pair_need if pair else sets_need


def _first_groups(counts: list[int], first: int, sequences: bool, pair: bool) -> list:
    """Every group the lowest natural rank `first` can sit in, cheapest first: (wild tiles used, group, natural
    ranks taken, pair still open). A triplet with 1-3 natural copies, the pair with 1-2, a sequence starting there
    (a natural tile is always used before a wild one: swapping a wild tile for the natural it copies never breaks
    another group); a sequence that starts one rank lower only at rank 8 (7-8-9 with a wild 7), elsewhere it is
    the same as one starting at this rank."""
    have = counts[first]
    options = []
    for k in range(min(have, 3), 0, -1):
        options.append((3 - k, ("triplet", first, (first,) * (3 - k)), (first,) * k, pair))
    if pair:
        for k in range(min(have, 2), 0, -1):
            options.append((2 - k, ("pair", first, (first,) * (2 - k)), (first,) * k, False))
    if sequences:
        last = len(counts) - 1
        for start in (first,) if first + 2 <= last else (first - 1,) if first + 1 == last else ():
            natural, wild = [], []
            for rank in (start, start + 1, start + 2):
                (natural if rank >= first and counts[rank] else wild).append(rank)
            options.append((len(wild), ("sequence", start, tuple(wild)), tuple(natural), pair))
    options.sort(key=lambda option: option[0])
    return options


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


def block_needs(
    blocks: list[tuple[int, ...]], sequences: bool = True, keys: tuple[int, ...] | None = None
) -> tuple[tuple[int, int], ...]:
    """`block_need` of each block: (wild tiles for sets only, for sets plus the pair); no sequences among the
    honours, nor anywhere without `sequences` (大对对). `keys`: the blocks' keys, when the caller has them."""
    if not sequences:
        return tuple([_triplets_need(block) for block in blocks])
    if keys is None:
        keys = tuple([key_of(block) for block in blocks])
    return (suit_need(keys[0]), suit_need(keys[1]), suit_need(keys[2]), _triplets_need(blocks[HONOUR_BLOCK]))


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
    sets_need, pair_need = [], []
    for b in range(4):
        sets, pair = needs[b]
        ok = allowed[b]
        sets_need.append((3 if required[b] and empty[b] else sets) if ok else 0)
        pair_need.append(pair if ok else NEVER)
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
        if not spread_block(block, b != HONOUR_BLOCK):
            return False
    return True


def spread_block(counts: tuple[int, ...], suited: bool) -> bool:
    """One block of a 十三不搭: no two alike and, in a suit, ranks at least 3 apart."""
    if max(counts) > 1:
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

    type: str  # "pair" | "sequence" | "triplet", or the pattern a hand read without sets is (loose_groups)
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


def block_groups(b: int, block: tuple[int, ...], sequences: bool, is_pair: bool, wild: int) -> tuple[Group, ...]:
    """Block `b` of a standard reading as groups, its `wild` 财神 placed (the pair among them if `is_pair`)."""
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
            Group(
                type=kind,
                tiles=tuple(ALL_TILES[base + r] for r in ranks),
                wild=tuple(ALL_TILES[base + r] for r in wild_ranks),
            )
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
        groups.append(Group(type="pair", tiles=(tile, tile), wild=(tile, tile)))
        wild -= 2
        i += 1
    return groups


def block_pairs(b: int, block: tuple[int, ...]) -> tuple[Group, ...]:
    """Block `b` of a 对对碰 reading as pairs, in rank order, an odd kind's pair holding one 财神."""
    base = BLOCKS[b][0]
    groups = []
    for r, c in enumerate(block):
        tile = ALL_TILES[base + r]
        groups.extend(Group(type="pair", tiles=(tile, tile)) for _ in range(c // 2))
        if c % 2:
            groups.append(Group(type="pair", tiles=(tile, tile), wild=(tile,)))
    return tuple(groups)


def loose_groups(natural: list[int] | tuple[int, ...], wild_tiles: tuple[Tile, ...], pattern: str) -> list[Group]:
    """A hand read without sets (十三不搭, 4龙, 全风向): its natural tiles and its 财神 as they are, one group typed
    by the pattern's code (as a nearest win's group is: nearest.py)."""
    tiles = tuple([ALL_TILES[i] for i in range(NUM_KINDS) for _ in range(natural[i])])
    return [Group(type=pattern, tiles=tiles + wild_tiles, wild=wild_tiles)]


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
    with one way to do it; `room[r]` is how many 财神 may stand for rank r (no rank beyond four copies, so the
    block with its stand-ins is read by the tables of complete blocks). Each number is tried as every multiset of
    stand-ins within the room: bounded, whatever the block holds."""
    found: dict[int, tuple[BlockGroup, ...]] = {}
    key = key_of(counts)
    for used in range(wild + 1):
        if (sum(counts) + used) % 3 != (2 if pair else 0):
            continue
        for stand_ins in combinations_with_replacement(range(len(counts)), used):
            if any(stand_ins.count(rank) > room[rank] for rank in set(stand_ins)):
                continue
            full = key + sum([STEP[rank] for rank in stand_ins])
            if complete(full, sequences):
                grown = list(counts)
                for rank in stand_ins:
                    grown[rank] += 1
                pair_rank, sets, _, _ = block_splits(grown, full, sequences)[0]
                found[used] = _marked((pair_rank, sets), stand_ins)
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
            return CappedPlan(pair_block=pair_block, per_block=tuple(choice), groups=tuple(pair_first))
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
            Group(
                type=kind,
                tiles=tuple(ALL_TILES[base + r] for r in ranks),
                wild=tuple(ALL_TILES[base + r] for r in wild_ranks),
            )
        )
    return out
