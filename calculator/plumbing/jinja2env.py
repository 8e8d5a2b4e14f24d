"""The Jinja2 environment of the templates in jinja2/ (settings.TEMPLATES: the result card only, for speed; the
pages are Django templates). Words are translated by Django's catalogue: `_("…")` in a template is `gettext`."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from jinja2 import Environment


def environment(**options) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    return env
