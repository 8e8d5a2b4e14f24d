"""The JSON access log line of gunicorn (calculator.plumbing.jsonlog.GunicornLogger): one object per request."""

from __future__ import annotations

import io
import json
import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from calculator.plumbing.jsonlog import GunicornLogger, JSONFormatter


def access_line(status="200 OK", environ_extra=None, drop=()) -> tuple[dict, dict]:
    """(the logged JSON object, the same request's fields as gunicorn's `atoms()` gives them)."""
    config = Config()
    config.set("accesslog", "-")
    logger = GunicornLogger(config)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JSONFormatter())
    logger.access_log.handlers = [handler]
    environ = {
        "REMOTE_ADDR": "10.0.0.7",
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/",
        "QUERY_STRING": "ruleset=bazhi&hand=123m",
        "RAW_URI": "/?ruleset=bazhi&hand=123m",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_USER_AGENT": "Mozilla/5.0 (phone)",
        "HTTP_REFERER": "https://example.org/",
        **(environ_extra or {}),
    }
    for key in drop:
        del environ[key]
    resp = SimpleNamespace(status=status, sent=4321, headers=[("Content-Type", "text/html")])
    req = SimpleNamespace(headers=[("HOST", "example.org")])
    took = timedelta(microseconds=12345)
    logger.access(resp, req, environ, took)
    atoms = logger.atoms(resp, req, environ, took)
    return json.loads(stream.getvalue()), atoms


def test_access_line_has_the_request_fields():
    line, _ = access_line(environ_extra={"HTTP_X_FORWARDED_FOR": "203.0.113.9"})
    assert line["message"] == "GET / 200"
    assert line["logger"] == "gunicorn.access"
    assert {k: line[k] for k in ("remote", "method", "path", "query", "status", "bytes", "duration_ms")} == {
        "remote": "10.0.0.7",
        "method": "GET",
        "path": "/",
        "query": "ruleset=bazhi&hand=123m",
        "status": 200,
        "bytes": 4321,
        "duration_ms": 12.3,
    }
    assert line["forwarded_for"] == "203.0.113.9"
    assert isinstance(line["worker"], int)


@pytest.mark.parametrize("status", ["200 OK", "404 Not Found", 503])
def test_access_fields_agree_with_gunicorns_atoms(status):
    line, atoms = access_line(status=status)
    assert line["remote"] == atoms["h"]
    assert line["method"] == atoms["m"]
    assert line["path"] == atoms["U"]
    assert line["query"] == atoms["q"]
    assert line["status"] == int(atoms["s"])
    assert line["bytes"] == atoms["B"]
    assert line["duration_ms"] == round(atoms["D"] / 1000, 1)
    assert line["user_agent"] == atoms["a"]
    assert line["referer"] == atoms["f"]


def test_missing_headers_log_as_dashes_like_gunicorn():
    line, atoms = access_line(drop=("HTTP_USER_AGENT", "HTTP_REFERER", "REMOTE_ADDR"))
    assert line["user_agent"] == atoms["a"] == "-"
    assert line["referer"] == atoms["f"] == "-"
    assert line["remote"] == atoms["h"] == "-"
    assert line["forwarded_for"] == ""
