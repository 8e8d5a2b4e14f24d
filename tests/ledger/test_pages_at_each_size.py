"""Every table page at a table of four and at a bazhi table of three (issue 28, RULES.md §1.8, docs/seats.md): the
new-table page, the table page and its history, the live part, the chart, settlement, CSV, undo and redo, the QR
links, the record page and the calculator bound to the table. Each test runs at both sizes; the pages draw the
table's seats, in play order, whatever order a stored map's keys come back in (PostgreSQL's jsonb sorts them:
E N S W). Run on SQLite and again on PostgreSQL (scripts/test).

The hand is B1 (tests/ledger/hands.py): 小南 (S) wins 压档 8 on 老西's (W) discard, 阿东 (E) deals, 315, a 底 of 30:
番 5 each, the dealer and the discarder 2 more. At four 北北 (N) pays 5: E −7, S +19, W −7, N −5. At three: E −7,
S +14, W −7.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from html import unescape
from urllib.parse import urlencode

import pytest

from calculator.models import Hand, Table
from calculator.pages.tables.qr import qr_data_uri
from tests.conftest import TEST_GAME
from tests.ledger.hands import B1

pytestmark = pytest.mark.django_db

NAMES = {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}
# B1 as the calculator sends it (tariff 525 and dealer W are the calculator's: the table's replace them)
B1_QUERY = {"ruleset": "bazhi", "tariff": "525", "dealer": "W", **{k: B1[k] for k in ("hand", "win_tile", "winner")}}
B1_QUERY["discarder"] = B1["discarder"]


@dataclass(frozen=True)
class Size:
    players: int
    seats: tuple[str, ...]
    b1: dict[str, int]  # what B1 moves
    settlement: list[tuple[str, str, int]]  # after B1: (from, to, amount) by name

    @property
    def names(self) -> dict[str, str]:
        return {seat: NAMES[seat] for seat in self.seats}

    def after_b1(self, stake: int = 30) -> dict[str, int]:
        return {seat: stake + self.b1[seat] for seat in self.seats}


FOUR = Size(
    4,
    ("E", "S", "W", "N"),
    {"E": -7, "S": 19, "W": -7, "N": -5},
    [("阿东", "小南", 7), ("老西", "小南", 7), ("北北", "小南", 5)],
)
THREE = Size(3, ("E", "S", "W"), {"E": -7, "S": 14, "W": -7}, [("阿东", "小南", 7), ("老西", "小南", 7)])


@pytest.fixture(params=[FOUR, THREE], ids=["players=4", "players=3"])
def size(request) -> Size:
    return request.param


def nets(size: Size) -> str:
    """B1's nets as the pages say them, seat after seat: "阿东 −7 小南 +14 老西 −7"."""
    return " ".join(f"{NAMES[s]} {size.b1[s]:+d}".replace("-", "−") for s in size.seats)


def text_of(html: str) -> str:
    """The page's text as a reader sees it: no tags, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def new_table(client, size: Size, **fields) -> str:
    """A table made on the new-table page with a name for each seat of `size`: its edit link."""
    form = {"ruleset": "bazhi", "bazhi-tariff": "315", "bazhi-players": str(size.players), "dealer": "E"}
    form.update({f"name_{seat}": name for seat, name in size.names.items()})
    response = client.post("/tables/new/", {**form, **fields})
    assert response.status_code == 302, text_of(response.content.decode())
    return response["Location"].split("?")[0]


def record_b1(client, edit: str, **changes) -> None:
    """B1 typed into the table's record page: the preview, then its confirmation."""
    html = client.get(f"{edit}record/?{urlencode({**B1_QUERY, **changes})}", follow=True).content.decode()
    q = unescape(re.search(r'name="q" value="([^"]*)"', html).group(1))
    key = re.search(r'name="key" value="([^"]*)"', html).group(1)
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert client.post(f"{edit}record/", {"q": q, "key": key, "version": version}).status_code == 302


def seat_rows(html: str) -> dict[str, str]:
    """The balances table: each row's seat and its text, in the page's order."""
    body = re.search(r'<table class="balances" id="balances">.*?</table>', html, re.S).group(0)
    return {
        seat: text_of(row)
        for seat, row in re.findall(r'<tr class="seat-\w[^"]*" data-seat="(\w)">(.*?)</tr>', body, re.S)
    }


