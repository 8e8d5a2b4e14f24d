"""`/healthz` (API.md): 200 only when the database reads and a write really lands (a heartbeat row of this
machine, committed), else 503 naming the check that failed; on SQLite and PostgreSQL. Its answer carries the
security headers of every other answer. (A database too full for a hand: tests/ledger/test_faults.py.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calculator.models import Table
from calculator.plumbing import health
from calculator.plumbing.health import HEADROOM, HOST
from calculator.plumbing.health.models import Heartbeat

pytestmark = pytest.mark.django_db


def test_a_database_that_takes_writes_is_healthy_and_each_check_writes_its_heartbeat(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    first = Heartbeat.objects.get(host=HOST)
    assert len(bytes(first.headroom)) == HEADROOM
    assert client.get("/healthz").status_code == 200
    second = Heartbeat.objects.get(host=HOST)  # a new row; the machine's older one is gone
    assert second.id > first.id and second.at >= first.at and bytes(second.headroom) != bytes(first.headroom)
    assert not Table.objects.exists()  # no ledger data touched


def test_a_flood_of_probes_writes_one_heartbeat_a_second_and_a_failure_is_never_reused(client, settings):
    settings.HEALTH_CHECK_REUSE = 60
    health.forget()
    assert [client.get("/healthz").status_code for _ in range(5)] == [200] * 5
    assert Heartbeat.objects.filter(host=HOST).count() == 1 and len(writes(client)) == 0
    health.forget()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE calculator_table RENAME TO calculator_table_gone")
    assert [client.get("/healthz").json().get("failed") for _ in range(2)] == ["read", "read"]  # each checked


def writes(client) -> list[str]:
    """The statements one more probe sends that write."""
    with CaptureQueriesContext(connection) as queries:
        client.get("/healthz")
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "DELETE"))]


def test_a_database_that_refuses_writes_fails_the_write_check(client, read_only_database):
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "failing", "failed": "write"}


def test_a_database_that_cannot_be_read_fails_the_read_check(client):
    with connection.cursor() as cursor:  # undone with the test's transaction (DDL is transactional on both)
        cursor.execute("ALTER TABLE calculator_table RENAME TO calculator_table_gone")
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "failing", "failed": "read"}


def test_the_health_check_carries_the_security_headers(client):
    page = client.get("/")
    health = client.get("/healthz")
    for header in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
        assert health[header] == page[header], header
