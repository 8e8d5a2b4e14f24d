"""Where a ledger's edit token travels in a URL, and how it is kept out of logs, caches and Referers.

The token is the edit link's secret (only its hash is stored). It appears in
- the edit pages' paths: `/tables/<id>/edit/<token>/`, `…/record/`, `…/<action>/`;
- the calculator bound to a table: `/?table=<id>&token=<token>&…` (and its htmx partial);
- the Referer of every request made from those pages (their static files, their forms), since their Referrer-Policy
  is `same-origin` (see `keep_private`).

`redact` takes the token out of any text (a log line, a path, a query, a Referer), however the URL is spelled; the
log formatters apply it to every field and line they write (calculator/plumbing/jsonlog.py). No Django here: the server's master process loads the formatters before Django.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

REDACTED = "[redacted]"


def _spelled(word: str) -> str:
    """A regular expression for `word` however a client may spell it in a URL: any letter case (the pattern is
    compiled case-insensitive), any character percent-encoded (`%65dit`, `%45DIT`)."""
    return "".join(f"(?:{re.escape(c)}|%{ord(c.lower()):02x}|%{ord(c.upper()):02x})" for c in word)


# Path separators as clients send them: `/`, `%2F`, repeated (`edit//<token>`), with `.` segments between.
_SLASH = r"(?:/|%2f)(?:/|%2f|\.(?=/|%2f)|%2e(?=/|%2f))*"
# What a token (or any value) may be made of in a URL, percent-encoded characters included, so that trailing junk
# glued to the token (`<token>%00`, `<token>.x`) is taken out with it.
_VALUE = r"(?:[\w\-.~!$*+,:@]|%[0-9a-f]{2})+"
# Where an `edit` segment may start: after a slash or a backslash, plain or encoded.
_BEFORE_EDIT = r"(?:/|%2f|\\|%5c)"
# The segment after an `edit` segment, wherever a path appears (a path, a full URL in a Referer, a log message).
_EDIT_PATH = re.compile(rf"({_BEFORE_EDIT}{_spelled('edit')}{_SLASH}){_VALUE}", re.IGNORECASE)
# An `edit` segment followed by anything else than a letter, a digit or the segment taken out above (`edit;/`,
# `edit\`, `edit%09/`, `edit%23`, `edit/;/`: issue 31, finding 5): the rest of the text goes, whatever it holds.
_EDIT_ODD = re.compile(
    rf"({_BEFORE_EDIT}{_spelled('edit')}(?:{_SLASH})?+)(?![a-z0-9_]|\[redacted\]|$).*", re.IGNORECASE | re.DOTALL
)
# What may stand between a parameter's name and its `=`: brackets, plain or encoded, with anything but a separator
# inside (`token[]`, `token[0]`, `token%5B%5D`), and other punctuation.
_BRACKETS = r"(?:\[[^\]=&;\s]*\]|%5b(?:(?!%5d|%3d)[^=&;\s])*%5d|[^a-z0-9=&;\s\"'%]|%(?!3d)[0-9a-f]{2}){0,16}?"
# A `token=` parameter, its name spelled in any way and followed by brackets or other punctuation (`token[]=`,
# `token%5B%5D=`), at the start of a query, after a separator (`&`, `;`, `?` and their encodings) or after the quote
# or space that starts the text around it in a log line.
_TOKEN_PARAM = re.compile(
    rf"((?:^|[?&;\s\"']|%26|%3b|%3f){_spelled('token')}{_BRACKETS}(?:=|%3d))"
    r"[^&;\s\"'#]*",
    re.IGNORECASE,
)


def _redacted(text: str) -> str:
    text = _EDIT_PATH.sub(rf"\1{REDACTED}", text)
    text = _EDIT_ODD.sub(rf"\1{REDACTED}", text)
    return _TOKEN_PARAM.sub(rf"\1{REDACTED}", text)


def _decoded(text: str) -> str:
    """`text` with its percent-escapes decoded, twice over (a client may encode the `%` itself: `%2565dit`)."""
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return text


def redact(text: str) -> str:
    """`text` with every edit token replaced by REDACTED, however the URL around it is spelled: percent-encoded,
    in capitals, with repeated slashes (what a client sends is logged, and a 404 path can hold a real token too).

    The patterns match the spellings themselves; a spelling that only shows after decoding (a doubly encoded `%`)
    is caught on the decoded text, and then the decoded text, redacted, is what comes back. Text that holds neither
    `edit`, `token` nor a `%` (most log lines) is returned as it is, without running a pattern."""
    folded = text.casefold()
    if "%" not in text and "edit" not in folded and "token" not in folded:
        return text
    redacted = _redacted(text)
    if "%" in redacted:
        decoded = _decoded(redacted)
        if decoded != redacted and _redacted(decoded) != decoded:
            return _redacted(decoded)
    return redacted


def in_url(path: str, query: str) -> bool:
    """Whether a request's path or query string carries an edit token."""
    return redact(path) != path or redact(query) != query


def keep_private(response) -> None:
    """Headers for a response that carries an edit token (in its URL or its page).

    Cache-Control: no-store keeps it out of every cache, the browser's included. Referrer-Policy stays
    "same-origin", not "no-referrer": with "no-referrer" browsers send `Origin: null` with the page's own form posts
    and htmx requests, and Django's CSRF check refuses them. Requests to this site therefore carry the page's
    address as their Referer, and the access log redacts it; other sites never see it.
    """
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
