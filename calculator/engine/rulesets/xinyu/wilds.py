"""The 财神 (RULES.md §2.1-2.2): which kind is wild, the hand as natural tiles plus 财神, and which wins are legal.

The shape questions are answered by the per-block tables of `wildcards`; under the house rule
wild_fifth_copy=false the standard shape is asked of the capped tables instead (a 财神 may not make a fifth copy).
"""

from __future__ import annotations

from typing import NamedTuple

from ...decompose import BLOCK_OF_KIND, STEP_OF_KIND
from ...hand import ScoreRequest
from ...suits import STEP
from ...tiles import ALL_TILES, NUM_KINDS, Tile, block_of
from ...wildcards import (
    ANY_COLOUR,
    BLOCKS,
    HONOUR_BLOCK,
    Colour,
    block_counts,
    block_need,
    block_needs,
    capped_standard_plan,
    empty_blocks,
    odd_kinds,
    plan_of,
    seven_pairs_plan,
    shisanbuda_natural,
    shisanbuda_plan,
    spread_block,
    standard_plan,
    suit_need,
)

NO_CAISHEN_LONG = 2  # 无龙算2龙
WINDS = "ESWN"
DRAGONS = "CFP"


def caishen_after(indicator: Tile) -> Tile:
    """财神 = the tile after the turned indicator: 1→2…9→1 per suit; 东→南→西→北→东; 中→发→白→中."""
    if not indicator.is_honour:
        base = indicator.index - indicator.index % 9
        return ALL_TILES[base + (indicator.index - base + 1) % 9]
    cycle = WINDS if indicator.notation in WINDS else DRAGONS
    return Tile.honour(cycle[(cycle.index(indicator.notation) + 1) % len(cycle)])


class Wilds(NamedTuple):
    """The concealed part split into natural tiles and 财神, with the blocks the shape tables read."""

    caishen: Tile
    count: int  # L before 无龙算2龙: 财神 in the concealed part, the win tile included
    natural: tuple[int, ...]
    blocks: list[tuple[int, ...]]
    keys: tuple[int, ...]  # the natural blocks' keys (`suits.py`)
    present: tuple[bool, bool, bool, bool]  # block holds a natural or meld tile
    room: tuple[int, ...] | None  # wild_fifth_copy=false: how many more copies of each kind a 财神 may be


def wilds_of(request: ScoreRequest) -> Wilds:
    caishen = request.options.caishen
    natural = list(request.concealed_counts)
    count = natural[caishen.index]
    natural[caishen.index] = 0
    blocks = block_counts(natural)
    keys = list(request.concealed_keys)
    keys[BLOCK_OF_KIND[caishen.index]] -= count * STEP_OF_KIND[caishen.index]  # every 财神 is wild, none natural
    present = [any(block) for block in blocks]
    for meld in request.melds:
        present[block_of(meld.kind.index)] = True
    return Wilds(
        caishen=caishen,
        count=count,
        natural=tuple(natural),
        blocks=blocks,
        keys=tuple(keys),
        present=tuple(present),
        room=binding(room_of(request), count),
    )


def room_of(request: ScoreRequest) -> tuple[int, ...] | None:
    """Under wild_fifth_copy=false, how many more copies of each kind a 财神 may be (None: no cap). The copies of
    a kind: natural tiles (concealed part, win tile) and the winner's melds; every tile of the 财神 kind in the
    concealed part is wild, so the 财神 kind has room for all of them."""
    if request.options.house["wild_fifth_copy"]:
        return None
    caishen = request.options.caishen.index
    return tuple(4 - (request.all_counts[k] if k != caishen else 0) for k in range(NUM_KINDS))


def binding(room: tuple[int, ...] | None, count: int) -> tuple[int, ...] | None:
    """The room, where it can bind `count` 财神: None when no kind can take more 财神 than it has room for."""
    return None if room is None or min(room) >= count else room


def long_from_tiles(wild: int, bonus: int, wulong: str) -> int:
    """L of a reading whose patterns add `bonus` 龙: one 龙 per 财神; a hand with none counts 2 when it is 无龙
    (`is_wulong`), else 0."""
    if wild:
        return wild
    return NO_CAISHEN_LONG if is_wulong(bonus, wulong) else 0


def long_fixed(wild: int, wulong: str) -> bool:
    """L is the same for every reading of a hand (`long_from_tiles`): one 龙 a 财神, or 2 without one under the
    house rule wulong=tiles; only a hand without 财神 under wulong=total has an L its bonuses can lower."""
    return wild > 0 or wulong == "tiles"


def is_wulong(bonus: int, wulong: str) -> bool:
    """无龙算2龙 for a reading without 财神 (§2.1), as the house rule wulong reads 无龙 (§5.2): `tiles` (the
    default) no 财神 tile, always; `total` no 龙 at all: no entry of the reading worth more than 0 (the entries
    are never negative, so: its bonuses, flags included, add nothing)."""
    return wulong == "tiles" or bonus == 0


# --------------------------------------------------------------------------- which wins are legal (§2.2)


