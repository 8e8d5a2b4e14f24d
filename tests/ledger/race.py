"""Two (or eight) phones recording at the same moment, for real: threads, each with its own database connection.

Run as a script with a DATABASE_URL of a fresh, empty database: it migrates it, creates a table, and
1. lets THREADS threads append a hand at the same instant (no `version`): every hand must land, once, in order;
2. lets THREADS threads append "the same hand" with the version they all saw: exactly one may land, the
   others must get 409 "stale" and change nothing.
It prints a JSON report; tests/ledger/test_concurrency.py judges it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

THREADS = 8
B1 = {"hand": "111345789p79m55s", "win_tile": "8m", "melds": [], "winner": "S", "discarder": "W", "flags": []}


def main(url: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ["DATABASE_URL"] = url
    os.environ["DB_CONN_MAX_AGE"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections

    from calculator import ledger
    from calculator.api.tables import table_json
    from calculator.models import Hand, Table
    from calculator.tables.store import create_table, record_hand

    call_command("migrate", verbosity=0)

    def race(table_id: str, body_for) -> list[str]:
        barrier = threading.Barrier(THREADS)
        outcomes: list[str] = [""] * THREADS

        def worker(i: int) -> None:
            try:
                barrier.wait()
                record_hand(table_id, body_for(i))
                outcomes[i] = "ok"
            except ledger.LedgerError as error:
                outcomes[i] = error.code
            except Exception as error:  # a lost race would show up here (e.g. "database is locked")
                outcomes[i] = f"{type(error).__name__}: {error}"
            finally:
                connections.close_all()

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return outcomes

    config = {"ruleset": "bazhi", "stake": 100000}
    free, _ = create_table(config)
    free_outcomes = race(free.id, lambda i: dict(B1))
    same, _ = create_table(config)
    version = Table.objects.get(pk=same.id).version
    same_outcomes = race(same.id, lambda i: {**B1, "version": version})

    def summary(table_id: str) -> dict:
        table = Table.objects.get(pk=table_id)
        hands = list(Hand.objects.filter(table=table).order_by("seq"))
        body = table_json(table)
        return {
            "ns": [h.n for h in hands],
            "seqs": [h.seq for h in hands],
            "dealers": [h.request["dealer"] for h in hands],
            "stored_applied": [h.applied for h in hands],
            "replayed_applied": [h["applied"] for h in body["hands"]],
            "balances": body["balances"],
            "version": table.version,
        }

    print(
        json.dumps(
            {
                "vendor": connection.vendor,
                "threads": THREADS,
                "free": {"outcomes": free_outcomes, **summary(free.id)},
                "same": {"outcomes": same_outcomes, **summary(same.id)},
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
