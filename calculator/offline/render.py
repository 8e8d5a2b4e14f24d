"""The strip and the result card drawn in the phone: a thin adapter over the presentation's Django-free entry
point (issue 19, calculator/presentation/render.py), which the server's partial draws with too.

What the server takes from the request is in `context`: `origin` (the share link is absolute) and `table` (a
table kept in this phone, bound as the server binds one: see static/js/offline.js), or None.
"""

from __future__ import annotations

from calculator.presentation.cards import ask_engine, result_card
from calculator.presentation.handquery import Query, parse_query, query_string
from calculator.presentation.locale import Locale
from calculator.presentation.render import CardLinks, card_html, render_hand, strip_html


def render_answer(fields: Query, locale: Locale, context: dict) -> dict:
    """{card, strip, share_query} for the calculator's fields, in the locale's language."""
    table = context.get("table")
    if not table:
        strip, card = render_hand(fields, locale, context["origin"])
        return {"card": card, "strip": strip, "share_query": query_string(parse_query(fields))}
    # A bound calculator's card (its "record this hand" button): the key of the record is the phone's own
    # (static/js/offline.js gives each queued hand one), so the card carries none.
    hand = parse_query(fields)
    share_query = query_string(hand)
    card = result_card(hand, ask_engine(hand, locale.lang), locale)
    share_url = f"{context['origin']}{locale.page('calculator')}?{share_query}"
    return {
        "card": card_html(card, locale, CardLinks(share_query, share_url, table)),
        "strip": strip_html(card, locale),
        "share_query": share_query,
    }
