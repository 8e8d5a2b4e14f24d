"""Issue 14 §3: no English left in the Chinese pages (and the CSV), and an English page that explains its Chinese
terms where it first uses them (the glossary)."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from calculator.engine.rulesets import RULESETS
from calculator.presentation.handquery import HandInput, query_string
from tests.games.examples import hand_body, hands, table_body
from tests.ledger.client import Api
from tests.web.fields import B1, X1

pytestmark = pytest.mark.django_db

# What may stay in Latin letters on a Chinese page: tile notation (111345789p, 8m, CCC, +9m, +E), a rule card's
# version (v1), a section of a game's own rules written with a letter (§T.1), the names of formats, and what the
# language switch says in its own language (lang="en").
ALLOWED = re.compile(
    r"^(?:[+]?(?:\d+[mps])+[ESWNCFP]*|[+]?[ESWNCFP]+|[A-Za-z]|v\d+|[A-Z](?:\.\d+)+|CSV|JSON|JavaScript|QR)$"
)
WORD = re.compile(r"[\w+.'’-]*[A-Za-z][\w+.'’-]*")


class VisibleText(HTMLParser):
    """The words a reader meets: text nodes (not scripts, styles or what is marked lang="en") and the texts of
    alt, aria-label, title and placeholder attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.skipping: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        english = attributes.get("lang", "").startswith("en")
        if tag in ("script", "style") or english:
            self.skipping.append(tag)
        if tag not in ("input", "img", "meta", "link", "br", "hr", "source", "use", "view", "path", "circle", "rect"):
            self.stack.append((tag, tag in ("script", "style") or english))
        if not self.skipping:
            for name in ("alt", "aria-label", "title", "placeholder"):
                if attributes.get(name):
                    self.words.append(attributes[name])

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, skipped = self.stack.pop()
            if skipped and self.skipping:
                self.skipping.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.words.append(data.strip())


def english_in(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    found = []
    for text in parser.words:
        for word in WORD.findall(text):
            if not ALLOWED.match(word.strip(".")):
                found.append(f"{word!r} in {text[:80]!r}")
    return found


@pytest.fixture
def pages(client):
    """Every page in Chinese, with content: both games' results, waits, an error, tables of both games with hands."""
    bazhi = Api(client, {"ruleset": "bazhi", "stake": 5000})
    bazhi.ok("hands", {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"})
    bazhi.ok(
        "hands",
        {
            "hand": "5558889m",
            "win_tile": "9m",
            "winner": "E",
            "melds": [{"type": "pung", "tiles": "CCC", "from": "S"}, {"type": "pung", "tiles": "222m", "from": "W"}],
        },
    )
    bazhi.ok(  # 杠后开花 with a concealed kong, and 包牌 in the next one: the CSV writes both in words
        "hands",
        {
            "hand": "111345p79m55s",
            "win_tile": "8m",
            "winner": "S",
            "melds": [{"type": "kong_concealed", "tiles": "9999p"}],
            "flags": ["kong_bloom"],
        },
    )
    bazhi.ok(
        "hands",
        {
            "hand": "9p",
            "win_tile": "9p",
            "winner": "E",
            "discarder": "N",
            "melds": [
                {"type": "pung", "tiles": "111p", "from": "S"},
                {"type": "pung", "tiles": "333p", "from": "S"},
                {"type": "pung", "tiles": "555p", "from": "S"},
                {"type": "pung", "tiles": "777p", "from": "W"},
            ],
        },
    )
    xinyu = Api(client, {"ruleset": "xinyu"})
    xinyu.ok("hands", {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "E"})
    xinyu.ok("draw")
    paths = {
        "calculator": "/",
        "bazhi result": "/?" + urlencode(B1),
        "xinyu result": "/?" + urlencode(X1),
        "waits": "/?" + urlencode({**B1, "win_tile": ""}),
        "error": "/?" + urlencode({**B1, "hand": "111345789p79m5x"}),
        "other readings": "/?" + urlencode({**B1, "hand": "1113m123456789p", "win_tile": "2m"}),
        "rules": "/rules/",
        "new table": "/tables/new/",
        "my tables": "/tables/",
    }
    for game in RULESETS:  # every registered game: its first worked hand as a result and at a table
        hand = hands(game)[0]
        paths[f"{game} worked hand"] = "/?" + query_string(HandInput(hand["request"], {}))
        table = Api(client, table_body(game, hand))
        table.ok("hands", hand_body(game, hand))
        paths[f"{game} worked table"] = f"/tables/{table.id}/edit/{table.token}/"
    for api in (bazhi, xinyu):
        edit = f"/tables/{api.id}/edit/{api.token}/"
        paths[f"{api.created['ruleset']} table"] = edit
        paths[f"{api.created['ruleset']} table, read-only"] = f"/tables/{api.id}/"
        paths[f"{api.created['ruleset']} record"] = edit + "record/?" + urlencode({k: v for k, v in B1.items()})
        paths[f"{api.created['ruleset']} bound calculator"] = "/?" + urlencode({"table": api.id, "token": api.token})
    return {"bazhi": bazhi, "xinyu": xinyu, "paths": paths}


def test_no_english_left_in_the_chinese_pages(client, pages):
    found = {}
    for name, path in pages["paths"].items():
        response = client.get(path, headers={"Accept-Language": "zh-CN"}, follow=True)
        assert response.status_code == 200, name
        english = english_in(response.content.decode())
        if english:
            found[name] = english
    assert found == {}


def test_no_english_left_in_the_chinese_csv(client, pages):
    for api in (pages["bazhi"], pages["xinyu"]):
        text = client.get(f"/tables/{api.id}/export.csv", headers={"Accept-Language": "zh-CN"}).content.decode()
        cells = [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for cell in row]
        english = [cell for cell in cells for word in WORD.findall(cell) if not ALLOWED.match(word.strip("."))]
        assert english == [], api.created["ruleset"]
    written = client.get(f"/tables/{pages['bazhi'].id}/export.csv", headers={"Accept-Language": "zh-CN"})
    assert "暗杠 9999p" in written.content.decode() and "杠后开花" in written.content.decode()


def test_the_rules_page_lists_every_term_of_both_games_and_the_shared_ones(client):
    from calculator.presentation.glossary import SHARED, terms

    words = {w for r in RULESETS.values() for w in r.declared.texts.get("glossary", {})} | set(SHARED)
    assert {"底", "交", "嘴", "龙", "庄", "冲击"} <= words
    for lang, cookie in (("zh", "zh-hans"), ("en", "en")):
        client.cookies["django_language"] = cookie
        html = client.get("/rules/").content.decode()
        listed = re.findall(r'<dt lang="zh-Hans">([^<]+)</dt><dd>([^<]+)</dd>', html)
        assert {word for word, _ in listed} == words
        for term in terms(lang):
            assert term.meaning and (term.pinyin if lang == "en" else not term.pinyin), term
    assert dict(listed)["交"].startswith("jiao: ")


def test_an_english_page_carries_the_glossary_and_a_chinese_page_does_not(client):
    assert 'id="glossary-data"' not in client.get("/", headers={"Accept-Language": "zh-CN"}).content.decode()
    client.cookies["django_language"] = "en"
    assert '<script id="glossary-data" type="application/json">' in client.get("/").content.decode()
