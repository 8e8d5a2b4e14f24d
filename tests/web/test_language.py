"""Issue 14 §3: no English left in the Chinese pages (and the CSV), and an English page that explains its Chinese
terms where it first uses them (the glossary)."""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from calculator.engine import score
from calculator.engine.claims import priority
from calculator.engine.rulesets import RULESETS
from calculator.presentation.handquery import HandInput, query_string
from calculator.presentation.trainer.questions import KINDS, Spec, question
from tests.games.examples import hand_body, hands, table_body
from tests.ledger.client import Api
from tests.web.fields import B1, X1
from tests.web.wording import glossary_terms, unexplained

pytestmark = pytest.mark.django_db

# What may stay in Latin letters on a Chinese page: tile notation (111345789p, 8m, CCC, +9m, +E), a rule card's
# version (v1), a section of a game's own rules written with a letter (§T.1), the names of formats, a size's unit
# (the offline offer's MB), and what the language switch says in its own language (lang="en").
ALLOWED = re.compile(
    r"^(?:[+]?(?:\d+[mps])+[ESWNCFP]*|[+]?[ESWNCFP]+|[A-Za-z]|v\d+|[A-Z](?:\.\d+)+|CSV|JSON|JavaScript|QR|MB)$"
)
WORD = re.compile(r"[\w+.'’-]*[A-Za-z][\w+.'’-]*")


class VisibleText(HTMLParser):
    """The words a reader meets: text nodes (not scripts, styles or what is marked as the other language: lang="en"
    on a Chinese page, lang="zh-Hans" on an English one) and the texts of alt, aria-label, title and placeholder
    attributes."""

    def __init__(self, other: str = "en") -> None:
        super().__init__()
        self.other = other
        self.words: list[str] = []
        self.skipping: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        english = attributes.get("lang", "").startswith(self.other)
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
        "who takes the discard": "/claims/",
        "who takes it, xinyu": "/claims/?" + urlencode(CLAIMS_XINYU),
        "who takes it, bazhi": "/claims/?" + urlencode(CLAIMS_BAZHI),
        "who takes it, an error": "/claims/?" + urlencode({**CLAIMS_BAZHI, "W_hand": "111345789p79m55s"}),
        "who takes it, still to enter": "/claims/?" + urlencode({"ruleset": "xinyu", "S_hand": "123m"}),
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
        paths[f"{api.created['ruleset']} bound claims"] = "/claims/?" + urlencode({"table": api.id, "token": api.token})
    return {"bazhi": bazhi, "xinyu": xinyu, "paths": paths}


# Who takes the discard (issue 29): xinyu's 清一色 over an ordinary win; bazhi's play order
CLAIMS_XINYU = {"ruleset": "xinyu", "caishen": "5p", "dealer": "E", "tile": "2s", "discarder": "E"}
CLAIMS_XINYU.update(S_hand="123m456m789sEEE2s", N_hand="11134567899s22s")
CLAIMS_BAZHI = {"ruleset": "bazhi", "dealer": "E", "tile": "8m", "discarder": "W"}
CLAIMS_BAZHI.update(S_hand="123456789s79m22p", N_hand="111345789p79m55s")


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


# ---------------------------------------------------------------------------------------------------------
# Issue 21 §2: no Chinese left in the English pages, except a word the page explains (tests/web/wording.py)

NAMES = {"E": "Alice", "S": "Bob", "W": "Carol", "N": "Dave"}  # Latin names: any Chinese on the page is the app's


def chinese_in(html: str, element_id: str | None = None) -> list[str]:
    """What an English page (or one of its elements) shows in Chinese that nothing explains."""
    if element_id is not None:
        html = element(html, element_id)
    parser = VisibleText(other="zh")
    parser.feed(html)
    terms = glossary_terms()
    return [f"{word} in {text[:90]!r}" for text in parser.words for word in unexplained(text, terms)]


def element(html: str, element_id: str) -> str:
    """The markup of the element with this id (to its matching end tag)."""
    start = html.index(f'id="{element_id}"')
    start = html.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", html[start:]).group(1)
    depth, at = 0, start
    for match in re.compile(rf"<(/?){tag}\b").finditer(html, start):
        depth += -1 if match.group(1) else 1
        at = match.end()
        if depth == 0:
            break
    return html[start : html.index(">", at) + 1]


ANSWERS = {"win": "win", "waits": "none", "pay": "0"}  # a claims question: one of its claimants' seats


@pytest.mark.parametrize("game", sorted(RULESETS))
@pytest.mark.parametrize("kind", KINDS)
def test_the_english_trainer_explains_every_kind_of_question_in_english(client, game, kind):
    client.cookies["django_language"] = "en"
    found = {}
    for seed in range(6):
        answer = ANSWERS.get(kind) or question(Spec(seed, game, kind)).request["claims"][0]["winner"]  # a seat
        html = client.get(f"/trainer/?seed={seed}&game={game}&kind={kind}&answer={answer}").content.decode()
        assert 'id="trainer-explain"' in html
        if chinese := chinese_in(html, "main"):
            found[seed] = chinese
    assert found == {}


