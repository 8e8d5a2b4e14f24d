"""Issue 31, finding 5 (and issues 15, 20 before it): no edit token reaches any log line, whatever the spelling of
the URL and whatever the answer (404s included): the app's log (its access lines and Django's, in both formats),
gunicorn's own lines, nginx's access log (deploy/nginx.conf's `mahjong` format) and its error logs. Every request
goes through the real deployment; then every log file is searched for the token.

Before: the app's log kept the token in 11 lines for the spellings `edit;/`, `edit\\`, `edit%09/`, `edit%23` and
`?token[]=` (calculator/plumbing/edit_tokens.py redacted only `edit` followed by a slash)."""

from __future__ import annotations

import json
import random
import re

import pytest

from .deployment import HOST, deployed

pytestmark = pytest.mark.xdist_group("deploy-logs")

SEPARATORS = ["/", "//", "/./", "%2F", "%2f", ";/", ";", "\\", "%5C", "%5c", "%09/", "%09", "%23", "%3B/", "%00/"]
SEPARATORS += ["%20/", "/;/", "/%2e/", "%252F", "%3F", "#", ".", ",", "!/"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with deployed(tmp_path_factory.mktemp("logs"), workers=2, RATE_LIMIT_ENABLED="0") as deployment:
        yield deployment


def create_table(site) -> dict:
    body = {"ruleset": "bazhi", "players": {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}}
    response, data = site.post_json("/api/tables", body)
    assert response.status == 201, data
    return json.loads(data)


def send(site, method: str, target: str, headers: dict | None = None) -> int:
    """One request with `target` written into the request line exactly as given; the status (0: the connection was
    closed without an answer)."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return site.raw(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))[0]


def issue_spellings(table: dict) -> list[str]:
    """The spellings of issue 31, finding 5, each with the real token."""
    tid, token = table["id"], table["edit_token"]
    return [
        f"/tables/{tid}/edit;/{token}/",
        f"/tables/{tid}/edit\\{token}/",
        f"/tables/{tid}/edit%09/{token}/",
        f"/tables/{tid}/edit%23{token}",
        f"/?table={tid}&token[]={token}",
        f"/?table={tid}&token%5B%5D={token}",
    ]


def spelled(word: str, rng: random.Random) -> str:
    """`word` in a random spelling: each letter in either case, some percent-encoded (either hex case)."""
    out = []
    for c in word:
        c = c.upper() if rng.random() < 0.3 else c
        if rng.random() < 0.25:
            code = f"%{ord(c):02x}"
            out.append(code.upper() if rng.random() < 0.5 else code)
        else:
            out.append(c)
    return "".join(out)


def fuzzed(table: dict, count: int, seed: int) -> list[str]:
    """`count` request targets carrying the token after an `edit` segment or in a `token` parameter, spelled at
    random (fixed seed)."""
    rng = random.Random(seed)
    tid, token = table["id"], table["edit_token"]
    targets = []
    for _ in range(count):
        if rng.random() < 0.7:
            before, after = rng.choice(["/", "//", "/./", "%2F", "\\"]), rng.choice(SEPARATORS)
            tail = rng.choice(["", "/", "/record/", "/draw/", "%00", ";x", "/..", "?hand=1m"])
            targets.append(f"/tables/{tid}{before}{spelled('edit', rng)}{after}{token}{tail}")
        else:
            name = spelled("token", rng) + rng.choice(["", "[]", "%5B%5D", "%5b%5d", "[0]"])
            sep = rng.choice(["&", ";", "%26", "&&"])
            targets.append(f"/?table={tid}{sep}{name}{rng.choice(['=', '%3D'])}{token}{rng.choice(['', '&x=1', '#f'])}")
    return targets


def assert_no_token_in_any_log(site, token: str, logged_before: int, sent: int) -> None:
    text = site.logs.text()
    assert token not in text
    for piece in {token[:16], token[-16:]}:  # nor a piece of it cut somewhere
        assert piece not in text
    # the lines are there, redacted: nginx logged every request
    assert len(site.logs.nginx_lines()) - logged_before >= sent
    assert "[redacted]" in text


def test_the_spellings_of_the_issue_bring_no_token_into_any_log(site):
    table = create_table(site)
    targets = issue_spellings(table)
    logged = len(site.logs.nginx_lines())
    statuses = [send(site, "GET", target) for target in targets]
    assert all(status and status < 500 for status in statuses), dict(zip(targets, statuses, strict=True))
    assert_no_token_in_any_log(site, table["edit_token"], logged, len(targets))
    app = [line for line in site.logs.app_lines() if table["id"] in json.dumps(line)]
    assert {line["logger"] for line in app} >= {"access", "django.request"}  # the app logged them, redacted


def test_a_fuzz_of_path_spellings_brings_no_token_into_any_log(site):
    table = create_table(site)
    targets = fuzzed(table, 120, seed=31)
    referers = [f"https://{HOST}{target}" for target in fuzzed(table, 20, seed=32)]
    logged = len(site.logs.nginx_lines())
    statuses = [send(site, "GET", target) for target in targets]
    statuses += [send(site, "GET", "/static/css/app.css", {"Referer": referer}) for referer in referers]
    statuses += [send(site, "POST", target) for target in targets[:20]]
    assert all(status < 500 for status in statuses), statuses  # an answer or a closed connection, never a 5xx
    assert_no_token_in_any_log(site, table["edit_token"], logged, len(statuses))


def test_the_real_edit_pages_and_their_referers_bring_no_token_into_any_log(site):
    table = create_table(site)
    edit = f"/tables/{table['id']}/edit/{table['edit_token']}/"
    bound = f"/?table={table['id']}&token={table['edit_token']}"
    logged = len(site.logs.nginx_lines())
    response, html = site.request("GET", edit)
    assert response.status == 200 and response.getheader("Cache-Control") == "no-store"
    assets = sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', html.decode())))
    for asset in assets:
        site.request("GET", asset, headers={"Referer": f"https://{HOST}{edit}"})
    for path in (bound, f"{edit}record/?hand=111345789p79m55s&win_tile=8m&winner=S&discarder=W", f"{edit}no/"):
        assert site.request("GET", path, headers={"Referer": f"https://{HOST}{bound}"})[0].status < 500
    assert_no_token_in_any_log(site, table["edit_token"], logged, 4 + len(assets))


def test_the_plain_log_format_is_redacted_too(tmp_path):
    with deployed(tmp_path, workers=1, LOG_FORMAT="plain", RATE_LIMIT_ENABLED="0") as plain:
        table = create_table(plain)
        targets = issue_spellings(table) + fuzzed(table, 30, seed=33)
        logged = len(plain.logs.nginx_lines())
        for target in targets:
            send(plain, "GET", target)
        assert_no_token_in_any_log(plain, table["edit_token"], logged, len(targets))
        assert "edit[redacted]" in plain.logs.app.read_text()
