"""The offline pack's entry point in the phone (issue 22): run by static/js/offline-worker.js under Pyodide, and
by the tests under CPython. No Django here: the words come from the compiled catalogues (the presentation's
`Locale.from_catalogue` reads Django's .mo files with the standard library's gettext), the static URLs and the
pages' paths from the pack's `urls.json`, written when the pack was built. The engine, the ledger and the
presentation are the server's own modules, packed unchanged.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from random import Random, SystemRandom
from urllib.parse import urlencode

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.presentation.handquery import Fields, HandInput, query_string
from calculator.presentation.locale import ENGINE_LANGS, Locale
from calculator.presentation.trainer.questions import MAX_SEED, read_spec

URLS = "urls.json"  # in the pack: {"static": {a path under static/: its URL}, "pages": {a page's name: its path}}
# In the pack: the card's Jinja2 templates compiled to Python modules when it was built (Jinja2's ModuleLoader reads
# them), so that the phone never runs the template compiler (its peak would outgrow the heap a snapshot restores).
COMPILED_TEMPLATES = "templates"
# The catalogue that translates the web layer's words into an engine language; English is the source language.
CATALOGUES = {"zh": "zh_Hans"}


class Phone:
    """The pack unpacked at `root`: scores requests and draws answers in the page's two languages."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @cached_property
    def urls(self) -> dict[str, dict[str, str]]:
        return json.loads((self.root / URLS).read_text(encoding="utf-8"))

    @cached_property
    def locales(self) -> dict[str, Locale]:
        """One locale per language, kept (the presentation's caches are keyed on it)."""
        static, pages = self.urls["static"], self.urls["pages"]
        catalogue = {
            lang: self.root / "locale" / code / "LC_MESSAGES" / "django.mo" for lang, code in CATALOGUES.items()
        }
        return {
            lang: Locale.from_catalogue(
                lang, catalogue.get(lang), static.__getitem__, pages.__getitem__, self.root / COMPILED_TEMPLATES
            )
            for lang in ENGINE_LANGS
        }

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
        holds what the server takes from the request: the share link's origin and the bound table."""
        from calculator.offline.render import render_answer
        from calculator.offline.table import with_table

        where = json.loads(context)
        fields = Fields.of(query)
        bound = where.get("table")
        if bound and bound.get("kept"):
            fields = with_table(fields, bound["kept"])  # a table kept in this phone decides its fields
        return json.dumps(render_answer(fields, self.locales[lang], where), ensure_ascii=False)

    def claims(self, query: str, lang: str, context: str) -> str:
        """The answer of the page of who takes a discard for its fields (`query`, as its form sends them), drawn by
        the server's presenter and templates (JSON text: html, share_query). `context` (JSON) holds the share
        link's origin."""
        from calculator.presentation.claims.render import draw_claims

        drawn = draw_claims(query, self.locales[lang], json.loads(context).get("origin", ""))
        return json.dumps({"html": drawn.html, "share_query": drawn.share_query}, ensure_ascii=False)

    def picture(self, query: str, lang: str, origin: str) -> str:
        """The picture (SVG) of the answer to a share link's query, drawn by the server's presenter and template
        (issue 32), its QR code the share link at `origin`; empty for an answer without a picture."""
        from calculator.presentation.render import draw_picture

        return draw_picture(query, self.locales[lang], origin) or ""

    def table(self, action: str, table: str, hand: str, lang: str) -> str:
        """A ledger table kept in the phone (calculator/offline/table.py), JSON text in and out: `fixed` (the
        calculator's fields it decides), `hand` (the hand of the calculator's fields `hand`, a query string),
        `record` (the hand, a JSON object, booked against the table)."""
        from calculator.offline import table as tables

        data = json.loads(table)
        if action == "fixed":
            return json.dumps(tables.fixed_fields(data), ensure_ascii=False)
        if action == "hand":
            return json.dumps(tables.hand_of(tables.with_table(Fields.of(hand), data)), ensure_ascii=False)
        if action == "record":
            return json.dumps(tables.record(data, json.loads(hand), lang), sort_keys=True, ensure_ascii=False)
        raise ValueError(f"no table action {action!r}")

    def trainer(self, query: str, lang: str) -> str:
        """The trainer's question of a trainer link (its query string), dealt, graded when the link sends an answer,
        and drawn as the server's page draws it (#trainer). A link the server would send on to a clean one (no
        seed, a part not understood) is drawn for that clean link, with a fresh seed as the server picks one:
        JSON text {html, link}, `link` the query string drawn (the page puts it in the address)."""
        from calculator.presentation.trainer.render import trainer_html

        fields = Fields.of(query)
        spec, clean = read_spec(fields, lambda: SystemRandom().randrange(MAX_SEED))
        link = query.removeprefix("?") if clean else urlencode(spec.query())
        html = trainer_html(spec, fields if clean else Fields.of(link), self.locales[lang], link)
        return json.dumps({"html": html, "link": link}, ensure_ascii=False)

    def warm(self, rounds: int = 1, trainer: bool = False) -> None:
        """Read the catalogues and draw answers in each language, so that the first tap after the pack is ready
        costs what every tap costs: templates loaded and caches filled (before the snapshot), and, after one is
        restored, WebAssembly compiled for what a tap runs (the browser compiles each function when first called
        and again, optimised, once it runs often)."""
        where = json.dumps({"origin": "", "table": None})
        for request in warm_hands():
            query = query_string(HandInput(request, {}))
            for lang in [lang for _ in range(rounds) for lang in self.locales]:
                self.score(json.dumps(request), lang)
                self.answer(query, lang, where)
        if trainer:  # once, before the snapshot: its template compiled and its words read (and the claims page's)
            for lang in self.locales:
                self.trainer("seed=1&kind=waits&answer=none", lang)
                self.claims(WARM_CLAIMS, lang, where)


# Two claims on one discard (xinyu: an ordinary win and a 清一色 on E's 2s): the claims page's answer drawn once.
WARM_CLAIMS = "ruleset=xinyu&caishen=5p&tile=2s&dealer=E&discarder=E&S_hand=123m456m789sEEE2s&N_hand=11134567899s22s"


def warm_hands() -> list[dict]:
    """One dealt hand of each registered game (seeded: the same every time), as a request."""
    return [ruleset.deal(Random(0)) for ruleset in RULESETS.values()]
