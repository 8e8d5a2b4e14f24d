"""Issue 31: heavy reads cost another client nothing it can feel. Through the deployment (nginx in front of
gunicorn, two workers, the production rate limits): another client's score p99 stays under 2× its idle p99
while one client polls a 1,000-hand table every 2 s, each poll answered in full (the live part as a page gets it
when the table has changed: `live/?v=0`, ~230 KB).

Each gunicorn worker answers on four threads (deploy/gunicorn.env), so a score that nginx sends to a worker drawing
the table runs beside it instead of after it; the lanes, thread priorities and interpreter switch interval that did
this before (calculator/plumbing/lanes.py, calculator/asgi.py) are gone. The
harsher run (8 readers at one address, 8.5 heavy reads a second) is `scripts/load.py --scenarios starve`."""

from __future__ import annotations

import pytest

from .deployment import deployed
from .scenarios import Target, beside_a_heavy_reader, percentile

pytestmark = pytest.mark.serial  # a ratio of latencies: nothing else may run beside it

SECONDS = 6  # of each kind of window, in three rounds


def test_a_client_polling_a_1000_hand_table_every_2_s_costs_another_clients_scores_under_2x(tmp_path):
    with deployed(tmp_path, workers=2) as site:
        table = site.big_table(1000)
        live = f"/tables/{table}/live/?v=0"
        assert site.request("GET", live)[0].status == 200
        run = beside_a_heavy_reader(Target(site.https_port), [live], period=2, seconds=SECONDS)
    assert set(run.outcomes) == {200} and sum(run.outcomes.values()) >= SECONDS // 2 - 2, run.outcomes
    assert max(run.idle + run.busy) < 30, "a score was refused"
    assert run.ratio < 2, (run.ratio, percentile(run.idle, 0.99), percentile(run.busy, 0.99))
