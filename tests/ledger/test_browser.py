"""The ledger on a phone: create a table → record three hands → undo → share the read-only link.

Headless Debian Chromium at 390 × 844. The page must work without JavaScript and must not trip the strict CSP
(a violation is a console error, and console errors fail the test). Set LEDGER_SCREENSHOT=path to also save the
table page (docs/screenshot-ledger.png was made that way).
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop here
sync_api = pytest.importorskip("playwright.sync_api")

from tests.browser.conftest import Console  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def on_a_phone(browser):
    """Run body(page) on a fresh phone-sized page of the test process's Chromium (tests/conftest.py): a context of
    its own, closed afterwards with every other context the body opened (a second phone, a referee)."""
    before = list(browser.contexts)

    def run(body) -> None:
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="zh-CN",
        )
        page = context.new_page()
        page.set_default_timeout(10_000)
        # what the page complained about, judged as the other browser tests judge it (tests/browser/conftest.py): a
        # result request that a newer tap replaced is no complaint (on a busy machine the next tap often comes
        # before the answer, and htmx logs the cancelled one as two errors)
        page.console = Console(page)
        body(page)

    yield run
    for context in browser.contexts:
        if context not in before:
            context.close()


def balances(page) -> dict:
    return {
        row.get_attribute("data-seat"): int(row.locator("td.balance").inner_text().replace("−", "-"))
        for row in page.locator("#balances tbody tr").all()
    }


def outside(page) -> dict:
    return {
        row.get_attribute("data-seat"): int(row.locator("td.outside").inner_text().replace("−", "-"))
        for row in page.locator("#balances tbody tr").all()
    }


def record(page, hand, win_tile, winner, discarder="", melds=()):
    """Record a hand through the record page's own form (notation typed in)."""
    page.click("#record-form-link")
    page.fill("input[name=hand]", hand)
    page.fill("input[name=win_tile]", win_tile)
    page.check(f"input[name=winner][value='{winner}']")
    page.check(f"input[name=discarder][value='{discarder}']")
    for n, (kind, tiles, source) in enumerate(melds, start=1):
        page.select_option(f"select[name=meld{n}]", kind)
        page.fill(f"input[name=meld{n}_tiles]", tiles)
        page.select_option(f"select[name=meld{n}_from]", source)
    page.click("#score")
    page.wait_for_selector("#preview")
    page.click("#confirm")
    page.wait_for_selector("#balances")


def test_record_a_hand_by_tapping_it_into_the_calculator(on_a_phone, live_server):
    on_a_phone(lambda page: record_through_the_calculator(page, live_server.url))


def record_through_the_calculator(page, base: str) -> None:
    page.goto(f"{base}/tables/new/")
    for seat, name in {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}.items():
        page.fill(f"input[name=name_{seat}]", name)
    page.select_option("select[name=dealer]", "N")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#balances")
    edit_url = page.url.split("?")[0]
    token = edit_url.rstrip("/").rsplit("/", 1)[1]

    page.click("#record-link")  # "记一手牌" opens the calculator for this table
    page.wait_for_selector("#table-banner")
    assert "阿东、小南、老西、北北" in page.inner_text("#table-banner")
    assert page.is_checked('input[name="dealer"][value="N"]') and page.is_disabled('input[name="dealer"][value="E"]')
    page.check('input[name="winner"][value="S"]')
    page.check('input[name="discarder"][value="W"]')
    for tile in ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p", "7m", "9m", "5s", "5s", "8m"]:
        page.click(f'button[data-tile="{tile}"]')
    page.wait_for_selector('#result [data-win="true"] #record-hand')  # the htmx partial brings the button
    assert page.get_attribute('[data-seat="S"][data-net]', "data-net") == "19"
    assert f"token={token}" in page.url  # the address keeps the table after htmx replaced it
    assert token not in page.input_value("#share-url")  # the share link does not
    assert "小南" in page.inner_text("label[for=id_winner_1]")  # the seat buttons name the players
    page.click("#record-hand")  # recorded straight from the result card: back at the table
    page.wait_for_selector("#balances")
    assert page.url.split("?")[0] == edit_url
    assert balances(page) == {"E": 25, "S": 49, "W": 23, "N": 23}
    page.go_back()  # the calculator again, fetched anew: its button sends the same hand with the same key
    page.wait_for_selector("#record-hand")
    page.click("#record-hand")
    page.wait_for_selector("#repeat")  # "already recorded": nothing recorded twice
    assert balances(page) == {"E": 25, "S": 49, "W": 23, "N": 23}
    assert page.locator("#history > li").count() == 1
    assert [e for e in page.console.errors if "favicon" not in e] == []


