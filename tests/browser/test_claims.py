"""Who takes the discard in headless Chromium at phone size (issue 29): the claims tapped in one hand at a time on
the tile keyboard, the answer live (htmx) and its address the share link; the plain form without JavaScript."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.conftest import close, open_page
from tests.browser.phone import expect, tap_tiles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# xinyu: E discards 2s; S (the 下家) wins plainly, N with 清一色 (level 1) takes it: 小的不能拦大的, N +47.
PLAIN_TAPS = ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "E", "E", "E", "2s"]
QINGYISE_TAPS = ["1s", "1s", "1s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s", "2s", "2s"]
# bazhi: W discards 8m; S (通天) and N (压档) claim: N comes first after W and takes it, +19.
TONGTIAN_TAPS = ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "7m", "9m", "2p", "2p"]
B1_TAPS = ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p", "7m", "9m", "5s", "5s"]


def claim(page, seat: str, taps: list[str]) -> None:
    """A claimant's hand: its panel picked, its 13 tiles tapped."""
    page.click(f'[data-pick="{seat}"]')
    tap_tiles(page, taps)
    expect(page.locator(f'[data-claim-panel="{seat}"] [data-count]')).to_have_text("13 / 13")


def expect_answer(page, winner: str, reason: str, levels: dict[str, str]) -> None:
    verdict = page.locator('#claims-answer [data-claims="answer"]')
    expect(verdict).to_have_attribute("data-claims-winner", winner)
    expect(verdict).to_have_attribute("data-reason", reason)
    for seat, level in levels.items():
        expect(page.locator(f'#claims-answer [data-claim-seat="{seat}"]')).to_have_attribute("data-claim-level", level)


def test_xinyu_claims_tapped_in_one_hand_at_a_time(phone_in):
    page = phone_in
    page.goto(page.base + "/claims/?ruleset=xinyu")
    page.select_option("#id_caishen", "5p")
    page.check('input[name="discarder"][value="E"]')
    expect(page.locator('button[data-mode="tile"]')).to_have_attribute("aria-pressed", "true")  # the discard first
    page.click('button[data-tile="2s"]')
    expect(page.locator("#discard-shown .t-2s")).to_be_visible()
    expect(page.locator('[data-claim-panel="E"]')).to_have_class(re.compile("is-discarder"))
    claim(page, "S", PLAIN_TAPS)
    claim(page, "N", QINGYISE_TAPS)
    expect_answer(page, "N", "higher_level", {"S": "0", "N": "1"})
    expect(page.locator('#claims-answer [data-seat="N"]')).to_have_attribute("data-net", "47")
    said = {"zh": "小的不能拦大的", "en": "a lower level cannot overtake a higher one"}[page.lang]
    expect(page.locator("#claims-answer [data-claims-reason]")).to_contain_text(said)
    expect(page.locator("#claims-answer .verdict-level")).to_have_attribute("data-level", "1")
    # the address is the share link: opened anew, the same answer
    expect(page).to_have_url(re.compile(r"N_hand=1112234567899s"))  # the tiles as the notation sorts them
    fields = parse_qs(urlsplit(page.url).query)
    assert (fields["tile"], fields["S_hand"], fields["discarder"]) == (["2s"], ["123456m2789sEEE"], ["E"])
    page.goto(page.url)
    expect_answer(page, "N", "higher_level", {"S": "0", "N": "1"})
    assert page.console.errors == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_bazhi_claims_go_by_play_order_at_a_table_of_three(browser, live_server, lang):
    """At three (E S W), S discards 8m: W (its 下家) takes it before E's 通天, 14 from E and S."""
    context, page = open_page(browser, live_server, lang=lang)
    page.goto(page.base + "/claims/?ruleset=bazhi")
    page.check('input[name="players"][value="3"]')  # another table size: the page is drawn again for it
    expect(page.locator("[data-claim-panel]")).to_have_count(3)
    page.check('input[name="discarder"][value="S"]')
    page.click('button[data-tile="8m"]')
    claim(page, "E", TONGTIAN_TAPS)
    claim(page, "W", B1_TAPS)
    expect_answer(page, "W", "seat_order", {"W": "0", "E": "0"})
    expect(page.locator('#claims-answer [data-seat="W"]')).to_have_attribute("data-net", "14")
    expect(page.locator("#claims-answer .verdict-level")).to_have_count(0)  # bazhi has no levels
    expect(page.locator("#other-claims [data-other-claim]")).to_have_count(1)
    said = {"zh": "无一炮多响", "en": "One winner per discard"}[lang]
    expect(page.locator("#claims-answer [data-claims-reason]")).to_contain_text(said)
    assert page.console.errors == []
    close(context)


