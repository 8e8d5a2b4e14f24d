"""Distance to a win: how many tiles a hand still has to draw, exchanging others, before it is a win.

The distance of concealed tiles H to a winning concealed part W is |W − H|, the tiles of W that H lacks;
the distance of H is the least of these over every legal W. A 13-tile hand's 向听 (shanten) is its distance
less one: it is ready when one drawn tile completes it. Each exchange brings one tile of W in and sends one
tile out that W does not need; no step ever holds a kind more often than H or W does, so the copy limits of
W are the only ones that matter.

For a standard shape (one pair and sets), W is read as an ideal shape T: the pair and sets as tile kinds,
each slot filled by a natural tile or, in xinyu, by a 财神 (wild). A natural tile of H is *kept* when T has
a slot of its kind; every 财神 held is kept (it fills any slot); the rest of T is drawn. So

    distance = |W| − (财神 held) − (natural tiles kept)

and the work is to keep as many natural tiles as possible. A slot is *forced* when no natural tile may fill
it (the 财神's own kind, or a copy beyond the four a kind has): only a 财神 can, and four exist.

The groups of T that keep no tile at all can stand wherever a kind has copies to spare (a hand and its melds
hold at most 18 tiles, so most kinds have), so each block of the hand (万, 筒, 条, honours) is solved alone,
for its groups that keep something: a table of how many tiles it keeps with at most s sets, p pairs and f
forced slots. A hand joins its blocks' tables. One question (a hand's distance, a discard table, the draws that
help) asks the same blocks and joins many times: it works each out once in its `Memo`, dropped with the question;
nothing is kept between answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .tiles import ALL_TILES, BLOCKS

MAX_SETS = 4
MAX_FORCED = 4  # a forced slot takes a 财神, and there are four
UNLIMITED = 99  # a per-kind limit that never binds
FULL_HAND = 14  # the concealed part at a win, less 3 per meld
CELLS = 2 * (MAX_SETS + 1)  # (sets, pair) as one index: sets * 2 + pair


class Entry(NamedTuple):
    """With `sets` sets, `pair` pairs (0 or 1) and `forced` forced slots, `kept` natural tiles are kept."""

    sets: int
    pair: int
    forced: int
    kept: int


class Table:
    """What some blocks keep. `entries`: the (sets, pair, forced) that keep more than any smaller one.
    `levels[f][sets * 2 + pair]`: the most kept with at most that many sets, pairs and f forced slots (the
    last level stands for every higher f; -1 where nothing fits), worked out when first asked."""

    __slots__ = ("entries", "_levels")

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self._levels: tuple[tuple[int, ...], ...] | None = None

    @property
    def levels(self) -> tuple[tuple[int, ...], ...]:
        if self._levels is None:
            levels = []
            for level in range(max(e.forced for e in self.entries) + 1):
                cells = [-1] * CELLS
                for s, p, f, k in self.entries:
                    if f <= level:
                        for sets in range(s, MAX_SETS + 1):
                            for pair in range(p, 2):
                                if cells[sets * 2 + pair] < k:
                                    cells[sets * 2 + pair] = k
                levels.append(tuple(cells))
            self._levels = tuple(levels)
        return self._levels

    def within(self, sets: int, pair: int, forced: int = MAX_FORCED) -> int:
        """The most kept with at most these sets, pairs and forced slots (-1: none)."""
        if sets < 0 or pair < 0 or forced < 0:
            return -1
        levels = self.levels
        return levels[min(forced, len(levels) - 1)][min(sets, MAX_SETS) * 2 + min(pair, 1)]

    def __repr__(self) -> str:
        return f"Table({self.entries!r})"


class Limits(NamedTuple):
    """Per kind (34): `hard`, the most slots an ideal shape may have of it; `soft`, how many of them a natural
    tile may fill (the slots beyond are forced)."""

    hard: tuple[int, ...]
    soft: tuple[int, ...]


def copy_limits(meld_counts: tuple[int, ...], wild: int | None = None, wild_fifth_copy: bool = True) -> Limits:
    """The limits of a hand with these meld tiles (per kind), and `wild` the 财神 kind if the game has one.

    A natural tile may fill a slot while the kind has copies left beside the melds. The 财神's own kind has no
    natural tile (every copy in the hand is wild), so each slot of it is forced. With `wild_fifth_copy` a 财神
    may also stand for a copy beyond the fourth; without it the copies (slots plus meld tiles) stay at four.
    """
    soft = [4 - c for c in meld_counts]
    if wild is None:
        return Limits(hard=tuple(soft), soft=tuple(soft))
    hard = [UNLIMITED] * len(soft) if wild_fifth_copy else list(soft)
    soft[wild] = 0
    if not wild_fifth_copy:
        hard[wild] = 4
    return Limits(hard=tuple(hard), soft=tuple(soft))


def table_of(best: dict[tuple[int, int, int], int]) -> Table:
    """The table of the best kept per (sets, pair, forced)."""
    ordered = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    entries: list[Entry] = []
    for (s, p, f), k in ordered:
        if not any(e.sets <= s and e.pair <= p and e.forced <= f for e in entries):
            entries.append(Entry(sets=s, pair=p, forced=f, kept=k))
    return Table(tuple(entries))


EMPTY_TABLE = table_of({(0, 0, 0): 0})


# --------------------------------------------------------------------------- one block


def block_table(
    counts: tuple[int, ...], hard: tuple[int, ...], soft: tuple[int, ...], sequences: bool, suffixes: Suffixes
) -> Table:
    """The table of one block, from its natural tiles per rank and its limits (`Limits`).

    The search goes rank by rank, deciding how many triplets, pairs and sequences start at each; a sequence
    started at r − 2 or r − 1 still covers r. Only groups that can keep a tile are tried: a triplet or pair
    needs its own tile of the rank; a sequence one of the rank, or else it could start one rank higher
    instead, unless that rank is beyond the block or may already be full.
    What the ranks from r up keep depends only on them and on the sequences reaching into r, so it is
    worked out once per question (`suffixes`, the question's `Memo.suffixes`): a suit that differs only in its
    low ranks reuses the rest.
    """
    size = len(counts)
    # one number per rank from r up: its counts and limits, then the block's length and kind
    keys = [0] * (size + 1)
    keys[size] = key = size * 2 + sequences
    for r in range(size - 1, -1, -1):
        keys[r] = key = key * 1000 + counts[r] * 100 + min(hard[r], 9) * 10 + soft[r]
    best = _rest(counts, hard, soft, sequences, keys, 0, 0, 0, suffixes)
    return table_of({(code // 10, code % 10 // 5, code % 5): k for code, k in best.items()})


# What the ranks from r up keep, per (sets, pair, forced) coded as sets * 10 + pair * 5 + forced:
# keyed on (those ranks' counts and limits as one number, sequences started at r - 2, at r - 1).
Suffixes = dict[tuple[int, int, int], dict[int, int]]


def _rest(counts, hard, soft, sequences, keys, rank: int, older: int, newer: int, suffixes: Suffixes) -> dict[int, int]:
    """Best kept from `rank` up, with `older` sequences started at rank − 2 and `newer` at rank − 1."""
    key = (keys[rank], older, newer)
    found = suffixes.get(key)
    if found is not None:
        return found
    size = len(counts)
    if rank == size:
        suffixes[key] = found = {0: 0}
        return found
    have = counts[rank]
    covering = older + newer
    room = MAX_SETS - covering
    starts = sequences and rank + 2 < size
    # sequences that keep no tile of this rank: only where starting one rank higher could cost a forced slot
    free_above = rank + 3 < size and not counts[rank + 3] and soft[rank + 3] >= 4 and hard[rank + 3] >= 4
    extra = counts[rank + 1] + counts[rank + 2] if starts and not free_above else 0
    found = {}
    for triplets in range(min(have, 2, room) + 1):
        for pair in range(min(have - triplets, 1) + 1):
            most = min(room - triplets, have - triplets - pair + extra) if starts else 0
            for started in range(most + 1):
                slots = 3 * triplets + 2 * pair + covering + started
                if slots > hard[rank]:
                    break
                forced = slots - soft[rank] if slots > soft[rank] else 0
                if forced > MAX_FORCED:
                    break
                kept = slots if slots < have else have
                sets = triplets + started
                shift = sets * 10 + pair * 5 + forced
                sets_left = room - sets
                above = _rest(counts, hard, soft, sequences, keys, rank + 1, newer, started, suffixes)
                for code, k in above.items():
                    if code // 10 > sets_left or (pair and code % 10 >= 5) or code % 5 + forced > MAX_FORCED:
                        continue
                    code += shift
                    k += kept
                    if found.get(code, -1) < k:
                        found[code] = k
    suffixes[key] = found
    return found


def block_tables(counts: Sequence[int], limits: Limits, memo: Memo) -> list[Table]:
    """The tables of the four blocks (万, 筒, 条, honours) of natural counts over the 34 kinds."""
    hard, soft = limits
    tables = []
    for base, size, sequences in BLOCKS:
        end = base + size
        block = tuple(counts[base:end])
        tables.append(memo.block_table(block, hard[base:end], soft[base:end], sequences) if any(block) else EMPTY_TABLE)
    return tables


def block_with(counts: Sequence[int], limits: Limits, block: int, kind: int, memo: Memo) -> Table:
    """The table of one block of `counts` with one more natural tile of `kind` (a kind of that block)."""
    base, size, sequences = BLOCKS[block]
    end = base + size
    grown = list(counts[base:end])
    grown[kind - base] += 1
    return memo.block_table(tuple(grown), limits.hard[base:end], limits.soft[base:end], sequences)


# --------------------------------------------------------------------------- blocks together


def join(first: Table, second: Table, max_sets: int = MAX_SETS) -> Table:
    """The table of two parts of a hand together."""
    best: dict[tuple[int, int, int], int] = {}
    for s1, p1, f1, k1 in first.entries:
        for s2, p2, f2, k2 in second.entries:
            s, p, f = s1 + s2, p1 + p2, f1 + f2
            if s > max_sets or p > 1 or f > MAX_FORCED:
                continue
            k = k1 + k2
            if best.get((s, p, f), -1) < k:
                best[(s, p, f)] = k
    return table_of(best)


def best_with(table: Table, rest: Table, max_sets: int) -> int:
    """The most a part (`table`) and the rest of the hand keep together: a pair and `max_sets` sets."""
    best = -1
    for s, p, f, k in table.entries:
        other = rest.within(max_sets - s, 1 - p, MAX_FORCED - f)
        if other >= 0 and k + other > best:
            best = k + other
    return best


class Memo:
    """What one question (a hand's distance, a discard table, the draws that help) works out more than once, each
    the first time it is asked: the blocks' tables (a discard table asks the same blocks for many hands), what the
    ranks from r up keep (`_rest`), and the joins of tables. Made for the question and dropped with it. Joins are
    keyed on the tables' identities: the remembered entries hold the tables, so no identity is reused meanwhile."""

    def __init__(self, max_sets: int) -> None:
        self.max_sets = max_sets
        self.suffixes: Suffixes = {}
        self._tables: dict[tuple, Table] = {}
        self._joins: dict[tuple[int, int], tuple[Table, Table, Table]] = {}

    def block_table(
        self, counts: tuple[int, ...], hard: tuple[int, ...], soft: tuple[int, ...], sequences: bool
    ) -> Table:
        key = (counts, hard, soft, sequences)
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = block_table(counts, hard, soft, sequences, self.suffixes)
        return found

    def join(self, first: Table, second: Table) -> Table:
        key = (id(first), id(second))
        found = self._joins.get(key)
        if found is None:
            found = self._joins[key] = (first, second, join(first, second, self.max_sets))
        return found[2]

    def others(self, tables: Sequence[Table]) -> list[Table]:
        """For each of the four blocks, the other three joined."""
        t0, t1, t2, t3 = tables
        low, high = self.join(t0, t1), self.join(t2, t3)
        return [self.join(t1, high), self.join(t0, high), self.join(low, t3), self.join(low, t2)]


# --------------------------------------------------------------------------- the table of discards


class Discard(NamedTuple):
    """One row of the discard table: the shanten the other tiles are at (None: never ready), and how many
    unseen tiles would lower it."""

    kind: int
    shanten: int | None
    improving: int


# (concealed counts, the kinds that may be drawn) -> (distance now, the drawn kinds that would lower it)
DrawMeasure = Callable[[list[int], list[int]], tuple[int | None, list[int]]]


def discard_table(
    concealed: Sequence[int], meld_counts: Sequence[int], kinds: Sequence[int], measure: DrawMeasure
) -> list[Discard]:
    """Every distinct concealed kind as a discard: the shanten of the tiles left, and the unseen tiles (four
    less the copies in the concealed part and the melds) whose draw lowers it. `measure` gives the ruleset's
    distance (None: no win can be reached) and the draws that lower it. Sorted best first: lower shanten,
    more improving tiles, then tile order."""
    unseen = [4 - concealed[k] - meld_counts[k] for k in range(len(concealed))]
    draws = [k for k in kinds if unseen[k] > 0]
    rows = []
    left = list(concealed)
    for kind in range(len(concealed)):
        if not concealed[kind]:
            continue
        left[kind] -= 1
        now, lowering = measure(left, draws)
        left[kind] += 1
        improving = sum(unseen[k] for k in lowering)
        rows.append(Discard(kind=kind, shanten=None if now is None else now - 1, improving=improving))
    rows.sort(key=lambda row: (row.shanten is None, row.shanten or 0, -row.improving, row.kind))
    return rows


# --------------------------------------------------------------------------- the draws that help


class Draw(NamedTuple):
    """A kind whose draw lowers a 13-tile hand's distance, and how many of its copies are unseen."""

    kind: int
    left: int


def draw_table(
    concealed: Sequence[int],
    meld_counts: Sequence[int],
    kinds: Sequence[int],
    lowering: Callable[[list[int]], list[int]],
) -> list[Draw]:
    """The draws that help a 13-tile hand (API.md `draws`): of the game's `kinds` with an unseen copy (four less
    the copies in the concealed part and the melds), those `lowering` keeps, i.e. whose draw lowers the
    ruleset's distance; most copies left first, then tile order.

    Lowering the 14 tiles' distance is the same as leaving a discard with a lower shanten: a 14-tile hand that
    is no win holds a tile its nearest win does not use, and throwing that tile keeps the distance."""
    unseen = [4 - concealed[k] - meld_counts[k] for k in range(len(concealed))]
    draws = [k for k in kinds if unseen[k] > 0]
    rows = [Draw(kind=k, left=unseen[k]) for k in lowering(draws)]
    rows.sort(key=lambda row: (-row.left, row.kind))
    return rows


def draws_answer(rows: Sequence[Draw]) -> dict:
    """The answer's `draws` and `draws_left` (their sum) from the table of draws."""
    draws = [{"tile": ALL_TILES[row.kind].notation, "left": row.left} for row in rows]
    return {"draws": draws, "draws_left": sum(row.left for row in rows)}
