"""The engine's texts (`Text(zh, en)`, in the rulesets' declarations) in the language of the request."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import get_language

from calculator.engine.text import Text


def local(text: Text) -> str:
    """The text in the active language: English for an English page, Chinese otherwise (the default)."""
    return text("en" if (get_language() or "").startswith("en") else "zh")


local_lazy = lazy(local, str)  # for a label made once (a form field's) and shown in each request's language
