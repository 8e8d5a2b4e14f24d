"""Every worked case of shared/cases, through the engine, the HTTP API and the CLI, with identical numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.engine import score
from tests.casefiles import CASE_DIR, SHARED, differences, load_cases

CASES = load_cases()
IDS = [f"{c['file']}:{c['name']}" for c in CASES]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cli_responses() -> dict[str, dict]:
    """One batch run of `manage.py score` over every case, keyed by case name."""
    batch = json.dumps([case["request"] for case in CASES], ensure_ascii=False)
    run = subprocess.run(
        [sys.executable, "manage.py", "score"], input=batch, capture_output=True, text=True, cwd=ROOT, check=True
    )
    responses = json.loads(run.stdout)
    assert len(responses) == len(CASES)
    return {(case["file"], case["name"]): response for case, response in zip(CASES, responses, strict=True)}


def test_case_copies_are_in_sync_with_shared():
    shared = SHARED / "cases"
    if not shared.is_dir():
        pytest.skip("../shared is not beside this clone (SHARED_DIR names it elsewhere)")
    for path in shared.glob("*.json"):
        assert (CASE_DIR / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engine(case):
    assert differences(case["expect"], score(case["request"])) == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_http_api(case, client):
    response = client.post("/api/score", data=json.dumps(case["request"]), content_type="application/json")
    body = response.json()
    assert response.status_code == (400 if "error" in case["expect"] else 200)
    assert differences(case["expect"], body) == []
    assert body == score(case["request"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cli_batch(case, cli_responses):
    response = cli_responses[(case["file"], case["name"])]
    assert differences(case["expect"], response) == []
    assert response == score(case["request"])