def test_create_record_three_hands_undo_share(on_a_phone, live_server):
    on_a_phone(lambda page: create_record_undo_share(page, live_server.url))


def create_record_undo_share(page, base: str) -> None:
    page.goto(f"{base}/tables/new/")
    for seat, name in {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}.items():
        page.fill(f"input[name=name_{seat}]", name)
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#balances")
    assert "/edit/" in page.url
    edit_url = page.url.split("?")[0]
    assert balances(page) == {"E": 30, "S": 30, "W": 30, "N": 30}

    record(page, "111345789p79m55s", "8m", "S", "W")  # 小南 压档 8 on 老西's discard
    assert balances(page) == {"E": 23, "S": 49, "W": 23, "N": 25}
    # 阿东 self-draws 对对胡 + 混一色: 交, paid outside the 底
    record(page, "5558889m", "9m", "E", "", melds=[("pung", "CCC", "S"), ("pung", "222m", "W")])
    assert balances(page) == {"E": 71, "S": 31, "W": 8, "N": 10}
    assert outside(page) == {"E": 120, "S": -40, "W": -40, "N": -40}
    record(page, "111345789p79m55s", "8m", "N", "E")
    assert balances(page) == {"E": 64, "S": 26, "W": 1, "N": 29}
    assert page.locator("#history > li").count() == 3
    assert page.locator("#chart polyline").count() == 4
    if os.environ.get("LEDGER_SCREENSHOT"):
        page.screenshot(path=os.environ["LEDGER_SCREENSHOT"], full_page=True)

    page.click("#undo")  # asks first, naming the entry it removes
    assert "#3" in page.inner_text("#undo-what")
    page.click("#undo-confirm")
    page.wait_for_selector("#redo")
    assert balances(page) == {"E": 71, "S": 31, "W": 8, "N": 10}
    assert page.locator("#history > li").count() == 2
    assert page.locator("#status strong").inner_text() == "老西"  # the dealer after hand 2
    page.click("#redo")  # brings hand 3 back exactly
    page.wait_for_selector("#undo")
    assert balances(page) == {"E": 64, "S": 26, "W": 1, "N": 29}
    assert page.locator("#history > li").count() == 3 and page.locator("#redo").count() == 0

    view_url = page.input_value("#view-url")
    assert "/edit/" not in view_url and page.input_value("#edit-url").startswith(edit_url.split("/edit/")[0])
    page.goto(view_url)
    assert balances(page) == {"E": 64, "S": 26, "W": 1, "N": 29}
    assert page.locator("#actions").count() == 0 and page.locator("#ledger form").count() == 0
    assert page.locator("#edit-url").count() == 0
    assert page.locator("#mode.ledger-mode-view").count() == 1
    assert [e for e in page.console.errors if "favicon" not in e] == []  # no CSP violation, no script error
    # guessing an edit link leads nowhere
    response = page.goto(view_url + "edit/" + "x" * 32 + "/")
    assert response.status == 404


# ---------------------------------------------------------------------------------------------------------
# Issue 12: nothing recorded twice, every phone up to date, QR codes


def new_table_page(page, base: str, ruleset: str = "bazhi") -> str:
    page.goto(f"{base}/tables/new/")
    for seat, name in {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}.items():
        page.fill(f"input[name=name_{seat}]", name)
    page.check(f"input[name=ruleset][value={ruleset}]")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#balances")
    return page.url.split("?")[0]


def test_the_back_button_cannot_record_a_hand_twice(on_a_phone, live_server):
    on_a_phone(lambda page: back_button(page, live_server.url))


