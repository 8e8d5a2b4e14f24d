"""A player's name is a name (API.md, "A player's name"; issue 31): at least one visible character, at most 4
combining marks on a character, no control, format, surrogate, unassigned or private-use character except U+200D
inside an emoji sequence. Through the API and the new-table page."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from calculator.models import Table
from tests.ledger.client import post

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

BLANK = {
    "Hangul filler U+3164": "\u3164",
    "Hangul choseong filler U+115F": "\u115f",
    "Hangul jungseong filler U+1160": "\u1160",
    "halfwidth Hangul filler U+FFA0": "\uffa0",
    "blank braille pattern U+2800": "\u2800",
    "a lone combining acute U+0301": "\u0301",
    "combining grapheme joiner U+034F": "\u034f",
    "three fillers and a space": "\u3164 \u3164\u3164",
    "a variation selector": "\ufe0f",
}
HIDDEN = {
    "a tab": "阿\t东",
    "a carriage return": "阿\r东",
    "a line feed": "阿\n东",
    "a joiner between letters": "a\u200db",
    "a joiner after an emoji and nothing": "👨\u200d",
    "a joiner before an emoji only": "\u200d👨",
}
NAMES = {
    "a family joined by U+200D": "👨\u200d👩\u200d👧",
    "a rainbow flag (a variation selector before the joiner)": "🏳\ufe0f\u200d🌈",
    "a woman technologist with a skin tone": "👩🏽\u200d💻",
    "a letter with 4 combining marks": "e\u0301\u0302\u0303\u0304",
    "Vietnamese with two marks": "Nguyễn",
    "a name with a filler beside letters": "阿\u3164东",
}


def create(client, name: str):
    """A table of four whose South is `name` (every seat is named: empty is the seat's word)."""
    return post(client, "/api/tables", {"ruleset": "bazhi", "players": {"E": "", "S": name, "W": "", "N": ""}})


def refused_field(response) -> tuple[int, str, str]:
    error = response.json()["error"]
    return response.status_code, error["code"], error["field"]


def refusal(client, name: str) -> str:
    """South's name refused (400 bad_table, `players.S`, nothing stored): the English message."""
    response = post(client, "/api/tables?lang=en", {"ruleset": "bazhi", "players": {"S": name}})
    assert refused_field(response) == (400, "bad_table", "players.S")
    assert not Table.objects.exists()
    return response.json()["error"]["message"]


@pytest.mark.parametrize("name", BLANK.values(), ids=BLANK.keys())
def test_a_name_without_a_visible_character_is_refused(client, name):
    assert refusal(client, name) == "the name has no character that can be seen"


def test_a_with_39_combining_marks_is_refused_and_says_how_many_a_character_may_carry(client):
    assert refusal(client, "A" + "\u0301" * 39) == "a character carries at most 4 combining marks"


def test_five_combining_marks_on_a_character_are_one_too_many(client):
    assert refusal(client, "e\u0301\u0302\u0303\u0304\u0305") == "a character carries at most 4 combining marks"


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_control_or_a_joiner_outside_an_emoji_sequence_is_refused(client, name):
    assert refusal(client, name) == "the name holds a character that cannot be shown"


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_name_that_shows_is_stored_as_written(client, name):
    response = create(client, name)
    assert response.status_code == 201, response.json()
    assert response.json()["players"]["S"] == name
    assert Table.objects.get().players["S"] == name


def test_spaces_are_still_collapsed_and_an_empty_name_is_the_seats(client):
    response = post(
        client, "/api/tables", {"ruleset": "bazhi", "players": {"E": "", "S": "  阿\u3000 东 ", "W": "   ", "N": ""}}
    )
    assert response.status_code == 201
    assert (response.json()["players"]["S"], response.json()["players"]["W"]) == ("阿 东", "西")


def new_table_page(client, name: str):
    form = {"ruleset": "bazhi", "bazhi-tariff": "315", "dealer": "E", "name_S": name}
    return client.post("/tables/new/", form, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize(
    "name, message",
    [
        *[(name, "the name has no character that can be seen") for name in BLANK.values()],
        ("A" + "\u0301" * 39, "a character carries at most 4 combining marks"),
    ],
    ids=[*BLANK.keys(), "A and 39 combining marks"],
)
def test_the_new_table_page_refuses_a_blank_name_beside_its_field(client, name, message):
    page = new_table_page(client, name)
    html = page.content.decode()
    assert page.status_code == 200 and not Table.objects.exists()
    south, west = html.index('name="name_S"'), html.index('name="name_W"')
    assert south < html.index(message) < west


def test_the_new_table_page_takes_a_family_emoji(client):
    page = new_table_page(client, "👨\u200d👩\u200d👧")
    assert page.status_code == 302
    assert Table.objects.get().players["S"] == "👨\u200d👩\u200d👧"


def test_the_tables_of_unicode_properties_are_the_unicode_character_databases():
    """calculator/ledger/unicode_tables.py is what tools/unicode_tables.py makes of Debian's unicode-data (installed
    by scripts/test)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import unicode_tables
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert unicode_tables.UCD.joinpath("DerivedCoreProperties.txt").exists(), "apt-get install unicode-data"
    assert unicode_tables.TARGET.read_text(encoding="utf-8") == unicode_tables.module()