def cells(html: str, column: str) -> dict[str, int]:
    """One column of the balances table (balance, outside, total) by seat, in the page's order."""
    body = re.search(r'<table class="balances" id="balances">.*?</table>', html, re.S).group(0)
    rows = re.findall(r'data-seat="(\w)">(.*?)</tr>', body, re.S)
    return {
        seat: int(re.search(rf'<td class="num {column}[^"]*">([^<]*)</td>', row).group(1).replace("−", "-"))
        for seat, row in rows
    }


def transfers(html: str) -> list[tuple[str, str, int]]:
    return [
        (unescape(a), unescape(b), int(n))
        for a, b, n in re.findall(
            r'<li data-from="\w" data-to="\w" data-amount="\d+">.*?title="([^"]*)".*?title="([^"]*)".*?'
            r'<strong class="num">(\d+)</strong></li>',
            html,
        )
    ]


# --------------------------------------------------------------------------------------------- the new-table page


def test_the_new_table_page_makes_a_table_of_the_chosen_size_named_as_typed(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    assert table.players == size.names  # exactly the chosen seats: no seat filled in
    assert table.current().seats == size.seats and table.current_card().options["players"] == size.players
    assert list(seat_rows(client.get(edit).content.decode())) == list(size.seats)


def test_the_size_is_asked_only_for_a_game_that_plays_more_than_one(client):
    """bazhi plays 4 or 3 (a choice beside the names, each size with the seats it sits); xinyu plays 4 only:
    nothing to ask. A table's card change never asks it again (its seats are fixed)."""
    html = client.get("/tables/new/").content.decode()
    sizes = re.search(
        r'<div class="sizes" role="radiogroup" aria-label="人数" data-ruleset="bazhi" id="sizes-bazhi">(.*?)</div>',
        html,
        re.S,
    )
    offered = re.findall(
        r'<label class="check" data-seats="([^"]*)"><input type="radio" name="bazhi-players" '
        r'value="(\d)"',
        sizes.group(1),
    )
    assert offered == [("E S W N", "4"), ("E S W", "3")]
    assert "checked" in re.search(r'<input[^>]*name="bazhi-players" value="4"[^>]*>', html).group(0)
    assert "xinyu-players" not in html and 'data-ruleset="xinyu" id="sizes-xinyu"' not in html
    games = re.findall(r'data-seats="([^"]*)"><input type="radio" name="ruleset" value="(\w+)"', html)
    assert {("E S W N", "bazhi"), ("E S W N", "xinyu")} <= set(games)  # each game's default size
    # the fixture game of tests/games plays 4 or 2: asked the same way, no game named
    fixture = TEST_GAME.id
    sizes = re.search(rf'id="sizes-{fixture}">(.*?)</div>', html, re.S).group(1)
    assert re.findall(rf'data-seats="([^"]*)"><input type="radio" name="{fixture}-players" value="(\d)"', sizes) == [
        ("E S W N", "4"),
        ("E S", "2"),
    ]
    assert re.findall(r'<label data-seat="(\w)">', html) == ["E", "S", "W", "N"]  # every seat a table may have
    edit = new_table(client, THREE)
    page = client.get(edit).content.decode()
    assert 'id="card-form"' in page and "bazhi-players" not in page
    assert "人数</dt><dd>三人（东南西）" in page  # the card says the table's size


def test_a_name_typed_for_a_seat_the_chosen_size_lacks_is_refused_beside_it_not_dropped(client):
    form = {"ruleset": "bazhi", "bazhi-players": "3", "dealer": "E", **{f"name_{s}": n for s, n in NAMES.items()}}
    page = client.post("/tables/new/", form, HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and not Table.objects.exists()
    north = html.index('name="name_N"')
    assert north < html.index("it has no seat N") < html.index('name="dealer"')


def test_a_first_dealer_the_chosen_size_lacks_is_refused_beside_the_dealer(client):
    form = {"ruleset": "bazhi", "bazhi-players": "3", "dealer": "N", **{f"name_{s}": n for s, n in THREE.names.items()}}
    page = client.post("/tables/new/", form, HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and not Table.objects.exists()
    assert html.index('name="dealer"') < html.index("the dealer must be one of E S W (a table of 3)")


# --------------------------------------------------------------------------------------------- the table page


def test_the_table_page_shows_each_seat_its_balance_total_and_the_history_its_nets(client, size):
    edit = new_table(client, size)
    record_b1(client, edit)
    html = client.get(edit).content.decode()
    assert list(seat_rows(html)) == list(size.seats)
    assert cells(html, "balance") == size.after_b1() and cells(html, "total") == size.b1
    assert cells(html, "outside") == dict.fromkeys(size.seats, 0)
    [entry] = re.findall(
        r"<summary>(.*?)</summary>", re.search(r'<ol class="history".*?</ol>', html, re.S).group(0), re.S
    )
    assert text_of(entry) == "#1 小南 胡 老西 的铳 " + nets(size)
    assert "北北" in html if size.players == 4 else "北北" not in html and 'data-seat="N"' not in html


def test_the_settlement_is_among_the_tables_seats(client, size):
    edit = new_table(client, size)
    record_b1(client, edit)
    assert transfers(client.get(edit).content.decode()) == size.settlement


def test_the_live_part_draws_the_tables_seats(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    record_b1(client, edit)
    for url in (f"/tables/{table.id}/live/", f"{edit}live/"):  # the read-only one, the edit page's with controls
        live = client.get(url)
        html = live.content.decode()
        assert live.status_code == 200 and html.startswith('<div id="live" data-version="1"')
        assert cells(html, "balance") == size.after_b1() and transfers(html) == size.settlement
    assert 'id="undo-what"' in html and "下一手 老西 坐庄" in text_of(html)  # the edit part asks before a draw


def test_the_chart_draws_a_line_and_a_legend_entry_for_each_seat(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    record_b1(client, edit)
    client.post(f"{edit}draw/", {"version": 1})
    html = client.get(f"/tables/{table.id}/").content.decode()
    lines = re.findall(r'<polyline class="line ln-(\w)" points="([^"]+)"', html)
    assert [seat for seat, _ in lines] == list(size.seats)
    assert all(len(points.split()) == 3 for _, points in lines)  # the start, the hand, the drawn hand
    assert html.count('<use href="#mark-') == 3 * size.players
    legend = re.search(r"<figcaption>(.*?)</figcaption>", html, re.S).group(1)
    assert text_of(legend) == nets(size)


def test_the_charts_first_markers_stand_clear_of_the_tick_labels(client, size):
    """The tick labels end 4 before the plot's left edge (40) and a marker is 9 wide: the first point is at 47."""
    edit = new_table(client, size)
    record_b1(client, edit)
    html = client.get(f"/tables/{Table.objects.get().id}/").content.decode()
    ticks = re.findall(r'<text class="tick" x="([\d.]+)" y="[\d.]+" text-anchor="end"', html)
    assert ticks and set(ticks) == {"36"}
    first = [float(x) for x in re.findall(r'<use href="#mark-\w" x="([\d.]+)"', html)][::2]
    assert first == [47.0] * size.players  # the start of each line (then its hand)


def test_the_csv_has_each_seats_columns_and_settles_among_them(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    record_b1(client, edit)
    rows = list(csv.reader(io.StringIO(client.get(f"/tables/{table.id}/export.csv").content.decode("utf-8-sig"))))
    per_seat = ["变动", "番", "交", "通底", "替人付", "封顶少付", "余", "底外", "总计"]
    assert rows[0][16:] == [f"{word} {NAMES[s]}" for s in size.seats for word in per_seat]
    changes = rows[1][16::9]
    assert changes == [str(size.b1[s]) for s in size.seats] and rows[1][5:8] == ["小南", "老西", "阿东"]
    assert rows[1][16 + 6 :: 9] == [str(v) for v in size.after_b1().values()]  # what is left of each 底
    assert rows[2] == [] and rows[3] == ["结算", "付", "收", "金额"]
    assert [(a, b, int(n)) for _, a, b, n in rows[4:]] == size.settlement


def test_undo_and_redo_move_each_seat_back_and_forth(client, size):
    edit = new_table(client, size)
    record_b1(client, edit)
    html = client.get(edit).content.decode()
    undo_what = text_of(re.search(r'<p id="undo-what">(.*?)</p>', html, re.S).group(1))
    assert undo_what == "将删除： #1 小南 胡 老西 的铳 " + nets(size)
    assert client.post(f"{edit}undo/", {"version": 1}).status_code == 302
    html = client.get(edit).content.decode()
    assert cells(html, "balance") == dict.fromkeys(size.seats, 30) and 'id="redo"' in html
    assert client.post(f"{edit}redo/", {"version": 2}).status_code == 302
    assert cells(client.get(edit).content.decode(), "balance") == size.after_b1()
    assert Hand.objects.get().applied == size.b1


def test_a_drawn_hand_says_who_deals_next_among_the_tables_seats(client, size):
    """After B1 小南 (S) deals; a drawn hand passes the deal to the 下家 among the seats: W, then N at four and E at
    three (E → S → W → E)."""
    edit = new_table(client, size)
    record_b1(client, edit)
    dealers = []
    for version in (1, 2):
        html = client.get(edit, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        dealers.append(re.search(r"nobody pays, and (\S+) deals next", text_of(html)).group(1))
        assert client.post(f"{edit}draw/", {"version": version}).status_code == 302
    assert dealers == ["老西", NAMES[size.seats[3 % size.players]]]
    assert Table.objects.get().current().dealer == size.seats[(1 + 2) % size.players]


def test_the_qr_codes_hold_the_links_to_the_table(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    html = client.get(edit).content.decode()
    view_url = unescape(re.search(r'value="([^"]*)" id="view-url"', html).group(1))
    edit_url = unescape(re.search(r'value="([^"]*)" id="edit-url"', html).group(1))
    assert view_url == f"http://testserver/tables/{table.id}/" and edit_url == f"http://testserver{edit}"
    assert unescape(re.search(r'src="([^"]*)"[^>]*id="view-qr"', html).group(1)) == qr_data_uri(view_url)
    assert unescape(re.search(r'src="([^"]*)"[^>]*id="edit-qr"', html).group(1)) == qr_data_uri(edit_url)
    assert list(seat_rows(client.get(view_url).content.decode())) == list(size.seats)


# --------------------------------------------------------------------------------------------- recording a hand


def test_the_record_page_offers_the_tables_seats_and_previews_their_nets(client, size):
    edit = new_table(client, size)
    html = client.get(f"{edit}record/?{urlencode(B1_QUERY)}", follow=True).content.decode()
    assert re.findall(r'name="winner" value="(\w)"', html) == list(size.seats)
    assert re.findall(r'name="discarder" value="(\w)"', html) == list(size.seats)
    assert text_of(re.search(r'<p class="nets">(.*?)</p>', html, re.S).group(1)) == nets(size)
    meld_from = re.search(r'<select name="meld1_from".*?</select>', html, re.S).group(0)
    offered = re.findall(r'<option value="(\w)"(?![^>]*hidden)', meld_from)
    assert offered == list(size.seats)  # a meld's source: the table's seats only


def test_the_bound_calculator_names_the_tables_seats_and_records_a_hand(client, size):
    edit = new_table(client, size)
    table = Table.objects.get()
    token = edit.rstrip("/").rsplit("/", 1)[1]
    bound = f"/?table={table.id}&token={token}&at=0"
    html = client.get(f"{bound}&{urlencode(B1_QUERY)}").content.decode()
    banner = text_of(re.search(r'<section class="table-banner".*?</section>', html, re.S).group(0))
    assert f"（{'、'.join(size.names.values())}）" in banner
    players = dict(
        re.findall(
            r'for="id_winner_\d"[^>]*>.*?<span class="seat-word">(\w)</span> <span class="seat-player" '
            r'title="([^"]*)"',
            html,
            re.S,
        )
    )
    assert {word: name for word, name in players.items() if name} == {
        {"E": "东", "S": "南", "W": "西", "N": "北"}[s]: NAMES[s] for s in size.seats
    }
    chosen = re.search(rf'<input type="radio" name="players" value="{size.players}"[^>]*>', html).group(0)
    assert " checked" in chosen and " disabled" in chosen  # the table's size, fixed
    fields = dict(re.findall(r'<input type="hidden" form="record-form" name="(\w+)" value="([^"]*)"', html))
    done = client.post(
        f"/tables/{table.id}/edit/{token}/record/",
        {"from": "calculator", **{k: unescape(v) for k, v in fields.items()}},
    )
    assert done.status_code == 302 and done["Location"] == edit
    assert Hand.objects.get().applied == size.b1
