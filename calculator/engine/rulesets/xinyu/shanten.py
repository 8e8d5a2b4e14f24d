"""How far a xinyu hand is from ready (RULES.md §2.1-2.2), every legal win counted, the 财神 wild.

The distance of a hand (tiles to draw, exchanging others, until it is a win: `distance.py`) is the least over
the five wins. Every 财神 held is kept, since it fills any place in any of them:
- standard: a pair and sets, with the per-block tables of `distance.py`;
- 七对: seven pairs, four alike being two; a kind held twice keeps a pair, an odd copy keeps half of one;
- 十三不搭: the natural tiles all different, a suit's ranks 3 apart; the 财神 fill the rest, and there are at
  most four, so at least ten natural tiles must fit the pattern;
- 4龙: four 财神 (self-draw; a drawn tile is a self-draw); the rest of the hand is anything;
- 全风向: honours and 财神 only, no shape.
With `wild_fifth_copy` false (RULES.md §5.2) a 财神 may not stand for a fifth copy of a kind in a standard
reading; the other wins never need one (a 财神 pairs an odd count of at most three, or fills a gap).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...distance import (
    FULL_HAND,
    Memo,
    Table,
    best_with,
    block_tables,
    block_with,
    copy_limits,
    discard_table,
    draw_table,
    draws_answer,
)
from ...hand import ScoreRequest
from ...nearest import fill, honours_of, kept_tiles, pairs, silong, standard
from ...tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS, block_of
from .declarations import KINDS as GAME_KINDS

PAIRS = 7
MAX_WILD = 4
SILONG = 4
SHISANBUDA_NATURAL = FULL_HAND - MAX_WILD  # four 财神 at most: ten natural tiles at least
HONOURS = NUM_KINDS - FIRST_HONOUR
SUIT_BASES = (0, 9, 18)
KINDS = tuple(sorted(GAME_KINDS))


class Hand:
    """One hand (concealed counts, 财神 included) and its distance under each win, with what one more natural
    tile of a kind does to each: a drawn tile lowers the distance only through a win that is at it already."""

    def __init__(
        self,
        concealed: Sequence[int],
        meld_counts: Sequence[int],
        melds: int,
        caishen: int,
        wild_fifth_copy: bool,
        memo: Memo,
    ) -> None:
        self.caishen = caishen
        self.wild = concealed[caishen]
        natural = list(concealed)
        natural[caishen] = 0
        self.natural = natural
        self.size = FULL_HAND - 3 * melds
        self.max_sets = 4 - melds
        self.closed = not melds
        self.limits = copy_limits(tuple(meld_counts), caishen, wild_fifth_copy)
        self.tables = block_tables(natural, self.limits, memo)
        self.memo = memo
        self._rests: list[Table] | None = None
        first_three = memo.join(memo.join(self.tables[0], self.tables[1]), self.tables[2])
        self.standard = best_with(self.tables[3], first_three, self.max_sets)
        self.total = sum(natural)
        self.honours_only = not any(meld_counts[:FIRST_HONOUR])
        self.honours = sum(natural[FIRST_HONOUR:])
        self.honour_room = sum(4 - meld_counts[k] - natural[k] for k in range(FIRST_HONOUR, NUM_KINDS) if k != caishen)
        self.whole_pairs = sum(c // 2 for c in natural)
        self.single = sum(c % 2 for c in natural)
        self.suits = [_suit_patterns(_ranks(natural, base), _excluded(caishen, base)) for base in SUIT_BASES]
        self.kinds_of_honours = sum(1 for c in natural[FIRST_HONOUR:] if c)
        self.shisanbuda = _shisanbuda(self.suits, self.kinds_of_honours, caishen) if self.closed else None
        # the distance under each win (None: that win cannot be reached)
        wild = self.wild
        self.by_standard = self.size - wild - self.standard
        self.by_pairs = FULL_HAND - wild - _pairs_kept(self.whole_pairs, self.single) if self.closed else None
        self.by_shisanbuda = None if self.shisanbuda is None else FULL_HAND - wild - self.shisanbuda
        self.by_silong = self.size - wild - min(self.total, self.size - SILONG) if self.size >= SILONG else None
        drawn = self.size - wild - self.honours
        fits = self.honours_only and drawn <= self.honour_room + MAX_WILD - wild
        self.by_quanfeng = drawn if fits else None

    def distance(self) -> int:
        ways = (self.by_standard, self.by_pairs, self.by_shisanbuda, self.by_silong, self.by_quanfeng)
        return min(way for way in ways if way is not None)

    def lowering(self, draws: Sequence[int], now: int) -> list[int]:
        """The drawn kinds that bring the distance below `now`: a 财神 always (every win has one place
        fewer to fill), a natural tile when some win at `now` keeps it (no win gets nearer by more than one)."""
        silong = self.by_silong == now and self.total < self.size - SILONG
        quanfeng = self.by_quanfeng == now
        pairs = self.by_pairs == now
        shisanbuda = self.by_shisanbuda == now
        standard = self.by_standard == now
        found = []
        for k in draws:
            if (
                k == self.caishen
                or silong
                or (quanfeng and k >= FIRST_HONOUR)
                or (pairs and self._pairs_with(k) > _pairs_kept(self.whole_pairs, self.single))
                or (shisanbuda and self._shisanbuda_with(k) > self.shisanbuda)
                or (standard and self._standard_with(k) > self.standard)
            ):
                found.append(k)
        return found

    def _standard_with(self, kind: int) -> int:
        """The most the standard shape keeps with one more natural tile of `kind` (only its block changes)."""
        if self._rests is None:
            self._rests = self.memo.others(self.tables)
        block = block_of(kind)
        return best_with(
            block_with(self.natural, self.limits, block, kind, self.memo), self._rests[block], self.max_sets
        )

    def _pairs_with(self, kind: int) -> int:
        if self.natural[kind] % 2:
            return _pairs_kept(self.whole_pairs + 1, self.single - 1)
        return _pairs_kept(self.whole_pairs, self.single + 1)

    def _shisanbuda_with(self, kind: int) -> int | None:
        if self.natural[kind]:
            return self.shisanbuda  # a second copy is never kept
        if kind >= FIRST_HONOUR:
            return self.shisanbuda + 1
        suit = kind // 9
        base = SUIT_BASES[suit]
        suits = list(self.suits)
        suits[suit] = _suit_patterns(_ranks(self.natural, base) | 1 << (kind - base), _excluded(self.caishen, base))
        return _shisanbuda(suits, self.kinds_of_honours, self.caishen)


def _pairs_kept(whole: int, single: int) -> int:
    """七对: the natural tiles seven pairs keep (whole pairs first, then single copies waiting for a mate)."""
    whole = min(whole, PAIRS)
    return 2 * whole + min(single, PAIRS - whole)


def _shisanbuda(suits: list[tuple[tuple[int, int], ...]], honours: int, caishen: int) -> int | None:
    """十三不搭: the most natural tiles a pattern of at least ten natural tiles keeps (None: no such pattern).
    `suits` holds each suit's (kept, largest pattern holding them); every honour kind held is kept."""
    honour_room = HONOURS - (caishen >= FIRST_HONOUR)
    best = None
    for kept_m, room_m in suits[0]:
        for kept_p, room_p in suits[1]:
            for kept_s, room_s in suits[2]:
                if room_m + room_p + room_s + honour_room < SHISANBUDA_NATURAL:
                    continue
                kept = kept_m + kept_p + kept_s + honours
                if best is None or kept > best:
                    best = kept
    return best


