"""The rules page says xinyu's 龙 bonuses with the numbers the score adds (declarations.toml `numbers`), in both
languages (the page renders `Pattern.value`, written from them when the declarations are read)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from calculator.engine.rulesets.xinyu.declarations import LONG, SILONG_MORE_WITH_SHAPE


def shown_values(client, lang: str) -> dict[str, str]:
    page = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    rows = re.findall(r'id="pattern-xinyu-(\w+)".*?<span class="pattern-value">(.*?)</span>', page, re.S)
    return {code: html.unescape(value) for code, value in rows}


@pytest.mark.parametrize(
    ("lang", "qifengqi", "silong"),
    [("zh-hans", "再 +{}", "+{}（成牌型再 +{}）"), ("en", "+{} more", "+{} (+{} more with a legal shape)")],
)
def test_the_rules_page_shows_each_bonus_with_the_long_the_score_adds(client, lang, qifengqi, silong):
    shown = shown_values(client, lang)
    plain = {code: f"+{long}" for code, long in LONG.items() if code not in ("qifengqi", "silong")}
    assert {code: shown[code] for code in LONG} == {
        **plain,
        "qifengqi": qifengqi.format(LONG["qifengqi"]),
        "silong": silong.format(LONG["silong"], SILONG_MORE_WITH_SHAPE),
    }
    assert (shown["qingyise"], shown["quanfeng"], shown["silong"][:3]) == ("+10", "+50", "+10")
