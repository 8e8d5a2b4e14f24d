#!/usr/bin/env python3
"""In-process cost of the calculator's htmx result partial, without gunicorn or sockets.

    .venv/bin/python scripts/partial_cost.py             # 7 rounds over the load script's 200 hands
    .venv/bin/python scripts/partial_cost.py --rounds 3

Each round sends the 200 winning hands of `scripts/load.py` (same seed) through Django's test client with
`HX-Request: true` and the production profile (DEBUG off, cached templates); it prints the median time per request
over the rounds and the load average. The garbage collector is paused while timing, as in `timeit`. Run two trees
alternately to compare them: the machine is shared, so the ratio is the figure, not the microseconds.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
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
    )
    import django

    django.setup()
    logging.disable(logging.CRITICAL)
    import load
    from django.test import Client

    queries = [f"/?{load.form_query(body)}" for body in load.engine_requests(200, args.seed)]
    client = Client()
    for query in queries:  # warm: templates compiled, caches filled, as in a running worker
        assert client.get(query, headers={"HX-Request": "true"}).status_code == 200
    rounds = []
    for _ in range(args.rounds):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        for query in queries:
            client.get(query, headers={"HX-Request": "true"})
        rounds.append((time.perf_counter() - start) / len(queries) * 1e6)
        gc.enable()
    print(
        f"htmx partial in-process: median {statistics.median(rounds):.0f} µs per request "
        f"(rounds {min(rounds):.0f}–{max(rounds):.0f}); load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
