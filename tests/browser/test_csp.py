"""Issue 7: the strict Content-Security-Policy holds on every page, in headless Chromium.

Each page is opened (and driven where it has forms or htmx) with a listener for `securitypolicyviolation` events,
installed by an init script before any page script runs, and with the console watched for Chromium's "Refused to …"
messages. Any violation fails the test with the directive and what was blocked. A page added to calculator/urls.py
must be added here too (test_every_page_route_is_covered).
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.urls import get_resolver

from tests.browser.conftest import close
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(
    `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`
  );
});
"""

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
WAITS = {k: v for k, v in B1.items() if k != "win_tile"}
X1 = {
    "ruleset": "xinyu",
    "caishen": "5p",
    "hand": "123m456m789sEEE5p",
    "win_tile": "2s",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}

# Every named route of calculator/urls.py that is not JSON: where this file opens it. Non-HTML routes are listed
# with None.
COVERED = {
    "calculator": "test_calculator_result_waits_and_htmx",
    "rules": "test_calculator_result_waits_and_htmx",
    "no_network": "test_the_apps_offline_page",
    "trainer": "test_trainer_question_answer_and_next",
    "claims": "test_who_takes_the_discard_tapped_and_answered",
    "set_language": "test_calculator_result_waits_and_htmx",
    "ledger_new": "test_ledger_create_record_and_table_pages",
    "ledger_edit": "test_ledger_create_record_and_table_pages",
    "ledger_record": "test_ledger_create_record_and_table_pages",
    "ledger_action": "test_ledger_create_record_and_table_pages",
    "ledger_table": "test_ledger_create_record_and_table_pages",
    "ledger_mine": "test_ledger_create_record_and_table_pages",
    "picture": "test_the_verdicts_picture_and_a_tables_are_drawn_and_downloaded",
    "ledger_picture": "test_the_verdicts_picture_and_a_tables_are_drawn_and_downloaded",
    "ledger_csv": None,  # text/csv
    "rules_reading": None,  # docs/RULES.md as text (issue 21 §13)
    "ledger_live": None,  # the table page's live part, fetched by static/js/ledger.js (an HTML fragment or 304)
    "ledger_edit_live": None,  # the edit page's live part, the same with its controls
    # the offline pack (issue 22): its manifest (JSON), its zip and its Web Worker, which runs under its own policy
    # ('wasm-unsafe-eval' only) in every test of tests/browser/test_offline.py (a refused compile: never ready)
    "offline_manifest": None,
    "offline_part": None,
}


