"""The registry (issue 19): a game is registered on one line, with its distance to ready and its deal on the
ruleset itself; `register()` refuses a game that lacks what every game needs, naming the game and what is
missing."""

from __future__ import annotations

from random import Random

import pytest

from calculator.engine.rulesets import RULESETS, SERVED, RegistrationError, register


def test_the_served_games_are_registered_in_order():
    assert list(RULESETS)[: len(SERVED)] == list(SERVED)
    assert all(RULESETS[game].id == game for game in SERVED)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_game_carries_its_distance_and_its_deal(game):
    ruleset = RULESETS[game]
    for name in ("shanten", "blocked_by", "blocked_message", "discards", "nearest"):
        assert callable(getattr(ruleset.distance, name))
    assert ruleset.deal(Random(0))["ruleset"] == game


def test_registering_a_game_again_changes_nothing():
    before = dict(RULESETS)
    ruleset = RULESETS[SERVED[0]]
    assert register(ruleset) is ruleset
    assert before == RULESETS


def test_another_game_under_a_taken_id_is_refused():
    ruleset = RULESETS[SERVED[0]]
    with pytest.raises(RegistrationError, match=rf"^{ruleset.id}: another game is registered under this id"):
        register(type(ruleset)())
    assert RULESETS[ruleset.id] is ruleset


def test_a_game_without_its_distance_is_refused_naming_the_game_and_what_is_missing():
    class Unfinished(type(RULESETS[SERVED[0]])):
        id = "unfinished"
        distance = None

    with pytest.raises(RegistrationError, match=r"^unfinished: its distance .* has no shanten, blocked_by"):
        register(Unfinished())
    assert "unfinished" not in RULESETS
