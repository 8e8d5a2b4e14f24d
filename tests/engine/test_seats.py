"""Who sits at a table (docs/seats.md): the first n of E S W N in play order, a game's sizes declared as its option
`players`, and the fixture game played at a table of two."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calculator.engine import score
from calculator.engine.rulesets import RULESETS, RegistrationError, register
from calculator.engine.rulesets.declarations import Choice
from calculator.engine.seats import next_seat, previous_seat, seats_after, seats_of
from tests.conftest import TEST_GAME
from tests.engine.helpers import hand_request

THREE, FOUR, TWO = ("E", "S", "W"), ("E", "S", "W", "N"), ("E", "S")


def test_a_table_seats_the_first_n_of_east_south_west_north():
    assert (seats_of(4), seats_of(3), seats_of(2)) == (FOUR, THREE, TWO)


@pytest.mark.parametrize("players", [1, 5, 0, "3"])
def test_no_table_seats_fewer_than_two_or_more_than_four(players):
    with pytest.raises(ValueError, match="a table seats 2 to 4 players"):
        seats_of(players)


def test_at_three_the_next_seat_of_west_is_east():
    assert [next_seat(seat, THREE) for seat in THREE] == ["S", "W", "E"]
    assert next_seat("W", FOUR) == "N"


def test_at_three_the_previous_seat_of_east_is_west():
    assert [previous_seat(seat, THREE) for seat in THREE] == ["W", "E", "S"]
    assert previous_seat("E", FOUR) == "N"


def test_the_others_follow_in_play_order_after_a_seat():
    assert seats_after("S", THREE) == ("W", "E")
    assert seats_after("S", FOUR) == ("W", "N", "E")
    assert seats_after("S", TWO) == ("E",)


@pytest.mark.parametrize(("game", "sizes"), [("bazhi", (4, 3)), ("xinyu", (4,)), (TEST_GAME.id, (4, 2))])
def test_every_game_declares_the_table_sizes_it_plays_the_default_first(game, sizes):
    ruleset = RULESETS[game]
    assert ruleset.table_sizes == sizes
    assert ruleset.players_option.default == sizes[0]
    assert ruleset.players_option in ruleset.table_options  # a table's option, not a hand's


def test_a_game_that_declares_no_table_sizes_is_refused():
    class Sizeless(type(TEST_GAME)):
        id = "sizeless"
        declared = replace(TEST_GAME.declared, options=())

    with pytest.raises(RegistrationError, match=r"^sizeless: it declares no option 'players'"):
        register(Sizeless())
    assert "sizeless" not in RULESETS


def test_a_game_that_declares_a_size_no_table_has_is_refused():
    base = TEST_GAME
    players = replace(base.players_option, choices=(*base.players_option.choices, Choice(5, base.title)))

    class Crowded(type(base)):
        id = "crowded"
        declared = replace(base.declared, options=tuple(players if o.id == "players" else o for o in base.options))

    with pytest.raises(RegistrationError, match=r"^crowded: its option 'players' is not a choice of table sizes"):
        register(Crowded())


# ------------------------------------------------------------------------------------------ the fixture game at two

TWO_PLAYERS = {"base": 2, "players": 2}


def fixture_game(hand: str, win: str | None, **context) -> dict:
    return score(hand_request(TEST_GAME.id, TWO_PLAYERS, hand, win, **context), "en")


def test_the_fixture_game_at_two_is_paid_by_the_discarder_alone():
    """Seven pairs on E's discard: the base 2 doubled once, 4, paid by E."""
    answer = fixture_game("1122m3344p5566sE", "E", winner="S", dealer="E", discarder="E")
    assert answer["net"] == {"E": -4, "S": 4}
    assert answer["request"]["options"]["players"] == 2


def test_the_fixture_game_at_two_is_paid_by_the_one_other_on_a_self_draw():
    """清一色 by self-draw: the base 2 doubled once, 4, from the one other player."""
    answer = fixture_game("1112345678999m", "5m", winner="E", dealer="E")
    assert answer["net"] == {"E": 4, "S": -4}
    assert [(p["from"], p["to"], p["amount"]) for p in answer["payments"]] == [("S", "E", 4)]


@pytest.mark.parametrize("seat", ["W", "N"])
def test_west_and_north_are_no_seats_at_two(seat):
    answer = fixture_game("1112345678999m", "5m", winner=seat, dealer="E")
    assert answer["error"] == {
        "code": "bad_seat",
        "message": f"winner must be one of E S, got '{seat}'",
        "field": "winner",
    }


def test_at_two_a_chow_is_fed_by_the_only_other_seat():
    chow = {"type": "chow", "tiles": "123m", "from": "S"}
    answer = fixture_game("456789m123p5s", "5s", melds=[chow], winner="E", dealer="E", discarder="S")
    assert answer["win"] is True and answer["net"] == {"E": 2, "S": -2}


def test_the_waits_of_the_fixture_game_at_two_are_won_off_the_other_seat():
    answer = fixture_game("1112345678999m", None, winner="S", dealer="E")
    assert answer["ways"][1]["discarder"] == "E"
    assert all(list(wait["self_draw"]["net"]) == ["E", "S"] for wait in answer["waits"])
