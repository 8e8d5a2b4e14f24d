"""What the browser tests do on the calculator page, as a player would: tap seats and tiles, read the answer."""

from __future__ import annotations

import contextlib
from urllib.parse import urlencode

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
B1_NETS = {"E": -7, "S": 19, "W": -7, "N": -5}
B1_NETS_AT_THREE = {"E": -7, "S": 14, "W": -7}  # players=3 (RULES.md §1.8, case T1)
B1_TAPS = ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p", "7m", "9m", "5s", "5s", "8m"]
# bazhi, E self-draws with S the dealer and 交: the widest who-pays picture (issue 14 §1)
WIDE = {
    "ruleset": "bazhi",
    "hand": "1112333345677p",
    "win_tile": "4p",
    "winner": "E",
    "dealer": "S",
    "discarder": "",
}
WIDE_NETS = {"E": 192, "S": -66, "W": -63, "N": -63}


def link(page, query: dict) -> str:
    return page.base + "/?" + urlencode(query)


def tap_seats(page, winner: str, dealer: str, discarder: str) -> None:
    page.check(f'input[name="winner"][value="{winner}"]')
    page.check(f'input[name="dealer"][value="{dealer}"]')
    page.check(f'input[name="discarder"][value="{discarder}"]')


def tap_meld(page, mode: str, tile: str) -> None:
    """A meld by the keyboard: its mode (pung, kong_concealed …), then its tile."""
    page.click(f'button[data-mode="{mode}"]')
    page.click(f'button[data-tile="{tile}"]')


def tap_tiles(page, tiles: list[str]) -> None:
    for tile in tiles:
        page.click(f'button[data-tile="{tile}"]')


def expect_nets(page, nets: dict[str, int]) -> None:
    """The result card and the strip both show these nets (once the answer has arrived)."""
    for seat, value in nets.items():
        expect(page.locator(f'#result [data-seat="{seat}"]')).to_have_attribute("data-net", str(value))
        expect(page.locator(f'#strip [data-strip-seat="{seat}"]')).to_have_attribute("data-strip-net", str(value))


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def assert_in_band(page, selector: str) -> None:
    """The element is on screen between the strip (top) and the docked keyboard (bottom), not under either."""
    height = page.viewport_size["height"]
    top = box(page, "#strip")["y"] + box(page, "#strip")["height"]
    dock = box(page, "#keyboard")["y"] if page.locator("#keyboard").is_visible() else height
    for element in page.locator(selector).all():
        found = element.bounding_box()
        assert found is not None, selector
        assert found["y"] >= top - 1 and found["y"] + found["height"] <= min(dock, height) + 1, (
            f"{selector} at {found['y']:.0f}–{found['y'] + found['height']:.0f}, band {top:.0f}–{dock:.0f}"
        )


def assert_on_screen(page, selector: str) -> None:
    """The element is wholly inside the viewport."""
    height, width = page.viewport_size["height"], page.viewport_size["width"]
    for element in page.locator(selector).all():
        found = element.bounding_box()
        assert found is not None, selector
        assert found["y"] >= 0 and found["y"] + found["height"] <= height + 1, (selector, found)
        assert found["x"] >= 0 and found["x"] + found["width"] <= width + 1, (selector, found)


