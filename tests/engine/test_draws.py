"""The draws that help a 13-tile hand that is not ready (issue 21 §3, API.md `draws`): every kind that, drawn as
a 14th tile, leaves a discard whose 13 tiles have a lower shanten, with the copies still unseen.

Checked against that definition, by brute force over every draw and every discard:
- on hands one exchange from ready, "a lower shanten" is "ready", asked of the engine's waits (the game's own win
  rules, 八支 and 财神 included), so nothing of the distance code is trusted there;
- on hands further away, through the engine's shanten of each 13 tiles left (itself checked against the
  definition in test_shanten_search.py);
and on thousands of seeded hands of both games (0-2 财神 in xinyu) through `score()`, the answer's shape: present
exactly when the hand is not ready and can be, `left` and its sum, the order, and the kinds it lists.
"""

from __future__ import annotations

import random

from calculator.engine import score
from calculator.engine.distance import Memo
from calculator.engine.tiles import ALL_TILES, NUM_KINDS

from .test_shanten_search import SEED, Hand, deal, ready

GAMES = (("bazhi", 0), ("xinyu", 0), ("xinyu", 1), ("xinyu", 2))


def module_draws(hand: Hand) -> list[tuple[str, int]]:
    answer = score(hand.request().to_dict())
    return [(d["tile"], d["left"]) for d in answer.get("draws", [])]


def unseen(hand: Hand, counts: list[int]) -> list[int]:
    return [4 - counts[k] - hand.meld_counts[k] for k in range(NUM_KINDS)]


def after_draw(counts: list[int], kind: int):
    """The 13-tile hands left when `kind` is drawn and each distinct tile of the 14 is thrown."""
    grown = list(counts)
    grown[kind] += 1
    for out in range(NUM_KINDS):
        if grown[out]:
            left = list(grown)
            left[out] -= 1
            yield left


def brute_force(hand: Hand, lowers) -> list[tuple[str, int]]:
    """The definition: the kinds of the game with an unseen copy for which some discard after the draw `lowers`
    the shanten; most copies left first, then tile order."""
    left = unseen(hand, hand.counts)
    found = [k for k in hand.kinds if left[k] > 0 and any(lowers(after) for after in after_draw(hand.counts, k))]
    found.sort(key=lambda k: (-left[k], k))
    return [(ALL_TILES[k].notation, left[k]) for k in found]


def hands_at(rng: random.Random, game: str, wild: int, far: bool, count: int) -> list[Hand]:
    """`count` dealt hands one exchange from ready (or, `far`, two or more), with `wild` 财神 in xinyu."""
    found = []
    while len(found) < count:
        hand = deal(rng, game, wild)
        if far:
            spoil(rng, hand, rng.randint(1, 4))
        hand.wild_fifth_copy = rng.random() < 0.8
        shanten = hand.shanten()
        if shanten and (shanten >= 2) == far and (game == "bazhi" or hand.counts[hand.caishen] == wild):
            found.append(hand)
    return found


def spoil(rng: random.Random, hand: Hand, swaps: int) -> None:
    """Swap `swaps` natural tiles of the hand for random kinds of the game (copies permitting, no 财神)."""
    for _ in range(swaps):
        natural = [k for k in hand.kinds if hand.counts[k] and k != hand.caishen]
        room = [k for k in hand.kinds if hand.counts[k] + hand.meld_counts[k] < 4 and k != hand.caishen]
        hand.counts[rng.choice(natural)] -= 1
        hand.counts[rng.choice(room)] += 1


def test_the_draws_of_a_hand_one_from_ready_are_the_draws_that_let_a_discard_make_it_ready():
    rng = random.Random(SEED + 21)
    for game, wild in GAMES:
        for hand in hands_at(rng, game, wild, False, 10):
            assert module_draws(hand) == brute_force(hand, lambda after, hand=hand: ready(hand, after)), hand


