"""A bazhi table of three (RULES.md §0, §1.8; API.md `options.players`): the seats E S W, every rule of §1.4-1.6
kept with "every loser" the two others, N no seat, xinyu at four only."""

from __future__ import annotations

import pytest

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from tests.engine.helpers import hand_request

THREE = {"tariff": "315", "players": 3}
# B1 of bazhi.json: 111345789p 79m won on 8m, 压档 8 with a unique wait: 支番 (9 + 8) × 2 ÷ 10 = 3, 底番 2.
B1_HAND, B1_WIN = "111345789p79m55s", "8m"
# T3: S wins 混一色 + 对对胡 on three melds E fed (清一色/混一色三对, same feeder: E pays for all, RULES.md §1.6).
T3_MELDS = (
    {"type": "kong_added", "tiles": "2222m", "from": "E"},
    {"type": "pung", "tiles": "444m", "from": "E"},
    {"type": "pung", "tiles": "CCC", "from": "E"},
)


def three(hand: str = B1_HAND, win: str | None = B1_WIN, **context) -> dict:
    return score(hand_request("bazhi", THREE, hand, win, **context))


def test_a_discard_win_at_three_is_paid_by_the_two_others():
    """T1: F = 3 + 2 = 5 from each of E and W; E (the dealer) 2 more, W (the discarder) 2 more: 7 + 7 = 14."""
    answer = three(winner="S", dealer="E", discarder="W")
    assert answer["fan"] == 5
    assert answer["net"] == {"E": -7, "S": 14, "W": -7}
    assert [(p["from"], p["amount"], p["code"]) for p in answer["payments"]] == [
        ("E", 5, "fan"),
        ("W", 5, "fan"),
        ("E", 2, "dealer_extra"),
        ("W", 2, "discarder_extra"),
    ]


def test_a_dealer_self_draw_at_three_takes_f_and_the_dealers_extra_from_both_others():
    """T2: self-draw doubles (3 × 2 = 6) and 底番 is 自摸压档 4: F = 10; the dealer won, so each of S and W pays one
    more 底番: 14 each, 28 to E."""
    answer = three(winner="E", dealer="E")
    assert answer["fan"] == 10
    assert answer["net"] == {"E": 28, "S": -14, "W": -14}


def test_the_liable_seat_pays_both_losers_rows_at_three():
    """T3: F = 支番 2 + 2 嘴 × 2 + 底番 1 + 杠分 1 = 8; each loser 8 + 1 (the dealer S won), W 1 more as the
    discarder: 番 19; 交 (two 嘴) 30 each and W's 放铳交牌 10: 70. E fed the three melds and pays all 89."""
    answer = three("6699m", "6m", melds=T3_MELDS, winner="S", dealer="S", discarder="W")
    assert (answer["bao"], answer["bao_reason"], answer["fan"]) == ("E", "sandui_same_feeder", 8)
    assert answer["net"] == {"E": -89, "S": 89, "W": 0}
    assert answer["net_by_part"] == {"fan": {"E": -19, "S": 19, "W": 0}, "jiao": {"E": -70, "S": 70, "W": 0}}
    assert {p["on_behalf_of"] for p in answer["payments"] if "on_behalf_of" in p} == {"W"}


def test_a_non_dealer_loser_at_three_pays_the_dealers_extra_alone():
    """W wins off S at three, E deals: E pays F 5 and the dealer's 2, S pays F 5 and the discarder's 2."""
    answer = three(winner="W", dealer="E", discarder="S")
    assert answer["net"] == {"E": -7, "S": -7, "W": 14}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"winner": "N"}, "winner"),
        ({"dealer": "N"}, "dealer"),
        ({"discarder": "N"}, "discarder"),
        ({"hand": "345789p79m55s", "melds": [{"type": "pung", "tiles": "111p", "from": "N"}]}, "melds[0].from"),
    ],
)
def test_north_is_no_seat_at_a_table_of_three(change, field):
    request = {**hand_request("bazhi", THREE, B1_HAND, B1_WIN, winner="S", dealer="E", discarder="W"), **change}
    zh, en = score(request, "zh")["error"], score(request, "en")["error"]
    assert (en["code"], en["field"]) == ("bad_seat", field)
    assert en["message"] == f"{field} must be one of E S W, got 'N'"
    assert zh["message"] == f"{field} 必须是 E S W 之一，收到 'N'"


