"""The result card (calculator.presentation.cards and jinja2/result.html): the same card on the page and in the htmx
partial, progress while tiles are still missing, and the hand read once (by the engine) per answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from calculator.presentation import cards, tiles
from calculator.presentation.handquery import HandInput, query_string
from tests.web.fields import B1, X1

CASES = Path(__file__).resolve().parents[1] / "cases" / "bazhi.json"


def partial(client, fields: dict) -> str:
    return client.get(reverse("calculator"), fields, headers={"HX-Request": "true"}).content.decode()


def card_of_page(html: str) -> str:
    """The #result div of a whole page: everything between its opening tag and the extras after it."""
    start = html.index('<div id="result" class="result">') + len('<div id="result" class="result">')
    return html[start : html.index('<div class="extras">')].rsplit("</div>", 2)[0]


def strip_of_page(html: str) -> str:
    start = html.index('<div id="strip" class="strip" role="status" aria-atomic="true">')
    start = html.index(">", start) + 1
    return html[start : html.index('<div class="inputs">')].rsplit("</div>", 1)[0]


OOB_STRIP = '<div id="strip" hx-swap-oob="innerHTML">'


def split_partial(html: str) -> tuple[str, str]:
    """The partial's card, and the strip it sends out of band (swapped into the page's #strip)."""
    card, strip = html.split(OOB_STRIP)
    return card, strip.rsplit("</div>", 1)[0]


@pytest.mark.parametrize(
    "fields",
    [
        B1,
        {**B1, "win_tile": ""},  # waits
        {**B1, "hand": "123m456p789s11m99p", "win_tile": "9p"},  # not a win
        {**B1, "hand": "11111345789p79m"},  # an engine error
        {**B1, "hand": "111p", "win_tile": ""},  # progress
        X1,
        {**X1, "name_S": "<b>南</b>"},
    ],
)
def test_the_page_and_the_partial_show_the_same_card(client, fields):
    page = client.get(reverse("calculator"), fields).content.decode()
    card, strip = split_partial(partial(client, fields))
    assert card_of_page(page).split() == card.split()
    assert strip_of_page(page).split() == strip.split()


def test_tiles_still_missing_are_progress_even_before_the_wild_tile_is_chosen(client):
    """The engine refuses a xinyu hand without 财神 first (bad_option); five tiles tapped in are still progress."""
    html = partial(client, {**X1, "indicator": "", "hand": "12345m", "win_tile": ""})
    assert 'id="progress"' in html and "data-error" not in html
    assert "还差 8 张" in html


def test_nothing_entered_is_the_empty_card(client):
    html = partial(client, {**B1, "hand": "", "win_tile": ""})
    assert "verdict-empty" in html and "data-error" not in html


def test_a_full_hand_that_is_wrong_is_the_engines_error(client):
    html = partial(client, {**B1, "hand": "111345789p79m55s5s"})  # 15 tiles
    assert 'data-error="wrong_tile_count"' in html


def test_the_web_layer_does_not_read_the_hand_of_an_answered_request(client, monkeypatch):
    """The engine parses the hand; the card is drawn from its answer (groups, request echo)."""
    read = []
    original = tiles.parse_tiles
    for module in (tiles, cards):  # the presentation's readers of notation
        monkeypatch.setattr(module, "parse_tiles", lambda text: read.append(text) or original(text))
    tiles.group_tiles.cache_clear()
    html = partial(client, B1)
    assert 'data-win="true"' in html
    assert read and all(len(text) <= 4 for text in read), read  # the groups' tiles only, not the hand
    read.clear()
    html = partial(client, {**B1, "win_tile": ""})
    assert 'data-waits="1"' in html and all(len(text) <= 4 for text in read), read


def test_names_are_escaped_in_every_sentence(client):
    html = partial(client, {**B1, "name_S": "<b>南</b>", "name_W": "W'x"})
    assert "<b>南</b>" not in html
    assert re.search(r"&lt;b&gt;南&lt;/b&gt;", html)


def test_every_word_of_the_card_template_is_translated():
    """The card's fixed words are `_("…")` calls in jinja2/result.html: each is in the Chinese catalogue."""
    template = (Path(__file__).resolve().parents[2] / "jinja2" / "result.html").read_text()
    words = re.findall(r'_\("([^"]+)"\)', template)
    assert len(words) >= 15
    with translation.override("zh-hans"):
        assert [word for word in words if translation.gettext(word) == word] == []


