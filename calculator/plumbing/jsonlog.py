"""Structured logging: one JSON object per line on stdout, for Django (settings.LOGGING) and gunicorn.

Both formatters here (JSON and plain) take edit tokens out of every line they write (calculator/plumbing/edit_tokens.py):
the paths, queries and Referers of the access log, Django's "Not Found: <path>" warnings, tracebacks.

No Django imports here: gunicorn's master process loads this module before Django is set up.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

from calculator.plumbing.edit_tokens import redact

try:  # gunicorn is a production dependency, but the formatter must work without it
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = object

# The attributes every LogRecord has; anything else on a record came in through `extra=` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


def _plain(value: object) -> object:
    """A JSON-safe version of an extra field (requests and sockets become their repr, trimmed)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return repr(value)[:200]


class JSONFormatter(logging.Formatter):
    """`{"time": ..., "level": ..., "logger": ..., "message": ..., <extra fields>, "exc": ...}` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "method"):  # django.request puts the request on the record
            entry["method"] = request.method
            entry["path"] = getattr(request, "path", "")
        for name, value in vars(record).items():
            if name not in _STANDARD and name != "request" and name not in entry:
                entry[name] = _plain(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return redact(json.dumps(entry, ensure_ascii=False, default=str))


class PlainFormatter(logging.Formatter):
    """The usual `logging.Formatter`, edit tokens redacted (LOG_FORMAT=plain)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class GunicornLogger(_GunicornLogger):
    """gunicorn's logger with one JSON line per request on the access log (fields, not a format string)."""

    def access(self, resp, req, environ, request_time) -> None:
        """The request's line. The fields are read straight from the environ and the response: gunicorn's
        `atoms()` would also format the time, decode credentials and copy every header and environ entry into a
        dict for format strings, a tenth of a result partial's time, for fields this line never writes."""
        if not self.access_log_enabled:
            return
        status = resp.status
        if isinstance(status, str):  # "200 OK"
            status = status.split(None, 1)[0]
        fields = {
            "remote": environ.get("REMOTE_ADDR", "-"),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "query": environ.get("QUERY_STRING") or "",
            "status": int(status) if str(status).isdigit() else status,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round((request_time.seconds * 1_000_000 + request_time.microseconds) / 1000, 1),
            "forwarded_for": environ.get("HTTP_X_FORWARDED_FOR", ""),
            "user_agent": environ.get("HTTP_USER_AGENT", "-"),
            "referer": environ.get("HTTP_REFERER", "-"),
            "worker": os.getpid(),
        }
        try:
            self.access_log.info("%s %s %s", fields["method"], fields["path"], fields["status"], extra=fields)
        except Exception:  # never let logging break a response
            self.exception("access log failed")
