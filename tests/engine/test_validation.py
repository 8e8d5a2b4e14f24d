"""Errors are answers: each malformed or impossible request gets its stable code (API.md)."""

from __future__ import annotations

import pytest

from calculator.engine import score
from tests.engine.helpers import bazhi, error_code, kong, pung

DEFAULT_BAZHI_CARD = {
    "yadang_wait": "unique",
    "tongtian_sihe": True,
    "haidi": "label",
    "qianggang": "as_discard",
    "bao_on": "jiao",
    "draw_dealer": "pass",
}
B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}


def with_(**changes) -> dict:
    return {**B1, **changes}


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ([1, 2], "bad_json"),
        (with_(hand=123), "bad_json"),
        (with_(ruleset="Bazhi"), "unknown_ruleset"),
        (with_(options={"tariff": "400"}), "bad_option"),
        (with_(options={"tariff": ["315"]}), "bad_option"),
        (with_(options={"multi_jiao": "yes"}), "bad_option"),
        (with_(options={"caishen": "5p"}), "bad_option"),
        (with_(win_tile="8m9m"), "wrong_tile_count"),
        (with_(win_tile="E"), "tile_not_in_ruleset"),
        (with_(winner="e"), "bad_seat"),
        (with_(discarder="S"), "bad_seat"),
        (with_(flags=["pao_long"]), "bad_flag"),
        (with_(flags="kong_bloom"), "bad_flag"),
        (with_(flags=["heavenly"]), "flag_conflict"),
        (with_(flags=["earthly", "robbing_kong"]), "flag_conflict"),
        (with_(discarder=None, flags=["earthly"]), "flag_conflict"),
    ],
)
def test_error_codes(request_, code):
    assert error_code(score(request_)) == code


def test_bad_tile_message_names_character_and_position():
    result = score(with_(hand="111345789p79x55s"))
    assert result["error"]["code"] == "bad_tile"
    assert result["error"]["position"] == 12
    assert "'x'" in result["error"]["message"]
    assert result["error"]["field"] == "hand"


def test_too_many_copies_counts_melds():
    result = bazhi("345789p79m55s", "8m", melds=[pung("111p", "W")], discarder="W")
    assert result["win"] is True
    result = bazhi("1345789p79m5s", "8m", melds=[kong("1111p", "W")], discarder="W")
    assert error_code(result) == "too_many_copies"
    assert (
        score(with_(hand="1111345789p79m5s", win_tile="1p"), "en")["error"]["message"] == "5 copies of 1p (at most 4)"
    )


def test_wrong_tile_count_says_what_was_expected():
    result = score(with_(hand="111345789p79m5s"), "en")
    assert result["error"]["message"] == "the hand (before the winning tile) must hold 13 tiles with no melds, got 12"


@pytest.mark.parametrize(
    ("meld", "code"),
    [
        ({"type": "pung", "tiles": "11p", "from": "W"}, "bad_meld"),
        ({"type": "pung", "tiles": "111p"}, "bad_meld"),  # an exposed meld needs its feeder
        ({"type": "pung", "tiles": "111p", "from": "S"}, "bad_meld"),  # not from the winner
        ({"type": "kong_concealed", "tiles": "1111p", "from": "W"}, "bad_meld"),
        ({"type": "kong_exposed", "tiles": "1112p", "from": "W"}, "bad_meld"),
        ({"type": "pung", "tiles": "111p", "from": "X"}, "bad_seat"),
        ({"type": "chow", "tiles": "123p"}, "chow_not_allowed"),
        ({"type": "peng", "tiles": "111p", "from": "W"}, "bad_meld"),
    ],
)
def test_meld_errors(meld, code):
    assert error_code(score(with_(hand="345789p79m55s", melds=[meld]))) == code