def test_a_meld_is_tapped_for_the_chosen_claimant(page):
    """S's pung of 东 by the keyboard: its meld fields, fed by the discarder."""
    page.goto(page.base + "/claims/?ruleset=xinyu&caishen=5p&discarder=W&tile=2s")
    page.click('[data-pick="S"]')
    page.click('button[data-mode="pung"]')
    page.click('button[data-tile="E"]')
    expect(page.locator('[data-claim-panel="S"] .meld-chip')).to_have_count(1)
    expect(page.locator('select[name="S_meld1"]')).to_have_value("pung")
    expect(page.locator('input[name="S_meld1_tiles"]')).to_have_value("EEE")
    expect(page.locator('select[name="S_meld1_from"]')).to_have_value("W")
    expect(page.locator('[data-claim-panel="S"] [data-count]')).to_have_text("0 / 10")


# Typed without JavaScript: the game, its wild tile, the discard and two claimants' hands, then the form's button.
TYPED = {
    "bazhi": ({}, "8m", "W", {"S": "123456789s79m22p", "N": "111345789p79m55s"}, ("N", "seat_order", "19")),
    "xinyu": (
        {"#id_caishen": "5p"},
        "2s",
        "E",
        {"S": "123m456m789sEEE2s", "N": "11134567899s22s"},
        ("N", "higher_level", "47"),
    ),
}


@pytest.mark.parametrize(("game", "lang"), [("bazhi", "zh"), ("xinyu", "en")])
def test_without_javascript_the_form_answers(browser, live_server, game, lang):
    context, page = open_page(browser, live_server, lang=lang, javascript=False)
    options, tile, discarder, hands, (winner, reason, net) = TYPED[game]
    page.goto(page.base + f"/claims/?ruleset={game}")
    for select, value in options.items():
        page.select_option(select, value)
    page.check(f'input[name="discarder"][value="{discarder}"]')
    page.select_option("#id_tile", tile)
    for seat, hand in hands.items():
        page.fill(f"#id_{seat}_hand", hand)
    page.click('#claims button[type="submit"]')
    expect(page.locator('#claims-answer [data-claims="answer"]')).to_have_attribute("data-claims-winner", winner)
    expect(page.locator('#claims-answer [data-claims="answer"]')).to_have_attribute("data-reason", reason)
    expect(page.locator(f'#claims-answer [data-seat="{winner}"]')).to_have_attribute("data-net", net)
    assert f"N_hand={hands['N']}" in page.url
    close(context)


def test_the_trainer_asks_who_takes_a_discard_and_grades_the_seat_tapped(page):
    """Level 4 of the trainer: the claimants' hands; the seat tapped is graded by the engine's claims and the
    answer explained as the page of who takes the discard answers it."""
    from calculator.presentation.trainer.questions import Spec, question

    q = question(Spec(0, "xinyu", "claims"))
    page.goto(page.base + "/trainer/?seed=0&game=xinyu&kind=claims")
    expect(page.locator("[data-claimant]")).to_have_count(len(q.request["claims"]))
    page.click(f'button[name="answer"][value="{q.answer["winner"]}"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "true")
    verdict = page.locator('#trainer-explain [data-claims="answer"]')
    expect(verdict).to_have_attribute("data-claims-winner", q.answer["winner"])
    expect(page.locator("#trainer-explain [data-win]")).to_have_count(1)  # the taking win's result card
    assert page.console.errors == []


def test_the_undo_and_clear_keys_are_two_tiles_wide_in_a_game_with_few_honours(phone_in):
    """bazhi's honours row holds 中 alone: on the calculator ⌫ and 清空 take two columns each, on the claims page one
    (37 px side by side at 360: one slip clears a claimant's whole hand)."""
    page = phone_in
    page.goto(page.base + "/claims/?ruleset=bazhi")
    tile = page.locator('.keys-z [data-tile="C"]').bounding_box()["width"]
    for key in ("#key-undo", "#key-clear"):
        assert page.locator(key).bounding_box()["width"] >= 1.8 * tile, key
