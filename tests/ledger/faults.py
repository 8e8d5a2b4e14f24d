"""Faults for real, on a database of its own (issue 20, finding 4): tests/ledger/test_faults.py runs this script and
judges the JSON report it prints. Every request goes through the whole stack (django.test.Client), the rate
limiter counting as in production.

- `full <sqlite file>`: a database that cannot grow (SQLite's max_page_count, set on every connection, makes
  "database or disk is full" happen exactly when the file is full). Hands are recorded until the database refuses
  them; then the health check, reads, and, once there is room again, the refused hands sent again with their keys.
- `readonly <sqlite file> <wal|delete>`: a database written in that journal mode, then opened read-only (what
  SQLite does with a file it may not write): every page and JSON read, every kind of write, the health check.
- `restart <postgresql url>`: WRITERS phones record HANDS hands each (each write sent again after a 503 until it is
  answered); the script prints "writing" once every phone is under way, so that the test restarts the server in
  the middle of the burst, and then its report.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

B1 = {"hand": "111345789p79m55s", "win_tile": "8m", "melds": [], "winner": "S", "discarder": "W", "flags": []}
CONFIG = {"ruleset": "bazhi", "stake": 1_000_000, "players": {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}}
WRITERS, HANDS = 4, 15
ROOM = 12  # pages (4 KiB) the full database may still grow by: room for a few hands
DEADLINE = 30  # seconds a phone keeps sending one write again (the restart takes one or two)


def client():
    from django.test import Client

    return Client(raise_request_exception=False)  # a view's exception is answered (500), as gunicorn would


def post_json(phone, url: str, body: dict, token: str | None = None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return phone.post(url, json.dumps(body), content_type="application/json", **headers)


def answer(response) -> dict:
    """What the report keeps of an answer: status, Retry-After, the error code, the page's language."""
    kept: dict = {"status": response.status_code}
    if "Retry-After" in response:
        kept["retry_after"] = response["Retry-After"]
    if response.get("Content-Type", "").startswith("application/json"):
        body = json.loads(response.content)
        if isinstance(body, dict) and "error" in body:
            kept["code"], kept["message"] = body["error"]["code"], body["error"]["message"]
        elif isinstance(body, dict) and set(body) <= {"status", "failed"}:
            kept["health"] = body
    elif response.get("Content-Type", "").startswith("text/html"):
        html = response.content.decode()
        kept["lang"] = html.split('<html lang="', 1)[1].split('"', 1)[0] if '<html lang="' in html else None
        kept["says_nothing_recorded"] = "什么也没有记下" in html or "nothing was recorded" in html
    return kept


def stored_keys(table_id: str) -> list[str]:
    from calculator.models import Hand

    return list(Hand.objects.filter(table_id=table_id).order_by("seq").values_list("idempotency_key", flat=True))


# ---------------------------------------------------------------------------------------------------------


def full(path: str) -> dict:
    from django.db import connection, connections
    from django.db.backends.signals import connection_created

    from calculator.tables.store import create_table

    table, token = create_table(CONFIG)
    limit: dict = {}

    def cap(sender, connection, **kwargs) -> None:
        if limit.get("pages"):
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA max_page_count = {limit['pages']}")

    connection_created.connect(cap)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        limit["pages"] = cursor.fetchone()[0] + ROOM  # a few hands more, then full
    connections.close_all()  # the test client keeps a connection: the next one gets the limit
    phone, url = client(), f"/api/tables/{table.id}/hands"
    writes, refused = [], []
    for i in range(300):
        response = post_json(phone, url, {**B1, "idempotency_key": f"k{i}"}, token)
        writes.append(answer(response))
        if response.status_code != 201:
            refused.append(f"k{i}")
        if len(refused) >= 5:
            break
    while_full = {
        "healthz": answer(phone.get("/healthz")),
        "reads": {
            path: answer(phone.get(path))
            for path in (f"/api/tables/{table.id}", f"/tables/{table.id}/", f"/tables/{table.id}/export.csv")
        },
    }
    limit["pages"] = None  # room again
    connections.close_all()
    again = [answer(post_json(phone, url, {**B1, "idempotency_key": key}, token)) for key in refused]
    return {
        "writes": writes,
        "refused": refused,
        "while_full": while_full,
        "again": again,
        "healthz_after": answer(phone.get("/healthz")),
        "stored": stored_keys(table.id),
    }


