"""An open table page keeps up by conditional requests (issue 31): while nothing changes each poll is a 304 with no
body; a change reaches an edit page as one answer, its live part with its controls, swapped in."""

from __future__ import annotations

import pytest

from tests.browser.phone import expect
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def answers(page, since: int) -> list:
    return [r for r in page.requests[since:] if r.response() is not None]


def test_an_edit_page_takes_a_change_in_one_answer_and_idle_polls_cost_no_body(page, client):
    api = Api(client, {"ruleset": "xinyu"})
    edit = f"/tables/{api.id}/edit/{api.token}/"
    page.requests = []
    page.on("requestfinished", lambda request: page.requests.append(request))
    page.on("requestfailed", lambda request: page.requests.append(request))
    page.goto(page.base + edit)
    expect(page.locator("#no-history")).to_be_visible()
    loaded = len(page.requests)
    page.wait_for_timeout(2500)  # two polls or more, nothing changed
    idle = answers(page, loaded)
    assert len(idle) >= 2 and {r.url.split("?")[0] for r in idle} == {page.base + edit + "live/"}
    assert {r.response().status for r in idle} == {304} and {r.sizes()["responseBodySize"] for r in idle} == {0}

    before_change = len(page.requests)
    api.ok("draw")  # another phone records a drawn hand
    expect(page.locator("#history > li")).to_have_count(1, timeout=3000)
    expect(page.locator("#live")).to_have_attribute("data-version", "1")
    page.wait_for_timeout(1200)  # the next poll: a 304 again
    fetched = [r for r in answers(page, before_change) if r.response().status == 200]
    assert [r.url for r in fetched] == [page.base + edit + "live/"]  # one answer; the page is not fetched again
    # the part swapped in is the edit page's: its controls, with the new version in their forms
    expect(page.locator("#undo-box")).to_be_attached()
    expect(page.locator("#draw-form input[name=version]")).to_have_value("1")
    assert page.locator("#draw-form").get_attribute("action") == edit + "draw/"
    assert [r.response().status for r in answers(page, before_change)][-1] == 304
    assert page.console.errors == []
