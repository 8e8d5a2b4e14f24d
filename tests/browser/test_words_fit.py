"""Every word fits its box on an English (and a Chinese) phone page (issue 21 §6), measured from the boxes the
browser lays out, at 360×640 and 390×844:

- the strip's summary of a win ("5 fan per loser · no jiao") is whole, not cut after "5 fan per…";
- a special win's name on two lines ("Win on a kong replacement") does not run into the reason under it;
- the honours row's "Clear" key holds its word (xinyu fills the row with seven honours: the key is one tile wide).
"""

from __future__ import annotations

import pytest

from tests.browser.phone import B1, expect, link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SUMMARY = {"zh": "每家 5 番 · 不交", "en": "5 fan per loser · no jiao"}


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def test_the_strips_summary_of_a_win_is_whole(phone_in):
    page = phone_in
    page.goto(link(page, B1))
    summary = page.locator("#strip .strip-summary")
    expect(summary).to_have_text(SUMMARY[page.lang])
    line = page.locator("#strip .strip-verdict")
    assert inside(box(summary), box(line)), (box(summary), box(line))
    assert inside(box(line), box(page.locator("#strip")))
    for seat in "ESWN":  # the four nets still under it
        expect(page.locator(f'#strip [data-strip-seat="{seat}"]')).to_be_in_viewport()
    assert page.console.errors == []


@pytest.mark.parametrize("game", ["bazhi", "xinyu"])
def test_a_special_wins_reason_sits_under_its_name_not_on_it(phone_in, game):
    page = phone_in
    page.goto(link(page, {**B1, "ruleset": game, "discarder": ""}))  # a self-draw without a kong
    flags = page.locator("#flags .flag:not(.is-foreign)")
    reasons = 0
    for flag in flags.all():
        why = flag.locator(".why")
        if not why.is_visible():
            continue
        name = box(flag.locator("label span"))
        below = box(why)
        assert below["y"] >= name["y"] + name["height"] - 0.5, (flag.inner_text(), name, below)
        reasons += 1
    assert reasons >= 2
    kong = page.locator('#flags .flag[data-flag="kong_bloom"]')
    expect(kong.locator(".why")).to_be_visible()  # "needs a kong", under a name that may take two lines
    assert page.console.errors == []


def test_the_clear_key_holds_its_word_in_a_full_row_of_honours(phone_in):
    page = phone_in
    page.goto(page.base + "/")
    page.check('input[name="ruleset"][value="xinyu"]')
    expect(page.locator('button[data-tile="F"]')).to_be_visible()  # all seven honours on the row
    key, word = page.locator("#key-clear"), page.locator("#key-clear .key-text")
    assert inside(box(word), box(key)), (box(word), box(key))
    assert key.evaluate("(k) => k.scrollWidth <= k.clientWidth")
    font = word.evaluate("(w) => parseFloat(getComputedStyle(w).fontSize)")
    assert font >= 12
    assert page.console.errors == []


def test_a_groups_box_is_as_wide_as_its_tiles_not_its_label(phone_in):
    """In English "Sequence · winning tile" under 七八九萬 stretched the winning group's outlined box to the label's
    width, an empty band beside the three tiles; a meld's shaded box stretched under "Pung ← North" alike."""
    page = phone_in
    page.goto(link(page, {**B1, "hand": "345789p79m55s", "meld1": "pung", "meld1_tiles": "1p1p1p", "meld1_from": "N"}))
    groups = page.locator(".groups .group-tiles")
    expect(groups).to_have_count(5)
    for group in groups.all():
        tiles = [box(tile) for tile in group.locator(":scope > *").all()]
        inside = max(t["x"] + t["width"] for t in tiles) - min(t["x"] for t in tiles)
        assert box(group)["width"] <= inside + 2 * 3 + 1, (group.inner_html()[:80], box(group), inside)  # 3 px padding
    assert page.console.errors == []


# Each element's text under `root` that matches `selector`, and the lines it is laid out on: a Range's client rects
# (one per line of each text and inline element in it), those that start half a line or more below the last one.
LINES = """(root, selector) => [...root.querySelectorAll(selector)].map((element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const half = parseFloat(getComputedStyle(element).lineHeight) / 2 || 8;
  const tops = [...range.getClientRects()].map((rect) => rect.top).sort((a, b) => a - b);
  const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] >= half).length;
  return [element.textContent.trim(), lines];
})"""


