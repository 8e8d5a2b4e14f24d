"""The hand count on the calculator page (n / 14) comes from the hand size the page carries, the engine's
(`calc-rulesets`: each game's `concealed_sizes`), not from a copy in the script."""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import expect, tap_tiles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE = '"concealed_sizes": [13, 10, 7, 4, 1]'
SIXTEEN = '"concealed_sizes": [16, 13, 10, 7, 4]'  # a game of 16 tiles before the win, as no game is yet


def pung(page, tile: str) -> None:
    page.click('button[data-mode="pung"]')
    page.click(f'button[data-tile="{tile}"]')


def count_says(page, have: int, of: int) -> None:
    expect(page.locator("#hand-count")).to_have_text(re.compile(rf"{have}\s*/\s*{of}"))


def test_the_count_says_the_hand_size_the_engine_declares(page):
    page.goto(page.base + "/")
    count_says(page, 0, 14)
    pung(page, "2s")
    count_says(page, 0, 11)
    assert page.console.errors == []


def test_the_count_follows_the_hand_size_the_page_carries(page):
    def sixteen_tiles(route):
        response = route.fetch()
        body = response.text()
        assert body.count(ENGINE) >= 2  # every game's, bazhi's and xinyu's at least
        route.fulfill(response=response, body=body.replace(ENGINE, SIXTEEN))

    page.route(re.compile(r"/$"), sixteen_tiles)
    page.goto(page.base + "/")
    tap_tiles(page, ["1m", "2m"])
    count_says(page, 2, 17)
    pung(page, "2s")
    count_says(page, 2, 14)
    assert page.console.errors == []


def test_a_fifth_meld_is_refused_as_the_engine_holds_four(page):
    page.goto(page.base + "/")
    for tile in ("1m", "2m", "3m", "4m", "5m"):
        pung(page, tile)
    expect(page.locator("#mode-hint")).to_have_text("最多四组副露。")
    assert [page.input_value(f'select[name="meld{n}"]') for n in range(1, 5)] == ["pung"] * 4
    assert page.input_value('input[name="meld4_tiles"]') == "444m"
    count_says(page, 0, 2)
    assert page.console.errors == []
