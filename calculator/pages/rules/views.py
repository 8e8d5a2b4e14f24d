"""The rules page (issue 4): every pattern and house rule of each game, laid out by the rulebook; and the binding
reading itself (docs/RULES.md, the project's copy of ../shared/RULES.md), as plain text."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from calculator.api.score import engine_lang
from calculator.pages.rules.rulebook import rulebook

READING = settings.BASE_DIR / "docs" / "RULES.md"


def rules(request: HttpRequest) -> HttpResponse:
    lang = engine_lang()
    return render(request, "rules.html", rulebook(lang))


@require_http_methods(["GET", "HEAD"])
def reading(request: HttpRequest) -> HttpResponse:
    """docs/RULES.md as it is (Markdown, shown as text: every browser opens it, and nothing in it runs)."""
    return HttpResponse(READING.read_bytes(), content_type="text/plain; charset=utf-8")
