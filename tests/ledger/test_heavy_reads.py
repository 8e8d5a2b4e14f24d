"""Issue 20, finding 3: one polite client reading a big table's heavy answers took another client's score from a
median of 6.5 ms to 350 ms. A heavy read (the page, live part, JSON or CSV of a table of more than
RATE_LIMIT_HEAVY_ENTRIES entries) now costs RATE_LIMIT_HEAVY_COST reads of its client's budget, one client runs at
most RATE_LIMIT_HEAVY_CONCURRENT of them at once (a third is refused: 429 `rate_limited`, Retry-After: 1), a score
is never held back by them, and what depends only on the table's version is read once (calculator/tables/snapshot.py).
The full scenario: scripts/load.py --scenarios starve. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from calculator.plumbing import ratelimit
from calculator.tables import store

pytestmark = pytest.mark.django_db

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
HAND = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}
CLIENT = "198.51.100.30"


@pytest.fixture
def limits(settings):
    """Budgets small enough to spend in a test: 60 reads a minute; a table of more than 3 entries is big."""
    settings.RATE_LIMIT_ENABLED = True
    settings.RATE_LIMITS = {"read": "60/60", "write": "30/60", "create": "10/3600"}
    settings.RATE_LIMIT_HEAVY_ENTRIES = 3
    settings.RATE_LIMIT_HEAVY_COST = 20
    settings.RATE_LIMIT_HEAVY_CONCURRENT = 2
    return settings


def table_of(entries: int) -> str:
    table, _ = store.create_table({"ruleset": "bazhi", "stake": 100_000})
    for _ in range(entries):
        store.record_event(table.id, "draw")
    return table.id


def score(client):
    return client.post("/api/score?lang=en", json.dumps(B1), content_type="application/json", REMOTE_ADDR=CLIENT)


def test_a_heavy_read_costs_twenty_reads_of_the_budget(client, limits):
    big = table_of(4)
    csv = f"/tables/{big}/export.csv"
    assert [client.get(csv, REMOTE_ADDR=CLIENT).status_code for _ in range(3)] == [200] * 3  # 3 × 20 = 60
    refused = client.get(f"/api/tables/{big}?lang=en", REMOTE_ADDR=CLIENT)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert client.get("/", REMOTE_ADDR=CLIENT).status_code == 429  # the read budget is spent, light reads too
    assert score(client).status_code == 200  # a score counts in the write budget: never held back by reads


def test_a_small_table_costs_one_read(client, limits):
    small = table_of(3)
    answers = [client.get(f"/tables/{small}/export.csv", REMOTE_ADDR=CLIENT).status_code for _ in range(60)]
    assert answers == [200] * 60
    assert client.get(f"/tables/{small}/", REMOTE_ADDR=CLIENT).status_code == 429


@pytest.mark.parametrize("kind", ["page", "live", "json", "csv"])
def test_a_third_heavy_read_at_once_is_refused_and_a_score_is_not_held_back(client, limits, kind):
    """Two heavy reads of this client are running (their slots are taken, as by two workers): a third, of any kind,
    is refused at once, 429 with Retry-After: 1 (JSON under /api/, else the error page); the client's scores and
    light reads go through; once a read ends, its slot serves the next."""
    big = table_of(4)
    path = {"page": f"/tables/{big}/", "live": f"/tables/{big}/live/?v=0", "json": f"/api/tables/{big}?lang=en"}
    path = path.get(kind, f"/tables/{big}/export.csv")
    running = [ratelimit.take_slot(CLIENT), ratelimit.take_slot(CLIENT)]
    assert all(running)
    refused = client.get(path, REMOTE_ADDR=CLIENT, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    if kind == "json":
        assert refused.json()["error"]["code"] == "rate_limited"
    else:
        assert b"Too many requests" in refused.content
    assert score(client).status_code == 200
    assert client.get(f"/api/tables/{table_of(1)}", REMOTE_ADDR=CLIENT).status_code == 200  # a light read
    assert client.get(path, REMOTE_ADDR="198.51.100.31").status_code == 200  # another client has slots of its own
    ratelimit.give_back(running[0])
    assert client.get(path, REMOTE_ADDR=CLIENT).status_code == 200


def test_a_slot_a_dead_worker_kept_is_free_once_its_lease_is_over(limits):
    assert ratelimit.take_slot(CLIENT, now=1_000) and ratelimit.take_slot(CLIENT, now=1_000)
    assert ratelimit.take_slot(CLIENT, now=1_010) is None
    assert ratelimit.take_slot(CLIENT, now=1_000 + ratelimit.SLOT_LEASE + 1) is not None


def test_a_reread_costs_a_lookup_and_a_write_is_seen_by_the_next_read(client, django_assert_max_num_queries):
    big = table_of(120)
    for path in (f"/tables/{big}/live/?v=0", f"/tables/{big}/export.csv", f"/api/tables/{big}"):
        first = client.get(path).content
        with django_assert_max_num_queries(2):  # the table's version, and nothing decoded again
            assert client.get(path).content == first
    store.record_hand(big, dict(HAND))
    for path in (f"/tables/{big}/live/?v=0", f"/tables/{big}/export.csv"):
        assert "121" in client.get(path).content.decode()  # the 121st entry is there
    assert client.get(f"/api/tables/{big}").json()["hands_total"] == 1