def is_silong(request: ScoreRequest, wilds: Wilds) -> bool:
    """4龙: four 财神 win with no shape, but only by self-draw."""
    return wilds.count == 4 and request.discarder is None


def is_quanfeng(wilds: Wilds) -> bool:
    """全风向: every natural tile and meld an honour (the 财神 stand for honours)."""
    return not any(wilds.present[:3])


class Natural(NamedTuple):
    """What the shape questions ask of one hand's natural tiles, worked out once for all its readings (`natural_of`):
    each reading asks them again under its colour."""

    empty: tuple[bool, ...]  # per block: no natural tile
    with_sequences: tuple[tuple[int, int], ...]  # the blocks' `block_need`
    triplets_only: tuple[tuple[int, int], ...] | None  # the same without sequences (大对对), if asked for
    odd: int  # kinds held an odd number of times: the 财神 that 对对碰 takes first (0 when not asked)
    spread: bool  # 十三不搭 on the natural tiles (False when not asked)


def natural_of(wilds: Wilds, triplets: bool, closed: bool) -> Natural:
    """The hand's `Natural`: the needs without sequences only if `triplets` (大对对 can be read), the odd kinds and
    the spread only if `closed` (七对 and 十三不搭 have no melds)."""
    blocks = wilds.blocks
    return Natural(
        empty=empty_blocks(blocks),
        with_sequences=block_needs(blocks, keys=wilds.keys),
        triplets_only=block_needs(blocks, sequences=False) if triplets else None,
        odd=odd_kinds(wilds.natural) if closed else 0,
        spread=closed and shisanbuda_natural(blocks),
    )


def natural_of_hand(request: ScoreRequest, wilds: Wilds) -> Natural:
    """`natural_of` the request's tiles: 大对对 is read unless a meld is a chow; 七对 and 十三不搭 only without melds."""
    return natural_of(wilds, triplets=all(m.type != "chow" for m in request.melds), closed=not request.melds)


class Waiting(NamedTuple):
    """A 13-tile hand as every one of its waits reads it (`waiting_of`): its natural tiles and 财神, what the shape
    questions ask of them and each block's 十三不搭 alone, worked out once per waits answer. A wait adds one tile:
    one more 财神, or one natural tile in one block, whose questions alone are asked again (`won_on`)."""

    wilds: Wilds
    natural: Natural
    closed: bool  # no melds: 七对 and 十三不搭 are asked
    spread: tuple[bool, ...]  # per block: its natural tiles as a 十三不搭 holds them
    room: tuple[int, ...] | None  # `room_of` the 13 tiles (the win tile takes one copy of its kind)


def waiting_of(request: ScoreRequest) -> Waiting:
    """The `Waiting` of a 13-tile request (no win tile)."""
    wilds = wilds_of(request)
    return Waiting(
        wilds=wilds,
        natural=natural_of_hand(request, wilds),
        closed=not request.melds,
        spread=tuple([spread_block(block, b != HONOUR_BLOCK) for b, block in enumerate(wilds.blocks)]),
        room=room_of(request),
    )


def won_on(waiting: Waiting, kind: int) -> tuple[Wilds, Natural]:
    """`wilds_of` and `natural_of` of the waiting hand won on `kind`, from the waiting hand's: a 财神 adds one to
    the count; a natural tile changes one block, whose needs and 十三不搭 alone are worked out again."""
    wilds, natural = waiting.wilds, waiting.natural
    if kind == wilds.caishen.index:
        count = wilds.count + 1
        return wilds._replace(count=count, room=binding(waiting.room, count)), natural
    b = BLOCK_OF_KIND[kind]
    rank = kind - BLOCKS[b][0]
    held = wilds.blocks[b][rank] + 1
    block = _replaced(wilds.blocks[b], rank, held)
    key = wilds.keys[b] + STEP[rank]
    blocks = list(wilds.blocks)
    blocks[b] = block
    room = waiting.room
    won = Wilds(
        caishen=wilds.caishen,
        count=wilds.count,
        natural=_replaced(wilds.natural, kind, held),
        blocks=blocks,
        keys=_replaced(wilds.keys, b, key),
        present=_replaced(wilds.present, b, True),
        room=None if room is None else binding(_replaced(room, kind, room[kind] - 1), wilds.count),
    )
    triplets = block_need(block, False)
    return won, Natural(
        empty=_replaced(natural.empty, b, False),
        with_sequences=_replaced(natural.with_sequences, b, triplets if b == HONOUR_BLOCK else suit_need(key)),
        triplets_only=None if natural.triplets_only is None else _replaced(natural.triplets_only, b, triplets),
        odd=natural.odd + (1 if held % 2 else -1) if waiting.closed else 0,
        # the changed block is asked only when every other is spread (an honour pair already spoils most hands)
        spread=waiting.closed and all(_replaced(waiting.spread, b, True)) and spread_block(block, b != HONOUR_BLOCK),
    )


def _replaced(values: tuple, at: int, value: object) -> tuple:
    """`values` with the one at `at` replaced."""
    changed = list(values)
    changed[at] = value
    return tuple(changed)


