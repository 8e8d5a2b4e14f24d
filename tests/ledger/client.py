"""The ledger API as the tests call it: create a table, write with the edit token, read it back."""

from __future__ import annotations

import json

PLAYERS = {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}


def wrong_token(token: str) -> str:
    """The token with its last character changed (to another one, whatever it was)."""
    return token[:-1] + ("y" if token.endswith("x") else "x")


def post(client, url, body=None, token=None, raw=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    data = raw if raw is not None else ("" if body is None else json.dumps(body))
    return client.post(url, data, content_type="application/json", **headers)


class Api:
    """One table: `api.write("hands", body)` posts with the token; `api.get()` is the table's JSON."""

    def __init__(self, client, body: dict):
        response = post(client, "/api/tables", {"players": PLAYERS, **body})
        assert response.status_code == 201, response.json()
        self.client, self.created = client, response.json()
        self.id, self.token = self.created["id"], self.created["edit_token"]
        self.url = f"/api/tables/{self.id}"

    def write(self, action: str, body: dict | None = None):
        return post(self.client, f"{self.url}/{action}", body, self.token)

    def ok(self, action: str, body: dict | None = None) -> dict:
        response = self.write(action, body)
        assert response.status_code in (200, 201), response.json()
        return response.json()

    def refused(self, action: str, body: dict | None = None) -> tuple[int, str, str | None]:
        response = self.write(action, body)
        error = response.json()["error"]
        return response.status_code, error["code"], error.get("field")

    def get(self, query: str = "") -> dict:
        response = self.client.get(f"{self.url}{query}")
        assert response.status_code == 200, response.content
        return response.json()
