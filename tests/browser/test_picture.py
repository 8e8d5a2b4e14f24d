"""Issue 32: the verdict as a picture, in the phone. One tap on "分享图片" loads the picture's script, draws the
answer's SVG on a canvas and gives the phone's share sheet a PNG file of 1080 px (the share call stubbed by a
static test script: headless Chromium on Linux shares no files); where files cannot be shared, the PNG is
downloaded, its QR code the share link. A table's evening the same way, its QR code the read-only link."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.phone import B1, expect, link
from tests.ledger.client import Api
from tests.ledger.hands import B1 as B1_HAND
from tests.pictures import decoded, png_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STUB = Path(__file__).with_name("share_stub.js")


def test_share_as_picture_gives_the_share_sheet_a_png_of_1080_px(page):
    page.context.add_init_script(path=str(STUB))
    page.goto(link(page, B1))
    expect(page.locator("script[src*='picture.js']")).to_have_count(0)  # not loaded before it is asked for
    page.click("#share-picture")
    expect(page.locator("html")).to_have_attribute("data-shared", "1")
    (shared,) = page.evaluate("() => window.__shared")
    assert shared["type"] == "image/png" and shared["name"].endswith(".png")
    assert shared["width"] == 1080 and shared["height"] > 1080
    assert shared["title"] == "南胡 西放铳 · 南 +19 · 东 −7 西 −7 北 −5"
    expect(page.locator("[data-picture-panel] img")).to_be_visible()  # shown, with a second way to share it
    expect(page.locator("[data-panel-share]")).to_be_visible()
    assert page.console.errors == []


def test_where_files_cannot_be_shared_the_picture_is_downloaded_with_the_share_links_qr_code(page):
    page.goto(link(page, B1))
    with page.expect_download() as waiting:
        page.click("#share-picture")
    png = Path(waiting.value.path()).read_bytes()
    assert png_size(png)[0] == 1080
    assert decoded(png) == page.locator("#share-url").input_value()
    expect(page.locator("[data-picture-panel] [data-panel-save]")).to_be_visible()
    assert page.console.errors == []


def test_a_tables_evening_is_downloaded_as_a_picture_of_its_read_only_link(page, client):
    table = Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}})
    table.ok("hands", B1_HAND)
    page.goto(f"{page.base}/tables/{table.id}/edit/{table.token}/")
    with page.expect_download() as waiting:
        page.click("#share-evening")
    png = Path(waiting.value.path()).read_bytes()
    assert png_size(png)[0] == 1080
    assert decoded(png) == f"{page.base}/tables/{table.id}/"
    assert waiting.value.suggested_filename == "mahjong-table.png"
    assert page.console.errors == []
