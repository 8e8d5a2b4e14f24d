"""Players' names of any length on a phone (issue 21 §1): 1–40 characters, Chinese and Latin, words of 24 letters.

A seat button shows the seat's word on one line and the name under it, cut short with an ellipsis; the button's
label (what a screen reader says) holds the whole name. Wherever else a name is shown on one line (the table's
balances, who pays whom, the chart's legend, the history, the record page, the result card's picture) it is cut
the same way, inside its own box; nothing runs off the screen. The seats' words are in the page's language,
whatever language the table was made in.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.browser.conftest import close, open_page
from tests.browser.phone import B1, expect, no_horizontal_scroll
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# one of each: a Latin name longer than a button, a Chinese one, a 24-letter word, 40 characters, one character
NAMES = {
    "E": "Alexandrina",
    "S": "欧阳娜娜",
    "W": "Bartholomewbartholomewxy",
    "N": "王" * 39 + "五",
}
SEAT_WORDS = {
    "zh": {"E": "东", "S": "南", "W": "西", "N": "北"},
    "en": {"E": "East", "S": "South", "W": "West", "N": "North"},
}
HAND = {k: v for k, v in B1.items() if k not in ("ruleset", "dealer")}  # 南 wins on 西's discard


def table_of(client, names: dict[str, str] = NAMES, hands: int = 1) -> Api:
    api = Api(client, {"ruleset": "bazhi", "players": names})
    for _ in range(hands):
        api.ok("hands", HAND)
    return api


def bound(page, api: Api, hand: dict | None = None) -> str:
    query = {"table": api.id, "token": api.token, **(hand or {})}
    return page.base + "/?" + urlencode(query)


def one_line(page, selector: str) -> None:
    """Each element is one line of text, wholly inside its parent's box (a name cut short, not spilling out)."""
    for element in page.locator(selector).all():
        box, line = element.bounding_box(), element.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)")
        parent = element.locator("xpath=..").bounding_box()
        assert box is not None and parent is not None, selector
        assert box["height"] <= line * 1.25, (selector, element.inner_text(), box, line)
        assert box["x"] >= parent["x"] - 0.5 and box["x"] + box["width"] <= parent["x"] + parent["width"] + 0.5, (
            selector,
            element.inner_text(),
            box,
            parent,
        )


def cut_short(page, selector: str, name: str) -> None:
    """The element holds the whole name (its text and its title) and shows it cut short with an ellipsis."""
    element = page.locator(selector).first
    expect(element).to_have_text(name)
    expect(element).to_have_attribute("title", name)
    assert element.evaluate("(e) => e.scrollWidth > e.clientWidth"), (selector, name)
    expect(element).to_have_css("text-overflow", "ellipsis")


def test_a_bound_calculators_seat_buttons_fit_any_name(phone_in, client):
    page, words = phone_in, SEAT_WORDS[phone_in.lang]
    api = table_of(client, hands=0)
    page.goto(bound(page, api))
    for row in ("winner", "dealer", "discarder"):
        buttons = page.locator(f'[data-seat-row="{row}"] .seat-item')
        boxes = [b.bounding_box() for b in buttons.all()]
        # the buttons of a row stand side by side, one height, none running into the next
        assert len({round(b["height"]) for b in boxes}) == 1, (row, boxes)
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert left["x"] + left["width"] <= right["x"] + 0.5, (row, boxes)
        one_line(page, f'[data-seat-row="{row}"] input:not([value=""]) + span .seat-word')  # not 自摸's
        one_line(page, f'[data-seat-row="{row}"] .seat-player')
        for seat, name in NAMES.items():
            # the seat's word in the page's language; the whole name is the button's label
            radio = page.get_by_role("radio", name=f"{words[seat]} {name}", exact=True)
            expect(radio).to_have_count(3)
            expect(page.locator(f'[data-seat-row="{row}"] input[value="{seat}"] + span .seat-word')).to_have_text(
                words[seat]
            )
    cut_short(page, '[data-seat-row="winner"] input[value="E"] + span .seat-player', NAMES["E"])
    cut_short(page, '[data-seat-row="winner"] input[value="N"] + span .seat-player', NAMES["N"])
    no_horizontal_scroll(page)
    assert page.console.errors == []


def test_a_bound_calculator_scores_with_names_of_40_characters(phone_in, client):
    """A table allows names of 40 characters: the calculator it opens takes them (it refused over 24)."""
    page = phone_in
    api = table_of(client, hands=0)
    page.goto(bound(page, api, HAND))
    expect(page.locator('#result [data-win="true"]')).to_be_visible()
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "19")
    one_line(page, "#result .seat-cell .player")
    page.locator("details.payments summary").click()
    no_horizontal_scroll(page)
    assert page.console.errors == []


def test_the_seats_words_follow_the_page_not_the_table(browser, live_server):
    """A table made on the English page, its calculator opened on a Chinese one: 东南西北 (and the other way)."""
    for made_in, opened_in in (("en", "zh"), ("zh", "en")):
        context, page = open_page(browser, live_server, lang=made_in)
        try:
            page.goto(page.base + "/tables/new/")
            page.fill('input[name="name_E"]', "Alexandrina")
            page.fill('input[name="name_S"]', "欧阳娜娜")  # West and North left unnamed
            page.locator("#new-table button[type=submit]").click()
            expect(page.locator("#ledger")).to_be_visible()
            edit = page.url.split("?")[0]
        finally:
            close(context)
        context, page = open_page(browser, live_server, lang=opened_in)
        try:
            words = SEAT_WORDS[opened_in]
            page.goto(edit)
            # an unnamed seat is called by its seat's word, in this page's language
            expect(page.locator('#balances tr[data-seat="W"] .who')).to_have_text(words["W"])
            page.goto(page.base + page.locator("#record-link").get_attribute("href"))
            for seat, name in (("E", "Alexandrina"), ("S", "欧阳娜娜"), ("W", ""), ("N", "")):
                label = f"{words[seat]} {name}".strip()
                expect(page.get_by_role("radio", name=label, exact=True)).to_have_count(3)
            assert page.console.errors == []
        finally:
            close(context)


def test_the_table_page_fits_any_name(phone_in, client):
    page = phone_in
    api = table_of(client, hands=2)
    page.goto(page.base + f"/tables/{api.id}/edit/{api.token}/")
    for selector in (
        "#balances tbody th .who",
        "#settlement .who",
        ".chart figcaption .who",
        "#history .nets .who",
        "#status .who",
    ):
        one_line(page, selector)
    cut_short(page, '#balances tr[data-seat="N"] .who', NAMES["N"])
    cut_short(page, ".chart figcaption .who >> nth=3", NAMES["N"])
    for item in page.locator("#settlement li").all():  # a transfer stays on its line: both names, the amount
        assert item.bounding_box()["height"] < 60, item.inner_text()
    page.locator("#history li >> nth=0").locator("summary").click()
    one_line(page, "#history .rows .who")
    no_horizontal_scroll(page)
    assert page.console.errors == []
    page.goto(page.base + f"/tables/{api.id}/edit/{api.token}/record/?" + urlencode(HAND))
    expect(page.locator("#preview")).to_be_visible()
    one_line(page, "#preview .who")
    one_line(page, "#hand-form label.seat .who")
    no_horizontal_scroll(page)
    assert page.console.errors == []