class Watch:
    """Violations seen since the last check: the page's event log and Chromium's console messages."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        page.on("console", self.on_console)

    def on_console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Refused to" in text:
            self.console.append(text)

    def violations(self) -> list[str]:
        seen = self.page.evaluate("window.__cspViolations || []") + self.console
        self.page.evaluate("window.__cspViolations = []")
        self.console = []
        return seen

    def assert_clean(self, where: str) -> None:
        self.page.wait_for_load_state("networkidle")
        found = self.violations()
        assert not found, f"CSP violations on {where}:\n" + "\n".join(found)


@pytest.fixture
def watched(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="zh-CN"
    )
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    page.watch = Watch(page)
    yield page
    close(context)


def visit(page, path: str, status: int = 200) -> None:
    response = page.goto(page.base + path)
    assert response.status == status, f"{path}: {response.status}"
    page.watch.assert_clean(path)


def test_the_watch_sees_a_violation(watched):
    """The listener works: an inline script and a style attribute added to a page are reported."""
    visit(watched, "/")
    watched.evaluate(
        """() => {
        const s = document.createElement("script"); s.textContent = "window.ran = 1"; document.body.append(s);
        const d = document.createElement("div"); d.setAttribute("style", "color: red"); document.body.append(d);
    }"""
    )
    watched.wait_for_timeout(200)
    found = watched.watch.violations()
    assert watched.evaluate("window.ran === undefined"), "the inline script ran: the policy is not enforced"
    assert any("script-src" in v for v in found) and any("style-src" in v for v in found), found


def test_calculator_result_waits_and_htmx(watched):
    visit(watched, "/")
    visit(watched, "/?" + urlencode(B1))
    assert "+19" in watched.inner_text("#result")
    # An htmx round trip: the form asks for the #result partial and swaps it in.
    watched.goto(watched.base + "/?" + urlencode({**B1, "win_tile": "1m"}))
    with watched.expect_response(lambda r: r.request.headers.get("hx-request") == "true") as htmx:
        watched.evaluate("document.getElementById('calc').dispatchEvent(new CustomEvent('calc:update'))")
    assert htmx.value.status == 200
    assert htmx.value.request.headers.get("x-csrftoken"), "htmx requests carry the CSRF token (hx-headers)"
    watched.watch.assert_clean("the calculator after an htmx swap")
    visit(watched, "/?" + urlencode(WAITS))
    visit(watched, "/?" + urlencode(X1))
    visit(watched, "/?" + urlencode({**B1, "hand": "11x"}))  # a form error
    visit(watched, "/rules/")
    # The language switch: a POST form with the CSRF token, then the page in English.
    with watched.expect_navigation():
        watched.click("form.lang-switch button")
    assert watched.evaluate("document.documentElement.lang") == "en"
    watched.watch.assert_clean("the rules page after switching to English")
    visit(watched, "/?" + urlencode(B1))


def test_trainer_question_answer_and_next(watched):
    visit(watched, "/trainer/?seed=5&kind=pay")
    watched.click('button[name="answer"][value="0"]')  # htmx swaps the graded question in
    watched.wait_for_selector('#trainer[data-graded="true"]')
    watched.watch.assert_clean("the trainer after an answer")
    watched.click("#trainer-next")
    watched.wait_for_selector("#trainer:not([data-graded])")
    watched.watch.assert_clean("the trainer's next question")
    visit(watched, "/trainer/?seed=8&kind=waits&answer=none")


def test_who_takes_the_discard_tapped_and_answered(watched):
    claims = {"ruleset": "xinyu", "caishen": "5p", "tile": "2s", "dealer": "E", "discarder": "E"}
    visit(watched, "/claims/?" + urlencode({**claims, "S_hand": "123m456m789sEEE2s"}))
    watched.click('[data-pick="N"]')
    for tile in ["1s", "1s", "1s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s", "2s", "2s"]:
        watched.click(f'button[data-tile="{tile}"]')  # htmx asks for the answer at each tap
    watched.wait_for_selector('#claims-answer [data-claims-winner="N"]')
    watched.watch.assert_clean("who takes the discard, answered")
    visit(watched, "/trainer/?seed=0&game=xinyu&kind=claims&answer=W")


def test_the_apps_offline_page(watched):
    visit(watched, "/no-network/")  # what the service worker shows offline for a page it keeps no copy of


def test_ledger_create_record_and_table_pages(watched):
    visit(watched, "/tables/new/")
    for seat, name in zip("ESWN", ["阿东", "小南", "老西", "北北"], strict=True):
        watched.fill(f"[name=name_{seat}]", name)
    with watched.expect_navigation():
        watched.click("#new-table button[type=submit]")
    edit = re.sub(r"\?.*$", "", watched.url)
    assert "/edit/" in edit
    watched.watch.assert_clean("the new table's edit page")
    visit(
        watched, edit.replace(watched.base, "") + "record/?" + urlencode({k: v for k, v in B1.items() if k != "dealer"})
    )
    with watched.expect_navigation():
        watched.click("#confirm")
    watched.watch.assert_clean("the table after recording a hand")
    assert "阿东" in watched.content()
    watched.click("#draw")  # it asks first
    with watched.expect_navigation():
        watched.click("#draw-confirm")
    watched.watch.assert_clean("the table after a drawn hand")
    table_id, token = edit.split("/tables/", 1)[1].split("/edit/")
    visit(watched, f"/tables/{table_id}/")
    visit(watched, "/tables/")  # this phone's tables, listed by the page's script from localStorage
    assert watched.locator("#mine-list li").count() == 1
    # the calculator bound to the table (its edit page's "record a hand" link)
    visit(watched, "/?" + urlencode({"table": table_id, "token": token.strip("/"), **B1}))


def test_error_pages(watched):
    visit(watched, "/no/such/page/", status=404)
    visit(watched, "/?" + urlencode({f"f{i}": i for i in range(300)}), status=400)
    # 403: a form whose CSRF cookie is gone
    visit(watched, "/tables/new/")
    watched.context.clear_cookies()
    with watched.expect_navigation() as navigation:
        watched.click("#new-table button[type=submit]")
    assert navigation.value.status == 403
    watched.watch.assert_clean("the 403 page")


def test_the_verdicts_picture_and_a_tables_are_drawn_and_downloaded(watched, client):
    """Issue 32: the picture's script loaded on the tap, the SVG drawn on a canvas from a blob: URL, the PNG shown
    and downloaded, all under the policy."""
    visit(watched, "/?" + urlencode(B1))
    with watched.expect_download():
        watched.click("#share-picture")
    watched.locator("[data-picture-panel] img").wait_for()
    watched.watch.assert_clean("the verdict's picture drawn and downloaded")
    table = Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}})
    visit(watched, f"/tables/{table.id}/")
    with watched.expect_download():
        watched.click("#share-evening")
    watched.watch.assert_clean("a table's evening drawn and downloaded")


def test_every_page_route_is_covered():
    names = set()

    def walk(patterns):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns)
            elif p.name and not p.name.startswith("api_"):
                names.add(p.name)

    walk(get_resolver().url_patterns)
    missing = sorted(names - set(COVERED))
    assert not missing, f"pages not opened by tests/browser/test_csp.py yet: {missing}"