def _ranks(natural: Sequence[int], base: int) -> int:
    return sum(1 << r for r in range(9) if natural[base + r])


def _excluded(caishen: int, base: int) -> int:
    """The 财神's rank in this suit as a bit (its copies are wild, never natural), or 0."""
    return 1 << (caishen - base) if base <= caishen < base + 9 else 0


def _spread(ranks: int) -> bool:
    """Are the ranks of this bit set pairwise at least 3 apart?"""
    held = [r for r in range(9) if ranks >> r & 1]
    return all(b - a >= 3 for a, b in zip(held, held[1:], strict=False))


PATTERNS = tuple(ranks for ranks in range(1 << 9) if _spread(ranks))  # a suit's ranks in a 十三不搭: 41 of them
EXCLUDED = (0, *(1 << rank for rank in range(9)))  # no rank of the suit is the 财神's, or that one is

# ROOM[kept, excluded]: the most ranks of a 十三不搭 pattern holding the ranks `kept` (a pattern) and not the 财神's
# rank `excluded` (a bit, or 0): keyed on a pattern and a rank, 41 × 10, written once at import.
ROOM = {
    (kept, excluded): max(p.bit_count() for p in PATTERNS if p & kept == kept and not p & excluded)
    for kept in PATTERNS
    for excluded in EXCLUDED
    if not kept & excluded
}


def _suit_patterns(present: int, excluded: int) -> tuple[tuple[int, int], ...]:
    """(kept, largest pattern holding them) for the patterns of held ranks, the dominated ones left out."""
    found: dict[int, int] = {}
    for kept in PATTERNS:
        if kept & ~present:
            continue
        room = ROOM[kept, excluded]
        found[kept.bit_count()] = max(found.get(kept.bit_count(), 0), room)
    return tuple(
        (size, room) for size, room in found.items() if not any(s > size and r >= room for s, r in found.items())
    )


def distance(
    concealed: Sequence[int],
    meld_counts: Sequence[int],
    melds: int,
    caishen: int,
    wild_fifth_copy: bool = True,
) -> int:
    """Tiles to draw (exchanging others) before the concealed counts (财神 included) are a xinyu win.

    `meld_counts` holds the melds' tiles per kind (a kong's four), `melds` how many melds there are.
    """
    return Hand(concealed, meld_counts, melds, caishen, wild_fifth_copy, Memo(4 - melds)).distance()


# --------------------------------------------------------------------------- the request's answers


def _meld_counts(request: ScoreRequest) -> list[int]:
    return [total - held for total, held in zip(request.all_counts, request.concealed_counts, strict=True)]


