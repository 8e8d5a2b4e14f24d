"""The calculator bound to a table (issue 5 point 2, "record this hand" from the calculator): the table's edit page
opens the calculator with ?table=<id>&token=<edit token>; the game, options, dealer, streak and names come from the
table; a win offers a button to the ledger's record page; the token never reaches the share link."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from calculator.models import Hand, Table
from tests.ledger.client import wrong_token

pytestmark = pytest.mark.django_db


NAMES = {"name_E": "阿东", "name_S": "小南", "name_W": "老西", "name_N": "北北"}
# Case B1 as the calculator would send it, with a tariff and a dealer the table must override.
B1 = {
    "ruleset": "bazhi",
    "tariff": "525",
    "hand": "111345789p79m55s",
    "win_tile": "8m",
    "winner": "S",
    "dealer": "W",
    "discarder": "W",
}


def new_table(client, **fields) -> tuple[Table, str]:
    body = {"ruleset": "bazhi", "bazhi-tariff": "315", "dealer": "E", **NAMES, **fields}
    response = client.post("/tables/new/", body)
    assert response.status_code == 302
    table = Table.objects.get(pk=response["Location"].split("/")[2])
    return table, response["Location"].split("?")[0]


def token_of(edit: str) -> str:
    return edit.rstrip("/").rsplit("/", 1)[1]


def attr(html: str, element_id: str, name: str) -> str:
    tag = re.search(rf'<[^>]*\bid="{element_id}"[^>]*>', html).group(0)
    return unescape(re.search(rf'\b{name}="([^"]*)"', tag).group(1))


def checked(html: str, name: str) -> str:
    """The value of the checked radio `name`, and whether it is disabled."""
    tags = [t for t in re.findall(rf'<input[^>]*name="{name}"[^>]*>', html) if " checked" in t]
    assert len(tags) == 1, tags
    value = re.search(r'value="([^"]*)"', tags[0]).group(1)
    return value + (" disabled" if " disabled" in tags[0] else "")


def test_the_edit_page_opens_the_calculator_for_its_table(client):
    table, edit = new_table(client)
    html = client.get(edit).content.decode()
    link = attr(html, "record-link", "href")
    assert urlsplit(link).path == "/"
    # the table's version when the calculator was opened: a hand recorded meanwhile makes its button stale
    assert parse_qs(urlsplit(link).query) == {"table": [table.id], "token": [token_of(edit)], "at": ["0"]}
    assert attr(html, "record-form-link", "href") == f"{edit}record/"  # typing the notation stays possible
    assert "?table=" not in client.get(f"/tables/{table.id}/").content.decode()  # nothing of it when read-only


def test_prefill_from_the_table_and_the_record_button(client):
    table, edit = new_table(client, dealer="N", **{"bazhi-multi_jiao": "on"})
    bound = f"/?table={table.id}&token={token_of(edit)}"
    page = client.get(bound)
    html = page.content.decode()
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "same-origin" and page["Cache-Control"] == "no-store"
    assert 'id="table-banner"' in html and "阿东、小南、老西、北北" in html
    assert attr(html, "back-to-table", "href") == edit
    assert checked(html, "ruleset") == "bazhi disabled"
    assert checked(html, "tariff") == "315 disabled"
    assert checked(html, "dealer") == "N disabled"
    assert re.search(r'<input[^>]*name="multi_jiao"[^>]*>', html).group(0).count("checked") == 1
    assert attr(html, "id_name_S", "value") == "小南"
    assert 'id="record-hand"' not in html  # no hand yet

    # B1 tapped in: scored at the table's 315 with N as the dealer, whatever the request said (525, W)
    html = client.get(f"{bound}&{urlencode(B1)}").content.decode()
    nets = dict(re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html))
    assert nets == {"E": "-5", "S": "19", "W": "-7", "N": "-7"}
    assert attr(html, "record-form", "action") == f"/tables/{table.id}/edit/{token_of(edit)}/record/"
    assert attr(html, "record-hand", "form") == "record-form"  # a button of the form outside the calculator's
    fields = dict(re.findall(r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"', html))
    share = attr(html, "share-url", "value")
    assert token_of(edit) not in share and "table=" not in share
    assert token_of(edit) not in attr(html, "copy-link", "data-url")
    assert unescape(fields["q"]) == urlsplit(share).query  # the button carries the hand's share query
    assert parse_qs(urlsplit(share).query)["tariff"] == ["315"]
    assert fields["version"] == "0" and len(fields["key"]) == 32
    # the seat buttons name the players
    assert re.search(
        r'<label class="seg-item seat-item" for="id_winner_1"[^>]*>.*?<span class="seat-word">南</span> '
        r'<span class="seat-player" title="小南">小南</span>',
        html,
    )

    # the button records the hand straight away: back at the table, the same numbers
    post = {"from": "calculator", **{k: unescape(v) for k, v in fields.items()}}
    done = client.post(f"/tables/{table.id}/edit/{token_of(edit)}/record/", post)
    assert done.status_code == 302 and done["Location"] == edit
    assert Hand.objects.get().applied == {"E": -5, "S": 19, "W": -7, "N": -7}
    # the same result sent again (a second tap, the Back button): the first answer, nothing recorded twice
    again = client.post(f"/tables/{table.id}/edit/{token_of(edit)}/record/", post)
    assert again["Location"] == f"{edit}?repeat=1" and Hand.objects.count() == 1
    # the calculator page fetched anew (Back) still opened at version 0: the same key for the same hand
    html = client.get(f"{bound}&at=0&{urlencode(B1)}").content.decode()
    refetched = dict(re.findall(r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"', html))
    assert refetched["key"] == fields["key"] and refetched["version"] == "0"
    # another hand from that stale page: refused on the table page, not recorded
    other = dict(
        re.findall(
            r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"',
            client.get(f"{bound}&at=0&{urlencode({**B1, 'winner': 'E'})}").content.decode(),
        )
    )
    refused = client.post(
        f"/tables/{table.id}/edit/{token_of(edit)}/record/",
        {"from": "calculator", **{k: unescape(v) for k, v in other.items()}},
    )
    assert refused.status_code == 409 and 'id="ledger-error"' in refused.content.decode() and Hand.objects.count() == 1

    # the dealer N lost the hand: the calculator now opens with E as the dealer
    assert checked(client.get(bound).content.decode(), "dealer") == "E disabled"


def test_xinyu_table_fills_the_streak_and_htmx_keeps_the_binding(client):
    table, edit = new_table(client, ruleset="xinyu", dealer="E", **{"xinyu-stake": "100"})
    token = token_of(edit)
    query = {"ruleset": "xinyu", "caishen": "5p", "hand": "123m456m789sEEE5p", "win_tile": "2s", "winner": "E"}
    html = client.get(f"/?table={table.id}&token={token}").content.decode()
    assert checked(html, "ruleset") == "xinyu disabled" and 'data-ruleset="xinyu"' in html
    assert re.search(
        r'<input[^>]*name="dealer_streak"[^>]*value="1"[^>]*disabled|<input[^>]*disabled[^>]*name="dealer_streak"[^>]*value="1"',
        html,
    )

    # htmx sends the form (hidden table and token included); the partial has the button, the URL keeps the binding
    partial = client.get("/", {**query, "table": table.id, "token": token}, headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert "<form" not in body and 'id="record-hand"' in body
    replaced = parse_qs(urlsplit(partial.headers["HX-Replace-Url"]).query)
    assert replaced["table"] == [table.id] and replaced["token"] == [token] and replaced["hand"] == [query["hand"]]
    assert partial["Cache-Control"] == "no-store"

    # without JavaScript: the plain POST redirects to the bound page
    posted = client.post("/", {**query, "table": table.id, "token": token, "dealer": "S", "dealer_streak": "5"})
    assert posted.status_code == 303
    target = parse_qs(urlsplit(posted["Location"]).query)
    assert target["table"] == [table.id] and target["token"] == [token]
    assert target["dealer"] == ["E"] and "dealer_streak" not in target  # the table's dealer, streak 1


def test_wrong_token_is_a_404_and_without_a_table_nothing_changes(client):
    table, edit = new_table(client)
    assert client.get(f"/?table={table.id}&token={wrong_token(token_of(edit))}").status_code == 404
    assert client.get(f"/?table={table.id}").status_code == 404
    html = client.get(f"/?{urlencode(B1)}").content.decode()
    assert 'id="table-banner"' not in html and 'id="record-hand"' not in html and 'name="token"' not in html
    assert checked(html, "dealer") == "W"  # free to choose


def test_an_ended_table_offers_no_record_button(client):
    table, edit = new_table(client, **{"bazhi-stake": 5})  # a tiny 底: B1 ends it at once (脱底)
    query = {**B1, "dealer": "E"}
    preview = client.get(f"{edit}record/?{urlencode(query)}", follow=True).content.decode()
    q = unescape(re.search(r'name="q" value="([^"]*)"', preview).group(1))
    assert client.post(f"{edit}record/", {"q": q}).status_code == 302
    html = client.get(f"/?table={table.id}&token={token_of(edit)}&{urlencode(query)}").content.decode()
    assert 'data-win="true"' in html and 'id="record-hand"' not in html
    assert 'class="ended"' in html


def test_a_tap_of_a_bound_calculator_reads_nothing_from_the_database(client, django_assert_num_queries):
    """Issue 12: a tap must not replay the ledger; it does not even read it. The calculator opened at version `at`
    shows the table as it was then, read once."""
    table, edit = new_table(client)
    link = attr(client.get(edit).content.decode(), "record-link", "href")
    tap = f"{link}&{urlencode(B1)}"
    assert client.get(tap, headers={"HX-Request": "true"}).status_code == 200  # the first tap reads the table
    with django_assert_num_queries(0):
        body = client.get(tap, headers={"HX-Request": "true"}).content.decode()
    assert 'id="record-hand"' in body
    wrong = link.replace(token_of(edit), wrong_token(token_of(edit)))
    assert client.get(f"{wrong}&{urlencode(B1)}", headers={"HX-Request": "true"}).status_code == 404


def test_the_bound_calculator_scores_under_the_tables_rule_card(client):
    """A table whose card reads 海底捞月 as one more 嘴: the calculator shows its house rules fixed, scores the hand
    under them, and records what it showed."""
    table, edit = new_table(client, **{"bazhi-house_haidi": "zui"})
    link = attr(client.get(edit).content.decode(), "record-link", "href")
    html = client.get(link).content.decode()
    house = re.search(r'<fieldset class="house-fields" disabled>(.*?)</fieldset>', html, re.S).group(1)
    assert re.search(r'name="house_haidi".*?<option value="zui" selected', house, re.S)  # shown, not changeable
    last_tile = {**B1, "discarder": "", "win_tile": "8m", "flags": "last_tile"}  # 海底捞月: a self-draw
    html = client.get(f"{link}&{urlencode(last_tile)}").content.decode()
    shown = dict(re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html))
    fields = dict(re.findall(r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"', html))
    assert "house_haidi=zui" in unescape(fields["q"])
    post = {"from": "calculator", **{k: unescape(v) for k, v in fields.items()}}
    assert client.post(f"/tables/{table.id}/edit/{token_of(edit)}/record/", post).status_code == 302
    hand = Hand.objects.get()
    assert hand.result["zui"] == ["haidi"] and {s: str(v) for s, v in hand.applied.items()} == shown
