"""The acceptance cases (copies of shared/cases in tests/cases) and the field comparison they need."""

from __future__ import annotations

import json
import os
from pathlib import Path

CASE_DIR = Path(__file__).parent / "cases"
# Where the shared documents are, when they are: ../shared beside the clone, or SHARED_DIR (a worktree elsewhere).
SHARED = Path(os.environ.get("SHARED_DIR") or Path(__file__).resolve().parent.parent.parent / "shared")
UNORDERED = {"zui", "patterns", "triggers"}
WHOLE = {"net", "applied", "balances", "outside", "net_by_part"}


def load_cases() -> list[dict]:
    cases = []
    for path in sorted(CASE_DIR.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append({**case, "file": path.name})
    return cases


def _codes(value):
    if isinstance(value, list):
        return sorted(item.get("code") if isinstance(item, dict) else item for item in value)
    return value


def differences(expect: dict, response: dict, prefix: str = "") -> list[str]:
    """Every expected field that the response does not match, as readable lines."""
    diffs = []
    for key, want in expect.items():
        name = f"{prefix}{key}"
        if key not in response:
            diffs.append(f"{name}: missing (want {want!r})")
            continue
        got = response[key]
        if isinstance(want, dict) and key not in WHOLE and isinstance(got, dict):
            diffs.extend(differences(want, got, name + "."))
            continue
        if key in UNORDERED:
            got, want = _codes(got), _codes(want)
        if key == "alternatives":
            got = alternatives_map(got)
        if got != want:
            diffs.append(f"{name}: got {got!r}, want {want!r}")
    return diffs


def alternatives_map(entries: object) -> object:
    """The answer's `alternatives` list as the case files write it: {"option=value": net, or "not_win"}, booleans
    written true / false (as ../shared/tools/check_cases.py compares them)."""
    if not isinstance(entries, list):
        return entries
    out = {}
    for entry in entries:
        value = json.dumps(entry["value"]) if isinstance(entry["value"], bool) else entry["value"]
        out[f"{entry['option']}={value}"] = entry["net"] if entry["win"] else "not_win"
    return out
