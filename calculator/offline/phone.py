"""The offline pack's entry point in the phone (issue 22): run by static/js/offline-worker.js under Pyodide, and
by the tests under CPython. No Django here: the words come from the compiled catalogues (the standard library's
gettext reads Django's .mo files), the static URLs from the pack's `static-urls.json`, written when the pack was
built. The engine and the presenter are the server's own modules, packed unchanged.
"""

from __future__ import annotations

import gettext
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import parse_qs

from calculator.engine import score

STATIC_URLS = "static-urls.json"  # in the pack: {a path under static/: its URL}, written by pack.build
# The engine's language ("zh" / "en") and the catalogue that translates the web layer's words into it; English is
# the catalogue's source language (no catalogue).
CATALOGUES = {"zh": "zh_Hans"}


@dataclass(frozen=True, slots=True)
class PhoneLocale:
    """What the presenter is handed instead of Django's translation and static files: the translation functions
    of one language and the static-URL function."""

    language: str  # the page's language code, as Django names it: "zh-hans" or "en"
    translations: gettext.NullTranslations
    static_urls: dict[str, str]

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.translations.npgettext(context, singular, plural, n)

    def static(self, path: str) -> str:
        return self.static_urls[path]


class Query:
    """A query string read as Django's QueryDict reads it (the last value of a repeated key; all of them)."""

    def __init__(self, query: str) -> None:
        self._values = parse_qs(query, keep_blank_values=True)

    def get(self, key: str, default: str | None = None) -> str | None:
        values = self._values.get(key)
        return values[-1] if values else default

    def getlist(self, key: str) -> list[str]:
        return list(self._values.get(key, []))


class Phone:
    """The pack unpacked at `root`: scores requests and draws answers in the page's two languages."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @cached_property
    def static_urls(self) -> dict[str, str]:
        return json.loads((self.root / STATIC_URLS).read_text(encoding="utf-8"))

    @cached_property
    def locales(self) -> dict[str, PhoneLocale]:
        locales = {}
        for lang, code in (("zh", "zh-hans"), ("en", "en")):
            catalogue = CATALOGUES.get(lang)
            translations = (
                gettext.GNUTranslations((self.root / "locale" / catalogue / "LC_MESSAGES" / "django.mo").open("rb"))
                if catalogue
                else gettext.NullTranslations()
            )
            locales[lang] = PhoneLocale(code, translations, self.static_urls)
        return locales

    def score(self, request: str, lang: str) -> str:
        """The engine's answer to an API.md request (JSON text), as JSON text with sorted keys: what
        `POST /api/score` answers, byte for byte once both are written with sorted keys."""
        try:
            data = json.loads(request)
        except ValueError:
            data = request  # the engine answers bad_json for what is not an object
        return json.dumps(score(data, lang), sort_keys=True, ensure_ascii=False)

    def answer(self, query: str, lang: str, context: str) -> str:
        """The strip and the result card for the calculator's fields (`query`, as the page's form sends them),
        drawn by the server's presenter and templates (JSON text: card, strip, share_query). `context` (JSON)
        holds what the server takes from the request: the page's address and the bound table."""
        from calculator.offline.render import render_answer
        from calculator.offline.table import with_table

        where = json.loads(context)
        fields = Query(query)
        bound = where.get("table")
        if bound and bound.get("kept"):
            fields = with_table(fields, bound["kept"])  # a table kept in this phone decides its fields
        return json.dumps(render_answer(fields, self.locales[lang], where), ensure_ascii=False)

    def table(self, action: str, table: str, hand: str, lang: str) -> str:
        """A ledger table kept in the phone (calculator/offline/table.py), JSON text in and out: `fixed` (the
        calculator's fields it decides), `hand` (the hand of the calculator's fields `hand`, a query string),
        `record` (the hand, a JSON object, booked against the table)."""
        from calculator.offline import table as tables

        data = json.loads(table)
        if action == "fixed":
            return json.dumps(tables.fixed_fields(data), ensure_ascii=False)
        if action == "hand":
            return json.dumps(tables.hand_of(tables.with_table(Query(hand), data)), ensure_ascii=False)
        if action == "record":
            return json.dumps(tables.record(data, json.loads(hand), lang), sort_keys=True, ensure_ascii=False)
        raise ValueError(f"no table action {action!r}")

    def warm(self) -> None:
        """Read the catalogues and draw one answer in each language, so that the first tap after the pack is
        ready costs what every tap costs (templates compiled, caches filled)."""
        for lang in self.locales:
            self.score(WARM_REQUEST, lang)


WARM_QUERY = "ruleset=bazhi&tariff=315&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"
WARM_REQUEST = json.dumps(
    {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
)
