"""The calculator page carries each game's hand size as the engine declares it (`hand.concealed_sizes`), so the
page's script counts the tiles to enter from it instead of a copy of 13 − 3 × melds."""

from __future__ import annotations

import json
import re

from django.urls import reverse

from calculator.engine.hand import concealed_size, concealed_sizes
from calculator.engine.rulesets import RULESETS


def page_games(client) -> dict[str, dict]:
    page = client.get(reverse("calculator")).content.decode()
    data = re.search(r'<script id="calc-rulesets" type="application/json">(.*?)</script>', page, re.S).group(1)
    return {game["id"]: game for game in json.loads(data)}


def test_a_hand_holds_13_tiles_before_the_win_less_3_a_meld():
    assert concealed_sizes() == (13, 10, 7, 4, 1)
    assert concealed_sizes() == tuple(concealed_size(melds) for melds in range(5))


def test_the_page_carries_every_games_hand_size_by_the_number_of_melds(client):
    games = page_games(client)
    assert sorted(games) == sorted(RULESETS)
    assert {game: games[game]["concealed_sizes"] for game in games} == {game: [13, 10, 7, 4, 1] for game in RULESETS}


def test_the_form_has_a_meld_field_for_each_of_the_four_melds_a_hand_holds(client):
    page = client.get(reverse("calculator")).content.decode()
    assert re.findall(r'<select name="(meld\d)"', page) == ["meld1", "meld2", "meld3", "meld4"]
    assert len(concealed_sizes()) - 1 == 4
