"""Issues 15 and 20, against the real server run as in production (`python -m calculator.plumbing.server`, two
workers, a SQLite file): edit tokens stay out of the log however the URL is spelled, slow clients cannot hold other
requests back, oversized request lines and headers are refused by the app (JSON under /api/, with the security
headers), a client that connects directly cannot pick its address with X-Forwarded-For, and a locked database
refuses writes (503) instead of letting them through."""

from __future__ import annotations

import http.client
import json
import re
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager

import pytest

from .gunicorn import outside_address, running
from .test_security import B1

HEADER_TIMEOUT = 3  # SERVER_HEADER_TIMEOUT of these servers: a client slow to send its headers is cut off after 3 s

# the tests share one server (a module fixture): under xdist they run on one worker, which starts it once
pytestmark = pytest.mark.xdist_group("server-security")


@pytest.fixture(scope="module")
def outside():
    return outside_address()


@pytest.fixture(scope="module")
def server(tmp_path_factory, outside):
    tmp = tmp_path_factory.mktemp("server")
    with running(
        tmp,
        host="0.0.0.0" if outside else "127.0.0.1",  # the direct client below connects to the machine's address
        WEB_CONCURRENCY="2",
        SERVER_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
        RATE_LIMIT_CREATE="5/3600",
        # Plain HTTP is served, not redirected: the direct client below speaks HTTP to the server (as a deployment
        # without a proxy would after its own TLS), and X-Forwarded-Proto from it is rightly not believed.
        SECURE_SSL_REDIRECT="0",
        # A writer waits at most 1 s for SQLite's lock (5 s by default), to keep the locked-database test short.
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}?timeout=1",
    ) as running_server:
        running_server.outside = outside
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
    access = [line for line in lines if line["logger"] == "access" and table["id"] in json.dumps(line)]
    redacted = {field for line in access for field in ("path", "query", "referer") if "[redacted]" in line[field]}
    assert redacted == {"path", "query", "referer"}  # the lines are there, with the token taken out
    assert any("[redacted]" in line["message"] for line in lines if line["logger"].startswith("django"))


def misspelled_token_requests(table: dict) -> list[tuple[str, dict]]:
    """Issue 20, finding 6: the spellings of an edit link that reached the log, each as (path, headers)."""
    table_id, token = table["id"], table["edit_token"]
    return [
        ("/static/css/app.css", {"Referer": f"https://mahjong.example.org/tables/{table_id}/%65dit/{token}/"}),
        (f"/tables/{table_id}/%65dit/{token}/", {}),  # serves the edit page
        (f"/tables/{table_id}/EDIT/{token}/", {}),  # 404
        (f"/tables/{table_id}/%45DIT/{token}/", {}),
        (f"/tables/{table_id}/edit//{token}/", {}),
        (f"/tables/{table_id}/edit%2F{token}/", {}),
        (f"/tables/{table_id}/edit/{token}%00junk/", {}),
        (f"/tables/{table_id}/edit/{token};junk", {}),
        (f"/?table={table_id}&%74oken={token}", {"Referer": f"https://mahjong.example.org/?TOKEN={token}"}),
    ]


def test_no_spelling_of_the_edit_link_brings_its_token_into_the_log(server):
    table = create_table(server)
    for path, headers in misspelled_token_requests(table):
        response, _ = server.request("GET", path, headers=headers)
        assert response.status < 500, path
    log = server.log()
    assert table["edit_token"] not in log
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    mine = [line for line in lines if table["id"] in json.dumps(line)]
    assert {line["logger"] for line in mine} >= {"access", "django.request"}  # the lines are there, redacted


def test_the_read_only_page_is_not_made_private(server):
    table = create_table(server)
    response, _ = server.request("GET", f"/tables/{table['id']}/")
    assert response.status == 200 and response.getheader("Cache-Control") != "no-store"


def test_the_plain_log_format_is_redacted_too(tmp_path):
    with running(tmp_path, WEB_CONCURRENCY="1", LOG_FORMAT="plain") as plain:
        table = create_table(plain)
        for method, path, headers in token_bearing_requests(plain, table):
            plain.request(method, path, headers=headers)
        for path, headers in misspelled_token_requests(table):
            plain.request("GET", path, headers=headers)
        log = plain.log()
    assert table["edit_token"] not in log and "edit/[redacted]/" in log and "token=[redacted]" in log


# ------------------------------------------------------------------------------------------ slow clients


