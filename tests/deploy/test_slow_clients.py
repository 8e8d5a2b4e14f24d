"""Issue 31, finding 1: slow clients are nginx's to hold, never an app worker's. Through the deployment (nginx in
front of gunicorn, two workers): clients sending their headers or their bodies a byte a second, each from an
address of its own, while another client asks /healthz and scores a hand ten times a second: its p99 stays under
1 s and every answer is 200 (here 50 of each; 3 is the issue's smaller case, in the load script). A client slow
with its headers is cut off by client_header_timeout (408).

The full sizes (3, 50 and 1,000 clients for 60 s) are in `scripts/load.py --scenarios slow-header,slow-body`.
Before: against main's server (granian, no proxy), about 1,100 slow bodies made every request and /healthz time
out (the issue's run; `scripts/load.py --server granian-bridge --root <main> --proxy none --slow-clients 1000`)."""

from __future__ import annotations

import socket
import ssl
import time

import pytest

from .deployment import deployed
from .scenarios import Target, slow_clients

pytestmark = pytest.mark.xdist_group("deploy-slow")

SECONDS = 3


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with deployed(tmp_path_factory.mktemp("slow"), workers=2, RATE_LIMIT_ENABLED="0") as deployment:
        yield deployment


@pytest.mark.serial  # another client's waits are measured: nothing else may run beside it
@pytest.mark.parametrize("kind", ["header", "body"])
@pytest.mark.parametrize("clients", [50])
def test_slow_clients_hold_no_one_else_back(site, kind, clients):
    run = slow_clients(Target(site.https_port), kind, clients, SECONDS)
    assert not run.waits["errors"], run.waits["errors"]
    assert len(run.waits["/healthz"]) >= 10 and len(run.waits["/api/score"]) >= 10
    assert run.p99("/healthz") < 1 and run.p99("/api/score") < 1, (run.worst("/healthz"), run.worst("/api/score"))
    assert run.tally["connections"] >= clients, run.tally  # they were there, all of them


def test_a_client_slow_to_send_its_headers_is_cut_off_after_10_s(site):
    """client_header_timeout (10 s): the request line and headers must be whole by then; nginx answers 408 and
    closes (the app never hears of it)."""
    started = time.monotonic()
    context = ssl._create_unverified_context()  # noqa: S323 (the deployment's own certificate)
    with (
        socket.create_connection(("127.0.0.1", site.https_port), timeout=30) as plain,
        context.wrap_socket(plain, server_hostname="mahjong.example.org") as sock,
    ):
        sock.settimeout(1)
        answer = b""
        for byte in b"GET / HTTP/1.1\r\nHost: mahjong.example.org\r\nX-Padding: " + b"x" * 40:
            try:
                sock.sendall(bytes([byte]))
                answer = sock.recv(4096)  # an answer, or b"" once nginx has closed the connection
                break
            except TimeoutError:
                continue
            except OSError:
                break
    took = time.monotonic() - started
    assert 9 < took < 14, took
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:40]
