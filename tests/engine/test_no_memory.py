"""Issue 30: the engine and the ledger keep no memory of inputs. What they keep between requests is the named tables
of `calculator/engine/tables.py` (each keyed on one small named thing, bounded, built once per key); the code is
read (`ast`) for any other cache: a `functools.cache` / `lru_cache`, or a module-level dict, set, list or array that
a function writes to."""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path

import pytest

from calculator.engine.suits import keys_of
from calculator.engine.tables import TABLES

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("calculator/engine", "calculator/ledger")
CACHE_DECORATORS = {"cache", "lru_cache"}
MUTATORS = {"setdefault", "update", "add", "append", "extend", "insert", "pop", "popitem", "clear", "remove", "discard"}


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _named(node: ast.expr) -> str | None:
    """The name a decorator or a called function goes by (`cache`, `functools.lru_cache`, `lru_cache(maxsize=…)`)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _module_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _local_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = function.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def caches(path: Path) -> set[tuple[str, str]]:
    """(module, name) of every cache in one module: a function decorated with (or a value made by) `cache` /
    `lru_cache`, and every module-level name a function writes into (an item set or deleted, a mutating method)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module_name(path)
    found = set()
    shared = _module_names(tree)
    decorators = {
        id(d)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for d in node.decorator_list
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if any(_named(d) in CACHE_DECORATORS for d in node.decorator_list):
                found.add((module, node.name))
            local = _local_names(node)
            for inner in ast.walk(node):
                written = None
                if isinstance(inner, ast.Subscript) and isinstance(inner.ctx, ast.Store | ast.Del):
                    written = inner.value
                elif (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Attribute)
                    and inner.func.attr in MUTATORS
                ):
                    written = inner.func.value
                if isinstance(written, ast.Name) and written.id in shared and written.id not in local:
                    found.add((module, written.id))
        elif isinstance(node, ast.Call) and _named(node.func) in CACHE_DECORATORS and id(node) not in decorators:
            found.add((module, f"a value made by {_named(node.func)} (line {node.lineno})"))
    return found


def test_the_code_is_read():
    assert len(modules()) > 30 and any(path.name == "wildcards.py" for path in modules())


def test_nothing_is_remembered_but_the_named_tables():
    listed = {(table.module, table.name) for table in TABLES}
    found = set().union(*(caches(path) for path in modules()))
    assert sorted(found - listed) == []


@pytest.mark.parametrize("table", TABLES, ids=lambda table: f"{table.module}.{table.name}")
def test_each_named_table_is_there_and_within_its_bound(table):
    value = getattr(import_module(table.module), table.name)
    size = len(keys_of(value)) if table.name == "COMPLETE" else len(value)
    assert size <= table.bound and (size > 0 or table.built != "at import")


def test_a_cache_is_found_where_it_is_written(tmp_path):
    """The reader itself: a remembered function, a value made by lru_cache, and a module-level dict filled by a
    function are each found; a function's own dict is not."""
    path = tmp_path / "calculator" / "engine" / "memo.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        "from functools import cache, lru_cache\n"
        "ANSWERS = {}\n"
        "@cache\n"
        "def remembered(x): return x\n"
        "quick = lru_cache(maxsize=8)(len)\n"
        "def score(hand):\n"
        "    ANSWERS[hand] = 1\n"
        "    ANSWERS.setdefault(hand, 2)\n"
        "    mine = {}\n"
        "    mine[hand] = 3\n",
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = caches(path)
    finally:
        ROOT = saved
    assert ("calculator.engine.memo", "remembered") in found and ("calculator.engine.memo", "ANSWERS") in found
    assert any(name.startswith("a value made by lru_cache") for _, name in found)
    assert ("calculator.engine.memo", "mine") not in found and len(found) == 3
