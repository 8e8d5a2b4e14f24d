"""`GET /healthz`: does the database read, and does a write land? (API.md; for load balancers.)

The read is one query of the ledger's tables. The write is real and committed: a new heartbeat row of this
machine, carrying HEADROOM random bytes, then the machine's older rows deleted. While the new row goes in, the old
one still holds its pages, so the database must find HEADROOM bytes of room, more than a recorded hand takes (about
5 KB with its account): a disk too full for the next hand fails the check, though small updates in place might
still succeed. A write that is refused (read-only file or server, locked past the timeout, disk full, connection
lost) fails it too. The bytes are random so that PostgreSQL cannot compress them away.

Anyone may ask (load balancers probe by address, uncounted by the rate limit), so a process that has just seen
the database healthy says so again for HEALTH_CHECK_REUSE seconds without writing: a flood of probes costs at
most one heartbeat a second per process, not one per request. A failure is never reused: the next probe checks
again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone

log = logging.getLogger(__name__)

HEADROOM = 16 * 1024  # bytes the check writes: room for about three recorded hands
STALE = timedelta(days=1)  # rows of machines that stopped checking are swept after this
HOST = socket.gethostname()[:255]


_healthy_at: float | None = None  # when this process last saw the database healthy (time.monotonic)
_one_at_a_time = threading.Lock()


def failing() -> str | None:
    """None when the database reads and takes a write; else which check failed: "read" or "write"."""
    global _healthy_at
    with _one_at_a_time:
        if _healthy_at is not None and time.monotonic() - _healthy_at < settings.HEALTH_CHECK_REUSE:
            return None
        failed = check()
        _healthy_at = None if failed else time.monotonic()
        return failed


def forget() -> None:
    """The next probe checks again (tests)."""
    global _healthy_at
    _healthy_at = None


def check() -> str | None:
    """The two checks, every time."""
    from calculator.models import Table
    from calculator.plumbing.health.models import Heartbeat

    try:
        Table.objects.exists()
    except DatabaseError as error:  # one line, no traceback: a load balancer asks every few seconds
        log.warning("health check: the database cannot be read: %s", error)
        return "read"
    try:
        with transaction.atomic():
            beat = Heartbeat.objects.create(host=HOST, at=timezone.now(), headroom=os.urandom(HEADROOM))
            Heartbeat.objects.filter(Q(host=HOST) | Q(at__lt=beat.at - STALE), id__lt=beat.id).delete()
    except DatabaseError as error:
        log.warning("health check: a write does not land: %s", error)
        return "write"
    return None
