"""A bazhi table of three through the API (RULES.md §1.3-1.8, API.md "The table ledger"): three 底, no phantom
fourth player, the deal E → S → W → E, 通底 when both losers are out, settlement among the three. Run on SQLite
and again on PostgreSQL (scripts/test)."""

from __future__ import annotations

import pytest

from calculator.models import Card, Table
from tests.ledger.client import Api, post
from tests.ledger.hands import B1

pytestmark = pytest.mark.django_db

NAMES = {"E": "阿东", "S": "小南", "W": "老西"}
THREE = {"ruleset": "bazhi", "options": {"tariff": "315", "players": 3}, "players": NAMES}
# S self-draws B1's hand (压档 8): F = 3 × 2 + 4 = 10.
B1_SELF_DRAWN = {**B1, "discarder": None}
# S self-draws 对对胡 + 混一色 (B2 of hands.py won by S, fed by E and W): F = 15, 底番 3, 交 30 + 10 = 40.
B2_BY_S = {
    "hand": "5558889m",
    "win_tile": "9m",
    "melds": [{"type": "pung", "tiles": "CCC", "from": "E"}, {"type": "pung", "tiles": "222m", "from": "W"}],
    "winner": "S",
}


def create(client, body: dict) -> tuple[int, dict]:
    response = post(client, "/api/tables", body)
    return response.status_code, response.json()


def test_a_game_of_three_ends_in_tongdi_when_both_losers_are_out(client):
    """315, a 底 of 30 each for E S W, E deals first.

    1. S wins B1 on W's discard (T1): F 5; E pays 5 + 2 (the dealer), W 5 + 2 (the discarder): E 23, S 44, W 23.
       Another player won: the deal passes from E to S, streak 1.
    2. S (dealing) self-draws the same hand (T2): F 10; each loser 10 + 4 (the dealer won): E 9, S 72, W 9. The
       dealer won without 交: S keeps the deal, streak 2.
    3. S (dealing) self-draws 对对胡 + 混一色, 交: each loser owes 15 + 3 = 18 out of the 底 and has 9: pays 9, both
       at 0. 交 40 each outside the 底. Both losers out: 通底, each pays S one more 嘴's 交分, 10, outside:
       E -9 -40 -10 = -59, W -59, S +118. Balances E 0, S 90, W 0; outside E -50, S +100, W -50.
       A dealer's 交 win passes the deal: S to W, streak 1. The 底 game is over.
    Totals: E -7 -14 -59 = -80, S 14 + 28 + 118 = 160, W -80: E and W each pay S 80.
    """
    api = Api(client, THREE)
    assert (api.created["players"], api.created["balances"]) == (NAMES, {"E": 30, "S": 30, "W": 30})
    first = api.ok("hands", B1)
    assert first["hands"][0]["applied"] == {"E": -7, "S": 14, "W": -7}
    assert first["balances"] == {"E": 23, "S": 44, "W": 23}
    assert (first["dealer"], first["dealer_streak"]) == ("S", 1)
    second = api.ok("hands", B1_SELF_DRAWN)
    assert second["hands"][0]["applied"] == {"E": -14, "S": 28, "W": -14}
    assert second["balances"] == {"E": 9, "S": 72, "W": 9}
    assert (second["dealer"], second["dealer_streak"]) == ("S", 2)
    third = api.ok("hands", B2_BY_S)
    [hand] = third["hands"]
    assert hand["applied"] == {"E": -59, "S": 118, "W": -59}
    assert [(r["from"], r["amount"], r["owed"], r["code"]) for r in hand["rows"] if r["column"] == "balance"] == [
        ("E", 9, 15, "fan"),
        ("W", 9, 15, "fan"),
        ("E", 0, 3, "dealer_extra"),
        ("W", 0, 3, "dealer_extra"),
    ]
    assert [(r["from"], r["amount"]) for r in hand["rows"] if r["code"] == "tongdi"] == [("E", 10), ("W", 10)]
    assert third["balances"] == {"E": 0, "S": 90, "W": 0}
    assert third["outside"] == {"E": -50, "S": 100, "W": -50}
    assert third["totals"] == {"E": -80, "S": 160, "W": -80}
    assert (third["status"], third["ended_reason"]) == ("ended", "tongdi")
    assert (third["dealer"], third["dealer_streak"]) == ("W", 1)
    assert third["settlement"] == [{"from": "E", "to": "S", "amount": 80}, {"from": "W", "to": "S", "amount": 80}]
    assert api.refused("hands", B1) == (409, "game_over", None)
    table = Table.objects.get(pk=api.id)
    assert table.replay()[0].to_dict() == table.state  # the stored account is the one a replay gives


def test_the_deal_passes_east_south_west_east_at_three(client):
    """Drawn hands pass the deal (draw_dealer = pass) to the dealer's 下家 among E S W."""
    api = Api(client, THREE)
    assert [api.ok("draw")["dealer"] for _ in range(4)] == ["S", "W", "E", "S"]


