"""Issues 7 and 15: per-client rate limits counted in the database (429 + Retry-After), on SQLite and PostgreSQL.

Reads and writes have budgets of their own; the client's address comes from X-Forwarded-For only through trusted
proxies; a write the database cannot count is refused (503 `busy`), a read goes through.
"""

from __future__ import annotations

import json
import time
import types

import pytest
from django.test import Client

from calculator.models import Table
from calculator.plumbing import proxies, ratelimit
from calculator.plumbing.ratelimit.models import Bucket

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings, monkeypatch):
    """The limits on, and the limiter's clock held one second into a minute: its windows are fixed minutes of the
    clock, so a test that ran across the end of one (a busy machine) saw its count start again and a 429 it
    expected answered 200."""
    settings.RATE_LIMIT_ENABLED = True
    settings.RATE_LIMITS = {"read": "5/60", "write": "3/60", "create": "2/3600"}
    held = (int(time.time()) // 3600) * 3600 + 1.0  # also one second into an hour: the 2/3600 creation budget
    monkeypatch.setattr(ratelimit, "time", types.SimpleNamespace(time=lambda: held))
    return settings


def score(client: Client, **extra):
    return client.post("/api/score?lang=en", json.dumps(B1), content_type="application/json", **extra)


def create(client: Client, **extra):
    return client.post(
        "/api/tables?lang=en", json.dumps({"ruleset": "bazhi"}), content_type="application/json", **extra
    )


def test_the_fourth_write_in_a_minute_is_429_with_retry_after(client, limits):
    assert [score(client).status_code for _ in range(3)] == [200, 200, 200]
    response = score(client)
    assert response.status_code == 429
    assert response.json()["error"] == {"code": "rate_limited", "message": "too many requests: try again later"}
    assert 1 <= int(response["Retry-After"]) <= 60


def test_reads_have_a_budget_of_their_own(client, limits):
    """Changed by issue 15: reads were not counted at all (six clients re-reading a big table slowed every
    endpoint). They now count in their own, higher, budget: spent writes do not stop reads, nor the reverse."""
    for _ in range(3):
        score(client)
    assert score(client).status_code == 429
    assert [client.get("/").status_code for _ in range(5)] == [200] * 5
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 429 and "Too many requests" in page.content.decode()
    assert 1 <= int(page["Retry-After"]) <= 60
    assert client.get("/api/tables/nosuch?lang=en").json()["error"]["code"] == "rate_limited"
    assert score(client, REMOTE_ADDR="203.0.113.9").status_code == 200  # another client is counted apart
    assert client.get("/", REMOTE_ADDR="203.0.113.9").status_code == 200


def test_static_files_and_the_health_check_are_not_counted(client, limits):
    for _ in range(8):
        assert client.get("/static/css/app.css").status_code == 200
        assert client.get("/healthz").status_code == 200
    assert not Bucket.objects.exists()


def test_the_limit_is_off_by_default_under_tests(client, settings):
    assert settings.RATE_LIMIT_ENABLED is False
    assert all(score(client).status_code == 200 for _ in range(5))
    assert not Bucket.objects.exists()


def test_table_creation_has_its_own_lower_limit_and_a_refused_one_creates_nothing(client, limits):
    limits.RATE_LIMITS = {"read": "100/60", "write": "100/60", "create": "2/3600"}
    assert [create(client).status_code for _ in range(2)] == [201, 201]
    refused = create(client)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) <= 3600
    assert Table.objects.count() == 2
    assert score(client).status_code == 200  # other writes still go through


