"""Issue 14 §3, for everyone: axe-core finds nothing on any page, every tap target is big enough, screen readers
hear the answer and not the whole card, and the focus never drops to the page's body. At 360×640 and 390×844,
in both languages."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.browser.conftest import SIZES, close, open_page
from tests.browser.phone import (
    B1,
    B1_TAPS,
    CHOSEN,
    axe_findings,
    every_page,
    expect,
    link,
    no_horizontal_scroll,
    small_targets,
    tap_meld,
    tap_seats,
    tap_tiles,
    unfold_every_part,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWS = [(size, lang) for size in SIZES for lang in ("zh", "en")]
VIEW_IDS = [f"{size}-{lang}" for size, lang in VIEWS]


@pytest.fixture(params=VIEWS, ids=VIEW_IDS)
def view(request, browser, live_server):
    size, lang = request.param
    context, page = open_page(browser, live_server, SIZES[size], lang=lang)
    page.lang = lang
    yield page
    close(context)


# ------------------------------------------------------------------------------------ every page, in each view


@dataclass
class Walk:
    """What one walk over every page (every_page) in one view found, page by page: each page is loaded once and
    the checks of the tests below read what that load showed (axe first, on the page as it came; the folded parts
    opened last, for the tap targets)."""

    h1: dict[str, int] = field(default_factory=dict)
    violations: dict[str, list] = field(default_factory=dict)
    sideways: dict[str, AssertionError] = field(default_factory=dict)
    small: dict[str, list[str]] = field(default_factory=dict)
    console: list[str] = field(default_factory=list)


def walk_every_page(page, client) -> Walk:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    walk = Walk()
    for name, path in every_page(client).items():
        page.goto(page.base + path)
        if name in CHOSEN:
            page.check(CHOSEN[name])
            expect(page.locator('#players label[data-seat="N"]')).to_be_hidden()  # the page it is meant to be
        walk.h1[name] = page.locator("h1").count()
        found = axe_findings(page, axe)
        if found:
            walk.violations[name] = found
        try:
            no_horizontal_scroll(page)
        except AssertionError as error:
            walk.sideways[name] = error
            continue  # the tap targets of a page that scrolls sideways are not looked at (the test stops there)
        unfold_every_part(page)  # what a folded part holds is a target too
        small = small_targets(page)
        if small:
            walk.small[name] = small
    # (a table page's poll of its live part, cut when the next page opens, is no error of a page)
    walk.console = [e for e in page.console.errors if not ("/live/" in e and "ERR_ABORTED" in e)]
    return walk


@pytest.fixture(scope="module")
def walks() -> dict[str, Walk]:
    return {}


@pytest.fixture
def walked(request, walks, browser, live_server, client) -> Walk:
    """The walk in this view, done by the first test that asks for it (its table made in that test's database)
    and read by the others. The tests of one view share an xdist group, so one worker walks each view once."""
    size, lang = request.param
    key = f"{size}-{lang}"
    if key not in walks:
        context, page = open_page(browser, live_server, SIZES[size], lang=lang)
        try:
            walks[key] = walk_every_page(page, client)
        finally:
            close(context)
    return walks[key]


each_view = pytest.mark.parametrize(
    "walked",
    [
        pytest.param(v, id=i, marks=pytest.mark.xdist_group(f"every-page-{i}"))
        for v, i in zip(VIEWS, VIEW_IDS, strict=True)
    ],
    indirect=True,
)


@each_view
def test_axe_finds_no_violation_of_any_impact_on_any_page(walked):
    assert walked.violations == {}
    assert walked.console == []


@each_view
def test_every_tap_target_is_at_least_24_px_and_the_main_controls_44(walked):
    for error in walked.sideways.values():
        raise error  # and no page scrolls sideways
    assert walked.small == {}


@each_view
def test_the_page_has_one_h1(walked):
    for name, count in walked.h1.items():
        assert count == 1, name


# ------------------------------------------------------------------------------------ the calculator in use


def test_axe_finds_nothing_on_the_calculator_while_it_is_used(view):
    """The parts the page's script draws: meld chips with their seat pickers, the notice, an error beside a field."""
    view.goto(view.base + "/")
    tap_seats(view, "S", "E", "")
    tap_meld(view, "kong_concealed", "2s")
    tap_meld(view, "pung", "C")
    view.check('input[name="flags"][value="kong_bloom"]')
    view.check('input[name="discarder"][value="W"]')  # unticks 杠后开花, with a notice
    expect(view.locator("#seat-notice")).to_be_visible()
    view.locator("#notation summary").click()
    view.fill('input[name="win_tile"]', "8x")
    expect(view.locator('input[name="win_tile"]')).to_have_attribute("aria-invalid", "true")
    assert axe_findings(view) == []


def test_the_page_for_an_address_with_nothing_is_for_everyone_too(view):
    """A mistyped table link lands on the error page: axe finds nothing on it, one h1, nothing sideways, and its
    way back is a target a finger hits."""
    assert view.goto(view.base + "/tables/no-such-table/").status == 404
    expect(view.locator("h1")).to_have_count(1)
    said = {"zh": "没有这个地址", "en": "There is nothing at this address"}  # the API's message, as a sentence
    expect(view.locator(".error-message")).to_have_text(said[view.lang], use_inner_text=True)
    assert axe_findings(view) == []
    no_horizontal_scroll(view)
    assert small_targets(view) == []


def test_screen_readers_hear_the_verdict_and_the_nets_not_the_whole_card(view):
    view.goto(view.base + "/")
    tap_seats(view, "S", "E", "W")
    tap_tiles(view, B1_TAPS)
    expect(view.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
    # the result card is no live region (only the copy button's status line in it is); the strip is, and it says
    # the tile the tap added (issue 21 §11: one short sentence first), then the verdict and the four nets only
    assert view.locator("#result[aria-live], #result [aria-live]:not(#copy-status), #result [role=status]").count() == 0
    expect(view.locator("#strip")).to_have_attribute("role", "status")
    tap_said = view.locator("#strip [data-tap-said]")
    expect(tap_said).to_have_count(1)
    assert len(tap_said.inner_text()) < 50, tap_said.inner_text()
    said = " ".join(view.locator("#strip").evaluate(WITHOUT_TAP_SAID).split())
    assert len(said) < 120, said
    assert all(sign in said for sign in ("+19", "−7", "−5"))
    assert len(view.inner_text("#result")) > 5 * len(said)


def test_the_focus_moves_to_the_keyboard_toggle_when_the_keyboard_folds(phone):
    """The 14th tile folds the keyboard away; the key that had the focus is gone, the focus goes to the toggle
    (which unfolds it), not to the page's body."""
    phone.goto(phone.base + "/")
    tap_tiles(phone, B1_TAPS[:-1])
    last = phone.locator('button[data-tile="8m"]')
    last.focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("#keyboard")).to_have_class("keyboard dock js-only is-folded")
    expect(phone.locator("#key-toggle")).to_be_focused()
    phone.keyboard.press("Enter")  # unfolds it again
    expect(phone.locator('button[data-tile="8m"]')).to_be_visible()


def test_the_focus_stays_in_the_hand_when_a_tile_is_removed(phone):
    phone.goto(link(phone, {**B1, "win_tile": ""}))
    first = phone.locator("#hand-tiles button").first
    first.focus()
    phone.keyboard.press("Enter")  # removes that tile
    expect(phone.locator("#hand-tiles button")).to_have_count(12)
    expect(phone.locator("#hand-tiles button").first).to_be_focused()


# the strip's text less the sentence naming the tile a tap added (a copy of the strip, that sentence taken out)
WITHOUT_TAP_SAID = """(strip) => {
  const copy = strip.cloneNode(true);
  copy.querySelectorAll("[data-tap-said]").forEach((said) => said.remove());
  return copy.textContent;
}"""