@pytest.mark.parametrize("claims", [CLAIMS_XINYU, CLAIMS_BAZHI], ids=["xinyu", "bazhi"])
def test_the_english_page_of_who_takes_the_discard_explains_its_chinese(client, claims):
    client.cookies["django_language"] = "en"
    html = client.get("/claims/?" + urlencode(claims)).content.decode()
    assert 'data-claims="answer"' in html
    assert chinese_in(html, "claims-answer") == []


def test_the_trainer_deals_the_same_question_in_both_languages():
    for spec in (Spec(12345, kind="pay"), Spec(7, kind="waits"), Spec(3)):
        chinese, english = question(spec, "zh"), question(spec, "en")
        assert (chinese.request, chinese.topics, chinese.choices) == (english.request, english.topics, english.choices)
        assert english.answer["net"] if english.kind == "pay" else True
        assert english.answer == (priority if english.kind == "claims" else score)(english.request, "en")


def test_the_repro_trainer_pay_question_is_english_where_it_was_chinese(client):
    """Issue 21's repro: /trainer/?seed=12345&kind=pay, answered, in English."""
    client.cookies["django_language"] = "en"
    html = client.get("/trainer/?seed=12345&kind=pay&answer=0").content.decode()
    explained = element(html, "trainer-explain")
    for chinese in ("支数", "（四舍五入）", "牌型", "十三不搭", "东家 → 北家", "自摸：每家付 13"):
        assert chinese not in explained
    assert "self-draw: each pays 13" in explained and "East → North" in explained


def reasons_in_history(html: str) -> list[tuple[str, str]]:
    """(code, reason) of every payment row of a table page's history."""
    found = re.findall(r'<tr data-code="(\w*)"[^>]*><td>.*?</td><td>([^<]*)</td>', element(html, "history"))
    return [(code, unescape(reason)) for code, reason in found]


def record_examples(client, ruleset) -> list[Api]:
    """Tables that show every payment reason of a game: one per declared example hand (its card from the hand's
    options), and one per table example (通底, 全缴 …)."""
    table_options = {option.id for option in ruleset.table_options} | {"house"}
    tables = []
    for example in ruleset.declared.data["payment_examples"]:
        options = example.get("options", {})
        card = {k: v for k, v in options.items() if k in table_options}
        api = Api(client, {"ruleset": ruleset.id, "players": NAMES, "dealer": example["dealer"], "options": card})
        hand = {k: v for k, v in example.items() if k not in ("dealer", "options")}
        api.ok("hands", {**hand, "options": {k: v for k, v in options.items() if k not in table_options}})
        tables.append(api)
    for example in ruleset.table.declared.data["examples"]:
        api = Api(client, {"ruleset": ruleset.id, "players": NAMES, "stake": example.get("stake")})
        for hand in example.get("hands", ()):
            api.ok("hands", {k: v for k, v in hand.items() if k != "dealer"})
        tables.append(api)
    return tables


def said_as(text: str) -> re.Pattern:
    """A declared reason as the history says it: {seat} a player's name, {reason} another reason, numbers."""
    pattern = re.escape(text).replace(r"\{seat\}", f"(?:{'|'.join(NAMES.values())})").replace(r"\{reason\}", ".+")
    return re.compile(re.sub(r"\\\{\w+\\\}", r"\\d+", pattern))


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_english_table_history_says_every_payment_reason_in_english(client, game):
    """Every row of the history says its reason in the page's language, from its code: each of the game's
    declared reasons, and each row the table adds to a hand itself (通底, 全缴: the table's parts)."""
    ruleset = RULESETS[game]
    engine = ruleset.declared.texts["payments"]
    parts = ruleset.table.parts
    shown = []
    client.cookies["django_language"] = "zh-hans"  # recorded in Chinese: stored as every table before stores it
    tables = record_examples(client, ruleset)
    client.cookies["django_language"] = "en"
    for api in tables:
        html = client.get(f"/tables/{api.id}/").content.decode()
        assert chinese_in(html, "history") == [], api.created
        rows = reasons_in_history(html)
        assert rows, api.created
        shown += rows
    own = set()
    for code, reason in shown:
        if not any(said_as(text.en).fullmatch(reason) for text in engine.values()):
            assert code in parts and reason == parts[code].en, (code, reason)
            own.add(code)
    for key, text in engine.items():
        assert any(said_as(text.en).fullmatch(reason) for _, reason in shown), f"no example shows {key}"
    assert len(own) >= len(ruleset.table.declared.data["examples"]), own


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_english_csv_header_has_no_chinese_and_no_name_twice(client, game):
    """The English CSV's header: each column named once, in English (a Chinese word only with its gloss)."""
    api = Api(client, {"ruleset": game, "players": NAMES})
    client.cookies["django_language"] = "en"
    text = client.get(f"/tables/{api.id}/export.csv").content.decode().lstrip("\ufeff")
    header = next(csv.reader(io.StringIO(text)))
    assert len(header) == len(set(header)), [name for name in header if header.count(name) > 1]
    terms = glossary_terms()
    assert [
        (name, unexplained(name, terms, self_contained=True)) for name in header if unexplained(name, terms, True)
    ] == []


