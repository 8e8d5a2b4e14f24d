"""The strip and the result card drawn in the phone: a thin adapter over the presentation's Django-free entry
point (issue 19, calculator/presentation/render.py), which the server's partial draws with too.

What the server takes from the request is in `context`: `origin` (the share link is absolute) and `table` (a
table kept in this phone, bound as the server binds one: see static/js/offline.js), or None.
"""

from __future__ import annotations

from calculator.presentation.handquery import Query
from calculator.presentation.locale import Locale
from calculator.presentation.render import draw_hand


def render_answer(fields: Query, locale: Locale, context: dict) -> dict:
    """{card, strip, share_query} for the calculator's fields, in the locale's language. On a calculator bound to a
    table kept in this phone the card has its "record this hand" (the key of the record is the phone's own:
    static/js/offline.js gives each queued hand one, so the card carries none)."""
    drawn = draw_hand(fields, locale, context["origin"], context.get("table") or None)
    return {"card": drawn.card, "strip": drawn.strip, "share_query": drawn.share_query}
