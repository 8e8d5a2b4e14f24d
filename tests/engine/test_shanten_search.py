"""The distance to ready (shanten, issue 13) against its definition, on hands from a fixed seed.

The definition: the number of exchanges (one concealed tile out, any tile of the game in, at most four copies
of a kind counting melds) before the hand is ready, ready meaning the ruleset's own waits are not empty. The
search below asks only that, through the engine's waits (`wait_kinds`, which asks each ruleset's win rules):
- shanten 0 exactly when the waits are not empty;
- shanten 1 exactly when some single exchange makes the hand ready (every exchange is tried);
- a hand the fast version puts at s ≥ 1 reaches ready in s exchanges (a path is found and its end checked by
  the engine's waits), and one at s ≥ 2 has no single exchange that makes it ready.
So every answer up to 2 is checked exactly and every larger one from above; the invariants at the end
(an exchange moves the shanten by at most one, and one exchange lowers it by exactly one where it is not 0)
tie the larger ones down: together they make the number the definition's.

Hands under the card's wild_fifth_copy=false (RULES.md §5.2) are asked of the engine with that card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from calculator.engine.distance import Memo
from calculator.engine.hand import Meld, ScoreRequest
from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.bazhi import shanten as bazhi_shanten
from calculator.engine.rulesets.xinyu import shanten as xinyu_shanten
from calculator.engine.tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS
from calculator.engine.waits import wait_kinds

SEED = 20261130
BAZHI_KINDS = sorted(RULESETS["bazhi"].kinds)
ALL_KINDS = list(range(NUM_KINDS))


# --------------------------------------------------------------------------- hands


@dataclass
class Hand:
    """A concealed part and its melds, as the search exchanges them."""

    ruleset: str
    counts: list[int]
    melds: tuple[Meld, ...]
    caishen: int | None = None
    wild_fifth_copy: bool = True

    def __post_init__(self) -> None:
        self.meld_counts = [0] * NUM_KINDS
        for meld in self.melds:
            for tile in meld.tiles:
                self.meld_counts[tile.index] += 1

    @property
    def kinds(self) -> list[int]:
        return BAZHI_KINDS if self.ruleset == "bazhi" else ALL_KINDS

    def request(self, counts: list[int] | None = None) -> ScoreRequest:
        """The 13 tiles as the engine's request, under a card with this hand's wild_fifth_copy."""
        counts = self.counts if counts is None else counts
        ruleset = RULESETS[self.ruleset]
        if self.ruleset == "bazhi":
            options = ruleset.parse_options({})
        else:
            house = {"wild_fifth_copy": self.wild_fifth_copy}
            options = ruleset.parse_options({"caishen": ALL_TILES[self.caishen].notation, "house": house})
        tiles = tuple(ALL_TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k]))
        return ScoreRequest(self.ruleset, options, tiles, None, self.melds, "S", "E", None, frozenset())

    def shanten(self, counts: list[int] | None = None) -> int | None:
        if self.ruleset == "bazhi":
            return bazhi_shanten.shanten(self.request(counts))
        return xinyu_shanten.shanten(self.request(counts))

    def distance(self, counts: list[int], memo: Memo | None = None) -> int | None:
        """The plain distance of these concealed counts (`distance` of the ruleset's module). With `memo`, the
        module's `Hand` on that memo: one shared by the hands of one question, as the module's discard table shares
        one between the hands it measures (what it holds is worked out from the blocks alone, whichever hand asks)."""
        melds = len(self.melds)
        if memo is not None:
            return self.measured(counts, memo).distance()
        if self.ruleset == "bazhi":
            return bazhi_shanten.distance(counts, self.meld_counts, melds)
        return xinyu_shanten.distance(counts, self.meld_counts, melds, self.caishen, self.wild_fifth_copy)

    def measured(self, counts: list[int], memo: Memo | None = None):
        """The module's `Hand`, which the discard table asks which draws lower the distance."""
        melds = len(self.melds)
        memo = memo or Memo(4 - melds)
        if self.ruleset == "bazhi":
            return bazhi_shanten.Hand(counts, self.meld_counts, melds, memo)
        return xinyu_shanten.Hand(counts, self.meld_counts, melds, self.caishen, self.wild_fifth_copy, memo)


def make_meld(kind: str, first: int) -> Meld:
    if kind == "chow":
        return Meld("chow", tuple(ALL_TILES[first + i] for i in range(3)), "E")
    if kind == "kong":
        return Meld("kong_concealed", (ALL_TILES[first],) * 4)
    return Meld("pung", (ALL_TILES[first],) * 3, "E")


def deal(rng: random.Random, ruleset: str, wild: int, quad: bool = False) -> Hand:
    """A 13-tile hand near a win: a complete hand (some sets made melds), a tile taken away and 0-3 tiles
    swapped for random ones; in xinyu, `wild` natural tiles then turned into 财神. With `quad` (xinyu) the
    complete hand reads a 财神 as a fifth copy: a kind held four times makes a triplet and, with a 财神, the
    pair."""
    caishen = rng.randrange(NUM_KINDS) if ruleset == "xinyu" else None
    kinds = [k for k in (BAZHI_KINDS if ruleset == "bazhi" else ALL_KINDS) if k != caishen]
    home = rng.randrange(3) * 9
    while True:
        counts = [0] * NUM_KINDS
        melds: list[Meld] = []

        def pick() -> int:
            return home + rng.randrange(9) if rng.random() < 0.6 else rng.choice(kinds)

        counts[pick()] += 4 if quad else 2  # the pair (with the triplet of the same kind, for `quad`)
        for _ in range(3 if quad else 4):
            first = pick()
            if first < FIRST_HONOUR and first % 9 <= 6 and first + 2 in kinds and rng.random() < 0.5:
                run = [first, first + 1, first + 2]
                if ruleset == "xinyu" and caishen not in run and rng.random() < 0.2:
                    melds.append(make_meld("chow", first))
                else:
                    for k in run:
                        counts[k] += 1
            elif rng.random() < 0.2:
                melds.append(make_meld("kong" if rng.random() < 0.4 else "pung", first))
            else:
                counts[first] += 3
        hand = Hand(ruleset, counts, tuple(melds), caishen)
        held = [c + m for c, m in zip(counts, hand.meld_counts, strict=True)]
        if max(held) <= 4 and (caishen is None or held[caishen] == 0) and (not quad or 4 in held):
            break
    if quad:
        counts[caishen] += 1
    counts[rng.choice([k for k in kinds if counts[k]])] -= 1
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        counts[rng.choice([k for k in kinds if counts[k]])] -= 1
        meld_counts = hand.meld_counts
        counts[rng.choice([k for k in kinds if counts[k] + meld_counts[k] < 4])] += 1
    for _ in range(min(wild, sum(counts))):
        counts[rng.choice([k for k in kinds if counts[k]])] -= 1
        counts[caishen] += 1
    return hand


# --------------------------------------------------------------------------- the definition


def ready(hand: Hand, counts: list[int]) -> bool:
    """Are the waits of these 13 tiles not empty (the engine's waits, under the hand's card)?

    Under wild_fifth_copy=false the engine asks its (slow) capped win check of every kind; a win under that
    card is a win under the default one too, so only the default card's waits are asked of it here.
    """
    ruleset = RULESETS[hand.ruleset]
    if hand.wild_fifth_copy:
        return bool(wait_kinds(ruleset, hand.request(counts)))
    strict = hand.request(counts)
    hand.wild_fifth_copy = True
    candidates = wait_kinds(ruleset, hand.request(counts))
    hand.wild_fifth_copy = False
    return any(ruleset.is_win(strict.with_win(tile, None)) for tile in candidates)


def exchanges(hand: Hand, counts: list[int]):
    """Every hand one exchange away (each distinct tile out, each kind with a copy left in)."""
    meld_counts = hand.meld_counts
    for out in range(NUM_KINDS):
        if not counts[out]:
            continue
        for kind in hand.kinds:
            if kind == out or counts[kind] + meld_counts[kind] >= 4:
                continue
            after = list(counts)
            after[out] -= 1
            after[kind] += 1
            yield after


def one_exchange_from_ready(hand: Hand, counts: list[int]) -> bool:
    return any(ready(hand, after) for after in exchanges(hand, counts))


def path_to_ready(hand: Hand, counts: list[int], steps: int) -> bool:
    """Follow the fast version down `steps` exchanges (a drawn tile that lowers the distance, then a discard
    that keeps it lower), and ask the engine whether the hand is then ready."""
    meld_counts = hand.meld_counts
    for _ in range(steps):
        measured = hand.measured(counts)
        now = measured.distance()
        draws = [k for k in hand.kinds if counts[k] + meld_counts[k] < 4]
        lowering = measured.lowering(draws, now)
        if not lowering:
            return False
        grown = [c + (k == lowering[0]) for k, c in enumerate(counts)]
        after = ([c - (k == out) for k, c in enumerate(grown)] for out in range(NUM_KINDS) if grown[out])
        counts = next((a for a in after if hand.distance(a) == now - 1), None)
        if counts is None:
            return False
    return ready(hand, counts)


# --------------------------------------------------------------------------- the checks


def check_against_definition(hand: Hand, full: bool) -> int | None:
    """The fast shanten of the hand, checked: 0 exactly when ready; s ≥ 1 reached in s exchanges; and, when
    `full`, s ≥ 2 not reached in one (every exchange tried)."""
    counts = hand.counts
    fast = hand.shanten()
    if fast is None:
        assert not ready(hand, counts), hand
        if full:
            assert not one_exchange_from_ready(hand, counts), hand
        return None
    assert fast >= 0
    assert (fast == 0) == ready(hand, counts), hand
    if fast >= 1:
        assert path_to_ready(hand, counts, fast), hand
    if fast >= 2 and full:
        assert not one_exchange_from_ready(hand, counts), hand
    return fast


def test_bazhi_shanten_follows_the_definition():
    rng = random.Random(SEED)
    seen = set()
    for n in range(600):
        hand = deal(rng, "bazhi", 0)
        seen.add(check_against_definition(hand, full=n % 3 == 0))
    assert {0, 1, 2, 3} <= seen  # near and far hands were both tested


def test_xinyu_shanten_follows_the_definition_with_0_to_4_caishen():
    rng = random.Random(SEED + 1)
    seen = set()
    for n in range(800):
        hand = deal(rng, "xinyu", n % 5)
        wild = hand.counts[hand.caishen]
        found = check_against_definition(hand, full=wild < 2 and n % 4 == 0)
        seen.add((wild, found))
        assert found is not None and (wild < 3 or found == 0) and (wild < 2 or found <= 1)
    assert {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (4, 0)} <= seen


def test_xinyu_shanten_without_fifth_copies_follows_the_definition():
    """Under wild_fifth_copy=false, on hands whose complete form read a 财神 as a fifth copy."""
    rng = random.Random(SEED + 2)
    differs = 0
    for n in range(240):
        hand = deal(rng, "xinyu", n % 2, quad=True)
        allowed = hand.shanten()
        hand.wild_fifth_copy = False
        strict = check_against_definition(hand, full=n % 6 == 0)
        assert strict >= allowed  # a card that forbids fifth copies never brings a hand nearer
        differs += strict != allowed
    assert differs >= 4  # hands that needed a 财神 as a fifth copy


def test_the_lowering_draws_are_the_draws_that_lower_the_distance():
    """The discard table's shortcut (a drawn tile is measured against the rest of the hand) against the plain
    distance of the hand with the tile added."""
    rng = random.Random(SEED + 3)
    for n in range(100):
        ruleset = "bazhi" if n % 2 else "xinyu"
        hand = deal(rng, ruleset, n % 5 if ruleset == "xinyu" else 0)
        hand.wild_fifth_copy = n % 3 != 0
        meld_counts = hand.meld_counts
        draws = [k for k in hand.kinds if hand.counts[k] + meld_counts[k] < 4]
        measured = hand.measured(hand.counts)
        now = measured.distance()
        assert now == hand.distance(hand.counts)
        if now is None:
            continue
        expected = [k for k in draws if hand.distance([c + (i == k) for i, c in enumerate(hand.counts)]) < now]
        assert measured.lowering(draws, now) == expected, hand


# --------------------------------------------------------------------------- invariants


def test_one_exchange_moves_the_shanten_by_at_most_one_and_some_exchange_lowers_it():
    """Every exchange of a sample of hands: never more than one step apart, and where the hand is not ready
    some exchange is one step nearer. With 0 exactly when ready, this pins the number to the definition."""
    rng = random.Random(SEED + 4)
    for n in range(14):
        ruleset = "bazhi" if n % 2 else "xinyu"
        hand = deal(rng, ruleset, n % 3 if ruleset == "xinyu" else 0)
        now = hand.shanten()
        if now is None:
            continue
        after = [hand.shanten(counts) for counts in exchanges(hand, hand.counts)]
        assert all(abs(a - now) <= 1 for a in after), hand
        assert now == 0 or now - 1 in after, hand


def test_a_caishen_in_place_of_a_tile_never_raises_xinyu_shanten():
    rng = random.Random(SEED + 5)
    for n in range(300):
        hand = deal(rng, "xinyu", n % 4)
        hand.wild_fifth_copy = n % 2 == 0
        now = hand.shanten()
        for kind in range(NUM_KINDS):
            if kind != hand.caishen and hand.counts[kind]:
                swapped = list(hand.counts)
                swapped[kind] -= 1
                swapped[hand.caishen] += 1
                assert hand.shanten(swapped) <= now, hand