def test_a_table_recorded_in_english_says_its_reasons_in_chinese_on_a_chinese_page(client):
    client.cookies["django_language"] = "en"
    api = Api(client, {"ruleset": "bazhi", "players": NAMES})
    api.ok("hands", {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"})
    client.cookies["django_language"] = "zh-hans"
    rows = reasons_in_history(client.get(f"/tables/{api.id}/").content.decode())
    assert rows == [
        ("fan", "番"),
        ("fan", "番"),
        ("fan", "番"),
        ("dealer_extra", "庄家多赔一份底番"),
        ("discarder_extra", "放铳多赔一份底番"),
    ]


def test_a_stored_row_whose_code_no_game_knows_keeps_its_stored_reason(client):
    """A row stored before its code was one the game says (or by a version that named it otherwise) still shows."""
    from calculator.models import Hand

    api = Api(client, {"ruleset": "bazhi", "players": NAMES})
    api.ok("hands", {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"})
    hand = Hand.objects.get(table_id=api.id)
    hand.rows = [{**row, "code": "", "reason": "番（旧）"} for row in hand.rows]
    hand.save(update_fields=["rows"])
    client.cookies["django_language"] = "en"
    assert {reason for _, reason in reasons_in_history(client.get(f"/tables/{api.id}/").content.decode())} == {
        "番（旧）"
    }


# ---------------------------------------------------------------------------------------------------------
# Issue 21 §7: glosses that explain, in every game (the registry's)


def pinyin_words(but: str = "") -> dict[str, str]:
    """Each glossary term's pinyin as an English text may write it (not "long": an English word too), by term."""
    from calculator.presentation.glossary import ENGLISH_WORDS, terms

    return {t.term: t.pinyin for t in terms("en") if t.pinyin and t.pinyin not in ENGLISH_WORDS and t.term != but}


def pinyin_in(text: str, but: str = "") -> list[str]:
    return [p for p in pinyin_words(but).values() if re.search(rf"\b{p}\b", text)]


def test_each_gloss_explains_its_word_without_another_one():
    """A gloss is read where a word is first met: it cannot lean on another word of the glossary (the fan gloss
    said "out of the di"), a Chinese word, or brackets of its own (the page shows it in brackets already)."""
    from calculator.presentation.glossary import terms

    for term in terms("en"):
        assert term.pinyin and term.meaning, term
        assert pinyin_in(term.meaning, but=term.term) == [], term
        assert unexplained(term.meaning, self_contained=True) == [], term
        assert "(" not in term.meaning, term


def test_every_gloss_says_its_pinyin_even_where_it_is_an_english_word():
    """The page glosses 龙 as "龙 (long: …)", not "龙 (龙: …)": the script gets every pinyin, and whether to look
    for it in English text."""
    from calculator.presentation.glossary import ENGLISH_WORDS, terms

    listed = {term.term: term.to_dict() for term in terms("en")}
    assert listed["龙"]["pinyin"] == "long" and listed["龙"]["latin"] is False
    assert all(
        entry["pinyin"] and entry["latin"] == (entry["pinyin"] not in ENGLISH_WORDS) for entry in listed.values()
    )


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_house_rule_explains_its_chinese_words_itself(game):
    """A rule card's hints sit folded away, inside labels and menus: each says what its Chinese words mean (单吊,
    通天, 嘴子, 自摸, 报警, 交 were bare), and its labels and choices use no pinyin the page cannot explain there."""
    for rule in RULESETS[game].house:
        for text in (rule.label.en, rule.explanation.en, *(choice.label.en for choice in rule.choices)):
            assert unexplained(text, self_contained=True) == [], (rule.id, text)
        for text in (rule.label.en, *(choice.label.en for choice in rule.choices)):
            assert pinyin_in(text) == [], (rule.id, text)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_option_label_is_english_or_explains_itself(game):
    """An option's label is the first place a player meets a word ("Multiple jiao (可多交)", where jiao first
    appeared), and the page explains nothing inside a label."""
    for option in RULESETS[game].options:
        for text in (option.label.en, *(choice.label.en for choice in option.choices)):
            assert unexplained(text, self_contained=True) == [] and pinyin_in(text) == [], (option.id, text)
