"""The answer of the page "who takes the discard" as HTML (jinja2/claims.html): the taking win's result card drawn
by the calculator's own template (render.card_html) and its strip under the verdict, the other claims by the
calculator's strip. One call for
the server's page, its htmx partial and the phone (issue 22)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup

from ..handquery import Fields, Query, query_string
from ..locale import Locale
from ..render import CardLinks, card_html, strip_html, template
from .fields import claims_query, parse_claims
from .presenter import Settled, claims_answer

PAGE = "claims"  # the page's name (Locale.page)


@dataclass(frozen=True, slots=True)
class DrawnClaims:
    """The inside of the page's #claims-answer, and the share link's query of the input drawn."""

    html: str
    share_query: str


def draw_claims(
    fields: Query | str,
    locale: Locale,
    origin: str = "",
    table: dict | None = None,
    record_key: Callable[[dict], str] | None = None,
    share: bool = True,
) -> DrawnClaims:
    """The answer for the page's fields (a `Query`, or a share link's query string), in the locale's language.
    `origin` ("https://example.org") makes the share link absolute; `table` is the binding of a page bound to a
    ledger table (render.CardLinks: the taking win gets "record this hand", keyed by `record_key` of its
    request: the server's keyed hash; none in the phone, which keys its own queue); `share` off leaves out the
    share box (the trainer's explanation links to the page instead)."""
    claims = parse_claims(Fields.of(fields) if isinstance(fields, str) else fields)
    share_query = claims_query(claims)
    view = claims_answer(claims, locale)
    card, taking, others = "", "", []
    if isinstance(view, Settled):
        if view.card is not None:
            key = record_key(view.hand.request) if record_key else ""
            links = CardLinks(query_string(view.hand), "", table, key)
            card = Markup(card_html(view.card, locale, links))  # rendered templates
            taking = Markup(strip_html(view.card, locale))  # who pays whom at a glance, under the verdict
        others = [Markup(strip_html(other.card, locale)) for other in view.others]
    html = template("claims.html", locale).render(
        answer=view,
        card=card,
        taking=taking,
        others=others,
        share_url=f"{origin}{locale.page(PAGE)}?{share_query}" if share and view.kind != "empty" else "",
        calculator_page=locale.page("calculator"),
        rules_page=locale.page("rules"),
        table=table,
    )
    return DrawnClaims(html, share_query)
