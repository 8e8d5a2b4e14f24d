"""The ledger pages without a browser: links, tokens, recording from the calculator's query string, CSV, the chart."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import urlencode

import pytest

from calculator.models import Hand, Table
from tests.ledger.client import Api, wrong_token

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    """The page's text as a reader sees it: no tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


CALCULATOR_QUERY = {
    # what calculator.presentation.handquery.query_string() writes; the dealer E and tariff 525 are the calculator's and
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
            "bazhi-tariff": "315",
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
    assert client.get(f"/tables/{table.id}/edit/{wrong_token(token)}/").status_code == 404
    assert client.post(f"/tables/{table.id}/edit/{wrong_token(token)}/draw/").status_code == 404
    assert client.get("/tables/nosuch/").status_code == 404
    assert not table.events.exists()


def test_record_from_the_calculator_query_string(client, edit):
    table = Table.objects.get()
    preview = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}", follow=True)
    html = preview.content.decode()
    assert preview.status_code == 200 and 'id="preview"' in html
    [(_, status)] = preview.redirect_chain  # the first visit gets the hand's idempotency key
    key = re.search(r'name="key" value="([^"]*)"', html).group(1)
    assert status == 302 and len(key) >= 16
    shown = text_of(html)
    assert "小南 +19" in shown and "阿东 −7" in shown  # scored at the table's 315, not the calculator's 525
    dealer = re.search(r'<strong class="who"[^>]*>([^<]*)</strong>', html).group(1)
    assert dealer == "阿东"  # the dealer before the hand
    query = re.search(r'name="q" value="([^"]*)"', html).group(1).replace("&amp;", "&")
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert not Hand.objects.exists()  # a preview records nothing
    done = client.post(f"{edit}record/", {"q": query, "version": version, "key": key})
    assert done.status_code == 302 and "repeat" not in done["Location"]
    hand = Hand.objects.get()
    assert hand.applied == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert hand.request["options"]["tariff"] == "315"
    # the same confirmation sent again (a second tap, the Back button) is the first answer, recorded once
    again = client.post(f"{edit}record/", {"q": query, "version": version, "key": key})
    assert again.status_code == 302 and again["Location"].endswith("?repeat=1") and Hand.objects.count() == 1
    # and its page says it is recorded already, with no button to record it again
    html = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}&key={key}").content.decode()
    assert 'id="already"' in html and 'id="confirm"' not in html
    # another phone's confirmation of the same hand (another key, the old version) is a visible conflict
    other = client.post(f"{edit}record/", {"q": query, "version": version, "key": "another-phone"})
    assert other.status_code == 400 and Hand.objects.count() == 1
    # the dealer moved to S: the next preview is scored with S as the dealer, and says so
    html = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}", follow=True).content.decode()
    assert "小南 +23" in text_of(html)
    assert table.hands.count() == 1


