#!/usr/bin/env python3
"""In-process cost of the calculator's htmx result partial, without a server or sockets.

    .venv/bin/python scripts/partial_cost.py             # 7 rounds over the load script's 200 hands
    .venv/bin/python scripts/partial_cost.py --rounds 3
    .venv/bin/python scripts/partial_cost.py --table-hands 500   # also: the same taps bound to a 500-hand table
    .venv/bin/python scripts/partial_cost.py --whole-page        # the whole calculator page instead (a first load)

Each round sends the 200 winning hands of `scripts/load.py` (same seed) through Django's test client with
`HX-Request: true` and the production profile (DEBUG off, cached templates); it prints the median time per request
over the rounds and the load average. The garbage collector is paused while timing, as in `timeit`. Run two trees
alternately to compare them: the machine is shared, so the ratio is the figure, not the microseconds.

With `--table-hands N` it also times a tap of the calculator bound to a ledger table of N hands (issue 12: at most
1.2× an unbound tap): a bazhi table in a fresh SQLite file, the bazhi hands sent unbound and bound in alternate
rounds (the table decides the game, so only its game's hands are compared).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--table-hands", type=int, default=0, help="also time taps bound to a table of N hands")
    parser.add_argument("--whole-page", action="store_true", help="the whole page of each hand, not the partial")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="partial-cost-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="calculator.settings",
        DJANGO_ENV="production",
        DEBUG="0",
        SECRET_KEY="partial-cost-" + "x" * 50,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        STATIC_MANIFEST="0",
        RATE_LIMIT_ENABLED="0",
        LOG_FORMAT="plain",
        DATABASE_URL=f"sqlite:///{scratch}/cost.sqlite3",
    )
    import django

    django.setup()
    logging.disable(logging.CRITICAL)
    import load
    from django.test import Client

    bodies = load.engine_requests(200, args.seed)
    if args.table_hands:
        return bound_taps([b for b in bodies if b["ruleset"] == "bazhi"], args, load)
    queries = [f"/?{load.form_query(body)}" for body in bodies]
    headers = {} if args.whole_page else HTMX
    client = Client()
    for query in queries:  # warm: templates compiled, caches filled, as in a running worker
        assert client.get(query, headers=headers).status_code == 200
    rounds = [time_round(client, queries, headers) for _ in range(args.rounds)]
    print(
        f"{'whole page' if args.whole_page else 'htmx partial'} in-process: median {statistics.median(rounds):.0f} µs "
        f"per request (rounds {min(rounds):.0f}–{max(rounds):.0f}); load average {os.getloadavg()[0]:.2f}"
    )


HTMX = {"HX-Request": "true"}  # a tap: the result partial


def time_round(client, queries: list[str], headers: dict = HTMX) -> float:
    gc.collect()
    gc.disable()
    start = time.perf_counter()
    for query in queries:
        client.get(query, headers=headers)
    gc.enable()
    return (time.perf_counter() - start) / len(queries) * 1e6


def bound_taps(bodies: list[dict], args, load) -> None:
    from django.core.management import call_command
    from django.test import Client

    from calculator.tables.store import create_table, record_hand

    call_command("migrate", verbosity=0)
    table, token = create_table({"ruleset": "bazhi", "stake": 1_000_000})
    seats = [(w, d) for w in "ESWN" for d in "ESWN" if w != d]
    for n in range(args.table_hands):
        winner, discarder = seats[n % len(seats)]
        record_hand(table.id, {**load.LEDGER_HAND, "winner": winner, "discarder": discarder})
    unbound = [f"/?{load.form_query(body)}" for body in bodies]
    bound = [f"{query}&table={table.id}&token={token}&at={args.table_hands}" for query in unbound]
    client = Client()
    for query in unbound + bound:  # warm
        assert client.get(query, headers=HTMX).status_code == 200
    free, tied = [], []
    for _ in range(args.rounds):
        free.append(time_round(client, unbound))
        tied.append(time_round(client, bound))
    ratio = statistics.median(tied) / statistics.median(free)
    print(
        f"htmx partial in-process, {len(unbound)} bazhi hands: unbound median {statistics.median(free):.0f} µs, "
        f"bound to a {args.table_hands}-hand table median {statistics.median(tied):.0f} µs: {ratio:.2f}× "
        f"(goal ≤ 1.2×); load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
