"""One minus sign on every page (issue 21 §5, shared decision 1): a negative number is written with U+2212 ("−7",
from presentation/words.py's `signed`), zero is "0" (never "+0" or "−0"), in both languages; the CSV and the JSON
keep ASCII "-7", which spreadsheets and programs read as numbers.

The pages hold negative numbers of every kind: a hand's nets, a 底 table's 交 paid outside, an ordinary xinyu
table's running balances, the chart of totals and its scale, the rules page's examples, the trainer's answers.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from tests.ledger.client import Api

pytestmark = pytest.mark.django_db

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
JIAO = {  # 东 self-draws 交: each of the others pays 40 outside the 底
    "hand": "5558889m",
    "win_tile": "9m",
    "winner": "E",
    "melds": [{"type": "pung", "tiles": "CCC", "from": "S"}, {"type": "pung", "tiles": "222m", "from": "W"}],
}
XINYU = {"options": {"caishen": "5p"}, "hand": "123456789m115pE", "win_tile": "E", "winner": "S", "discarder": "W"}

HYPHEN_MINUS = re.compile(r"(?:^|[\s(（:：,，·>])-\d")  # "-7" as a number, not "1-2" or a word's hyphen
SIGNED_ZERO = re.compile(r"[+−-]0(?![\d.])")


def text_of(page: str) -> str:
    """What a page shows: its text without scripts, styles and tags (an SVG's <text> included), entities read."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def pages(client) -> dict[str, str]:
    jiao = Api(client, {"ruleset": "bazhi"})
    jiao.ok("hands", JIAO)
    jiao.ok("hands", {k: v for k, v in B1.items() if k not in ("ruleset", "dealer")})
    ordinary = Api(client, {"ruleset": "xinyu", "stake": None})
    ordinary.ok("hands", XINYU)
    waits = {k: v for k, v in B1.items() if k != "win_tile"}
    found = {
        "result": "/?" + urlencode(B1),
        "waits": "/?" + urlencode(waits),
        "rules": "/rules/",
        "trainer (who pays)": "/trainer/?" + urlencode({"seed": 12345, "kind": "pay"}),
        "bound calculator": "/?" + urlencode({"table": jiao.id, "token": jiao.token, **B1}),
    }
    for name, api in (("bazhi table", jiao), ("xinyu ordinary table", ordinary)):
        found[f"{name} (edit)"] = f"/tables/{api.id}/edit/{api.token}/"
        found[f"{name} (read-only)"] = f"/tables/{api.id}/"
    found["record preview"] = f"/tables/{jiao.id}/edit/{jiao.token}/record/?" + urlencode(
        {k: v for k, v in B1.items() if k != "dealer"}
    )
    return {**found, "_tables": (jiao, ordinary)}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_every_page_writes_a_negative_number_with_the_minus_sign_and_zero_as_0(client, pages, lang):
    client.cookies["django_language"] = lang
    seen_minus = 0
    for name, path in pages.items():
        if name.startswith("_"):
            continue
        response = client.get(path, follow=True)
        assert response.status_code == 200, (name, response.status_code)
        shown = text_of(response.content.decode())
        hyphens = [shown[max(0, m.start() - 20) : m.end() + 5] for m in HYPHEN_MINUS.finditer(shown)]
        assert hyphens == [], (name, hyphens)
        zeros = [shown[max(0, m.start() - 20) : m.end() + 5] for m in SIGNED_ZERO.finditer(shown)]
        assert zeros == [], (name, zeros)
        seen_minus += shown.count("−")
    assert seen_minus > 20  # the pages do show negative numbers


def test_the_tables_negative_numbers_on_its_page_and_in_its_files(client, pages):
    """The page: −40 outside, −67 a total; the CSV and the JSON: ASCII -40 and -67."""
    jiao, ordinary = pages["_tables"]
    page = text_of(client.get(f"/tables/{jiao.id}/").content.decode())
    assert "−40" in page and "−67" in page
    page = text_of(client.get(f"/tables/{ordinary.id}/").content.decode())
    assert re.search(r"−\d", page)
    csv = client.get(f"/tables/{jiao.id}/export.csv").content.decode()
    assert "−" not in csv and ",-40," in csv
    api = client.get(f"/api/tables/{jiao.id}").content.decode()
    assert "−" not in api and "-67" in api
