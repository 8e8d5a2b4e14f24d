"""The trainer page (issue 13 §3): `/trainer/?seed=…` shows a question, `&answer=…` grades it.

Everything is in the link: the question is dealt again from its spec (trainer.py) for every request, so nothing
is stored on the server and a question can be shared. A link without a seed (or with a part that is not
understood) is sent on to a clean one with a fresh seed. The page is a form that works without JavaScript, the
level and the patterns under review included (they are in the links: practice.py); static/js/trainer.js makes it
quick (htmx swaps the question in place) and keeps the learner's progress, level and review in the browser.
The question itself is Django-free (calculator/presentation/trainer/), so the offline pack deals, grades and draws
it in the phone with the same code (issue 22).
"""

from __future__ import annotations

from random import SystemRandom
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from calculator.plumbing.django_locale import page_locale, page_path
from calculator.presentation.locale import Locale
from calculator.presentation.trainer.practice import RETIRE_AFTER
from calculator.presentation.trainer.presenter import topic_names
from calculator.presentation.trainer.questions import MAX_SEED, read_spec
from calculator.presentation.trainer.render import trainer_html


def trainer(request: HttpRequest) -> HttpResponse:
    spec, clean = read_spec(request.GET, lambda: SystemRandom().randrange(MAX_SEED))
    if not clean:
        return redirect(page_path("trainer") + "?" + urlencode(spec.query()))
    locale = page_locale()
    link = request.META.get("QUERY_STRING", "")
    context = {
        "trainer": mark_safe(trainer_html(spec, request.GET, locale, link)),  # a rendered template
        "trainer_text": js_text(locale),
    }
    return render(request, "trainer.html", context)


def js_text(locale: Locale) -> dict:
    """What trainer.js shows: the names of the patterns it may ask to practise, and its words."""
    return {
        "topics": topic_names(locale),
        "streak": _("Streak %(n)s"),
        "best": _("best %(n)s"),
        "score": _("%(right)s of %(total)s right"),
        "practise": _("Practising: %(names)s"),
        "reviewing": _("%(name)s %(right)s/%(need)s"),  # a pattern under review, right answers in a row of those needed
        "retire": RETIRE_AFTER,
        "reset": _("Reset progress"),
        "empty": _("Your progress is kept in this browser only."),
    }
