"""Which of a worker's two app threads answers a request (calculator/plumbing/wsgi_bridge.py): the slow lane takes
the reads of a whole table, the app's lane everything else.

A read of a big table (its page, live part, CSV or JSON: 5-50 ms of CPU at 1,000 entries even with its snapshot
kept) is the one kind of request that takes long. With one thread a worker answered in order, so a score that
granian handed to a worker drawing such a read waited for it to end: the p99 of another client's score beside one
client reading heavy answers went to 1.2-7.9× its idle p99 (issue 20 §3, docs/PERFORMANCE.md). On a lane of its own
such a read shares the processor with the score (the interpreter switches between the two threads) instead of
holding it back. How many of them one client runs at once is the rate limiter's job (at most two:
calculator/plumbing/ratelimit); a lane answers one at a time.

A view says it is slow with `@slow`; the lane is chosen from the path before the app runs, by Django's resolver
(the URLconf's patterns: no database, no middleware).
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import Resolver404, resolve

READS = frozenset({"GET", "HEAD"})


def slow[View: Callable](view: View) -> View:
    """Marks `view`'s reads for the slow lane (its writes stay on the app's lane, behind nothing slow)."""
    view.slow_lane = True  # type: ignore[attr-defined]
    return view


def is_slow(scope: dict) -> bool:
    """True for a read (GET, HEAD) of a path whose view is marked `slow`."""
    if scope["method"] not in READS:
        return False
    try:
        match = resolve(scope["path"])
    except Resolver404:
        return False
    return getattr(match.func, "slow_lane", False)
