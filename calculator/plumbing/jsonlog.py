"""Structured logging: one JSON object per line on stdout, for Django (settings.LOGGING) and the server (gunicorn's
own lines: deploy/gunicorn-logging.json names `formatter` below).

Both formatters here (JSON and plain) take edit tokens out of everything they write (calculator/plumbing/edit_tokens.py):
the paths, queries and Referers of the access log (calculator.plumbing.middleware.AccessLogMiddleware), Django's
"Not Found: <path>" warnings, tracebacks; the JSON formatter field by field, before the line is encoded.

No Django imports here: gunicorn's master process loads this module before any worker sets Django up.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

from calculator.plumbing.edit_tokens import redact

# The attributes every LogRecord has; anything else on a record came in through `extra=` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


def _plain(value: object) -> object:
    """A JSON-safe version of an extra field (requests and sockets become their repr, trimmed), edit tokens
    redacted from every text in it."""
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return redact(repr(value)[:200])


class JSONFormatter(logging.Formatter):
    """`{"time": ..., "level": ..., "logger": ..., "message": ..., <extra fields>, "exc": ...}` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "method"):  # django.request puts the request on the record
            entry["method"] = request.method
            entry["path"] = redact(getattr(request, "path", ""))
            entry["referer"] = redact(request.META.get("HTTP_REFERER", "")) if hasattr(request, "META") else ""
        for name, value in vars(record).items():
            if name not in _STANDARD and name != "request" and name not in entry:
                entry[name] = _plain(value)
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        if record.stack_info:
            entry["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """The usual `logging.Formatter`, edit tokens redacted (LOG_FORMAT=plain)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def formatter() -> logging.Formatter:
    """The formatter LOG_FORMAT names (json, the default, or plain), for a logging configuration read without Django
    (gunicorn's `--log-config-json`): the server's lines in the format of the app's."""
    if os.environ.get("LOG_FORMAT", "json") == "plain":
        return PlainFormatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    return JSONFormatter()
