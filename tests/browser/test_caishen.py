"""The 财神 on a phone (issue 21 §8), at both sizes and in both languages, tapped as a finger taps (touch events at
the key's place: Playwright's click first scrolls a docked element "into view", a jump no phone makes).

- one way to choose it: with the page's script the keyboard ("点选"), its label once; the selects are the page's
  without a script;
- picking it says so where the eye is (above the keys), and the page does not move;
- a keyboard opened for the pick folds back after it (it covered the waits);
- the 财神 held in the entered hand is marked as in the result card, and its button's label says so;
- under a 财神 in the result the tile it stands for is drawn small, within the tile's width, its name in the title.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.browser.phone import assert_on_screen, expect, finger_tap
from tests.web.fields import WILD_AS_NORTH  # the 财神 (5p) stands for the winning 北's third copy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "zh": {"wild": "财神", "picked": "财神：五筒", "held": "拿掉五筒（财神）", "as north": "当北"},
    "en": {
        "wild": "Wild tile (财神)",
        "picked": "Wild tile (财神): 5 of dots",
        "held": "Remove 5 of dots (Wild tile (财神))",
        "as north": "as North",
    },
}
THIRTEEN = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "5p", "E"]  # waits on 1p, 5p, E


def xinyu(page, query: dict | None = None) -> None:
    page.goto(page.base + "/?" + urlencode({"ruleset": "xinyu", "winner": "S", "dealer": "E", **(query or {})}))
    expect(page.locator('button[data-tile="F"]')).to_be_visible()


def test_the_caishen_is_chosen_one_way_and_named_once(phone_in):
    page = phone_in
    xinyu(page)
    expect(page.locator("#wild-xinyu .wild-label")).to_have_text(WORDS[page.lang]["wild"])
    expect(page.locator('#wild-xinyu [data-mode-switch="caishen"]')).to_be_visible()
    expect(page.locator('select[name="caishen"]')).to_be_hidden()  # the keyboard's tap instead
    expect(page.locator('select[name="indicator"]')).to_be_hidden()
    options = '.game-options[data-rulesets="xinyu"]'  # the game's options (its flags' names are elsewhere)
    shown = page.locator(f"{options} label, {options} .wild-label").filter(has_text=WORDS[page.lang]["wild"])
    expect(shown.locator("visible=true")).to_have_count(1)
    assert page.console.errors == []


def test_without_javascript_the_caishen_is_chosen_in_its_select(nojs_page):
    page = nojs_page
    page.goto(page.base + "/?ruleset=xinyu")
    expect(page.locator('select[name="caishen"]')).to_be_visible()
    expect(page.locator("#wild-xinyu")).to_be_hidden()


def test_picking_the_caishen_says_it_above_the_keys_and_the_page_stays(phone_in):
    page = phone_in
    xinyu(page)
    scrolled = page.evaluate("window.scrollY")
    finger_tap(page, '#wild-xinyu [data-mode-switch="caishen"]')
    finger_tap(page, 'button[data-tile="5p"]')
    hint = page.locator("#mode-hint")
    expect(hint).to_have_text(WORDS[page.lang]["picked"])
    assert_on_screen(page, "#mode-hint")
    assert page.evaluate("window.scrollY") == scrolled  # the page did not jump
    expect(page.locator('select[name="caishen"]')).to_have_value("5p")
    expect(page.locator("#wild-xinyu .wild-tile .tile.t-5p")).to_be_attached()
    expect(page.locator('#wild-xinyu [data-wild-clear="xinyu"]')).to_be_visible()
    assert page.console.errors == []


def test_a_keyboard_opened_for_the_pick_folds_back_over_the_waits(phone_in):
    page = phone_in
    xinyu(page, {"discarder": "W"})
    for tile in THIRTEEN:
        finger_tap(page, f'button[data-tile="{tile}"]')
    expect(page.locator("#result [data-error]")).to_be_visible()  # no 财神 yet
    finger_tap(page, "#key-toggle")
    expect(page.locator("#keyboard")).to_have_class("keyboard dock js-only is-folded")
    # the picker may have scrolled above the screen while the hand was entered: the player scrolls back to it
    page.locator('#wild-xinyu [data-mode-switch="caishen"]').scroll_into_view_if_needed()
    finger_tap(page, '#wild-xinyu [data-mode-switch="caishen"]')
    expect(page.locator("#keyboard-body")).to_be_visible()  # opened to tap the tile on
    finger_tap(page, 'button[data-tile="5p"]')
    expect(page.locator("#result [data-waits]")).to_be_visible()
    expect(page.locator("#keyboard-body")).to_be_hidden()  # folded back: the waits are not under it
    page.locator("#result [data-wait]").first.scroll_into_view_if_needed()
    keyboard = page.locator("#keyboard").bounding_box()
    wait = page.locator("#result [data-wait]").first.bounding_box()
    assert wait["y"] + wait["height"] <= keyboard["y"] + 1
    assert page.console.errors == []


def test_the_caishen_held_in_the_hand_is_marked(phone_in):
    page = phone_in
    xinyu(page)
    for tile in ["5p", "1m"]:
        finger_tap(page, f'button[data-tile="{tile}"]')
    held = page.locator("#hand-tiles .tile.t-5p")
    expect(held).not_to_have_class("tile t-5p is-wild")
    page.locator('#wild-xinyu [data-mode-switch="caishen"]').scroll_into_view_if_needed()  # the hand kept in view
    finger_tap(page, '#wild-xinyu [data-mode-switch="caishen"]')
    finger_tap(page, 'button[data-tile="5p"]')
    expect(held).to_have_class("tile t-5p is-wild")
    expect(page.locator("#hand-tiles .tile.t-1m")).to_have_class("tile t-1m")
    expect(page.locator("#hand-tiles button:has(.t-5p)")).to_have_attribute("aria-label", WORDS[page.lang]["held"])
    expect(held).to_have_css("outline-style", "solid")
    expect(page).to_have_url(re.compile(r"caishen=5p"))  # the answer is in: the address is its share link
    page.reload()  # drawn by the server from the share link: marked the same
    expect(page.locator("#hand-tiles .tile.t-5p")).to_have_class("tile t-5p is-wild")
    assert page.console.errors == []


def test_under_a_caishen_the_tile_it_stands_for_is_drawn_within_its_width(phone_in):
    page = phone_in
    page.goto(page.base + "/?" + urlencode(WILD_AS_NORTH))
    box = page.locator(".groups-card .tile-box").filter(has=page.locator(".tile-caption"))
    caption, wild = box.locator(".tile-caption"), box.locator(".tile.is-wild")
    expect(caption).to_have_attribute("title", WORDS[page.lang]["as north"])  # the tile's name, not "as N"
    expect(caption.locator(".tile.t-N")).to_be_visible()
    tile, under = wild.bounding_box(), caption.bounding_box()
    assert under["x"] >= tile["x"] - 0.5 and under["x"] + under["width"] <= tile["x"] + tile["width"] + 0.5
    assert under["y"] >= tile["y"] + tile["height"] - 0.5  # under the tile, not on it
    assert page.console.errors == []
