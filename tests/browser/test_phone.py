"""Issue 14 §1 and §2 on a phone, at 360×640 and 390×844: the answer always in view, nothing changed silently,
nothing lost. Locator assertions only."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.conftest import SIZES, close, open_page
from tests.browser.phone import (
    B1,
    B1_NETS,
    B1_TAPS,
    WIDE,
    WIDE_NETS,
    assert_in_band,
    box,
    expect,
    expect_nets,
    finger_tap,
    link,
    no_horizontal_scroll,
    tap_meld,
    tap_seats,
    tap_tiles,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# S wins by self-draw with a concealed kong of 9p (bazhi): 杠后开花 applies (S +46, with it +148)
KONG_HAND = {**B1, "hand": "111345p79m55s", "meld1": "kong_concealed", "meld1_tiles": "9999p", "discarder": ""}


# ------------------------------------------------------------------------------------ §1 the answer in view


def test_a_share_link_shows_the_verdict_and_the_four_nets_without_scrolling(phone):
    phone.goto(link(phone, B1))
    expect(phone.locator("#strip .strip-verdict")).to_contain_text("南")
    expect_nets(phone, B1_NETS)
    assert_in_band(phone, "#result [data-seat][data-net]")  # the who-pays picture, between strip and keyboard
    for seat in "ESWN":
        expect(phone.locator(f'#strip [data-strip-seat="{seat}"]')).to_be_in_viewport(ratio=1)
    assert phone.console.errors == []


def test_the_strip_stays_in_view_while_tiles_and_flags_change(phone):
    phone.goto(phone.base + "/")
    tap_seats(phone, "S", "E", "")
    tap_meld(phone, "kong_concealed", "9p")
    tap_tiles(phone, ["1p", "1p", "1p", "3p", "4p", "5p", "7m", "9m", "5s", "5s", "8m"])
    expect_nets(phone, {"E": -18, "S": 46, "W": -14, "N": -14})
    # the flags sit by the seats, above the result: ticking one happens far from the result card
    phone.locator('input[name="flags"][value="kong_bloom"]').check()
    expect_nets(phone, {"E": -52, "S": 148, "W": -48, "N": -48})
    expect(phone.locator("#strip")).to_be_in_viewport(ratio=1)
    now = "148"
    expect(phone.locator("#strip .strip-verdict")).to_be_in_viewport(ratio=1)
    # a tile taken out and put back: the strip follows, still in view wherever the page is scrolled
    phone.locator("#hand-win button").click()
    expect(phone.locator("#strip [data-strip-seat]")).to_have_count(0)
    expect(phone.locator("#strip")).to_be_in_viewport(ratio=1)
    phone.click('button[data-tile="8m"]')
    expect(phone.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", now)
    phone.mouse.wheel(0, 5000)
    expect(phone.locator("#strip")).to_be_in_viewport(ratio=1)
    assert phone.console.errors == []


def test_the_special_wins_sit_by_the_seats_and_the_hand_not_below_the_result(phone):
    phone.goto(link(phone, B1))
    seats, flags, result = box(phone, "section.seats"), box(phone, "#flags"), box(phone, "#result")
    assert seats["y"] < flags["y"] < result["y"]
    assert flags["y"] - (seats["y"] + seats["height"]) < 20  # right under the seats


def test_the_keyboard_is_docked_at_the_bottom_while_entering_with_the_count_in_view(phone):
    phone.goto(phone.base + "/")
    height = phone.size["height"]
    for n, tile in enumerate(B1_TAPS[:13], start=1):
        finger_tap(phone, f'button[data-tile="{tile}"]')
        expect(phone.locator("#hand-count")).to_have_text(re.compile(rf"{n}\s*/\s*14"))
        dock = box(phone, "#keyboard")
        assert abs(dock["y"] + dock["height"] - height) <= 1, f"the keyboard left the bottom after {n} taps"
        expect(phone.locator("#hand-count")).to_be_in_viewport(ratio=1)
    assert_in_band(phone, "#hand-view")  # the hand grows above the keyboard, not under it
    phone.mouse.wheel(0, -5000)
    expect(phone.locator("#keyboard-body")).to_be_in_viewport()
    dock = box(phone, "#keyboard")
    assert abs(dock["y"] + dock["height"] - height) <= 1
    # the 14th tile folds it to its bar, still docked, still counting
    phone.click('button[data-tile="8m"]')
    expect(phone.locator("#keyboard-body")).to_be_hidden()
    expect(phone.locator("#hand-count")).to_have_text(re.compile(r"14\s*/\s*14"))
    expect(phone.locator("#hand-count")).to_be_in_viewport(ratio=1)


WIDE_CASES = {
    "bazhi self-draw, dealer and 交": WIDE,
    "the same with long names": {**WIDE, **{f"name_{s}": "名字很长的一位牌友" * 2 + "ABCDEF" for s in "ESWN"}},
    "xinyu, four 财神": {
        "ruleset": "xinyu",
        "caishen": "5p",
        "hand": "123m456m789s5p5p5p",
        "win_tile": "5p",
        "winner": "N",
        "dealer": "W",
        "discarder": "",
    },
    "nine waits": {**B1, "hand": "1112345678999p", "win_tile": "", "name_E": "W" * 24},
    "other readings": {**B1, "hand": "1113m123456789p", "win_tile": "2m"},
}


@pytest.mark.parametrize("query", list(WIDE_CASES.values()), ids=list(WIDE_CASES))
def test_no_horizontal_scroll_for_any_hand(phone, query):
    phone.goto(link(phone, query))
    expect(phone.locator("#result .card").first).to_be_visible()
    no_horizontal_scroll(phone)
    for details in phone.locator("#result details").all():
        details.locator("summary").click()
    no_horizontal_scroll(phone)


def test_the_widest_payout_has_its_numbers(phone):
    phone.goto(link(phone, WIDE))
    expect_nets(phone, WIDE_NETS)
    assert_in_band(phone, "#result [data-seat][data-net]")


# ------------------------------------------------------------------------------------ §2 nothing changes silently


def test_the_language_switch_keeps_the_whole_hand(phone):
    phone.goto(phone.base + "/")
    phone.locator("details.names summary").click()
    phone.fill('input[name="name_S"]', "小南")  # a field of the "names" part, typed
    tap_seats(phone, "S", "E", "W")
    tap_tiles(phone, B1_TAPS)
    expect_nets(phone, B1_NETS)
    with phone.expect_navigation():
        phone.click("[data-lang-switch]")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect_nets(phone, B1_NETS)
    expect(phone.locator("#hand-count")).to_have_text(re.compile(r"14\s*/\s*14"))
    expect(phone.locator('input[name="name_S"]')).to_have_value("小南")
    query = parse_qs(urlsplit(phone.url).query)
    assert query["hand"] == ["79m111345789p55s"] and query["win_tile"] == ["8m"] and "csrfmiddlewaretoken" not in query
    with phone.expect_navigation():
        phone.click("[data-lang-switch]")  # and back
    expect(phone.locator("html")).to_have_attribute("lang", "zh-hans")
    expect_nets(phone, B1_NETS)


def test_the_language_switch_keeps_a_hand_typed_a_moment_ago(phone):
    """Typed text waits 300 ms before it is sent: the switch must not go back to the address of before."""
    phone.goto(link(phone, B1))
    phone.locator("#notation summary").click()
    phone.fill('input[name="win_tile"]', "")
    with phone.expect_navigation():
        phone.click("[data-lang-switch]")
    expect(phone.locator("#result [data-waits]")).to_have_attribute("data-waits", "1")


def test_the_winner_taking_the_discarders_seat_says_so_and_going_back_restores_it(phone):
    phone.goto(link(phone, B1))
    notice = phone.locator("#seat-notice")
    expect(notice).to_be_hidden()
    phone.check('input[name="winner"][value="W"]')
    expect(phone.locator('input[name="discarder"][value=""]')).to_be_checked()
    expect(notice).to_be_visible()
    expect(notice).to_have_text("放铳已改为自摸：西是胡牌的人，不能放铳。")
    phone.check('input[name="winner"][value="S"]')
    expect(phone.locator('input[name="discarder"][value="W"]')).to_be_checked()
    expect(notice).to_have_text("放铳已恢复为西。")
    expect_nets(phone, B1_NETS)


def test_a_discarder_unticks_kong_bloom_says_so_and_self_draw_restores_it(phone):
    phone.goto(link(phone, KONG_HAND))
    bloom = phone.locator('input[name="flags"][value="kong_bloom"]')
    bloom.check()
    expect(phone.locator('#result [data-win="true"]')).to_be_visible()
    phone.check('input[name="discarder"][value="W"]')
    expect(bloom).not_to_be_checked()
    expect(phone.locator("#seat-notice")).to_have_text(re.compile(r"已取消“杠后开花”：.+。"))
    phone.check('input[name="discarder"][value=""]')
    expect(bloom).to_be_checked()
    expect(phone.locator("#seat-notice")).to_have_text("已恢复“杠后开花”。")


def test_a_flag_the_user_unticked_is_not_given_back(phone):
    phone.goto(link(phone, KONG_HAND))
    bloom = phone.locator('input[name="flags"][value="kong_bloom"]')
    bloom.check()
    phone.check('input[name="discarder"][value="W"]')
    expect(bloom).not_to_be_checked()
    phone.check('input[name="discarder"][value=""]')
    expect(bloom).to_be_checked()
    bloom.uncheck()  # the user's own choice now
    phone.check('input[name="discarder"][value="W"]')
    phone.check('input[name="discarder"][value=""]')
    expect(bloom).not_to_be_checked()
    expect(phone.locator("#seat-notice")).to_be_hidden()


def test_a_bad_typed_tile_stays_when_a_key_is_tapped_and_its_error_is_beside_the_field(phone):
    phone.goto(phone.base + "/")
    phone.locator("#notation summary").click()
    hand = phone.locator('input[name="hand"]')
    hand.fill("111345789p79m5x")
    expect(hand).to_have_attribute("aria-invalid", "true")
    error = phone.locator("#id_hand_error")
    expect(error).to_have_text("第 15 个字符“x”无法识别，不是牌。")
    expect(hand).to_have_attribute("aria-describedby", re.compile(r"^id_hand_error\b"))
    phone.click('button[data-tile="5s"]')
    expect(hand).to_have_value("111345789p79m5x")  # kept, not replaced by the tapped tile
    expect(phone.locator("#mode-hint")).to_contain_text("无法识别")
    hand.fill("111345789p79m55s")  # corrected: the error goes, taps work again
    expect(hand).not_to_have_attribute("aria-invalid", "true")
    expect(error).to_have_count(0)
    phone.click('button[data-tile="8m"]')
    expect(phone.locator('#result [data-win="true"]')).to_be_visible()


def test_an_error_in_english_is_in_english(browser, live_server):
    context, page = open_page(browser, live_server, SIZES["360x640"], lang="en")
    try:
        page.goto(link(page, {**B1, "hand": "111345789p79m5x"}))
        expect(page.locator("#result [data-error]")).to_contain_text("Character 15, “x”, is not part of a tile.")
        expect(page.locator('input[name="hand"]')).to_have_attribute("aria-invalid", "true")
        assert "第" not in page.inner_text("#result")
    finally:
        close(context)


def test_the_automatic_update_requests_carry_no_csrf_token_in_the_address(phone):
    phone.goto(phone.base + "/")
    sent = []
    phone.on("request", lambda r: sent.append(r) if r.headers.get("hx-request") == "true" else None)
    tap_tiles(phone, ["1m", "2m"])
    expect(phone.locator("#hand-count")).to_have_text(re.compile(r"2\s*/\s*14"))
    expect(phone.locator("#strip .strip-verdict")).to_have_text("还差 11 张")
    assert sent, "no update request was sent"
    for request in sent:
        assert "csrfmiddlewaretoken" not in request.url
        assert request.headers.get("x-csrftoken")  # the token travels in a header (hx-headers)


# ------------------------------------------------------------------------------------ §3 the glossary


def explained(page) -> dict[str, str]:
    """Each explained word and the explanation after it."""
    return {
        dfn.get_attribute("data-term"): dfn.evaluate("d => d.nextElementSibling.textContent")
        for dfn in page.locator("#main dfn[data-term]").all()
    }


@pytest.mark.parametrize("size", list(SIZES))
def test_an_english_page_explains_each_chinese_word_where_it_first_uses_it(browser, live_server, size):
    context, page = open_page(browser, live_server, SIZES[size], lang="en")
    try:
        page.goto(link(page, WIDE))
        expect(page.locator("#main dfn[data-term]").first).to_be_attached()
        words = explained(page)
        for word in ("番", "嘴", "交", "底"):
            assert word in words, words
        assert words["交"].startswith(" (交: an extra payment")  # written "jiao" on this page
        assert page.locator('#main dfn[data-term="交"]').count() == 1
        # once per page: the next use of "jiao" stands alone
        assert page.locator("#main .gloss").count() == len(words)
        no_horizontal_scroll(page)
        # a new answer (htmx) is explained too, where the word now first appears
        page.goto(link(page, {**B1, "ruleset": "xinyu", "indicator": "4p", "hand": "123456789m115pE", "win_tile": "E"}))
        expect(page.locator('#main dfn[data-term="财神"]')).to_have_count(1)
        page.locator("#hand-win button").click()
        page.click('button[data-tile="E"]')
        expect(page.locator('#result [data-win="true"]')).to_be_visible()
        expect(page.locator('#result dfn[data-term="龙"], #main dfn[data-term="龙"]').first).to_be_attached()
        assert page.console.errors == []
    finally:
        close(context)


def test_a_chinese_page_explains_nothing_inline(phone):
    phone.goto(link(phone, WIDE))
    expect(phone.locator('#result [data-win="true"]')).to_be_visible()
    assert phone.locator("dfn, .gloss").count() == 0


# The page's positions of the seats' card and of each tile picture of the hand, before and after the 14th tile is
# tapped (in one task: no answer can come in between); a picture drawn anew is another element (detached: at 0).
FILL_WIN_BOX = """() => {
  const seats = document.querySelector("section.seats");
  const pictures = Array.from(document.querySelectorAll("#hand-tiles .tile"));
  const at = () => [seats, ...pictures].map((el) => el.isConnected ? el.getBoundingClientRect().top + scrollY : 0);
  const before = at();
  document.querySelector('button[data-tile="8m"]').click();
  return [before, at()];
}"""


def test_the_14th_tile_fills_the_win_box_and_moves_nothing_else(phone):
    """The win tile's box keeps a tile's room while empty: the 14th tile moves neither the hand's tiles (kept, not
    drawn anew) nor the page below, which the browser would otherwise paint again, every tile picture of it
    (docs/PERFORMANCE.md: the offline tap)."""
    phone.goto(phone.base + "/")
    tap_seats(phone, "S", "E", "W")
    tap_tiles(phone, B1_TAPS[:-1])
    expect(phone.locator("#result [data-waits]")).to_be_visible()
    before, after = phone.evaluate(FILL_WIN_BOX)
    assert len(before) == 14  # the seats' card and the 13 tiles
    assert after == before
    expect(phone.locator("#hand-win .tile")).to_have_count(1)
