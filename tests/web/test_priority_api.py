"""POST /api/priority: who takes a discard over HTTP, for both games. Bad input is a 400 with a code, never a 500."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

TABLE = {"options": {"caishen": "5p"}, "dealer": "E"}
BODY = {
    "discarder": "E",
    "tile": "2s",
    "claims": [
        {**TABLE, "hand": "123m456m789sEEE2s", "winner": "S"},
        {**TABLE, "hand": "11134567899s22s", "winner": "N"},
    ],
}


B1, TONGTIAN = "111345789p79m55s", "123456789s79m22p"  # bazhi on 8m: 压档 (19 to the winner), 通天 (25)


def post(client, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/api/priority", data=data, content_type="application/json", **extra)


def test_priority_answers_200_with_the_winner(client):
    response = post(client, BODY)
    assert response.status_code == 200
    body = response.json()
    assert (body["winner"], body["reason_code"]) == ("N", "higher_level")
    assert [c["seat"] for c in body["claims"]] == ["S", "N"]


def test_priority_answers_bazhi_by_play_order(client):
    """RULES.md §1.1: W discards 8m; N comes first after W, so N takes it though S's 通天 would pay more."""
    claims = [{"hand": hand, "winner": seat, "dealer": "E"} for seat, hand in (("S", TONGTIAN), ("N", B1))]
    response = post(client, {"ruleset": "bazhi", "discarder": "W", "tile": "8m", "claims": claims})
    assert response.status_code == 200
    answer = response.json()
    assert (answer["ruleset"], answer["winner"], answer["reason_code"]) == ("bazhi", "N", "seat_order")
    assert [(c["seat"], c["level"]) for c in answer["claims"]] == [("N", 0), ("S", 0)]
    assert answer["claims"][0]["result"]["net"] == {"E": -7, "S": -5, "W": -7, "N": 19}


def test_priority_answers_a_table_of_three(client):
    """S discards 8m at a bazhi table of three: W, its 下家, takes it (14 from E and S); N is no seat there."""
    claims = [
        {"hand": hand, "winner": seat, "dealer": "E", "options": {"players": 3}}
        for seat, hand in (("E", TONGTIAN), ("W", B1))
    ]
    answer = post(client, {"ruleset": "bazhi", "discarder": "S", "tile": "8m", "claims": claims}).json()
    assert (answer["order"], answer["winner"]) == (["W", "E"], "W")
    assert answer["claims"][0]["result"]["net"] == {"E": -7, "S": -7, "W": 14}
    response = post(client, {"ruleset": "bazhi", "discarder": "N", "tile": "8m", "claims": claims})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_seat")


def test_claims_under_different_cards_are_400_bad_claim(client):
    other = {**BODY["claims"][1], "options": {"caishen": "5p", "house": {"wulong": "total"}}}
    response = post(client, {**BODY, "claims": [BODY["claims"][0], other]})
    assert response.status_code == 400
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == ("bad_claim", "claims[1].options")


def test_priority_speaks_english_on_request(client):
    body = client.post("/api/priority?lang=en", data=json.dumps(BODY), content_type="application/json").json()
    assert "Pure one suit" in body["reason"]


def test_bad_json_is_400(client):
    response = post(client, "{not json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"


def test_an_unknown_top_level_key_is_400_bad_json(client):
    response = post(client, {**BODY, "winner": "N"})
    assert response.status_code == 400
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == ("bad_json", "winner")


def test_bad_claim_is_400(client):
    response = post(client, {**BODY, "claims": []})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_claim"


def test_get_is_not_allowed(client):
    assert client.get("/api/priority").status_code == 405


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["ruleset", "discarder", "tile", "claims", "hand", "winner"]), inner, max_size=4
            )
        ),
        max_leaves=8,
    )
)
def test_any_json_is_an_answer_never_a_500(body):
    from django.test import Client

    response = Client().post("/api/priority", data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400)