def test_a_player_at_zero_is_tuodi_when_the_other_loser_is_not(client):
    """A 底 of 9. S wins B1 on W's discard (E deals): E and W pay 7 each, 2 left each: E 2, S 23, W 2, playing.
    S deals; W wins the same hand on E's discard: S owes 5 + 2 (the dealer) and pays 7 (16 left); E owes 5 + 2 (the
    discarder) and has 2: pays 2 of the 5, nothing of the 2, and is out. One loser out, not both: 脱底."""
    api = Api(client, {**THREE, "stake": 9})
    body = api.ok("hands", B1)
    assert body["balances"] == {"E": 2, "S": 23, "W": 2} and body["status"] == "playing"
    body = api.ok("hands", {**B1, "winner": "W", "discarder": "E"})
    assert body["balances"] == {"E": 0, "S": 16, "W": 11}
    assert (body["status"], body["ended_reason"]) == ("ended", "tuodi")


def test_a_hand_at_three_takes_its_size_from_the_card(client):
    api = Api(client, THREE)
    [hand] = api.ok("hands", B1)["hands"]
    assert hand["request"]["options"]["players"] == 3 and hand["result"]["net"] == {"E": -7, "S": 14, "W": -7}


def test_a_hand_whose_players_contradicts_the_card_is_refused(client):
    api = Api(client, THREE)
    assert api.refused("hands", {**B1, "options": {"players": 4}}) == (409, "option_mismatch", "options.players")
    assert api.refused("hands", {**B1, "options": {"players": "3"}}) == (400, "bad_option", "options.players")
    assert api.ok("hands", {**B1, "options": {"players": 3}})["hands_total"] == 1


def test_north_is_no_seat_of_a_table_of_three(client):
    api = Api(client, THREE)
    assert api.refused("hands", {**B1, "discarder": "N"}) == (400, "bad_seat", "discarder")
    assert api.get()["hands_total"] == 0


# --------------------------------------------------------------------------------------------- making a table


def test_a_table_of_three_left_unnamed_gets_its_three_seats_words(client):
    status, body = create(client, {"ruleset": "bazhi", "options": {"players": 3}})
    assert status == 201 and body["players"] == {"E": "东", "S": "南", "W": "西"}
    assert body["totals"] == {"E": 0, "S": 0, "W": 0} and body["card"]["options"]["players"] == 3


def test_a_name_for_north_at_a_table_of_three_is_refused(client):
    status, body = create(client, {**THREE, "players": {**NAMES, "N": "北北"}})
    assert status == 400 and (body["error"]["code"], body["error"]["field"]) == ("bad_table", "players.N")
    assert not Table.objects.exists()


def test_a_table_of_three_names_every_seat(client):
    status, body = create(client, {**THREE, "players": {"E": "阿东", "S": "小南"}})
    assert status == 400 and (body["error"]["code"], body["error"]["field"]) == ("bad_table", "players.W")


def test_three_names_for_a_table_of_four_are_refused_not_filled_up(client):
    status, body = create(client, {"ruleset": "bazhi", "players": NAMES})
    assert status == 400 and (body["error"]["code"], body["error"]["field"]) == ("bad_table", "players.N")
    assert not Table.objects.exists()


def test_the_first_dealer_of_a_table_of_three_is_one_of_its_seats(client):
    status, body = create(client, {**THREE, "dealer": "N"})
    assert status == 400 and (body["error"]["code"], body["error"]["field"]) == ("bad_seat", "dealer")


def test_xinyu_makes_no_table_of_three(client):
    status, body = create(client, {"ruleset": "xinyu", "options": {"players": 3}, "players": NAMES})
    assert status == 400 and (body["error"]["code"], body["error"]["field"]) == ("bad_option", "options.players")


# --------------------------------------------------------------------------------------------- the rule card


def test_a_card_change_cannot_alter_the_number_of_players(client):
    api = Api(client, THREE)
    assert api.refused("card", {"options": {"tariff": "525", "players": 4}}) == (400, "bad_table", "options.players")
    assert api.get()["card"]["version"] == 1


def test_a_card_change_that_leaves_players_out_keeps_the_tables(client):
    api = Api(client, THREE)
    body = api.ok("card", {"options": {"tariff": "525"}})
    assert body["card"]["options"] == {**body["card"]["options"], "tariff": "525", "players": 3}
    assert body["balances"] == {"E": 30, "S": 30, "W": 30}  # the stake left out stays


# --------------------------------------------------------------------------------------------- stored tables


def test_a_table_stored_before_players_existed_keeps_four_seats_and_its_account(client):
    """A table whose card was stored without `players` (made before the option): four seats, the same replay."""
    api = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", B1)
    api.ok("draw")
    table = Table.objects.get(pk=api.id)
    before, state = api.get(), dict(table.state)
    for card in Card.objects.filter(table=table):
        card.options = {key: value for key, value in card.options.items() if key != "players"}
        card.save(update_fields=["options"])
    table = Table.objects.get(pk=api.id)
    assert "players" not in table.cards.get(version=1).options
    replayed, _ = table.replay()
    assert replayed.to_dict() == state and replayed.seats == ("E", "S", "W", "N")
    after = api.get()
    assert {key: after[key] for key in ("balances", "outside", "totals", "settlement", "players", "dealer")} == {
        key: before[key] for key in ("balances", "outside", "totals", "settlement", "players", "dealer")
    }
    assert after["card"]["options"]["players"] == 4
    body = api.ok("hands", {**B1, "winner": "N", "discarder": "E"})
    # W deals (E, then S after B1, then W after the draw): N wins on E's discard, E and W pay 5 + 2, S 5
    assert body["hands"][0]["applied"] == {"E": -7, "S": -5, "W": -7, "N": 19} and body["hands_total"] == 2