def test_not_a_win_is_explained_and_records_nothing(client, edit):
    html = client.get(
        f"{edit}record/?{urlencode({**CALCULATOR_QUERY, 'win_tile': '1m'})}", follow=True
    ).content.decode()
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
        html = client.get(f"{edit}record/?{query}", follow=True).content.decode()
        q = re.search(r'name="q" value="([^"]*)"', html).group(1).replace("&amp;", "&")
        key = re.search(r'name="key" value="([^"]*)"', html).group(1)
        client.post(f"{edit}record/", {"q": q, "key": key})
    client.post(f"{edit}draw/")
    response = client.get(f"/tables/{table.id}/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    head = ["序号", "第几底/局", "类别", "规则卡版本", "第几手", "胡牌", "放铳", "庄家（之前）", "连庄（之前）"]
    assert rows[0][:9] == head
    assert rows[0][9:16] == ["手牌", "胡的牌", "副露", "特殊", "本手选项", "计分", "包牌"]
    per_seat = ["变动", "番", "交", "通底", "替人付", "封顶少付", "余", "底外", "总计"]
    assert rows[0][16:25] == [f"{word} 阿东" for word in per_seat]
    assert [r[2] for r in rows[1:4]] == ["胡牌", "胡牌", "流局"]
    assert rows[1][:9] == ["1", "1", "胡牌", "1", "1", "小南", "老西", "阿东", "1"]
    assert rows[1][9:11] == [
        "79m111345789p55s",
        "8m",
    ]  # the engine's normalised notation and rows[1][14] == "番 5 每家"
    east = rows[2][16:25]  # 阿东 in hand 2: paid 番 5 + the dealer's 底番 2; nothing capped; 16 left of 30
    assert east == ["-7", "-7", "0", "0", "0", "0", "16", "0", "-14"]
    assert rows[2][7] == "小南" and rows[2][8] == "1"  # the dealer before hand 2
    totals = [rows[3][16 + 9 * i + 8] for i in range(4)]
    assert totals == ["-14", "42", "-16", "-12"]  # totals after the draw
    assert rows[4] == [] and rows[5] == ["结算", "付", "收", "金额"]
    assert rows[6:] == [["", "阿东", "小南", "14"], ["", "老西", "小南", "16"], ["", "北北", "小南", "12"]]
    english = list(
        csv.reader(io.StringIO(client.get(f"/tables/{table.id}/export.csv?lang=en").content.decode("utf-8-sig")))
    )
    assert english[0][:3] == ["entry", "game", "kind"] and english[0][16] == "change 阿东"
    html = client.get(f"/tables/{table.id}/").content.decode()
    lines = re.findall(r'<polyline class="line ln-([ESWN])" points="([^"]+)"', html)
    assert [seat for seat, _ in lines] == ["E", "S", "W", "N"]
    assert all(len(points.split()) == 4 for _, points in lines)  # start, two hands, the draw
    assert html.count('<use href="#mark-') == 16  # a marker per point and player


def test_the_card_and_its_change_form(client, edit):
    table = Table.objects.get()
    html = client.get(edit).content.decode()
    assert 'id="card-form"' in html and "规则卡 v1" in html
    changed = client.post(
        f"{edit}card/",
        {"version": 0, "bazhi-tariff": "525", "bazhi-stake": "", "bazhi-house_draw_dealer": "keep"},
    )
    assert changed.status_code == 302
    html = client.get(edit).content.decode()
    assert "规则卡 v2 · 八支 525" in html
    lines = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", html))
    assert lines["底分"] == "50" and lines["流局庄家"] == "连庄"  # a house rule off its default is listed
    assert "压档要求" not in lines  # the ones at their default are not
    client.post(f"{edit}draw/", {"version": 1})
    html = client.get(edit).content.decode()
    assert 'id="card-form"' not in html and 'id="card-locked"' in html
    refused = client.post(f"{edit}card/", {"version": 2, "bazhi-tariff": "315"})
    assert refused.status_code == 409 and table.cards.count() == 2


def test_undo_asks_names_the_entry_and_redo_brings_it_back(client, edit):
    html = client.get(f"{edit}record/?{urlencode(CALCULATOR_QUERY)}", follow=True).content.decode()
    q = re.search(r'name="q" value="([^"]*)"', html).group(1).replace("&amp;", "&")
    key = re.search(r'name="key" value="([^"]*)"', html).group(1)
    client.post(f"{edit}record/", {"q": q, "key": key})
    html = client.get(edit).content.decode()
    undo_box = re.search(r'<details class="undo" id="undo-box">(.*?)</details>', html, re.S).group(1)
    assert "#1" in undo_box and "小南" in undo_box and 'id="undo-confirm"' in undo_box
    assert client.post(f"{edit}undo/", {"version": 1}).status_code == 302
    html = client.get(edit).content.decode()
    assert 'id="redo"' in html and 'id="no-history"' in html
    assert client.post(f"{edit}redo/", {"version": 2}).status_code == 302
    assert Hand.objects.get().applied == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_a_page_drawn_before_entity_tags_still_gets_204_while_nothing_changed(client, edit):
    """Pages open when the server was updated ask `?v=<version>` (ledger.js before If-None-Match)."""
    table = Table.objects.get()
    url = f"/tables/{table.id}/live/"
    assert client.get(url, {"v": 0}).status_code == 204
    client.post(f"{edit}draw/", {"version": 0})
    fresh = client.get(url, {"v": 0})
    html = fresh.content.decode()
    assert fresh.status_code == 200 and html.startswith('<div id="live" data-version="1" ')
    assert "/edit/" not in html  # the live part is the read-only one
    assert client.get(url, {"v": 1}).status_code == 204
    assert client.get("/tables/nosuch/live/", {"v": 0}).status_code == 404
    assert client.get(url, {"v": 0, "from": "x"}).status_code == 404
    earlier = client.get(url, {"v": 0, "from": 1}).content.decode()  # a page of earlier entries stays that page
    assert 'data-seq="1"' in earlier


def test_a_total_of_nothing_reads_0_as_on_every_page(client, edit):
    """One signed() for every page: +19, −7 (U+2212) and a plain 0, never "±0" (shared decision 1)."""
    html = client.get(edit).content.decode()
    totals = re.findall(r'<td class="num total[^"]*">([^<]*)</td>', html)
    assert totals == ["0", "0", "0", "0"]
    assert "±" not in html


@pytest.mark.parametrize("entries, earlier", [(150, 1), (101, 1), (250, 51)])
def test_the_history_shows_the_last_100_entries_and_links_the_100_before(client, entries, earlier):
    """A long table's page draws a page of its history, not all of it; its link to earlier entries opens the page
    before (it asked for `?from=` below 1 on a table of 101 to 199 entries: a 404)."""
    api = Api(client, {"ruleset": "xinyu"})
    for _ in range(entries):
        api.ok("draw")
    page = client.get(f"/tables/{api.id}/").content.decode()
    assert re.findall(r'<li class="entry[^"]*" data-seq="(\d+)"', page)[::99] == [str(entries), str(entries - 99)]
    link = re.search(r'<a href="\?from=(\d+)" id="earlier">', page).group(1)
    assert int(link) == earlier
    before = client.get(f"/tables/{api.id}/?from={link}")
    assert before.status_code == 200 and f'data-seq="{earlier}"' in before.content.decode()
