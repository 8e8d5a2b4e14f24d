"""The production app warms each worker up before it serves (calculator/wsgi.py): the URLconf, the page's template
and the card's and strip's Jinja2 environments in every language. A warm-up that fails only logs, so a test must
say it does not fail."""

from __future__ import annotations

import logging

from django.conf import settings

from calculator import wsgi
from calculator.plumbing.django_locale import _locale
from calculator.presentation.locale import lang_of
from calculator.presentation.render import environment


def test_the_warm_up_logs_no_error(caplog):
    with caplog.at_level(logging.ERROR, logger="calculator.wsgi"):
        wsgi.warm_up()
    assert [r.getMessage() for r in caplog.records] == []


def test_the_warm_up_compiles_the_card_and_the_strip_in_every_language():
    environment.cache_clear()
    wsgi.warm_up()
    for lang, _name in settings.LANGUAGES:
        cached = environment(_locale(lang_of(lang))).cache
        assert {name for (_loader, name) in cached} >= {"result.html", "strip.html"}, lang
