"""Random hands for learners (issue 13 §3): each game's `deal` and what the answers name (`patterns_of`)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from calculator.engine import score
from calculator.engine.deal import COPIES, change_one, held, kinds_of
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import seats_of
from tests.games.examples import examples

DEALT = 400
# The tests that read the dealt hands' answers run on one worker, which deals and scores them once (`dealt`).
DEALT_GROUP = pytest.mark.xdist_group("dealt-answers")


@pytest.fixture(scope="module")
def dealt() -> dict[str, list[tuple[dict, dict]]]:
    """Each game's first DEALT hands (seeds 0, 1, …) with the engine's answers, by game: dealt and scored by the
    first test that asks for a game's (`answers`), then read by the others. No test changes them."""
    return {}


def answers(dealt: dict, game: str) -> list[tuple[dict, dict]]:
    if game not in dealt:
        hands = (RULESETS[game].deal(Random(seed)) for seed in range(DEALT))
        dealt[game] = [(request, score(request)) for request in hands]
    return dealt[game]


@DEALT_GROUP
@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_dealt_hand_is_a_valid_request_of_its_game(dealt, game):
    for request, answer in answers(dealt, game):
        assert "error" not in answer, (request, answer)
        assert answer["request"]["ruleset"] == game


@DEALT_GROUP
@pytest.mark.parametrize("game", sorted(RULESETS))
def test_most_dealt_hands_are_wins_and_the_rest_are_what_the_game_says(dealt, game):
    verdicts = Counter(answer["win"] or answer["code"] for _, answer in answers(dealt, game))
    assert verdicts[True] > DEALT // 2
    assert set(verdicts) == set(examples(game)["deal"]["verdicts"])  # bazhi: complete shapes without 八支


@DEALT_GROUP
def test_xinyu_deals_every_legal_win(dealt):
    found = answers(dealt, "xinyu")
    assert all(answer["win"] for _, answer in found)
    shapes = Counter(answer["shape"] for _, answer in found)
    assert {"standard", "qidui", "shisanbuda", "none"} <= set(shapes)  # none: 4龙 and 全风向 need no shape
    patterns = {p["code"] for _, answer in found for p in answer["patterns"]}
    assert {"silong", "quanfeng", "qingyise", "hunyise", "daduidui", "dandiao", "qidui", "shisanbuda"} <= patterns
    assert Counter(answer["caishen_count"] for _, answer in found).keys() >= {0, 1, 2, 3, 4}


@DEALT_GROUP
@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_pattern_an_answer_names_is_declared_on_the_rules_page(dealt, game):
    ruleset = RULESETS[game]
    named = Counter()
    for request, answer in answers(dealt, game):
        for tried in (answer, score(change_one(request, Random(0), sorted(ruleset.kinds)))):
            for code in ruleset.patterns_of(tried):
                assert code in ruleset.pattern_by_code, code
                named[code] += 1
    assert set(examples(game)["deal"]["patterns"]) <= set(named)


def test_a_bazhi_hand_short_of_eight_names_bazhi():
    answer = score({"ruleset": "bazhi", "hand": "123456m123p1234s", "win_tile": "1s", "winner": "S", "dealer": "E"})
    assert RULESETS["bazhi"].patterns_of(answer) == ("bazhi",)


def test_a_plain_xinyu_win_names_shunhu():
    request = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "123456m11s789sEE", "win_tile": "E"}
    answer = score({**request, "winner": "S", "dealer": "E", "discarder": "W"})
    assert RULESETS["xinyu"].patterns_of(answer) == ("shunhu",)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_changing_one_tile_keeps_the_count_and_the_four_copies(game):
    kinds = sorted(RULESETS[game].kinds)
    for seed in range(200):
        request = RULESETS[game].deal(Random(seed))
        changed = change_one(request, Random(seed), kinds)
        before = kinds_of(request["hand"] + request["win_tile"])
        after = kinds_of(changed["hand"] + changed["win_tile"])
        assert len(before) == len(after)
        assert sum((Counter(before) - Counter(after)).values()) == 1
        assert max(held(changed)) <= COPIES
        assert set(after) <= set(kinds)


@DEALT_GROUP
@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_favoured_pattern_is_dealt_more_often(dealt, game):
    ruleset = RULESETS[game]
    # without a favour, seeds 0-149 deal the first 150 of the dealt hands (a favour of None is no favour)
    plain = [ruleset.patterns_of(answer) for _, answer in answers(dealt, game)[:150]]
    for code in examples(game)["deal"]["favoured"]:
        assert code in ruleset.pattern_by_code, code
        favoured = sum(code in ruleset.patterns_of(score(ruleset.deal(Random(s), code))) for s in range(150))
        assert favoured > 2 * sum(code in patterns for patterns in plain), code


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_favour_that_is_no_pattern_of_the_game_deals_as_none(game):
    ruleset = RULESETS[game]
    for seed in range(20):
        assert ruleset.deal(Random(seed), "no such pattern") == ruleset.deal(Random(seed))


@pytest.mark.parametrize(
    ("game", "size"), [(game, size) for game in sorted(RULESETS) for size in RULESETS[game].table_sizes]
)
def test_a_hand_is_dealt_at_the_table_it_is_given(game, size):
    """RULES.md §1.8: each size the game plays (bazhi four or three, the fixture game four or two). The request
    says its table (players) and every seat in it is one of the table's; the engine scores it there."""
    ruleset = RULESETS[game]
    table = seats_of(size)
    for seed in range(60):
        request = ruleset.deal(Random(seed), None, table)
        assert request["options"]["players"] == size
        named = [request["winner"], request["dealer"], request["discarder"], *(m.get("from") for m in request["melds"])]
        assert {seat for seat in named if seat} <= set(table), request
        answer = score(request)
        assert "error" not in answer, (request, answer)
        assert list(answer.get("net") or table) == list(table)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_hand_dealt_without_a_table_is_dealt_at_the_games_default_table(game):
    ruleset = RULESETS[game]
    assert ruleset.deal(Random(5)) == ruleset.deal(Random(5), None, ruleset.seats())
    assert ruleset.deal(Random(5))["options"]["players"] == ruleset.table_sizes[0]
