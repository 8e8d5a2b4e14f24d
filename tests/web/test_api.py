"""POST /api/score: the engine over HTTP. Bad input is a 400 with a code, never a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.engine import score

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}


def post(client, body, content_type="application/json", **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/api/score", data=data, content_type=content_type, **extra)


def test_a_win_is_200_with_the_result(client):
    response = post(client, B1)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_not_a_win_is_still_an_answer(client):
    response = post(client, {**B1, "win_tile": "1m"})
    assert response.status_code == 200
    assert response.json()["code"] == "incomplete"


@pytest.mark.parametrize("body", ["{", "", "[1,", '"x', '{"a": }'])
def test_malformed_json_is_bad_json(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"


def test_non_utf8_body_is_bad_json(client):
    response = post(client, b"\xff\xfe{")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_json")


def test_get_is_not_allowed(client):
    assert client.get("/api/score").status_code == 405


def test_language_from_query_string(client):
    response = client.post(
        "/api/score?lang=en", data=json.dumps({**B1, "hand": "111345789p79x55s"}), content_type="application/json"
    )
    assert response.json()["error"]["message"].startswith("hand: unexpected character 'x'")


def test_chinese_is_the_default_language(client):
    response = post(client, {**B1, "hand": "111345789p79x55s"})
    assert "无法识别" in response.json()["error"]["message"]


def test_waits_over_http(client):
    response = post(client, {**B1, "win_tile": None})
    waits = response.json()["waits"]
    assert [w["tile"] for w in waits] == ["8m"]
    assert waits[0]["self_draw"]["net"] == {"E": -14, "S": 34, "W": -10, "N": -10}
    assert waits[0]["discard"]["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}  # from S's 下家, W


def test_the_draws_of_a_hand_not_ready_over_http_are_the_engines(client):
    """Issue 21 §3: the same `draws` and `draws_left` as the engine and the CLI."""
    request = {**B1, "hand": "123456m123p1235s", "win_tile": None}
    body = post(client, request).json()
    assert body["shanten"] == 1 and body["draws_left"] == 30
    assert body["draws"] == score(request)["draws"]
    assert body["draws"][:2] == [{"tile": "7m", "left": 4}, {"tile": "8m", "left": 4}]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "ruleset": st.sampled_from(["bazhi", "xinyu", "x"]) | json_values,
            "hand": st.text(alphabet="123456789mpszESWNCFP ", max_size=16) | json_values,
            "win_tile": st.text(alphabet="19mpzC", max_size=3) | json_values,
            "melds": json_values,
            "winner": st.sampled_from(["E", "S", "x"]) | json_values,
            "dealer": st.sampled_from(["E", "N"]) | json_values,
            "discarder": st.sampled_from(["W", None]) | json_values,
            "flags": json_values,
            "options": json_values,
        },
    )
)
def test_random_requests_never_cause_a_server_error(request_body):
    from django.test import Client

    response = Client().post("/api/score", data=json.dumps(request_body), content_type="application/json")
    assert response.status_code in (200, 400)
    body = response.json()
    if response.status_code == 400:
        assert body["error"]["code"] and body["error"]["message"]
