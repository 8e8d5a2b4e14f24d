"""The trainer in headless Chromium at phone size (issue 13 §3, §4): answering by tapping, the grade and the
explanation, progress kept in the browser, a wrong answer's pattern coming back, and the page without JavaScript.
The right answers are read from the engine, in the test."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from calculator.engine import score
from calculator.presentation.trainer.questions import Spec, question, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
expect = pytest.importorskip("playwright.sync_api").expect


def open_question(page, spec: Spec):
    page.goto(page.base + "/trainer/?" + urlencode(spec.query()))
    q = question(spec)
    expect(page.locator("#trainer")).to_have_attribute("data-kind", q.kind)
    return q


def first_spec(kind: str, game: str, wanted) -> Spec:
    """The first seed whose question of this kind and game the engine answers as `wanted` says."""
    for seed in range(200):
        spec = Spec(seed, game, kind)
        if wanted(question(spec)):
            return spec
    raise AssertionError("no such question in 200 seeds")


def test_a_win_question_answered_by_tapping_is_graded_and_counted(page):
    q = open_question(page, Spec(11, "bazhi", "win"))
    verdict = "win" if score(q.request)["win"] else "no"
    page.click(f'button[name="answer"][value="{verdict}"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "true")
    expect(page.locator("#trainer-verdict")).to_contain_text("答对了")
    expect(page.locator("#trainer-progress")).to_contain_text("连对 1")
    expect(page.locator("#trainer-explain [data-win]")).to_have_count(1)  # the calculator's result card
    expect(page).to_have_url(re.compile(rf"answer={verdict}"))  # the answered question has its own link
    page.click("#trainer-next")
    expect(page.locator("#trainer")).not_to_have_attribute("data-graded", "true")
    expect(page.locator("#trainer-progress")).to_contain_text("答对 1 / 1")  # kept across questions
    assert page.console.errors == []


def test_a_waits_question_is_answered_by_tapping_the_tiles(page):
    spec = first_spec("waits", "xinyu", lambda q: 2 <= len(q.answer["waits"]) <= 5)
    q = open_question(page, spec)
    waits = [w["tile"] for w in score(q.request)["waits"]]
    for tile in waits:
        page.click(f'.wait-key[data-tile="{tile}"]')
    page.click('button[name="answer"][value="tiles"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "true")
    expect(page.locator(".wait-key.is-hit")).to_have_count(len(waits))
    expect(page.locator("#trainer-explain [data-wait]")).to_have_count(len(waits))


def test_a_missed_wait_is_marked(page):
    spec = first_spec("waits", "bazhi", lambda q: len(q.answer["waits"]) >= 2)
    q = open_question(page, spec)
    waits = [w["tile"] for w in score(q.request)["waits"]]
    page.click(f'.wait-key[data-tile="{waits[0]}"]')
    page.click('button[name="answer"][value="tiles"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "false")
    expect(page.locator(".wait-key.is-missed")).to_have_count(len(waits) - 1)
    expect(page.locator("#trainer-verdict")).to_contain_text("不对")


def test_a_wrong_answer_puts_its_pattern_under_review_and_spaces_it_out(page):
    """Issue 21 §9: not the very next question, but after 2-4 others; the progress card lists it, 0 of 3."""
    spec = first_spec("pay", "xinyu", lambda q: len(q.choices) > 1 and q.topics)
    q = open_question(page, spec)
    net = score(q.request)["net"]
    wrong = next(n for n, choice in enumerate(q.choices) if dict(choice.net) != net)
    page.click(f'button[name="answer"][value="{wrong}"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "false")
    expect(page.locator(".pay-choice.is-right")).to_have_count(1)
    expect(page.locator("#trainer-next")).to_have_attribute("href", re.compile(r"review=xinyu%3A\w+\.[234]\.0"))
    expect(page.locator("#trainer-next")).not_to_have_attribute("href", re.compile(r"focus="))
    expect(page.locator("#trainer-progress")).to_contain_text("重点练习")
    expect(page.locator("#trainer-progress")).to_contain_text("0/3")
    page.click("#trainer-next")
    expect(page.locator("#trainer")).to_have_attribute("data-kind", "pay")  # the filters are kept
    expect(page).to_have_url(re.compile(r"review=xinyu"))
    for topic in q.topics:
        expect(page.locator("#trainer")).to_have_attribute("data-review", re.compile(re.escape(topic)))


def test_the_level_chosen_on_the_page_is_kept_in_the_browser(page):
    open_question(page, Spec(11, "bazhi", "win"))
    page.click(".trainer-levels a:has-text('听什么')")
    expect(page.locator("#trainer")).to_have_attribute("data-kind", "waits")
    expect(page.locator("#trainer")).to_have_attribute("data-level", "2")
    page.goto(page.base + "/trainer/")  # the menu's link: a fresh question, at the level kept
    expect(page.locator("#trainer")).to_have_attribute("data-level", "2")
    expect(page.locator("#trainer")).to_have_attribute("data-kind", "waits")
    expect(page).to_have_url(re.compile(r"level=2"))
    page.click(".trainer-levels a:has-text('谁付钱')")
    expect(page.locator("#trainer")).to_have_attribute("data-kind", "pay")
    page.goto(page.base + "/trainer/")
    expect(page.locator("#trainer")).to_have_attribute("data-level", "3")
    assert page.console.errors == []


def test_without_javascript_the_level_is_in_the_link(nojs_page):
    page = nojs_page
    open_question(page, Spec(11, "bazhi", "win"))
    page.click(".trainer-levels a:has-text('胡不胡')")
    expect(page.locator("#trainer")).to_have_attribute("data-level", "1")
    q = question(Spec(int(re.search(r"seed=(\d+)", page.url).group(1)), "bazhi", level="1"))
    page.click(f'button[name="answer"][value="{"win" if score(q.request)["win"] else "no"}"]')
    expect(page.locator("#trainer-next")).to_have_attribute("href", re.compile(r"level=1"))
    page.click("#trainer-next")
    expect(page.locator("#trainer")).to_have_attribute("data-kind", "win")


def test_progress_can_be_reset(page):
    q = open_question(page, Spec(11, "bazhi", "win"))
    page.click(f'button[name="answer"][value="{"win" if score(q.request)["win"] else "no"}"]')
    expect(page.locator("#trainer-progress")).to_contain_text("连对 1")
    page.click("#trainer-reset")
    expect(page.locator("#trainer-progress")).to_contain_text("只保存在这个浏览器里")


@pytest.mark.parametrize("size", [4, 3])
def test_without_javascript_the_form_grades_the_answer_at_each_table_size(nojs_page, size):
    """A bazhi pay question dealt at four, or at three (RULES.md §1.8): the tables of nets and the explanation hold
    the table's seats."""
    page = nojs_page
    seed = next(seed for seed in range(200) if len(table_of("bazhi", seed)) == size)
    q = open_question(page, Spec(seed, "bazhi", "pay"))
    net = score(q.request)["net"]
    assert len(net) == size
    expect(page.locator(".pay-choice").first.locator(".pay-seat")).to_have_count(size)
    right = next(n for n, choice in enumerate(q.choices) if dict(choice.net) == net)
    page.click(f'button[name="answer"][value="{right}"]')
    expect(page.locator("#trainer")).to_have_attribute("data-correct", "true")
    expect(page.locator("#trainer-explain [data-seat]")).to_have_count(size)
    expect(page.locator("#trainer-progress")).to_be_hidden()  # progress needs the browser's storage


