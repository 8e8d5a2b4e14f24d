"""The app as the production server runs it (calculator/plumbing/server.py: granian; README § Deployment).

Django's WSGI application behind calculator/plumbing/wsgi_bridge.py: the server reads each request's line and headers
in its own I/O threads (Rust, outside the GIL), the bridge reads the body whole on the worker's event loop, and only
then does the app run, on a thread of its own (a read of a whole table on a second one: calculator/plumbing/lanes.py).
A client that sends a byte a second holds a connection and a coroutine, never the thread that serves everyone else.
Django's own ASGI handler reads bodies the same way, but it hands each sync middleware and the view to a thread in turn: a third of the throughput here; asgiref's `WsgiToAsgi`
hands every message back to the loop: a fifth (docs/PERFORMANCE.md § Slow clients).

X-Forwarded-For and X-Forwarded-Proto are believed only on connections from TRUSTED_PROXIES (granian's proxy-header
wrapper: the connecting address becomes the client the proxies saw, the scheme the one they were asked for), so
that Django's HTTPS redirect and secure cookies see what the client used; calculator/plumbing/proxies.py then finds
the same client for the rate limit.

A body the app would refuse unread is never received: the bridge would store it whole before the app could refuse
it. Django refuses a declared body over its caps from the Content-Length header
alone (413 under /api/, BodySizeLimitMiddleware; 400 for a form) and reads nothing without one, so those bodies are
left unread (`skip_bodies_the_app_refuses`).

Importing this module (once in each worker) warms the worker up before it serves: the URLconf (hence the views,
forms and engine) and the calculator's templates, then every object made so far goes to the garbage collector's
permanent generation (gc.freeze): they live as long as the worker anyway, and a full collection no longer walks
them (about 2 ms instead of 50-70 ms on a 2-core machine, once every few hundred requests).
"""

from __future__ import annotations

import gc
import logging
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")

from django.conf import settings  # noqa: E402
from granian.utils.proxies import wrap_asgi_with_proxy_headers  # noqa: E402

from calculator.plumbing import lanes  # noqa: E402
from calculator.plumbing.wsgi_bridge import WsgiBridge  # noqa: E402
from calculator.wsgi import application as wsgi_application  # noqa: E402


def warm_up() -> None:
    try:
        from django.template.loader import get_template
        from django.urls import get_resolver
        from django.utils import translation

        from calculator.plumbing.django_locale import page_locale
        from calculator.presentation.render import template

        get_resolver().url_patterns  # noqa: B018 (imports the URLconf)
        get_template("calculator.html")
        for lang, _name in settings.LANGUAGES:  # the card's and the strip's environment, one per language
            with translation.override(lang):
                for name in ("result.html", "strip.html"):
                    template(name, page_locale())
    except Exception:  # the first request will meet (and log) the same error
        logging.getLogger(__name__).exception("warm-up before serving failed")


async def _no_body() -> dict:
    return {"type": "http.request", "body": b"", "more_body": False}


def skip_bodies_the_app_refuses(app, limit: int):
    """`app`, except that a request whose body the app would not read (declared over `limit` bytes, or sent without
    a Content-Length) reaches it with the body left unread."""

    async def unread_if_refused(scope, receive, send):
        if scope["type"] == "http":
            length = next((value for name, value in scope["headers"] if name == b"content-length"), None)
            if length is None or not length.isdigit() or int(length) > limit:
                receive = _no_body
        await app(scope, receive, send)

    return unread_if_refused


application = wrap_asgi_with_proxy_headers(
    skip_bodies_the_app_refuses(
        WsgiBridge(wsgi_application, slow=lanes.is_slow),
        max(settings.API_MAX_BODY_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE),
    ),
    trusted_hosts=[str(network) for network in settings.TRUSTED_PROXIES],
)
# The interpreter hands its lock from one thread to another waiting for it after this long (Python's default: 5 ms):
# a score on the app's lane waits at most that each time it needs the lock back (after each query, each log line)
# while the slow lane draws a read in the same worker. At 5 ms a score beside a heavy reader took 2.9-3.3× its idle
# p99, at 1 ms 1.3-1.9× (docs/PERFORMANCE.md § Two lanes).
SWITCH_INTERVAL = 0.001

warm_up()
gc.freeze()
sys.setswitchinterval(SWITCH_INTERVAL)
