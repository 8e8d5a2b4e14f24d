"""The presentation's `Locale` on the server, and the language choice: built from Django's translation functions,
`static()` and the URLconf. The one place where the Django-free presentation (calculator/presentation/) meets
Django; the pages call `page_locale()` and hand its answer down."""

from __future__ import annotations

from functools import lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils.functional import lazy
from django.utils.translation import get_language, gettext, ngettext, pgettext

from calculator.engine.text import Said
from calculator.presentation import glossary, tiles
from calculator.presentation.locale import Locale, lang_of


def engine_lang(request: HttpRequest | None = None) -> str:
    """The engine's language ("zh" / "en") for this request: ?lang= wins over the page's negotiated language."""
    asked = request.GET.get("lang") if request is not None else None
    return lang_of(asked or get_language())


def page_locale() -> Locale:
    """The locale of the active language (the request's, set by LocaleMiddleware)."""
    return _locale(lang_of(get_language()))


@lru_cache(maxsize=4)
def _locale(lang: str) -> Locale:
    # Django's translation functions translate into the active language: this locale is used while it is active
    return Locale(lang, gettext, ngettext, pgettext, static, page_path)


def local(text: Said) -> str:
    """An engine text (a message, a ruleset's declared label …) in the active language."""
    return text(lang_of(get_language()))


local_lazy = lazy(local, str)  # for a label made once (a form field's) and shown in each request's language


def page_path(name: str) -> str:
    """`reverse(name)` for a page without arguments: the same path every time for one script prefix (the
    deployment's mount point), so it is resolved once (each `reverse` walks the URLconf)."""
    return _page_path(name, get_script_prefix())


@lru_cache(maxsize=64)
def _page_path(name: str, prefix: str) -> str:
    return reverse(name)


@receiver(setting_changed)
def forget_urls(*, setting: str, **kwargs) -> None:
    """Tests change where static files and pages are: the remembered URLs are stale."""
    if setting in ("STATIC_URL", "STORAGES", "ROOT_URLCONF"):
        tiles.forget_static_urls()
        _page_path.cache_clear()


def glossary_context(request: HttpRequest) -> dict:
    """Context processor: `glossary`, the games' words in the page's language (a callable: the template calls it
    only where it uses it, the English pages' base)."""
    return {"glossary": page_glossary}


def page_glossary() -> list[dict]:
    return [term.to_dict() for term in glossary.terms(lang_of(get_language()))]
