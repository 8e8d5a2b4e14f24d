"""The page of who takes the discard (issue 29): several players claim one discard; the page says who takes it and
why by the game's `[claims]` (xinyu's 拦胡 levels, RULES.md §2.5, "小的不能拦大的", then play order; bazhi's play
order alone, §1.1) and what the taking win pays, with the other claims folded below. Its address is the whole
input (the share link); it works without JavaScript (a GET form) and as an htmx partial, at four and at three."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from calculator.presentation.claims.fields import claims_query, parse_claims
from calculator.presentation.handquery import Fields

PLAIN = "123m456m789sEEE2s"  # xinyu: an ordinary win on 2s (level 0)
PLAIN_2 = "123p456p789mSSS2s"  # another ordinary win on 2s
QINGYISE = "11134567899s22s"  # 清一色 on 2s (level 1)
XINYU = {"ruleset": "xinyu", "caishen": "5p", "dealer": "E", "tile": "2s"}
B1 = "111345789p79m55s"  # bazhi: 压档 8m, 19 to the winner on W's discard
TONGTIAN = "123456789s79m22p"  # bazhi: 通天 on 8m, 25 to the winner
BAZHI = {"ruleset": "bazhi", "tariff": "315", "dealer": "E", "tile": "8m"}
LANGS = {"zh": "zh-hans", "en": "en"}


def page(client, fields: dict, lang: str = "zh") -> str:
    response = client.get(reverse("claims"), fields, headers={"Accept-Language": LANGS[lang]})
    assert response.status_code == 200
    return response.content.decode()


def partial(client, fields: dict, lang: str = "zh"):
    headers = {"HX-Request": "true", "Accept-Language": LANGS[lang]}
    return client.get(reverse("claims"), fields, headers=headers)


def answer_of(html: str) -> str:
    """The page's #claims-answer (the whole of a partial)."""
    if 'id="claims-answer"' not in html:
        return html
    start = html.index(">", html.index('id="claims-answer"')) + 1
    return html[start : html.index('<details class="card names">')].rsplit("</div>", 1)[0]


def settled(html: str) -> dict:
    """What the answer says: the winner, the reason's code and words, each claim in play order (seat, level, takes),
    and the taking win's nets."""
    verdict = re.search(r'data-claims="answer" data-claims-winner="([ESWN]?)" data-reason="(\w+)"', html)
    assert verdict, html[:2000]
    rows = re.findall(r'data-claim-seat="([ESWN])" data-claim-level="(\d?)" data-takes="(true|false)"', html)
    reason = unescape(re.search(r"<p class=\"verdict-why\" data-claims-reason>(.*?)</p>", html).group(1))
    return {
        "winner": verdict.group(1),
        "reason_code": verdict.group(2),
        "reason": reason,
        "claims": [(seat, int(level) if level else None, takes == "true") for seat, level, takes in rows],
        "nets": {seat: int(net) for seat, net in re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html)},
    }


def answered(html: str, winner: str, reason_code: str, claims: list, nets: dict) -> dict:
    """The page's answer, checked: who takes it, the reason's code, the claims in play order, the taking nets."""
    answer = settled(answer_of(html))
    assert (answer["winner"], answer["reason_code"], answer["claims"], answer["nets"]) == (
        winner,
        reason_code,
        claims,
        nets,
    )
    return answer


# ----------------------------------------------------------------------------------------------- xinyu (§2.5)

