"""Bounded tables (issue 15): strict bodies that store nothing unknown, name limits, tables per client per day,
and the clean-up of tables nobody writes to."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import hypothesis
import pytest
from django.core.management import call_command
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from calculator.models import Card, Event, Hand, Table
from tests.ledger.client import PLAYERS, Api, post
from tests.ledger.hands import B1

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "raw, status, code, field",
    [
        ('{"ruleset": "bazhi", "players": {"E": "\\ud800"}}', 400, "bad_json", "players.E"),
        ('{"ruleset": "bazhi", "players": {"S": "a\\u0000b"}}', 400, "bad_json", "players.S"),
        ('{"ruleset": "bazhi", "junk": "' + "x" * 1000 + '"}', 400, "bad_json", "junk"),
        ('{"ruleset": "bazhi", "options": {"tariff": "315", "junk": 1}}', 400, "bad_option", "options.junk"),
        ('{"ruleset": "bazhi", "options": {"house": {"junk": 1}}}', 400, "bad_option", "options.house.junk"),
        ('{"ruleset": "bazhi", "players": {"E": "' + "阿" * 41 + '"}}', 400, "bad_table", "players.E"),
        # format characters (Unicode Cf, API.md): a right-to-left override, a zero-width space, a BOM
        ('{"ruleset": "bazhi", "players": {"S": "\\u202eevil"}}', 400, "bad_table", "players.S"),
        ('{"ruleset": "bazhi", "players": {"W": "老\\u200b西"}}', 400, "bad_table", "players.W"),
        ('{"ruleset": "bazhi", "players": {"N": "\\ufeff北北"}}', 400, "bad_table", "players.N"),
    ],
)
def test_a_bad_table_body_stores_nothing(client, raw, status, code, field):
    response = post(client, "/api/tables", raw=raw)
    assert response.status_code == status
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == (code, field)
    assert not Table.objects.exists() and not Card.objects.exists()


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({**B1, "junk": "x" * 60_000}, "bad_json", "junk"),
        (
            {**B1, "melds": [{"type": "pung", "tiles": "CCC", "from": "E", "deep": {"a": [1]}}]},
            "bad_json",
            "melds[0].deep",
        ),
        ({**B1, "options": {"tariff": "315", "junk": 1}}, "bad_option", "options.junk"),
        ({**B1, "idempotency_key": "\ud800"}, "bad_json", "idempotency_key"),
    ],
)
def test_a_bad_hand_body_stores_nothing(client, body, code, field):
    api = Api(client, {"ruleset": "bazhi"})
    assert api.refused("hands", body) == (400, code, field)
    assert not Hand.objects.exists() and api.get()["version"] == 0


def test_a_hand_recorded_with_alternatives_stores_none_and_answers_none(client):
    # API.md: the ledger ignores `alternatives` (it is not stored); a value that is not a boolean is still bad_json.
    api = Api(client, {"ruleset": "bazhi"})
    assert api.refused("hands", {**B1, "alternatives": "yes"}) == (400, "bad_json", "alternatives")
    hand = api.ok("hands", {**B1, "alternatives": True})["hands"][0]
    stored = Hand.objects.get()
    for answered in (hand, api.get()["hands"][0], {"request": stored.request, "result": stored.result}):
        assert "alternatives" not in answered["request"] and "alternatives" not in answered["result"]
        assert "alternatives" not in answered["result"]["request"]  # scored as a plain hand
        assert answered["result"]["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


@pytest.mark.parametrize(
    "action, body, field", [("draw", {"seat": "W"}, "seat"), ("undo", {"x": 1}, "x"), ("leave", {"who": "W"}, "who")]
)
def test_unknown_fields_of_events_are_bad_json(client, action, body, field):
    api = Api(client, {"ruleset": "xinyu"})
    assert api.refused(action, body) == (400, "bad_json", field)
    assert not Event.objects.exists()


def test_a_client_may_create_so_many_tables_a_day(client, settings):
    settings.LEDGER_TABLES_PER_DAY = 3
    for _ in range(3):
        assert post(client, "/api/tables", {"ruleset": "bazhi"}).status_code == 201
    refused = post(client, "/api/tables", {"ruleset": "bazhi"})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
    assert 0 < int(refused["Retry-After"]) <= 86400
    assert Table.objects.count() == 3
    # another client is not counted with this one; and a day later this one may again
    assert post(client, "/api/tables", {"ruleset": "bazhi"}, REMOTE_ADDR="10.0.0.7").status_code == 201
    Table.objects.update(created=timezone.now() - timedelta(days=1, seconds=1))
    assert post(client, "/api/tables", {"ruleset": "bazhi"}).status_code == 201


def test_the_new_table_page_says_so_too(client, settings):
    settings.LEDGER_TABLES_PER_DAY = 1
    form = {"ruleset": "bazhi", "dealer": "E", "name_E": "阿东"}
    assert client.post("/tables/new/", form).status_code == 302
    page = client.post("/tables/new/", form)
    assert page.status_code == 200 and "一天最多开 1 张牌桌" in page.content.decode()


@pytest.mark.parametrize("name", ["\u202eevil", "老\u200b西", "\ufeff北北"])
def test_the_new_table_page_refuses_a_name_with_a_format_character_beside_its_field(client, name):
    form = {"ruleset": "bazhi", "bazhi-tariff": "315", "dealer": "E", "name_S": name}
    page = client.post("/tables/new/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and not Table.objects.exists()
    html = page.content.decode()
    south, west = html.index('name="name_S"'), html.index('name="name_W"')
    assert south < html.index("the name holds a character that cannot be shown") < west


def test_the_creator_is_a_keyed_hash_not_the_address(client):
    post(client, "/api/tables", {"ruleset": "bazhi", "players": PLAYERS})
    creator = Table.objects.get().creator
    assert creator and "127.0.0.1" not in creator and len(creator) == 32


def test_prune_deletes_tables_untouched_for_the_retention_and_keeps_the_rest(client, settings):
    settings.LEDGER_RETENTION_DAYS = 30
    old, recent = Api(client, {"ruleset": "bazhi"}), Api(client, {"ruleset": "bazhi"})
    old.ok("hands", B1)
    recent.ok("hands", B1)
    Table.objects.filter(pk=old.id).update(updated=timezone.now() - timedelta(days=31))
    Table.objects.filter(pk=recent.id).update(updated=timezone.now() - timedelta(days=29))
    out = io.StringIO()
    call_command("prune_tables", "--dry-run", stdout=out)
    assert out.getvalue().startswith("1 tables") and Table.objects.count() == 2
    out = io.StringIO()
    call_command("prune_tables", stdout=out)
    assert out.getvalue().startswith("1 tables")
    assert list(Table.objects.values_list("id", flat=True)) == [recent.id]
    assert not Hand.objects.filter(table_id=old.id).exists() and not Card.objects.filter(table_id=old.id).exists()
    out = io.StringIO()
    call_command("prune_tables", stdout=out)  # again, as cron would: nothing left to do
    assert out.getvalue().startswith("0 tables")
    assert json.loads(client.get(recent.url).content)["hands_total"] == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [
        "hand",
        "win_tile",
        "winner",
        "discarder",
        "options",
        "seat",
        "stake",
        "multiplier",
        "version",
        "idempotency_key",
        "ruleset",
        "melds",
        "flags",
        "house",
        "junk",
    ]
)


@hypothesis.settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    action=st.sampled_from(["hands", "draw", "leave", "next", "undo", "redo", "card"]),
    body=st.one_of(JSON, st.dictionaries(KEYS, JSON, max_size=4)),
)
def test_any_body_on_any_write_is_an_answer_and_a_refusal_changes_nothing(client, settings, action, body):
    settings.LEDGER_TABLES_PER_DAY = 1000  # every example makes a table
    api = Api(client, {"ruleset": "xinyu", "stake": 100})
    api.ok("hands", {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "S"})
    before = api.get()
    response = api.write(action, body)
    assert response.status_code in (200, 201, 400, 409), response.content
    if response.status_code >= 400:
        assert "code" in response.json()["error"]
        assert api.get() == before
