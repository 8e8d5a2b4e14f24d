"""Issue 20, finding 4: faults are 503, never 500, and change nothing; reads keep working while the database can be
read; `/healthz` fails when a write cannot land.

The first tests run in the suite's own database (SQLite, and PostgreSQL in the second pass), made read-only for the
test. The ones marked `serial` break a database of their own, in a subprocess (tests/ledger/faults.py): an SQLite
file that fills, an SQLite file opened read-only, a PostgreSQL server restarted in the middle of a write burst.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.test import Client

from calculator.models import Card, Event, Hand, Table
from tests.ledger.client import Api, post
from tests.ledger.hands import B1
from tests.ledger.pgcluster import Cluster, binaries

pytestmark = pytest.mark.django_db

FAULTS = Path(__file__).with_name("faults.py")
BUSY_ZH = "服务器暂时无法读写数据，这次什么也没有记下：请几秒后再试"
BUSY_EN = "the server cannot store anything just now, and nothing was recorded: try again in a few seconds"


@pytest.fixture
def played(client, request):
    """A table with a hand and a drawn hand; then the database refuses every write (conftest.read_only_database)."""
    api = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", B1)
    api.ok("draw")
    request.getfixturevalue("read_only_database")
    return api


def counts() -> tuple[int, int, int, int]:
    return Table.objects.count(), Card.objects.count(), Hand.objects.count(), Event.objects.count()


@pytest.mark.parametrize("lang, message", [("zh", BUSY_ZH), ("en", BUSY_EN)])
def test_an_api_write_the_database_refuses_is_503_busy_and_records_nothing(client, played, lang, message):
    before, version = counts(), played.get()["version"]
    for url, body, token in [
        (f"{played.url}/hands", {**B1, "idempotency_key": "k"}, played.token),
        (f"{played.url}/draw", None, played.token),
        (f"{played.url}/undo", None, played.token),
        ("/api/tables", {"ruleset": "bazhi"}, None),
    ]:
        response = post(client, f"{url}?lang={lang}", body, token)
        assert response.status_code == 503, url
        assert response.json() == {"error": {"code": "busy", "message": message}}
        assert response["Retry-After"] == "5"
    assert counts() == before and played.get()["version"] == version


@pytest.mark.parametrize("accept, lang, message", [("zh-hans", "zh-hans", BUSY_ZH), ("en", "en", BUSY_EN)])
def test_a_page_write_the_database_refuses_is_a_503_page_in_the_visitors_language(
    client, played, accept, lang, message
):
    before = counts()
    edit = played.created["edit_url"].removeprefix("http://testserver")
    for url, form in [(f"{edit}draw/", {"version": 2}), ("/tables/new/", {"ruleset": "bazhi", "dealer": "E"})]:
        page = client.post(url, form, HTTP_ACCEPT_LANGUAGE=accept)
        assert page.status_code == 503 and page["Retry-After"] == "5"
        html = page.content.decode()
        assert f'<html lang="{lang}"' in html and message in html
    assert counts() == before


def test_every_read_works_while_the_database_refuses_writes(client, played):
    table = played.get()
    assert (table["hands_total"], table["events_total"]) == (1, 1)
    edit = played.created["edit_url"].removeprefix("http://testserver")
    for url in (
        played.url,
        f"{played.url}?from=1&limit=1",
        f"/tables/{played.id}/",
        f"/tables/{played.id}/live/?v=0",
        f"/tables/{played.id}/export.csv",
        edit,
        "/",
    ):
        assert client.get(url).status_code == 200, url


class FailingMiddleware:
    """A middleware whose query fails as a lost connection would (outside any view)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.endswith("/fail"):
            raise OperationalError("server closed the connection unexpectedly")
        return self.get_response(request)


@pytest.mark.parametrize("url, json_answer", [("/api/fail", True), ("/tables/fail", False)])
def test_a_database_fault_outside_a_view_is_503_too(settings, url, json_answer):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.FailingMiddleware"]
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    if json_answer:
        assert response.json()["error"] == {"code": "busy", "message": BUSY_ZH}
    else:
        assert BUSY_ZH in response.content.decode()


