"""Issue 20, finding 5: `export.csv` is safe to open in a spreadsheet (OWASP CSV injection). A text cell that starts
with = + - @, a tab or a carriage return is written with a leading ', whatever it holds (a name, a meld, a label);
numbers stay numbers."""

from __future__ import annotations

import csv
import io
import re

import pytest

from calculator.pages.tables.spreadsheet import cell
from tests.ledger.client import Api
from tests.ledger.hands import B1, B2

pytestmark = pytest.mark.django_db

# A player's name for each start a spreadsheet reads as a formula (tab and CR cannot be in a name: control
# characters are refused, API.md).
NAMES = {"E": '=HYPERLINK("http://ev.il","x")', "S": "+SUM(1,1)", "W": "-1+A1", "N": "@cmd"}
FORMULA_START = re.compile(r"[=+\-@\t\r]")
NUMBER = re.compile(r"-?\d+")


def exported(client, table_id: str, lang: str) -> list[list[str]]:
    response = client.get(f"/tables/{table_id}/export.csv?lang={lang}")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


@pytest.fixture
def table(client):
    api = Api(client, {"ruleset": "bazhi", "players": NAMES})
    api.ok("hands", B1)  # S wins on W's discard: E −7, S +19, W −7, N −5
    api.ok("hands", B2)  # E self-draws with melds fed by S and W: their names come after the meld's tiles
    api.ok("draw")
    return api


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_text_cell_of_the_export_starts_a_formula(client, table, lang):
    rows = exported(client, table.id, lang)
    cells = [value for row in rows for value in row]
    assert len(cells) > 100
    for value in cells:
        assert NUMBER.fullmatch(value) or not FORMULA_START.match(value), value


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_name_comes_out_quoted_as_text_and_numbers_as_numbers(client, table, lang):
    rows = exported(client, table.id, lang)
    cells = [value for row in rows for value in row]
    for name in NAMES.values():
        assert "'" + name in cells and name not in cells
    melds = next(value for value in cells if "CCC" in value)  # B2's melds: the feeder's name after the tiles
    assert melds.endswith("CCC ← +SUM(1,1); " + melds.split("; ")[1]) and melds.endswith("222m ← -1+A1")
    first_hand = rows[1]
    applied = table.get()["hands"][0]["applied"]
    assert applied == {"E": -7, "S": 19, "W": -7, "N": -5}
    for amount in applied.values():
        assert str(amount) in first_hand and "'" + str(amount) not in first_hand


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_each_formula_start_is_quoted(start):
    assert cell(f"{start}1+1") == f"'{start}1+1"


def test_numbers_and_plain_text_are_left_alone():
    assert [cell(-7), cell(19), cell(0), cell(""), cell("阿东"), cell("79m111345789p55s")] == [
        -7,
        19,
        0,
        "",
        "阿东",
        "79m111345789p55s",
    ]
    assert cell("-7") == "'-7"  # text that looks like a number is still text: a name "-7" stays a name
