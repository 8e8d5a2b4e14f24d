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


# --------------------------------------------------------------------------- the next move (issue 21 §3, §12)


def test_a_hand_not_ready_lists_the_tiles_that_help_with_their_copies_left(client, english):
    from calculator.engine import score

    engine = score({k: v for k, v in NOT_READY.items() if k != "caishen"} | {"options": {"caishen": "5p"}})
    html = page(client, NOT_READY)
    assert re.findall(r'data-draw="(\w+)"', html) == [d["tile"] for d in engine["draws"]]
    assert re.findall(r'class="draw-left" aria-hidden="true">×(\d)<', html) == [str(d["left"]) for d in engine["draws"]]
    assert engine["draws_left"] == 19
    assert text_of(html, 'class="draws-total"') == "共 19 张"
    assert text_of(page(english, NOT_READY), 'class="draws-total"') == "19 tiles in all"
    assert "有用的牌：" in html and "Tiles that help:" in page(english, NOT_READY)


def test_each_tile_that_helps_links_to_the_fourteen_tiles_with_it_drawn(client):
    html = page(client, NOT_READY)
    link = re.search(r'<a class="draw" href="([^"]+)" data-draw="3s"', html).group(1).replace("&amp;", "&")
    assert "hand=1199m2288p3sECFW" in link and "win_tile=3s" in link
    drawn = client.get(link).content.decode()
    assert 'data-win="false"' in drawn and 'id="nearest"' in drawn
    assert re.findall(r'data-discard="(\w+)"', drawn) == ["C", "F", "E"]  # the nearest win's misfits first
    assert "然后离听牌还差 1 次换牌 · 13 张有用" in drawn


def test_a_ready_hand_shows_no_tiles_that_help(client):
    waits = {k: v for k, v in B1.items() if k != "win_tile"}
    assert "data-draws" not in page(client, waits)


def test_a_caishen_still_to_draw_is_shown_missing_where_a_natural_tile_would_be_a_fifth_copy(client, english):
    """555m 333p 7777p 1111s with 财神 8s: the nearest win reads a drawn 8s as a fifth 7p, and shows it so."""
    fields = {"ruleset": "xinyu", "caishen": "8s", "hand": "555m3337777p111s", "win_tile": "1s"}
    html = page(english, {**fields, "winner": "S", "dealer": "E"})
    assert re.findall(r'data-missing="(\w+)"', html) == ["8s"]
    assert re.findall(r'data-stands-for="([^"]+)"', html) == ["as 7 of dots"]
    assert re.search(r'data-missing="8s"><span class="tile tile-s t-8s is-wild"', html)
