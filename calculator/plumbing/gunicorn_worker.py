"""gunicorn's threaded worker (gthread) with a deadline for each request to arrive: slow clients cannot pin it.

A sync worker reads a request with one process: three clients sending their headers a byte a second stalled every
worker until gunicorn's `timeout` killed it (30 s). The gthread worker reads a request in one of its threads (after
waiting up to 5 s there for the first bytes, then handing an idle connection back to its event loop), as slowly
as the client sends it. This worker gives each request READ_TIMEOUT seconds (GUNICORN_READ_TIMEOUT, default 10)
from the moment a thread takes the connection up to arrive whole, headers and body; a client that is not done by
then is disconnected (headers) or answered 400 (a body the app was reading:
calculator.plumbing.middleware.BodySizeLimitMiddleware). A slow client holds at most one thread for that long; the other
threads and workers go on serving (tests/web/test_security_gunicorn.py).

With TLS ended by gunicorn itself (`certfile`), the deadline is not applied (the socket is wrapped by ssl); the
deployments in the README end TLS in the proxy, which also buffers requests.

Only gunicorn is imported here: the master loads this class before Django is set up.
"""

from __future__ import annotations

import os
import time

from gunicorn.http.errors import NoMoreData
from gunicorn.workers.gthread import ThreadWorker

READ_TIMEOUT = float(os.environ.get("GUNICORN_READ_TIMEOUT") or 10)


class DeadlineSocket:
    """A client socket whose reads stop at `deadline` (time.monotonic(); None: no deadline).

    Past it, a read raises gunicorn's NoMoreData, as if the client had gone (gunicorn then gives up on the
    request without a traceback in the log), and `expired` is set. Everything else is the socket's own."""

    def __init__(self, sock):
        self._sock = sock
        self.deadline: float | None = None
        self.expired = False

    def __getattr__(self, name: str):
        return getattr(self._sock, name)

    def recv(self, size: int, flags: int = 0) -> bytes:
        if self.deadline is None:
            return self._sock.recv(size, flags)
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            self.expired = True
            raise NoMoreData()
        prior = self._sock.gettimeout()  # gunicorn bounds some reads itself (draining an unread body)
        self._sock.settimeout(remaining if prior is None else min(prior, remaining))
        try:
            return self._sock.recv(size, flags)
        except TimeoutError:
            if prior is not None and prior < remaining:
                raise  # the caller's own, shorter, timeout
            self.expired = True
            raise NoMoreData() from None
        finally:
            self._sock.settimeout(prior)


class DeadlineThreadWorker(ThreadWorker):
    """gthread, each request read against a deadline of READ_TIMEOUT seconds (see the module docstring)."""

    def handle(self, conn):
        if self.cfg.is_ssl:
            return super().handle(conn)
        if not isinstance(conn.sock, DeadlineSocket):
            conn.sock = DeadlineSocket(conn.sock)  # before gunicorn makes the connection's parser, which reads it
        conn.sock.deadline = time.monotonic() + READ_TIMEOUT
        try:
            keep_alive = super().handle(conn)
        finally:
            conn.sock.deadline = None
        if conn.sock.expired:
            # Closed here and now: gunicorn's graceful close would go on reading from the slow client for up to 2 s
            # more, on the worker's main thread, where it would hold up every other connection of this worker.
            conn.sock.close()
            return False
        return keep_alive
