"""Middleware for running in public: the access log, request line and header caps, health checks, private edit
links, JSON errors on the API, body size caps, rate limits."""

from __future__ import annotations

import logging
import os
import re
import time

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from calculator.plumbing import edit_tokens, health, proxies, ratelimit
from calculator.plumbing.error_pages import api_error, is_api, page_error

log = logging.getLogger(__name__)
access_log = logging.getLogger("access")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
BUSY_RETRY_AFTER = 5  # seconds: SQLite's lock timeout, about how long a busy database takes to free up


class AccessLogMiddleware:
    """One line per request on the `access` logger: who, what, the answer's status and size, how long it took.

    The outermost middleware, so it logs the answer as it leaves, whichever layer made it. Written here rather than by
    the server, so that the line has the same fields under any server, and the formatters redact each field
    (calculator/plumbing/jsonlog.py): the path as Django decoded it, the query and the Referer as the client sent
    them. A request nginx or gunicorn refuses itself (deploy/nginx.conf: too slow, too big) never reaches it.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.pid = os.getpid()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        if settings.ACCESS_LOG:
            meta = request.META
            size = response.get("Content-Length")
            fields = {
                "remote": meta.get("REMOTE_ADDR", "-"),
                "method": request.method,
                "path": request.path,
                "query": meta.get("QUERY_STRING", ""),
                "status": response.status_code,
                "bytes": int(size) if size else (None if response.streaming else len(response.content)),
                "duration_ms": round(1000 * (time.perf_counter() - started), 1),
                "forwarded_for": meta.get("HTTP_X_FORWARDED_FOR", ""),
                "user_agent": meta.get("HTTP_USER_AGENT", "-"),
                "referer": meta.get("HTTP_REFERER", "-"),
                "worker": self.pid,
            }
            access_log.info(
                '%s "%s %s%s" %s %s "%s" "%s"',
                fields["remote"],
                fields["method"],
                fields["path"],
                f"?{fields['query']}" if fields["query"] else "",
                fields["status"],
                fields["bytes"],
                fields["referer"],
                fields["user_agent"],
                extra=fields,
            )
        return response


class RequestLimitsMiddleware:
    """414 for a request line over settings.LIMIT_REQUEST_LINE bytes, 431 for more than LIMIT_REQUEST_FIELDS headers
    or a header over LIMIT_REQUEST_FIELD_SIZE: the API's JSON error under /api/, an error page elsewhere, with the
    security headers (the middleware that set them are outside this one).

    nginx and gunicorn accept larger requests (deploy/) so that these caps are the app's, and its
    refusals look like every other. The request line is measured as Django re-encodes it (method, path, query,
    protocol); a header as `Name: value`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        line = len(request.method or "") + len(request.get_full_path()) + len(meta.get("SERVER_PROTOCOL", "")) + 2
        if line > settings.LIMIT_REQUEST_LINE:
            return self.refuse(request, 414)
        headers = [(k, v) for k, v in meta.items() if k.startswith("HTTP_") or k in ("CONTENT_TYPE", "CONTENT_LENGTH")]
        if len(headers) > settings.LIMIT_REQUEST_FIELDS or any(
            len(k) + len(str(v)) - 3 > settings.LIMIT_REQUEST_FIELD_SIZE for k, v in headers
        ):
            return self.refuse(request, 431)
        return self.get_response(request)

    def refuse(self, request: HttpRequest, status: int) -> HttpResponse:
        log.warning("request refused with %s: request line or headers over the caps", status)
        return api_error(request, status) if is_api(request) else page_error(request, status, "error.html")


def request_client(request: HttpRequest) -> str:
    """Who sent the request: the connecting address, or behind TRUSTED_PROXIES the first untrusted address of
    X-Forwarded-For (proxies.py). What the rate limits count, and what a new table is created by."""
    return proxies.client_address(request.META, settings.TRUSTED_PROXIES)


