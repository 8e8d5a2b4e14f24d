"""Databases of a test's own, for the scripts that race threads against them (race.py, prune_race.py, faults.py):
a new PostgreSQL database on the server named by TEST_POSTGRES_URL, and Django set up on a given database in a
script's process, migrated, with the rate limiter counting as in production."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def postgres_database(prefix: str) -> Iterator[str]:
    """The URL of a new, empty database on TEST_POSTGRES_URL's server, dropped afterwards (the test is skipped
    without the server: scripts/test starts one)."""
    import pytest

    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        pytest.skip("TEST_POSTGRES_URL is not set (scripts/test starts a PostgreSQL server and sets it)")
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def setup_django(url: str, conn_max_age: str = "0") -> None:
    """Django on `url` in this (script's) process, migrated; every request counted by the rate limiter (its writes
    on every request are part of what is tested), under limits no test reaches."""
    sys.path.insert(0, str(ROOT))
    os.environ.update(
        DATABASE_URL=url,
        DB_CONN_MAX_AGE=conn_max_age,
        DJANGO_SETTINGS_MODULE="calculator.settings",
        DJANGO_ENV="test",
        RATE_LIMIT_ENABLED="1",
        RATE_LIMIT_READ="1000000/60",
        RATE_LIMIT_WRITE="1000000/60",
        RATE_LIMIT_CREATE="1000000/60",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
