"""The ledger's JSON API (API.md § "The table ledger"): statuses, error codes, and that nothing is ever half-done."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import ledger
from calculator.engine import score
from calculator.models import Event, Hand, Table
from tests.ledger.client import Api
from tests.ledger.hands import B1, B2

# a xinyu hand: S wins on W's discard (tests/ledger/test_xinyu_tables.py)
X2 = {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "S", "discarder": "W"}

pytestmark = pytest.mark.django_db

PLAYERS = {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}


def post(client, url, body=None, token=None, raw=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    data = raw if raw is not None else ("" if body is None else json.dumps(body))
    return client.post(url, data, content_type="application/json", **headers)


@pytest.fixture
def table(client):
    response = post(client, "/api/tables", {"ruleset": "bazhi", "options": {"tariff": "315"}, "players": PLAYERS})
    assert response.status_code == 201
    return response.json()


def test_create_returns_links_and_the_table(client, table):
    assert len(table["id"]) >= 16 and len(table["edit_token"]) >= 32
    assert table["view_url"].endswith(f"/tables/{table['id']}/")
    assert table["edit_url"].endswith(f"/tables/{table['id']}/edit/{table['edit_token']}/")
    assert table["stake"] == 30 and table["players"] == PLAYERS
    assert table["balances"] == dict.fromkeys("ESWN", 30)
    assert table["outside"] == table["totals"] == dict.fromkeys("ESWN", 0)
    assert (table["status"], table["ended_reason"], table["dealer"], table["dealer_streak"]) == (
        "playing",
        None,
        "E",
        1,
    )
    assert table["hands"] == []
    stored = Table.objects.get(pk=table["id"])
    assert table["edit_token"] not in stored.edit_token_hash  # only a hash is kept
    got = client.get(f"/api/tables/{table['id']}").json()
    assert "edit_token" not in got and got["balances"] == table["balances"]


def test_the_api_md_example(client, table):
    response = post(client, f"/api/tables/{table['id']}/hands", B1, table["edit_token"])
    assert response.status_code == 201
    body = response.json()
    assert body["balances"] == {"E": 23, "S": 49, "W": 23, "N": 25}
    assert body["totals"] == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert (body["dealer"], body["dealer_streak"]) == ("S", 1)
    [hand] = body["hands"]
    assert hand["n"] == 1 and hand["applied"] == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert hand["request"]["dealer"] == "E" and hand["result"]["fan"] == 5


@pytest.mark.parametrize(
    "token, status, code",
    [(None, 401, "unauthorized"), ("nope", 403, "forbidden"), ("", 401, "unauthorized")],
)
def test_writes_need_the_edit_token(client, table, token, status, code):
    for action in ("hands", "draw", "undo", "next", "leave"):
        response = post(client, f"/api/tables/{table['id']}/{action}", B1, token)
        assert response.status_code == status, action
        assert response.json()["error"]["code"] == code
    assert not Hand.objects.exists() and not Event.objects.exists()


def test_unknown_table_is_404(client, table):
    assert client.get("/api/tables/nosuchtable").status_code == 404
    response = post(client, "/api/tables/nosuchtable/hands", B1, table["edit_token"])
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({**B1, "dealer": "N"}, 409, "dealer_mismatch"),
        ({**B1, "ruleset": "xinyu"}, 409, "ruleset_mismatch"),
        ({**B1, "options": {"tariff": "525"}}, 409, "option_mismatch"),
        ({**B1, "win_tile": "1m"}, 400, "incomplete"),
        ({**B1, "hand": "123456m123456p7s", "win_tile": "7s"}, 400, "no_bazhi"),
        ({**B1, "hand": "111345789p79x55s"}, 400, "bad_tile"),
        ({k: v for k, v in B1.items() if k != "win_tile"}, 400, "no_win_tile"),
        ({**B1, "version": 7}, 409, "stale"),
        ({**B1, "version": "1"}, 400, "bad_json"),
    ],
)
def test_rejected_hands_change_nothing(client, table, body, status, code):
    post(client, f"/api/tables/{table['id']}/hands", B1, table["edit_token"])
    before = client.get(f"/api/tables/{table['id']}").json()
    # the table's dealer is S now; make the dealer mismatch name a seat that is not S
    response = post(client, f"/api/tables/{table['id']}/hands", body, table["edit_token"])
    assert response.status_code == status, response.json()
    assert response.json()["error"]["code"] == code
    assert client.get(f"/api/tables/{table['id']}").json() == before


def test_bad_json_and_bad_tables(client, table):
    response = post(client, f"/api/tables/{table['id']}/hands", raw="{nope", token=table["edit_token"])
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_json"
    response = post(client, "/api/tables", {"ruleset": "xinyu", "stake": 300})
    assert response.status_code == 400 and response.json()["error"] == {
        "code": "bad_table",
        "message": "冲击房间的底只能是 100、200 或 500（普通牌桌为 null）",
        "field": "stake",
    }
    assert Table.objects.count() == 1


def test_draw_undo_next_and_game_over(client, table):
    url, token = f"/api/tables/{table['id']}", table["edit_token"]
    assert post(client, f"{url}/undo", None, token).status_code == 409  # nothing to undo
    body = post(client, f"{url}/draw", None, token).json()
    assert (body["dealer"], body["events"][0]["kind"]) == ("S", "draw")
    body = post(client, f"{url}/undo", None, token).json()
    assert body["dealer"] == "E" and body["events"] == []
    for _ in range(4):  # E's 底 runs out … see test_rules: here S wins four times from dealer E then S
        response = post(client, f"{url}/hands", B1, token)
    body = response.json()
    assert (body["status"], body["ended_reason"]) == ("ended", "tuodi")
    assert body["balances"] == {"E": 2, "S": 114, "W": 0, "N": 4}
    refused = post(client, f"{url}/hands", B1, token)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    assert post(client, f"{url}/leave", {"seat": "W"}, token).json()["error"]["code"] == "not_available"
    body = post(client, f"{url}/next", None, token).json()
    assert body["balances"] == dict.fromkeys("ESWN", 30) and body["game"] == 2 and body["status"] == "playing"
    assert body["totals"] == {"E": -28, "S": 84, "W": -30, "N": -26}
    undone = post(client, f"{url}/undo", None, token)
    assert undone.status_code == 200 and undone.json()["status"] == "ended"
    body = post(client, f"{url}/undo", None, token).json()
    assert body["hands_total"] == 3 and body["hands"] == [] and body["status"] == "playing"


def test_stored_equals_recomputed(client, table):
    url, token = f"/api/tables/{table['id']}", table["edit_token"]
    post(client, f"{url}/hands", B2, token)
    post(client, f"{url}/draw", None, token)
    post(client, f"{url}/hands", {**B1, "winner": "N", "discarder": "E"}, token)
    post(client, f"{url}/hands", B2, token)
    table_row = Table.objects.get(pk=table["id"])
    state, rows = table_row.replay()
    assert [row.applied for row in rows] == [entry["applied"] for entry in state.log]
    # The stored results are what the engine says today for the stored requests.
    for hand in Hand.objects.filter(table=table_row):
        assert score(hand.request) == hand.result
    # The balances follow from the applied changes alone.
    totals = dict.fromkeys("ESWN", 0)
    for row in rows:
        for seat, change in row.applied.items():
            totals[seat] += change
    assert totals == state.totals == client.get(url).json()["totals"]
    assert sum(state.totals.values()) == 0


SEAT = st.sampled_from(["E", "S", "W", "N"])
JUNK = st.one_of(st.none(), st.integers(), st.text(max_size=6), st.lists(st.text(max_size=3), max_size=2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    changes=st.dictionaries(
        st.sampled_from(["hand", "win_tile", "winner", "discarder", "dealer", "melds", "flags", "options", "ruleset"]),
        st.one_of(JUNK, SEAT, st.sampled_from(["1m", "8m", "9p", "C", "111345789p79m5s", "kong_bloom"])),
        min_size=1,
        max_size=3,
    )
)
def test_any_rejected_hand_changes_nothing(client, table, changes):
    url, token = f"/api/tables/{table['id']}", table["edit_token"]
    before = client.get(url).json()
    response = post(client, f"{url}/hands", {**B1, **changes}, token)
    assert response.status_code in (201, 400, 409), response.content
    after = client.get(url).json()
    if response.status_code == 201:
        assert len(after["hands"]) == len(before["hands"]) + 1
        post(client, f"{url}/undo", None, token)
        assert client.get(url).json()["hands"] == before["hands"]
    else:
        assert "code" in response.json()["error"]
        assert after == before


def test_the_token_comparison_is_constant_time():
    import inspect

    from calculator import models

    assert "compare_digest" in inspect.getsource(models.Table.token_matches)
    table, token = Table.create(ledger.parse_config({"ruleset": "bazhi"}))
    assert table.token_matches(token) and not table.token_matches(token[:-1]) and not table.token_matches(None)


THREE = {"ruleset": "bazhi", "options": {"players": 3}, "players": {"E": "阿东", "S": "小南", "W": "老西"}}


@pytest.mark.parametrize(
    "change, code, field",
    [
        ({"dealer": "N"}, "bad_seat", "dealer"),  # RULES.md §1.8: N anywhere at a table of three is bad_seat
        ({"dealer": "e"}, "bad_seat", "dealer"),
        ({"dealer": ""}, "bad_seat", "dealer"),  # not "left out": the table does not fill what was given
        ({"dealer": ["E"]}, "bad_seat", "dealer"),
        ({"dealer": 0}, "bad_seat", "dealer"),
        ({"ruleset": "nope"}, "unknown_ruleset", "ruleset"),
        ({"ruleset": ""}, "unknown_ruleset", "ruleset"),
        ({"ruleset": ["bazhi"]}, "unknown_ruleset", "ruleset"),
        ({"dealer": {"E": 1}}, "bad_seat", "dealer"),
    ],
)
def test_a_value_the_engine_refuses_is_its_400_at_a_table_too_not_a_mismatch_or_filled_in(client, change, code, field):
    """API.md: a table fills `dealer` and `ruleset` when they are left out and refuses one that names another seat
    or game (409); a value that is no seat or no game is the engine's 400, as `POST /api/score` answers it."""
    api = Api(client, THREE)
    request = {**B1, **change}
    assert score({"ruleset": "bazhi", "options": {"players": 3}, "dealer": "E", **request})["error"]["code"] == code
    assert api.refused("hands", request) == (400, code, field)
    assert api.get()["hands_total"] == 0


