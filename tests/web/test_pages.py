"""The calculator page and the rules page through Django's test client (no browser, no JavaScript)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from calculator.engine.rulesets import RULESETS, SERVED
from calculator.templatetags.page_data import page_data
from tests.web.fields import B1

CASES = Path(__file__).resolve().parents[1] / "cases" / "bazhi.json"


def nets(html: str) -> dict[str, int]:
    return {seat: int(net) for seat, net in re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html)}


def text(response) -> str:
    return response.content.decode()


def test_b1_is_the_case_file():
    case = next(c for c in json.loads(CASES.read_text()) if c["name"].startswith("B1 "))
    assert case["request"]["hand"] == B1["hand"] and case["request"]["win_tile"] == B1["win_tile"]
    assert case["expect"]["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_empty_page_has_the_contract_fields(client):
    response = client.get(reverse("calculator"))
    assert response.status_code == 200
    html = text(response)
    for name, values in {
        "ruleset": ["bazhi", "xinyu"],
        "tariff": ["315", "525"],
        "winner": list("ESWN"),
        "dealer": list("ESWN"),
        "discarder": ["", *"ESWN"],
    }.items():
        for value in values:
            assert re.search(rf'<input type="radio" name="{name}" value="{value}"', html), (name, value)
    keys = set(re.findall(r'data-tile="([^"]+)"', html))
    assert {"1m", "9m", "1p", "9p", "1s", "9s", "C", "E", "F", "P"} <= keys and len(keys) == 34
    assert "data-win" not in html  # nothing entered, no verdict
    assert "Content-Security-Policy" in response.headers
    assert "<script>" not in html and " style=" not in html and "hx-on" not in html


def test_no_js_post_of_b1_redirects_to_the_share_link_and_shows_south_plus_19(client):
    response = client.post(reverse("calculator"), B1)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert parse_qs(urlsplit(location).query)["hand"] == ["111345789p79m55s"]
    page = client.get(location)
    html = text(page)
    assert 'data-win="true"' in html
    assert nets(html) == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert "+19" in html
    assert "支番" in html and "压档" in html  # the explanation lines


def test_post_follow_shows_the_result(client):
    page = client.post(reverse("calculator"), B1, follow=True)
    assert page.status_code == 200
    assert nets(text(page))["S"] == 19


def test_htmx_request_gets_only_the_result_partial_and_the_canonical_url(client):
    response = client.get(reverse("calculator"), {**B1, "csrfmiddlewaretoken": "x"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = text(response)
    assert "<html" not in html and 'id="calc"' not in html
    assert 'data-win="true"' in html and nets(html)["S"] == 19
    replaced = response.headers["HX-Replace-Url"]
    assert "csrfmiddlewaretoken" not in replaced
    assert parse_qs(urlsplit(replaced).query)["win_tile"] == ["8m"]


def test_share_link_round_trip(client):
    first = client.get(reverse("calculator"), {**B1, "multi_jiao": "on", "name_S": "小南"})
    share = re.search(r'id="share-url" type="url" readonly value="([^"]+)"', text(first)).group(1)
    share = share.replace("&amp;", "&")
    query = urlsplit(share).query
    assert parse_qs(query)["name_S"] == ["小南"] and parse_qs(query)["multi_jiao"] == ["on"]
    second = client.get(f"{reverse('calculator')}?{query}")
    html = text(second)
    assert nets(html) == nets(text(first)) == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert 'value="111345789p79m55s"' in html  # the form is filled in again
    assert re.search(r'name="winner" value="S"[^>]*checked', html)
    assert "小南" in html


def test_waits_of_a_13_tile_hand(client):
    query = {**B1}
    del query["win_tile"]
    html = text(client.get(reverse("calculator"), query))
    assert 'data-win="false"' in html and 'data-waits="1"' in html
    assert 'data-wait="8m"' in html
    assert "+19" in html  # the discard line (from South's next player, West) pays what B1 pays


def test_a_wait_won_only_by_self_draw_says_why_in_place_of_the_discard(client):
    """Four 财神 and no shape win by self-draw only (RULES.md §2.2): each wait's discard is null in the answer and
    the page says why in its place."""
    query = {"ruleset": "xinyu", "caishen": "5p", "hand": "5555p138m26sESNC", "winner": "S", "dealer": "E"}
    html = text(client.get(reverse("calculator"), query))
    assert 'data-waits="33"' in html
    assert html.count('data-how="self_draw"') == 33 and 'data-how="discard"' not in html
    assert html.count('<p class="wait-row wait-no">4龙只能自摸胡') == 33


def test_not_a_win_says_why(client):
    html = text(client.get(reverse("calculator"), {**B1, "hand": "111345789p79m55s".replace("345", "355")}))
    assert 'data-win="false"' in html


def test_no_bazhi_shows_the_suit_counts(client):
    html = text(client.get(reverse("calculator"), {**B1, "hand": "123m456p789s11m99p", "win_tile": "9p"}))
    assert 'data-win="false"' in html and 'data-code="no_bazhi"' in html
    assert "不够八支" in html


@pytest.mark.parametrize(
    "change, expect",
    [
        ({"hand": "1111345789p79m5"}, "bad_tile"),
        ({"hand": "11111345789p79m"}, "too_many_copies"),
        ({"flags": "kong_bloom", "discarder": ""}, "flag_conflict"),
        ({"hand": "111345789p79m55s", "win_tile": "E"}, "tile_not_in_ruleset"),
    ],
)
def test_engine_errors_are_shown_not_500(client, change, expect):
    response = client.get(reverse("calculator"), {**B1, **change})
    assert response.status_code == 200
    assert f'data-error="{expect}"' in text(response)


def test_form_errors_are_shown_not_500(client):
    response = client.get(reverse("calculator"), {**B1, "ruleset": "mahjong", "winner": "X"})
    assert response.status_code == 200
    assert 'role="alert"' in text(response)
    post = client.post(reverse("calculator"), {**B1, "discarder": "S"})
    assert post.status_code == 400 and 'role="alert"' in text(post)


def test_progress_while_tapping(client):
    html = text(client.get(reverse("calculator"), {**B1, "hand": "111p", "win_tile": ""}))
    assert 'id="progress"' in html and "data-win" not in html


def test_flags_that_cannot_apply_are_disabled_with_a_reason(client):
    html = text(client.get(reverse("calculator"), B1))  # a discard win
    assert re.search(r'value="kong_bloom"[^>]*disabled', html)
    assert re.search(r'id="why-kong_bloom">须自摸', html)
    assert not re.search(r'value="robbing_kong"[^>]*disabled', html)
    self_draw = text(client.get(reverse("calculator"), {**B1, "discarder": ""}))
    assert re.search(r'id="why-kong_bloom">须有一个杠', self_draw)
    assert re.search(r'id="why-heavenly">只有庄家能胡', self_draw)
    assert not re.search(r'value="last_tile"[^>]*disabled', self_draw)


def test_english_page(client):
    client.cookies["django_language"] = "en"
    html = text(client.get(reverse("calculator"), B1))
    assert '<html lang="en">' in html
    assert "Who pays whom" in html and "South wins on West" in html
    assert nets(html)["S"] == 19


def test_chinese_is_the_default(client):
    html = text(client.get(reverse("calculator"), B1))
    assert '<html lang="zh-hans">' in html
    assert "谁付给谁" in html and "南胡，西放铳" in html


def test_the_headline_keeps_the_winner_and_the_discarder_apart_when_they_have_names(client):
    """At a table the seats carry names: "北 · 北北胡东 · 阿东放铳" read as one run. The comma keeps them apart."""
    html = text(client.get(reverse("calculator"), {**B1, "name_S": "小南", "name_W": "老西"}))
    assert "南 · 小南胡，西 · 老西放铳" in html


def test_language_switch_keeps_the_hand(client):
    url = f"{reverse('calculator')}?{urlencode(B1)}"
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302 and response.headers["Location"] == url
    assert "Who pays whom" in text(client.get(url))


def test_rules_page_lists_patterns_and_every_reading(client):
    html = text(client.get(reverse("rules")))
    rules_md = Path("/work/shared/RULES.md")
    readings = html.count('<li><strong lang="zh-Hans">')
    assert readings == sum(len(ruleset.readings) for ruleset in RULESETS.values())  # every game's, listed
    served = sum(len(RULESETS[game].readings) for game in SERVED)
    # RULES.md marks 22 readings (its introduction mentions the marker once more), every one served
    assert served == 22
    if rules_md.exists():
        assert rules_md.read_text().count("**[reading]**") - 1 == served
    for name in (
        "压档",
        "对对胡",
        "通天",
        "四核",
        "混一色",
        "清一色",
        "双八支",
        "七风齐",
        "十三不搭",
        "全风向",
        "底龙",
    ):
        assert name in html
    assert html.count('class="tile tile-s"') > 40  # example tiles


def test_rules_page_names_each_pattern_once_in_chinese(client):
    # The English gloss is for English readers; in Chinese it only repeated the name ("支数 支数 S").
    chinese = client.get(reverse("rules")).content.decode()
    english = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "支数 S" not in chinese
    assert "Suit count S" in english


def test_the_data_for_the_pages_script_is_written_in_utf8_and_still_cannot_close_its_element(client):
    """json_script wrote 番价 as \\u756a\\u4ef7 (six bytes a character): the calculator page's data is mostly
    Chinese, and its first load has a budget (tests/browser/test_speed.py). The escapes that keep the element
    whole stay: a name with </script> in it cannot end it."""
    html = text(client.get(reverse("calculator"), B1))
    data = re.search(r'<script id="calc-rulesets" type="application/json">(.*?)</script>', html, re.S).group(1)
    assert "番价" in data and "\\u756a" not in data
    assert json.loads(data)[0]["options"][0]["label"] == {"zh": "番价"}
    written = page_data({"name": "</script><b>&"}, "x")
    assert "</script><b>" not in written.removesuffix("</script>") and json.loads(
        re.search(r">(.*)</script>$", written).group(1)
    ) == {"name": "</script><b>&"}
