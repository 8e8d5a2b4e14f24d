"""A calculator link opened offline keeps every field it carries (issue 31): the seats, the game's options, its
house rules and the players' names, with or without a hand, as the server fills them online.

Offline the service worker answers a link with the calculator page it kept (drawn for another address); the
page's script puts the link's fields into it (static/js/calculator.js). The link of the issue,
`/?ruleset=bazhi&tariff=315&winner=S&dealer=E&discarder=W`, came up with winner E and no discarder.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.test import Client

from calculator.presentation.handquery import Fields, parse_query
from tests.browser.conftest import close, open_page
from tests.browser.offline import open_ready
from tests.browser.phone import B1, expect, expect_nets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = {"ruleset": "bazhi", "tariff": "315", "winner": "S", "dealer": "E", "discarder": "W"}
EVERYTHING = {
    "ruleset": "bazhi",
    "tariff": "525",  # an option off its default
    "multi_jiao": "on",  # a checkbox option
    "house_yadang_wait": "any",  # a house rule off its default
    "winner": "N",
    "dealer": "S",
    "discarder": "E",
    "name_E": "阿东",
    "name_N": "Nora",
}
HAND = {k: B1[k] for k in ("hand", "win_tile")}


def fields(page) -> dict:
    """The calculator's fields that the page shows (not another game's), as its form would send them."""
    return page.evaluate(
        """() => {
          const out = {};
          for (const input of document.getElementById("calc").elements) {
            if (!input.name || input.name === "csrfmiddlewaretoken" || input.closest(".is-foreign")) continue;
            if (input.matches(":disabled") || ((input.type === "radio" || input.type === "checkbox") && !input.checked)) continue;
            if (input.value !== "") out[input.name] = input.value;
          }
          return out;
        }"""
    )


@pytest.fixture
def online_and_offline(browser, live_server):
    """Two ways to open a link: online (the server fills the form) and offline (the page kept by the service
    worker of a phone that visited the site once, then lost the network)."""
    context, page = open_page(browser, live_server, service_workers="allow")
    page.goto(page.base + "/")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    page.reload()
    expect(page.locator("#keyboard")).to_be_visible()

    def open_link(query: dict, offline: bool) -> dict:
        context.set_offline(offline)
        page.goto(page.base + "/?" + urlencode(query))
        expect(page.locator("#keyboard")).to_be_visible()
        # the page's script puts the whole link into the form at once: its seats checked, the rest is there too
        expect(page.locator(f'input[name="winner"][value="{query["winner"]}"]')).to_be_checked()
        expect(page.locator(f'input[name="discarder"][value="{query["discarder"]}"]')).to_be_checked()
        return fields(page)

    yield open_link, page
    close(context)


@pytest.mark.parametrize(
    "query",
    [SEATS, {**SEATS, **HAND}, EVERYTHING, {**EVERYTHING, **HAND}],
    ids=["the issue's seats", "the seats and a hand", "options, house rules, names", "all that and a hand"],
)
def test_a_link_opened_offline_fills_the_form_as_the_server_does(online_and_offline, query):
    open_link, page = online_and_offline
    online = open_link(query, offline=False)
    offline = open_link(query, offline=True)
    assert {k: offline.get(k) for k in query} == query  # every field of the link
    assert offline == online  # and nothing else than the server puts there
    expect(page.locator(f'input[name="winner"][value="{query["winner"]}"]')).to_be_checked()
    expect(page.locator(f'input[name="discarder"][value="{query["discarder"]}"]')).to_be_checked()


def server_nets(query: dict) -> dict:
    """What the server pays for the link's hand (the JSON API, the same request)."""
    hand = parse_query(Fields.of(urlencode(query)))
    body = Client().post("/api/score", json.dumps(hand.request), content_type="application/json").json()
    return body["net"]


@pytest.mark.xdist_group("offline-pack")  # the pack is built and installed once per test process
@pytest.mark.parametrize("with_hand", [False, True], ids=["without a hand", "with a hand"])
def test_with_the_offline_pack_a_link_opened_offline_is_scored_with_its_seats_options_and_house_rules(
    offline_phone, with_hand
):
    query = {**EVERYTHING, **(HAND if with_hand else {})}
    page = open_ready(offline_phone, "/?" + urlencode(query))
    expect(page.locator('input[name="winner"][value="N"]')).to_be_checked()
    expect(page.locator('input[name="discarder"][value="E"]')).to_be_checked()
    expect(page.locator('input[name="dealer"][value="S"]')).to_be_checked()
    assert {k: fields(page).get(k) for k in query} == query
    if with_hand:
        expect_nets(page, server_nets(query))
    page.close()
