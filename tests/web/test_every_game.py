"""The JSON API and the pages over every registered game (issue 19): each game's worked hands (examples.toml in its
package) scored by `POST /api/score` as the engine scores them, their waits, the errors of another game's flag or
option, the card's other readings; the calculator page offers the game and shows the result card of its hands in
both languages; the rules page lists it. Nothing here names a game."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.presentation.handquery import HandInput, query_string
from tests.games.examples import hands

GAMES = sorted(RULESETS)


def api_score(client, body: dict):
    return client.post("/api/score", data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("game", GAMES)
def test_the_api_scores_the_games_worked_hands(client, game):
    for hand in hands(game):
        response = api_score(client, hand["request"])
        assert response.status_code == 200
        assert response.json()["net"] == hand["net"]
        assert response.json() == json.loads(json.dumps(score(hand["request"])))


@pytest.mark.parametrize("game", GAMES)
def test_a_worked_hand_without_its_winning_tile_waits_on_it(client, game):
    for hand in hands(game):
        request = {key: value for key, value in hand["request"].items() if key != "win_tile"}
        body = api_score(client, request).json()
        assert body["shanten"] == 0
        assert hand["request"]["win_tile"] in [wait["tile"] for wait in body["waits"]]


@pytest.mark.parametrize("game", GAMES)
def test_a_flag_or_an_option_the_game_does_not_have_is_refused(client, game):
    request = hands(game)[0]["request"]
    foreign = sorted({f.id for r in RULESETS.values() for f in r.flags} - RULESETS[game].flag_ids)
    for flag in [*foreign, "no_such_flag"]:
        response = api_score(client, {**request, "flags": [flag]})
        assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_flag"), flag
    response = api_score(client, {**request, "options": {**request.get("options", {}), "no_such_option": 1}})
    assert response.json()["error"] == {
        **response.json()["error"],
        "code": "bad_option",
        "field": "options.no_such_option",
    }


@pytest.mark.parametrize("game", GAMES)
def test_the_other_readings_are_the_engines_under_each_other_value(client, game):
    """RULES.md §5.3: each entry is the hand scored with that one house rule changed."""
    for hand in hands(game):
        body = api_score(client, {**hand["request"], "alternatives": True}).json()
        for entry in body["alternatives"]:
            options = {**hand["request"].get("options", {}), "house": {entry["option"]: entry["value"]}}
            other = score({**hand["request"], "options": options})
            assert other.get("net") == entry.get("net") and other.get("code") == entry.get("code"), entry


@pytest.mark.parametrize("game", GAMES)
def test_the_calculator_page_offers_the_game_and_its_declarations(client, game):
    html = client.get(reverse("calculator")).content.decode()
    assert re.search(rf'<input type="radio" name="ruleset" value="{game}"', html)
    declarations = json.loads(re.search(r'id="calc-rulesets" type="application/json">(.*?)</script>', html, re.S)[1])
    assert game in [d["id"] for d in declarations]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["zh-CN", "en"])
def test_the_result_card_of_a_worked_hand_shows_its_nets(client, game, language):
    for hand in hands(game):
        request = hand["request"]
        page = client.get(
            f"{reverse('calculator')}?{query_string(HandInput(request, {}))}", headers={"Accept-Language": language}
        )
        assert page.status_code == 200
        html = page.content.decode()
        shown = {seat: int(net) for seat, net in re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html)}
        assert shown == hand["net"], urlencode(request)
        for line in RULESETS[game].headline(score(request, language[:2]), language[:2]):
            assert line in html


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_lists_the_game_and_its_patterns(client, game):
    ruleset = RULESETS[game]
    html = client.get(reverse("rules")).content.decode()
    assert ruleset.title.zh in html
    for code in ruleset.pattern_by_code:
        assert f'id="pattern-{game}-{code}"' in html, code