HIGHER_LEVEL_SAID = {  # the reason, the verdict, the level of the taking claim
    "zh": ("北家的清一色（级别 1）高于其他人（南家 0）：小的不能拦大的", "北胡这张牌", "级别 1 · 清一色"),
    "en": (
        "North's Pure one suit (level 1) is above the others (South 0)",
        "North takes the discard",
        "Level 1 · Pure one suit",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_xinyu_a_higher_level_takes_the_discard_over_seat_order(client, lang):
    """E discards 2s: S (下家) wins plainly, N with 清一色 (level 1): 小的不能拦大的, N takes it and is paid 47."""
    html = page(client, {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": QINGYISE}, lang)
    claims, nets = [("S", 0, False), ("N", 1, True)], {"E": -23, "S": -12, "W": -12, "N": 47}
    answer = answered(html, "N", "higher_level", claims, nets)
    reason, verdict, level = HIGHER_LEVEL_SAID[lang]
    assert answer["reason"].startswith(reason)
    assert verdict in html and level in html


def test_xinyu_the_rule_is_said_in_the_games_words(client):
    html = answer_of(page(client, {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": QINGYISE}))
    how = re.search(r'<p class="hint claims-how">(.*?)</p>', html, re.S).group(1)
    assert how.startswith("小的不能拦大的：级别高的胡") and 'href="/rules/#claims-xinyu">§2.5</a>' in how


def test_xinyu_equal_levels_go_to_the_first_seat_after_the_discarder(client):
    """W discards: after W come N, E, S; S and N both win plainly: N takes it (24)."""
    answer = settled(page(client, {**XINYU, "discarder": "W", "S_hand": PLAIN, "N_hand": PLAIN_2}))
    assert (answer["winner"], answer["reason_code"]) == ("N", "seat_order")
    assert answer["claims"] == [("N", 0, True), ("S", 0, False)]
    assert answer["nets"] == {"E": -6, "S": -6, "W": -12, "N": 24}
    assert answer["reason"] == "同级别（0）按座位：北家是放铳家之后最近的一家"


def test_xinyu_a_nearer_player_who_passes_lets_the_next_one_win(client):
    """E discards; S (the 下家) leaves its seat empty: of W and N, both ordinary, W is nearer and takes it."""
    answer = settled(page(client, {**XINYU, "discarder": "E", "W_hand": PLAIN, "N_hand": PLAIN_2}))
    assert (answer["winner"], answer["claims"]) == ("W", [("W", 0, True), ("N", 0, False)])
    assert answer["nets"] == {"E": -13, "S": -7, "W": 27, "N": -7}


def test_xinyu_three_claims_at_a_table_of_four(client):
    """N discards 红中: E (下家) and S win plainly on it, W with 全风向 (level 2): W takes it over both."""
    fields = {**XINYU, "tile": "C", "discarder": "N", "E_hand": "123456789p111pC", "W_hand": "EEESSSWWWNNNC"}
    answer = settled(page(client, {**fields, "S_hand": "123456789m222sC"}))
    assert (answer["winner"], answer["reason_code"]) == ("W", "higher_level")
    assert answer["claims"] == [("E", 0, False), ("S", 0, False), ("W", 2, True)]


def test_the_other_claims_are_folded_below_the_answer(client):
    html = answer_of(page(client, {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": QINGYISE}))
    other = re.search(r'<details class="card other-claims".*?</details>', html, re.S).group(0)
    assert re.findall(r'data-other-claim="([ESWN])"', other) == ["S"]
    assert 'data-strip-seat="S" data-strip-net="27"' in other  # what S's plain win would have won
    link = unescape(re.search(r'<a href="/\?([^"]+)">', other).group(1))
    assert parse_qs(link)["hand"] == [PLAIN] and parse_qs(link)["winner"] == ["S"]


def test_the_taking_win_names_its_level_on_its_result_card(client):
    html = answer_of(page(client, {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": QINGYISE}))
    card = html[html.index('<div class="card verdict verdict-win" data-win="true">') :]
    assert re.search(r'<span class="verdict-level" data-level="1">拦胡级别 1 · 清一色<a', card)


# ----------------------------------------------------------------------------------------------- bazhi (§1.1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_bazhi_the_first_winning_claim_after_the_discarder_takes_it(client, lang):
    """W discards 8m: after W come N, E, S. N (压档, 19) takes it before S, whose 通天 would pay more: no levels."""
    html = page(client, {**BAZHI, "discarder": "W", "S_hand": TONGTIAN, "N_hand": B1}, lang)
    claims, nets = [("N", 0, True), ("S", 0, False)], {"E": -7, "S": -5, "W": -7, "N": 19}
    answer = answered(html, "N", "seat_order", claims, nets)
    reason = {
        "zh": "无一炮多响：北家是放铳家之后按出牌顺序第一个能胡的",
        "en": "One winner per discard: North is the first",
    }
    assert answer["reason"].startswith(reason[lang])
    assert "Level" not in answer_of(html) and "级别" not in answer_of(html)  # no levels in bazhi
    assert "verdict-level" not in answer_of(html)


@pytest.mark.parametrize(("players", "order"), [("4", "北 → 东 → 南"), ("3", "东 → 南")])
def test_bazhi_play_order_wraps_round_the_table_at_four_and_at_three(client, players, order):
    """W discards: E comes first (after N at four; at once at three, W's 下家 being E), then S."""
    html = page(client, {**BAZHI, "players": players, "discarder": "W", "S_hand": B1, "E_hand": TONGTIAN})
    answer = settled(answer_of(html))
    assert (answer["winner"], [c[0] for c in answer["claims"]]) == ("E", ["E", "S"])
    assert f"出牌顺序 {order}" in html


def test_bazhi_at_three_the_taking_win_pays_as_at_three(client):
    """S discards 8m at three: W (the 下家) takes it, 14 from E (dealer) and S; E's 通天 would have paid 20."""
    html = page(client, {**BAZHI, "players": "3", "discarder": "S", "E_hand": TONGTIAN, "W_hand": B1})
    answer = settled(answer_of(html))
    assert (answer["winner"], answer["nets"]) == ("W", {"E": -7, "S": -7, "W": 14})
    other = re.search(r'data-other-claim="E".*?</section>', html, re.S).group(0)
    assert 'data-strip-seat="E" data-strip-net="20"' in other


def test_at_three_the_page_has_no_north_and_a_link_naming_it_is_refused(client):
    fields = {**BAZHI, "players": "3", "discarder": "S", "E_hand": TONGTIAN, "W_hand": B1}
    html = page(client, fields)
    assert re.findall(r'data-claim-panel="([ESWN])"', html) == ["E", "S", "W"]
    assert 'name="discarder" value="N"' not in html
    refused = answer_of(page(client, {**fields, "N_hand": B1.replace("79m", "78m")}))
    assert 'data-error="bad_claim"' in refused  # a table of three takes two claims at most
    north = answer_of(page(client, {**fields, "discarder": "N"}))
    assert 'data-error="bad_seat" data-field="discarder"' in north


# ----------------------------------------------------------------------------------------------- entering, errors


def test_an_empty_page_says_what_to_enter(client):
    html = page(client, {})
    assert 'data-claims="empty"' in html
    assert re.findall(r'data-claim-panel="([ESWN])"', html) == ["E", "S", "W", "N"]


def test_what_is_still_missing_is_listed(client):
    html = answer_of(page(client, {"ruleset": "xinyu", "caishen": "5p", "S_hand": "123m"}))
    assert 'data-claims="progress"' in html
    assert re.findall(r"<li>(.*?)</li>", html) == ["点一下打出的那张牌。", "选放铳家。", "南: 还差 10 张"]


def test_a_fifth_copy_among_the_claims_is_an_error(client):
    html = answer_of(page(client, {**BAZHI, "discarder": "W", "S_hand": B1, "N_hand": B1}))
    assert 'data-error="bad_claim"' in html and "1p" in html


def test_an_error_in_one_claim_is_shown_at_that_claimants_field(client):
    html = answer_of(page(client, {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": "1113456789s22sX"}, "en"))
    assert 'data-error="bad_tile" data-field="N_hand"' in html
    assert "<strong>North · Hand (concealed tiles before the win)</strong>" in html


def test_the_discarder_cannot_claim(client):
    html = answer_of(page(client, {**XINYU, "discarder": "S", "S_hand": PLAIN}))
    assert 'data-error="bad_seat" data-field="discarder"' in html


# ----------------------------------------------------------------------------------------------- htmx and the link


def test_the_partial_is_the_pages_answer_and_the_address_becomes_the_share_link(client):
    fields = {**XINYU, "discarder": "E", "S_hand": PLAIN, "N_hand": QINGYISE}
    response = partial(client, fields)
    body = response.content.decode()
    assert "<form" not in body
    assert answer_of(page(client, fields)).split() == body.split()
    replaced = urlsplit(response.headers["HX-Replace-Url"])
    assert replaced.path == reverse("claims")
    assert parse_qs(replaced.query) == {key: [value] for key, value in fields.items()}


def test_the_share_link_round_trips(client):
    """Every field is in the link, in a fixed order: opened again, the same answer and the same link."""
    fields = {
        **XINYU,
        "house_wulong": "total",
        "discarder": "W",
        "S_hand": "123m456m789s2s",
        "S_meld1": "pung",
        "S_meld1_tiles": "EEE",
        "S_meld1_from": "N",
        "S_flags": "liable_caishen",
        "N_hand": PLAIN_2,
        "name_N": "小北",
    }
    html = answer_of(page(client, fields))
    share = unescape(re.search(r'<input id="share-url" type="url" readonly value="([^"]+)"', html).group(1))
    query = urlsplit(share).query
    assert parse_qs(query) == {key: [value] for key, value in fields.items()}
    again = answer_of(page(client, dict(parse_qs(query))))
    assert settled(again) == settled(html)
    assert claims_query(parse_claims(Fields.of(query))) == query


def test_the_form_without_javascript_is_a_get_of_the_same_fields(client):
    html = page(client, {})
    form = re.search(r'<form id="claims"[^>]*>', html).group(0)
    assert 'method="get"' in form and f'action="{reverse("claims")}"' in form
    for name in ("tile", "discarder", "dealer", "E_hand", "E_meld1", "E_meld1_tiles", "E_meld1_from", "name_E"):
        assert f'name="{name}"' in html, name
    assert '<button type="submit" class="btn-primary">' in html


def test_the_calculator_links_to_the_page(client):
    html = client.get(reverse("calculator")).content.decode()
    assert f'<p class="reading-link"><a href="{reverse("claims")}">几家都要胡？</a></p>' in html


def test_the_rules_page_links_each_game_to_the_page(client):
    html = client.get(reverse("rules")).content.decode()
    assert f'href="{reverse("claims")}?ruleset=xinyu"' in html and f'href="{reverse("claims")}?ruleset=bazhi"' in html


def test_a_house_rule_of_the_card_changes_what_the_taking_win_pays(client):
    """HX9's 混一色 without 财神 as a claim on W's E: P 14 by the card; under wulong=total, P 12."""
    fields = {"ruleset": "xinyu", "caishen": "P", "dealer": "E", "tile": "E", "discarder": "W"}
    fields["S_hand"] = "123m456m789m11mEE"
    assert settled(page(client, fields))["nets"]["S"] == 28
    assert settled(page(client, {**fields, "house_wulong": "total"}))["nets"]["S"] == 24


def fields_of(url: str) -> dict:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query).items()}


def test_a_link_with_a_tile_and_hands_opens_with_its_answer_scored(client):
    url = f"{reverse('claims')}?{urlencode({**BAZHI, 'discarder': 'W', 'S_hand': B1})}"
    answer = settled(client.get(url).content.decode())
    assert answer["winner"] == "S" and answer["reason_code"] == "only_winner"
    assert fields_of(url)["S_hand"] == B1
