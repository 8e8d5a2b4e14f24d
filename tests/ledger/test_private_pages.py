"""Issue 15, finding 5: every answer to a URL that carries an edit token is `Cache-Control: no-store` with
`Referrer-Policy: same-origin`, whichever view or layer answered: the edit page, the record page (GET, a refused
POST), an action's redirect or refusal, an unknown page under the edit link, the calculator bound to the table and
its htmx partial. The read-only link is not private."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from calculator.plumbing.edit_tokens import in_url, redact
from tests.ledger.test_calculator_binding import B1, new_table, token_of

pytestmark = pytest.mark.django_db


def assert_private(response, what: str) -> None:
    assert response["Cache-Control"] == "no-store", what
    assert response["Referrer-Policy"] == "same-origin", what


def test_every_answer_under_the_edit_link_is_private(client):
    table, edit = new_table(client)
    record = f"{edit}record/?{urlencode(B1)}"
    first_visit = client.get(record)  # the preview's first visit adds its idempotency key (a redirect)
    answers = {
        "edit page": client.get(edit + "?created=1"),
        "record page, first visit": first_visit,
        "record page": client.get(first_visit["Location"]),
        "record page, refused": client.post(f"{edit}record/", {"q": "hand=1m", "version": "0"}),
        "record page, empty": client.get(f"{edit}record/"),
        "action redirect": client.post(f"{edit}draw/", {"version": str(table.version)}),
        "action refused (stale)": client.post(f"{edit}undo/", {"version": "99"}),
        "unknown action": client.post(f"{edit}nosuch/"),
        "action by GET": client.get(f"{edit}draw/"),
        "unknown page": client.get(f"{edit}no/such/"),
    }
    assert [a.status_code for a in answers.values()] == [200, 302, 200, 400, 200, 302, 409, 404, 405, 404]
    for what, response in answers.items():
        assert_private(response, what)


def test_the_calculator_bound_to_a_table_is_private(client):
    table, edit = new_table(client)
    bound = {"table": table.id, "token": token_of(edit)}
    assert_private(client.get("/", bound), "page")
    assert_private(client.get("/", {**bound, **B1}, headers={"HX-Request": "true"}), "partial")
    # without JavaScript the token travels in the form's body, not the URL: the view marks the answer itself
    refused = client.post("/", {**bound, "hand": "not a hand"})
    assert refused.status_code == 400
    assert_private(refused, "refused POST")


def test_the_read_only_link_and_the_plain_calculator_are_not_private(client):
    table, _ = new_table(client)
    for response in (client.get(f"/tables/{table.id}/"), client.get("/"), client.get("/", B1)):
        assert response.status_code == 200 and response.get("Cache-Control") != "no-store"


@pytest.mark.parametrize(
    ("path", "query", "private"),
    [
        ("/tables/abc/edit/T0k-en_/", "", True),
        ("/tables/abc/edit/T0k-en_/record/", "hand=1m", True),
        ("/", "table=abc&token=T0k", True),
        ("/", "token=T0k", True),
        ("/", "table=abc&%74oken=T0k", True),
        ("/tables/abc/", "", False),
        ("/", "hand=1m&mytoken=x", False),
        ("/tables/abc/editor/x/", "", False),
    ],
)
def test_which_urls_carry_a_token(path, query, private):
    assert in_url(path, query) is private


def test_redact_takes_the_token_out_of_paths_queries_and_referers():
    line = (
        '{"path": "/tables/abc/edit/S3cret-_x/record/", "query": "table=abc&token=S3cret-_x&hand=1m", '
        '"referer": "https://h.example/?table=abc&token=S3cret-_x#top"}'
    )
    assert "S3cret" not in redact(line)
    assert redact(line) == (
        '{"path": "/tables/abc/edit/[redacted]/record/", "query": "table=abc&token=[redacted]&hand=1m", '
        '"referer": "https://h.example/?table=abc&token=[redacted]#top"}'
    )