def readonly(path: str, journal: str) -> dict:
    from django.conf import settings
    from django.db import connection, connections

    from calculator.tables.store import create_table, record_event, record_hand

    table, token = create_table(CONFIG)
    record_hand(table.id, dict(B1))
    record_event(table.id, "draw")
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA journal_mode={journal.upper()}")
        mode = cursor.fetchone()[0]
    connections.close_all()
    connection.settings_dict["NAME"] = f"file:{path}?mode=ro"  # the file as SQLite opens one it may not write
    edit = f"/tables/{table.id}/edit/{token}/"
    reads = [
        "/",
        "/rules/",
        "/trainer/",
        "/tables/",
        "/tables/new/",
        f"/tables/{table.id}/",
        f"/tables/{table.id}/live/?v=0",
        f"/tables/{table.id}/export.csv",
        edit,
        f"{edit}record/",
        f"/api/tables/{table.id}",
        f"/api/tables/{table.id}?from=1&limit=1",
    ]
    report: dict = {"journal_mode": mode}
    for limiter in (True, False):  # the limiter refuses a write it cannot count; without it the view meets the fault
        settings.RATE_LIMIT_ENABLED = limiter
        phone = client()
        api = f"/api/tables/{table.id}"
        report["limiter" if limiter else "no_limiter"] = {
            "reads": {path: answer(phone.get(path)) for path in reads},
            "score": answer(post_json(phone, "/api/score", {**B1, "ruleset": "bazhi", "dealer": "E"})),
            "healthz": answer(phone.get("/healthz")),
            "writes": {
                "api_hand": answer(post_json(phone, f"{api}/hands", {**B1, "idempotency_key": "ro"}, token)),
                "api_draw": answer(post_json(phone, f"{api}/draw", {}, token)),
                "api_undo": answer(post_json(phone, f"{api}/undo", {}, token)),
                "api_create": answer(post_json(phone, "/api/tables", CONFIG)),
                "api_create_en": answer(post_json(phone, "/api/tables?lang=en", CONFIG)),
                "page_draw": answer(phone.post(f"{edit}draw/", {"version": 2})),
                "page_new_zh": answer(phone.post("/tables/new/", {"ruleset": "bazhi", "dealer": "E"})),
                "page_new_en": answer(
                    phone.post("/tables/new/", {"ruleset": "bazhi", "dealer": "E"}, HTTP_ACCEPT_LANGUAGE="en")
                ),
            },
        }
    connections.close_all()
    connection.settings_dict["NAME"] = path
    report["stored"] = stored_keys(table.id)
    report["version"] = json.loads(client().get(f"/api/tables/{table.id}").content)["version"]
    return report


def restart(url: str) -> dict:
    from django.db import close_old_connections, connections

    from calculator.tables.store import create_table

    table, token = create_table(CONFIG)
    answers: list[list] = [[] for _ in range(WRITERS)]
    acknowledged: list[list] = [[] for _ in range(WRITERS)]
    started = threading.Barrier(WRITERS + 1)
    going = [0] * WRITERS

    def phone(i: int) -> None:
        me = client()
        started.wait()
        try:
            for n in range(HANDS):
                key, give_up = f"p{i}-{n}", time.monotonic() + DEADLINE
                while time.monotonic() < give_up:
                    close_old_connections()  # what a real server does at each request's start (the test client does not)
                    try:
                        status = post_json(me, f"/api/tables/{table.id}/hands", {**B1, "idempotency_key": key}, token)
                        status = status.status_code
                    except Exception as error:  # the stack itself failed: a 500 by another name
                        status = f"{type(error).__name__}: {error}"
                    answers[i].append(status)
                    if status in (200, 201):
                        acknowledged[i].append(key)
                        break
                    time.sleep(0.2)  # 503 (Retry-After says 5 s; a phone in a test is impatient)
                going[i] += 1
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    started.wait()
    while min(going) < 3:
        time.sleep(0.02)
    print("writing", flush=True)  # the test restarts the server now
    for thread in threads:
        thread.join()
    connections.close_all()  # this thread's connection is from before the restart
    statuses: dict = {}
    for status in (s for per_phone in answers for s in per_phone):
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    from calculator.models import Hand

    return {
        "statuses": statuses,
        "acknowledged": sorted(k for per_phone in acknowledged for k in per_phone),
        "stored": sorted(stored_keys(table.id)),
        "ns": list(Hand.objects.filter(table_id=table.id).order_by("n").values_list("n", flat=True)),
    }


def main(scenario: str, target: str, *args: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.ledger.scratch import setup_django

    if scenario == "restart":
        setup_django(target, conn_max_age="60")  # persistent connections, as in production: the restart breaks them
        report = restart(target)
    else:
        setup_django(f"sqlite:///{target}")
        report = full(target) if scenario == "full" else readonly(target, *args)
    print(json.dumps(report, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *sys.argv[3:])
