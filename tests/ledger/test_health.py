"""Issue 15: `/healthz` answers 200 only when the database takes a write (an UPDATE of no row, rolled back), on
SQLite and PostgreSQL, and carries the security headers of every other answer."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calculator.models import Table

pytestmark = pytest.mark.django_db


def test_a_database_that_takes_writes_is_healthy_and_nothing_changes(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert any(q["sql"].startswith("UPDATE") for q in queries.captured_queries)
    assert not Table.objects.exists()


def test_a_database_that_refuses_writes_is_unhealthy(client, read_only_database):
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "database unavailable"}


def test_the_health_check_carries_the_security_headers(client):
    page = client.get("/")
    health = client.get("/healthz")
    for header in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
        assert health[header] == page[header], header
