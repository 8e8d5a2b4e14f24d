"""The CPU time a tap costs the page's thread and the engine's (the Web Worker), from a Chromium trace: the time
each thread ran, not the time it waited for a core, so that a budget holds on a machine shared with other work.

A trace of the renderer's tasks ("toplevel": every task with its thread time) and of the page's performance marks
(to put the page's clock on the trace's) is taken through the DevTools protocol while the page is used.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

CATEGORIES = ["toplevel", "blink.user_timing", "__metadata"]
TASK = "ThreadControllerImpl::RunTask"  # one task of a thread's loop, with its wall ("dur") and thread ("tdur") time
WORKER = "DedicatedWorker thread"


@dataclass
class Trace:
    events: list[dict] = field(default_factory=list)

    def _marks(self, name: str) -> list[dict]:
        return [e for e in self.events if e.get("cat") == "blink.user_timing" and e.get("name") == name]

    def page_thread(self, mark: str) -> tuple[int, int]:
        """The thread that set the performance mark `mark`: the page's main thread."""
        first = self._marks(mark)[0]
        return first["pid"], first["tid"]

    def worker_threads(self, pid: int) -> list[tuple[int, int]]:
        return [
            (e["pid"], e["tid"])
            for e in self.events
            if e.get("ph") == "M" and e.get("name") == "thread_name" and e["pid"] == pid and e["args"]["name"] == WORKER
        ]

    def offset_us(self, mark: str) -> float:
        """The trace's clock (µs) minus the page's (`performance.now()`, ms × 1000), from a mark set without a time."""
        first = self._marks(mark)[0]
        return first["ts"] - first["args"]["data"]["startTime"] * 1000

    def cpu_ms(self, thread: tuple[int, int], start_us: float, end_us: float) -> float:
        """The thread time of `thread`'s tasks within [start_us, end_us] (a task cut by the window counted by the
        share of its wall time inside)."""
        total = 0.0
        for e in self.events:
            if e.get("name") != TASK or e.get("ph") != "X" or (e["pid"], e["tid"]) != thread or "tdur" not in e:
                continue
            inside = min(end_us, e["ts"] + e["dur"]) - max(start_us, e["ts"])
            if inside > 0:
                total += e["tdur"] * inside / max(e["dur"], 1)
        return total / 1000


@contextlib.contextmanager
def traced(context, page):
    """A trace of `page`'s renderer while the block runs (the page of a Playwright browser context)."""
    session = context.new_cdp_session(page)
    trace = Trace()
    done = []
    session.on("Tracing.dataCollected", lambda event: trace.events.extend(event["value"]))
    session.on("Tracing.tracingComplete", lambda event: done.append(True))
    session.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}, "transferMode": "ReportEvents"})
    try:
        yield trace
    finally:
        session.send("Tracing.end")
        while not done:
            page.wait_for_timeout(50)
        session.detach()
