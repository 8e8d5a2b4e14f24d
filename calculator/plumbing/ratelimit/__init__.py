"""Per-client rate limits whose state lives in the database, shared by every worker and machine.

A fixed window per scope: `hit(scope, client)` counts the request in the current window and says whether it is
over the limit and how long until the window ends (the Retry-After of the 429).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class Rate:
    count: int
    period: int  # seconds

    @classmethod
    def parse(cls, text: str) -> Rate:
        try:
            count, _, period = str(text).partition("/")
            rate = cls(int(count), int(period))
        except ValueError:
            rate = None
        if rate is None or rate.count < 1 or rate.period < 1:
            raise ImproperlyConfigured(
                f"a rate limit is 'count/seconds' with both above 0, e.g. '600/60', not {text!r}"
            )
        return rate


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    count: int
    limit: int
    retry_after: int  # seconds until the current window ends


def rate_for(scope: str) -> Rate:
    return Rate.parse(settings.RATE_LIMITS[scope])


def hit(scope: str, client: str, now: float | None = None) -> Verdict:
    """Count one request of `client` in `scope` and say whether it is allowed.

    One statement (an upsert that returns the new count): every read of the site counts here, and on SQLite each
    write holds the one write lock, so the fewer statements the better."""
    from django.db import connection, transaction

    from calculator.plumbing.ratelimit.models import Bucket

    rate = rate_for(scope)
    now = time.time() if now is None else now
    window_end = (int(now) // rate.period + 1) * rate.period
    key = f"{scope}:{client}"[:200]
    table, key_, end, count_ = map(connection.ops.quote_name, (Bucket._meta.db_table, "key", "window_end", "count"))
    # atomic: inside a caller's transaction a refused statement (a read-only database) rolls back to a savepoint
    # instead of poisoning the caller's transaction; in autocommit it is the statement's own transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        # A row whose window is over starts again at 1. PostgreSQL and SQLite evaluate every SET expression against
        # the old row, so the CASE sees the old window.
        cursor.execute(
            f"INSERT INTO {table} ({key_}, {end}, {count_}) VALUES (%s, %s, 1) "
            f"ON CONFLICT ({key_}) DO UPDATE SET {count_} = CASE WHEN {table}.{end} = excluded.{end} "
            f"THEN {table}.{count_} + 1 ELSE 1 END, {end} = excluded.{end} RETURNING {count_}",
            [key, window_end],
        )
        (count,) = cursor.fetchone()
        if count == 1:
            # A new client or a new window: sweep the rows of windows that are over, so the table stays as small
            # as the set of recently active clients.
            cursor.execute(f"DELETE FROM {table} WHERE {end} < %s", [int(now)])
    return Verdict(count <= rate.count, count, rate.count, max(1, math.ceil(window_end - now)))
