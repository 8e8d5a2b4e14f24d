"""What a game tells the result card about its answers (Ruleset.parts, headline, wild_tile, stands_for): the card
shows any game's answer through these alone, never by reading one game's fields."""

from __future__ import annotations

import pytest

from calculator.engine import score
from calculator.engine.rulesets import RULESETS

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
# East (the dealer) self-draws a hand of 三对 with 红中: 15 fan, 交 of 40 from each loser.
JIAO = {
    "ruleset": "bazhi",
    "hand": "5558889m",
    "win_tile": "9m",
    "melds": [{"type": "pung", "tiles": "CCC", "from": "S"}, {"type": "pung", "tiles": "222m", "from": "W"}],
    "winner": "E",
    "dealer": "E",
    "discarder": None,
}
# The 财神 5p stands for 北 in the triplet of the win: 1 龙, P = 12.
WILD_AS_NORTH = {
    "ruleset": "xinyu",
    "options": {"caishen": "5p"},
    "hand": "123m456m789s11sN5p",
    "win_tile": "N",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}


def winning_examples():
    """Every registered game's house-rule example hands that win (each game's own declarations)."""
    for ruleset in RULESETS.values():
        for rule in ruleset.house:
            if rule.example is not None:
                answer = score({**rule.example, "ruleset": ruleset.id})
                if answer.get("win"):
                    yield pytest.param(ruleset, answer, id=f"{ruleset.id}-{rule.id}")


@pytest.mark.parametrize(("ruleset", "answer"), list(winning_examples()))
def test_a_games_parts_are_the_parts_its_answers_split_nets_and_payments_into(ruleset, answer):
    ids = [part.id for part in ruleset.parts]
    if ids:
        assert set(ids) <= set(answer["net_by_part"])
        assert {p["part"] for p in answer["payments"]} <= set(ids)
    assert all(part.label.zh and part.label.en for part in ruleset.parts)


@pytest.mark.parametrize(("ruleset", "answer"), list(winning_examples()))
def test_the_headline_of_a_win_is_written_in_both_languages(ruleset, answer):
    zh, en = ruleset.headline(answer, "zh"), ruleset.headline(answer, "en")
    assert zh and len(zh) == len(en)
    assert all(isinstance(text, str) and text for text in zh + en)


def test_bazhi_nets_are_shown_in_fan_and_jiao():
    assert [(part.id, part.label.zh, part.label.en) for part in RULESETS["bazhi"].parts] == [
        ("fan", "番", "fan"),
        ("jiao", "交", "jiao"),
    ]


def test_bazhi_headline_is_the_fan_per_loser_and_the_jiao():
    bazhi = RULESETS["bazhi"]
    b1 = score(B1)
    assert bazhi.headline(b1, "zh") == ["每家 5 番", "不交"]
    assert bazhi.headline(b1, "en") == ["5 fan per loser", "no jiao"]
    jiao = score(JIAO)
    assert bazhi.headline(jiao, "zh") == ["每家 15 番", "交：每家 40"]
    assert bazhi.headline(jiao, "en") == ["15 fan per loser", "jiao: 40 per loser"]


def test_a_game_without_wild_tiles_shows_none():
    bazhi = RULESETS["bazhi"]
    answer = score(B1)
    assert bazhi.wild_tile(answer) is None
    assert [bazhi.stands_for(group) for group in answer["decomposition"]] == [[]] * 5


def test_xinyu_nets_are_shown_whole_with_its_long_and_unit():
    xinyu = RULESETS["xinyu"]
    answer = score(WILD_AS_NORTH)
    assert xinyu.parts == ()
    assert xinyu.headline(answer, "zh") == ["1 龙", "P = 12"]
    assert xinyu.headline(answer, "en") == ["1 long", "P = 12"]


def test_the_caishen_is_the_wild_tile_and_stands_for_north_in_the_triplet():
    xinyu = RULESETS["xinyu"]
    answer = score(WILD_AS_NORTH)
    assert xinyu.wild_tile(answer) == "5p"
    assert [xinyu.stands_for(group) for group in answer["decomposition"]] == [[], [], [], [], ["N"]]


def test_a_xinyu_hand_that_is_no_win_names_its_caishen_from_the_request():
    xinyu = RULESETS["xinyu"]
    answer = score({**WILD_AS_NORTH, "hand": "123m456m789s11sN1p"})
    assert answer["win"] is False
    assert xinyu.wild_tile(answer) == "5p"
