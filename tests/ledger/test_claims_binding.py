"""Who takes the discard from a table's bound calculator (issue 29): the calculator links to the page with the
table's binding; the table decides the game, its card, the dealer and the names there as on the calculator; the
taking win gets "record this hand", which records it at the table as a hand of the bound calculator."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from calculator.models import Hand
from tests.ledger.client import wrong_token
from tests.ledger.test_calculator_binding import attr, checked, new_table, token_of

pytestmark = pytest.mark.django_db

B1 = "111345789p79m55s"  # 压档 8m: 19 to the winner on W's discard
TONGTIAN = "123456789s79m22p"  # 通天 on 8m: 25 to the winner
# W discards 8m at the table; S (通天) and N (压档) claim it: N comes first after W and takes it (bazhi §1.1).
CLAIMS = {"tile": "8m", "discarder": "W", "S_hand": TONGTIAN, "N_hand": B1}


def record_fields(html: str) -> dict:
    return {
        k: unescape(v)
        for k, v in re.findall(r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"', html)
    }


def bound_claims(client, **table_fields) -> tuple[str, str, str]:
    """The table's edit link, and the claims page as its bound calculator links to it."""
    table, edit = new_table(client, **table_fields)
    calculator = attr(client.get(edit).content.decode(), "record-link", "href")
    claims = unescape(re.search(r'<a href="(/claims/[^"]*)">', client.get(calculator).content.decode()).group(1))
    return table, edit, claims


def test_the_bound_calculator_links_to_the_page_with_the_tables_binding(client):
    table, edit, claims = bound_claims(client)
    assert urlsplit(claims).path == "/claims/"
    assert parse_qs(urlsplit(claims).query) == {"table": [table.id], "token": [token_of(edit)], "at": ["0"]}


def test_the_table_decides_the_game_its_card_the_dealer_and_the_names(client):
    table, edit, claims = bound_claims(client, dealer="N")
    response = client.get(f"{claims}&{urlencode({'ruleset': 'xinyu', 'dealer': 'E', 'tariff': '525', **CLAIMS})}")
    html = response.content.decode()
    assert response["Cache-Control"] == "no-store" and response["Referrer-Policy"] == "same-origin"
    assert 'id="table-banner"' in html and attr(html, "back-to-table", "href") == edit
    assert checked(html, "ruleset") == "bazhi" and 'data-ruleset="bazhi"' in html
    assert checked(html, "tariff") == "315 disabled"
    assert re.search(r'<fieldset class="seat-row" data-seat-row="dealer" disabled>', html)
    assert checked(html, "dealer") == "N"
    assert '<span class="seat-player" title="小南">小南</span>' in html
    # N (the dealer) takes W's 8m: 压档, as the dealer who wins, paid by the table's 315
    assert re.search(r'data-claims-winner="N" data-reason="seat_order"', html)
    assert "北 · 北北" in html  # the players' names in the answer


def test_the_taking_win_is_recorded_at_the_table(client):
    table, edit, claims = bound_claims(client)
    html = client.get(f"{claims}&{urlencode(CLAIMS)}").content.decode()
    assert attr(html, "record-form", "action") == f"/tables/{table.id}/edit/{token_of(edit)}/record/"
    assert attr(html, "record-hand", "form") == "record-form"
    fields = record_fields(html)
    hand = parse_qs(fields["q"])
    assert (hand["winner"], hand["hand"], hand["win_tile"], hand["discarder"]) == (["N"], [B1], ["8m"], ["W"])
    share = attr(html, "share-url", "value")
    assert token_of(edit) not in share and "table=" not in share  # the binding stays out of the share link
    done = client.post(f"/tables/{table.id}/edit/{token_of(edit)}/record/", {"from": "calculator", **fields})
    assert done.status_code == 302 and done["Location"] == edit
    assert Hand.objects.get().applied == {"E": -7, "S": -5, "W": -7, "N": 19}
    # the same answer sent again records nothing twice
    again = client.post(f"/tables/{table.id}/edit/{token_of(edit)}/record/", {"from": "calculator", **fields})
    assert again["Location"] == f"{edit}?repeat=1" and Hand.objects.count() == 1


def test_htmx_keeps_the_binding_in_the_address(client):
    table, edit, claims = bound_claims(client)
    binding = {k: v[0] for k, v in parse_qs(urlsplit(claims).query).items()}
    response = client.get("/claims/", {**binding, **CLAIMS}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="record-hand"' in body and "<form" not in body
    replaced = parse_qs(urlsplit(response.headers["HX-Replace-Url"]).query)
    assert replaced["table"] == [table.id] and replaced["token"] == [token_of(edit)]
    assert replaced["N_hand"] == [B1]


def test_a_table_of_three_seats_three_claimants(client):
    """A bazhi table of three (made through the API): S discards 8m, W (its 下家) takes it before E."""
    body = {"ruleset": "bazhi", "options": {"tariff": "315", "players": 3}}
    made = client.post("/api/tables", body, content_type="application/json").json()
    binding = {"table": made["id"], "token": made["edit_token"], "at": 0}
    claims = {"tile": "8m", "discarder": "S", "E_hand": TONGTIAN, "W_hand": B1}
    html = client.get(f"/claims/?{urlencode({**binding, **claims})}").content.decode()
    assert re.findall(r'data-claim-panel="([ESWN])"', html) == ["E", "S", "W"]
    assert re.search(r'data-claims-winner="W"', html) and 'id="record-hand"' in html
    assert {seat: int(net) for seat, net in re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html)} == {
        "E": -7,
        "S": -7,
        "W": 14,
    }


def test_a_wrong_token_is_a_404(client):
    table, edit, claims = bound_claims(client)
    assert client.get(claims.replace(token_of(edit), wrong_token(token_of(edit)))).status_code == 404
