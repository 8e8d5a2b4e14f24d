"""Issue 7: bad input never breaks anything.

Hypothesis throws random notation, random JSON, oversized bodies, too many fields, wrong content types and unknown
seats and flags at every endpoint of calculator/urls.py. Every answer is 2xx/3xx/4xx, never a 500; every 4xx says
what is wrong (the API's error object under /api/, a page elsewhere); and no rejected request changes the ledger
(a dump of its tables before and after must be equal).
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.engine.hand import MELD_TYPES
from calculator.engine.rulesets import every_flag
from calculator.engine.seats import SEATS as TILE_SEATS
from calculator.models import Event, Hand, Table

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

SEATS = list(TILE_SEATS)

# ---------------------------------------------------------------------------------------------- strategies

junk = st.text(max_size=12) | st.sampled_from(["", " ", "e", "X", "东", "null", "\x00", "🀄", "1" * 50])
notation = st.text(alphabet="0123456789mpszESWNCFP ", max_size=40) | st.text(max_size=20)
seat = st.sampled_from(SEATS) | junk | st.none() | st.integers()
flag = st.sampled_from(sorted(every_flag())) | junk | st.integers()
json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10)
json_values = st.recursive(
    json_leaf,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
meld = st.fixed_dictionaries(
    {}, optional={"type": st.sampled_from(MELD_TYPES) | junk, "tiles": notation, "from": seat, "x": json_values}
)
score_request = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": st.sampled_from(["bazhi", "xinyu"]) | junk,
        "options": st.fixed_dictionaries(
            {},
            optional={
                "tariff": st.sampled_from(["315", "525"]) | junk | st.integers(),
                "multi_jiao": st.booleans() | junk,
                "caishen": notation,
                "indicator": notation,
                "dealer_streak": st.integers(-3, 10**12) | junk,
            },
        )
        | json_values,
        "hand": notation | json_values,
        "win_tile": notation | st.none(),
        "melds": st.lists(meld, max_size=5) | json_values,
        "winner": seat,
        "dealer": seat,
        "discarder": seat,
        "flags": st.lists(flag, max_size=4) | json_values,
        "version": st.integers() | junk,
        "seat": seat,
        "extra": json_values,
    },
)
table_request = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": st.sampled_from(["bazhi", "xinyu"]) | junk,
        "options": json_values | st.fixed_dictionaries({}, optional={"tariff": junk, "multi_jiao": json_values}),
        "players": st.dictionaries(seat.map(str), junk | json_values, max_size=5) | json_values,
        "stake": st.integers(-(10**15), 10**15) | junk | st.none(),
        "multiplier": st.integers(-(10**15), 10**15) | junk,
        "dealer": seat,
    },
)
json_body = (
    score_request.map(json.dumps)
    | table_request.map(json.dumps)
    | json_values.map(json.dumps)
    | st.builds(
        lambda d: json.dumps({"discarder": d[0], "tile": d[1], "claims": d[2]}),
        st.tuples(seat, notation, st.lists(score_request, max_size=4) | json_values),
    )
    | st.text(max_size=60)
)
raw_body = json_body.map(str.encode) | st.binary(max_size=60) | st.just(b"[" * 5000 + b"]" * 5000)
content_type = st.sampled_from(
    [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
        "application/json; charset=latin-1",
    ]
)
form_fields = st.dictionaries(
    st.sampled_from(
        [
            "ruleset",
            "hand",
            "win_tile",
            "winner",
            "dealer",
            "discarder",
            "flags",
            "tariff",
            "caishen",
            "indicator",
            "dealer_streak",
            "meld1",
            "meld1_tiles",
            "meld1_from",
            "multi_jiao",
            "version",
            "seat",
            "q",
            "name_E",
            "stake",
            "room",
            "multiplier",
        ]
    )
    | st.text(max_size=6),
    notation | junk,
    max_size=12,
)

# ---------------------------------------------------------------------------------------------- helpers


@pytest.fixture
def ledger_table(client, settings):
    # The rate limiter runs too (its own table, not the ledger's), with limits no example reaches.
    settings.RATE_LIMIT_ENABLED = True
    settings.RATE_LIMITS = {"read": "100000/60", "write": "100000/60", "create": "100000/60"}
    created = client.post("/api/tables", json.dumps({"ruleset": "bazhi"}), content_type="application/json").json()
    hand = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}
    auth = {"HTTP_AUTHORIZATION": f"Bearer {created['edit_token']}"}
    base = f"/api/tables/{created['id']}"
    assert client.post(f"{base}/hands", json.dumps(hand), content_type="application/json", **auth).status_code == 201
    assert client.post(f"{base}/draw", "", content_type="application/json", **auth).status_code == 201
    assert all(ledger_dump())  # a table, a hand and an event: a change to any of them shows
    return created["id"], created["edit_token"]


def ledger_dump() -> list:
    return [
        list(Table.objects.order_by("pk").values()),
        list(Hand.objects.order_by("pk").values()),
        list(Event.objects.order_by("pk").values()),
    ]


def check(response, path: str) -> None:
    status = response.status_code
    assert status < 500, f"{status} for {path}: {response.content[:300]!r}"
    if status >= 400 and response.request["REQUEST_METHOD"] != "HEAD":
        if path.startswith("/api/"):
            error = json.loads(response.content)["error"]
            assert isinstance(error["code"], str) and error["code"]
            assert isinstance(error["message"], str) and error["message"].strip()
        else:
            assert response.content.strip(), f"an empty {status} page for {path}"


def send(client: Client, method: str, path: str, before: list, **kwargs):
    if isinstance(kwargs.get("data"), bytes):  # the body exactly as given, whatever the content type says
        response = client.generic(method.upper(), path, **kwargs)
    else:
        response = getattr(client, method)(path, **kwargs)
    check(response, path)
    if response.status_code >= 400 or method == "get":
        assert ledger_dump() == before, (
            f"{method.upper()} {path} answered {response.status_code} but changed the ledger"
        )
    return response


# ---------------------------------------------------------------------------------------------- the fuzz

API_WRITES = ["/api/score", "/api/priority", "/api/tables", "hands", "draw", "leave", "undo", "next"]


@FUZZ
@given(
    endpoint=st.sampled_from(API_WRITES),
    body=raw_body,
    ctype=content_type,
    auth=st.sampled_from(["good", "wrong", "none", "malformed"]),
    lang=st.sampled_from(["", "?lang=en", "?lang=xx"]),
)
def test_api_writes_never_break(client, ledger_table, endpoint, body, ctype, auth, lang):
    table_id, token = ledger_table
    path = endpoint if endpoint.startswith("/") else f"/api/tables/{table_id}/{endpoint}"
    headers = {
        "good": {"HTTP_AUTHORIZATION": f"Bearer {token}"},
        "wrong": {"HTTP_AUTHORIZATION": f"Bearer {token[:-2]}zz"},
        "none": {},
        "malformed": {"HTTP_AUTHORIZATION": "Basic \x00\x01"},
    }[auth]
    send(client, "post", path + lang, ledger_dump(), data=body, content_type=ctype, **headers)


@FUZZ
@given(
    endpoint=st.sampled_from(API_WRITES),
    request=score_request | table_request,
    table=st.sampled_from(["real", "random"]),
    junk_id=junk,
)
def test_api_with_wellformed_json_of_any_content_never_breaks(client, ledger_table, endpoint, request, table, junk_id):
    table_id, token = ledger_table
    target = table_id if table == "real" else (junk_id.replace("/", "") or "x")
    path = endpoint if endpoint.startswith("/") else f"/api/tables/{target}/{endpoint}"
    send(
        client,
        "post",
        path,
        ledger_dump(),
        data=json.dumps(request),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@settings(FUZZ, max_examples=30)  # seven requests an example
@given(
    ident=junk | st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_%", max_size=40),
    method=st.sampled_from(["get", "put", "delete", "patch", "head", "options"]),
)
def test_every_api_path_with_any_id_and_method(client, ledger_table, ident, method):
    table_id, token = ledger_table
    ident = ident.replace("/", "%2F").replace("?", "%3F").replace("#", "%23") or table_id
    before = ledger_dump()
    for path in [
        "/api/score",
        "/api/priority",
        "/api/tables",
        f"/api/tables/{ident}",
        f"/api/tables/{table_id}",
        f"/api/tables/{ident}/hands",
        f"/api/tables/{table_id}/undo",
    ]:
        response = send(client, method, path, before, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code < 500


@settings(FUZZ, max_examples=15)  # thirteen requests an example
@given(query=form_fields, post=form_fields, htmx=st.booleans())
def test_pages_never_break(client, ledger_table, query, post, htmx):
    table_id, token = ledger_table
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = ledger_dump()
    qs = urlencode(query)
    for path in [
        "/",
        "/rules/",
        "/tables/new/",
        f"/tables/{table_id}/",
        f"/tables/{table_id}/export.csv",
        f"/tables/{table_id}/edit/{token}/",
        f"/tables/{table_id}/edit/{token}/record/",
    ]:
        send(client, "get", f"{path}?{qs}", before, **extra)
    for path in [
        "/",
        "/tables/new/",
        f"/tables/{table_id}/edit/{token}/record/",
        f"/tables/{table_id}/edit/{token}x/draw/",
        f"/tables/{table_id}/edit/{token}/nonsense/",
        "/i18n/setlang/",
    ]:
        response = send(client, "post", path, before, data=post, **extra)
        before = ledger_dump() if response.status_code < 400 else before


@FUZZ
@given(action=st.sampled_from(["draw", "next", "leave", "undo"]), post=form_fields, seat=seat.map(str))
def test_ledger_page_actions_never_break(client, ledger_table, action, post, seat):
    table_id, token = ledger_table
    path = f"/tables/{table_id}/edit/{token}/{action}/"
    send(client, "post", path, ledger_dump(), data={**post, "seat": seat})


def test_oversized_and_overfull_requests(client, ledger_table, settings):
    table_id, token = ledger_table
    before = ledger_dump()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    big = json.dumps({"ruleset": "bazhi", "hand": "1m" * (settings.API_MAX_BODY_BYTES // 2)})
    for path in ["/api/score", "/api/priority", "/api/tables", f"/api/tables/{table_id}/hands"]:
        response = send(client, "post", path, before, data=big, content_type="application/json", **auth)
        assert response.status_code == 413
    many = {f"field{i}": "x" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    for path in [
        "/",
        "/tables/new/",
        f"/tables/{table_id}/edit/{token}/draw/",
        f"/tables/{table_id}/edit/{token}/record/",
    ]:
        assert send(client, "post", path, before, data=many).status_code == 400
    deep = "[" * 100_00 + "]" * 100_00
    for path in ["/api/score", "/api/priority", "/api/tables", f"/api/tables/{table_id}/hands"]:
        assert send(client, "post", path, before, data=deep, content_type="application/json", **auth).status_code == 400
    wide = json.dumps({f"k{i}": i for i in range(2000)})
    for path in ["/api/score", "/api/tables", f"/api/tables/{table_id}/hands"]:
        assert send(client, "post", path, before, data=wide, content_type="application/json", **auth).status_code == 400
