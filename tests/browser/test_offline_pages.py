"""Without a network and without the offline pack (issue 21 §10), at both phone sizes and in both languages:

- a share link opens the calculator the service worker kept, with the link's hand put into it, and says that this
  hand needs the network; the answer comes by itself once the phone is back online;
- a tap without a network: the strip and the result card both say it (not "enter a hand…" under "no network");
- the trainer and a table's pages show the app's own page saying the page needs the network, not the browser's.
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import SIZES, close, open_page
from tests.browser.phone import B1, axe_findings, expect, link, tap_tiles
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAID = {
    "zh": {
        "needs": "这手牌要联网才能算",
        "kept": "牌已经填在上面并保留着：手机一联网就算出来。",
        "no network": "没有网络：计算结果需要联网。牌键盘仍可使用。",
        "page": "没有网络",
        "enter": "输入一手牌",
    },
    "en": {
        "needs": "This hand needs the network to be scored",
        "kept": "It is entered above and kept: it is scored as soon as this phone is back online.",
        "no network": "No connection: the answer needs the server. The tile keyboard still works.",
        "page": "No network",
        "enter": "Enter a hand",
    },
}


@pytest.fixture(params=[(size, lang) for size in SIZES for lang in ("zh", "en")], ids=lambda p: f"{p[0]}-{p[1]}")
def kept(request, browser, live_server):
    """A phone that visited the site once (its service worker installed, holding the pages), then lost the network."""
    size, lang = request.param
    context, page = open_page(browser, live_server, SIZES[size], lang=lang, service_workers="allow")
    page.said = SAID[lang]
    page.goto(page.base + "/")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    page.reload()  # in the worker's hands
    expect(page.locator("#keyboard")).to_be_visible()
    context.set_offline(True)
    yield page
    close(context)


def offline_errors(page) -> list[str]:
    """What the page complained about, less the requests that fail because there is no network (the point)."""
    return [e for e in page.console.errors if "ERR_INTERNET_DISCONNECTED" not in e and "Failed to load" not in e]


def test_a_share_link_offline_opens_its_hand_and_says_it_needs_the_network(kept):
    page, said = kept, kept.said
    page.goto(link(page, B1))
    expect(page.locator("#hand-count")).to_have_text(re.compile(r"14\s*/\s*14"))
    expect(page.locator("#hand-tiles .tile")).to_have_count(13)
    expect(page.locator("#hand-win .tile.t-8m")).to_be_visible()
    expect(page.locator('input[name="winner"][value="S"]')).to_be_checked()
    card = page.locator("#result [data-offline]")
    expect(card.locator("h2")).to_have_text(said["needs"])
    expect(card).to_contain_text(said["kept"])
    expect(page.locator("#strip .strip-verdict")).to_have_text(said["no network"])
    expect(page.locator("#result")).not_to_contain_text(said["enter"])
    assert offline_errors(page) == []
    page.context.set_offline(False)  # back online: the answer comes by itself (asked again every 5 s)
    expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19", timeout=15_000)
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "19")


def test_a_tap_without_a_network_says_so_in_the_strip_and_the_card(kept):
    page, said = kept, kept.said
    page.goto(page.base + "/")
    tap_tiles(page, ["1m", "2m", "3m"])
    verdict = page.locator("#strip .strip-verdict")
    expect(verdict).to_have_text(said["no network"])
    assert verdict.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # said whole, not cut short
    expect(page.locator("#result [data-offline] h2")).to_have_text(said["needs"])
    expect(page.locator("#result")).not_to_contain_text(said["enter"])


def test_an_empty_hand_without_a_network_is_not_called_a_hand_that_waits(kept):
    page, said = kept, kept.said
    page.goto(page.base + "/")
    tap_tiles(page, ["1m"])
    page.click("#key-clear")  # nothing entered
    expect(page.locator("#result [data-offline]")).to_have_text(said["no network"])
    expect(page.locator("#result")).not_to_contain_text(said["needs"])


def test_a_retry_that_fails_again_is_not_said_again(kept):
    """The strip is a live region: asking again while still offline leaves it as it was (no repeated notice)."""
    page = kept
    page.goto(link(page, B1))
    said = page.locator('#strip [data-strip="offline"]')
    expect(said).to_be_visible()
    handle = said.element_handle()
    page.evaluate(RETRY_FAILED)
    assert handle.evaluate("(e) => e.isConnected")


# the page asks again (as it does every 5 s and when the browser says it is online) and its request fails
RETRY_FAILED = """() => new Promise((done) => {
  document.body.addEventListener("htmx:sendError", () => setTimeout(done), { once: true });
  window.dispatchEvent(new Event("online"));
})"""


def test_the_trainer_and_a_tables_pages_offline_show_the_apps_own_page(kept, client):
    page, said = kept, kept.said
    api = Api(client, {"ruleset": "bazhi"})
    for path in ("/trainer/", f"/tables/{api.id}/", f"/tables/{api.id}/edit/{api.token}/", "/tables/new/"):
        page.goto(page.base + path)
        expect(page.locator("#no-network h1")).to_have_text(said["page"])
        expect(page.locator('#no-network a[href="/"]')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_axe_finds_nothing_on_the_pages_offline(kept):
    found = {}
    for path in ("/trainer/", "/?" + urlencode(B1)):
        page = kept
        page.goto(page.base + path)
        expect(page.locator("#no-network, #result [data-offline]").first).to_be_visible()
        found[path] = axe_findings(page)
    assert found == {"/trainer/": [], "/?" + urlencode(B1): []}


@pytest.mark.parametrize(("first", "then"), [("zh", "en"), ("en", "zh")])
def test_the_apps_offline_page_speaks_the_language_last_chosen(browser, live_server, first, then):
    context, page = open_page(browser, live_server, SIZES["360x640"], lang=first, service_workers="allow")
    try:
        page.goto(page.base + "/")
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
        page.reload()
        page.click("[data-lang-switch]")
        expect(page.locator("html")).to_have_attribute("lang", re.compile(then))
        deadline = time.monotonic() + 10
        while page.evaluate(KEPT_LANGUAGE) != LANG[then] and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        context.set_offline(True)
        page.goto(page.base + "/trainer/")
        expect(page.locator("#no-network h1")).to_have_text(SAID[then]["page"])
    finally:
        close(context)


LANG = {"zh": "zh-hans", "en": "en"}
KEPT_LANGUAGE = """() => caches.match(new URL("/no-network/", location.href).href, { ignoreVary: true })
  .then((kept) => kept && kept.headers.get("Content-Language"))"""