def test_flag_rules():
    assert error_code(bazhi("111345789p79m55s", "8m", flags=["kong_bloom"])) == "flag_conflict"
    assert (
        error_code(bazhi("2345678p999s", "8p", melds=[kong("1111m")], flags=["double_kong_bloom"])) == "flag_conflict"
    )
    assert (
        error_code(bazhi("2345678p999s", "8p", melds=[kong("1111m")], discarder="W", flags=["kong_bloom"]))
        == "flag_conflict"
    )
    assert error_code(bazhi("111345789p79m55s", "8m", winner="E", dealer="E", flags=["heavenly"])) is None
    assert (
        error_code(bazhi("111345789p79m55s", "8m", winner="E", dealer="E", discarder="W", flags=["earthly"]))
        == "flag_conflict"
    )


def test_defaults_are_filled_in_the_echo():
    result = score(B1)
    assert result["request"]["options"] == {
        "tariff": "315",
        "multi_jiao": False,
        "players": 4,
        "house": DEFAULT_BAZHI_CARD,
    }
    assert result["request"]["hand"] == "79m111345789p55s"
    assert result["request"]["flags"] == []


def test_a_rejected_request_is_answered_not_raised():
    for junk in (None, "hand", 3, {"ruleset": None}, {"ruleset": "bazhi", "melds": [None]}):
        assert "error" in score(junk)


@pytest.mark.parametrize(
    ("changes", "code", "message", "field"),
    [
        (
            {"melds": [{"type": "pung", "tiles": "1 1 2p", "from": "S"}]},
            "bad_meld",
            "meld 1 (pung) must be 3 identical tiles, got '1p1p2p'",
            "melds[0]",
        ),
        (
            {"melds": [{"type": "kong_added", "tiles": "111p", "from": "W"}]},
            "bad_meld",
            "meld 1 (kong_added) must be 4 identical tiles, got '1p1p1p'",
            "melds[0]",
        ),
        # several mistakes: the meld's tiles before its feeder's seat, its feeder's seat before the winner's
        (
            {"melds": [{"type": "pung", "tiles": "EEE", "from": "X"}], "winner": "x"},
            "tile_not_in_ruleset",
            "E (East) is not a tile of bazhi",
            "melds[0]",
        ),
        (
            {"melds": [{"type": "pung", "tiles": "111p", "from": "X"}], "winner": "x"},
            "bad_seat",
            "melds[0].from must be one of E S W N, got 'X'",
            "melds[0].from",
        ),
        # the hand's notation before the seats; who fed a meld (needs the winner) before the flags
        (
            {"hand": "345789p79m5E", "melds": [{"type": "pung", "tiles": "111p", "from": "S"}], "winner": "x"},
            "bad_tile",
            "hand: digit '5' has no suit letter at position 11 of '345789p79m5E'",
            "hand",
        ),
        (
            {"melds": [{"type": "pung", "tiles": "111p", "from": "S"}], "flags": ["x"]},
            "bad_meld",
            "meld 1 cannot be fed by the winner",
            "melds[0].from",
        ),
    ],
)
def test_meld_error_messages_and_check_order(changes, code, message, field):
    """The exact message and field, and which of several mistakes is named (the order of the checks)."""
    result = score(with_(**{"hand": "345789p79m55s", **changes}), "en")
    assert result["error"]["code"] == code
    assert result["error"]["message"] == message
    assert result["error"]["field"] == field


@pytest.mark.parametrize("empty", ["", "  ", "\t"])
def test_a_win_tile_of_spaces_only_is_an_empty_one_the_waits(empty):
    """API.md: spaces in tile strings are ignored. An empty win_tile asks for the waits as an omitted one does; "  "
    was wrong_tile_count ("got 0 tiles") where "" gave the waits."""
    answer = score({**B1, "win_tile": empty})
    assert "error" not in answer and [w["tile"] for w in answer["waits"]] == ["8m"]


def test_a_tile_string_past_its_length_says_how_long_it_may_be():
    """A hand with 190 spaces after it: "hand 太长" named no limit (the message of a bad_tile names what is wrong)."""
    answer = score({**B1, "hand": B1["hand"] + " " * 190}, "en")
    assert answer["error"] == {
        "code": "bad_tile",
        "message": "hand is too long: 206 characters, at most 200 (spaces included)",
        "field": "hand",
    }
