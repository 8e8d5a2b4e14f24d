"""Two lines of the result card (issue 29): a xinyu win names its 拦胡 level (RULES.md §2.5: the level at which it
would take a discard others claim too), bazhi's none (§1.1: no levels); and each other reading of the rule card
(§5.3) says how it comes to its numbers, in the arithmetic of the game's headline (HX9: P 14 → 12)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.fields import B1, X1

QINGYISE = {**X1, "indicator": "", "caishen": "5p", "hand": "11134567899s22s", "win_tile": "2s"}
# HX9: 混一色 with no 财神, discarded by W: 2 + 1 = 3 龙, P = 14; house rule wulong=total reads 1 龙, P = 12
HX9 = {**X1, "indicator": "", "caishen": "P", "hand": "123m456m789m11mEE", "win_tile": "E"}
# HX11: four 财神 with a legal shape by discard: 4 龙, P = 15; silong_discard=with_shape adds 20: 24 龙, P = 35
HX11 = {**X1, "indicator": "", "caishen": "5p", "hand": "5555p123m456s78s9m", "win_tile": "9m"}


def card(client, fields: dict, lang: str = "zh") -> str:
    headers = {"HX-Request": "true", "Accept-Language": "en" if lang == "en" else "zh-hans"}
    return client.get(reverse("calculator"), fields, headers=headers).content.decode()


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def level_line(html: str) -> str:
    match = re.search(r'<span class="verdict-level" data-level="(\d)">(.*?)</span></p>', html)
    assert match, "no level line"
    return f"{match.group(1)}: {text(match.group(2))}"


@pytest.mark.parametrize(
    ("fields", "lang", "said"),
    [
        (QINGYISE, "zh", "1: 拦胡级别 1 · 清一色 §2.5"),
        (QINGYISE, "en", "1: Claim level 1 · Pure one suit §2.5"),
        (X1, "zh", "0: 拦胡级别 0 · 普通胡牌 §2.5"),
    ],
)
def test_a_xinyu_win_names_its_claim_level(client, fields, lang, said):
    assert level_line(card(client, fields, lang)) == said


def test_the_level_links_to_the_games_claims_rule(client):
    assert 'href="/rules/#claims-xinyu">§2.5</a>' in card(client, QINGYISE)


def test_a_self_drawn_win_has_no_level(client):
    """The level says which claim takes a discard (RULES.md §2.5): a self-drawn win takes none, and "拦胡级别 0"
    beside it was noise (the phone audit)."""
    html = card(client, {**QINGYISE, "discarder": ""})
    assert 'data-win="true"' in html and "verdict-level" not in html


def test_a_bazhi_win_has_no_level(client):
    html = card(client, B1)
    assert 'data-win="true"' in html and "verdict-level" not in html


def arithmetic(html: str, key: str) -> str:
    row = re.search(rf'<li class="alt" data-alt="{re.escape(key)}".*?</li>', html, re.S)
    assert row, f"no reading {key}"
    found = re.search(r"data-alt-arithmetic>(.*?)</span>", row.group(0))
    return found.group(1) if found else ""


def test_wulong_read_as_no_long_at_all_says_p_12_where_the_card_pays_14(client):
    html = card(client, HX9)
    assert "<span>P = 14</span>" in html
    assert arithmetic(html, "wulong=total") == "龙（合计） 0 + 1 = 1 · P（每份） 11 + 1 = 12"


def test_silong_discard_with_a_shape_says_p_35(client):
    html = card(client, HX11, "en")
    assert "<span>P = 15</span>" in html
    assert arithmetic(html, "silong_discard=with_shape") == "龙 (total) 4 + 20 = 24 · P (one share) 11 + 24 = 35"


def test_a_bazhi_reading_says_its_fan(client):
    """HB1: 1113m123456789p won on 2m; with 压档 on the middle tile alone, 支番 (9 + 2) × 2 ÷ 10 = 2: F 6."""
    fields = {**B1, "hand": "1113m123456789p", "win_tile": "2m"}
    assert arithmetic(card(client, fields, "en"), "yadang_wait=any").startswith("fan (each loser) (2 + 1 × 2) + 2 = 6")


# ------------------------------------------------------------------------------------------- the rules page


def rules_page(client, lang: str = "zh") -> str:
    headers = {"Accept-Language": "en" if lang == "en" else "zh-hans"}
    return client.get(reverse("rules"), headers=headers).content.decode()


def test_the_rules_page_says_who_takes_a_discard_in_each_game(client):
    """xinyu: 拦胡 levels, 全风向 over 单吊 · 清一色 · 清七对 over an ordinary win (§2.5); bazhi: play order (§1.1)."""
    html = rules_page(client)
    xinyu = re.search(r'<div class="claims-rule" id="claims-xinyu".*?</div>', html, re.S).group(0)
    assert "§2.5" in xinyu and "小的不能拦大的" in xinyu
    levels = re.findall(r'<li data-claim-level="(\d)">(.*?)</li>', xinyu)
    assert levels == [("2", "级别 2: 全风向"), ("1", "级别 1: 单吊、清一色、清七对"), ("0", "级别 0: 普通胡牌")]
    bazhi = re.search(r'<div class="claims-rule" id="claims-bazhi".*?</div>', html, re.S).group(0)
    assert "§1.1" in bazhi and "无一炮多响" in bazhi and "data-claim-level" not in bazhi


def test_the_rules_page_scores_the_two_new_house_rules_both_ways_with_their_arithmetic(client):
    html = rules_page(client, "en")
    for rule in ("wulong", "silong_discard"):
        entry = re.search(
            rf'<li class="house-rule" id="house-xinyu-{rule}".*?</li>\s*(?=<li class="house-rule"|</ul>)', html, re.S
        )
        assert entry, rule
        assert len(re.findall(r"data-arithmetic>", entry.group(0))) == 2, rule  # the default and the other value
    wulong = re.search(r'id="house-xinyu-wulong".*?</table>', html, re.S).group(0)
    assert "P (one share) 11 + 3 = 14" in wulong and "P (one share) 11 + 1 = 12" in wulong


def test_the_rules_page_lists_the_readings_of_who_takes_a_discard_and_of_the_wild_tiles(client):
    """RULES.md §1.1 (截胡 by play order), §2.1 (无龙算2龙), §2.2 (4龙 by self-draw only) are readings."""
    html = rules_page(client)
    readings = re.search(r'<ol class="readings">.*?</ol>', html, re.S).group(0)
    for name, where in (("截胡", "§1.1"), ("无龙算2龙", "§2.1"), ("4龙", "§2.2")):
        assert f'<strong lang="zh-Hans">{name}</strong> <span class="where">{where}</span>' in readings
