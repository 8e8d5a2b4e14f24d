"""Two phones recording at the same moment never lose or double a hand: SQLite and PostgreSQL, real threads.

The race runs in a subprocess (tests/ledger/race.py) against a fresh database of its own: a file SQLite database
(the test run's in-memory one cannot be shared by threads), or a new PostgreSQL database on the server named by
TEST_POSTGRES_URL (scripts/test starts one).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ledger.scratch import postgres_database

pytestmark = pytest.mark.own_database
RACE = Path(__file__).with_name("race.py")


def run_race(url: str) -> dict:
    done = subprocess.run([sys.executable, str(RACE), url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def check(report: dict) -> None:
    threads = report["threads"]
    free = report["free"]
    # Every phone's hand landed, exactly once, numbered 1…N in one order; nothing failed.
    assert free["outcomes"] == ["ok"] * threads
    assert free["ns"] == list(range(1, threads + 1))
    assert free["seqs"] == list(range(1, threads + 1))
    # Each hand was scored with the dealer the previous one left (S wins and then keeps the deal).
    assert free["dealers"] == ["E"] + ["S"] * (threads - 1)
    assert free["stored_applied"] == free["replayed_applied"]
    assert free["balances"] == {
        "E": 100000 - 7 * threads,
        "S": 100000 + 19 + 23 * (threads - 1),
        "W": 100000 - 7 - 9 * (threads - 1),
        "N": 100000 - 5 - 7 * (threads - 1),
    }
    same = report["same"]
    # All phones saw the same table and sent the same hand: one lands, the others are told, nothing doubles.
    assert sorted(same["outcomes"]) == ["ok"] + ["stale"] * (threads - 1)
    assert same["ns"] == [1]
    assert same["balances"] == {"E": 99993, "S": 100019, "W": 99993, "N": 99995}


def test_concurrent_hands_on_sqlite(tmp_path):
    report = run_race(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    assert report["vendor"] == "sqlite"
    check(report)


@pytest.mark.postgres
def test_concurrent_hands_on_postgresql():
    with postgres_database("ledger_race") as url:
        report = run_race(url)
    assert report["vendor"] == "postgresql"
    check(report)