@contextmanager
def slow_clients(port: int, kind: str, count: int = 3):
    """`count` connections that send a request a byte a second (`kind`: its headers, or its body after whole
    headers), until the server hangs up or the block ends; yields how long each took to be cut off."""
    stop = threading.Event()
    cut_after: list[float] = []
    if kind == "header":
        first, trickle = b"", b"GET / HTTP/1.1\r\nHost: mahjong.example.org\r\nX-Padding: " + b"x" * 100
    else:
        first = (
            b"POST /api/score HTTP/1.1\r\nHost: mahjong.example.org\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200\r\n\r\n"
        )
        trickle = b"{" + b" " * 198

    def send():
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(first)
            for byte in trickle:
                if stop.is_set():
                    return
                try:
                    sock.sendall(bytes([byte]))
                    sock.settimeout(1)
                    if sock.recv(1) == b"":  # the server hung up
                        raise ConnectionResetError
                except TimeoutError:
                    continue
                except OSError:
                    cut_after.append(time.monotonic() - started)
                    return

    threads = [threading.Thread(target=send, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)  # every slow client has started its request
    try:
        yield cut_after
    finally:
        stop.set()


def answered_quickly(server, rounds: int = 8) -> list[float]:
    """`/healthz` and `POST /api/score` in turn, each answered 200: how long each took."""
    took = []
    for n in range(rounds):
        started = time.monotonic()
        if n % 2:
            response, _ = server.request("POST", "/api/score", json.dumps(B1), {"Content-Type": "application/json"})
        else:
            response, _ = server.request("GET", "/healthz", https=False)
        took.append(time.monotonic() - started)
        assert response.status == 200
        time.sleep(0.2)
    return took


@pytest.mark.serial  # the server's deadlines in seconds, with margins that other test workers' load eats
@pytest.mark.parametrize("kind", ["header", "body"])
def test_three_slow_clients_do_not_hold_back_other_requests(server, kind):
    """Issue 20: with three clients sending their headers a byte a second, the threaded gunicorn workers made other
    requests wait up to 10 s (and a slow body pinned a thread the same way). The server now reads headers in its
    own I/O threads and the body whole on its event loop before the app runs: nobody waits for a slow client (the
    full scenario, 3 to 50 clients for 60 s: scripts/load.py --scenarios slow-header,slow-body)."""
    with slow_clients(server.port, kind):
        took = answered_quickly(server)
    assert max(took) < 1.0, took


@pytest.mark.serial  # the server's deadlines in seconds, with margins that other test workers' load eats
def test_a_client_slow_to_send_its_headers_is_cut_off(server):
    with slow_clients(server.port, "header") as cut_after:
        time.sleep(HEADER_TIMEOUT + 1)
        assert len(cut_after) == 3 and all(t < HEADER_TIMEOUT + 3 for t in cut_after), cut_after


# ------------------------------------------------------------------------------------------ oversized requests


def raw_request(port: int, head: bytes, body: bytes = b"") -> tuple[int, dict, bytes]:
    """Send `head` (a request line and headers, without the blank line) and `body` as they are; the answer's
    status, headers (lower-case names) and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            head + b"Host: mahjong.example.org\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n" + body
        )
        response = http.client.HTTPResponse(sock)
        response.begin()
        content = response.read()
    return response.status, {name.lower(): value for name, value in response.getheaders()}, content


SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


@pytest.mark.parametrize(
    ("what", "head", "status"),
    [
        ("a request line over 4,094 bytes", b"GET /api/score?q=" + b"x" * 4100 + b" HTTP/1.1\r\n", 414),
        ("61 headers", b"GET /api/score HTTP/1.1\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(60)), 431),
        ("a header over 8,190 bytes", b"GET /api/score HTTP/1.1\r\nX-Big: " + b"x" * 8200 + b"\r\n", 431),
    ],
)
def test_oversized_request_lines_and_headers_are_refused_by_the_app(server, what, head, status):
    """Issue 20, finding 7: gunicorn refused these itself, with an HTML page and none of the security headers. The
    server now lets them through to the app's own caps (the same sizes), which answer as every error does."""
    got, headers, body = raw_request(server.port, head)
    assert got == status, what
    assert headers["content-type"] == "application/json" and json.loads(body)["error"]["code"], what
    assert all(name in headers for name in SECURITY_HEADERS), (what, headers)
    page, page_headers, html = raw_request(server.port, head.replace(b"/api/score", b"/rules/", 1))
    assert page == status and b"<html" in html and all(name in page_headers for name in SECURITY_HEADERS), what


def test_a_malformed_header_is_refused_by_the_server_with_an_empty_answer(server):
    """A header name the HTTP parser cannot read never reaches the app: the server answers 400 with an empty body
    and no content type, nothing a browser could render or run (README § Security: the proxy in front drops such
    headers before they get here)."""
    status, headers, body = raw_request(server.port, b"GET /api/score HTTP/1.1\r\nBad Header: x\r\n")
    assert status == 400 and body == b"" and "content-type" not in headers


def test_a_body_declared_too_large_is_refused_before_it_is_sent(server):
    """The body of a request the app refuses from its Content-Length alone is never read: 413 at once, though only
    its first bytes were sent."""
    started = time.monotonic()
    head = b"POST /api/score HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n"
    status, headers, body = raw_request(server.port, head, b'{"ruleset":')
    assert status == 413 and json.loads(body)["error"]["code"] == "too_large"
    assert time.monotonic() - started < 2


# ------------------------------------------------------------------------------------------ who the client is


def test_a_client_that_connects_directly_cannot_pick_its_address(server):
    """Issue 15: with the old default (PROXY_COUNT=1) a client reaching gunicorn directly chose its address in
    X-Forwarded-For, and 300 of 300 table creations went through. Only the proxies in TRUSTED_PROXIES (loopback by
    default) are believed now: this client connects from the machine's own network address."""
    if server.outside is None:
        pytest.skip("this machine has no network address besides loopback")
    host, port = server.outside, server.port
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


def test_a_static_file_larger_than_one_piece_arrives_whole(server):
    """The server streams a file in blocks (calculator/plumbing/wsgi_bridge.py): every block arrives, in order."""
    _, html = server.request("GET", "/")
    css = re.search(r'href="(/static/(css/app\.[0-9a-f]{12}\.css))"', html.decode())
    on_disk = (server.static_root / css.group(2)).read_bytes()
    assert len(on_disk) > 2 * 8192  # several of FileResponse's blocks
    response, body = server.request("GET", css.group(1), headers={"Accept-Encoding": "identity"})
    assert response.status == 200
    assert body == on_disk
