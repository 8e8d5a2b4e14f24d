"""The rule card and the other-readings panel in Chromium at phone size (issue 11 §3), with locator assertions."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = pytest.importorskip("playwright.sync_api").expect

HB1 = "/?ruleset=bazhi&tariff=315&hand=1113m123456789p&win_tile=2m&winner=S&dealer=E&discarder=W"


def test_changing_a_house_rule_rescores_and_goes_into_the_share_link(page):
    page.goto(page.base + HB1)
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "17")
    page.locator("#rule-card-bazhi summary").click()
    page.select_option('#rule-card-bazhi select[name="house_yadang_wait"]', "any")
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "22")
    expect(page).to_have_url(re.compile(r"house_yadang_wait=any"))
    expect(page.locator('#result [data-alt="yadang_wait=unique"]')).to_have_attribute("data-alt-net-S", "17")
    assert page.console.errors == []


def test_one_tap_on_another_reading_switches_the_card(page):
    page.goto(page.base + HB1)
    row = page.locator('#result [data-alt="yadang_wait=any"]')
    expect(row).to_have_attribute("data-alt-net-E", "-8")
    row.locator("a").click()
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "22")
    expect(page.locator('#rule-card-bazhi select[name="house_yadang_wait"]')).to_have_value("any")
    expect(page.locator("#rule-card-bazhi")).to_have_attribute("open", "")
    assert page.console.errors == []


def test_a_share_link_with_a_non_default_card_opens_as_it_was_shared(page):
    page.goto(
        page.base
        + "/?ruleset=xinyu&caishen=5p&house_qianggang=triple&hand=123m456m789sEEE5p&win_tile=2s&winner=W&dealer=E"
        "&discarder=S&flags=robbing_kong"
    )
    expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "-36")
    expect(page.locator('#rule-card-xinyu select[name="house_qianggang"]')).to_have_value("triple")
    expect(page.locator("#rule-card-bazhi")).to_be_hidden()
    expect(page.locator('#result [data-alt="qianggang=halves"]')).to_have_attribute("data-alt-net-W", "24")
    assert page.console.errors == []


def test_switching_the_game_shows_that_games_card_and_options(page):
    page.goto(page.base + "/")
    expect(page.locator("#rule-card-bazhi")).to_be_visible()
    expect(page.locator("#rule-card-xinyu")).to_be_hidden()
    page.check('input[name="ruleset"][value="xinyu"]')
    expect(page.locator("#rule-card-xinyu")).to_be_visible()
    expect(page.locator("#rule-card-bazhi")).to_be_hidden()
    expect(page.locator('button[data-mode="chow"]')).to_be_visible()
    expect(page.locator('button[data-tile="E"]')).to_be_visible()
    page.check('input[name="ruleset"][value="bazhi"]')
    expect(page.locator('button[data-mode="chow"]')).to_be_hidden()
    expect(page.locator('button[data-tile="E"]')).to_be_hidden()
    assert page.console.errors == []
