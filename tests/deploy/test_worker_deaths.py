"""Issue 31, finding 3: a worker that dies, any number of times and however fast, is replaced by the app server's
master, and the service answers again within 10 s; nothing it acknowledged is lost. Through the deployment
(nginx in front of gunicorn, two workers, an SQLite file).

Before (granian as the server, `python -m calculator.plumbing.server`): two deaths of one worker within 5.5 s made
its master exit ("Worker crash loop detected, exiting", rc 1), taking the healthy workers with it, and nothing
answered again until something restarted the whole server. gunicorn's master replaces a killed worker every time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.web.test_security import B1

from .deployment import HOST, deployed

# the tests share one deployment (a module fixture): under xdist they run on one worker, which starts it once
pytestmark = pytest.mark.xdist_group("deploy-worker-deaths")

BACK_WITHIN = 10  # seconds: the service answers again this soon after the last death


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with deployed(tmp_path_factory.mktemp("deaths"), workers=2, RATE_LIMIT_ENABLED="0") as deployment:
        yield deployment


def score(site) -> int:
    try:
        return site.post_json("/api/score", B1, timeout=10)[0].status
    except OSError:
        return 0


def answers_again(site) -> float:
    """Seconds until a score and /healthz both answer 200 through nginx."""
    started = time.monotonic()
    while True:
        try:
            healthy = site.request("GET", "/healthz", timeout=5)[0].status == 200
        except OSError:
            healthy = False
        if healthy and score(site) == 200:
            return time.monotonic() - started
        assert time.monotonic() - started < 60, "nothing answered for 60 s"
        time.sleep(0.1)


def test_a_killed_worker_is_replaced_and_loses_no_acknowledged_write(site):
    _, body = site.post_json("/api/tables", {"ruleset": "bazhi", "stake": 1_000_000})
    table = json.loads(body)
    hand = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}

    def write(n: int) -> bool:
        """Whether the write was acknowledged: its answer's status line said 201. The kill may cut an answer after
        its status line (nginx passes the headers on before the body): the hand was stored before the answer
        began, so it counts, body or not."""
        conn = site.connection()
        try:
            body = json.dumps({**hand, "idempotency_key": f"k{n}"})
            headers = {
                "Host": HOST,
                "Content-Type": "application/json",
                "Authorization": f"Bearer {table['edit_token']}",
            }
            conn.request("POST", f"/api/tables/{table['id']}/hands", body=body, headers=headers)
            response = conn.getresponse()
            with contextlib.suppress(http.client.IncompleteRead):
                response.read()
            return response.status == 201
        except OSError:  # no answer at all (refused, reset before the status line)
            return False
        finally:
            conn.close()

    before = site.workers()
    with ThreadPoolExecutor(4) as pool:
        writes = [pool.submit(write, n) for n in range(40)]
        time.sleep(0.3)
        os.kill(min(before), signal.SIGKILL)
        acknowledged = sum(w.result() for w in writes)
    assert answers_again(site) < BACK_WITHIN
    _, body = site.request("GET", f"/api/tables/{table['id']}")
    assert json.loads(body)["hands_total"] >= acknowledged > 0
    assert len(site.workers()) == 2 and min(before) not in site.workers()


def test_workers_killed_again_and_again_are_replaced_every_time(site):
    """Both workers killed with SIGKILL every second for 8 s (16 deaths, each worker's next one 1 s after its last
    replacement): the master replaces them all along, and the service answers again within 10 s of the last."""
    master = site.gunicorn.pid
    killed = 0
    until = time.monotonic() + 8
    while time.monotonic() < until:
        for pid in site.workers():
            os.kill(pid, signal.SIGKILL)
            killed += 1
        time.sleep(1.0)
    assert killed >= 12
    assert site.gunicorn.poll() is None, "the master exited"
    took = answers_again(site)
    assert took < BACK_WITHIN, took
    assert site.gunicorn.pid == master and len(site.workers()) == 2


@pytest.mark.serial  # timing: the new workers must start while requests go on
def test_a_reload_replaces_every_worker_without_refusing_a_request(site):
    """SIGHUP (`systemctl reload`): gunicorn starts new workers on the code as it is now and stops the old ones
    once they have finished what they answer; every request meanwhile is answered 200."""
    answers_again(site)
    before = site.workers()
    statuses = []
    site.gunicorn.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while len(site.workers() - before) < 2 or len(statuses) < 20 or site.workers() & before:
        assert time.monotonic() < deadline, f"after 30 s, workers {site.workers()}, before {before}"
        statuses.append(score(site))
        time.sleep(0.05)
    assert set(statuses) == {200}, {s: statuses.count(s) for s in set(statuses)}
