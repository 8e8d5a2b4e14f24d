"""Issue 7, end to end: the production setup an operator runs (README § Deployment), on a temporary SQLite file.

collectstatic + migrate, then the server (`python -m calculator.plumbing.server`) with two workers, behind a pretend proxy (the test sends
X-Forwarded-Proto / X-Forwarded-For as nginx would). Checks the HTTPS redirect and headers, hashed and compressed
static files from whitenoise, the JSON access log, and that the rate limit is shared by both worker processes.
"""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .gunicorn import running
from .test_security import B1


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    with running(tmp_path_factory.mktemp("production"), RATE_LIMIT_WRITE="6/600", WEB_CONCURRENCY="2") as server:
        server.wait_for_workers(2)  # the rate limit test needs both workers up, not only the first
        yield server


def test_plain_http_is_redirected_to_https(production):
    response, _ = production.request("GET", "/rules/", https=False)
    assert response.status == 301 and response.getheader("Location") == "https://mahjong.example.org/rules/"


def test_pages_carry_the_security_headers(production):
    response, html = production.request("GET", "/")
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security") == "max-age=31536000; includeSubDomains; preload"
    policy = response.getheader("Content-Security-Policy")
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    cookie = response.getheader("Set-Cookie") or ""
    assert "csrftoken=" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie


def test_static_files_are_hashed_compressed_and_cached_forever(production):
    _, html = production.request("GET", "/")
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', html.decode()).group(1)
    response, body = production.request("GET", css, headers={"Accept-Encoding": "gzip"})
    assert response.status == 200 and response.getheader("Content-Encoding") == "gzip"
    assert "immutable" in response.getheader("Cache-Control")
    assert body[:2] == b"\x1f\x8b"
    # collectstatic wrote the hashed file and its compressed twin
    name = css.rsplit("/", 1)[1]
    assert (production.static_root / "css" / name).exists() and (production.static_root / "css" / f"{name}.gz").exists()


def test_unknown_pages_and_api_paths(production):
    response, html = production.request("GET", "/no/such/", headers={"Accept-Language": "en"})
    assert response.status == 404 and b"Page not found" in html and b"Traceback" not in html
    response, body = production.request("GET", "/api/no/such")
    assert response.status == 404 and json.loads(body)["error"]["code"] == "not_found"


def test_the_rate_limit_is_shared_by_the_workers_and_the_log_is_json(production):
    """Six writes per client per window (RATE_LIMIT_WRITE=6/600): ten at once, over both workers, get six answers
    and four 429s; a per-process counter would let up to twelve through."""

    def post(_):
        response, body = production.request(
            "POST", "/api/score", body=json.dumps(B1), headers={"Content-Type": "application/json"}
        )
        return response.status, response.getheader("Retry-After")

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(post, range(10)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * 6 + [429] * 4, answers
    assert all(int(retry) > 0 for status, retry in answers if status == 429)
    # another client is counted apart
    response, _ = production.request(
        "POST",
        "/api/score",
        body=json.dumps(B1),
        headers={"Content-Type": "application/json", "X-Forwarded-For": "203.0.113.5"},
    )
    assert response.status == 200

    time.sleep(0.5)
    lines = [json.loads(line) for line in production.log_path.read_text().splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "access" and line["path"] == "/api/score"]
    assert len(access) == 11 and {line["status"] for line in access} == {200, 429}
    assert len({line["worker"] for line in access}) == 2, "both workers answered"
    assert all(line["forwarded_for"] for line in access)