def test_the_draws_of_a_far_hand_are_the_draws_that_let_a_discard_lower_its_shanten():
    rng = random.Random(SEED + 22)
    seen = set()
    for game, wild in GAMES[:3]:  # (two 财神 are at most one exchange from ready)
        for hand in hands_at(rng, game, wild, True, 10):
            now = hand.shanten()
            seen.add(now)
            assert module_draws(hand) == brute_force(hand, lambda after, h=hand, now=now: h.shanten(after) < now), hand
    assert {2, 3} <= seen


def test_draws_answer_over_thousands_of_seeded_hands_of_both_games():
    """`draws` is there exactly when 1 ≤ shanten; each draw lowers the 14 tiles' distance and no other kind of the
    game with a copy left does; `left` is four less the copies in hand and melds; sorted; `draws_left` the sum."""
    rng = random.Random(SEED + 23)
    asked = {"bazhi": 0, "xinyu": 0}
    for n in range(2000):
        game, wild = GAMES[n % len(GAMES)]
        hand = deal(rng, game, wild)
        hand.wild_fifth_copy = n % 5 != 0
        answer = score(hand.request().to_dict())
        shanten = answer["shanten"]
        if not shanten:  # ready (0) or never (None)
            assert "draws" not in answer and "draws_left" not in answer
            continue
        asked[game] += 1
        left = unseen(hand, hand.counts)
        memo = Memo(4 - len(hand.melds))  # the question's (the hand and each hand with a kind drawn), as in the engine
        now = hand.distance(hand.counts, memo)
        expected = [k for k in hand.kinds if left[k] > 0 and hand.distance(_plus(hand.counts, k), memo) < now]
        expected.sort(key=lambda k: (-left[k], k))
        assert answer["draws"] == [{"tile": ALL_TILES[k].notation, "left": left[k]} for k in expected], hand
        assert answer["draws_left"] == sum(left[k] for k in expected)
        if game == "xinyu" and left[hand.caishen]:
            assert {"tile": ALL_TILES[hand.caishen].notation, "left": left[hand.caishen]} in answer["draws"]
    assert asked["bazhi"] > 250 and asked["xinyu"] > 250


def _plus(counts: list[int], kind: int) -> list[int]:
    return [c + (k == kind) for k, c in enumerate(counts)]


def test_the_draws_of_a_bazhi_hand_short_of_eight_are_the_tiles_of_its_long_suit():
    """Ready in shape but no wait makes 八支: only a 万 (the suit at 6) brings it nearer."""
    answer = score({"ruleset": "bazhi", "hand": "123456m123p1235s", "winner": "S", "dealer": "E"})
    assert answer["shanten"] == 1
    assert [d["tile"] for d in answer["draws"]] == ["7m", "8m", "9m", "1m", "2m", "3m", "4m", "5m", "6m"]
    assert answer["draws_left"] == 4 * 3 + 3 * 6


def test_a_drawn_caishen_always_helps_and_is_counted_as_the_caishen_it_is():
    request = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "1479m258p369sEES", "winner": "S"}
    answer = score({**request, "dealer": "E"})
    assert answer["shanten"] == 2
    assert {"tile": "5p", "left": 3} in answer["draws"]  # one 5p is in the hand: three left


def test_a_ready_hand_and_a_hand_that_can_never_be_ready_carry_no_draws():
    ready_hand = score({"ruleset": "bazhi", "hand": "1112345678999m", "winner": "S", "dealer": "E"})
    assert ready_hand["shanten"] == 0 and "draws" not in ready_hand
    melds = [{"type": "kong_concealed", "tiles": "2222m"}]
    melds += [{"type": "pung", "tiles": t, "from": "E"} for t in ("333p", "444s", "CCC")]
    never = score({"ruleset": "bazhi", "hand": "1m", "melds": melds, "winner": "S", "dealer": "E"})
    assert never["shanten"] is None and "draws" not in never
