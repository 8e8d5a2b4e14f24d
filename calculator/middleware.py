"""Middleware for running in public: health checks, JSON errors on the API, body size caps, rate limits."""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from . import ratelimit
from .errors_views import api_error, is_api, page_error

log = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class HealthCheckMiddleware:
    """`GET /healthz` → 200 `{"status": "ok"}` when the database answers, else 503.

    It runs first, before the host check and the HTTPS redirect: load balancers probe backends by address, over
    plain HTTP.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != "/healthz" or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError:
            log.exception("health check: the database does not answer")
            return JsonResponse({"status": "database unavailable"}, status=503)
        return JsonResponse({"status": "ok"})


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

    Form posts keep Django's DATA_UPLOAD_MAX_MEMORY_SIZE (a 400 page beyond it); gunicorn and the proxy in front
    cap bodies without a Content-Length (README § Deployment).
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


class RateLimitMiddleware:
    """429 with Retry-After when one client sends too many writes (settings.RATE_LIMITS; state in the database).

    Every request with an unsafe method counts in the "write" scope; table creation counts in "create" too.
    If the database cannot count (the table is missing, the database is down) the request goes through and the
    failure is logged: a broken counter must not take the calculator down with it.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.create_paths = [re.compile(p) for p in settings.RATE_LIMIT_CREATE_PATHS]

    def scopes(self, request: HttpRequest) -> list[str]:
        if request.method in SAFE_METHODS:
            return []
        scopes = ["write"]
        if any(p.search(request.path) for p in self.create_paths):
            scopes.append("create")
        return scopes

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.RATE_LIMIT_ENABLED:
            client = ratelimit.client_address(request.META, settings.PROXY_COUNT)
            for scope in self.scopes(request):
                try:
                    verdict = ratelimit.hit(scope, client)
                except DatabaseError:
                    log.exception("rate limit: could not count a request (run `manage.py migrate`?)")
                    break
                if not verdict.allowed:
                    log.warning(
                        "rate limited",
                        extra={"client": client, "scope": scope, "count": verdict.count, "limit": verdict.limit},
                    )
                    return self.too_many(request, verdict)
        return self.get_response(request)

    def too_many(self, request: HttpRequest, verdict: ratelimit.Verdict) -> HttpResponse:
        if is_api(request) or request.headers.get("HX-Request"):
            response = api_error(request, 429)
        else:
            response = page_error(request, 429, "400.html")
        response["Retry-After"] = str(verdict.retry_after)
        return response
