"""Issue 7, end to end through the deployment an operator runs (docs/deployment.md): nginx with deploy/nginx.conf in
front of gunicorn with deploy/gunicorn.env, on an SQLite file. The HTTPS redirect, the security headers (the app's,
and nginx's on the refusals it makes itself), hashed and compressed static files, the app's caps on request lines
and headers, the JSON access log, the rate limit shared by the workers and counted per real client address."""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.web.test_security import B1

from .deployment import deployed

# the tests share one deployment (a module fixture): under xdist they run on one worker, which starts it once
pytestmark = pytest.mark.xdist_group("deploy-profile")

SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with deployed(tmp_path_factory.mktemp("profile"), RATE_LIMIT_WRITE="6/600", workers=2) as deployment:
        yield deployment


def raw_request(site, head: bytes, body: bytes = b"") -> tuple[int, dict, bytes]:
    """Send `head` (a request line and headers, without the blank line) and `body` as they are."""
    return site.raw(head + b"Host: mahjong.example.org\r\nConnection: close\r\n\r\n" + body)


def test_plain_http_is_redirected_to_https_by_nginx(site):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=10)
    conn.request("GET", "/rules/?lang=en", headers={"Host": "mahjong.example.org"})
    response = conn.getresponse()
    assert response.status == 301
    assert response.getheader("Location") == "https://mahjong.example.org/rules/?lang=en"


def test_pages_carry_the_security_headers(site):
    response, _ = site.request("GET", "/")
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security") == "max-age=31536000; includeSubDomains; preload"
    policy = response.getheader("Content-Security-Policy")
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert len(response.headers.get_all("Content-Security-Policy")) == 1  # nginx adds none of its own to the app's
    cookie = response.getheader("Set-Cookie") or ""
    assert "csrftoken=" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie


def test_static_files_are_hashed_compressed_and_cached_forever(site):
    _, html = site.request("GET", "/")
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', html.decode()).group(1)
    response, body = site.request("GET", css, headers={"Accept-Encoding": "gzip"})
    assert response.status == 200 and response.getheader("Content-Encoding") == "gzip"
    assert "immutable" in response.getheader("Cache-Control")
    assert body[:2] == b"\x1f\x8b"
    response, body = site.request("GET", css, headers={"Accept-Encoding": "identity"})
    assert response.status == 200 and len(body) > 2 * 8192 and body.count(b"{") > 100  # the whole file, in pieces


def test_unknown_pages_and_api_paths(site):
    response, html = site.request("GET", "/no/such/", headers={"Accept-Language": "en"})
    assert response.status == 404 and b"Page not found" in html and b"Traceback" not in html
    response, body = site.request("GET", "/api/no/such")
    assert response.status == 404 and json.loads(body)["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("what", "head", "status"),
    [
        ("a request line over 4,094 bytes", b"GET /api/score?q=" + b"x" * 4100 + b" HTTP/1.1\r\n", 414),
        ("61 headers", b"GET /api/score HTTP/1.1\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(60)), 431),
        ("a header over 8,190 bytes", b"GET /api/score HTTP/1.1\r\nX-Big: " + b"x" * 8200 + b"\r\n", 431),
    ],
)
def test_oversized_request_lines_and_headers_reach_the_app_and_are_refused_by_it(site, what, head, status):
    """nginx's buffers lie above the app's caps (large_client_header_buffers 4 16k), so the app answers as every
    error does: JSON under /api/, a page elsewhere, the security headers on both."""
    got, headers, body = raw_request(site, head)
    assert got == status, what
    assert headers["content-type"] == "application/json" and json.loads(body)["error"]["code"], what
    assert all(name in headers for name in SECURITY_HEADERS), (what, headers)
    page, page_headers, html = raw_request(site, head.replace(b"/api/score", b"/rules/", 1))
    assert page == status and b"<html" in html and all(name in page_headers for name in SECURITY_HEADERS), what


def test_a_malformed_header_is_refused_by_nginx_and_never_reaches_the_app(site):
    """A header line nginx cannot parse (a space in its name) ends the request there: 400, nginx's own page, with
    the headers every answer carries and a policy that runs nothing; the app never sees it."""
    status, headers, _ = raw_request(site, b"GET /healthz?malformed HTTP/1.1\r\nBad Header: x\r\n")
    assert status == 400 and headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert all(name in headers for name in SECURITY_HEADERS), headers
    assert not [line for line in site.logs.app_lines() if line.get("query") == "malformed"]


def test_a_body_over_nginx_cap_is_refused_at_once_with_the_security_headers(site):
    """A body declared over client_max_body_size (300 KiB) is refused by nginx before a byte of it is read: 413 at
    once, with the headers every answer carries."""
    started = time.monotonic()
    head = b"POST /api/score HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n"
    status, headers, _ = raw_request(site, head, b'{"ruleset":')
    assert status == 413 and time.monotonic() - started < 2
    assert headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert all(name in headers for name in SECURITY_HEADERS), headers


def test_a_body_over_the_apps_cap_but_under_nginx_is_refused_by_the_app(site):
    body = b'{"ruleset": "' + b"x" * 70_000 + b'"}'
    head = b"POST /api/score HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    status, headers, answer = raw_request(site, head, body)
    assert status == 413 and json.loads(answer)["error"]["code"] == "too_large"


def test_the_rate_limit_is_shared_by_the_workers_and_counts_each_client_apart(site):
    """Six writes per client per window (RATE_LIMIT_WRITE=6/600): ten at once, over both workers, get six answers
    and four 429s; a per-process counter would let up to twelve through. Another address is another client: what
    it writes into X-Forwarded-For is not believed (nginx appends the address it saw)."""

    def post(_):
        response, _ = site.post_json("/api/score", B1, source="127.0.0.7")
        return response.status, response.getheader("Retry-After")

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(post, range(10)))
    assert sorted(status for status, _ in answers) == [200] * 6 + [429] * 4, answers
    assert all(int(retry) > 0 for status, retry in answers if status == 429)
    response, _ = site.post_json("/api/score", B1, source="127.0.0.7", headers={"X-Forwarded-For": "203.0.113.5"})
    assert response.status == 429  # a name in the header is no new client
    response, _ = site.post_json("/api/score", B1, source="127.0.0.8")
    assert response.status == 200  # another address is

    lines = [line for line in site.logs.app_lines() if line["logger"] == "access"]
    lines = [line for line in lines if line["forwarded_for"].endswith(("127.0.0.7", "127.0.0.8"))]
    assert {line["status"] for line in lines} == {200, 429}
    assert len({line["worker"] for line in lines}) == 2, "both workers answered"
