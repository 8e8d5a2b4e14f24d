"""Nothing recorded twice (issue 12 §2, API.md): idempotency keys, undo with redo."""

from __future__ import annotations

import pytest

from calculator.models import Event, Hand
from tests.ledger.client import Api
from tests.ledger.hands import B1, B2

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client) -> Api:
    return Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}})


def test_a_repeat_with_the_same_key_returns_the_first_answer_and_stores_nothing(api):
    first = api.write("hands", {**B1, "idempotency_key": "hand-1"})
    assert first.status_code == 201
    again = api.write("hands", {**B1, "idempotency_key": "hand-1"})
    assert again.status_code == 200 and again.json() == first.json()
    assert Hand.objects.count() == 1 and api.get()["version"] == 1


def test_a_repeat_after_other_writes_still_answers_as_the_first_time(api):
    first = api.write("hands", {**B1, "idempotency_key": "k"}).json()
    api.ok("hands", B1)
    again = api.write("hands", {**B1, "idempotency_key": "k"})
    assert again.status_code == 200 and again.json() == first
    assert api.get()["hands_total"] == 2


def test_the_same_key_with_another_body_is_a_mismatch(api):
    api.ok("hands", {**B1, "idempotency_key": "k"})
    assert api.refused("hands", {**B1, "winner": "N", "idempotency_key": "k"}) == (
        409,
        "idempotency_mismatch",
        "idempotency_key",
    )
    assert api.refused("draw", {"idempotency_key": "k"})[1] == "idempotency_mismatch"
    assert Hand.objects.count() == 1 and not Event.objects.exists()


def test_a_key_names_one_kind_of_write_a_draw_s_key_on_a_hand_or_a_leave_is_a_mismatch(client):
    """A draw's body is empty, and so is a hand's that only repeats it: the key of a draw sent with a hand (or with
    a leave, which bazhi does not even have) is another request, 409, not the draw's answer."""
    for game, body in (("bazhi", {}), ("xinyu", {"stake": None})):
        api = Api(client, {"ruleset": game, **body})
        drawn = api.write("draw", {"idempotency_key": "d"})
        assert drawn.status_code == 201
        for action in ("hands", "leave"):
            assert api.refused(action, {"idempotency_key": "d"}) == (409, "idempotency_mismatch", "idempotency_key")
        assert api.write("draw", {"idempotency_key": "d"}).json() == drawn.json()
        assert api.get()["events_total"] == 1 and api.get()["hands_total"] == 0


def test_the_key_is_checked_before_every_other_table_check(api):
    """The Back button's re-submit: the old version, and the table has moved on (here to game over)."""
    table = api.get()
    first = api.write("hands", {**B1, "version": table["version"], "idempotency_key": "k"}).json()
    for _ in range(3):
        api.ok("hands", B1)
    assert api.get()["status"] == "ended"
    again = api.write("hands", {**B1, "version": table["version"], "idempotency_key": "k"})
    assert again.status_code == 200 and again.json() == first


def test_keys_are_kept_per_table(client, api):
    other = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", {**B1, "idempotency_key": "k"})
    assert other.write("hands", {**B1, "idempotency_key": "k"}).status_code == 201


@pytest.mark.parametrize("key", ["", "x" * 65, 7, "tab\there"])
def test_a_key_is_1_to_64_printable_characters(api, key):
    assert api.refused("hands", {**B1, "idempotency_key": key}) == (400, "bad_json", "idempotency_key")
    assert api.ok("hands", {**B1, "idempotency_key": "x" * 64})["hands_total"] == 1


def test_draw_and_leave_take_keys(client):
    api = Api(client, {"ruleset": "xinyu", "stake": None})
    assert api.write("draw", {"idempotency_key": "d"}).status_code == 201
    assert api.write("draw", {"idempotency_key": "d"}).status_code == 200
    assert api.write("leave", {"seat": "W", "idempotency_key": "l"}).status_code == 201
    assert api.write("leave", {"seat": "W", "idempotency_key": "l"}).status_code == 200
    assert api.refused("leave", {"seat": "N", "idempotency_key": "l"})[1] == "idempotency_mismatch"
    assert api.get()["events_total"] == 2
    assert api.refused("next", {"idempotency_key": "n"}) == (400, "bad_json", "idempotency_key")


def test_undo_frees_the_key_of_the_entry_it_removes(api):
    api.ok("hands", {**B1, "idempotency_key": "k"})
    api.ok("undo")
    assert api.write("hands", {**B2, "idempotency_key": "k"}).status_code == 201
    assert api.get()["hands"][0]["result"]["fan"] == 15  # B2, not B1


# ---------------------------------------------------------------------------------------------------------
# undo and redo


def test_redo_brings_back_exactly_the_entry_the_last_undo_removed(api):
    api.ok("hands", B2)
    written = api.ok("hands", {**B1, "idempotency_key": "k"})
    before = api.get()
    undone = api.ok("undo")
    assert (
        undone["hands_total"] == 1
        and undone["hands"] == []
        and undone["balances"]
        == {
            "E": 84,
            "S": 12,
            "W": 12,
            "N": 12,
        }
    )
    redone = api.write("redo")
    assert redone.status_code == 200 and redone.json()["hands"] == written["hands"]
    after = api.get()
    assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
    assert after["version"] == before["version"] + 2
    # its key came back with it
    assert api.write("hands", {**B1, "idempotency_key": "k"}).status_code == 200


def test_nothing_to_redo_once_anything_was_written_since_the_undo(api):
    assert api.refused("redo") == (409, "nothing_to_redo", None)
    api.ok("hands", B1)
    api.ok("undo")
    api.ok("draw")
    assert api.refused("redo") == (409, "nothing_to_redo", None)
    api.ok("undo")
    api.ok("redo")
    assert api.refused("redo")[1] == "nothing_to_redo"  # one redo per undo


def test_undo_and_redo_check_the_version(api):
    version = api.ok("hands", B1)["version"]
    assert api.refused("undo", {"version": version - 1}) == (409, "stale", "version")
    version = api.ok("undo", {"version": version})["version"]
    assert api.refused("redo", {"version": version + 5})[1] == "stale"
    assert api.ok("redo", {"version": version})["hands_total"] == 1