@pytest.mark.parametrize("path", ["/api/tables/{id}", "/tables/{id}/", "/tables/{id}/export.csv", "/tables/{id}/live/"])
def test_a_table_deleted_while_it_is_read_is_404_not_500(client, path):
    # The clean-up may delete a table between two queries of a read (each sees the database as it is then).
    api = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", B1)
    deleted: list[str] = []

    def delete_after_the_table_row(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not deleted and sql.startswith("SELECT") and 'FROM "calculator_table"' in sql:
            deleted.append(sql)
            Table.objects.filter(pk=api.id).delete()
        return result

    with connection.execute_wrapper(delete_after_the_table_row):
        response = client.get(path.format(id=api.id))
    assert deleted and response.status_code == 404


# ---------------------------------------------------------------------------------------------------------
# A database of its own, broken for real (serial: they fill disks and restart servers)


def run_faults(*args: str) -> dict:
    done = subprocess.run([sys.executable, str(FAULTS), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.serial
@pytest.mark.own_database
def test_a_full_sqlite_database_answers_503_fails_the_health_check_and_loses_nothing(tmp_path):
    report = run_faults("full", str(tmp_path / "full.sqlite3"))
    statuses = [write["status"] for write in report["writes"]]
    # Hands land while there is room; then every one is refused with 503 busy (on main: 500 server_error).
    assert statuses[0] == 201 and statuses[-5:] == [503] * 5 and set(statuses) == {201, 503}
    assert all(w["code"] == "busy" and w["retry_after"] == "5" for w in report["writes"] if w["status"] == 503)
    full = report["while_full"]
    assert full["healthz"] == {"status": 503, "health": {"status": "failing", "failed": "write"}}  # main: 200 ok
    assert {read["status"] for read in full["reads"].values()} == {200}
    # Room again: the refused hands, sent again with their keys, land once each; nothing was lost or doubled.
    assert [again["status"] for again in report["again"]] == [201] * len(report["refused"])
    assert report["healthz_after"] == {"status": 200, "health": {"status": "ok"}}
    assert report["stored"] == [f"k{i}" for i in range(len(statuses))]


@pytest.mark.serial
@pytest.mark.own_database
@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_read_only_sqlite_file_serves_every_page_and_refuses_writes_with_503(tmp_path, journal):
    report = run_faults("readonly", str(tmp_path / "ro.sqlite3"), journal)
    assert report["journal_mode"] == journal
    for limiter in ("limiter", "no_limiter"):
        seen = report[limiter]
        for url, read in seen["reads"].items():
            assert read["status"] == (302 if url == "/trainer/" else 200), (limiter, url, read)
        assert seen["healthz"] == {"status": 503, "health": {"status": "failing", "failed": "write"}}
        for name, write in seen["writes"].items():
            assert write["status"] == 503 and write["retry_after"] == "5", (limiter, name, write)
            if name.startswith("api_"):
                assert write["code"] == "busy"
            else:
                assert write["lang"] == ("en" if name.endswith("_en") else "zh-hans")
    # Without the limiter the view itself meets the refusal and says that nothing was recorded.
    writes = report["no_limiter"]["writes"]
    assert writes["api_hand"]["message"] == BUSY_ZH and writes["api_create_en"]["message"] == BUSY_EN
    assert all(writes[name]["says_nothing_recorded"] for name in ("page_draw", "page_new_zh", "page_new_en"))
    assert report["no_limiter"]["score"]["status"] == 200  # scoring needs no database
    assert report["version"] == 2 and report["stored"] == [None]  # the hand and the draw; nothing since


@pytest.mark.serial
@pytest.mark.own_database
def test_a_postgresql_restart_in_the_middle_of_a_write_burst_loses_nothing_doubles_nothing_and_answers_no_500():
    bindir = binaries()
    if bindir is None:
        pytest.skip("no PostgreSQL binaries (/usr/lib/postgresql/*/bin); scripts/test installs them")
    cluster = Cluster(bindir).start()
    try:
        burst = subprocess.Popen(
            [sys.executable, str(FAULTS), "restart", cluster.url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert burst.stdout.readline().strip() == "writing"
        cluster.restart()
        out, err = burst.communicate(timeout=90)
        assert burst.returncode == 0, err[-3000:]
        report = json.loads(out.strip().splitlines()[-1])
    finally:
        cluster.stop()
    statuses = report["statuses"]
    assert set(statuses) <= {"201", "200", "503"}, statuses  # main: 500s beside the 503s
    assert statuses.get("503", 0) >= 1  # the restart did land in the burst
    assert len(report["acknowledged"]) == 4 * 15  # every phone's every hand was answered in the end
    assert report["stored"] == report["acknowledged"]  # each once: none lost, none doubled
    assert report["ns"] == list(range(1, 61))
