#!/usr/bin/env python3
"""In-process cost of a big table's heavy reads (issue 20): its live part, CSV and JSON pages, through the whole
middleware stack (Django's test client), without a server or sockets.

    .venv/bin/python scripts/heavy_reads.py                  # a 1,000-hand table, 5 rounds (~1 min)
    .venv/bin/python scripts/heavy_reads.py --hands 300 --rounds 3

Writes a table of `--hands` hands into a fresh SQLite file in a temporary directory, then times each read twice:
as the first reader after a write pays (every cache of the table cleared before each timing) and as a re-read
(the table's snapshot and encoded answers kept, calculator/tables/snapshot.py). Prints the medians and a PASS /
FAIL line for each goal of issue 20 (the live part under 50 ms, the CSV under 100 ms, re-reads).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOALS_MS = {"live": 50.0, "csv": 100.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="in-process cost of a big table's heavy reads")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    scratch = tempfile.mkdtemp(prefix="heavy-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="calculator.settings",
        DJANGO_ENV="development",
        DEBUG="0",
        DATABASE_URL=f"sqlite:///{scratch}/reads.sqlite3",
        RATE_LIMIT_ENABLED="0",
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from calculator.api import tables as api
    from calculator.pages.tables import views
    from calculator.tables import snapshot, store

    call_command("migrate", verbosity=0)
    table, _ = store.create_table({"ruleset": "bazhi", "stake": 1_000_000})
    seats = [(w, d) for w in "ESWN" for d in "ESWN" if w != d]
    for n in range(1, args.hands + 1):
        winner, discarder = seats[n % len(seats)]
        store.record_hand(
            table.id, {"hand": "111345789p79m55s", "win_tile": "8m", "winner": winner, "discarder": discarder}
        )

    def forget() -> None:
        for cache in (snapshot.at, views.csv_text, views._chart_at, api.page_body):
            cache.cache_clear()

    client = Client()
    reads = {
        "live": f"/tables/{table.id}/live/?v=0",
        "csv": f"/tables/{table.id}/export.csv",
        "json500": f"/api/tables/{table.id}?from=1&limit=500",
        "json": f"/api/tables/{table.id}",
    }
    lines = [f"a table of {args.hands} hands; {args.rounds} rounds; load {os.getloadavg()[0]:.2f}"]
    for name, path in reads.items():
        assert client.get(path).status_code == 200, path
        timings: dict[str, list[float]] = {"first": [], "again": []}
        for _ in range(args.rounds):
            for kind in ("first", "again"):
                if kind == "first":
                    forget()
                started = time.perf_counter()
                client.get(path)
                timings[kind].append(1000 * (time.perf_counter() - started))
        first, again = (statistics.median(timings[k]) for k in ("first", "again"))
        lines.append(f"{name:8} first read after a write {first:7.1f} ms, re-read {again:7.1f} ms")
        if name in GOALS_MS:
            goal = GOALS_MS[name]
            for kind, figure in (("first read", first), ("re-read", again)):
                lines.append(
                    f"  {'PASS' if figure < goal else 'FAIL'}  {name} {kind} under {goal:g} ms: {figure:.1f} ms"
                )
    lines.append(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n".join(lines))
    return 0 if all("FAIL" not in line for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
