"""The rules page (issue 4): every pattern and house rule of each game, laid out by the rulebook."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from calculator.pages.rules.rulebook import rulebook
from calculator.plumbing.django_locale import page_locale


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", rulebook(page_locale()))
