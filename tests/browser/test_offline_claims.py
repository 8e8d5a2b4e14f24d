"""Who takes the discard offline (issue 29): the page kept with the pack for each game and table size, a share link
opened with the network cut gets the copy of its game and size, and the phone draws the answer with the server's
own Python, as the server draws it, in both languages."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from calculator.presentation.trainer.questions import Spec, question
from tests.browser.offline import open_ready
from tests.browser.phone import expect
from tests.browser.test_offline import server_trainer_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("offline-pack")]

# xinyu: E discards 2s; S wins plainly, N with 清一色 (level 1) takes it: 小的不能拦大的, N +47.
XINYU = {"ruleset": "xinyu", "caishen": "5p", "tile": "2s", "dealer": "E", "discarder": "E"}
XINYU.update(S_hand="123456m2789sEEE", N_hand="1112234567899s")
# bazhi at three: S discards 8m; W (its 下家) takes it before E's 通天, 14 from E and S.
BAZHI_AT_THREE = {"ruleset": "bazhi", "tariff": "315", "players": "3", "tile": "8m", "dealer": "E", "discarder": "S"}
BAZHI_AT_THREE.update(E_hand="79m22p123456789s", W_hand="79m111345789p55s")
WORDS = {"zh": "小的不能拦大的", "en": "a lower level cannot overtake a higher one"}


def server_answer(fields: str, lang: str) -> str:
    client = Client()
    client.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
    return client.get(f"/claims/?{fields}", headers={"HX-Request": "true"}).content.decode()


def expect_taken(page, winner: str, reason: str, net: int) -> None:
    verdict = page.locator('#claims-answer [data-claims="answer"]')
    expect(verdict).to_have_attribute("data-claims-winner", winner)
    expect(verdict).to_have_attribute("data-reason", reason)
    expect(page.locator(f'#claims-answer [data-seat="{winner}"]')).to_have_attribute("data-net", str(net))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_offline_a_link_of_claims_is_answered_in_the_phone_as_the_server_answers_it(offline_phone, lang):
    online = open_ready(offline_phone, "/claims/?ruleset=xinyu", offline=False, lang=lang)
    expect(online.locator("html")).to_have_attribute(
        "data-offline-claims-kept", online.locator("html").get_attribute("lang")
    )
    online.close()
    page = open_ready(offline_phone, "/claims/?" + urlencode(XINYU), lang=lang)
    expect_taken(page, "N", "higher_level", 47)
    expect(page.locator("#claims-answer [data-claims-reason]")).to_contain_text(WORDS[lang])
    expect(page.locator('#claims-answer [data-claim-seat="S"]')).to_have_attribute("data-claim-level", "0")
    # a change tapped offline: N's hand cleared, S alone takes it
    page.click('[data-pick="N"]')
    page.click("#key-clear")
    expect_taken(page, "S", "only_winner", 27)
    expect(page).to_have_url(re.compile(r"S_hand=123456m2789sEEE$"))  # the address is the answer's share link
    # what the phone draws is the server's answer for the same fields
    where = json.dumps({"origin": "http://testserver"})
    for fields in (urlencode(XINYU), page.locator("html").get_attribute("data-offline-claims")):
        drawn = json.loads(page.evaluate("([q, lang, w]) => offlinePack.claims(q, lang, w)", [fields, lang, where]))
        assert drawn["html"] == server_answer(fields, lang)
    assert page.console.errors == []
    page.close()


def test_offline_a_link_at_a_table_of_three_gets_the_page_of_its_size(offline_phone):
    page = open_ready(offline_phone, "/claims/?" + urlencode(BAZHI_AT_THREE))
    expect(page.locator("[data-claim-panel]")).to_have_count(3)  # E S W: the copy kept for bazhi at three
    expect_taken(page, "W", "seat_order", 14)
    expect(page.locator("#claims-answer .verdict-level")).to_have_count(0)
    assert page.console.errors == []
    page.close()


def test_offline_the_trainer_asks_who_takes_a_discard_as_the_server_does(offline_phone):
    """The trainer's claims question drawn in the phone, unanswered and answered, is the server's page for it."""
    page = open_ready(offline_phone, "/claims/?ruleset=xinyu")
    link = "seed=0&game=xinyu&kind=claims"
    winner = question(Spec(0, "xinyu", "claims")).answer["winner"]
    for shown in (link, f"{link}&answer={winner}"):
        drawn = json.loads(page.evaluate("([link, lang]) => offlinePack.trainer(link, lang)", [shown, "zh"]))
        assert drawn["link"] == shown and drawn["html"] in server_trainer_page(shown, "zh")
    assert 'data-correct="true"' in drawn["html"] and 'data-claims="answer"' in drawn["html"]
    page.close()
