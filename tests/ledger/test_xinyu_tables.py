"""xinyu tables through the API and the real engine: the 冲击 100 room to a bust, 全缴, the leaving penalty."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

# X2 of the case file: no 财神 (龙 counts 2), S wins on W's discard.
X2 = {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "S", "discarder": "W"}
# X6: 全风向 with a legal shape (大对对), N wins on W's discard: 全缴 in a room.
X6 = {"options": {"caishen": "5m"}, "hand": "EEESSSWWWCCCN", "win_tile": "N", "winner": "N", "discarder": "W"}


def create(client, stake, multiplier=1):
    body = {"ruleset": "xinyu", "options": {}, "stake": stake, "multiplier": multiplier, "dealer": "E"}
    response = client.post("/api/tables", json.dumps(body), content_type="application/json")
    assert response.status_code == 201
    table = response.json()
    return f"/api/tables/{table['id']}", {"HTTP_AUTHORIZATION": f"Bearer {table['edit_token']}"}


def post(client, url, auth, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json", **auth)


def test_chongji_100_room_ends_on_a_bust(client):
    url, auth = create(client, 100)
    balances = []
    for _ in range(5):
        response = post(client, f"{url}/hands", auth, X2)
        assert response.status_code == 201, response.json()
        body = response.json()
        balances.append((body["balances"], body["dealer"], body["dealer_streak"]))
    assert balances == [
        ({"E": 93, "S": 127, "W": 87, "N": 93}, "S", 1),
        ({"E": 86, "S": 154, "W": 74, "N": 86}, "S", 2),
        ({"E": 74, "S": 201, "W": 51, "N": 74}, "S", 3),
        ({"E": 57, "S": 268, "W": 18, "N": 57}, "S", 4),
        ({"E": 35, "S": 330, "W": 0, "N": 35}, "S", 5),
    ]
    last = body["hands"][-1]
    assert last["request"]["options"]["dealer_streak"] == 4 and last["result"]["unit"] == 43
    assert sorted((r["from"], r["amount"], r["owed"]) for r in last["rows"]) == [
        ("E", 22, 22),
        ("N", 22, 22),
        ("W", 18, 43),
    ]
    assert (body["status"], body["ended_reason"]) == ("ended", "bust")
    assert body["outside"] == dict.fromkeys("ESWN", 0)
    refused = post(client, f"{url}/hands", auth, X2)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    wrong_streak = post(client, f"{url}/undo", auth)
    assert wrong_streak.json()["dealer_streak"] == 4
    response = post(client, f"{url}/hands", auth, {**X2, "options": {"caishen": "5p", "dealer_streak": 1}})
    assert response.status_code == 409 and response.json()["error"]["code"] == "dealer_mismatch"


def test_quanjiao_in_a_room(client):
    url, auth = create(client, 200)
    body = post(client, f"{url}/hands", auth, X6).json()
    assert body["hands"][0]["result"]["quanjiao"] is True
    assert body["balances"] == {"E": 0, "S": 0, "W": 0, "N": 800}
    assert (body["status"], body["ended_reason"]) == ("ended", "quanjiao")
    body = post(client, f"{url}/next", auth).json()
    assert body["balances"] == dict.fromkeys("ESWN", 200) and body["totals"] == {
        "E": -200,
        "S": -200,
        "W": -200,
        "N": 600,
    }


def test_ordinary_table_penalty(client):
    url, auth = create(client, None, multiplier=2)
    post(client, f"{url}/hands", auth, {**X2, "discarder": None, "winner": "E"})  # dealer self-draw: streak 2
    body = post(client, f"{url}/leave", auth, {"seat": "N"}).json()
    # −50 × streak 2 × multiplier 2 = 200 → 66 each to E, S, W and the remainder 2 to E (N's 下家).
    assert body["events"][0]["applied"] == {"E": 68, "S": 66, "W": 66, "N": -200}
    assert body["status"] == "playing" and body["balances"] == body["totals"]
    assert post(client, f"{url}/next", auth).json()["error"]["code"] == "not_available"
