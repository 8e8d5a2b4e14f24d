"""What the presentation needs of the world around it, handed in as one small value: the page's language, its
translation functions, where static files and the site's pages are, and where the card's templates are.

The presentation imports no Django, so the same code draws the result card on the server and in the phone's
browser (issue 22, Pyodide). On the server the `Locale` is built from Django's translation functions and
`static()` (calculator/plumbing/django_locale.py); anywhere else `Locale.from_catalogue` builds it from the
compiled catalogue (`locale/zh_Hans/LC_MESSAGES/django.mo`) with the standard library's `gettext`.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ENGINE_LANGS = ("zh", "en")  # the engine's languages: Chinese first, the default


def lang_of(language: str | None) -> str:
    """The engine's language ("zh" / "en") for a page's language code ("zh-hans", "en-gb", None): English for
    an English page, Chinese otherwise."""
    return "en" if (language or "").startswith("en") else "zh"


@dataclass(frozen=True, slots=True, eq=False)
class Locale:
    """The page's language as the engine names it (`lang`: "zh" / "en"), the translation functions of its
    catalogue (gettext's), `static(path)`: the URL of a static file (`tiles/tiles.svg`), and `page(name)`: the
    path of one of the site's pages without arguments ("calculator", "rules"), and `templates`: the folder of the
    card's templates compiled to Python modules (the offline pack's, compiled when it was built, so that the phone
    never runs Jinja2's compiler), or None: their sources in jinja2/, compiled when first drawn (the server).

    One value per language and site, compared by identity (the caches of the card's words and tile pictures are
    keyed on it): build it once and keep it."""

    lang: str
    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]
    static: Callable[[str], str]
    page: Callable[[str], str]
    templates: Path | None = None

    @classmethod
    def from_catalogue(
        cls,
        lang: str,
        mo_file: Path | None,
        static: Callable[[str], str],
        page: Callable[[str], str],
        templates: Path | None = None,
    ) -> Locale:
        """A locale read from a compiled catalogue (None: the source language, English, untranslated)."""
        if mo_file is None:
            translations: gettext.NullTranslations = gettext.NullTranslations()
        else:
            with mo_file.open("rb") as catalogue:
                translations = gettext.GNUTranslations(catalogue)
        return cls(lang, translations.gettext, translations.ngettext, translations.pgettext, static, page, templates)
