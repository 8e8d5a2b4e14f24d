"""Issue 20: the production server (granian) keeps what gunicorn gave: a worker killed with SIGKILL is replaced and
loses nothing it acknowledged, and SIGHUP (`systemctl reload`) replaces every worker without a refused request."""

from __future__ import annotations

import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .gunicorn import running
from .test_security import B1


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(
        tmp_path_factory.mktemp("restarts"), WEB_CONCURRENCY="2", RATE_LIMIT_ENABLED="0", SERVER_RELOAD_DELAY="3"
    ) as live:
        live.wait_for_workers(2)
        yield live


def workers(server) -> set[int]:
    lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    return {line["worker"] for line in lines if line.get("logger") == "access"}


def score(server) -> int:
    try:
        response, _ = server.request("POST", "/api/score", json.dumps(B1), {"Content-Type": "application/json"})
    except OSError:
        return 0
    return response.status


def test_a_killed_worker_is_replaced_and_loses_no_acknowledged_write(server):
    _, body = server.request(
        "POST",
        "/api/tables",
        json.dumps({"ruleset": "bazhi", "stake": 1_000_000}),
        {"Content-Type": "application/json"},
    )
    table = json.loads(body)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {table['edit_token']}"}
    hand = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}

    def write(n: int) -> bool:
        try:
            response, _ = server.request(
                "POST", f"/api/tables/{table['id']}/hands", json.dumps({**hand, "idempotency_key": f"k{n}"}), headers
            )
        except OSError:
            return False
        return response.status == 201

    before = workers(server)
    with ThreadPoolExecutor(4) as pool:
        writes = [pool.submit(write, n) for n in range(40)]
        time.sleep(0.3)
        os.kill(min(before), signal.SIGKILL)
        acknowledged = sum(w.result() for w in writes)
    deadline = time.monotonic() + 20
    while score(server) != 200:
        assert time.monotonic() < deadline, "no worker answered after the kill"
        time.sleep(0.2)
    _, body = server.request("GET", f"/api/tables/{table['id']}")
    assert json.loads(body)["hands_total"] >= acknowledged > 0
    while not workers(server) - before:  # a new worker takes the killed one's place
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda _: score(server), range(8)))


def test_a_reload_replaces_every_worker_without_refusing_a_request(server):
    """Each worker in turn is started anew and the old one stopped SERVER_RELOAD_DELAY (3 s here) later; requests
    go on being answered all along, by the old workers and then the new ones."""
    time.sleep(3)  # a worker that is still starting up (after the test above) would not hear the signal
    before = workers(server)
    statuses = []
    server.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while len(workers(server) - before) < 2 or len(statuses) < 10:
        assert time.monotonic() < deadline, f"only {workers(server) - before} of 2 workers started anew"
        statuses.append(score(server))
        time.sleep(0.05)
    assert set(statuses) == {200}, {s: statuses.count(s) for s in set(statuses)}