def lines_of(root, selector: str) -> list[tuple[str, int]]:
    return [tuple(found) for found in root.evaluate(LINES, selector)]


def test_every_payments_headers_stay_on_one_line(phone_in):
    """数目 (Amount) beside a long reason broke into 数 / 目 at 360×640: the reasons' column gives way instead."""
    page = phone_in
    page.goto(link(page, B1))
    page.locator("details.payments > summary").click()
    headers = lines_of(page.locator("details.payments table"), "th")
    assert len(headers) == 4 and all(lines == 1 for _, lines in headers), headers
    assert page.console.errors == []


def test_the_reasons_get_the_width_the_names_do_not_need(phone_in):
    """From and To are as wide as their names (南, "South"), not 28% each of the table: "dealer pays one more base
    fan" took 5 lines at 360×640 in English beside a column of "South" 90 px wide; it takes 3 at most."""
    page = phone_in
    page.goto(link(page, B1))
    page.locator("details.payments > summary").click()
    table = page.locator("details.payments table")
    widths = [box(header)["width"] for header in table.locator("th").all()]
    assert widths[3] >= 0.4 * box(table)["width"], widths
    reasons = lines_of(table, "tbody td:nth-child(4)")
    assert reasons and all(lines <= 3 for _, lines in reasons), reasons
    assert page.console.errors == []


def test_a_readings_name_on_the_rules_page_breaks_between_words_not_inside_one(phone_in):
    """不可以 beside four nets broke into 不 / 可 / 以 at 360×640: a name without a space stays on one line."""
    page = phone_in
    page.goto(page.base + "/rules/")
    names = [(name, lines) for name, lines in lines_of(page.locator("main"), ".house-payouts th") if " " not in name]
    assert names and all(lines == 1 for _, lines in names), [n for n in names if n[1] != 1]
    assert page.console.errors == []


def test_a_way_that_does_not_win_reads_as_one_paragraph_with_its_gloss(phone_in):
    """Four 财神 and no shape win by self-draw only: each wait says why not by discard in the discard's place. In
    English the page glosses 龙 inside that sentence, and the row's two-column grid (a win's label and its gain)
    laid the sentence out as three grid cells: "4 (long: what a hand scores in: …" one word a line in a narrow
    column beside 龙 and the rest (13-14 lines). The sentence is one paragraph, as wide as the row: at most 6 lines
    (the English gloss of 龙 is long)."""
    page = phone_in
    page.goto(
        link(page, {"ruleset": "xinyu", "caishen": "5p", "hand": "5555p138m26sESNC", "winner": "S", "dealer": "E"})
    )
    why_not = page.locator("li.wait").first.locator(".wait-no")
    expect(why_not).to_contain_text("龙")
    if page.lang == "en":
        expect(why_not.locator(".gloss")).to_have_count(1)  # the gloss is in
    ((_, lines),) = lines_of(page.locator("li.wait").first, ".wait-no")
    assert lines <= 6, lines
    assert box(why_not)["width"] >= 0.9 * box(page.locator("li.wait").first.locator(".wait-row").first)["width"]
    assert page.console.errors == []


def test_a_meld_chip_stays_inside_the_hand(phone_in):
    """B6's exposed kong with its source: label, four tiles, the source's select and × were 335 px in a 322 px box
    at 360 in English (to the card's border); the chip wraps inside the box instead."""
    kongs = [
        {"type": "kong_concealed", "tiles": "1111m"},
        {"type": "kong_exposed", "tiles": "9999m", "from": "S"},
    ]
    query = {"ruleset": "bazhi", "hand": "234567m11m", "win_tile": "8m", "winner": "E", "dealer": "E", "discarder": "W"}
    for n, meld in enumerate(kongs, start=1):
        query |= {f"meld{n}": meld["type"], f"meld{n}_tiles": meld["tiles"], f"meld{n}_from": meld.get("from", "")}
    page = phone_in
    page.goto(link(page, query))
    melds = page.locator("#hand-melds")
    expect(melds.locator(".meld-chip")).to_have_count(2)
    for chip in melds.locator(".meld-chip").all():
        assert inside(box(chip), box(melds)), (box(chip), box(melds))