def back_button(page, base: str) -> None:
    from calculator.models import Hand

    new_table_page(page, base)
    page.click("#record-form-link")
    page.fill("input[name=hand]", "111345789p79m55s")
    page.fill("input[name=win_tile]", "8m")
    page.check("input[name=winner][value='S']")
    page.check("input[name=discarder][value='W']")
    page.click("#score")
    page.wait_for_selector("#confirm")
    # a copy of the confirmation as a cached page would keep it (bfcache, a second tab)
    cached = page.context.new_page()
    cached.goto(page.url)
    page.click("#confirm")
    page.wait_for_selector("#balances")
    assert balances(page) == {"E": 23, "S": 49, "W": 23, "N": 25}
    page.go_back()  # the confirmation page again: it knows its hand is recorded, and offers no button
    sync_api.expect(page.locator("#already")).to_be_visible()
    assert page.locator("#confirm").count() == 0
    cached.click("#confirm")  # the old page's button: the same key, so the first answer, nothing new
    cached.wait_for_selector("#repeat")
    assert balances(cached) == {"E": 23, "S": 49, "W": 23, "N": 25}
    assert Hand.objects.count() == 1
    assert [e for e in page.console.errors if "favicon" not in e] == []


def test_a_second_phone_sees_a_change_within_2_seconds_without_losing_its_form(on_a_phone, live_server):
    on_a_phone(lambda page: two_phones(page, live_server.url))


def two_phones(page, base: str) -> None:
    edit_url = new_table_page(page, base, "xinyu")  # an ordinary xinyu table: draws and the leave form
    view_url = page.input_value("#view-url")
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN").new_page()
    other.goto(view_url)
    referee = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN").new_page()
    referee.goto(edit_url)
    referee.select_option("#leave-form select[name=seat]", "N")  # half-filled: who leaves
    assert other.locator("#history > li").count() == 0

    page.click("#draw")  # the first phone records a drawn hand (it asks first)
    page.click("#draw-confirm")
    page.wait_for_selector("#history > li")
    sync_api.expect(other.locator("#history > li")).to_have_count(1, timeout=2000)
    sync_api.expect(referee.locator("#history > li")).to_have_count(1, timeout=2000)
    assert referee.input_value("#leave-form select[name=seat]") == "N"  # its form kept
    assert referee.locator("#live").get_attribute("data-version") == page.locator("#live").get_attribute("data-version")
    referee.click("#leave")  # and it still works, with the new version
    referee.wait_for_selector("#history > li.entry-leave")
    sync_api.expect(other.locator("#history > li.entry-leave")).to_have_count(1, timeout=2000)
    assert balances(other) == {"E": 18, "S": 16, "W": 16, "N": -50}  # 50 = 16 × 3 + 2: E, after N, gets the 2


def test_qr_codes_of_the_read_only_and_the_edit_link(on_a_phone, live_server):
    on_a_phone(lambda page: qr_codes(page, live_server.url))


def qr_codes(page, base: str) -> None:
    from calculator.pages.tables.qr import qr_data_uri

    new_table_page(page, base)
    view_url, edit_url = page.input_value("#view-url"), page.input_value("#edit-url")
    view_qr = page.locator("#view-qr")
    sync_api.expect(view_qr).to_be_visible()
    assert view_qr.get_attribute("src") == qr_data_uri(view_url)
    assert view_qr.get_attribute("src").startswith("data:image/svg+xml")
    assert view_qr.evaluate("img => img.naturalWidth") > 100  # drawn: the CSP lets data: images in
    edit_qr = page.locator("#edit-qr")
    sync_api.expect(edit_qr).to_be_hidden()  # behind a tap
    page.click("#edit-qr-box summary")
    sync_api.expect(edit_qr).to_be_visible()
    assert edit_qr.get_attribute("src") == qr_data_uri(edit_url)
    page.goto(view_url)
    assert page.locator("#edit-qr").count() == 0 and page.locator("#view-qr").count() == 1
    page.click("#nav-mine")  # this phone's tables: the one just made, with its edit link
    sync_api.expect(page.locator("#mine-list li")).to_have_count(1)
    assert page.locator("#mine-list li a").get_attribute("href") == edit_url
    assert [e for e in page.console.errors if "favicon" not in e] == []
