"""The rule card of a table (issue 12 §1, API.md): versions, the lock, hands scored and replayed under the card in
force, the ledger-only house rule draw_dealer, and option_mismatch."""

from __future__ import annotations

import json

import pytest

from calculator.engine.rulesets import RULESETS
from calculator.models import Card, Table
from tests.ledger.client import Api
from tests.ledger.hands import B1

pytestmark = pytest.mark.django_db

BAZHI_DEFAULT = RULESETS["bazhi"].default_card.to_dict()
# HB1 of house.json: 1113m waits 2m and 3m; won on 2m (the middle of 123m) it is 压档 only under yadang_wait=any.
B3 = {"hand": "1113m123456789p", "win_tile": "2m", "winner": "S", "discarder": "W"}


def bazhi(client, **body) -> Api:
    return Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}, **body})


def test_get_returns_the_whole_card_with_its_version(client):
    api = bazhi(client, options={"tariff": "525", "house": {"draw_dealer": "keep"}})
    card = api.get()["card"]
    assert card == {
        "version": 1,
        "ruleset": "bazhi",
        "options": {
            "tariff": "525",
            "multi_jiao": False,
            "players": 4,
            "house": {**BAZHI_DEFAULT, "draw_dealer": "keep"},
        },
        "stake": 50,
        "multiplier": 1,
    }


def test_a_new_card_before_the_first_hand_makes_version_2_and_fresh_stakes(client):
    api = bazhi(client)
    body = api.ok("card", {"options": {"tariff": "525"}, "stake": None})
    assert body["card"]["version"] == 2 and body["card"]["options"]["tariff"] == "525"
    assert body["stake"] == 50 and body["balances"] == dict.fromkeys("ESWN", 50)
    [event] = body["events"]
    assert (event["kind"], event["card_version"]) == ("card", 2)
    assert list(Card.objects.filter(table_id=api.id).values_list("version", flat=True)) == [1, 2]


def test_leaving_out_a_field_keeps_it(client):
    api = bazhi(client, stake=40)
    body = api.ok("card", {"options": {"tariff": "525", "multi_jiao": True}})
    assert (body["stake"], body["options"]["multi_jiao"]) == (40, True)
    body = api.ok("card", {"stake": 60})
    assert (body["stake"], body["options"]["tariff"], body["card"]["version"]) == (60, "525", 3)


def test_the_card_is_locked_once_the_game_has_a_hand_until_next(client):
    api = bazhi(client)
    api.ok("hands", B1)
    assert api.refused("card", {"stake": 40}) == (409, "card_locked", None)
    api.ok("next")
    body = api.ok("card", {"stake": 40})
    assert body["balances"] == dict.fromkeys("ESWN", 40) and body["card"]["version"] == 2


def test_a_draw_locks_the_card_too(client):
    api = bazhi(client)
    api.ok("draw")
    assert api.refused("card", {"stake": 40})[1] == "card_locked"


@pytest.mark.parametrize(
    "body, status, code, field",
    [
        ({"ruleset": "xinyu"}, 400, "bad_table", "ruleset"),
        ({"options": {"tariff": "400"}}, 400, "bad_option", "options.tariff"),
        ({"options": {"house": {"haidi": "maybe"}}}, 400, "bad_option", "options.house.haidi"),
        ({"options": {"caishen": "5p"}}, 400, "bad_option", "options.caishen"),
        ({"stake": 0}, 400, "bad_table", "stake"),
        ({"colour": "red"}, 400, "bad_json", "colour"),
        ({"stake": 40, "version": 99}, 409, "stale", "version"),
    ],
)
def test_a_bad_card_changes_nothing(client, body, status, code, field):
    api = bazhi(client)
    before = api.get()
    assert api.refused("card", body) == (status, code, field)
    assert api.get() == before


def test_undo_right_after_a_card_change_restores_the_previous_card(client):
    api = bazhi(client)
    api.ok("card", {"stake": 40})
    body = api.ok("undo")
    assert body["card"]["version"] == 1 and body["balances"] == dict.fromkeys("ESWN", 30)
    assert list(Card.objects.filter(table_id=api.id).values_list("version", flat=True)) == [1]
    body = api.ok("redo")
    assert body["card"]["version"] == 2 and body["balances"] == dict.fromkeys("ESWN", 40)


