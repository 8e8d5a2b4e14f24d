"""Issue 21 §13: the binding reading travels with the project. docs/RULES.md is the project's copy of
../shared/RULES.md and tests/cases/ holds the copies of ../shared/cases; both are compared with ../shared whenever
that folder is beside the clone, and, on every run, with each other and with what the app cites: every section
an answer or a declaration names is a section of the reading, and the worked cases use exactly the house rules
the reading lists (an error case exactly the ones it does not)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from tests.casefiles import CASE_DIR, SHARED, load_cases

ROOT = Path(__file__).resolve().parent.parent
READING = ROOT / "docs" / "RULES.md"


def sections(text: str) -> set[str]:
    """The sections of the reading, as the app cites them: "## 1. `bazhi`" is §1, "### 1.2 Terms …" is §1.2."""
    return {f"§{number}" for number in re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text, re.MULTILINE)}


def house_rules_listed(text: str) -> set[tuple[str, str, object]]:
    """(ruleset, house rule id, value) of every row of the reading's §5 tables ("### 5.1 bazhi")."""
    listed = set()
    for ruleset, table in re.findall(r"^### 5\.\d+ (\w+)\n(.*?)(?=^###|\Z)", text, re.MULTILINE | re.DOTALL):
        for rule, values in re.findall(r"^\| `(\w+)` \| ([^|]+) \|", table, re.MULTILINE):
            for value in re.findall(r"`([^`]+)`", values):
                listed.add((ruleset, rule, json.loads(value) if value in ("true", "false") else value))
    return listed


def games(text: str) -> set[str]:
    """The rulesets the reading reads (its table of seeds: "| `bazhi` | `002_…` |")."""
    return set(re.findall(r"^\| `(\w+)` \| `\d{3}_", text, re.MULTILINE))


def cited_sections(text: str) -> set[str]:
    """Every section the app names for the games the reading reads: their declarations and the explanation
    lines of every case's answer."""
    cited = set()
    for ruleset in (RULESETS[game] for game in sorted(games(text))):
        cited.add(ruleset.rules_section)
        cited |= {flag.rule for flag in ruleset.flags} | {rule.rule for rule in ruleset.house}
        cited |= {r.rule for r in ruleset.readings} | {s for n in ruleset.notes for s in n.rules}
        cited |= {s for group in ruleset.pattern_groups for s in group.rules}
    for case in load_cases():
        answer = score(case["request"])
        for way in [answer, *(v for w in answer.get("waits", []) for v in (w["self_draw"], w["discard"]) if v)]:
            cited |= {line["rule"] for line in way.get("explanation", [])}
    return cited


def test_the_reading_is_part_of_the_project():
    text = READING.read_text(encoding="utf-8")
    assert text.startswith("# Scoring rules: the project's binding interpretation")
    assert {"§1.4", "§2.4", "§3", "§5.1", "§5.2"} <= sections(text)


@pytest.mark.skipif(
    not (SHARED / "RULES.md").is_file(), reason="../shared is not beside this clone (SHARED_DIR names it elsewhere)"
)
def test_the_reading_is_the_same_as_shared():
    assert READING.read_text(encoding="utf-8") == (SHARED / "RULES.md").read_text(encoding="utf-8")


def test_every_section_the_app_cites_is_a_section_of_the_reading():
    text = READING.read_text(encoding="utf-8")
    missing = cited_sections(text) - sections(text)
    assert missing == set()


def test_the_worked_cases_use_the_house_rules_the_reading_lists_and_the_error_cases_others():
    listed = house_rules_listed(READING.read_text(encoding="utf-8"))
    assert ("bazhi", "yadang_wait", "any") in listed and ("xinyu", "dilong", "dealer_only") in listed
    seen = 0
    for case in load_cases():
        request = case["request"]
        house = request.get("options", {}).get("house", {}) if isinstance(request.get("options"), dict) else {}
        for rule, value in house.items() if isinstance(house, dict) else ():
            seen += 1
            known = (request["ruleset"], rule, value) in listed
            assert known == ("error" not in case["expect"]), (case["name"], rule, value)
    assert seen >= 5


def test_every_case_file_plays_a_game_of_the_reading():
    read = games(READING.read_text(encoding="utf-8"))
    assert read == {"bazhi", "xinyu"}
    played = set()
    for case in load_cases():
        ruleset = case["request"].get("ruleset") if isinstance(case["request"], dict) else None
        played.add(ruleset)
        assert (ruleset in read) == (case["expect"].get("error", {}).get("code") != "unknown_ruleset"), case["name"]
    assert read <= played
    assert sorted(p.name for p in CASE_DIR.glob("*.json")) == ["bazhi.json", "house.json", "xinyu.json"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_rules_page_links_the_reading_and_the_app_serves_it(client, language):
    client.cookies["django_language"] = language
    page = client.get("/rules/").content.decode()
    assert re.search(r'<p id="reading-link"[^>]*>[^<]+<a href="/rules/RULES.md"[^>]*>RULES.md</a>', page)
    reading = client.get("/rules/RULES.md")
    assert reading.status_code == 200 and reading["Content-Type"] == "text/plain; charset=utf-8"
    assert reading.content == READING.read_bytes()


def test_the_readme_links_the_reading():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[docs/RULES.md](docs/RULES.md)" in readme
