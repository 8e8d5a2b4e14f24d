"""Issue 11: the ruleset is the one thing that varies. Outside the ruleset packages and their registry
(calculator/engine/rulesets/), no code names a game: the web layer, the ledger, templates, scripts and styles read
the declarations through the registry, so a third game would touch none of them. Migrations and the benchmark's
hand generators (fixtures of a kind) aside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculator.engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
EXEMPT = ("calculator/engine/rulesets/", "calculator/migrations/", "calculator/engine/bench.py")
CODE = sorted(
    path
    for pattern in (
        "calculator/**/*.py",
        "templates/**/*.html",
        "jinja2/**/*.html",
        "static/js/*.js",
        "static/css/*.css",
    )
    for path in ROOT.glob(pattern)
    if not str(path.relative_to(ROOT)).startswith(EXEMPT) and path.name != "htmx.min.js"
)


def names_a_game(path: Path, game: str) -> bool:
    """Python names a game with a string literal (a comment or docstring may mention it); a template, script or
    style sheet with the word itself."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return re.search(rf"""["']{game}["']""", text) is not None
    return re.search(rf"\b{game}\b", text) is not None


def test_the_files_are_found():
    assert len(CODE) > 30 and any(p.name == "calculator.js" for p in CODE)


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_outside_the_rulesets_names_a_game(path):
    named = [game for game in sorted(RULESETS) if names_a_game(path, game)]
    assert named == [], f"{path.relative_to(ROOT)} names {named}"
