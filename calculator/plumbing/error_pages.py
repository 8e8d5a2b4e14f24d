"""The error pages: 400, 403 (and CSRF failures), 404, 429, 500 and 503, in both languages.

Pages get templates/<status>.html (extending base.html); every path under /api/ gets the API's error object
instead, `{"error": {"code": ..., "message": ...}}`, in the language of `?lang=` or the negotiated one. The texts are
the pages' (gettext, locale/<lang>/LC_MESSAGES/django.po), said in the language of the answer.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from calculator.presentation.locale import lang_of

log = logging.getLogger(__name__)

# status: (code, message)
ERRORS = {
    400: ("bad_request", _("the request could not be understood")),
    403: ("forbidden", _("this is not allowed")),
    404: ("not_found", _("there is nothing at this address")),
    405: ("method_not_allowed", _("this address does not accept this method")),
    413: ("too_large", _("the request body is too large")),
    414: ("uri_too_long", _("the request's address is too long")),
    431: ("headers_too_large", _("the request has too many headers, or one too long")),
    429: ("rate_limited", _("too many requests: try again later")),
    500: ("server_error", _("something went wrong on our side; it has been logged")),
    503: ("busy", _("the server is busy: try again in a few seconds")),
}
# A database fault (calculator/plumbing/faults.py): what the visitor needs to know is that nothing was recorded.
FAULT_MESSAGE = (
    "busy",
    _("the server cannot store anything just now, and nothing was recorded: try again in a few seconds"),
)
CSRF_MESSAGE = (
    "csrf_failed",
    _("the form expired or came from another site (CSRF check failed): reload the page and submit again"),
)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def site_language(request: HttpRequest) -> str:
    """The page language: the language cookie, then Accept-Language (also before LocaleMiddleware has run)."""
    try:
        return translation.get_language_from_request(request)
    except Exception:  # a malformed header must not break the error page
        return settings.LANGUAGE_CODE


def language(request: HttpRequest) -> str:
    asked = request.GET.get("lang", "") if hasattr(request, "GET") else ""
    return lang_of(asked or site_language(request))


def said(text: str, lang: str) -> str:
    """A page text (gettext_lazy) in the engine language `lang` ("zh" / "en")."""
    with translation.override("en" if lang == "en" else settings.LANGUAGE_CODE):
        return str(text)


def api_error(request: HttpRequest, status: int, code: str | None = None, message: str | None = None) -> JsonResponse:
    default_code, default = ERRORS.get(status, ERRORS[400 if status < 500 else 500])
    text = message or said(default, language(request))
    return JsonResponse(
        {"error": {"code": code or default_code, "message": text}},
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


TITLES = {
    400: _("Bad request"),
    403: _("Forbidden"),
    404: _("Page not found"),
    413: _("Request too large"),
    414: _("Address too long"),
    431: _("Headers too large"),
    429: _("Too many requests"),
    500: _("Server error"),
    503: _("Server busy"),
}
BACK = _("Back to the calculator")


def page_error(request: HttpRequest, status: int, template: str, message: tuple | None = None) -> HttpResponse:
    code, text = message or ERRORS[status]
    lang = lang_of(site_language(request))
    context = {
        "status": status,
        "code": code,
        "title": said(TITLES[status], lang),
        "message": said(text, lang),
        "back": said(BACK, lang),
    }
    try:
        with translation.override(site_language(request)):
            body = loader.render_to_string(template, context, request)
    except Exception:  # the page itself must never fail: fall back to plain text
        log.exception("error page %s failed to render", template)
        plain = f"{status} {said(text, 'en')}\n{said(text, 'zh')}\n"
        return HttpResponse(plain, status=status, content_type="text/plain; charset=utf-8")
    return HttpResponse(body, status=status)


def refusal(request: HttpRequest, status: int, retry_after: int | None = None, reason: str = "") -> HttpResponse:
    """An answer that refuses the request: the JSON error under /api/ and for htmx requests (which swap nothing
    on an error), a page elsewhere; `Retry-After` when the client should try again. `reason="fault"`: a database
    fault, whose message says nothing was recorded."""
    message = FAULT_MESSAGE if reason == "fault" else None
    if is_api(request) or request.headers.get("HX-Request"):
        code, text = message or ERRORS[status]
        response = api_error(request, status, code, said(text, language(request)))
    else:
        response = page_error(request, status, "error.html", message)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return api_error(request, 400) if is_api(request) else page_error(request, 400, "400.html")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return api_error(request, 403) if is_api(request) else page_error(request, 403, "403.html")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return api_error(request, 404) if is_api(request) else page_error(request, 404, "404.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """500, unless what failed is a database fault raised outside a view (a middleware's query): that is 503, as
    DatabaseFaultMiddleware answers for views. Django calls this handler inside its `except`, so the exception
    being handled is the one that failed the request."""
    from calculator.plumbing import faults  # faults imports this module

    if faults.is_fault(sys.exception()):
        return faults.busy(request)
    return api_error(request, 500) if is_api(request) else page_error(request, 500, "500.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        code, text = CSRF_MESSAGE
        return api_error(request, 403, code, said(text, language(request)))
    return page_error(request, 403, "403.html", CSRF_MESSAGE)