def _fifth_copy(request: ScoreRequest) -> bool:
    """The card's wild_fifth_copy (RULES.md §5.2)."""
    return bool(request.options.house["wild_fifth_copy"])


def shanten(request: ScoreRequest) -> int:
    """The shanten of a 13-tile hand (no win tile) under the request's card: 0 when ready."""
    meld_counts = _meld_counts(request)
    caishen = request.options.caishen.index
    fifth = _fifth_copy(request)
    return distance(request.concealed_counts, meld_counts, len(request.melds), caishen, fifth) - 1


def discards(request: ScoreRequest) -> list[dict]:
    """The discard table of a 14-tile hand (API.md) under the request's card."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    caishen = request.options.caishen.index
    fifth = _fifth_copy(request)
    memo = Memo(4 - melds)

    def measure(counts: list[int], draws: list[int]) -> tuple[int, list[int]]:
        hand = Hand(counts, meld_counts, melds, caishen, fifth, memo)
        now = hand.distance()
        return now, hand.lowering(draws, now)

    rows = discard_table(request.concealed_counts, meld_counts, KINDS, measure)
    return [{"tile": ALL_TILES[r.kind].notation, "shanten": r.shanten, "improving": r.improving} for r in rows]


def draws(request: ScoreRequest) -> dict:
    """The draws that help a 13-tile hand that is not ready (API.md `draws`, `draws_left`) under the request's
    card: the kinds whose draw lowers the distance, a drawn 财神 counted as the 财神 it is."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    caishen = request.options.caishen.index
    hand = Hand(request.concealed_counts, meld_counts, melds, caishen, _fifth_copy(request), Memo(4 - melds))
    now = hand.distance()
    rows = draw_table(request.concealed_counts, meld_counts, KINDS, lambda kinds: hand.lowering(kinds, now))
    return draws_answer(rows)


def blocked_by(request: ScoreRequest, waits: list, shanten: int | None) -> str | None:
    """Only bazhi has a condition beyond the shape (八支): a xinyu hand is never blocked."""
    return None


def blocked_message(request: ScoreRequest, blocked_by: str, shanten: int | None, lang: str) -> str:
    return ""  # never blocked


def nearest(request: ScoreRequest) -> dict:
    """One nearest win of a 14-tile hand that is not one (`nearest.py`), under the request's card: of the wins at
    the least distance, the first of standard, 七对, 十三不搭, 全风向, 4龙. Its tiles to draw never make a fifth
    copy of a kind: where only a 财神 can fill a place, the tile to draw is a 财神."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    caishen = request.options.caishen.index
    hand = Hand(request.concealed_counts, meld_counts, melds, caishen, _fifth_copy(request), Memo(4 - melds))
    least = hand.distance()
    natural, wild = hand.natural, hand.wild
    if hand.by_standard == least:
        # a win whose every forced place (a fifth copy, or the 财神's own kind) takes a 财神 held, if there is one
        # at this distance; else some are 财神 still to draw
        groups = standard(natural, hand.limits, wild, hand.max_sets, least, max_forced=wild) or standard(
            natural, hand.limits, wild, hand.max_sets, least
        )
        found = fill(groups, natural, hand.limits.soft, wild, caishen)
        found.shape = "standard"
    elif hand.by_pairs == least:
        found = pairs(natural, wild, caishen)
    elif hand.by_shisanbuda == least:
        found = kept_tiles("shisanbuda", _shisanbuda_kept(natural, caishen), natural, wild, caishen, FULL_HAND)
    elif hand.by_quanfeng == least:
        found = kept_tiles("quanfeng", honours_of(natural), natural, wild, caishen, hand.size)
    else:
        found = silong(natural, wild, caishen, hand.size)
    return found.to_dict()


def _shisanbuda_kept(natural: Sequence[int], caishen: int) -> list[int]:
    """The natural tiles a best 十三不搭 keeps (the pattern `_shisanbuda` counts): per suit a spread of held
    ranks, every honour kind held once, with room left for ten natural tiles."""
    honour_room = HONOURS - (caishen >= FIRST_HONOUR)
    honours = [k for k in range(FIRST_HONOUR, NUM_KINDS) if natural[k]]
    options = []
    for base in SUIT_BASES:
        present, excluded = _ranks(natural, base), _excluded(caishen, base)
        options.append(
            [
                (kept, max(p.bit_count() for p in PATTERNS if p & kept == kept and not p & excluded))
                for kept in PATTERNS
                if not kept & ~present and not kept & excluded
            ]
        )
    best: tuple[int, list[int]] = (-1, [])
    for kept_m, room_m in options[0]:
        for kept_p, room_p in options[1]:
            for kept_s, room_s in options[2]:
                if room_m + room_p + room_s + honour_room < SHISANBUDA_NATURAL:
                    continue
                kept = [
                    base + r
                    for base, bits in zip(SUIT_BASES, (kept_m, kept_p, kept_s), strict=True)
                    for r in range(9)
                    if bits >> r & 1
                ]
                if len(kept) > best[0]:
                    best = (len(kept), kept)
    return best[1] + honours
