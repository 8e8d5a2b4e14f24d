"""How far a bazhi hand is from ready (RULES.md §1.1): a pair and four sets, and 八支 (8 tiles of one suit).

The distance is that of `distance.py` (tiles to draw, exchanging others, until the hand is a win), with the
one bazhi condition added: some suit holds 8 or more tiles, melds included, a kong counting 4. Groups that
keep no tile may stand in any suit, so the suit meant to reach 8 takes every one of them: it reaches 8 when
the other blocks' groups leave it enough.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...decompose import completing_kinds
from ...distance import (
    CELLS,
    FULL_HAND,
    Limits,
    Memo,
    Table,
    block_tables,
    block_with,
    copy_limits,
    discard_table,
    draw_table,
    draws_answer,
)
from ...hand import ScoreRequest
from ...nearest import fill, standard
from ...text import msg
from ...tiles import ALL_TILES, block_of
from .declarations import BLOCKED
from .declarations import KINDS as GAME_KINDS

EIGHT = 8
SUITS = 3
KINDS = tuple(sorted(GAME_KINDS))


class Hand:
    """One hand's tables, and for each block the best the rest of the hand keeps beside it under 八支.

    `guide(b)[sets * 2 + pair]`, one per suit that can reach 8: the most the other blocks keep when block b
    holds at most that many sets and pairs and the suit still reaches 8 (-1: it cannot). A block's own table
    read against its guides gives the hand's best, so a drawn tile costs one table and a few look-ups.
    """

    def __init__(self, concealed: Sequence[int], meld_counts: Sequence[int], melds: int, memo: Memo) -> None:
        self.concealed = concealed
        self.size = FULL_HAND - 3 * melds
        self.max_sets = 4 - melds
        self.limits: Limits = copy_limits(tuple(meld_counts))
        self.tables = block_tables(concealed, self.limits, memo)
        self.memo = memo
        # the suits that could reach 8 with every group of the hand in them, with their meld tiles
        in_melds = [sum(meld_counts[suit * 9 : suit * 9 + 9]) for suit in range(SUITS)]
        self.eights = [(suit, m) for suit, m in enumerate(in_melds) if self.size + m >= EIGHT]
        self._others: list[Table] | None = None
        self._guides: dict[int, list[list[int]]] = {}

    def distance(self) -> int | None:
        return self.distance_with(0, self.tables[0])

    def distance_with(self, block: int, table: Table) -> int | None:
        """The distance with `table` in place of block `block`'s."""
        best = -1
        for guide in self.guide(block):
            for s, p, _, k in table.entries:
                other = guide[s * 2 + p]
                if other >= 0 and k + other > best:
                    best = k + other
        return None if best < 0 else self.size - best

    def lowering(self, draws: Sequence[int], now: int) -> list[int]:
        """The drawn kinds that bring the distance below `now`."""
        return [k for k in draws if self.distance_with(block_of(k), self.drawn(k)) < now]

    def drawn(self, kind: int) -> Table:
        return block_with(self.concealed, self.limits, block_of(kind), kind, self.memo)

    def guide(self, block: int) -> list[list[int]]:
        found = self._guides.get(block)
        if found is None:
            found = self._guides[block] = [self._guide(block, suit, m) for suit, m in self.eights]
        return found

    def _guide(self, block: int, suit: int, in_melds: int) -> list[int]:
        top = self.max_sets
        cells = [-1] * CELLS
        if block == suit:
            # the suit is this block: the others keep what they can and leave it enough groups
            if self._others is None:
                self._others = self.memo.others(self.tables)
            rest = self._others[block]
            for sets in range(top + 1):
                for pair in (0, 1):
                    cells[sets * 2 + pair] = max(
                        (
                            k
                            for s, p, _, k in rest.entries
                            if s <= top - sets and p <= 1 - pair and _eight(top - s, 1 - p, in_melds)
                        ),
                        default=-1,
                    )
            return cells
        apart = [t for b, t in enumerate(self.tables) if b not in (block, suit)]
        outside = self.memo.join(apart[0], apart[1])
        target = self.tables[suit]
        for sets in range(top + 1):
            for pair in (0, 1):
                best = -1
                for s, p, _, k in outside.entries:
                    here_sets, here_pair = top - sets - s, 1 - pair - p
                    if here_sets < 0 or here_pair < 0 or not _eight(here_sets, here_pair, in_melds):
                        continue
                    mine = target.within(here_sets, here_pair)
                    if mine >= 0 and k + mine > best:
                        best = k + mine
                cells[sets * 2 + pair] = best
        return cells


