"""Why not, on the calculator's result card (issue 13 §2): how far a hand is from ready or from a win, why a
ready bazhi shape waits on nothing, the nearest win with its missing tiles and the tiles that do not fit, the
patterns of each wait, and what each 财神 stands for written under it. Both languages."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.fields import B1, SHORT_OF_EIGHT, WILD_AS_NORTH

NOT_READY = {"ruleset": "xinyu", "caishen": "5p", "hand": "1199m2288p3sECFW", "winner": "S", "dealer": "E"}


@pytest.fixture
def english():
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def page(client, fields: dict) -> str:
    return client.get(f"{reverse('calculator')}?{urlencode(fields)}").content.decode()


def text_of(html: str, attribute: str) -> str:
    return re.search(rf"{attribute}[^>]*>([^<]*)<", html).group(1)


def test_a_ready_bazhi_shape_without_eight_says_why_it_waits_on_nothing(client, english):
    assert text_of(page(client, SHORT_OF_EIGHT), "data-why") == "牌型已听牌，但没有一张能凑够八支（万 6 · 筒 3 · 条 4）"
    assert (
        text_of(page(english, SHORT_OF_EIGHT), "data-why") == "Ready in shape, but no wait makes 八支 (m 6 · p 3 · s 4)"
    )


def test_a_hand_not_ready_says_how_many_exchanges_it_is_from_ready(client, english):
    assert text_of(page(client, NOT_READY), "data-why") == "离听牌还差 2 次换牌（每次打一张、摸一张）。"
    assert text_of(page(english, NOT_READY), "data-why") == "2 exchanges from ready: each one tile out, one in."


def test_a_fourteen_tile_hand_that_is_no_win_shows_its_nearest_win(client, english):
    fields = {**SHORT_OF_EIGHT, "win_tile": "1s"}
    html = page(client, fields)
    assert text_of(html, "data-distance") == "离胡牌还差 2 次换牌"
    assert 'id="nearest"' in html
    assert re.findall(r'data-misfit="(\w+)"', html) == ["1s", "4s"]
    assert re.findall(r'data-missing="(\w+)"', html) == ["1m", "1m"]
    html = page(english, fields)
    assert text_of(html, "data-distance") == "2 exchanges from a win"
    assert "The nearest win" in html and "Do not fit" in html


def test_each_wait_line_lists_the_patterns_it_would_score(client, english):
    waits = {k: v for k, v in B1.items() if k != "win_tile"}
    assert re.findall(r"data-patterns>([^<]*)<", page(client, waits)) == ["压档", "压档"]
    assert re.findall(r"data-patterns>([^<]*)<", page(english, waits)) == ["Middle wait", "Middle wait"]


def test_each_caishen_says_what_it_stands_for_under_the_tile(client, english):
    assert re.findall(r'data-stands-for="([^"]+)"', page(client, WILD_AS_NORTH)) == ["当北"]
    assert re.findall(r'data-stands-for="([^"]+)"', page(english, WILD_AS_NORTH)) == ["as North"]  # its name