WIDER = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 1)
  .slice(0, 5)
  .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def no_horizontal_scroll(page) -> None:
    width = page.viewport_size["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, (page.url, wide, page.evaluate(WIDER, width))


# What a player chooses on a page before the walk looks at it, where no address holds the choice: three players on
# the new-table page (issue 28), which hides the fourth name and first dealer (static/js/ledger.js).
CHOSEN = {"new table, three chosen": 'input[name="bazhi-players"][value="3"]'}


def every_page(client) -> dict[str, str]:
    """Every page of the site, as a player meets it: the calculator empty, with a result, with waits, with an
    error and bound to a table; the rules page; a table's pages (new, edit, read-only, record, this phone's list),
    at four and at three (issue 28: the new-table page with three chosen, CHOSEN). The tables are made through the
    ledger API (the test's database is the live server's). And the app's page for a page that needs the network
    (issue 21 §10)."""
    from django.urls import NoReverseMatch, reverse

    from tests.ledger.client import PLAYERS, Api

    b1 = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}
    api = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", b1)
    edit = f"/tables/{api.id}/edit/{api.token}/"
    three = Api(client, {"ruleset": "bazhi", "options": {"players": 3}, "players": {s: PLAYERS[s] for s in "ESW"}})
    three.ok("hands", b1)
    edit_three = f"/tables/{three.id}/edit/{three.token}/"
    bound = {"table": api.id, "token": api.token}
    waits = {k: v for k, v in B1.items() if k != "win_tile"}
    xinyu = {**B1, "ruleset": "xinyu", "indicator": "4p", "hand": "123456789m115pE", "win_tile": "E"}
    pages = {
        "calculator": "/",
        "result": "/?" + urlencode(B1),
        "wide result": "/?" + urlencode(WIDE),
        "result at three": "/?" + urlencode({**B1, "players": "3"}),  # RULES.md §1.8: no North
        "waits": "/?" + urlencode(waits),
        "xinyu result": "/?" + urlencode(xinyu),
        "error": "/?" + urlencode({**B1, "hand": "111345789p79m5x"}),
        "rules": "/rules/",
        "new table": "/tables/new/",
        "table (edit)": edit,
        "table (read-only)": f"/tables/{api.id}/",
        "record": edit + "record/",
        "record (preview)": edit + "record/?" + urlencode({k: v for k, v in B1.items() if k != "dealer"}),
        "my tables": "/tables/",
        "new table, three chosen": "/tables/new/",
        "table of three (edit)": edit_three,
        "table of three (read-only)": f"/tables/{three.id}/",
        "record at three": edit_three + "record/",
        "bound calculator": "/?" + urlencode({**bound, **B1}),
    }
    with contextlib.suppress(NoReverseMatch):  # the trainer page, once it is on this branch
        pages["trainer"] = reverse("trainer")
    # for learners (issue 21): a hand not ready with its tiles that help, one drawn with what to throw, and an
    # answered trainer question of the house-rules level
    not_ready = {"ruleset": "xinyu", "caishen": "5p", "hand": "1199m2288p3sECFW", "winner": "S", "dealer": "E"}
    pages["not ready"] = "/?" + urlencode(not_ready)
    pages["one drawn"] = "/?" + urlencode({**not_ready, "win_tile": "3s"})
    with contextlib.suppress(NoReverseMatch):
        pages["trainer, answered"] = reverse("trainer") + "?seed=3&level=3&answer=0"
    # who takes the discard (issue 29): empty, xinyu's levels, bazhi at three, and the trainer's question of it
    claims = {"ruleset": "xinyu", "caishen": "5p", "tile": "2s", "dealer": "E", "discarder": "E"}
    pages["who takes the discard"] = "/claims/"
    claims_xinyu = {**claims, "S_hand": "123m456m789sEEE2s", "N_hand": "11134567899s22s"}
    pages["who takes it, xinyu"] = "/claims/?" + urlencode(claims_xinyu)
    at_three = {"ruleset": "bazhi", "players": "3", "tile": "8m", "dealer": "E", "discarder": "S"}
    pages["who takes it, bazhi at three"] = "/claims/?" + urlencode(
        {**at_three, "E_hand": "123456789s79m22p", "W_hand": "111345789p79m55s"}
    )
    pages["trainer, who takes it"] = reverse("trainer") + "?seed=0&game=xinyu&kind=claims&answer=W"
    pages["no network"] = reverse("no_network")  # what the service worker shows for a page it cannot fetch
    return pages


# Controls the thumb uses all the time: at least 44 px tall. Everything else a tap reaches: at least 24 × 24.
MAIN_CONTROLS = (
    ".seg-item, .key, .mode, .key-toggle, .btn-primary, .btn-small, .nav a, .lang-switch button, .wait-row, "
    ".alt-link, details > summary, .meld-x, .tile-btn, select, input[type=text], input[type=url], "
    "input[type=number], .ledger .button, .ledger button"
)
TAP_TARGETS = "a[href], button, summary, select, input:not([type=hidden]), label.seg-item"

SMALL_TARGETS = """([targets, main]) => [...document.querySelectorAll(targets)]
  .filter((e) => e.checkVisibility({ visibilityProperty: true }) && !e.closest('.visually-hidden'))
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && (r.width < 24 || r.height < 24 || (e.matches(main) && r.height < 44)))
  .map(([e, r]) => e.outerHTML.slice(0, 80) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""


# Every folded part a finger can open, opened as its summary's tap opens it, outer parts first (a part inside
# another is reached once that one is open), each after the page's own handlers of the one before ran (its toggle
# event), each tried once: one call in the page, not a Playwright click each. The summary of a part that a tap
# does not open (no toggle event within 2 s), or null.
UNFOLD = """async () => {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
    getComputedStyle(e).visibility !== 'hidden'; };
  const tried = new Set();
  for (;;) {
    const summary = [...document.querySelectorAll('details:not([open]) > summary')]
      .find((e) => !tried.has(e) && shown(e));
    if (!summary) return null;
    tried.add(summary);
    const toggled = new Promise((done) => {
      summary.parentElement.addEventListener('toggle', () => done(true), { once: true });
      setTimeout(() => done(false), 2000);
    });
    summary.click();
    if (!(await toggled)) return summary.outerHTML.slice(0, 80);
  }
}"""


def unfold_every_part(page) -> None:
    """Opens every folded part (`details`) the page shows, nested ones too."""
    stuck = page.evaluate(UNFOLD)
    assert stuck is None, f"{page.url}: a tap on {stuck} opens nothing"


def axe_findings(page, axe=None) -> list[tuple]:
    """What axe-core finds on the page as it is: each violation's rule, impact and first three elements (`axe`: an
    `Axe` made once, for a walk over many pages)."""
    if axe is None:
        from axe_playwright_python.sync_playwright import Axe

        axe = Axe()
    violations = axe.run(page).response["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations]


def small_targets(page) -> list[str]:
    """What a finger can reach on the page but is smaller than it should be (WCAG 2.2 target size, and 44 px for
    the main controls)."""
    return page.evaluate(SMALL_TARGETS, [TAP_TARGETS, MAIN_CONTROLS])


def finger_tap(page, selector: str) -> None:
    """A finger's tap at the element's place, once the page has drawn the last tap's frame (a finger aims at what
    it sees: the page may have scrolled the hand into view in that frame). No scrolling first: Playwright's click
    scrolls its target into the page's scroll padding, which the docked keyboard's own height keeps clear
    (calculator.js, measure()), so it would scroll the page under a key that is in view."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    page.touchscreen.tap(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)
