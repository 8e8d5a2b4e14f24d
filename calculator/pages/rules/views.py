"""The rules page (issue 4): every pattern and house rule of each game, laid out by the rulebook."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from calculator.api.score import engine_lang
from calculator.pages.rules.rulebook import rulebook


def rules(request: HttpRequest) -> HttpResponse:
    lang = engine_lang()
    return render(request, "rules.html", rulebook(lang))
