"""What a screen reader hears (issue 21 §11), from the page's accessibility tree, at both phone sizes and in both
languages:

- the strip (a status region, read whole on each change) names the tile a tap just added or took out, with the
  answer: a mis-key is heard, not only seen;
- the who-pays picture is a list of sentences, one a seat or a payment, instead of its pieces in a row
  ("7 North pays West 7 West +19 fan +19 · jiao 0 Winner 5 …").
"""

from __future__ import annotations

import pytest

from tests.browser.phone import B1, expect, link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEARD = {
    "zh": {
        "added": "加了八万。",
        "win": "加了八万，作胡的牌。",
        "out": "拿掉了一筒。",
        "to go": "还差 12 张",
        "picture": """
- list:
  - listitem: 西、放铳：−7（番 −7 · 交 0）
  - listitem: 西付给南 7
  - listitem: 北：−5（番 −5 · 交 0）
  - listitem: 北付给南 5
  - listitem: 南、胡：+19（番 +19 · 交 0）
  - listitem: 东、庄：−7（番 −7 · 交 0）
  - listitem: 东付给南 7
""",
    },
    "en": {
        "added": "8 of characters added.",
        "win": "8 of characters added as the winning tile.",
        "out": "1 of dots taken out.",
        "to go": "12 more tiles to go",
        "picture": """
- list:
  - listitem: "West, Discarder: −7 (fan −7 · jiao 0)"
  - listitem: West pays South 7
  - listitem: "North: −5 (fan −5 · jiao 0)"
  - listitem: North pays South 5
  - listitem: "South, Winner: +19 (fan +19 · jiao 0)"
  - listitem: "East, Dealer: −7 (fan −7 · jiao 0)"
  - listitem: East pays South 7
""",
    },
}


def test_the_strip_names_the_tile_a_tap_added_or_took_out(phone_in):
    page, heard = phone_in, HEARD[phone_in.lang]
    page.goto(page.base + "/")
    strip = page.locator("#strip")
    expect(strip).to_have_attribute("role", "status")
    page.click('button[data-tile="8m"]')
    expect(strip).to_contain_text(f"{heard['added']} {heard['to go']}")  # said first, with the answer
    page.click('button[data-tile="1p"]')
    expect(strip.locator("[data-tap-said]")).to_have_count(1)  # the last tap alone
    page.locator("#hand-tiles button").nth(1).click()  # the hand is sorted: 8m, then 1p
    expect(strip.locator("[data-tap-said]")).to_have_text(heard["out"])
    assert page.console.errors == []


def test_the_winning_tile_is_named_as_such(phone_in):
    page, heard = phone_in, HEARD[phone_in.lang]
    query = {k: v for k, v in B1.items() if k != "win_tile"}  # 13 tiles: the next tap is the winning tile
    page.goto(link(page, query))
    expect(page.locator("#result [data-waits]")).to_be_visible()
    page.click('button[data-tile="8m"]')
    expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
    expect(page.locator("#strip [data-tap-said]")).to_have_text(heard["win"])
    assert page.console.errors == []


def test_the_who_pays_picture_reads_as_sentences(phone_in):
    page = phone_in
    page.goto(link(page, B1))
    expect(page.locator("#result .compass")).to_match_aria_snapshot(HEARD[page.lang]["picture"])
    assert page.console.errors == []


def test_a_folded_part_is_heard_by_its_name_not_its_triangle(phone_in):
    """The ▸ before a summary is drawn, not said: "每一笔" / "Every payment", collapsed (the details says whether it is
    open), not "black right-pointing small triangle, Every payment"."""
    page = phone_in
    page.goto(link(page, B1))
    summaries = page.locator("details > summary")
    assert summaries.count() >= 3
    for summary in summaries.all():
        said = summary.aria_snapshot()
        assert "▸" not in said, said
    expect(page.locator("details.payments > summary")).to_match_aria_snapshot(
        {"zh": "- text: 每一笔", "en": "- text: Every payment"}[page.lang]
    )
    assert page.console.errors == []
