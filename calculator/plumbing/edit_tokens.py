"""Where a ledger's edit token travels in a URL, and how it is kept out of logs, caches and Referers.

The token is the edit link's secret (only its hash is stored). It appears in
- the edit pages' paths: `/tables/<id>/edit/<token>/`, `…/record/`, `…/<action>/`;
- the calculator bound to a table: `/?table=<id>&token=<token>&…` (and its htmx partial);
- the Referer of every request made from those pages (their static files, their forms), since their Referrer-Policy
  is `same-origin` (see `keep_private`).

`redact` takes the token out of any text (a log line, a path, a query, a Referer); the log formatters apply it to
every line they write (calculator/plumbing/jsonlog.py). No Django here: gunicorn's master loads the formatters before Django.
"""

from __future__ import annotations

import re

REDACTED = "[redacted]"

# The token segment of an edit path, wherever it appears (a path, a full URL in a Referer, a log message).
_EDIT_PATH = re.compile(r"(/tables/[^/\s\"'?#]+/edit/)[^/\s\"'?#]+")
# A `token=` query parameter, its name possibly percent-encoded as a client may send it (`%74oken=`), after the
# start of a query, a separator, or the quote or space that starts the text around it in a log line.
_TOKEN_PARAM = re.compile(r"((?:^|[?&;\s\"'])(?:t|%74)(?:o|%6[fF])(?:k|%6[bB])(?:e|%65)(?:n|%6[eE])=)[^&;\s\"'#]*")


def redact(text: str) -> str:
    """`text` with every edit token replaced by REDACTED.

    Each pattern runs only on text that holds its fixed part: a log line is redacted on every request, and most
    have neither (a spelling of the parameter's name percent-encoded in any way holds "oken=" or "%6")."""
    if "/edit/" in text:
        text = _EDIT_PATH.sub(rf"\1{REDACTED}", text)
    if "oken=" in text or "%6" in text:
        text = _TOKEN_PARAM.sub(rf"\1{REDACTED}", text)
    return text


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
