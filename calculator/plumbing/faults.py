"""Faults are 503, never 500 (API.md): a database error that is not the client's doing (the disk full, the file or
the server read-only, the lock held past its timeout, the connection lost, a restart) answers 503 `busy` with
Retry-After, a JSON error under /api/ and a page in the visitor's language elsewhere. The write it interrupted ran
in one transaction, which rolled back: nothing was recorded, and the client may send it again (with its
idempotency key, a write that did land is answered, not doubled).

Errors that are the program's own (SQL that is wrong: ProgrammingError, DataError, NotSupportedError) stay 500s:
trying again would not help.

A fault also ends the worker's database connection (FreshConnectionAfterFaultMiddleware), so that the next request
opens a new one and sees the database as it is then: a connection opened while the SQLite file was read-only keeps
its read-only `-shm` mapping, and a PostgreSQL session opened while the database was read-only keeps that default,
for as long as the connection lives (DB_CONN_MAX_AGE), after the fault itself has passed (issue 31, finding 2).
"""

from __future__ import annotations

import logging

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, InterfaceError, InternalError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

from calculator.plumbing.error_pages import refusal

log = logging.getLogger(__name__)

# OperationalError: locked, disk full, read-only SQLite file, connection refused or lost, a deadlock; InterfaceError:
# a closed connection; InternalError: PostgreSQL's read-only transaction (a standby, default_transaction_read_only);
# IntegrityError: a race lost at commit (a row deleted under a write).
FAULTS = (OperationalError, InterfaceError, InternalError, IntegrityError)
RETRY_AFTER = 5  # seconds: SQLite's lock timeout, about how long a busy database takes to free up


class Overtaken(Exception):
    """A read that writes overtook at every try (a table written to faster than it is read): not the client's
    doing, and gone once the writes pause, so answered as a fault is, 503 `busy` with Retry-After."""


def is_fault(error: BaseException | None) -> bool:
    return isinstance(error, FAULTS)


def busy(request: HttpRequest) -> HttpResponse:
    """503 `busy` with Retry-After: JSON under /api/ (and for htmx), the friendly page elsewhere."""
    return refusal(request, 503, RETRY_AFTER, "fault")


class DatabaseFaultMiddleware:
    """A view that raised a database fault, or a read that writes overtook at every try, answers 503 (`busy`); one
    whose table vanished while it was read (the clean-up deleted it between two of the read's queries) answers 404,
    as a read a moment later would."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_fault(exception):
            log.warning("database fault, answered 503: %s: %s", type(exception).__name__, exception)
            return busy(request)
        if isinstance(exception, Overtaken):
            log.warning("a read overtaken by writes at every try, answered 503: %s", exception)
            return busy(request)
        if isinstance(exception, ObjectDoesNotExist):
            log.warning("a row vanished while the request read it, answered 404: %s", exception)
            return refusal(request, 404)
        return None


class FreshConnectionAfterFaultMiddleware:
    """After a request one of whose queries met a database fault (in a view, the rate limiter, the health check,
    caught there or not), the connection is closed, and the next request opens a new one.

    Django's own end-of-request check cannot tell: the rollback after the fault marks the connection as working, and
    a read-only connection does answer its health check. Outside every other middleware that touches the database.
    A connection inside a transaction someone else holds (a test's) is left alone: closing it would end it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        faulted: list[BaseException] = []

        def watch(execute, sql, params, many, context):
            try:
                return execute(sql, params, many, context)
            except FAULTS as error:
                faulted.append(error)
                raise

        with connection.execute_wrapper(watch):
            response = self.get_response(request)
        if faulted and not connection.in_atomic_block:
            log.warning("database connection closed after a fault, the next request opens a new one: %s", faulted[0])
            connection.close()
        return response
