"""The access log (calculator.plumbing.middleware.AccessLogMiddleware): one JSON object per request, the same fields
under any server, every field redacted."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from calculator.plumbing.jsonlog import JSONFormatter, PlainFormatter
from calculator.plumbing.middleware import AccessLogMiddleware

TOKEN = "S3cret-token_0123456789abcdefghij"


def access_line(path="/", query="ruleset=bazhi&hand=123m", formatter=None, status=200, **meta) -> str:
    """What the access log writes for one request answered `status` with 4,321 bytes."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter or JSONFormatter())
    logger = logging.getLogger("access")
    logger.addHandler(handler)
    try:
        request = RequestFactory().get(path, QUERY_STRING=query, **meta)
        with override_settings(ACCESS_LOG=True):
            AccessLogMiddleware(lambda request: HttpResponse(b"x" * 4321, status=status))(request)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_access_line_has_the_request_fields():
    line = json.loads(
        access_line(
            REMOTE_ADDR="10.0.0.7",
            HTTP_X_FORWARDED_FOR="203.0.113.9",
            HTTP_USER_AGENT="Mozilla/5.0 (phone)",
            HTTP_REFERER="https://example.org/",
        )
    )
    assert line["logger"] == "access"
    assert (
        line["message"]
        == '10.0.0.7 "GET /?ruleset=bazhi&hand=123m" 200 4321 "https://example.org/" "Mozilla/5.0 (phone)"'
    )
    assert {k: line[k] for k in ("remote", "method", "path", "query", "status", "bytes")} == {
        "remote": "10.0.0.7",
        "method": "GET",
        "path": "/",
        "query": "ruleset=bazhi&hand=123m",
        "status": 200,
        "bytes": 4321,
    }
    assert line["forwarded_for"] == "203.0.113.9"
    assert line["user_agent"] == "Mozilla/5.0 (phone)" and line["referer"] == "https://example.org/"
    assert isinstance(line["worker"], int) and line["duration_ms"] >= 0


def test_missing_headers_log_as_dashes():
    line = json.loads(access_line())
    assert line["user_agent"] == "-" and line["referer"] == "-" and line["forwarded_for"] == ""


@pytest.mark.parametrize("formatter", [JSONFormatter(), PlainFormatter("%(message)s")], ids=["json", "plain"])
def test_every_field_of_the_line_is_redacted_in_both_formats(formatter):
    """Issue 20: with LOG_FORMAT=plain the raw request line kept the token. Now the path, query and Referer are
    each redacted, however they are spelled, in both formats."""
    text = access_line(
        f"/tables/abc/EDIT/{TOKEN}/",
        f"table=abc&%74oken={TOKEN}",
        formatter,
        status=404,
        HTTP_REFERER=f"https://example.org/tables/abc/%65dit/{TOKEN}/",
    )
    assert TOKEN not in text and text.count("[redacted]") >= 3 * (2 if isinstance(formatter, JSONFormatter) else 1)
