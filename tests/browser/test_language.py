"""Issue 21 §2 and §7 in the browser: an English page explains every Chinese word of the games it shows
(static/js/boot.js), on the calculator (its rule card opened), the trainer's explanation and a table's page (its
history opened). Where a word first appears in a compact spot that holds no gloss (the strip, a verdict, a badge, a
button, a label), it is explained where it next appears outside one; a word is explained by its gloss after it,
or by its English before it ("extra payment (交)"). Locator assertions only."""

from __future__ import annotations

import re

import pytest

from calculator.engine.rulesets import RULESETS
from calculator.presentation.glossary import ENGLISH_WORDS, terms
from tests.browser.conftest import SIZES, close, open_page
from tests.browser.phone import B1, expect, link
from tests.web.test_language import record_examples
from tests.web.wording import GLOSS_AFTER, HAN, _original_after_english

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def never_explained(text: str) -> list[str]:
    """Each glossary word `text` (what the page shows) holds, in Chinese or in pinyin, and explains nowhere."""
    found = []
    for term in terms("en"):
        spots = []
        for match in re.finditer(re.escape(term.term), text):
            start, end = match.start(), match.end()
            while start > 0 and HAN.match(text[start - 1]):
                start -= 1
            while end < len(text) and HAN.match(text[end]):
                end += 1
            spots.append((start, end, True))
        if term.pinyin and term.pinyin not in ENGLISH_WORDS:
            spots += [(m.start(), m.end(), False) for m in re.finditer(rf"\b{term.pinyin}\b", text)]
        explained = [
            spot
            for spot in spots
            if GLOSS_AFTER.match(text, spot[1]) or (spot[2] and _original_after_english(text, spot[0], spot[1]))
        ]
        if spots and not explained:
            start, end, _ = min(spots)
            found.append(f"{term.term}: {text[max(0, start - 30) : end + 30]!r}")
    return found


def opened_text(page) -> str:
    """#main's text once boot.js has explained what opening its <details> showed: it explains on the toggle event,
    a task of its own after the click, so a word still bare is waited for until its explanation is shown."""
    text = page.locator("#main").inner_text()
    for term in {spot.split(":")[0] for spot in never_explained(text)}:
        expect(page.locator(f'#main dfn[data-term="{term}"]').first).to_be_visible()
    return page.locator("#main").inner_text()


def glossed_in_chinese(text: str) -> list[str]:
    """Glosses that name their word in Chinese again instead of its pinyin: "龙 (龙: …)"."""
    return re.findall(r"[\u3400-\u9fff]+ \([\u3400-\u9fff]+: ", text)


@pytest.fixture
def english(browser, live_server):
    context, page = open_page(browser, live_server, SIZES["360x640"], lang="en")
    yield page
    assert page.console.errors == []
    close(context)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_english_calculator_explains_every_word_it_shows(english, game):
    english.goto(link(english, {**B1, "ruleset": game}))
    if HAN.search(english.locator("#main").inner_text()):  # a game whose English page shows a Chinese word glosses it
        expect(english.locator("#main dfn[data-term]").first).to_be_attached()
    assert never_explained(english.locator("#main").inner_text()) == []
    assert glossed_in_chinese(english.locator("#main").inner_text()) == []
    english.locator(f"#rule-card-{game} summary").click()  # the folded rule card, opened: its hints
    expect(english.locator(f"#rule-card-{game} .hint").first).to_be_visible()
    assert never_explained(opened_text(english)) == []


def test_the_english_trainer_explanation_explains_every_word_it_shows(english):
    english.goto(english.base + "/trainer/?seed=12345&kind=pay&answer=0")
    expect(english.locator("#trainer-explain")).to_be_visible()
    for summary in english.locator("#trainer-explain details > summary").all():
        summary.click()
    expect(english.locator("#trainer-explain")).to_contain_text("self-draw: each pays 13")
    assert never_explained(opened_text(english)) == []
    assert glossed_in_chinese(english.locator("#main").inner_text()) == []


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_english_table_page_explains_every_word_it_shows(english, client, game):
    """The 庄 badge, "交 outside" and "Next 底 game" were bare; the history's rows, opened, were Chinese. Every
    table of the game's examples (every reason of its rows), recorded in Chinese, as old tables were."""
    client.cookies["django_language"] = "zh-hans"
    for table in record_examples(client, RULESETS[game]):
        english.goto(f"{english.base}/tables/{table.id}/edit/{table.token}/")
        expect(english.locator("#history details").first).to_be_attached()
        assert never_explained(english.locator("#main").inner_text()) == [], table.created
        for summary in english.locator("#history details > summary").all():
            summary.click()
        expect(english.locator("#history tr[data-code]").first).to_be_visible()
        assert never_explained(opened_text(english)) == [], table.created