def test_the_trainer_in_english(page):
    page.goto(page.base + "/trainer/?seed=11&game=bazhi&kind=win")
    with page.expect_navigation():
        page.click("form.lang-switch button")
    expect(page.locator("#trainer-prompt")).to_have_text("Is this a win?")
    q = question(Spec(11, "bazhi", "win"))
    page.click(f'button[name="answer"][value="{"no" if score(q.request)["win"] else "win"}"]')
    expect(page.locator("#trainer-verdict")).to_contain_text("Not quite.")
    expect(page.locator("#trainer-progress")).to_contain_text("Streak 0")


@pytest.mark.parametrize("kind", ["win", "waits", "pay"])
def test_once_answered_the_verdict_is_in_view_above_the_choices(phone, kind):
    """Issue 21 §9: at 360×640 (and 390×844) the verdict is on screen, above the choices, after answering."""
    page = phone
    q = open_question(page, Spec(8, "xinyu", kind))
    if kind == "win":
        page.click('button[name="answer"][value="win"]')
        first_choice = 'button[name="answer"]'
    elif kind == "waits":
        page.click('button[name="answer"][value="none"]')
        first_choice = ".wait-key"
    else:
        page.click('button[name="answer"][value="0"]')
        first_choice = ".pay-choice"
    expect(page.locator("#trainer")).to_have_attribute("data-graded", "true")
    verdict = page.locator("#trainer-verdict")
    expect(verdict).to_be_in_viewport()
    box = verdict.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.size["height"], (kind, box)
    assert box["y"] + box["height"] <= page.locator(first_choice).first.bounding_box()["y"], kind
    assert q.kind == kind
