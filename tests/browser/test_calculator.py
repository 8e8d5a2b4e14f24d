"""The calculator page in headless Chromium at phone size (issue 4, point 9): tapping only, no typing."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import close
from tests.browser.phone import B1_NETS, B1_NETS_AT_THREE, B1_TAPS, expect, expect_nets, tap_seats, tap_tiles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def net(page, seat: str) -> int:
    return int(page.get_attribute(f'#result [data-seat="{seat}"]', "data-net"))


def wait_for_verdict(page, win: str) -> None:
    expect(page.locator(f'#result [data-win="{win}"]')).to_be_visible()


def no_console_errors(page) -> None:
    assert page.console.errors == []


@pytest.mark.parametrize(("players", "nets"), [("4", B1_NETS), ("3", B1_NETS_AT_THREE)], ids=["four", "three"])
def test_b1_by_tapping_only(page, players, nets):
    page.goto(page.base + "/")
    page.check(f'input[name="players"][value="{players}"]', force=True)  # the table size (bazhi: four or three)
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS)
    wait_for_verdict(page, "true")
    expect_nets(page, nets)
    expect(page.locator("#result [data-seat]")).to_have_count(len(nets))
    expect(page.locator("#strip [data-strip-seat]")).to_have_count(len(nets))
    expect(page.locator('#result [data-seat="S"]')).to_have_text(f"+{nets['S']}")
    expect(page).to_have_url(re.compile(rf"players={players}&"))
    # the 14th tap is the winning tile, set apart from the sorted hand (the tile sprite, moved to the tile)
    expect(page.locator("#hand-win .tile")).to_have_class(re.compile(r"\bt-8m\b"))
    expect(page.locator("#hand-win .tile")).to_have_css("background-image", re.compile(r"/tiles\.svg"))
    expect(page.locator("#hand-tiles .tile")).to_have_count(13)
    # the URL follows the input (htmx replaces it with the canonical share link)
    expect(page).to_have_url(re.compile(r"hand=79m111345789p55s&win_tile=8m"))
    no_console_errors(page)


def test_keyboard_greys_out_a_tile_whose_four_copies_are_used(page):
    page.goto(page.base + "/")
    tap_tiles(page, ["1p"] * 4)
    assert page.is_disabled('button[data-tile="1p"]')
    page.click("#hand-tiles button >> nth=0")  # tap a hand tile to remove it
    assert page.is_enabled('button[data-tile="1p"]')
    expect(page.locator("#hand-tiles .tile")).to_have_count(3)
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
    expect(page.locator("#result .tile.is-wild")).to_have_count(1)
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
    other = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    try:
        fresh = other.new_page()
        fresh.goto(share)
        expect(fresh.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "19")
        expect(fresh.locator("#hand-count")).to_have_text(re.compile(r"14\s*/\s*14"))
        expect(fresh.locator('input[name="discarder"][value="W"]')).to_be_checked()
    finally:
        other.close()


# A clipboard whose write never finishes (what some browsers do without the permission).
PENDING_CLIPBOARD = """
Object.defineProperty(navigator, "clipboard", { value: { writeText: () => new Promise(() => {}) } });
"""


def test_the_copy_button_selects_the_link_whatever_the_clipboard_does(page):
    """The copy button's outcome does not wait on the clipboard: while the clipboard write stays pending, the
    link is selected and the page says so at once."""
    page.context.add_init_script(PENDING_CLIPBOARD)
    page.goto(page.base + "/?ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W")
    page.click("#copy-link")
    expect(page.locator("#share-url")).to_be_focused()
    expect(page.locator("#copy-status")).to_have_text("链接已选中：用手机的菜单复制即可。")
    assert page.evaluate("getSelection().toString() || document.activeElement.selectionEnd") not in ("", 0)
    no_console_errors(page)


def test_the_copy_button_says_copied_when_the_clipboard_takes_the_link(browser, live_server):
    from tests.browser.conftest import open_page

    context, page = open_page(browser, live_server)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        page.goto(page.base + "/?ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W")
        page.click("#copy-link")
        expect(page.locator("#copy-status")).to_have_text("链接已复制")
        assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#share-url")
    finally:
        close(context)


def test_no_js_form_post(nojs_page):
    page = nojs_page
    page.goto(page.base + "/")
    assert not page.is_visible("#keyboard")
    tap_seats(page, "S", "E", "W")
    page.fill('input[name="hand"]', "111345789p79m55s")
    page.fill('input[name="win_tile"]', "8m")
    page.click('.submit-row button[type="submit"]')
    expect(page.locator('[data-win="true"]')).to_be_visible()
    assert int(page.get_attribute('[data-seat="S"]', "data-net")) == 19
    assert re.search(r"hand=111345789p79m55s", page.url)


def seats_shown(page, row: str) -> list[str]:
    return page.locator(f'[data-seat-row="{row}"] label.seat-item:visible').evaluate_all(
        "(labels) => labels.map((label) => label.dataset.tableSeat)"
    )


def test_a_table_of_three_has_no_north_and_what_chose_north_takes_another_seat_until_north_returns(page):
    """RULES.md §1.8: at three, North is no seat. Chosen before the switch, it gives way to the first seat of its row
    (East; self-draw for the discarder) or, for a meld's source, to the one the page gives a new meld (the
    discarder, or the winner's 上家); the page says so, and switching back to four gives North back."""
    page.goto(page.base + "/")
    tap_seats(page, "N", "N", "S")
    page.check('input[name="players"][value="3"]', force=True)
    expect(page.locator('input[name="winner"]:checked')).to_have_value("E")
    expect(page.locator('input[name="dealer"]:checked')).to_have_value("E")
    expect(page.locator('input[name="discarder"]:checked')).to_have_value("S")
    for row in ("winner", "dealer"):
        assert seats_shown(page, row) == ["E", "S", "W"]
    assert seats_shown(page, "discarder") == ["", "E", "S", "W"]
    expect(page.locator("#seat-notice")).to_contain_text("这一桌没有北：胡牌已改为东。")
    expect(page.locator("#seat-notice")).to_contain_text("这一桌没有北：庄家已改为东。")
    expect(page).to_have_url(re.compile(r"players=3&.*winner=E&dealer=E&discarder=S"))
    page.check('input[name="players"][value="4"]', force=True)
    expect(page.locator('input[name="winner"]:checked')).to_have_value("N")
    expect(page.locator('input[name="dealer"]:checked')).to_have_value("N")
    expect(page.locator("#seat-notice")).to_contain_text("胡牌已恢复为北。")
    assert seats_shown(page, "winner") == ["E", "S", "W", "N"]
    expect(page).to_have_url(re.compile(r"players=4&.*winner=N&dealer=N&discarder=S"))

    tap_seats(page, "S", "E", "")
    page.click('button[data-mode="pung"]')
    page.click('button[data-tile="5s"]')
    page.select_option("#hand-melds select", "N")
    page.check('input[name="players"][value="3"]', force=True)
    expect(page.locator("#hand-melds select")).to_have_value("E")  # South's 上家 at three
    expect(page.locator("#hand-melds select option")).to_have_text(["← 东", "← 西"])
    expect(page.locator("#seat-notice")).to_contain_text("这一桌没有北：碰改为来自东。")
    expect(page).to_have_url(re.compile(r"meld1_from=E"))
    page.check('input[name="players"][value="4"]', force=True)
    expect(page.locator("#hand-melds select")).to_have_value("N")
    expect(page).to_have_url(re.compile(r"meld1_from=N"))
    no_console_errors(page)


def test_a_chow_opened_from_a_link_shows_the_seat_the_form_sends(page):
    """A share link with a chow and no source: the chow is the 上家's (East's is North). The page filled the form's
    source with North but drew the chip before, its select on the first seat offered: "← South" on screen, North
    scored. The chips and the form now say the same, and a pung keeps the source the link gives."""
    link = (
        "/?ruleset=xinyu&caishen=5p&hand=9p&win_tile=9p&meld1=chow&meld1_tiles=123m&meld2=pung&meld2_tiles=555s"
        "&meld2_from=S&meld3=pung&meld3_tiles=777s&meld3_from=N&meld4=chow&meld4_tiles=345s&winner=E&dealer=E"
        "&discarder=W"
    )
    page.goto(page.base + link)
    chips = page.locator("#hand-melds select.meld-from")
    expect(chips).to_have_count(4)
    for n, seat in enumerate(["N", "S", "N", "N"], start=1):
        expect(chips.nth(n - 1)).to_have_value(seat)
        expect(page.locator(f'select[name="meld{n}_from"]')).to_have_value(seat)
