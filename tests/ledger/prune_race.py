"""The clean-up (`manage.py prune_tables`) against phones that write meanwhile, for real: threads with their own
database connections, the whole request stack (the rate limiter writes on every request, reads included), a
database of its own.

Run as a script with a scenario and the DATABASE_URL of a fresh, empty database; it migrates it and prints a JSON
report that tests/ledger/test_prune_race.py judges:

- `window <point>`: one table past the age. The clean-up runs; at `point` of it a phone records a hand on that
  table (over HTTP, in a thread, on its own connection) and the clean-up waits for it (`wait_for`) before it goes
  on. `lock`: just before the clean-up's first write statement; `delete`: just before its first DELETE (issue 20:
  there, on main, the hand was answered 201 and then deleted with its table).
- `concurrent`: OLD tables past the age; WRITERS threads record hands on some of them and on fresh tables, READERS
  threads read tables and pages, all while the command runs over every old table.
"""

from __future__ import annotations

import io
import json
import random
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

# Seconds the clean-up waits in the `delete` window for the phone's answer before it goes on: long enough for a
# phone nothing holds up (main's clean-up took no lock) to be answered on a busy machine, shorter than SQLite's
# lock timeout (5 s), after which a phone held up by the lock would give up.
WAIT = 3.0
OLD, WRITERS, READERS = 24, 8, 2
TARGETS = 12  # old tables the writers write to (with the fresh ones)
B1 = {"hand": "111345789p79m55s", "win_tile": "8m", "melds": [], "winner": "S", "discarder": "W", "flags": []}
CONFIG = {"ruleset": "bazhi", "stake": 1_000_000}  # a 底 nobody can lose: every hand is a win to record


def old_table(days: int = 200) -> tuple[str, str]:
    """A table with one hand, last written `days` ago."""
    from django.utils import timezone

    from calculator.models import Table
    from calculator.tables.store import create_table, record_hand

    table, token = create_table(CONFIG)
    record_hand(table.id, dict(B1))
    Table.objects.filter(pk=table.id).update(updated=timezone.now() - timedelta(days=days))
    return table.id, token


def post_hand(client, table_id: str, token: str, key: str):
    body = json.dumps({**B1, "idempotency_key": key})
    return client.post(
        f"/api/tables/{table_id}/hands", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def prune() -> dict:
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    try:
        call_command("prune_tables", stdout=out, stderr=err)
        outcome = "ok"
    except Exception as error:  # a crash: "database is locked", an IntegrityError at commit …
        outcome = f"{type(error).__name__}: {error}"
    return {"outcome": outcome, "out": out.getvalue(), "err": err.getvalue(), "seconds": time.monotonic() - started}


def keys_of(table_id: str) -> list[str]:
    from calculator.models import Hand

    return list(
        Hand.objects.filter(table_id=table_id).exclude(idempotency_key=None).values_list("idempotency_key", flat=True)
    )


def wait_for(thread: threading.Thread, held_up: bool) -> None:
    """Until the phone has its answer; or, where the phone may be held up by the clean-up's lock, until it waits
    for a lock (PostgreSQL shows it) or WAIT seconds have passed (SQLite's waiting writer cannot be seen)."""
    from django.db import connection

    give_up = time.monotonic() + (WAIT if held_up else 60)
    while thread.is_alive() and time.monotonic() < give_up:
        if held_up and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                if cursor.fetchone()[0]:
                    return
        thread.join(0.05)


def window(point: str) -> dict:
    from django.db import connection, connections
    from django.test import Client

    from calculator.models import Table

    table_id, token = old_table()
    phone: dict = {}

    def record() -> None:
        try:
            response = post_hand(Client(raise_request_exception=False), table_id, token, "in-the-window")
            phone.update(status=response.status_code, body=response.json())
        finally:
            connections.close_all()

    writes = ("UPDATE", "DELETE", "INSERT") if point == "lock" else ("DELETE",)
    thread = threading.Thread(target=record)

    def hook(execute, sql, params, many, context):
        if "fired" not in phone and sql.lstrip().split(None, 1)[0].upper() in writes:
            phone["fired"] = sql.split(None, 1)[0]
            thread.start()
            wait_for(thread, held_up=point == "delete")
            phone["answered_in_the_window"] = not thread.is_alive()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(hook):
        run = prune()
    if phone.get("fired"):
        thread.join()
    read = Client(raise_request_exception=False).get(f"/api/tables/{table_id}")
    return {
        "vendor": connection.vendor,
        "prune": run,
        "phone": {key: value for key, value in phone.items() if key != "body"},
        "phone_version": phone.get("body", {}).get("version"),
        "table_exists": Table.objects.filter(pk=table_id).exists(),
        "keys": keys_of(table_id),
        "read_after": read.status_code,
    }


def concurrent() -> dict:
    from django.db import connection, connections
    from django.test import Client

    from calculator.models import Table
    from calculator.tables.store import create_table

    old = [old_table() for _ in range(OLD)]
    fresh = [create_table(CONFIG) for _ in range(4)]
    targets = old[:TARGETS] + [(table.id, token) for table, token in fresh]
    stop = threading.Event()
    writes: list[list] = [[] for _ in range(WRITERS)]
    reads: list[list] = [[] for _ in range(READERS)]

    def writer(i: int) -> None:
        client, rng, k = Client(raise_request_exception=False), random.Random(i), 0
        try:
            while not stop.is_set() or k < 5:
                table_id, token = rng.choice(targets)
                key = f"w{i}-{k}"
                try:
                    status = post_hand(client, table_id, token, key).status_code
                except Exception as error:  # the request stack itself failed: a 500 by another name
                    status = f"{type(error).__name__}: {error}"
                writes[i].append([table_id, key, status])
                k += 1
        finally:
            connections.close_all()

    def reader(i: int) -> None:
        client, rng = Client(raise_request_exception=False), random.Random(100 + i)
        try:
            while not stop.is_set():
                table_id, _ = rng.choice(old + targets)
                for url in (f"/api/tables/{table_id}", f"/tables/{table_id}/"):
                    reads[i].append(client.get(url).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    threads += [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    for thread in threads:
        thread.start()
    while min(len(per_thread) for per_thread in writes) < 2:  # every phone is writing before the clean-up starts
        time.sleep(0.05)
    run = prune()
    stop.set()
    for thread in threads:
        thread.join()
    all_writes = [write for per_thread in writes for write in per_thread]
    written = {table_id for table_id, _, status in all_writes if status in (200, 201)}
    return {
        "vendor": connection.vendor,
        "prune": run,
        "old": [table_id for table_id, _ in old],
        "targets": [table_id for table_id, _ in targets],
        "writes": all_writes,
        "reads": sorted({status for per_thread in reads for status in per_thread}),
        "reads_count": sum(len(per_thread) for per_thread in reads),
        "exists": sorted(Table.objects.filter(pk__in=[t for t, _ in old + targets]).values_list("id", flat=True)),
        "keys": {table_id: keys_of(table_id) for table_id in written},
    }


def main(scenario: str, url: str, *args: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.ledger.scratch import setup_django

    setup_django(url)
    report = window(*args) if scenario == "window" else concurrent()
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *sys.argv[3:])
