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
    """Count one request of `client` in `scope` and say whether it is allowed."""
    from django.db import IntegrityError, transaction
    from django.db.models import Case, F, Value, When

    from .models import Bucket

    rate = rate_for(scope)
    now = time.time() if now is None else now
    window_end = (int(now) // rate.period + 1) * rate.period
    key = f"{scope}:{client}"[:200]
    # A row whose window is over starts again at 1. Count is SET before window_end, and PostgreSQL and SQLite
    # evaluate every SET expression against the old row, so the CASE sees the old window either way.
    bump = {
        "count": Case(When(window_end=window_end, then=F("count") + 1), default=Value(1)),
        "window_end": Value(window_end),
    }
    with transaction.atomic():
        if not Bucket.objects.filter(key=key).update(**bump):
            try:
                with transaction.atomic():
                    Bucket.objects.create(key=key, window_end=window_end, count=1)
            except IntegrityError:  # another worker created it first
                Bucket.objects.filter(key=key).update(**bump)
            else:
                # A new client: sweep the rows of windows that are over, so the table stays as small as the set
                # of recently active clients.
                Bucket.objects.filter(window_end__lt=int(now)).delete()
        count = Bucket.objects.filter(key=key).values_list("count", flat=True).first() or 1
    return Verdict(count <= rate.count, count, rate.count, max(1, math.ceil(window_end - now)))
