"""Issue 19: a game is a package. The suite registers a game of its own beside the ones a deployment serves
(tests/games/, registered by tests/conftest.py), written as a fourth game would be. It touches its package and one
registry line, nothing else: no other file names it. And yet it is scored by `POST /api/score`, chosen on the
calculator page, listed on the rules page, opened as a table whose hand is recorded from the calculator, and
dealt in the trainer. This file names no game either: it finds the ones the tests registered."""

from __future__ import annotations

import json
import re
import subprocess
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest

from calculator.engine.rulesets import RULESETS, SERVED
from calculator.presentation.handquery import HandInput, query_string
from tests.games.examples import hands, package_of

ROOT = Path(__file__).resolve().parents[1]
REGISTERED_BY_THE_TESTS = sorted(set(RULESETS) - set(SERVED))
NAMES = {"name_E": "阿东", "name_S": "小南", "name_W": "老西", "name_N": "北北"}

pytestmark = pytest.mark.parametrize("game", REGISTERED_BY_THE_TESTS)


def repository_files() -> list[Path]:
    """Every file of the repository (tracked, and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def test_the_suite_registers_a_game_of_its_own(game):
    assert game not in SERVED and RULESETS[game].id == game


def test_no_file_outside_its_package_names_it_but_its_one_registry_line(game):
    package = package_of(RULESETS[game])
    naming = []
    for path in repository_files():
        if package in path.parents:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binaries
        naming += [(str(path.relative_to(ROOT)), line.strip()) for line in text.splitlines() if game in line]
    assert len(naming) == 1, naming
    [(where, line)] = naming
    assert where == "tests/conftest.py" and "import" in line


def test_it_is_scored_by_the_api(client, game):
    for hand in hands(game):
        body = json.dumps(hand["request"])
        response = client.post("/api/score", data=body, content_type="application/json")
        assert response.status_code == 200 and response.json()["net"] == hand["net"]


def test_it_is_a_choice_of_the_calculator_page_and_its_result_card(client, game):
    html = client.get("/").content.decode()
    assert re.search(rf'<input type="radio" name="ruleset" value="{game}"', html)
    hand = hands(game)[0]
    page = client.get("/?" + query_string(HandInput(hand["request"], {}))).content.decode()
    assert dict(re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', page)) == {
        seat: str(net) for seat, net in hand["net"].items()
    }


def test_it_is_listed_on_the_rules_page(client, game):
    html = client.get("/rules/").content.decode()
    ruleset = RULESETS[game]
    assert ruleset.title.zh in html
    assert all(f'id="pattern-{game}-{code}"' in html for code in ruleset.pattern_by_code)


@pytest.mark.django_db
def test_a_table_of_it_opens_and_records_a_hand_from_the_calculator(client, game):
    from calculator.models import Hand

    hand = hands(game)[0]
    request = hand["request"]
    options = {f"{game}-{key}": value for key, value in request.get("options", {}).items()}
    created = client.post("/tables/new/", {"ruleset": game, "dealer": request["dealer"], **NAMES, **options})
    assert created.status_code == 302, created.content.decode()[:2000]
    edit = created["Location"].split("?")[0]
    query = query_string(HandInput(request, {}))
    preview = client.get(f"{edit}record/?{query}", follow=True).content.decode()
    assert 'id="preview"' in preview
    confirmed = {
        "q": unescape(re.search(r'name="q" value="([^"]*)"', preview).group(1)),
        "version": re.search(r'name="version" value="(\d+)"', preview).group(1),
        "key": re.search(r'name="key" value="([^"]*)"', preview).group(1),
    }
    assert client.post(f"{edit}record/", confirmed).status_code == 302
    assert Hand.objects.get().applied == hand["net"]
    assert client.get(edit).status_code == 200


@pytest.mark.django_db
def test_the_trainer_deals_it_a_question_of_every_kind(client, game):
    for kind in ("win", "waits", "pay"):
        html = client.get("/trainer/?" + urlencode({"seed": 1, "game": game, "kind": kind})).content.decode()
        assert f'data-game="{game}"' in html and f'data-kind="{kind}"' in html
