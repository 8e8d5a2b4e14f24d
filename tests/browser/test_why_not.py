"""Why not, on the calculator page in headless Chromium (issue 13 §2, §4): the texts a learner reads in both
languages, and the nearest win appearing when the 14th tile is tapped (htmx)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.web.fields import SHORT_OF_EIGHT, WILD_AS_NORTH

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect = pytest.importorskip("playwright.sync_api").expect


def test_why_not_in_chinese_and_the_nearest_win_after_the_fourteenth_tap(page):
    page.goto(page.base + "/?" + urlencode(SHORT_OF_EIGHT))
    expect(page.locator("#result [data-why]")).to_have_text("牌型已听牌，但没有一张能凑够八支（万 6 · 筒 3 · 条 4）")
    page.click('button[data-tile="1s"]')  # the 14th tile: the result card comes back by htmx
    expect(page.locator("#result [data-distance]")).to_have_text("离胡牌还差 2 次换牌")
    expect(page.locator("#nearest [data-misfit]")).to_have_count(2)
    expect(page.locator("#nearest [data-missing]")).to_have_count(2)
    expect(page.locator("#nearest h2")).to_have_text("最近的胡法")
    assert page.console.errors == []


def test_why_not_in_english(page):
    page.goto(page.base + "/?" + urlencode(SHORT_OF_EIGHT))
    with page.expect_navigation():
        page.click("form.lang-switch button")
    expect(page.locator("#result [data-why]")).to_have_text("Ready in shape, but no wait makes 八支 (m 6 · p 3 · s 4)")
    page.goto(page.base + "/?" + urlencode({**SHORT_OF_EIGHT, "win_tile": "1s"}))
    expect(page.locator("#result [data-distance]")).to_have_text("2 exchanges from a win")
    expect(page.locator("#nearest .misfits-label")).to_have_text("Do not fit")


def test_a_screen_reader_hears_the_nearest_wins_tiles_not_their_signs(phone_in):
    """The + on a missing tile and the × on a misfit are drawn for the eye; a screen reader hears "missing 1 of
    characters" and the misfits under "Do not fit", not "plus" and "times" after them."""
    page = phone_in
    page.goto(page.base + "/?" + urlencode({**SHORT_OF_EIGHT, "win_tile": "1s"}))
    for tiles in (page.locator("#nearest .groups"), page.locator("#nearest .misfits")):
        said = tiles.aria_snapshot()
        assert "×" not in said and "+" not in said, said
    missing = {"zh": "缺", "en": "missing "}[page.lang]
    expect(page.locator("#nearest [data-missing] [role=img]").first).to_have_attribute(
        "aria-label", re.compile("^" + missing)
    )
    assert page.console.errors == []


def test_a_caishen_says_what_it_stands_for_under_the_tile_in_both_languages(page):
    page.goto(page.base + "/?" + urlencode(WILD_AS_NORTH))
    caption = page.locator(".groups-card .tile-caption")
    expect(caption).to_have_attribute("title", "当北")  # the word and the tile it stands for, drawn small
    expect(caption.locator(".tile.t-N")).to_be_visible()
    with page.expect_navigation():
        page.click("form.lang-switch button")
    expect(page.locator(".groups-card .tile-caption")).to_have_attribute("title", "as North")


def test_each_wait_line_names_its_patterns(page):
    page.goto(page.base + "/?ruleset=bazhi&hand=111345789p79m55s&winner=S&dealer=E")
    expect(page.locator('[data-wait="8m"] [data-patterns]')).to_have_text(["压档", "压档"])
