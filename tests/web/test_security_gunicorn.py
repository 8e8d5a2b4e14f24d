"""Issue 15, against a real gunicorn run as in production (gunicorn.conf.py, two workers, a SQLite file):
edit tokens stay out of the log, slow clients cannot stall the workers, a client that connects directly cannot pick
its address with X-Forwarded-For, and a locked database refuses writes (503) instead of letting them through."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager

import pytest

from .gunicorn import free_port, outside_address, running
from .test_security import B1

READ_TIMEOUT = 3  # GUNICORN_READ_TIMEOUT of these servers: a slow client is cut off after 3 s


# the tests share one gunicorn (a module fixture): under xdist they run on one worker, which starts it once
pytestmark = pytest.mark.xdist_group("gunicorn-security")


@pytest.fixture(scope="module")
def outside():
    return outside_address()


@pytest.fixture(scope="module")
def server(tmp_path_factory, outside):
    tmp = tmp_path_factory.mktemp("gunicorn")
    binds = (f"{outside}:{free_port(outside)}",) if outside else ()
    with running(
        tmp,
        binds=binds,
        WEB_CONCURRENCY="2",
        GUNICORN_READ_TIMEOUT=str(READ_TIMEOUT),
        RATE_LIMIT_CREATE="5/3600",
        # Plain HTTP is served, not redirected: the direct client below speaks HTTP to gunicorn (a deployment without
        # a proxy ends TLS in gunicorn itself), and X-Forwarded-Proto from it is rightly not believed.
        SECURE_SSL_REDIRECT="0",
        # A writer waits at most 1 s for SQLite's lock (5 s by default), to keep the locked-database test short.
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}?timeout=1",
    ) as running_server:
        running_server.outside = binds[0].rsplit(":", 1) if binds else None
        yield running_server


def create_table(server, **headers) -> dict:
    body = json.dumps({"ruleset": "bazhi", "players": {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}})
    response, data = server.request("POST", "/api/tables", body, {"Content-Type": "application/json", **headers})
    assert response.status == 201, data
    return json.loads(data)


# ------------------------------------------------------------------------------------------ secrets out of the log


def token_bearing_requests(server, table: dict) -> list[tuple[str, str, dict]]:
    """What a phone holding the edit link asks for: (method, path, headers), the Referer as the browser sends it."""
    edit = f"/tables/{table['id']}/edit/{table['edit_token']}/"
    bound = f"/?table={table['id']}&token={table['edit_token']}"
    _, html = server.request("GET", edit)
    assets = sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', html.decode())))
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    from_edit = {"Referer": f"https://mahjong.example.org{edit}"}
    from_bound = {"Referer": f"https://mahjong.example.org{bound}"}
    return [
        ("GET", edit + "?created=1", {}),
        *[("GET", asset, from_edit) for asset in assets],
        ("GET", bound, from_edit),
        (
            "GET",
            bound + "&ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S",
            {"HX-Request": "true", **from_bound},
        ),
        ("GET", edit + "record/?ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&discarder=W", from_bound),
        ("GET", edit + "draw/", from_edit),  # 405: Django logs the path
        ("POST", edit + "draw/", from_edit),  # no CSRF token: 403, Django logs the path
        ("GET", edit + "no/such/page/", from_edit),  # 404: Django logs the path
    ]


def test_edit_tokens_never_reach_the_log_and_their_pages_are_private(server):
    table = create_table(server)
    token = table["edit_token"]
    for method, path, headers in token_bearing_requests(server, table):
        response, _ = server.request(method, path, headers=headers)
        assert response.status < 500, (method, path)
        if not path.startswith("/static/"):
            assert response.getheader("Cache-Control") == "no-store", path
            assert response.getheader("Referrer-Policy") == "same-origin", path
    log = server.log()
    assert token not in log
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "gunicorn.access" and table["id"] in json.dumps(line)]
    redacted = {field for line in access for field in ("path", "query", "referer") if "[redacted]" in line[field]}
    assert redacted == {"path", "query", "referer"}  # the lines are there, with the token taken out
    assert any("[redacted]" in line["message"] for line in lines if line["logger"].startswith("django"))


def test_the_read_only_page_is_not_made_private(server):
    table = create_table(server)
    response, _ = server.request("GET", f"/tables/{table['id']}/")
    assert response.status == 200 and response.getheader("Cache-Control") != "no-store"


def test_the_plain_log_format_is_redacted_too(tmp_path):
    with running(tmp_path, WEB_CONCURRENCY="1", LOG_FORMAT="plain") as plain:
        table = create_table(plain)
        for method, path, headers in token_bearing_requests(plain, table):
            plain.request(method, path, headers=headers)
        log = plain.log()
    assert table["edit_token"] not in log and "edit/[redacted]/" in log and "token=[redacted]" in log


# ------------------------------------------------------------------------------------------ slow clients


@contextmanager
def slow_header_clients(port: int, count: int = 3):
    """`count` connections that send a request's headers one byte a second, until the server hangs up."""
    stop = threading.Event()
    cut_after: list[float] = []

    def trickle():
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port)) as sock:
            for byte in b"GET / HTTP/1.1\r\nHost: mahjong.example.org\r\nX-Padding: " + b"x" * 100:
                if stop.is_set():
                    return
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    cut_after.append(time.monotonic() - started)
                    return
                time.sleep(1)

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)  # every slow client has started its request
    try:
        yield cut_after
    finally:
        stop.set()


