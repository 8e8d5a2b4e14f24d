"""How far a tuidaohu hand is from ready (§T.1): the least over its two wins, a pair and sets (the per-block tables
of calculator/engine/distance.py) and seven pairs (four alike being two). No wild tile, no condition beyond the
shape: a hand is never blocked."""

from __future__ import annotations

from collections.abc import Sequence

from calculator.engine.distance import (
    FULL_HAND,
    Memo,
    best_with,
    block_tables,
    block_with,
    copy_limits,
    discard_table,
    draw_table,
    draws_answer,
)
from calculator.engine.hand import ScoreRequest
from calculator.engine.nearest import fill, pairs, standard
from calculator.engine.tiles import ALL_TILES, block_of

from .declarations import KINDS as GAME_KINDS

PAIRS = 7
KINDS = tuple(sorted(GAME_KINDS))


class Hand:
    """One hand's distance under each win, and which drawn kinds bring it nearer."""

    def __init__(self, concealed: Sequence[int], meld_counts: Sequence[int], melds: int, memo: Memo) -> None:
        self.concealed = concealed
        self.size = FULL_HAND - 3 * melds
        self.max_sets = 4 - melds
        self.limits = copy_limits(tuple(meld_counts))
        self.tables = block_tables(concealed, self.limits, memo)
        self.memo = memo
        first_three = memo.join(memo.join(self.tables[0], self.tables[1]), self.tables[2])
        self.standard = best_with(self.tables[3], first_three, self.max_sets)
        self.by_standard = self.size - self.standard
        self.pairs = _pairs_kept(concealed) if not melds else None
        self.by_pairs = None if self.pairs is None else FULL_HAND - self.pairs
        self._rests = None

    def distance(self) -> int:
        return min(way for way in (self.by_standard, self.by_pairs) if way is not None)

    def lowering(self, draws: Sequence[int], now: int) -> list[int]:
        """The drawn kinds that bring the distance below `now` (through a win at `now` that keeps them)."""
        found = []
        for kind in draws:
            if (self.by_standard == now and self._standard_with(kind) > self.standard) or (
                self.by_pairs == now and _pairs_kept(_plus(self.concealed, kind)) > self.pairs
            ):
                found.append(kind)
        return found

    def _standard_with(self, kind: int) -> int:
        if self._rests is None:
            self._rests = self.memo.others(self.tables)
        block = block_of(kind)
        return best_with(
            block_with(self.concealed, self.limits, block, kind, self.memo), self._rests[block], self.max_sets
        )


def _plus(counts: Sequence[int], kind: int) -> list[int]:
    grown = list(counts)
    grown[kind] += 1
    return grown


def _pairs_kept(counts: Sequence[int]) -> int:
    """七对: the tiles seven pairs keep (whole pairs first, four alike being two, then single copies)."""
    whole = min(sum(c // 2 for c in counts), PAIRS)
    return 2 * whole + min(sum(c % 2 for c in counts), PAIRS - whole)


def _meld_counts(request: ScoreRequest) -> list[int]:
    return [total - held for total, held in zip(request.all_counts, request.concealed_counts, strict=True)]


def _hand(request: ScoreRequest, counts: Sequence[int] | None = None) -> Hand:
    melds = len(request.melds)
    concealed = request.concealed_counts if counts is None else counts
    return Hand(concealed, _meld_counts(request), melds, Memo(4 - melds))


def shanten(request: ScoreRequest) -> int:
    """The shanten of a 13-tile hand (no win tile): 0 when ready."""
    return _hand(request).distance() - 1


def blocked_by(request: ScoreRequest, waits: list, shanten: int | None) -> str | None:
    """A tuidaohu hand has no condition beyond its shape: it is never blocked."""
    return None


def blocked_message(request: ScoreRequest, blocked_by: str, shanten: int | None, lang: str) -> str:
    return ""  # never blocked


def discards(request: ScoreRequest) -> list[dict]:
    """The discard table of a 14-tile hand (API.md)."""
    meld_counts = _meld_counts(request)
    melds = len(request.melds)
    memo = Memo(4 - melds)

    def measure(counts: list[int], draws: list[int]) -> tuple[int, list[int]]:
        hand = Hand(counts, meld_counts, melds, memo)
        now = hand.distance()
        return now, hand.lowering(draws, now)

    rows = discard_table(request.concealed_counts, meld_counts, KINDS, measure)
    return [{"tile": ALL_TILES[r.kind].notation, "shanten": r.shanten, "improving": r.improving} for r in rows]


def draws(request: ScoreRequest) -> dict:
    """The draws that help a 13-tile hand that is not ready (API.md `draws`, `draws_left`)."""
    hand = _hand(request)
    now = hand.distance()
    rows = draw_table(request.concealed_counts, _meld_counts(request), KINDS, lambda kinds: hand.lowering(kinds, now))
    return draws_answer(rows)


def nearest(request: ScoreRequest) -> dict:
    """One nearest win of a 14-tile hand that is not one: a pair and sets when that is as near as seven pairs."""
    hand = _hand(request)
    least = hand.distance()
    counts = request.concealed_counts
    if hand.by_standard == least:
        found = fill(standard(counts, hand.limits, 0, hand.max_sets, least), counts, hand.limits.soft, 0, None)
        found.shape = "standard"
    else:
        found = pairs(counts, 0, None)
    return found.to_dict()
