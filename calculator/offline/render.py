"""The strip and the result card drawn in the phone: a thin adapter over the presentation package's Django-free
entry point (issue 19), which the server's partial uses too, so both draw the same HTML from the same fields.

What the server takes from the request is in `context`: `page` (the calculator's path before the hand), `origin`
(the share link is absolute) and `table` (a table this phone keeps, or None: see static/js/offline.js).
"""

from __future__ import annotations

from calculator.presentation import rendering


def render_answer(query, locale, context: dict) -> dict:
    """{card, strip, share_query} for the calculator's fields, in the locale's language."""
    drawn = rendering.render_answer(
        query, locale, page=context["page"], origin=context["origin"], table=context["table"]
    )
    return {"card": drawn.card, "strip": drawn.strip, "share_query": drawn.share_query}
