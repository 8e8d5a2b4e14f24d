"""Issue 11: the ruleset is the one thing that varies. Outside the ruleset packages and their registry
(calculator/engine/rulesets/), no code names a game: the web layer, the ledger, templates, scripts and styles read
the declarations through the registry, so a third game would touch none of them. Migrations aside (the
benchmarks, outside the package, are not read).

Issue 19: read as code, not only as strings (Python parsed with `ast`): outside the ruleset packages no module
imports one game's module, and outside the engine no code reads one game's answer fields (`answer["fan"]`,
`.get("jiao")` …); the card asks the ruleset how to show its answer (parts, headline, wild tiles)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from calculator.engine import score
from calculator.engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
EXEMPT = ("calculator/engine/rulesets/", "calculator/migrations/")
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


# ------------------------------------------------------------------------------------------ read as code

PYTHON = [path for path in CODE if path.suffix == ".py"]
OUTSIDE_THE_ENGINE = [path for path in PYTHON if not str(path.relative_to(ROOT)).startswith("calculator/engine/")]
GAME_PACKAGES = {type(ruleset).__module__.rpartition(".")[0] for ruleset in RULESETS.values()}


def one_games_fields() -> dict[str, str]:
    """The fields of a won answer that one registered game's answers carry and no other's (bazhi's fan and jiao,
    xinyu's long, unit and caishen …), each with its game: learnt from every game's own example hands (the
    house rules' worked examples in its declarations), not listed here."""
    fields: dict[str, set[str]] = {}
    for ruleset in RULESETS.values():
        for rule in ruleset.house:
            if rule.example is not None:
                answer = score({**rule.example, "ruleset": ruleset.id})
                if answer.get("win"):
                    fields.setdefault(ruleset.id, set()).update(answer)
    games = Counter(key for keys in fields.values() for key in keys)
    return {key: game for game, keys in fields.items() for key in keys if games[key] == 1}


ONE_GAMES_FIELDS = one_games_fields()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(tree: ast.Module, path: Path) -> list[tuple[int, str]]:
    """Every module an import statement names, relative imports resolved, with its line (`from a import b` names
    `a` and `a.b`: b may be a module)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found += [(node.lineno, base)] + [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def game_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"line {line}: imports {name}"
        for line, name in imported_modules(tree, path)
        if any(name == package or name.startswith(package + ".") for package in GAME_PACKAGES)
    ]


def field_reads(path: Path) -> list[str]:
    """`x["fan"]`, `x.get("jiao")`: a read of one game's answer field, with its line. An answer is JSON (a dict):
    its fields are read by key; an attribute of the same name is another value's (a pattern group's `patterns`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        key = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            key = node.args[0].value
        if isinstance(key, str) and key in ONE_GAMES_FIELDS:
            found.append(f"line {node.lineno}: reads {ONE_GAMES_FIELDS[key]}'s {key!r}")
    return found


def test_the_fields_of_one_game_are_found():
    assert {"fan", "jiao"} <= ONE_GAMES_FIELDS.keys() and {"long", "unit", "caishen"} <= ONE_GAMES_FIELDS.keys()
    assert not {"net", "payments", "net_by_part", "bao"} & ONE_GAMES_FIELDS.keys()


def test_the_guard_sees_an_import_and_a_field_read(tmp_path):
    """The two checks below fail on what they are meant to find (a module written for the test)."""
    module = ROOT / "calculator" / "pages" / "example.py"  # parsed, never written: the path names its package
    code = (
        "from calculator.engine.rulesets.xinyu.priority import priority\n"
        "from ..engine.rulesets import bazhi\n"
        "def show(answer):\n"
        "    return answer['fan'], answer.get('jiao'), answer['net'], answer.pop('unit')\n"
    )
    written = tmp_path / "example.py"
    written.write_text(code)
    tree = ast.parse(code)
    assert [name for _, name in imported_modules(tree, module) if "rulesets" in name] == [
        "calculator.engine.rulesets.xinyu.priority",
        "calculator.engine.rulesets.xinyu.priority.priority",
        "calculator.engine.rulesets",
        "calculator.engine.rulesets.bazhi",
    ]
    assert field_reads(written) == [
        "line 4: reads bazhi's 'fan'",
        "line 4: reads bazhi's 'jiao'",
        "line 4: reads xinyu's 'unit'",
    ]


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_outside_the_rulesets_imports_one_games_module(path):
    found = game_imports(path)
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)


@pytest.mark.parametrize("path", OUTSIDE_THE_ENGINE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_outside_the_engine_reads_one_games_answer_fields(path):
    found = field_reads(path)
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)
