"""Fixtures shared by the ledger tests (which run on SQLite and again on PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.fixture
def read_only_database():
    """The test's database connection refuses every write from now on, as a read-only replica or a full disk
    would (SQLite: query_only; PostgreSQL: a read-only transaction, undone with the test's rollback)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only = ON")
        else:
            # the rows written so far are checked now, as their commit would check them (deferred foreign keys):
            # a read-only transaction cannot check them later
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET TRANSACTION READ ONLY")
    yield
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")