class HealthCheckMiddleware:
    """`GET /healthz` → 200 `{"status": "ok"}` when the database reads and a write lands, else 503
    `{"status": "failing", "failed": "read" | "write"}` (API.md; the checks: calculator/plumbing/health).

    It runs before the host check (load balancers probe backends by address) and is exempt from the HTTPS
    redirect (SECURE_REDIRECT_EXEMPT: they probe over plain HTTP), but inside the middleware that add the security
    headers, so its answer carries them like any other.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != "/healthz" or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        failed = health.failing()
        if failed:
            return JsonResponse({"status": "failing", "failed": failed}, status=503)
        return JsonResponse({"status": "ok"})


class EditLinkMiddleware:
    """A response to a URL that carries an edit token (edit pages, the calculator bound to a table) is never
    cached and never sent as a Referer to another site (calculator/plumbing/edit_tokens.py), whatever answered it: the
    page, a redirect, an error page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if edit_tokens.in_url(request.path, request.META.get("QUERY_STRING", "")):
            edit_tokens.keep_private(response)
        return response


class ApiErrorMiddleware:
    """Under /api/ every 4xx/5xx answer is the API's JSON error object, whichever layer refused the request
    (a 405 from require_POST, a 400 for a bad Host header, a CSRF failure): clients parse one shape."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api(request) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        replacement = api_error(request, response.status_code)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                replacement[header] = response[header]
        return replacement


class BodySizeLimitMiddleware:
    """413 for an /api/ request whose declared body is over settings.API_MAX_BODY_BYTES, before it is read.

    Form posts keep Django's DATA_UPLOAD_MAX_MEMORY_SIZE (a 400 page beyond it); the proxy in front caps bodies
    without a Content-Length (docs/deployment.md).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return api_error(request, 400, "bad_request", "Content-Length is not a number")
            if length > settings.API_MAX_BODY_BYTES:
                return api_error(request, 413)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A body that stopped arriving (a client that went away mid-body) is the client's failure: 400, not a 500
        with a traceback."""
        if isinstance(exception, UnreadablePostError):
            log.warning("the request body did not arrive whole: %s", exception)
            return api_error(request, 400) if is_api(request) else page_error(request, 400, "error.html")
        return None


class RateLimitMiddleware:
    """429 with Retry-After when one client sends too many requests (settings.RATE_LIMITS; state in the database).

    Reads (GET, HEAD, OPTIONS) count in the "read" scope; every other method in "write", and table creation in
    "create" too. Static files and /healthz are answered before this middleware and never count. The client is
    `proxies.client_address` (X-Forwarded-For only from settings.TRUSTED_PROXIES).

    When the database cannot count (locked past its timeout, read-only, down, the table missing), a write is refused
    with 503 `busy` and Retry-After: the limit must not become a free pass exactly when the database is under
    strain, and a write would need the database anyway. A read goes through (logged): the calculator's pages do not
    need the database, and a read changes nothing.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.create_paths = [re.compile(p) for p in settings.RATE_LIMIT_CREATE_PATHS]

    def scopes(self, request: HttpRequest) -> list[str]:
        if request.method in SAFE_METHODS:
            return ["read"]
        scopes = ["write"]
        if any(p.search(request.path) for p in self.create_paths):
            scopes.append("create")
        return scopes

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.RATE_LIMIT_ENABLED:
            client = request_client(request)
            for scope in self.scopes(request):
                try:
                    verdict = ratelimit.hit(scope, client)
                except DatabaseError:
                    if scope == "read":
                        log.exception("rate limit: could not count a read; it goes through")
                        break
                    log.exception("rate limit: could not count a write; refused with 503")
                    return self.refuse(request, 503, BUSY_RETRY_AFTER)
                if not verdict.allowed:
                    log.warning(
                        "rate limited",
                        extra={"client": client, "scope": scope, "count": verdict.count, "limit": verdict.limit},
                    )
                    return self.refuse(request, 429, verdict.retry_after)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A heavy read over its client's budget or concurrency (ratelimit.heavy_read, in the view): 429."""
        if isinstance(exception, ratelimit.Refused):
            client = request_client(request)
            log.warning("rate limited: %s", exception, extra={"client": client, "scope": "heavy"})
            return self.refuse(request, 429, exception.retry_after)
        return None

    def refuse(self, request: HttpRequest, status: int, retry_after: int) -> HttpResponse:
        if is_api(request) or request.headers.get("HX-Request"):
            response = api_error(request, status)
        else:
            response = page_error(request, status, "error.html")
        response["Retry-After"] = str(retry_after)
        return response
