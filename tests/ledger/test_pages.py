"""The ledger pages without a browser: links, tokens, recording from the calculator's query string, CSV, the chart."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import urlencode

import pytest

from calculator.models import Hand, Table

pytestmark = pytest.mark.django_db

CALCULATOR_QUERY = {
    # what calculator.forms.HandForm.query_string() writes; the dealer E and tariff 525 are the calculator's and
    # are replaced by the table's
    "ruleset": "bazhi",
    "tariff": "525",
    "hand": "111345789p79m55s",
    "win_tile": "8m",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}


@pytest.fixture
def edit(client):
    response = client.post(
        "/tables/new/",
        {
            "ruleset": "bazhi",
            "tariff": "315",
            "multiplier": 1,
            "dealer": "E",
            "name_E": "阿东",
            "name_S": "小南",
            "name_W": "老西",
            "name_N": "北北",
        },
    )
    assert response.status_code == 302
    return response["Location"].split("?")[0]


def test_create_redirects_to_the_edit_link(client, edit):
    table = Table.objects.get()
    assert edit.startswith(f"/tables/{table.id}/edit/")
    page = client.get(edit + "?created=1")
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    html = page.content.decode()
    assert 'id="record-link"' in html and "阿东" in html and 'id="edit-url"' in html
    assert "style=" not in html  # the strict CSP forbids inline styles


def test_read_only_link_has_no_controls_and_wrong_tokens_are_404(client, edit):
    table = Table.objects.get()
    html = client.get(f"/tables/{table.id}/").content.decode()
    assert 'name="version"' not in html and 'id="edit-url"' not in html and "/edit/" not in html
    token = edit.rstrip("/").rsplit("/", 1)[1]
    assert client.get(f"/tables/{table.id}/edit/{token[:-1]}x/").status_code == 404
    assert client.post(f"/tables/{table.id}/edit/{token[:-1]}x/draw/").status_code == 404
    assert client.get("/tables/nosuch/").status_code == 404
    assert not table.events.exists()


def test_record_from_the_calculator_query_string(client, edit):
    table = Table.objects.get()
    preview = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}")
    html = preview.content.decode()
    assert preview.status_code == 200 and 'id="preview"' in html
    assert "小南 +19" in html and "阿东 −7" in html  # scored at the table's 315, not the calculator's 525
    query = re.search(r'name="q" value="([^"]*)"', html).group(1).replace("&amp;", "&")
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert not Hand.objects.exists()  # a preview records nothing
    done = client.post(f"{edit}record/", {"q": query, "version": version})
    assert done.status_code == 302
    hand = Hand.objects.get()
    assert hand.applied == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert hand.request["options"]["tariff"] == "315"
    # the same confirmation sent again (a second tap, or a second phone) is a visible conflict, not a double
    again = client.post(f"{edit}record/", {"q": query, "version": version})
    assert again.status_code == 400 and Hand.objects.count() == 1
    # the dealer moved to S: the next preview is scored with S as the dealer, and says so
    html = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}").content.decode()
    assert "小南 +23" in html
    assert table.hands.count() == 1


def test_not_a_win_is_explained_and_records_nothing(client, edit):
    html = client.get(f"{edit}record/?{urlencode({**CALCULATOR_QUERY, 'win_tile': '1m'})}").content.decode()
    assert 'id="record-error"' in html and 'id="preview"' not in html
    assert not Hand.objects.exists()


def test_actions_and_stale_version(client, edit):
    table = Table.objects.get()
    assert client.post(f"{edit}draw/", {"version": 0}).status_code == 302
    stale = client.post(f"{edit}draw/", {"version": 0})
    assert stale.status_code == 409 and "ledger-error" in stale.content.decode()
    assert table.events.count() == 1
    assert client.post(f"{edit}undo/", {"version": 1}).status_code == 302
    assert table.events.count() == 0
    assert client.post(f"{edit}nonsense/").status_code == 404


def test_csv_and_chart(client, edit):
    table = Table.objects.get()
    query = urlencode(CALCULATOR_QUERY)
    for _ in range(2):
        html = client.get(f"{edit}record/?{query}").content.decode()
        q = re.search(r'name="q" value="([^"]*)"', html).group(1).replace("&amp;", "&")
        client.post(f"{edit}record/", {"q": q})
    client.post(f"{edit}draw/")
    response = client.get(f"/tables/{table.id}/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:7] == ["seq", "game", "kind", "n", "winner", "discarder", "dealer_before"]
    assert rows[0][7:11] == ["change 阿东", "change 小南", "change 老西", "change 北北"]
    assert [r[2] for r in rows[1:]] == ["hand", "hand", "draw"]
    assert rows[2][6] == "S" and rows[2][7:11] == ["-7", "23", "-9", "-7"]
    assert rows[3][-4:] == ["-14", "42", "-16", "-12"]  # totals after the draw
    html = client.get(f"/tables/{table.id}/").content.decode()
    lines = re.findall(r'<polyline class="line ln-([ESWN])" points="([^"]+)"', html)
    assert [seat for seat, _ in lines] == ["E", "S", "W", "N"]
    assert all(len(points.split()) == 4 for _, points in lines)  # start, two hands, the draw