def test_north_is_a_seat_at_a_table_of_four():
    answer = score(hand_request("bazhi", {"players": 4}, B1_HAND, B1_WIN, winner="S", dealer="E", discarder="N"))
    assert answer["net"] == {"E": -7, "S": 19, "W": -5, "N": -7}


@pytest.mark.parametrize("players", [3.0, "3", True, 5, 2, 0, [3], {"n": 3}])
def test_players_is_one_of_the_games_sizes_as_a_json_integer(players):
    answer = score(hand_request("bazhi", {"players": players}, B1_HAND, B1_WIN, winner="S", dealer="E"), "en")
    assert (answer["error"]["code"], answer["error"]["field"]) == ("bad_option", "options.players")
    assert "players must be the whole number 4 or 3" in answer["error"]["message"]


def test_players_null_is_the_default_table_of_four():
    answer = score(hand_request("bazhi", {"players": None}, B1_HAND, B1_WIN, winner="S", dealer="E", discarder="W"))
    assert answer["request"]["options"]["players"] == 4
    assert list(answer["net"]) == ["E", "S", "W", "N"]


def test_the_echo_holds_players_and_scores_the_same():
    answer = three(winner="S", dealer="E", discarder="W")
    assert answer["request"]["options"]["players"] == 3
    assert score(answer["request"]) == answer


def test_xinyu_has_no_table_of_three():
    request = hand_request("xinyu", {"caishen": "5p", "players": 3}, "123m456m789sEEE2s", "2s", winner="S")
    assert score(request)["error"]["code"] == "bad_option"


def test_xinyu_plays_at_four():
    request = hand_request("xinyu", {"caishen": "5p", "players": 4}, "123m456m789sEEE2s", "2s", winner="S")
    assert list(score(request)["net"]) == ["E", "S", "W", "N"]


def test_the_waits_at_three_hold_three_seats_and_the_discard_way_is_off_the_winners_next_seat():
    """W waits on 8m (B1 without its win tile): the discard way is won off W's 下家 at three, E; E deals, so the
    discarder E pays F 5 + 2 + 2 and S pays 5."""
    answer = three(win=None, winner="W", dealer="E")
    assert answer["ways"][1] == {"how": "discard", "discarder": "E", "flags": []}
    [wait] = answer["waits"]
    assert wait["tile"] == "8m"
    assert wait["discard"]["net"] == {"E": -9, "S": -5, "W": 14}
    assert wait["self_draw"]["net"] == {"E": -14, "S": -10, "W": 24}


def test_the_alternatives_at_three_hold_three_seats():
    """HB1 of house.json at three: 1113m waits on 2m and 3m, so 2m in the middle of 123m is 压档 only under
    yadang_wait=any. By the card: 支番 9 × 2 ÷ 10 = 2, 通天 2, 底番 1: F 5, E and W 5 + 1 each, S 12. Under
    yadang_wait=any: 支番 (9 + 2) × 2 ÷ 10 = 2, 通天 2, 底番 2: F 6, E and W 6 + 2 each, S 16."""
    request = hand_request("bazhi", THREE, "1113m123456789p", "2m", winner="S", dealer="E", discarder="W")
    answer = score({**request, "alternatives": True})
    assert answer["net"] == {"E": -6, "S": 12, "W": -6}
    assert answer["alternatives"] == [
        {"option": "yadang_wait", "value": "any", "win": True, "net": {"E": -8, "S": 16, "W": -8}}
    ]


def test_a_card_says_its_seats_before_any_answer():
    bazhi, xinyu = RULESETS["bazhi"], RULESETS["xinyu"]
    assert bazhi.seats({"tariff": "525", "players": 3}) == ("E", "S", "W")
    assert bazhi.seats({}) == bazhi.seats(None) == ("E", "S", "W", "N")
    assert (bazhi.table_sizes, xinyu.table_sizes) == ((4, 3), (4,))
