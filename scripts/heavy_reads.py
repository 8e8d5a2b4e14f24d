#!/usr/bin/env python3
"""In-process cost of a big table's heavy reads (issue 20): its live part, CSV and JSON pages, through the whole
middleware stack (Django's test client), without a server or sockets.

    .venv/bin/python scripts/heavy_reads.py                  # a 1,000-hand table, 5 rounds (~1 min)
    .venv/bin/python scripts/heavy_reads.py --hands 300 --rounds 3

Writes a table of `--hands` hands into a fresh SQLite file in a temporary directory, then times each read three
ways, in interleaved rounds:
- after a write: one more hand recorded, then the read, as every phone's next poll of a table being played pays
  (the worker read the table before: calculator/tables/snapshot.py reads the entries written since);
- re-read: the same read again (the snapshot and the encoded answers kept);
- cold: every cache of the table dropped first, as a worker pays the first time it reads the table (no goal).
The table grows by one hand per round and read kind past `--hands` (the entry cap is raised for it). Prints the
medians of the wall time (and of the CPU time, steadier on a shared machine) and a PASS / FAIL line for each goal
of issue 20: the live part under 50 ms, the CSV under 100 ms, after a write and on a re-read.
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
KINDS = ("after a write", "re-read", "cold")


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
        LEDGER_MAX_HANDS=str(args.hands + 4 * args.rounds + 10),
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from calculator.api import tables as api
    from calculator.pages.tables import export, views
    from calculator.tables import snapshot, store

    call_command("migrate", verbosity=0)
    table, _ = store.create_table({"ruleset": "bazhi", "stake": 1_000_000})
    seats = [(w, d) for w in "ESWN" for d in "ESWN" if w != d]

    def record(n: int) -> None:
        winner, discarder = seats[n % len(seats)]
        store.record_hand(
            table.id, {"hand": "111345789p79m55s", "win_tile": "8m", "winner": winner, "discarder": discarder}
        )

    for n in range(1, args.hands + 1):
        record(n)

    def forget() -> None:
        snapshot.forget()
        export.forget()
        for cache in (views._chart_at, api.page_body):
            cache.cache_clear()

    client = Client()
    reads = {
        "live": f"/tables/{table.id}/live/?v=0",
        "csv": f"/tables/{table.id}/export.csv",
        "json500": f"/api/tables/{table.id}?from=1&limit=500",
        "json": f"/api/tables/{table.id}",
    }
    lines = [
        f"a table of {args.hands} hands (one more before each read after a write); {args.rounds} rounds; "
        f"load {os.getloadavg()[0]:.2f}"
    ]
    written = args.hands
    for name, path in reads.items():
        assert client.get(path).status_code == 200, path
        wall: dict[str, list[float]] = {kind: [] for kind in KINDS}
        cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for _ in range(args.rounds):
            for kind in KINDS:
                if kind == "after a write":
                    written += 1
                    record(written)
                elif kind == "cold":
                    forget()
                started, started_cpu = time.perf_counter(), time.process_time()
                assert client.get(path).status_code == 200, path
                wall[kind].append(1000 * (time.perf_counter() - started))
                cpu[kind].append(1000 * (time.process_time() - started_cpu))
        figures = {kind: statistics.median(wall[kind]) for kind in KINDS}
        lines.append(
            f"{name:8} "
            + ", ".join(f"{kind} {figures[kind]:6.1f} ms (CPU {statistics.median(cpu[kind]):5.1f})" for kind in KINDS)
        )
        if name in GOALS_MS:
            goal = GOALS_MS[name]
            for kind in KINDS[:2]:
                lines.append(
                    f"  {'PASS' if figures[kind] < goal else 'FAIL'}  {name} {kind} under {goal:g} ms: "
                    f"{figures[kind]:.1f} ms"
                )
    lines.append(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n".join(lines))
    return 0 if all("FAIL" not in line for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
