"""The rules page (issue 4): every pattern and house rule of each game, laid out by the rulebook; and the binding
reading itself (docs/RULES.md, the project's copy of ../shared/RULES.md), as plain text."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from calculator.pages.rules.rulebook import rulebook
from calculator.plumbing.django_locale import page_locale

READING = settings.BASE_DIR / "docs" / "RULES.md"


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", rulebook(page_locale()))


@require_http_methods(["GET", "HEAD"])
def reading(request: HttpRequest) -> HttpResponse:
    """docs/RULES.md as it is (Markdown, shown as text: every browser opens it, and nothing in it runs)."""
    return HttpResponse(READING.read_bytes(), content_type="text/plain; charset=utf-8")
