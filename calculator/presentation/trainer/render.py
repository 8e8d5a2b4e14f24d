"""The trainer's question as HTML (jinja2/trainer.html, #trainer): dealt from its link, graded when the link sends
an answer, drawn with the presentation's Jinja2 environment and `Locale`. One call for the server's page and for
the phone (issue 22), so a question reads the same from either."""

from __future__ import annotations

from markupsafe import Markup

from calculator.presentation.claims.render import draw_claims
from calculator.presentation.handquery import Query
from calculator.presentation.locale import Locale
from calculator.presentation.render import card_html, template
from calculator.presentation.trainer.presenter import trainer_page
from calculator.presentation.trainer.questions import Spec, grade, question, read_submission


def trainer_html(spec: Spec, query: Query, locale: Locale, link: str) -> str:
    """The section of the question `spec` (a clean link's: questions.read_spec), answered if `query` sends an
    answer it takes, in the locale's language. `link` is the query string it is drawn for (the page's
    data-link)."""
    q = question(spec, locale.lang)
    submission = read_submission(q, query)
    page = trainer_page(q, grade(q, submission) if submission else None, locale)
    card = Markup(card_html(page.result, locale)) if page.result else ""  # rendered templates
    if page.claims_query:  # a "claims" question: explained as the page of who takes the discard answers it
        card = Markup(draw_claims(page.claims_query, locale, share=False).html)
    return template("trainer.html", locale).render(
        page=page,
        card=card,
        link=link,
        trainer_page=locale.page("trainer"),
        calculator_page=locale.page("calculator"),
        claims_page=locale.page("claims"),
    )
