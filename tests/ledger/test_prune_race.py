"""Issue 20, finding 1: `manage.py prune_tables` never deletes a write that was answered 2xx and never crashes, while
phones write and read; on SQLite and PostgreSQL, with real threads (tests/ledger/prune_race.py, a database of its
own: a file SQLite database, or a new database on the server named by TEST_POSTGRES_URL).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.utils import timezone

from calculator.management.commands import prune_tables
from calculator.models import Table
from calculator.tables.store import delete_untouched
from tests.ledger.client import Api
from tests.ledger.scratch import postgres_database

RACE = Path(__file__).with_name("prune_race.py")
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@contextmanager
def database(vendor: str, tmp_path: Path):
    if vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    else:
        with postgres_database("ledger_prune") as url:
            yield url


def run(vendor: str, tmp_path: Path, *args: str) -> dict:
    with database(vendor, tmp_path) as url:
        done = subprocess.run(
            [sys.executable, str(RACE), args[0], url, *args[1:]], capture_output=True, text=True, timeout=180
        )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["vendor"] == vendor
    return report


@pytest.mark.own_database
@pytest.mark.parametrize("vendor", DATABASES)
def test_a_hand_recorded_just_before_the_clean_up_writes_keeps_its_table(tmp_path, vendor):
    # The phone's hand lands after the clean-up listed the table as old and before it locks it: the table has been
    # written to, so it stays, with the hand.
    report = run(vendor, tmp_path, "window", "lock")
    assert report["prune"]["outcome"] == "ok", report["prune"]
    assert report["phone"]["status"] == 201 and report["phone"]["answered_in_the_window"]
    assert report["prune"]["out"].startswith("0 tables")
    assert report["table_exists"] and report["keys"] == ["in-the-window"] and report["read_after"] == 200


@pytest.mark.own_database
@pytest.mark.parametrize("vendor", DATABASES)
def test_a_hand_sent_while_the_clean_up_deletes_the_table_waits_and_is_refused_never_answered_and_lost(
    tmp_path, vendor
):
    # Issue 20: forced into this window on main, the hand was answered 201 (version 2), the command reported the
    # table deleted, and the table then answered 404 (PostgreSQL); on SQLite the command crashed. Now the phone waits
    # for the clean-up's lock, which every write takes, and then finds no table: 404, nothing recorded.
    report = run(vendor, tmp_path, "window", "delete")
    assert report["prune"]["outcome"] == "ok", report["prune"]
    assert report["prune"]["out"].startswith("1 tables")
    assert not report["phone"]["answered_in_the_window"]  # held by the lock
    assert report["phone"]["status"] == 404 and report["phone_version"] is None
    assert not report["table_exists"] and report["read_after"] == 404


@pytest.mark.own_database
@pytest.mark.parametrize("vendor", DATABASES)
def test_the_clean_up_against_writing_and_reading_phones_deletes_no_answered_write_and_never_crashes(tmp_path, vendor):
    report = run(vendor, tmp_path, "concurrent")
    run_ = report["prune"]
    assert run_["outcome"] == "ok", run_  # main: "database is locked" (SQLite), IntegrityError (PostgreSQL)
    statuses = {str(status) for _, _, status in report["writes"]}
    assert statuses <= {"201", "404", "503"}, statuses  # never a 500
    exists = set(report["exists"])
    answered = [(table, key) for table, key, status in report["writes"] if status in (200, 201)]
    assert answered
    for table, key in answered:  # every write answered 2xx is still there, its table with it
        assert table in exists and key in report["keys"][table], (table, key)
    for table, _, status in report["writes"]:
        if status == 404:  # refused because the clean-up had deleted the table: an old one, gone
            assert table in report["old"] and table not in exists
    written = {table for table, _ in answered}
    untouched = set(report["old"]) - set(report["targets"])
    assert not untouched & exists  # the old tables nobody wrote to are gone …
    assert int(run_["out"].split()[0]) == len(set(report["old"]) - exists)  # … and the command counted right
    assert report["reads"] and set(report["reads"]) <= {200, 404}, report["reads"]
    assert written & set(report["old"]) <= exists


@pytest.mark.django_db
def test_a_busy_database_makes_the_clean_up_wait_and_try_again_and_then_keep_the_table_not_crash(client, monkeypatch):
    old = Api(client, {"ruleset": "bazhi"})
    Table.objects.filter(pk=old.id).update(updated=timezone.now() - timedelta(days=200))
    monkeypatch.setattr(prune_tables, "RETRIES", (0, 0, 0))
    tries: list[str] = []

    def locked(table_id, cutoff):
        tries.append(table_id)
        raise OperationalError("database is locked")

    monkeypatch.setattr(prune_tables, "delete_untouched", locked)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 tables .* could not be deleted .* kept for the next run"):
        call_command("prune_tables", stdout=out, stderr=err)
    assert tries == [old.id] * 4 and out.getvalue().startswith("0 tables") and "database is locked" in err.getvalue()
    assert Table.objects.filter(pk=old.id).exists()

    tries.clear()

    def locked_twice(table_id, cutoff):
        tries.append(table_id)
        if len(tries) <= 2:
            raise OperationalError("database is locked")
        return delete_untouched(table_id, cutoff)

    monkeypatch.setattr(prune_tables, "delete_untouched", locked_twice)
    call_command("prune_tables", stdout=out)
    assert tries == [old.id] * 3 and not Table.objects.filter(pk=old.id).exists()
