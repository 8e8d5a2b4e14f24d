"""Writes that do not grow with the table (issue 15): the account stored beside the entries equals a replay from
scratch after every write of random sessions; a write answers only what it wrote; GET pages the entries; a table
has a size limit."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.models import Table
from tests.ledger.client import Api
from tests.ledger.hands import B1, B2

pytestmark = pytest.mark.django_db


# The moves of a random session: hands of both kinds by different winners, draws, leaves, next, card changes,
# undo and redo. Each may be refused (game over, card locked, nothing to redo …): the account must hold anyway.
def b2_won_by(winner: str, red_from: str, twos_from: str) -> dict:
    """B2's 对对胡 + 混一色 self-drawn by `winner`, its 红中 pung fed by `red_from` and its 222m by `twos_from`."""
    melds = [{"type": "pung", "tiles": "CCC", "from": red_from}, {"type": "pung", "tiles": "222m", "from": twos_from}]
    return {**B2, "winner": winner, "melds": melds}


# The rest of a bazhi session: draws, the next 底 game, undo and redo, card changes.
BAZHI_EVENTS = [
    ("draw", {}),
    ("next", {}),
    ("undo", {}),
    ("redo", {}),
    ("card", {"stake": 20}),
    ("card", {"options": {"tariff": "525", "house": {"draw_dealer": "keep"}}}),
]
BAZHI_MOVES = [
    ("hands", B1),
    ("hands", {**B1, "winner": "N", "discarder": "E"}),
    ("hands", B2),
    ("hands", b2_won_by("W", "S", "N")),
    *BAZHI_EVENTS,
]
# A table of three (RULES.md §1.8): hands among E S W, and a card change that would seat four (refused).
BAZHI_THREE_MOVES = [
    ("hands", B1),
    ("hands", {**B1, "winner": "W", "discarder": "E"}),
    ("hands", {**B1, "winner": "E", "discarder": None}),
    ("hands", b2_won_by("S", "E", "W")),
    *BAZHI_EVENTS,
    ("card", {"options": {"players": 4}}),
]
THREE = {"options": {"players": 3}, "players": {"E": "阿东", "S": "小南", "W": "老西"}}
X2 = {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "S", "discarder": "W"}
XINYU_MOVES = [
    ("hands", X2),
    ("hands", {**X2, "winner": "E", "discarder": None}),
    ("hands", {**X2, "winner": "N", "discarder": "S", "options": {"caishen": "2s"}}),
    ("draw", {}),
    ("leave", {"seat": "W"}),
    ("next", {}),
    ("undo", {}),
    ("redo", {}),
    ("card", {"stake": 200}),
    ("card", {"stake": None, "multiplier": 3, "options": {"house": {"draw_dealer": "pass"}}}),
]


def check_against_replay(table_id: str) -> None:
    table = Table.objects.get(pk=table_id)
    state, entries = table.replay()
    assert state.to_dict() == table.state
    for logged, entry in zip(state.log, entries, strict=True):
        assert logged["applied"] == entry.applied and logged["rows"] == entry.rows
        assert {k: logged[k] for k in state.to_dict()} == {k: v for k, v in entry.after.items() if k != "version"}
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize(
    "ruleset, moves, stake, table",
    [("bazhi", BAZHI_MOVES, 60, {}), ("bazhi", BAZHI_THREE_MOVES, 60, THREE), ("xinyu", XINYU_MOVES, 100, {})],
    ids=["bazhi", "bazhi-three", "xinyu"],
)
def test_the_stored_account_equals_a_replay_after_every_write(client, ruleset, moves, stake, table, data):
    api = Api(client, {"ruleset": ruleset, "stake": stake, **table})
    for _ in range(data.draw(st.integers(min_value=5, max_value=25))):
        action, body = data.draw(st.sampled_from(moves))
        response = api.write(action, body)
        assert response.status_code in (200, 201, 400, 409), response.content
        check_against_replay(api.id)


def test_a_write_answers_the_state_and_only_the_entries_it_wrote(client):
    api = Api(client, {"ruleset": "bazhi"})
    for _ in range(3):
        body = api.ok("hands", B1)
    assert [h["n"] for h in body["hands"]] == [3] and body["events"] == []
    assert (body["hands_total"], body["events_total"]) == (3, 0)
    assert body["settlement"] and "edit_token" not in body
    body = api.ok("draw")
    assert body["hands"] == [] and [e["kind"] for e in body["events"]] == ["draw"] and body["events_total"] == 1


def test_get_pages_hands_and_events_in_one_numbering(client):
    api = Api(client, {"ruleset": "bazhi", "stake": 100000})
    for i in range(130):
        api.ok("draw") if i % 10 == 9 else api.ok("hands", B1)
    body = api.get()
    assert (body["hands_total"], body["events_total"]) == (117, 13)
    seqs = sorted([h["seq"] for h in body["hands"]] + [e["seq"] for e in body["events"]])
    assert seqs == list(range(31, 131))  # by default the last 100 entries
    body = api.get("?from=1&limit=20")
    assert [h["seq"] for h in body["hands"]] == [*range(1, 10), *range(11, 20)]
    assert [e["seq"] for e in body["events"]] == [10, 20] and body["hands"][0]["n"] == 1
    body = api.get("?from=125")
    assert [h["n"] for h in body["hands"]] == [113, 114, 115, 116, 117] and len(body["events"]) == 1


@pytest.mark.parametrize(
    "query, field", [("?limit=501", "limit"), ("?limit=0", "limit"), ("?from=0", "from"), ("?from=x", "from")]
)
def test_bad_pages_are_400(client, query, field):
    api = Api(client, {"ruleset": "bazhi"})
    response = client.get(f"{api.url}{query}")
    assert response.status_code == 400 and response.json()["error"] == {
        **response.json()["error"],
        "code": "bad_query",
        "field": field,
    }


def test_an_unchanged_table_answers_304(client):
    api = Api(client, {"ruleset": "bazhi"})
    first = client.get(api.url)
    tag = first["ETag"]
    assert client.get(api.url, headers={"If-None-Match": tag}).status_code == 304
    api.ok("draw")
    assert client.get(api.url, headers={"If-None-Match": tag}).status_code == 200


def test_a_full_table_refuses_more_and_says_to_start_a_new_one(client, settings):
    settings.LEDGER_MAX_HANDS = 4
    api = Api(client, {"ruleset": "bazhi", "stake": 1000})
    api.ok("hands", B1)
    api.ok("draw")
    api.ok("hands", B1)
    api.ok("hands", B1)
    for action, body in [("hands", B1), ("draw", {}), ("next", {}), ("card", {"stake": 5})]:
        status, code, _ = api.refused(action, body)
        assert (status, code) == (409, "table_full"), action
    assert "新牌桌" in api.write("hands", B1).json()["error"]["message"]
    api.ok("undo")  # undo still works, and makes room for one
    api.ok("hands", B1)


def test_the_write_answer_does_not_grow_with_the_table(client):
    api = Api(client, {"ruleset": "bazhi", "stake": 100000})
    sizes = []
    for n in range(1, 61):
        response = api.write("hands", B1)
        if n in (10, 60):
            sizes.append(len(response.content) - len(json.dumps(response.json()["totals"])))
    assert abs(sizes[0] - sizes[1]) < 40  # only the numbers' digits differ
