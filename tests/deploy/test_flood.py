"""Issue 31: a flood of fast clients is refused, never failed. Through the deployment (nginx in front of gunicorn,
two workers, SQLite and PostgreSQL, the production rate limits): 200 connections from 10 addresses sending requests back to back
(pages, partials, scores, a missing table), while a load balancer's probe asks /healthz: every answer is 200, 404,
429 or 503 (never a 500, 502 or 504), the limits did refuse some (nginx's cap on requests in the app server, 503
`busy`; the app's rate limits, 429), and every probe is answered 200 (its own upstream, without the cap).

The full size is `scripts/load.py --scenarios flood`."""

from __future__ import annotations

import pytest

from .deployment import deployed
from .scenarios import Target, flood, percentile

pytestmark = pytest.mark.serial  # the machine's whole capacity is used


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_flood_is_answered_429_or_503_never_500_and_healthz_answers(tmp_path, database):
    with deployed(tmp_path, database, workers=2, RATE_LIMIT_READ="300/60", RATE_LIMIT_WRITE="100/60") as site:
        run = flood(Target(site.https_port), connections=200, clients=10, seconds=6)
    assert not run.unexpected, run.statuses
    refused = run.statuses.get(429, 0) + run.statuses.get(503, 0)
    assert refused > 0 and run.statuses.get(200, 0) > 0, run.statuses
    assert run.probes and set(run.probes) == {200}, run.probes
    assert percentile(run.waits, 0.99) < 5, run.waits
