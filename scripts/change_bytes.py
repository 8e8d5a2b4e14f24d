#!/usr/bin/env python3
"""What an open table page downloads when the table changes, measured in Chromium (the page's own script).

    .venv/bin/python scripts/change_bytes.py                 # a 1,000-hand table, 3 changes
    .venv/bin/python scripts/change_bytes.py --hands 100 --changes 5

Writes a bazhi table of `--hands` hands into a fresh SQLite file, starts `manage.py runserver` on it (DEBUG on, as
`scripts/serve`), opens the table's edit page and its read-only page at 360×640, waits for a second of polls,
then records one hand `--changes` times (by the API, as another phone would) and waits for each page to show it.
Prints, per page, the requests it made for each change, their answers' statuses and body sizes (as sent: gzip where
the server compressed) and the bytes of a change; and the bytes of a poll while nothing changed.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FINISHED: set = set()  # the requests whose answers came whole
HAND = {"hand": "111345789p79m55s", "win_tile": "8m"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(base + path, data, headers)) as answer:
        return json.loads(answer.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=3)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="change-bytes-")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "calculator.settings",
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{scratch}/bytes.sqlite3",
        "RATE_LIMIT_ENABLED": "0",
        "LEDGER_MAX_HANDS": str(args.hands + args.changes + 10),
        "LEDGER_TABLES_PER_DAY": "1000",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from calculator.tables import store

    call_command("migrate", verbosity=0)
    table, token = store.create_table({"ruleset": "bazhi", "stake": 1_000_000})
    seats = [(w, d) for w in "ESWN" for d in "ESWN" if w != d]
    for n in range(args.hands):
        winner, discarder = seats[n % len(seats)]
        store.record_hand(table.id, {**HAND, "winner": winner, "discarder": discarder})

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz")
                break
            except OSError:
                time.sleep(0.2)
        return measure(base, table.id, token, args, seats)
    finally:
        server.terminate()
        server.wait()


def sent(request) -> int:
    """The bytes of a request's answer's body as they came over the network (gzip where the server compressed)."""
    if request in FINISHED:
        return request.sizes()["responseBodySize"]
    # an answer whose body the page never read is not finished (sizes() would wait for it): its announced length
    response = request.response()
    return int((response.all_headers() if response else {}).get("content-length", 0))


def measure(base: str, table_id: str, token: str, args, seats) -> int:
    from playwright.sync_api import sync_playwright

    from tests.chromium import ARGS, CHROMIUM

    pages = {"edit page": f"/tables/{table_id}/edit/{token}/", "read-only page": f"/tables/{table_id}/"}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        opened = {}
        log: dict[str, list] = {}
        for name, path in pages.items():
            page = browser.new_page(viewport={"width": 360, "height": 640})
            log[name] = []
            page.on("request", lambda request, name=name: log[name].append(request))
            page.on("requestfinished", lambda request: FINISHED.add(request))
            page.goto(base + path)
            page.wait_for_selector("#live")
            opened[name] = page
        opened["read-only page"].wait_for_timeout(2500)  # polls while nothing changes
        polls = {name: [r for r in log[name] if "/live/" in r.url and r.response()] for name in pages}
        idle = {
            name: ([sent(r) for r in polls[name]], sorted({r.response().status for r in polls[name]})) for name in pages
        }
        per_change: dict[str, list[int]] = {name: [] for name in pages}
        shown: dict[str, list[str]] = {name: [] for name in pages}
        for n in range(args.changes):
            for name in pages:
                log[name].clear()
            winner, discarder = seats[n % len(seats)]
            version = call(
                base, f"/api/tables/{table_id}/hands", {**HAND, "winner": winner, "discarder": discarder}, token
            )["version"]
            for page in opened.values():
                page.wait_for_selector(f'#live[data-version="{version}"]', timeout=30_000)
            opened["edit page"].wait_for_timeout(1500)  # a request begun as the page changed finishes
            for name in pages:
                sizes = []
                for request in log[name]:
                    response = request.response()
                    body = sent(request)
                    sizes.append(body)
                    if n == 0:
                        path = request.url.replace(base, "").replace(token, "<token>")
                        status = response.status if response else "no answer"
                        whole = f" ({len(response.body()):,} unpacked)" if request in FINISHED and body else ""
                        shown[name].append(f"    {request.method} {path} → {status}, {body:,} bytes{whole}")
                per_change[name].append(sum(sizes))
        browser.close()
    print(f"a table of {args.hands} hands, {args.changes} changes (load {os.getloadavg()[0]:.1f})")
    for name in pages:
        idle_sizes, statuses = idle[name]
        print(f"{name}: a change costs {statistics.median(per_change[name]):,.0f} bytes (median), in:")
        print("\n".join(shown[name]))
        print(f"  a poll while nothing changed: {statistics.median(idle_sizes or [0]):,.0f} bytes, status {statuses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