@pytest.mark.serial  # gunicorn's deadlines in seconds, with margins that other test workers' load eats
def test_three_slow_header_clients_do_not_delay_other_requests(server):
    """Issue 15: three such connections stalled every sync worker for 30 s (gunicorn's timeout). Now each holds
    one thread of one worker at most, and other requests are answered as usual (two workers here)."""
    with slow_header_clients(server.port) as cut_after:
        took = []
        for _ in range(12):
            started = time.monotonic()
            response, _ = server.request("POST", "/api/score", json.dumps(B1), {"Content-Type": "application/json"})
            took.append(time.monotonic() - started)
            assert response.status == 200
            time.sleep(0.25)
        assert max(took) < 1.0, took
        time.sleep(READ_TIMEOUT)
        # ... and the server hangs up on them once their time to send the request is over
        assert len(cut_after) == 3 and all(t < READ_TIMEOUT + 3 for t in cut_after), cut_after


@pytest.mark.serial  # gunicorn's deadlines in seconds, with margins that other test workers' load eats
def test_a_body_that_does_not_arrive_in_time_is_a_400(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=READ_TIMEOUT + 5) as sock:
        sock.sendall(
            b"POST /api/score?lang=en HTTP/1.1\r\nHost: mahjong.example.org\r\nX-Forwarded-Proto: https\r\n"
            b"Content-Type: application/json\r\n"
            b"Content-Length: 200\r\n\r\n{"
        )
        started = time.monotonic()
        answer = b""
        while chunk := sock.recv(65536):  # until the server closes the connection
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"code": "bad_request"' in answer
    assert READ_TIMEOUT - 0.5 < time.monotonic() - started < READ_TIMEOUT + 2


# ------------------------------------------------------------------------------------------ who the client is


def test_a_client_that_connects_directly_cannot_pick_its_address(server):
    """Issue 15: with the old default (PROXY_COUNT=1) a client reaching gunicorn directly chose its address in
    X-Forwarded-For, and 300 of 300 table creations went through. Only the proxies in TRUSTED_PROXIES (loopback by
    default) are believed now: this client connects from the machine's own network address."""
    if server.outside is None:
        pytest.skip("this machine has no network address besides loopback")
    host, port = server.outside
    statuses = []
    for n in range(8):
        response, _ = server.request(
            "POST",
            "/api/tables",
            json.dumps({"ruleset": "bazhi"}),
            {"Content-Type": "application/json", "X-Forwarded-For": f"203.0.113.{n}"},
            host=host,
            port=int(port),
        )
        statuses.append(response.status)
    assert statuses == [201] * 5 + [429] * 3


# ------------------------------------------------------------------------------------------ a locked database


@contextmanager
def database_locked(path):
    """Another process holds SQLite's write lock, as a long write or a backup would."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_locked_database_refuses_writes_with_503_and_fails_the_health_check(server):
    with database_locked(server.database):
        response, body = server.request(
            "POST", "/api/score?lang=en", json.dumps(B1), {"Content-Type": "application/json"}
        )
        assert response.status == 503 and response.getheader("Retry-After") == "5"
        assert json.loads(body)["error"]["code"] == "busy"
        assert server.request("GET", "/healthz", https=False)[0].status == 503
        assert server.request("GET", "/rules/")[0].status == 200  # a read goes through, uncounted
    assert server.request("GET", "/healthz", https=False)[0].status == 200
    response, _ = server.request("POST", "/api/score", json.dumps(B1), {"Content-Type": "application/json"})
    assert response.status == 200


# ------------------------------------------------------------------------------------------ headers everywhere


def test_static_files_and_the_health_check_carry_the_security_headers(server):
    _, html = server.request("GET", "/")
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', html.decode()).group(1)
    for path, https in ((css, True), ("/healthz", False), ("/healthz", True)):
        response, _ = server.request("GET", path, https=https)
        assert response.status == 200, path
        assert "script-src 'self'" in response.getheader("Content-Security-Policy"), path
        assert response.getheader("X-Content-Type-Options") == "nosniff", path
        assert response.getheader("X-Frame-Options") == "DENY", path
        assert response.getheader("Referrer-Policy") == "same-origin", path
