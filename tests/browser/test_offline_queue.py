"""A table's queue in the phone back online (issue 22, static/js/offline.js): its count of rounds
(`data-sync-rounds`) moves only when one of this table's rounds has ended.

The two-phone test in test_offline.py failed under load in CI: the count moved when another kept table's round
ended, while this table's first hand was still on its way; the test took the queue for settled and gave up on the
hand the referee was about to be asked about.
"""

from __future__ import annotations

import time

import pytest

from tests.browser.offline import open_ready
from tests.browser.phone import expect
from tests.browser.test_offline import enter_hand
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("offline-pack")]

HANDS = "**/api/tables/*/hands"


@pytest.fixture(autouse=True)
def closed_after(offline_phone):
    """The pages a test opened are closed after it, passed or not: a page left open would send the next test's
    queue when the network comes back (each page sends every kept table's queue), around that test's routes."""
    before = set(offline_phone.context.pages)
    yield
    for page in offline_phone.context.pages:
        if page not in before:
            page.close()


def kept(phone, api: Api) -> None:
    """The phone keeps the table: its edit page opened online."""
    page = open_ready(phone, f"/tables/{api.id}/edit/{api.token}/", offline=False, ready=False)
    expect(page.locator("#ledger")).to_have_attribute("data-offline-kept", str(api.get()["version"]))
    page.close()


def queued_offline(phone, api: Api, winner: str = "S", discarder: str = "W"):
    """The table's calculator opened with the network cut and B1 recorded there: the page, its hand waiting."""
    page = open_ready(phone, f"/?table={api.id}&token={api.token}&at={api.get()['version']}")
    expect(page.locator("#offline-table")).to_be_visible()
    enter_hand(page, winner, discarder)
    page.click("#record-hand")
    expect(page.locator("#offline-queue li")).to_have_attribute("data-queue-state", "waiting")
    return page


def test_the_queues_count_of_rounds_moves_once_when_a_round_of_its_table_has_ended(offline_phone, client):
    """`data-sync-rounds` on a table's queue counts the rounds of that table that have ended: not another kept
    table's (whose round ends at once, nothing to send), and not while the table's hand is still on its way."""
    other = Api(client, {"ruleset": "bazhi"})
    kept(offline_phone, other)  # kept first: its round comes first
    api = Api(client, {"ruleset": "bazhi"})
    kept(offline_phone, api)
    page = queued_offline(offline_phone, api)
    queue = page.locator("#offline-queue")
    before = int(queue.get_attribute("data-sync-rounds"))
    held = []
    page.route(HANDS, lambda route: held.append(route))  # the hand waits on its way until the test lets it go
    offline_phone.context.set_offline(False)
    expect(page.locator("#offline-queue li")).to_have_attribute("data-queue-state", "sending")
    assert queue.get_attribute("data-sync-rounds") == str(before)  # this table's round has not ended
    handed_over(page, held).continue_()
    expect(page.locator("#offline-queue li")).to_have_attribute("data-queue-state", "sent")
    expect(queue).to_have_attribute("data-sync-rounds", str(before + 1))
    assert api.get()["hands_total"] == 1
    assert page.console.errors == []
    page.close()


def handed_over(page, held: list, seconds: float = 10):
    """The held request's route, once Playwright has handed it to the test (its events come while the test waits on
    the page)."""
    deadline = time.monotonic() + seconds
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the hand's request reached the route"
    return held[0]