def test_hands_are_scored_under_the_card_in_force(client):
    api = bazhi(client)
    first = api.ok("hands", B3)["hands"][0]
    assert first["card_version"] == 1 and first["result"]["yadang"] is None  # two waits: no 压档 by default
    api.ok("next")
    api.ok("card", {"options": {"tariff": "315", "house": {"yadang_wait": "any"}}})
    second = api.ok("hands", B3)["hands"][0]
    assert second["card_version"] == 2 and second["result"]["yadang"] is not None
    assert second["request"]["options"]["house"]["yadang_wait"] == "any"
    assert second["result"]["fan"] > first["result"]["fan"]


def test_replay_with_two_card_versions_is_byte_for_byte(client):
    """The card changes between two 底 games; recomputing the whole table from its stored results and cards gives
    exactly the stored account and every entry's stored rows and account after it."""
    api = bazhi(client)
    for _ in range(2):
        api.ok("hands", B3)
    api.ok("next")
    api.ok("card", {"options": {"tariff": "525", "house": {"yadang_wait": "any"}}, "stake": 200})
    api.ok("hands", B3)
    api.ok("hands", B1)
    api.ok("draw")
    table = Table.objects.get(pk=api.id)
    state, entries = table.replay()
    stored = dict(table.state)
    assert json.dumps(state.to_dict(), sort_keys=True) == json.dumps(stored, sort_keys=True)
    for logged, entry in zip(state.log, entries, strict=True):
        assert json.dumps(logged["rows"], sort_keys=True) == json.dumps(entry.rows, sort_keys=True)  # jsonb sorts keys
        after = {k: v for k, v in entry.after.items() if k != "version"}
        assert json.dumps({k: logged[k] for k in after}, sort_keys=True) == json.dumps(after, sort_keys=True)
    assert [e.card_version for e in entries] == [1, 1, 1, 2, 2, 2, 2]


def test_hand_options_that_contradict_the_card_are_refused(client):
    api = bazhi(client, options={"tariff": "315", "house": {"haidi": "zui"}})
    assert api.refused("hands", {**B1, "options": {"tariff": "525"}}) == (409, "option_mismatch", "options.tariff")
    refused = api.refused("hands", {**B1, "options": {"house": {"haidi": "label"}}})
    assert refused == (409, "option_mismatch", "options.house.haidi")
    assert api.refused("hands", {**B1, "options": {"house": {"nope": 1}}}) == (400, "bad_option", "options.house.nope")
    body = api.ok("hands", {**B1, "options": {"tariff": 315, "house": {"haidi": "zui"}}})  # agreeing is fine
    assert body["hands"][0]["request"]["options"]["house"]["haidi"] == "zui"


@pytest.mark.parametrize(
    "ruleset, house, dealer_after",
    [
        ("bazhi", {}, ("S", 1)),  # bazhi's default: a drawn hand passes the deal
        ("bazhi", {"draw_dealer": "keep"}, ("E", 1)),
        ("xinyu", {}, ("E", 1)),  # xinyu's default: same dealer, same streak
        ("xinyu", {"draw_dealer": "pass"}, ("S", 1)),
    ],
)
def test_draw_dealer_is_applied_on_a_drawn_hand(client, ruleset, house, dealer_after):
    api = Api(client, {"ruleset": ruleset, "options": {"house": house}})
    body = api.ok("draw")
    assert (body["dealer"], body["dealer_streak"]) == dealer_after


def test_a_drawn_hand_that_keeps_the_deal_keeps_the_streak(client):
    api = Api(client, {"ruleset": "xinyu", "stake": None})
    x2 = {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "E"}
    assert api.ok("hands", x2)["dealer_streak"] == 2  # the dealer's self-draw
    body = api.ok("draw")
    assert (body["dealer"], body["dealer_streak"]) == ("E", 2)
