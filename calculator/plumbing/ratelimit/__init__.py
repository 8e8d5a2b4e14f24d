"""Per-client rate limits whose state lives in the database, shared by every worker and machine.

A fixed window per scope: `hit(scope, client, cost)` counts the request in the current window (a heavy read counts
for several) and says whether it is over the limit and how long until the window ends (the Retry-After of the
429). `heavy_read(request)` wraps the costly part of a heavy read (a big table's page, live part, JSON or CSV): it
charges the read's weight and holds one of the client's RATE_LIMIT_HEAVY_CONCURRENT slots while it runs, so that
one client never keeps more than that many workers busy with heavy reads, however politely it paces them. Slots
are rows too (leases that end by themselves if a worker dies holding one), so every worker sees the same count.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)


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


def hit(scope: str, client: str, now: float | None = None, cost: int = 1) -> Verdict:
    """Count a request of `client` in `scope` (as `cost` requests) and say whether it is allowed.

    One statement (an upsert that returns the new count): every read of the site counts here, and on SQLite each
    write holds the one write lock, so the fewer statements the better."""
    from django.db import connection, transaction

    from calculator.plumbing.ratelimit.models import Bucket

    rate = rate_for(scope)
    now = time.time() if now is None else now
    window_end = (int(now) // rate.period + 1) * rate.period
    key = f"{scope}:{client}"[:200]
    table, key_, end, count_ = _names(connection, Bucket)
    # atomic: inside a caller's transaction a refused statement (a read-only database) rolls back to a savepoint
    # instead of poisoning the caller's transaction; in autocommit it is the statement's own transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        # A row whose window is over starts again at 1. PostgreSQL and SQLite evaluate every SET expression against
        # the old row, so the CASE sees the old window.
        cursor.execute(
            f"INSERT INTO {table} ({key_}, {end}, {count_}) VALUES (%s, %s, %s) "
            f"ON CONFLICT ({key_}) DO UPDATE SET {count_} = CASE WHEN {table}.{end} = excluded.{end} "
            f"THEN {table}.{count_} + excluded.{count_} ELSE excluded.{count_} END, {end} = excluded.{end} "
            f"RETURNING {count_}",
            [key, window_end, cost],
        )
        (count,) = cursor.fetchone()
        if count == cost:
            # A new client or a new window: sweep the rows of windows that are over, so the table stays as small
            # as the set of recently active clients.
            cursor.execute(f"DELETE FROM {table} WHERE {end} < %s", [int(now)])
    return Verdict(count <= rate.count, count, rate.count, max(1, math.ceil(window_end - now)))


def _names(connection, model) -> tuple[str, str, str, str]:
    return tuple(map(connection.ops.quote_name, (model._meta.db_table, "key", "window_end", "count")))


# ------------------------------------------------------------------------------------------------- heavy reads

SLOT_LEASE = 30  # seconds: a slot a worker took and never gave back (it died) is free again after this


class Refused(Exception):
    """A request its client may not make now: RateLimitMiddleware answers 429 `rate_limited` with Retry-After."""

    def __init__(self, retry_after: int, why: str):
        super().__init__(why)
        self.retry_after = retry_after


def charge(request, scope: str, cost: int) -> None:
    """A request that costs the server as much as `cost` requests of `scope` (a picture drawn on the server costs
    what several scores cost): counted `cost` times more there, beyond what the middleware counted. Over the limit:
    Refused, which the middleware answers 429 with Retry-After. When the database cannot count, it goes through
    (logged), as a read does."""
    from django.db import DatabaseError

    from calculator.plumbing import proxies

    if not settings.RATE_LIMIT_ENABLED:
        return
    client = proxies.client_address(request.META, settings.TRUSTED_PROXIES)
    try:
        verdict = hit(scope, client, cost=cost)
    except DatabaseError:
        log.exception("rate limit: could not count a costly request; it goes through")
        return
    if not verdict.allowed:
        raise Refused(verdict.retry_after, f"over the {scope} budget")


def take_slot(client: str, now: float | None = None) -> tuple[str, int] | None:
    """One of `client`'s RATE_LIMIT_HEAVY_CONCURRENT heavy-read slots, as (its key, the lease's nonce), or None
    when all are taken. One statement per slot tried: an upsert that takes the row only if its lease is over."""
    from django.db import connection, transaction

    from calculator.plumbing.ratelimit.models import Bucket

    now = time.time() if now is None else now
    table, key_, end, count_ = _names(connection, Bucket)
    nonce = secrets.randbelow(2**31 - 1) + 1
    for slot in range(settings.RATE_LIMIT_HEAVY_CONCURRENT):
        key = f"heavy:{slot}:{client}"[:200]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({key_}, {end}, {count_}) VALUES (%s, %s, %s) "
                f"ON CONFLICT ({key_}) DO UPDATE SET {end} = excluded.{end}, {count_} = excluded.{count_} "
                f"WHERE {table}.{end} < %s RETURNING {count_}",
                [key, int(now) + SLOT_LEASE, nonce, int(now)],
            )
            if cursor.fetchone() is not None:
                return key, nonce
    return None


def give_back(slot: tuple[str, int]) -> None:
    """End the lease `take_slot` gave (only if it is still this one: an expired lease may have a new holder)."""
    from django.db import connection, transaction

    from calculator.plumbing.ratelimit.models import Bucket

    table, key_, end, count_ = _names(connection, Bucket)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {end} = 0 WHERE {key_} = %s AND {count_} = %s", list(slot))


@contextmanager
def heavy_read(request, entries: int) -> Iterator[None]:
    """Around the costly part of a read of a table of `entries` entries. Up to RATE_LIMIT_HEAVY_ENTRIES it is a read
    like any other. Beyond, it is heavy: it counts RATE_LIMIT_HEAVY_COST reads in all (the middleware counted one
    already), and runs only in one of the client's heavy-read slots. Over the budget, or with every slot
    taken (Retry-After: 1, the time a heavy read takes and then some): Refused, which the middleware answers 429.
    A score or a light read never waits for these (they take no slot). When the database cannot count, the read
    goes through, as every read does then (logged)."""
    from django.db import DatabaseError

    from calculator.plumbing import proxies

    if not settings.RATE_LIMIT_ENABLED or entries <= settings.RATE_LIMIT_HEAVY_ENTRIES:
        yield
        return
    client = proxies.client_address(request.META, settings.TRUSTED_PROXIES)
    try:
        verdict = hit("read", client, cost=settings.RATE_LIMIT_HEAVY_COST - 1)
        slot = take_slot(client) if verdict.allowed else None
    except DatabaseError:
        log.exception("rate limit: could not count a heavy read; it goes through")
        yield
        return
    if not verdict.allowed:
        raise Refused(verdict.retry_after, "over the read budget")
    if slot is None:
        raise Refused(1, f"{settings.RATE_LIMIT_HEAVY_CONCURRENT} heavy reads of this client running already")
    try:
        yield
    finally:
        try:
            give_back(slot)
        except DatabaseError:  # the lease ends by itself
            log.exception("rate limit: could not give a heavy-read slot back")