def plan_standard(
    wilds: Wilds, colour: Colour = ANY_COLOUR, sequences: bool = True, natural: Natural | None = None
) -> object:
    """The standard shape's plan (pair block, 财神 per block), capped when the card forbids fifth copies;
    `natural` (the hand's, when its readings ask under many colours) spares working out the blocks again."""
    if wilds.room is not None:
        return capped_standard_plan(wilds.blocks, wilds.room, wilds.count, colour, sequences)
    if natural is None:
        return standard_plan(wilds.blocks, wilds.count, colour, sequences)
    needs = natural.with_sequences if sequences else natural.triplets_only
    return plan_of(needs, natural.empty, wilds.count, colour)


def has_standard(wilds: Wilds) -> bool:
    return plan_standard(wilds) is not None


def has_seven_pairs(request: ScoreRequest, wilds: Wilds) -> bool:
    """七对: an odd kind's 财神 is at most its fourth copy, and spare 财神 pair as new kinds: never capped."""
    return not request.melds and seven_pairs_plan(wilds.blocks, wilds.count)


def has_shisanbuda(request: ScoreRequest, wilds: Wilds) -> bool:
    """十三不搭: the 财神 fill kinds the hand lacks, never a fifth copy."""
    return not request.melds and shisanbuda_plan(wilds.blocks, wilds.count)


def has_shape(request: ScoreRequest, wilds: Wilds) -> bool:
    return has_standard(wilds) or has_seven_pairs(request, wilds) or has_shisanbuda(request, wilds)


def is_win(request: ScoreRequest) -> bool:
    """A legal win of §2.2 (the waits ask this per kind, so the cheap answers come first)."""
    wilds = wilds_of(request)
    return is_silong(request, wilds) or is_quanfeng(wilds) or has_shape(request, wilds)


# --------------------------------------------------------------------------- waits from the tables


def _standard_ok(sets_need: list[int], pair_need: list[int], wild: int) -> bool:
    """Some block holds the pair and the others are sets, with at most `wild` 财神 (the tile count fixes the rest)."""
    total = sum(sets_need)
    return any(total - sets_need[b] + pair_need[b] <= wild for b in range(4))


def _shisanbuda_with(blocks: list[tuple[int, ...]], b: int, rank: int) -> bool:
    """Is the 十三不搭 of the natural tiles kept when one natural tile of (block b, rank) joins them?"""
    block = blocks[b]
    if block[rank]:
        return False
    return b == 3 or not any(block[r] for r in range(max(0, rank - 2), min(9, rank + 3)))


def waits_of(request: ScoreRequest) -> list[int]:
    """The waits of a 13-tile hand from the per-block tables, without building a request per kind.

    A kind is a wait when it wins by self-draw (a discard win is never possible without the self-draw
    one: only 4龙 tells them apart). Adding one tile changes one block, so each kind costs one look-up.
    Under the house rule wild_fifth_copy=false each of those kinds is asked of the capped win check.
    """
    if not request.options.house["wild_fifth_copy"]:
        # a capped win is a win without the cap too: only the uncapped waits need the capped check
        uncapped = waits_of(request.with_card(request.options.house.replace("wild_fifth_copy", True)))
        return [k for k in uncapped if is_win(request.with_win(ALL_TILES[k], None))]
    exhausted = request.kinds_exhausted()
    kinds = [k for k in range(NUM_KINDS) if k not in exhausted]
    wilds = wilds_of(request)
    if wilds.count == 4:
        return kinds  # four 财神 held: any tile wins by self-draw (4龙)
    blocks = wilds.blocks
    needs = block_needs(blocks, keys=wilds.keys)
    sets_need = [n[0] for n in needs]
    pair_need = [n[1] for n in needs]
    no_melds = not request.melds
    odd = sum(c % 2 for block in blocks for c in block)
    shisanbuda = no_melds and shisanbuda_natural(blocks)
    honours_only = is_quanfeng(wilds)
    caishen = wilds.caishen.index
    found = []
    for k in kinds:
        if k == caishen:
            wild = wilds.count + 1
            if (
                wild == 4
                or honours_only
                or _standard_ok(sets_need, pair_need, wild)
                or (no_melds and (odd <= wild or shisanbuda))
            ):
                found.append(k)
            continue
        b = block_of(k)
        base, _, seqs = BLOCKS[b]
        rank = k - base
        if honours_only and b == 3:
            found.append(k)
            continue
        if seqs:
            s, p = suit_need(wilds.keys[b] + STEP[rank])  # one more tile: one more step in the block's key
        else:
            grown = list(blocks[b])
            grown[rank] += 1
            s, p = block_need(tuple(grown), False)
        if _standard_ok(
            [s if i == b else sets_need[i] for i in range(4)],
            [p if i == b else pair_need[i] for i in range(4)],
            wilds.count,
        ):
            found.append(k)
            continue
        if no_melds:
            new_odd = odd + (-1 if blocks[b][rank] % 2 else 1)
            if new_odd <= wilds.count or (shisanbuda and _shisanbuda_with(blocks, b, rank)):
                found.append(k)
    return found
