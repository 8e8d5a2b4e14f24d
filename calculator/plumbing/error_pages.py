"""The error pages: 400, 403 (and CSRF failures), 404, 429, 500 and 503, in both languages.

Pages get templates/<status>.html (extending base.html); every path under /api/ gets the API's error object
instead, `{"error": {"code": ..., "message": ...}}`, in the language of `?lang=` or the negotiated one.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation

from calculator.presentation.locale import lang_of

log = logging.getLogger(__name__)

# status: (code, Chinese message, English message)
ERRORS = {
    400: ("bad_request", "请求有误，无法处理", "the request could not be understood"),
    403: ("forbidden", "没有权限做这件事", "this is not allowed"),
    404: ("not_found", "没有这个地址", "there is nothing at this address"),
    405: ("method_not_allowed", "这个地址不接受这种请求方法", "this address does not accept this method"),
    413: ("too_large", "请求体太大", "the request body is too large"),
    414: ("uri_too_long", "请求的地址太长", "the request's address is too long"),
    431: ("headers_too_large", "请求头太多或太长", "the request has too many headers, or one too long"),
    429: ("rate_limited", "请求太频繁，请稍后再试", "too many requests: try again later"),
    500: ("server_error", "服务器出错了，已经记录下来", "something went wrong on our side; it has been logged"),
    503: ("busy", "服务器正忙，请几秒后再试", "the server is busy: try again in a few seconds"),
}
# A database fault (calculator/plumbing/faults.py): what the visitor needs to know is that nothing was recorded.
FAULT_MESSAGE = (
    "busy",
    "服务器暂时无法读写数据，这次什么也没有记下：请几秒后再试",
    "the server cannot store anything just now, and nothing was recorded: try again in a few seconds",
)
CSRF_MESSAGE = (
    "csrf_failed",
    "表单已过期或来源不明（CSRF 校验失败）：请刷新页面再提交",
    "the form expired or came from another site (CSRF check failed): reload the page and submit again",
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


def api_error(request: HttpRequest, status: int, code: str | None = None, message: str | None = None) -> JsonResponse:
    default_code, zh, en = ERRORS.get(status, ERRORS[400 if status < 500 else 500])
    text = message or (en if language(request) == "en" else zh)
    return JsonResponse(
        {"error": {"code": code or default_code, "message": text}},
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


TITLES = {
    400: ("请求有误", "Bad request"),
    403: ("不允许", "Forbidden"),
    404: ("找不到这个页面", "Page not found"),
    413: ("请求太大", "Request too large"),
    414: ("地址太长", "Address too long"),
    431: ("请求头太大", "Headers too large"),
    429: ("请求太频繁", "Too many requests"),
    500: ("服务器出错", "Server error"),
    503: ("服务器正忙", "Server busy"),
}
BACK = ("回到计算器", "Back to the calculator")


def page_error(request: HttpRequest, status: int, template: str, message: tuple | None = None) -> HttpResponse:
    code, zh, en = message or ERRORS[status]
    en_page = lang_of(site_language(request)) == "en"
    pick = (lambda pair: pair[1]) if en_page else (lambda pair: pair[0])
    context = {
        "status": status,
        "code": code,
        "title": pick(TITLES[status]),
        "message": en if en_page else zh,
        "back": pick(BACK),
    }
    try:
        with translation.override(site_language(request)):
            body = loader.render_to_string(template, context, request)
    except Exception:  # the page itself must never fail: fall back to plain text
        log.exception("error page %s failed to render", template)
        return HttpResponse(f"{status} {en}\n{zh}\n", status=status, content_type="text/plain; charset=utf-8")
    return HttpResponse(body, status=status)


def refusal(request: HttpRequest, status: int, retry_after: int | None = None, reason: str = "") -> HttpResponse:
    """An answer that refuses the request: the JSON error under /api/ and for htmx requests (which swap nothing
    on an error), a page elsewhere; `Retry-After` when the client should try again. `reason="fault"`: a database
    fault, whose message says nothing was recorded."""
    message = FAULT_MESSAGE if reason == "fault" else None
    if is_api(request) or request.headers.get("HX-Request"):
        code, zh, en = message or ERRORS[status]
        response = api_error(request, status, code, en if language(request) == "en" else zh)
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
        code, zh, en = CSRF_MESSAGE
        return api_error(request, 403, code, en if language(request) == "en" else zh)
    return page_error(request, 403, "403.html", CSRF_MESSAGE)
