"""Issue 15, finding 1 and 2: a body that Python's json would take but nothing downstream can hold is a 400
`bad_json` naming the field, on every JSON endpoint, and nothing is stored (on SQLite and on PostgreSQL: this
module runs in both passes of scripts/test).

Each bad value is spliced into an otherwise good body as raw JSON text (json.dumps cannot write most of them).
"""

from __future__ import annotations

import json

import pytest

from calculator.models import Event, Hand, Table
from tests.ledger.hands import B1, B2

pytestmark = pytest.mark.django_db

SCORE = {"ruleset": "bazhi", **B1, "dealer": "E"}
PRIORITY = {
    "discarder": "E",
    "tile": "2s",
    "claims": [{"options": {"caishen": "5p"}, "dealer": "E", "hand": "123m456m789sEEE2s", "winner": "S"}],
}
TABLE = {
    "ruleset": "bazhi",
    "options": {"tariff": "315"},
    "players": {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"},
}
HAND = B2  # E self-draws, with two pungs

# (endpoint, body, the path of the value that is replaced)
PLACES = [
    ("score", SCORE, ["hand"]),
    ("priority", PRIORITY, ["claims", 0, "hand"]),
    ("tables", TABLE, ["players", "E"]),
    ("hands", HAND, ["melds", 0, "tiles"]),
]
DEEP = "[" * 40 + "]" * 40
# (name, the raw JSON text put in place of the value, what the message says in English)
BAD_VALUES = [
    ("lone high surrogate", '"\\ud800"', "lone surrogate"),
    ("lone low surrogate inside text", '"5m\\udc00"', "lone surrogate"),
    ("NUL", '"1m\\u0000"', "NUL character"),
    ("4,301-digit integer", "9" * 4301, "more than 4,300 digits"),
    ("float that overflows", "1e999", "not a finite number"),
    ("NaN", "NaN", "not a finite number"),
    ("-Infinity", "-Infinity", "not a finite number"),
]

MARK = "__the value under test__"


def path_text(path: list) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


def splice(body: dict, path: list, raw: str) -> str:
    """`body` as JSON with the value at `path` replaced by the raw JSON text `raw`."""
    copy = json.loads(json.dumps(body))
    holder = copy
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = MARK
    text = json.dumps(copy, ensure_ascii=False)
    assert text.count(json.dumps(MARK)) == 1
    return text.replace(json.dumps(MARK), raw)


@pytest.fixture
def table(client):
    response = client.post("/api/tables", json.dumps(TABLE), content_type="application/json")
    assert response.status_code == 201
    return response.json()


def url_of(endpoint: str, table: dict) -> str:
    return f"/api/tables/{table['id']}/hands" if endpoint == "hands" else f"/api/{endpoint}"


def rows() -> tuple[int, int, int]:
    return Table.objects.count(), Hand.objects.count(), Event.objects.count()


def send(client, endpoint: str, table: dict, text: str, lang: str = "en"):
    return client.post(
        f"{url_of(endpoint, table)}?lang={lang}",
        text.encode("utf-8"),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {table['edit_token']}",
    )


@pytest.mark.parametrize(("endpoint", "body", "path"), PLACES, ids=[p[0] for p in PLACES])
def test_the_good_bodies_are_accepted(client, table, endpoint, body, path):
    """The bodies the bad values are spliced into are good as they are: the 400s below are the values' doing."""
    assert send(client, endpoint, table, json.dumps(body)).status_code in (200, 201)


@pytest.mark.parametrize(("endpoint", "body", "path"), PLACES, ids=[p[0] for p in PLACES])
@pytest.mark.parametrize(("name", "raw", "says"), BAD_VALUES, ids=[b[0] for b in BAD_VALUES])
def test_a_bad_value_is_bad_json_naming_its_field_and_nothing_is_stored(
    client, table, endpoint, body, path, name, raw, says
):
    before = rows()
    response = send(client, endpoint, table, splice(body, path, raw))
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "bad_json" and error["field"] == path_text(path)
    assert says in error["message"] and error["message"].startswith(path_text(path))
    assert rows() == before


@pytest.mark.parametrize(("endpoint", "body", "path"), PLACES, ids=[p[0] for p in PLACES])
def test_nesting_deeper_than_32_is_bad_json_naming_where(client, table, endpoint, body, path):
    before = rows()
    response = send(client, endpoint, table, splice(body, path, DEEP))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_json" and "nested more than 32 levels" in error["message"]
    assert error["field"].startswith(path_text(path) + "[0]")
    assert rows() == before


@pytest.mark.parametrize(("endpoint", "body", "path"), PLACES, ids=[p[0] for p in PLACES])
def test_a_lone_surrogate_in_a_key_is_bad_json_naming_the_key(client, table, endpoint, body, path):
    before = rows()
    raw = splice(body, path, '"x"').replace(f'"{path[-1]}": "x"', '"\\ud83c": "x"')
    response = send(client, endpoint, table, raw, lang="zh")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_json" and error["field"] == path_text([*path[:-1], "\\ud83c"])
    assert error["message"].startswith(f"键 {error['field']} 含有孤立的代理码元")
    assert rows() == before


def test_a_player_named_with_a_lone_surrogate_no_longer_breaks_the_table(client):
    """The finding: `"\\ud800"` as a name answered 500 but committed the table (on SQLite), and from then on its
    page, JSON and CSV all answered 500. Now the create is refused and nothing is stored."""
    raw = splice(TABLE, ["players", "E"], '"\\ud800"')
    response = client.post("/api/tables?lang=en", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "players.E"
    assert not Table.objects.exists()


@pytest.mark.parametrize("raw", ['"\\ud800"', '"\\u0000"'], ids=["lone surrogate", "NUL"])
def test_a_hand_carrying_such_a_string_is_refused_and_the_table_keeps_answering(client, table, raw):
    """The same for a hand: a field the engine does not read was stored as sent; with such a string the write
    answered 500 yet stored the hand (SQLite) or answered 500 (PostgreSQL refuses NUL), and the pages broke."""
    response = send(client, "hands", table, splice({**HAND, "note": "x"}, ["note"], raw))
    assert response.status_code == 400 and response.json()["error"]["field"] == "note"
    assert not Hand.objects.exists()
    for page in (f"/api/tables/{table['id']}", f"/tables/{table['id']}/", f"/tables/{table['id']}/export.csv"):
        assert client.get(page).status_code == 200


def test_messages_are_in_chinese_by_default(client, table):
    response = send(client, "score", table, splice(SCORE, ["hand"], "1e999"), lang="zh")
    assert response.json()["error"]["message"] == "hand 不是有限的数（太大或 NaN / Infinity）"