def _eight(sets: int, pair: int, in_melds: int) -> bool:
    """Does a suit with these groups (every slot of them) and meld tiles reach 8?"""
    return 3 * sets + 2 * pair + in_melds >= EIGHT


def distance(concealed: Sequence[int], meld_counts: Sequence[int], melds: int) -> int | None:
    """Tiles to draw (exchanging others) before the concealed counts are a bazhi win; None if never.

    `meld_counts` holds the melds' tiles per kind (a kong's four), `melds` how many melds there are.
    """
    return Hand(concealed, meld_counts, melds, Memo(4 - melds)).distance()


# --------------------------------------------------------------------------- the request's answers


def _meld_counts(request: ScoreRequest) -> list[int]:
    return [total - held for total, held in zip(request.all_counts, request.concealed_counts, strict=True)]


def shanten(request: ScoreRequest) -> int | None:
    """The shanten of a 13-tile hand (no win tile): 0 when ready, None when no exchanges can make it ready."""
    found = distance(request.concealed_counts, _meld_counts(request), len(request.melds))
    return None if found is None else found - 1


def blocked_by(request: ScoreRequest, waits: list, shanten: int | None) -> str | None:
    """ "no_bazhi" when nothing wins only for lack of 八支: no suit can ever reach 8, or a kind (copies
    permitting) completes the shape but no wait keeps 八支."""
    if waits:
        return None
    if shanten is None:
        return "no_bazhi"
    held = request.all_counts
    if any(k in GAME_KINDS and held[k] < 4 for k in completing_kinds(request.concealed_counts)):
        return "no_bazhi"
    return None


def blocked_message(request: ScoreRequest, blocked_by: str, shanten: int | None, lang: str) -> str:
    """Why a hand blocked by 八支 waits on nothing, with its suit counts (melds included, a kong 4)."""
    m, p, s = request.suit_counts.values()  # in the order m p s
    counts = msg("m {m} · p {p} · s {s}", m=m, p=p, s=s)(lang)
    return BLOCKED["never" if shanten is None else "ready"](lang).format(counts=counts)


def discards(request: ScoreRequest) -> list[dict]:
    """The discard table of a 14-tile hand (API.md)."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    memo = Memo(4 - melds)

    def measure(counts: list[int], draws: list[int]) -> tuple[int | None, list[int]]:
        hand = Hand(counts, meld_counts, melds, memo)
        now = hand.distance()
        return now, [] if now is None else hand.lowering(draws, now)

    rows = discard_table(request.concealed_counts, meld_counts, KINDS, measure)
    return [{"tile": ALL_TILES[r.kind].notation, "shanten": r.shanten, "improving": r.improving} for r in rows]


def draws(request: ScoreRequest) -> dict:
    """The draws that help a 13-tile hand that is not ready (API.md `draws`, `draws_left`): the kinds whose draw
    lowers the distance, 八支 included; none when no win can be reached."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    hand = Hand(request.concealed_counts, meld_counts, melds, Memo(4 - melds))
    now = hand.distance()
    if now is None:
        return draws_answer([])
    rows = draw_table(request.concealed_counts, meld_counts, KINDS, lambda kinds: hand.lowering(kinds, now))
    return draws_answer(rows)


def nearest(request: ScoreRequest) -> dict | None:
    """One nearest win of a 14-tile hand that is not one (`nearest.py`): a pair and sets with 八支, the tiles the
    hand lacks and the ones that do not fit; None when no win can be reached."""
    counts = request.concealed_counts
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    found = distance(counts, meld_counts, melds)
    if found is None:
        return None
    in_melds = [sum(meld_counts[suit * 9 : suit * 9 + 9]) for suit in range(SUITS)]

    def eight(slots: list[int]) -> bool:
        return any(sum(slots[suit * 9 : suit * 9 + 9]) + in_melds[suit] >= EIGHT for suit in range(SUITS))

    limits = copy_limits(tuple(meld_counts))
    groups = standard(counts, limits, 0, 4 - melds, found, eight, GAME_KINDS)
    nearest = fill(groups, counts, limits.soft, 0, None)
    nearest.shape = "standard"
    return nearest.to_dict()