def test_a_forged_x_forwarded_for_from_a_client_that_connects_directly_is_ignored(client, limits):
    """Issue 15: with the default TRUSTED_PROXIES (loopback), a client connecting from its own address cannot pick
    another one per request."""
    limits.RATE_LIMITS = {"read": "100/60", "write": "100/60", "create": "2/3600"}
    answers = [create(client, REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}") for n in range(5)]
    assert [a.status_code for a in answers] == [201, 201, 429, 429, 429]
    assert Table.objects.count() == 2


def test_behind_a_trusted_proxy_each_forwarded_client_counts_apart(client, limits):
    limits.RATE_LIMITS = {"read": "100/60", "write": "100/60", "create": "2/3600"}
    for n in range(3):
        assert create(client, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code == 201
    assert create(client, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.1").status_code == 201
    assert create(client, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429


def test_the_page_post_is_limited_too_with_a_page(client, limits):
    form = {"ruleset": "bazhi", "hand": "111345789p79m55s", "winner": "S", "dealer": "E"}
    for _ in range(3):
        assert client.post("/", form).status_code != 429
    response = client.post("/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429 and "Too many requests" in response.content.decode()
    assert "Retry-After" in response


def test_the_count_starts_again_in_the_next_window(limits):
    t0 = 1_800_000_000.0  # a window boundary for a 60-second period
    verdicts = [ratelimit.hit("write", "198.51.100.1", now=t0 + i) for i in range(4)]
    assert [v.allowed for v in verdicts] == [True, True, True, False]
    assert verdicts[-1].retry_after == 57
    assert ratelimit.hit("write", "198.51.100.1", now=t0 + 60).allowed
    assert ratelimit.hit("write", "198.51.100.1", now=t0 + 60).count == 2


def test_finished_windows_are_swept(limits):
    t0 = 1_800_000_000.0
    ratelimit.hit("write", "198.51.100.1", now=t0)
    ratelimit.hit("create", "198.51.100.1", now=t0)
    ratelimit.hit("write", "198.51.100.2", now=t0 + 120)  # a new client, two windows later
    assert sorted(Bucket.objects.values_list("key", flat=True)) == ["create:198.51.100.1", "write:198.51.100.2"]


# ------------------------------------------------------------------------------------------ a database that cannot count


def test_writes_fail_closed_when_the_database_cannot_count(client, limits, read_only_database):
    """Issue 15: the limit failed open (every write went through uncounted). Now: 503 `busy` with Retry-After."""
    for response in (score(client), create(client)):
        assert response.status_code == 503
        assert response.json()["error"] == {"code": "busy", "message": "the server is busy: try again in a few seconds"}
        assert response["Retry-After"] == "5"
    page = client.post("/", {"ruleset": "bazhi", "hand": "1m"}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 503 and "Server busy" in page.content.decode() and page["Retry-After"] == "5"
    assert Table.objects.count() == 0


def test_reads_go_through_when_the_database_cannot_count(client, limits, read_only_database):
    assert [client.get("/").status_code for _ in range(8)] == [200] * 8  # over the read budget: not counted


def test_busy_is_said_in_chinese_by_default(client, limits, read_only_database):
    response = client.post("/api/score", json.dumps(B1), content_type="application/json")
    assert response.json()["error"]["message"] == "服务器正忙，请几秒后再试"


# ------------------------------------------------------------------------------------------ who the client is


LOOPBACK = proxies.parse_networks(proxies.DEFAULT_TRUSTED_PROXIES)
PROXIES = proxies.parse_networks("127.0.0.1, 10.0.0.0/8, 2001:db8:ffff::/48")


@pytest.mark.parametrize(
    ("meta", "trusted", "client_id"),
    [
        ({"REMOTE_ADDR": "192.0.2.5"}, LOOPBACK, "192.0.2.5"),
        # a client that reaches the server directly cannot choose its address with the header
        ({"REMOTE_ADDR": "192.0.2.5", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, LOOPBACK, "192.0.2.5"),
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, LOOPBACK, "198.51.100.7"),
        # behind a trusted proxy, what the client wrote left of the proxy's entry is ignored
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7"}, LOOPBACK, "198.51.100.7"),
        # several trusted hops (a load balancer in 10/8, then nginx on loopback) are walked past
        (
            {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7, 10.0.0.1"},
            PROXIES,
            "198.51.100.7",
        ),
        # ... but only trusted ones: an untrusted hop is the client, whatever it claims
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7, 10.0.0.1"}, LOOPBACK, "10.0.0.1"),
        # every hop trusted: the leftmost address is the client
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "10.0.0.9, 10.0.0.1"}, PROXIES, "10.0.0.9"),
        # an entry that is not an address stops the walk at the last proxy
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, unknown"}, LOOPBACK, "127.0.0.1"),
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": " [2001:db8:1:2::9] "}, LOOPBACK, "2001:db8:1:2::/64"),
        ({"REMOTE_ADDR": "::1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, LOOPBACK, "198.51.100.7"),
        ({"REMOTE_ADDR": "2001:db8:ffff:1::2", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, PROXIES, "198.51.100.7"),
        ({"REMOTE_ADDR": "2001:db8:1:2:3:4:5:6"}, LOOPBACK, "2001:db8:1:2::/64"),
        ({"REMOTE_ADDR": "::ffff:192.0.2.9"}, LOOPBACK, "192.0.2.9"),
        ({"REMOTE_ADDR": "::ffff:127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, LOOPBACK, "198.51.100.7"),
        ({"REMOTE_ADDR": "127.0.0.1"}, LOOPBACK, "127.0.0.1"),  # no header: the proxy itself
        ({"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, LOOPBACK, "198.51.100.7"),  # a Unix socket
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, [], "127.0.0.1"),  # none trusted
    ],
)
def test_client_address(meta, trusted, client_id):
    assert proxies.client_address(meta, trusted) == client_id


@pytest.mark.parametrize("bad", ["600", "0/60", "x/60", "10/0", ""])
def test_a_malformed_rate_is_a_configuration_error(bad):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="count/seconds"):
        ratelimit.Rate.parse(bad)


def test_a_malformed_trusted_proxy_is_a_configuration_error_that_names_it():
    from tests.web.test_security import manage, production_env

    done = manage("check", env=production_env(DEBUG="1", TRUSTED_PROXIES="127.0.0.1, nginx"))
    assert done.returncode != 0 and "TRUSTED_PROXIES: 'nginx' is neither an IP address nor a network" in done.stderr


def test_the_trusted_proxies_are_read_from_gunicorns_own_variable_too():
    """FORWARDED_ALLOW_IPS, which gunicorn reads to believe X-Forwarded-Proto, names the proxies for the rate limit's
    client address too (one setting for both, deploy/gunicorn.env); a bad entry is named with the variable."""
    from tests.web.test_security import manage, production_env

    done = manage("check", env=production_env(DEBUG="1", FORWARDED_ALLOW_IPS="127.0.0.1, nginx"))
    assert done.returncode != 0 and "FORWARDED_ALLOW_IPS: 'nginx' is neither an IP address nor a network" in done.stderr
