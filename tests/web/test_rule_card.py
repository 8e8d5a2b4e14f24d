"""The rule card on the calculator page (issue 11 §3): each game's house rules as fields `house_<id>` in the share
link, and the "other readings" panel under the result (data-alt, data-alt-net-E … N)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.urls import reverse

from tests.web.fields import B1

# HB1 of house.json: 1113m waits 2m and 3m, won on 2m: 压档 only when it needs no unique wait
HB1 = {**B1, "hand": "1113m123456789p", "win_tile": "2m"}


def page(client, fields: dict) -> str:
    return client.get(f"{reverse('calculator')}?{urlencode(fields)}").content.decode()


def nets(html: str) -> dict[str, int]:
    return {seat: int(net) for seat, net in re.findall(r'data-seat="(\w)" data-net="(-?\d+)"', html)}


def alt_rows(html: str) -> dict[str, dict[str, int]]:
    rows = {}
    for key, attrs in re.findall(r'<li class="alt" data-alt="([^"]+)"([^>]*)>', html):
        rows[key] = {seat: int(n) for seat, n in re.findall(r'data-alt-net-(\w)="(-?\d+)"', attrs)}
    return rows


def test_every_game_has_its_rule_card_with_the_defaults_chosen(client):
    html = page(client, {})
    for field in ("house_yadang_wait", "house_tongtian_sihe", "house_wild_fifth_copy", "house_dilong"):
        assert f'name="{field}"' in html
    assert re.search(r'<option value="unique" selected>', html)
    assert 'name="house_draw_dealer"' not in html  # the ledger's alone: no field on the calculator


def test_only_the_chosen_games_rule_card_is_sent():
    """Both games have a rule called qianggang: the other game's fields sit in a disabled fieldset."""
    from django.test import Client

    html = page(Client(), B1)
    bazhi_card = html[html.index('id="rule-card-bazhi"') :]
    xinyu_card = html[html.index('id="rule-card-xinyu"') :]
    first = re.compile(r'<fieldset class="house-fields"[^>]*>')  # each card's own fieldset, the first after its id
    assert first.search(bazhi_card).group(0) == '<fieldset class="house-fields">'
    assert first.search(xinyu_card).group(0) == '<fieldset class="house-fields" disabled>'


def test_the_default_card_shows_the_other_reading_that_pays_differently(client):
    html = page(client, HB1)
    assert nets(html) == {"E": -6, "S": 17, "W": -6, "N": -5}
    assert alt_rows(html) == {"yadang_wait=any": {"E": -8, "S": 22, "W": -8, "N": -6}}


def test_a_share_link_with_a_house_rule_scores_under_it_and_offers_the_default_back(client):
    html = page(client, {**HB1, "house_yadang_wait": "any"})
    assert nets(html) == {"E": -8, "S": 22, "W": -8, "N": -6}
    assert re.search(r'<option value="any" selected>', html)
    assert alt_rows(html) == {"yadang_wait=unique": {"E": -6, "S": 17, "W": -6, "N": -5}}
    assert "house_yadang_wait=any" in html  # the share link keeps the card


def test_one_tap_on_a_reading_switches_the_card(client):
    html = page(client, HB1)
    link = re.search(r'data-alt="yadang_wait=any"[^>]*>\s*<a class="alt-link" href="/\?([^"]+)"', html).group(1)
    switched = client.get(f"{reverse('calculator')}?{link.replace('&amp;', '&')}").content.decode()
    assert nets(switched)["S"] == 22 and "yadang_wait=unique" in alt_rows(switched)


def test_a_hand_that_wins_only_under_another_reading_says_so(client):
    """HX1: the 财神 can only be a fifth 1m: not a win under wild_fifth_copy=false, a win under the default."""
    hx1 = {"ruleset": "xinyu", "caishen": "5p", "hand": "1111m234p567p789s", "win_tile": "5p", "winner": "S"}
    html = page(client, {**hx1, "dealer": "E", "discarder": "W", "house_wild_fifth_copy": "false"})
    assert 'data-win="false"' in html
    assert alt_rows(html) == {"wild_fifth_copy=true": {"E": -7, "S": 27, "W": -13, "N": -7}}


def test_the_htmx_card_has_the_panel_too(client):
    html = client.get(f"{reverse('calculator')}?{urlencode(HB1)}", HTTP_HX_REQUEST="true").content.decode()
    assert alt_rows(html) == {"yadang_wait=any": {"E": -8, "S": 22, "W": -8, "N": -6}}


def test_a_value_of_the_other_games_rule_is_a_form_error_on_the_page(client):
    html = page(client, {**B1, "house_qianggang": "triple"})
    assert "本玩法的桌规里没有这个选项" in html


# HX9 / HX11 of house.json: the two readings of issue 29 on the rule card
HX9 = {"ruleset": "xinyu", "caishen": "P", "hand": "123m456m789m11mEE", "win_tile": "E", "winner": "S", "dealer": "E"}
HX11 = {"ruleset": "xinyu", "caishen": "5p", "hand": "5555p123m456s78s9m", "win_tile": "9m", "winner": "S"}


def test_wulong_is_on_the_rule_card_with_the_other_reading_of_a_hand_without_caishen(client):
    """混一色 without 财神: 14 / 7 / 7 by default, 12 / 6 / 6 if 无龙 means no 龙 at all."""
    html = page(client, {**HX9, "discarder": "W"})
    assert 'name="house_wulong"' in html
    assert nets(html) == {"E": -7, "S": 28, "W": -14, "N": -7}
    assert alt_rows(html) == {"wulong=total": {"E": -6, "S": 24, "W": -12, "N": -6}}


def test_silong_discard_is_on_the_rule_card_and_a_share_link_scores_under_it(client):
    """Four 财神 with a shape on W's discard: 71 to S under with_shape, 31 by default (the reading offered back)."""
    html = page(client, {**HX11, "dealer": "E", "discarder": "W", "house_silong_discard": "with_shape"})
    assert nets(html) == {"E": -18, "S": 71, "W": -35, "N": -18}
    assert alt_rows(html) == {"silong_discard=none": {"E": -8, "S": 31, "W": -15, "N": -8}}
    assert "house_silong_discard=with_shape" in html
