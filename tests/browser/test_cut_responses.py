"""A page never throws on an answer that arrives in pieces, empty or cut (issue 31: `Unexpected end of JSON
input` seen once under load on the English calculator bound to a table).

The cause: on an English page boot.js explains the games' Chinese words from a list in the page (json_script
"glossary-data", at the end of the body) whenever a <details> opens. The calculator's notation box is parsed
open, and its toggle event comes while the rest of the page may still be on its way: the list half arrived,
JSON.parse threw. A page delivered in two pieces (tests/browser/slow_network.py) shows it every time.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.browser.conftest import open_page
from tests.browser.phone import B1, expect
from tests.browser.slow_network import PausingProxy
from tests.ledger.client import Api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {k: v for k, v in B1.items() if k not in ("ruleset", "dealer")}


def english_page_through(browser, live_server, proxy: PausingProxy):
    context, page = open_page(browser, live_server, lang="en")
    context.add_cookies([{"name": "django_language", "value": "en", "url": proxy.url}])
    page.base = proxy.url
    return context, page


@pytest.mark.parametrize("bound", [False, True], ids=["calculator", "bound to a table"])
def test_a_page_whose_word_list_arrives_late_explains_its_words_without_an_error(browser, live_server, client, bound):
    query = dict(B1)
    if bound:
        api = Api(client, {"ruleset": "bazhi"})
        query = {"table": api.id, "token": api.token, **HAND}
    # the page stops inside its list of words for a second: the open notation box's toggle comes before the rest
    with PausingProxy(live_server.url, "/?", after='id="glossary-data" type="application/json">[', pause=1.0) as proxy:
        context, page = english_page_through(browser, live_server, proxy)
        try:
            page.goto(f"{proxy.url}/?{urlencode(query)}")
            expect(page.locator('#result [data-win="true"]')).to_be_visible()
            assert proxy.paused == 1
            # the words are explained once the list is there (the page's first answer names 庄 and 底)
            expect(page.locator("dfn[data-term]").first).to_be_attached()
            page.locator("details.payments summary").click()
            assert page.console.errors == []
        finally:
            context.close()
