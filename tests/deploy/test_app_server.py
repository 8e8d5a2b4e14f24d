"""What gunicorn does by itself, reached without nginx (docs/deployment.md § Several machines: app servers behind a
load balancer): a client that connects to it directly cannot pick its address with X-Forwarded-For, nor claim
HTTPS with X-Forwarded-Proto; a locked database refuses writes (503) instead of letting them through."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import pytest

from tests.web.test_security import B1

from .deployment import app_server, outside_address

pytestmark = pytest.mark.xdist_group("deploy-app-server")


@pytest.fixture(scope="module")
def outside():
    return outside_address()


@pytest.fixture(scope="module")
def server(tmp_path_factory, outside):
    folder = tmp_path_factory.mktemp("app-server")
    with app_server(
        folder,
        f"sqlite:///{folder / 'db.sqlite3'}?timeout=1",  # a writer waits at most 1 s for SQLite's lock (5 s by default)
        host="0.0.0.0" if outside else "127.0.0.1",  # the direct client below connects to the machine's address
        RATE_LIMIT_CREATE="5/3600",
        SECURE_SSL_REDIRECT="0",
    ) as running:
        running.outside = outside
        yield running


def test_a_client_that_connects_directly_cannot_pick_its_address(server):
    """Issue 15: with the old default (PROXY_COUNT=1) a client reaching the app server directly chose its address
    in X-Forwarded-For, and 300 of 300 table creations went through. Only FORWARDED_ALLOW_IPS (loopback by default)
    are believed: this client connects from the machine's own network address."""
    if server.outside is None:
        pytest.skip("this machine has no network address besides loopback")
    import http.client

    statuses = []
    for n in range(8):
        conn = http.client.HTTPConnection(server.outside, server.app_port, timeout=10)
        conn.request(
            "POST",
            "/api/tables",
            json.dumps({"ruleset": "bazhi"}),
            {"Content-Type": "application/json", "Host": "mahjong.example.org", "X-Forwarded-For": f"203.0.113.{n}"},
        )
        statuses.append(conn.getresponse().status)
        conn.close()
    assert statuses == [201] * 5 + [429] * 3


def test_a_direct_client_cannot_claim_https(server):
    """X-Forwarded-Proto is believed from FORWARDED_ALLOW_IPS only (gunicorn's own check): a page asked over plain
    HTTP from elsewhere carries no HSTS header, though the client claims HTTPS."""
    if server.outside is None:
        pytest.skip("this machine has no network address besides loopback")
    import http.client

    conn = http.client.HTTPConnection(server.outside, server.app_port, timeout=10)
    conn.request("GET", "/rules/", headers={"Host": "mahjong.example.org", "X-Forwarded-Proto": "https"})
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("Strict-Transport-Security") is None
    trusted, _ = server.request("GET", "/rules/", direct=True)  # from loopback, as nginx: believed
    assert trusted.getheader("Strict-Transport-Security")


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
    with database_locked(server.sqlite_file):
        response, body = server.post_json("/api/score?lang=en", B1, direct=True)
        assert response.status == 503 and response.getheader("Retry-After") == "5"
        assert json.loads(body)["error"]["code"] == "busy"
        assert server.request("GET", "/healthz", direct=True)[0].status == 503
        assert server.request("GET", "/rules/", direct=True)[0].status == 200  # a read goes through, uncounted
    assert server.request("GET", "/healthz", direct=True)[0].status == 200
    assert server.post_json("/api/score", B1, direct=True)[0].status == 200
