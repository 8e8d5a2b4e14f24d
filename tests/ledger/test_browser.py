"""The ledger on a phone: create a table → record three hands → undo → share the read-only link.

Headless Debian Chromium at 390 × 844. The page must work without JavaScript and must not trip the strict CSP
(a violation is a console error, and console errors fail the test). Set LEDGER_SCREENSHOT=path to also save the
table page (docs/screenshot-ledger.png was made that way).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.chromium import ARGS, CHROMIUM

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop here
sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def on_a_phone(body) -> None:
    """Run body(page) on a fresh phone-sized page, in a thread of its own: Playwright's sync API refuses to start
    where another Playwright (tests/browser's session browser) already runs its event loop."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(
                    viewport={"width": 390, "height": 844},
                    device_scale_factor=2,
                    is_mobile=True,
                    has_touch=True,
                    locale="zh-CN",
                )
                page = context.new_page()
                page.set_default_timeout(10_000)
                errors: list[str] = []
                page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.errors = errors
                try:
                    body(page)
                finally:
                    browser.close()
        except BaseException as error:  # re-raised in the test's thread
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def balances(page) -> dict:
    return {
        row.get_attribute("data-seat"): int(row.locator("td.balance").inner_text())
        for row in page.locator("#balances tbody tr").all()
    }


def outside(page) -> dict:
    return {
        row.get_attribute("data-seat"): int(row.locator("td.outside").inner_text())
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


def test_record_a_hand_by_tapping_it_into_the_calculator(live_server):
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
    page.click("#record-hand")
    page.wait_for_selector("#preview")
    assert "小南 +19" in page.inner_text("#preview")
    page.click("#confirm")
    page.wait_for_selector("#balances")
    assert page.url.split("?")[0] == edit_url
    assert balances(page) == {"E": 25, "S": 49, "W": 23, "N": 23}
    assert page.locator("#history > li").count() == 1
    assert [e for e in page.errors if "favicon" not in e] == []


def test_create_record_three_hands_undo_share(live_server):
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

    page.click("#undo")
    page.wait_for_selector("#balances")
    assert balances(page) == {"E": 71, "S": 31, "W": 8, "N": 10}
    assert page.locator("#history > li").count() == 2
    assert page.locator("#status strong").inner_text() == "老西"  # the dealer after hand 2

    view_url = page.input_value("#view-url")
    assert "/edit/" not in view_url and page.input_value("#edit-url").startswith(edit_url.split("/edit/")[0])
    page.goto(view_url)
    assert balances(page) == {"E": 71, "S": 31, "W": 8, "N": 10}
    assert page.locator("#actions").count() == 0 and page.locator("#ledger form").count() == 0
    assert page.locator("#edit-url").count() == 0
    assert page.locator("#mode.ledger-mode-view").count() == 1
    assert [e for e in page.errors if "favicon" not in e] == []  # no CSP violation, no script error
    # guessing an edit link leads nowhere
    response = page.goto(view_url + "edit/" + "x" * 32 + "/")
    assert response.status == 404
