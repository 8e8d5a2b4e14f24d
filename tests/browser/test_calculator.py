"""The calculator page in headless Chromium at phone size (issue 4, point 9): tapping only, no typing."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

B1_TAPS = ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p", "7m", "9m", "5s", "5s", "8m"]


def tap_seats(page, winner: str, dealer: str, discarder: str) -> None:
    page.check(f'input[name="winner"][value="{winner}"]')
    page.check(f'input[name="dealer"][value="{dealer}"]')
    page.check(f'input[name="discarder"][value="{discarder}"]')


def tap_tiles(page, tiles: list[str]) -> None:
    for tile in tiles:
        page.click(f'button[data-tile="{tile}"]')


def net(page, seat: str) -> int:
    return int(page.get_attribute(f'#result [data-seat="{seat}"]', "data-net"))


def wait_for_verdict(page, win: str) -> None:
    page.wait_for_selector(f'#result [data-win="{win}"]')


def no_console_errors(page) -> None:
    assert page.console.errors == []


def test_b1_by_tapping_only(page):
    page.goto(page.base + "/")
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS)
    wait_for_verdict(page, "true")
    assert {s: net(page, s) for s in "ESWN"} == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert page.inner_text('#result [data-seat="S"]') == "+19"
    # the 14th tap is the winning tile, set apart from the sorted hand
    assert page.get_attribute("#hand-win img", "src").endswith("/8m.svg")
    assert page.locator("#hand-tiles img").count() == 13
    # the URL follows the input (htmx replaces it with the canonical share link)
    page.wait_for_function("location.search.includes('win_tile=8m')")
    assert "hand=79m111345789p55s" in page.url or "hand=" in page.url
    no_console_errors(page)


def test_keyboard_greys_out_a_tile_whose_four_copies_are_used(page):
    page.goto(page.base + "/")
    tap_tiles(page, ["1p"] * 4)
    assert page.is_disabled('button[data-tile="1p"]')
    page.click("#hand-tiles button >> nth=0")  # tap a hand tile to remove it
    assert page.is_enabled('button[data-tile="1p"]')
    assert page.locator("#hand-tiles img").count() == 3
    no_console_errors(page)


def test_meld_entry_and_flags_that_cannot_apply(page):
    page.goto(page.base + "/")
    tap_seats(page, "S", "E", "")
    assert page.is_disabled('input[name="flags"][value="kong_bloom"]')
    page.click('button[data-mode="kong_concealed"]')
    page.click('button[data-tile="2s"]')
    assert page.input_value('select[name="meld1"]') == "kong_concealed"
    assert page.input_value('input[name="meld1_tiles"]') == "2222s"
    assert page.is_enabled('input[name="flags"][value="kong_bloom"]')  # a kong and a self-draw
    assert page.inner_text("#hand-count").replace(" ", "") == "0/11"
    no_console_errors(page)


def test_xinyu_hand_with_a_caishen(page):
    page.goto(page.base + "/")
    page.check('input[name="ruleset"][value="xinyu"]')
    assert page.is_visible('button[data-tile="F"]')
    page.click('button[data-mode-switch="indicator"]')
    page.click('button[data-tile="4p"]')  # the turned tile: 5p is the 财神
    assert page.input_value('select[name="indicator"]') == "4p"
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "5p", "E", "E"])
    wait_for_verdict(page, "true")
    # 1 龙 from the 财神 by discard, 底龙 11: P = 12, the discarder pays 12, the others 6 each
    assert {s: net(page, s) for s in "ESWN"} == {"E": -6, "S": 24, "W": -12, "N": -6}
    assert page.locator("#result img.is-wild").count() == 1
    no_console_errors(page)


def test_thirteen_tiles_show_the_waits(page):
    page.goto(page.base + "/")
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS[:-1])
    wait_for_verdict(page, "false")
    assert page.get_attribute("#result [data-waits]", "data-waits") == "1"
    wait = page.locator('#result [data-wait="8m"]')
    assert "+34" in wait.locator('[data-how="self_draw"]').inner_text()
    assert "+19" in wait.locator('[data-how="discard"]').inner_text()
    wait.locator('[data-how="discard"]').click()  # the full breakdown of that wait
    wait_for_verdict(page, "true")
    assert net(page, "S") == 19
    no_console_errors(page)


def test_share_link_round_trip(page, browser):
    page.goto(page.base + "/")
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS)
    wait_for_verdict(page, "true")
    share = page.input_value("#share-url")
    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        fresh = other.new_page()
        fresh.goto(share)
        assert int(fresh.get_attribute('[data-seat="S"]', "data-net")) == 19
        assert fresh.inner_text("#hand-count").replace(" ", "") == "14/14"
        assert fresh.is_checked('input[name="discarder"][value="W"]')
    finally:
        other.close()
    page.click("#copy-link")
    page.wait_for_function(
        "document.getElementById('copy-status').textContent.length > 0 || document.activeElement.id === 'share-url'"
    )
    no_console_errors(page)


def test_no_js_form_post(nojs_page):
    page = nojs_page
    page.goto(page.base + "/")
    assert not page.is_visible("#keyboard")
    tap_seats(page, "S", "E", "W")
    page.fill('input[name="hand"]', "111345789p79m55s")
    page.fill('input[name="win_tile"]', "8m")
    page.click('.submit-row button[type="submit"]')
    page.wait_for_selector('[data-win="true"]')
    assert int(page.get_attribute('[data-seat="S"]', "data-net")) == 19
    assert re.search(r"hand=111345789p79m55s", page.url)


def test_phone_layout_no_horizontal_scroll_and_big_enough_targets(page):
    page.goto(page.base + "/?ruleset=bazhi&tariff=315&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W")
    wait_for_verdict(page, "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, label.seg-item, summary, select, input:not([type=radio]):not([type=checkbox]):not([type=hidden])')]
             .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden'))
             .map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.width > 0 && (r.height < 24 || (r.height < 40 && !e.closest('.rule, .skip'))))
             .map(([e, r]) => e.outerHTML.slice(0, 60) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert small == []
    tiny_text = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter(e => e.offsetParent !== null && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
             .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
             .map(e => e.tagName + '.' + e.className + ' ' + getComputedStyle(e).fontSize)"""
    )
    assert tiny_text == []


def test_accessibility_scan(page):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    urls = [
        "/?ruleset=bazhi&tariff=315&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W",
        "/?ruleset=bazhi&tariff=315&hand=111345789p79m55s&winner=S&dealer=E&discarder=W",
        "/?ruleset=xinyu&indicator=4p&hand=123456789m115pE&win_tile=E&winner=S&dealer=E&discarder=W",
        "/rules/",
    ]
    for url in urls:
        page.goto(page.base + url)
        results = axe.run(page)
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], (url, bad)
    no_console_errors(page)
