"""Issue 11: the ledger names no game. Its modules, templates and script read each game's table rules from the
registry (RULES[id].table, the `[table]` of its declarations.toml); a third game would touch none of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculator.engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
LEDGER_FILES = [
    *sorted((ROOT / "calculator" / "ledger").glob("*.py")),
    ROOT / "calculator" / "ledger_api.py",
    ROOT / "calculator" / "ledger_views.py",
    ROOT / "calculator" / "models.py",
    ROOT / "calculator" / "management" / "commands" / "prune_tables.py",
    *sorted((ROOT / "templates" / "ledger").glob("*.html")),
    ROOT / "static" / "js" / "ledger.js",
]


@pytest.mark.parametrize("path", LEDGER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_ledger_never_names_a_game(path, game):
    code = path.read_text(encoding="utf-8")
    assert not re.search(rf"""["']{game}["']""", code), f"{path.name} names {game!r}"
