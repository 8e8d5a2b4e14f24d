"""gunicorn settings: `gunicorn -c gunicorn.conf.py` (README § Deployment). Everything can be set from the environment.

GUNICORN_BIND      where to listen (default 127.0.0.1:8000: only the reverse proxy on this machine reaches it;
                   0.0.0.0:8000 behind a load balancer on a private network)
WEB_CONCURRENCY    worker processes (default 2 × CPUs + 1); GUNICORN_THREADS threads per worker (default 2)
GUNICORN_READ_TIMEOUT  seconds a client has to send a whole request once it started (default 10;
                   calculator/plumbing/gunicorn_worker.py)
GUNICORN_TIMEOUT   seconds before a stuck worker is restarted (default 30)
GUNICORN_MAX_REQUESTS  requests before a worker is recycled (default 20000, with 10% jitter)
FORWARDED_ALLOW_IPS  proxies whose X-Forwarded-Proto gunicorn trusts (default: TRUSTED_PROXIES, itself loopback)
GUNICORN_CONTROL_SOCKET  path of gunicornc's control socket, or "off"
LOG_FORMAT         json (default) or plain
"""

import gc
import multiprocessing
import os

from calculator.plumbing.proxies import DEFAULT_TRUSTED_PROXIES

wsgi_app = "calculator.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split()
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
# Threaded workers with a deadline for each request to arrive: a slow client holds one thread for at most
# GUNICORN_READ_TIMEOUT seconds, never a whole worker (calculator/plumbing/gunicorn_worker.py, docs/PERFORMANCE.md).
worker_class = "calculator.plumbing.gunicorn_worker.DeadlineThreadWorker"
threads = int(os.environ.get("GUNICORN_THREADS") or 2)
# A worker takes a connection only when one of its threads is free, and closes it after the answer (no keep-alive:
# the proxy in front keeps the clients' connections, README § Deployment). Waiting connections then stay in the
# listening socket's queue, shared by all workers, and the first worker with a free thread takes the oldest, as
# sync workers do. With keep-alive, or a worker accepting more than it has threads for, a connection waits in one
# worker's own queue however busy that worker is: the partial's p95 at 20 users was 1.5-2x that of sync workers.
# Two threads, not more: the work is CPU-bound Python, and each extra thread of a process waits for the others at
# every socket read and write (the GIL), which the p95 shows (docs/PERFORMANCE.md § Workers).
worker_connections = threads
keepalive = 0
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 30)
graceful_timeout = 30
# Recycle workers now and then so that a slow leak can never grow without bound. Rarely: the engine's caches
# grow only with new suit shapes (a finite set), and each restart costs ~0.8 s of CPU, a dip under load.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# No preload_app: a new worker imports the app itself (~0.8 s of CPU here, a short dip under heavy load when one is
# recycled), but `kill -HUP` (systemctl reload, README § Deployment) then starts workers on the new code. With
# preload_app they would fork from the master's already-imported old code until a full restart.


def post_worker_init(worker):
    """Before the worker serves: import what the first request would (the URLconf, hence the views, forms and engine)
    and compile the calculator's templates (the page and its result card), then hand every object made so far to the
    garbage collector's permanent generation (gc.freeze). They live as long as the worker anyway, and a full
    collection no longer walks them: about 2 ms instead of 50–70 ms on a 2-core machine, once every few hundred
    requests."""
    try:
        from django.template.loader import get_template
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018 (imports the URLconf)
        get_template("calculator.html")
        get_template("result.html", using="jinja2")
    except Exception:  # the first request will meet (and log) the same error
        worker.log.exception("warm-up before serving failed")
    gc.freeze()


# Request line and header caps (bodies: the proxy's limit and the app's API_MAX_BODY_BYTES).
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190
# X-Forwarded-Proto (is this HTTPS?) is taken from the proxies the app trusts for X-Forwarded-For (settings.py).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS") or os.environ.get(
    "TRUSTED_PROXIES", DEFAULT_TRUSTED_PROXIES
)
# gunicornc's control socket: GUNICORN_CONTROL_SOCKET=/run/mahjong/gunicorn.ctl, or "off" (default: gunicorn's own,
# $XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl).
if os.environ.get("GUNICORN_CONTROL_SOCKET", "") == "off":
    control_socket_disable = True
elif os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]

# Logs: one JSON object a line on stdout, for gunicorn's own messages and for every request (the access log);
# the app's log lines (settings.LOGGING) have the same shape. LOG_FORMAT=plain keeps gunicorn's usual lines.
# Either way the formatters take edit tokens out of every line (calculator/plumbing/edit_tokens.py).
accesslog = "-"
errorlog = "-"
JSON_LOGS = os.environ.get("LOG_FORMAT", "json") == "json"
if JSON_LOGS:
    logger_class = "calculator.plumbing.jsonlog.GunicornLogger"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "calculator.plumbing.jsonlog.JSONFormatter"},
        "plain": {
            "()": "calculator.plumbing.jsonlog.PlainFormatter",
            "fmt": "%(asctime)s [%(process)d] [%(levelname)s] %(message)s",
        },
        "plain_access": {"()": "calculator.plumbing.jsonlog.PlainFormatter", "fmt": "%(message)s"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json" if JSON_LOGS else "plain",
        },
        "access": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json" if JSON_LOGS else "plain_access",
        },
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["stdout"], "level": os.environ.get("LOG_LEVEL", "INFO"), "propagate": False},
        "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["stdout"], "level": "INFO"},
}
