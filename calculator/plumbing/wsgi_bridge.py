"""A WSGI app served over ASGI, one request at a time on each of two threads of its own: what calculator/asgi.py
hands granian.

The whole body is read on the event loop first (a slow client holds a coroutine, never the app's thread), then the
app runs on its thread, and the answer goes back to the loop to be sent. One hand-over each way per request: asgiref's
`WsgiToAsgi`, which does the same job, also hands every message it sends (the start, each piece of the body, the
end) back to the loop and waits there for it, four crossings for a score instead of two, and that cost a fifth of
the API's throughput (docs/PERFORMANCE.md § Slow clients).

Two lanes, a thread each: the requests `slow(scope)` picks (calculator/plumbing/lanes.py: the reads of a whole table,
tens of milliseconds at 1,000 entries) run on one, everything else on the other, so a score or a write never waits
in line behind such a read in its worker (issue 20 §3). Each lane answers one request at a time, in order. The slow
lane's thread stands lower in the kernel's queue for a core, so a score in another worker goes first; within the
worker the two share the interpreter (calculator/asgi.py sets how often it switches between them).

An answer that comes in one piece (every page, partial and JSON answer) is sent as it is. A streamed answer (a static
or offline-pack file, read in blocks) is sent piece by piece: the next piece is read on the app's thread only once
the loop has sent the one before, so a client that downloads slowly never holds the thread between two pieces.

The environ is asgiref's own (PEP 3333 from the ASGI scope, as `WsgiToAsgi` builds it): the path decoded as latin-1
from UTF-8, repeated headers joined with commas.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from asgiref.wsgi import WsgiToAsgiInstance

WsgiApp = Callable[[dict, Callable], Iterable[bytes]]

_END = object()  # what `_next` answers once a streamed answer has no piece left


def environ(scope: dict, body: bytes) -> dict:
    """The WSGI environ of an ASGI HTTP scope whose body is `body`: asgiref's, the one `WsgiToAsgi` builds."""
    builder = WsgiToAsgiInstance(None)
    builder.scope = scope  # its header loop reads the scope it serves
    return builder.build_environ(scope, io.BytesIO(body))


@dataclass
class Answer:
    """What the app answered: the status and headers as ASGI sends them, the first pieces of the body, and, for a
    streamed answer, the rest still to be read."""

    status: int = 500
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    pieces: list[bytes] = field(default_factory=list)
    rest: Iterator[bytes] | None = None
    close: Callable[[], None] | None = None

    def start_response(self, status: str, headers: list[tuple[str, str]], exc_info=None) -> None:
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]


def _run(app: WsgiApp, wsgi_environ: dict) -> Answer:
    """On the app's thread: call the app and read its answer's first two pieces (one piece: the whole answer)."""
    answer = Answer()
    result = app(wsgi_environ, answer.start_response)
    close = getattr(result, "close", None)
    try:
        pieces = iter(result)
        first = next(pieces, _END)
        second = next(pieces, _END) if first is not _END else _END
    except BaseException:
        if close:
            close()
        raise
    answer.pieces = [piece for piece in (first, second) if piece is not _END]
    if second is _END:
        if close:
            close()
    else:
        answer.rest, answer.close = pieces, close
    return answer


def _next(pieces: Iterator[bytes]) -> object:
    return next(pieces, _END)


SLOW_NICENESS = 10  # how much lower the slow lane's thread stands in the kernel's queue for a core


def _yield_the_processor() -> None:
    """On the slow lane's thread, once: lower its priority, so that when the cores are all busy the kernel runs the
    other workers' app lanes (a score, a write) before it. Linux schedules each thread on its own (a thread id is a
    task id); elsewhere the thread keeps the process's priority."""
    if sys.platform == "linux":
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SLOW_NICENESS)


def _never(scope: dict) -> bool:
    return False


class WsgiBridge:
    """An ASGI app running the WSGI app `app`, after each request's whole body has arrived, on one of two threads:
    the slow lane for the requests `slow(scope)` picks, the app's lane for all others."""

    def __init__(self, app: WsgiApp, slow: Callable[[dict], bool] = _never):
        self.app = app
        self.slow = slow
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="app")
        self.slow_thread = ThreadPoolExecutor(1, thread_name_prefix="app-slow", initializer=_yield_the_processor)

    async def __call__(self, scope: dict, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"only HTTP is served here, not {scope['type']!r}")
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away before its body was whole
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        loop = asyncio.get_running_loop()
        lane = self.slow_thread if self.slow(scope) else self.thread
        answer = await loop.run_in_executor(lane, _run, self.app, environ(scope, bytes(body)))
        await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
        if answer.rest is None:
            await send({"type": "http.response.body", "body": b"".join(answer.pieces)})
            return
        try:
            for piece in answer.pieces:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            while (piece := await loop.run_in_executor(lane, _next, answer.rest)) is not _END:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            if answer.close:
                await loop.run_in_executor(lane, answer.close)
