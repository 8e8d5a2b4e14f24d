"""Issue 7: the per-client rate limit on writes (429 + Retry-After), counted in the database."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from calculator import ratelimit
from calculator.models import Table
from calculator.ratelimit.models import Bucket

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.RATE_LIMIT_ENABLED = True
    settings.RATE_LIMITS = {"write": "3/60", "create": "2/3600"}
    settings.PROXY_COUNT = 0
    return settings


def score(client: Client, **extra):
    return client.post("/api/score?lang=en", json.dumps(B1), content_type="application/json", **extra)


def test_the_fourth_write_in_a_minute_is_429_with_retry_after(client, limits):
    assert [score(client).status_code for _ in range(3)] == [200, 200, 200]
    response = score(client)
    assert response.status_code == 429
    assert response.json()["error"] == {"code": "rate_limited", "message": "too many requests: try again later"}
    assert 1 <= int(response["Retry-After"]) <= 60


def test_reads_are_not_limited_and_clients_are_counted_apart(client, limits):
    for _ in range(3):
        score(client)
    assert score(client).status_code == 429
    assert all(client.get("/").status_code == 200 for _ in range(5))
    assert score(client, REMOTE_ADDR="203.0.113.9").status_code == 200


def test_the_limit_is_off_by_default_under_tests(client, settings):
    assert settings.RATE_LIMIT_ENABLED is False
    assert all(score(client).status_code == 200 for _ in range(5))
    assert not Bucket.objects.exists()


def test_table_creation_has_its_own_lower_limit_and_a_refused_one_creates_nothing(client, limits):
    limits.RATE_LIMITS = {"write": "100/60", "create": "2/3600"}
    create = lambda: client.post("/api/tables", json.dumps({"ruleset": "bazhi"}), content_type="application/json")  # noqa: E731
    assert [create().status_code for _ in range(2)] == [201, 201]
    refused = create()
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) <= 3600
    assert Table.objects.count() == 2
    assert score(client).status_code == 200  # other writes still go through


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


@pytest.mark.parametrize(
    ("meta", "proxies", "client_id"),
    [
        ({"REMOTE_ADDR": "192.0.2.5"}, 0, "192.0.2.5"),
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, 1, "198.51.100.7"),
        # a client cannot choose its own address by sending X-Forwarded-For: the proxy appends the real one
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7"}, 1, "198.51.100.7"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.7, 10.0.0.1"}, 2, "198.51.100.7"),
        ({"REMOTE_ADDR": "192.0.2.5", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}, 0, "192.0.2.5"),
        ({"REMOTE_ADDR": "2001:db8:1:2:3:4:5:6"}, 0, "2001:db8:1:2::/64"),
        ({"REMOTE_ADDR": "::ffff:192.0.2.9"}, 0, "192.0.2.9"),
        ({"REMOTE_ADDR": "127.0.0.1"}, 1, "127.0.0.1"),  # no header: the proxy itself
    ],
)
def test_client_address(meta, proxies, client_id):
    assert ratelimit.client_address(meta, proxies) == client_id


@pytest.mark.parametrize("bad", ["600", "0/60", "x/60", "10/0", ""])
def test_a_malformed_rate_is_a_configuration_error(bad):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="count/seconds"):
        ratelimit.Rate.parse(bad)
