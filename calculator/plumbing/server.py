"""The production server: granian serving the app (calculator/asgi.py). `python -m calculator.plumbing.server`
(README § Deployment); everything is set from the environment:

SERVER_BIND             where to listen (default 127.0.0.1:8000: only the reverse proxy on this machine reaches it;
                        0.0.0.0:8000 behind a load balancer on a private network)
WEB_CONCURRENCY         worker processes (default 2 × CPUs + 1)
SERVER_HEADER_TIMEOUT   seconds a client has to send a request's line and headers (default 10); then the server
                        closes the connection. The body is read whole before the app sees it (calculator/asgi.py).
SERVER_RELOAD_DELAY     seconds between starting a worker anew and stopping the old one, on SIGHUP (default 5)
SERVER_WORKER_LIFETIME  seconds after which a worker is replaced by a fresh one (default 86,400), so that a slow
                        leak never grows without bound
LOG_FORMAT, LOG_LEVEL   json (default) or plain; the server's own lines go through the same formatters as the app's

Why granian (docs/PERFORMANCE.md § Slow clients): it parses HTTP in Rust threads of its own, so a slow client costs
a connection, not a Python thread; its master restarts a worker that dies (kill -9) and, on SIGHUP, starts each
worker anew on the code as it is now (`systemctl reload`) before stopping the old one. The app's caps on the request
line and headers (settings.LIMIT_REQUEST_*, answered 414 / 431 by the app) lie far inside the server's own
(400 KiB of headers, 100 header fields: beyond them the server answers an empty 431 itself, as it does an empty 400
for a malformed request; README § Security says what the proxy in front refuses first).

No Django here: the master process only starts workers (each imports the app itself, so a reload runs new code).
"""

from __future__ import annotations

import multiprocessing
import os

from granian import Granian
from granian.constants import HTTPModes, Interfaces
from granian.http import HTTP1Settings
from granian.log import LogLevels

TARGET = "calculator.asgi:application"


def bind() -> tuple[str, int]:
    host, _, port = os.environ.get("SERVER_BIND", "127.0.0.1:8000").rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def log_config() -> dict:
    """The server's own lines (start, stop, a worker restarted) in the app's format (settings.LOGGING)."""
    json_lines = os.environ.get("LOG_FORMAT", "json") == "json"
    formatter = (
        {"()": "calculator.plumbing.jsonlog.JSONFormatter"}
        if json_lines
        else {
            "()": "calculator.plumbing.jsonlog.PlainFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    )
    return {
        "formatters": {"generic": formatter, "access": formatter},
        "loggers": {"_granian": {"handlers": ["console"], "level": "INFO", "propagate": False}},
    }


def server() -> Granian:
    host, port = bind()
    return Granian(
        TARGET,
        address=host,
        port=port,
        interface=Interfaces.ASGINL,  # no lifespan events: the app starts up as it is imported
        http=HTTPModes.http1,  # the proxy in front speaks HTTP/1.1 to it
        websockets=False,
        workers=int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1),
        http1_settings=HTTP1Settings(
            header_read_timeout=int(1000 * float(os.environ.get("SERVER_HEADER_TIMEOUT") or 10))
        ),
        respawn_failed_workers=True,
        # On a reload each worker in turn: a new one is started, and the old one stops this many seconds later, by
        # when the new one must be serving (its import and warm-up take 1-5 s on a busy 2-core machine).
        respawn_interval=float(os.environ.get("SERVER_RELOAD_DELAY") or 5),
        workers_lifetime=int(os.environ.get("SERVER_WORKER_LIFETIME") or 86_400),
        workers_kill_timeout=30,  # a stopping worker finishes what it was answering, for at most this long
        log_level=LogLevels(os.environ.get("LOG_LEVEL", "info").lower()),
        log_dictconfig=log_config(),
        log_access=False,  # the app writes the access log (calculator.plumbing.middleware.AccessLogMiddleware)
    )


if __name__ == "__main__":
    server().serve()