def test_markup_lives_in_templates():
    """No module of the web layer writes HTML (template tags aside): the card's markup is jinja2/result.html."""
    package = Path(__file__).resolve().parents[2] / "calculator"
    tag = re.compile(r"""["'][^"'\n]*<(div|span|li|tr|td|img|a|p|strong|ul|dl|dt|dd|section)[\s>]""")
    offenders = []
    for module in package.rglob("*.py"):
        if "templatetags" in module.parts or "engine" in module.parts:
            continue
        text = module.read_text()
        if tag.search(text) or "format_html" in text or "SafeString" in text:
            offenders.append(module.name)
    assert offenders == []


def test_an_unreadable_tile_is_told_beside_its_field_in_the_pages_language(client):
    """The whole page (no JavaScript needed): the field marked invalid, the message in the element its
    aria-describedby names, in the page's words, not the API's ("hand 第 15 个字符")."""
    html = client.get(reverse("calculator"), {**B1, "hand": "111345789p79m5x"}).content.decode()
    field = re.search(r'<input [^>]*name="hand"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and "id_hand_error" in field
    beside = re.search(r'<div id="id_hand_error" class="invalid-feedback">(.*?)</div>', html, re.S).group(1)
    assert "第 15 个字符“x”无法识别，不是牌。" in beside
    assert "hand 第" not in html
    card = partial(client, {**B1, "hand": "111345789p79m5x"})
    assert 'data-field="hand"' in card and "第 15 个字符“x”无法识别，不是牌。" in card


def test_an_unreadable_tile_is_an_error_even_with_tiles_still_missing(client):
    card = partial(client, {**B1, "hand": "", "win_tile": "8x"})
    assert 'data-error="bad_tile"' in card and 'data-field="win_tile"' in card and 'id="progress"' not in card


@pytest.mark.parametrize(
    ("lang", "tagged", "untagged"),
    [
        ("zh-hans", '庄家多赔一份底番 <span class="tag tag-fan">番</span>', "<td>番</td>"),
        ("en", 'dealer pays one more base fan <span class="tag tag-fan">fan</span>', "<td>fan</td>"),
    ],
)
def test_a_payment_is_tagged_with_its_part_unless_its_reason_names_the_part(client, lang, tagged, untagged):
    """Every payment: "番" was followed by a tag 番 ("fan fan"); a reason that is its part's name stands alone."""
    html = client.get(
        reverse("calculator"), B1, headers={"HX-Request": "true", "Accept-Language": lang}
    ).content.decode()
    assert html.count(tagged) == 1
    assert html.count(untagged) == 3  # the base fan, from each of the three losers


@pytest.mark.parametrize(
    ("lang", "untagged", "tagged"),
    [
        (
            "zh-hans",
            "<td>包牌（代东家）：番</td>",
            '包牌（代东家）：庄家多赔一份底番 <span class="tag tag-fan">番</span>',
        ),
        (
            "en",
            "<td>liable (for East): fan</td>",
            'liable (for East): dealer pays one more base fan <span class="tag tag-fan">fan</span>',
        ),
    ],
)
def test_a_liable_payment_whose_reason_ends_with_its_part_is_not_tagged_again(client, lang, untagged, tagged):
    """B3 (包牌, RULES.md §1.6): the liable seat's base payment for East read "包牌（代东家）：番 番"; a reason that
    says more than its part keeps the tag."""
    case = next(c for c in json.loads(CASES.read_text()) if c["name"].startswith("B3"))
    page = reverse("calculator") + "?" + query_string(HandInput(case["request"], {}))
    html = client.get(page, headers={"HX-Request": "true", "Accept-Language": lang}).content.decode()
    assert html.count(untagged) == 1 and html.count(tagged) == 1


@pytest.mark.parametrize(
    ("hand", "win", "caishen", "zh", "en"),
    [
        ("12247m5sESWNCFP", "8s", "2m", "十三不搭", "Thirteen unrelated"),  # RULES.md §2.2.3 with two 财神
        ("EESSWWNNCCFFP", "E", "1m", "全风向", "All honours"),  # every tile an honour: no shape needed
        ("138m5555p26sESNC", "F", "5p", "4龙", "Four wild tiles"),  # four 财神, no shape: by self-draw
    ],
)
def test_a_hand_read_without_sets_is_labelled_by_its_shape_not_the_engines_word(client, hand, win, caishen, zh, en):
    """ "How the hand was read" labels each group; a hand read as one run of tiles (十三不搭, 全风向, 4龙) read
    "tiles · 胡的牌" in Chinese: the engine's type, in English, on the Chinese page."""
    query = {"ruleset": "xinyu", "caishen": caishen, "hand": hand, "win_tile": win, "winner": "W", "dealer": "E"}
    for lang in ("zh", "en"):
        with translation.override("en" if lang == "en" else "zh-hans"):
            html = client.get(reverse("calculator"), query, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        labels = re.findall(r'<span class="group-label">([^<]*)', html)
        assert labels and labels[0].startswith({"zh": zh, "en": en}[lang]), labels