def test_a_dealer_streak_that_is_no_streak_is_bad_option_at_a_xinyu_table_too(client):
    """API.md: dealer_streak is a whole number from 1 to 1,000 (bad_option otherwise); a table that fills the
    streak refuses a different valid one as dealer_mismatch, and 0 as the engine does."""
    api = Api(client, {"ruleset": "xinyu", "stake": 100})
    for streak in (0, 1001, "1", True):
        request = {**X2, "options": {"caishen": "5p", "dealer_streak": streak}}
        assert api.refused("hands", request) == (400, "bad_option", "options.dealer_streak")
    request = {**X2, "options": {"caishen": "5p", "dealer_streak": 2}}
    assert api.refused("hands", request) == (409, "dealer_mismatch", "options.dealer_streak")
    assert api.get()["hands_total"] == 0


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_method_the_tables_address_does_not_take_is_405_not_a_csrf_refusal(client, table, method):
    """`/api/tables/<id>` is read only: an API client that writes to it is told so (405 with Allow), not that a
    CSRF cookie is missing, which it has no use for (the ledger's writes take a Bearer token)."""
    browser_like = Client(enforce_csrf_checks=True)  # the checks a real request meets (the test client skips them)
    response = getattr(browser_like, method)(f"/api/tables/{table['id']}", "{}", content_type="application/json")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert response.json()["error"]["code"] == "method_not_allowed"
