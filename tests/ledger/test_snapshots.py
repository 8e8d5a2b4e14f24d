"""Issue 20, finding 3: a heavy read of a big table costs what it shows, not the table. What depends only on the
table's version is read once per (table, version) (calculator/tables/snapshot.py), so a re-read decodes nothing; a
read decodes the entries it shows and no other; after a write the next read decodes the entries written since, and
the export adds their lines to the ones it wrote before (calculator/pages/tables/export.py). Whatever was kept, the
answer is the one read from scratch, byte for byte. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import ledger
from calculator.api import tables as api_tables
from calculator.models import Card, Event, Hand, Table
from calculator.pages.tables import export, views
from calculator.tables import snapshot as snapshots
from calculator.tables import store
from tests.ledger.client import Api
from tests.ledger.test_heavy_reads import HAND, table_of
from tests.ledger.test_stored_state import BAZHI_MOVES, XINYU_MOVES

pytestmark = pytest.mark.django_db


def forget_everything() -> None:
    """What a worker holds that never read a table: no snapshot, no export lines, no chart, no encoded page."""
    snapshots.forget()
    export.forget()
    views._chart_at.cache_clear()
    api_tables.page_body.cache_clear()


@pytest.fixture
def decoded(monkeypatch):
    """The entries and accounts decoded from the database from now on: each hand or event built from a row
    (every query that hands over entries builds them through `from_db`), each account decoded from its JSON."""
    built = {"entries": [], "states": 0}

    def entry_from_db(model):
        original = model.from_db.__func__

        def from_db(cls, db, field_names, values, **kwargs):
            entry = original(cls, db, field_names, values, **kwargs)
            built["entries"].append(entry.seq)
            return entry

        return classmethod(from_db)

    original_state = ledger.State.from_dict.__func__

    def state_from_dict(cls, *args, **kwargs):
        built["states"] += 1
        return original_state(cls, *args, **kwargs)

    for model in (Hand, Event):
        monkeypatch.setattr(model, "from_db", entry_from_db(model))
    monkeypatch.setattr(ledger.State, "from_dict", classmethod(state_from_dict))
    return built


def heavy_reads(table_id: str) -> list[str]:
    return [
        f"/tables/{table_id}/",
        f"/tables/{table_id}/live/?v=0",
        f"/tables/{table_id}/export.csv",
        f"/tables/{table_id}/export.csv?lang=en",
        f"/api/tables/{table_id}",
        f"/api/tables/{table_id}?from=1&limit=500",
    ]


def test_a_reread_at_the_same_version_decodes_nothing(client, decoded):
    big = table_of(150)
    for path in heavy_reads(big):
        assert client.get(path).status_code == 200
    decoded.update(entries=[], states=0)
    for path in heavy_reads(big):
        assert client.get(path).status_code == 200
    assert decoded == {"entries": [], "states": 0}


def test_a_read_decodes_the_entries_it_shows_and_no_other(client, decoded):
    big = table_of(250)
    forget_everything()
    decoded.update(entries=[], states=0)
    assert client.get(f"/tables/{big}/live/?v=0").status_code == 200
    assert sorted(decoded["entries"]) == list(range(151, 251))  # the last page: the newest 100 entries
    assert decoded["states"] == 1  # the table's account, once
    decoded["entries"].clear()
    assert client.get(f"/api/tables/{big}").status_code == 200  # the same page, as JSON: nothing more
    assert client.get(f"/tables/{big}/live/?v=0&from=101").status_code == 200
    assert sorted(decoded["entries"]) == list(range(101, 151))  # what that page shows and no earlier read decoded


def test_after_a_write_the_next_read_decodes_the_entries_written_since(client, decoded):
    big = table_of(250)
    for path in (f"/tables/{big}/live/?v=0", f"/tables/{big}/export.csv"):
        assert client.get(path).status_code == 200
    store.record_hand(big, dict(HAND))
    decoded["entries"].clear()
    assert "251" in client.get(f"/tables/{big}/live/?v=0").content.decode()
    # the new entry, and the last one both versions hold (its mark says the log before it is unchanged)
    assert sorted(decoded["entries"]) == [250, 251]
    decoded["entries"].clear()
    assert "\r\n251," in client.get(f"/tables/{big}/export.csv").content.decode()
    assert sorted(decoded["entries"]) == [250, 251]


def test_an_undo_and_a_different_entry_in_its_place_are_read_again_not_kept(client):
    big = table_of(120)
    before = client.get(f"/tables/{big}/export.csv").content
    store.undo_last(big, {})
    store.record_hand(big, dict(HAND))  # entry 120 is now a hand, not the draw it was
    kept = client.get(f"/tables/{big}/export.csv").content
    forget_everything()
    assert kept == client.get(f"/tables/{big}/export.csv").content != before


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize("ruleset, moves, stake", [("bazhi", BAZHI_MOVES, 60), ("xinyu", XINYU_MOVES, 100)])
def test_every_heavy_answer_after_each_write_is_the_one_read_from_scratch(client, ruleset, moves, stake, data):
    """Random sessions (hands, draws, leaves, the next game, new cards, undo and redo), each write read at once:
    the answers read from what this process kept of earlier versions (after one write or several since the last
    read from scratch) equal, byte for byte, the ones read with nothing kept."""
    table = Api(client, {"ruleset": ruleset, "stake": stake})
    reads = heavy_reads(table.id)[1:]  # the page itself carries a CSRF token: its live part is the same markup
    writes = data.draw(st.integers(min_value=3, max_value=15))
    for n in range(writes):
        action, body = data.draw(st.sampled_from(moves))
        assert table.write(action, body).status_code in (200, 201, 400, 409)
        kept = [client.get(path).content for path in reads]
        if n == writes - 1 or data.draw(st.booleans()):
            forget_everything()
            assert [client.get(path).content for path in reads] == kept


@pytest.mark.parametrize("path", ["/api/tables/{id}", "/tables/{id}/"])
def test_a_table_the_clean_up_deletes_between_its_row_and_its_cards_is_not_found_not_a_500(client, path):
    """The read of a table's row and of its cards are two queries, not one snapshot of the database: the clean-up
    (`manage.py prune_tables`) may delete the table between them (a 500 on PostgreSQL under load, in CI)."""
    table_id = Api(client, {"ruleset": "bazhi"}).id
    forget_everything()
    deleted = []

    def clean_up_first(execute, sql, params, many, context):
        if not deleted and Card._meta.db_table in sql and sql.lstrip().upper().startswith("SELECT"):
            deleted.append(True)
            Table.objects.filter(pk=table_id).delete()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(clean_up_first):
        response = client.get(path.format(id=table_id))
    assert deleted and response.status_code == 404


def test_a_page_whose_kept_entries_another_read_drops_meanwhile_is_still_read_whole():
    """Two reads of one table at once (gunicorn's threads): the first finds entries 5-10 kept and reads 11-15; while
    it reads, the second keeps other pages and drops 5-10. The first still answers 5-15 (it was a KeyError, a 500
    for 2 % of the reads of two threads paging one table)."""
    table_id = table_of(30)
    forget_everything()
    snapshot = snapshots.at(table_id, Table.objects.get(pk=table_id).version)
    snapshot.entries(store.Page(1, 10))
    read_from_the_database = snapshots.entries_in
    other_reads = []

    def others_read_meanwhile(table, page):
        if not other_reads:  # the other thread, between this read's look at what is kept and its use of it
            other_reads.extend(range(20, 20 + snapshots.PAGES + 1))
            for seq in other_reads:
                snapshot.entries(store.Page(seq, seq))
        return read_from_the_database(table, page)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(snapshots, "entries_in", others_read_meanwhile)
        entries = snapshot.entries(store.Page(5, 15))
    assert other_reads and [entry.seq for entry in entries] == list(range(5, 16))


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/{id}",
        "/api/tables/{id}?from=1&limit=500",
        "/tables/{id}/",
        "/tables/{id}/live/?v=0",
        "/tables/{id}/export.csv",
    ],
)
def test_a_read_that_a_write_overtakes_at_every_try_is_busy_not_a_500(client, monkeypatch, path):
    """A table written to faster than it can be read (six writers at once): every snapshot the read starts is
    overtaken by a write. The read answers 503 busy with Retry-After, as a database fault does, and the next one,
    after the writes, answers."""
    table_id = table_of(3)
    forget_everything()

    def overtaken(table_id: str, version: int):
        raise snapshots.Moved(table_id)

    monkeypatch.setattr(snapshots, "at", overtaken)
    response = client.get(path.format(id=table_id), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    if path.startswith("/api/"):
        assert response.json()["error"]["code"] == "busy"
    monkeypatch.undo()
    assert client.get(path.format(id=table_id)).status_code == 200
