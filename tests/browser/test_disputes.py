"""Disputes that always answer (issue 21 §4), at both phone sizes and in both languages.

Under a win the other-readings section (data-alternatives) is there even when no house rule changes the hand
(case B1: the engine's `alternatives` is []), and says so. A rule changed in the open rule card marks the card at
once (its label bold, the count in the summary) and, once the answer is in, says what it did: payments
unchanged, or the new nets; a page opened with a changed card (a reload, a share link) says the same from the
other readings.

HB1 (RULES.md §5.1): 1113m123456789p won on 2m, 南 wins on 西's discard; 压档 needs a unique wait by default
(南 +17), and pays with the middle tile alone under the other reading (南 +22).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import close, open_page
from tests.browser.phone import B1, expect, link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HB1 = {"ruleset": "bazhi", "tariff": "315", "hand": "1113m123456789p", "win_tile": "2m", "winner": "S", "dealer": "E"}
HB1 = {**HB1, "discarder": "W"}
WORDS = {
    "zh": {
        "none": "没有哪条桌规会改变这一手：规则卡的每种读法付的都一样。",
        "one": " · 改了 1 条",
        "yadang": "压档要求",
        "haidi": "海底捞月",
        "unchanged": "付款不变",
        "new": "新的输赢 东 −8 · 南 +22 · 西 −8 · 北 −6",
        "before": "(改之前 东 −6 · 南 +17 · 西 −6 · 北 −5)",
        "by default": "(默认读法 东 −6 · 南 +17 · 西 −6 · 北 −5)",
        "back": "新的输赢 东 −6 · 南 +17 · 西 −6 · 北 −5 (改之前 东 −8 · 南 +22 · 西 −8 · 北 −6)",
    },
    "en": {
        "none": "No house rule changes this hand: every reading of the rule card pays the same.",
        "one": " · 1 rule changed",
        "yadang": "压档 (middle wait) needs",
        "haidi": "海底捞月 (last tile)",
        "unchanged": "payments unchanged",
        "new": "new nets East −8 · South +22 · West −8 · North −6",
        "before": "(before East −6 · South +17 · West −6 · North −5)",
        "by default": "(by default East −6 · South +17 · West −6 · North −5)",
        "back": "new nets East −6 · South +17 · West −6 · North −5 (before East −8 · South +22 · West −8 · North −6)",
    },
}


def test_a_win_that_no_house_rule_changes_says_so(phone_in):
    page = phone_in
    page.goto(link(page, B1))
    section = page.locator('#result [data-alternatives="0"]')
    expect(section).to_be_visible()
    expect(section.locator("[data-no-alternatives]")).to_have_text(WORDS[page.lang]["none"])
    assert page.console.errors == []


def test_a_win_that_another_reading_changes_lists_it(phone_in):
    page = phone_in
    page.goto(link(page, HB1))
    expect(page.locator('#result [data-alternatives="1"] [data-alt="yadang_wait=any"]')).to_be_visible()
    expect(page.locator("#result [data-no-alternatives]")).to_have_count(0)
    assert page.console.errors == []


def test_a_rule_changed_in_the_open_card_marks_it_at_once_and_says_the_new_nets(phone_in):
    page, words = phone_in, WORDS[phone_in.lang]
    page.goto(link(page, HB1))
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "17")
    page.locator("#rule-card-bazhi summary").click()
    count = page.locator("#rule-card-bazhi [data-changed-count]")
    expect(count).to_be_hidden()
    page.select_option('#rule-card-bazhi select[name="house_yadang_wait"]', "any")
    expect(count).to_have_text(words["one"])  # at once, before any answer
    label = page.locator('#rule-card-bazhi [data-house="yadang_wait"] label')
    expect(label).to_have_css("font-weight", "700")
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "22")
    effect = page.locator("#rule-effect-bazhi")
    expect(effect).to_have_text(f"{words['yadang']}: {words['new']} {words['before']}")
    # and back to the default reading: no mark, the nets as they were
    page.select_option('#rule-card-bazhi select[name="house_yadang_wait"]', "unique")
    expect(count).to_be_hidden()
    expect(label).not_to_have_css("font-weight", "700")
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "17")
    expect(effect).to_have_text(f"{words['yadang']}: {words['back']}")
    assert page.console.errors == []


def test_a_rule_that_changes_nothing_says_payments_unchanged(phone_in):
    page, words = phone_in, WORDS[phone_in.lang]
    page.goto(link(page, B1))
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "19")
    page.locator("#rule-card-bazhi summary").click()
    page.select_option('#rule-card-bazhi select[name="house_haidi"]', "zui")
    expect(page.locator("#rule-card-bazhi [data-changed-count]")).to_have_text(words["one"])
    expect(page.locator("#rule-effect-bazhi")).to_have_text(f"{words['haidi']}: {words['unchanged']}")
    expect(page.locator('#result [data-alternatives="0"]')).to_be_visible()
    assert page.console.errors == []


def test_a_page_opened_with_a_changed_card_is_marked_and_says_what_the_change_does(phone_in):
    """A reload (or a share link) of a changed card: the same marks, the effect said from the other readings."""
    page, words = phone_in, WORDS[phone_in.lang]
    page.goto(link(page, {**HB1, "house_yadang_wait": "any"}))
    card = page.locator("#rule-card-bazhi")
    expect(card).to_have_attribute("open", "")
    expect(card.locator("[data-changed-count]")).to_have_text(words["one"])
    expect(card.locator('[data-house="yadang_wait"] label')).to_have_css("font-weight", "700")
    expect(page.locator("#rule-effect-bazhi")).to_have_text(f"{words['yadang']}: {words['new']} {words['by default']}")
    page.reload()
    expect(page.locator("#rule-effect-bazhi")).to_have_text(f"{words['yadang']}: {words['new']} {words['by default']}")
    page.goto(link(page, {**B1, "house_haidi": "zui"}))
    expect(page.locator("#rule-effect-bazhi")).to_have_text(f"{words['haidi']}: {words['unchanged']}")
    assert page.console.errors == []


def test_without_javascript_the_other_readings_say_no_difference(browser, live_server):
    context, page = open_page(browser, live_server, javascript=False)
    try:
        page.goto(link(page, B1))
        expect(page.locator("#result [data-no-alternatives]")).to_have_text(WORDS["zh"]["none"])
    finally:
        close(context)
