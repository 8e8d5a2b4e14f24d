"""The calculator, the learners' tools, the trainer and the rules page at each table size a game plays (issue 28,
RULES.md §1.8): bazhi at four and at three (seats E S W), and the fixture game at two. The pages draw the seats
they are handed (the answer's, or the chosen card's before there is one); nothing here is drawn for four."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import seats_of, table_sizes
from calculator.presentation import cards
from calculator.presentation.handquery import Fields, HandInput, parse_query, query_string
from calculator.presentation.locale import Locale
from calculator.presentation.trainer.questions import Spec, question, table_of
from calculator.presentation.who_pays import PLACES, ArrowCell, SeatCell
from tests.conftest import TEST_GAME
from tests.games.examples import hands
from tests.web.fields import B1

# B1 at each size bazhi plays (RULES.md §1.8, cases T1): South wins on West's discard.
B1_NETS = {4: {"E": -7, "S": 19, "W": -7, "N": -5}, 3: {"E": -7, "S": 14, "W": -7}}
SIZES = sorted(B1_NETS, reverse=True)
# The fixture game's worked hand at two (its only size besides four)
FIXTURE = TEST_GAME.id


def at(size: int, fields: dict) -> dict:
    return {**fields, "players": str(size)}


def request_of(fields: dict) -> dict:
    return parse_query(Fields.of(urlencode(fields))).request


def page(client, fields: dict, **headers) -> str:
    response = client.get(reverse("calculator"), fields, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def nets(html: str) -> dict[str, int]:
    return {seat: int(net) for seat, net in re.findall(r'data-seat="([ESWN])" data-net="(-?\d+)"', html)}


def strip_nets(html: str) -> dict[str, int]:
    found = re.findall(r'data-strip-seat="([ESWN])" data-strip-net="(-?\d+)"', html)
    return {seat: int(net) for seat, net in found}


def links(html: str) -> list[dict[str, list[str]]]:
    """The query of every link of the result card to the calculator (waits, draws, other readings)."""
    return [parse_qs(urlsplit(href.replace("&amp;", "&")).query) for href in re.findall(r'href="(/?\?[^"]*)"', html)]


def shown_seats(html: str, row: str) -> list[str]:
    """The seat buttons of a row the page shows (not hidden as a seat the table lacks)."""
    fieldset = re.search(rf'data-seat-row="{row}".*?</fieldset>', html, re.S).group(0)
    labels = re.findall(r'<label class="seg-item seat-item( is-absent)?"[^>]*data-table-seat="([ESWN]?)"', fieldset)
    return [seat for absent, seat in labels if not absent]


# ------------------------------------------------------------------------------------------ the calculator


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["zh-CN", "en"])
def test_b1_is_scored_and_drawn_at_the_table_size_chosen(client, size, language):
    html = page(client, at(size, B1), **{"Accept-Language": language})
    assert nets(html) == strip_nets(html) == B1_NETS[size]
    assert html.count('class="cell seat-cell') == size  # the who-pays picture: one cell per seat
    assert html.count('class="cell arrow-cell') == size - 1  # an arrow from each loser
    share = re.search(r'id="share-url" type="url" readonly value="([^"]*)"', html).group(1)
    assert parse_qs(urlsplit(share.replace("&amp;", "&")).query)["players"] == [str(size)]


@pytest.mark.parametrize("size", SIZES)
def test_the_seat_buttons_names_and_meld_sources_are_the_tables(client, size):
    html = page(client, at(size, B1))
    seats = list(seats_of(size))
    assert shown_seats(html, "winner") == shown_seats(html, "dealer") == seats
    assert shown_seats(html, "discarder") == ["", *seats]  # self-draw first
    named = re.findall(r'class="name-field( is-absent)?"\s*data-table-seat="([ESWN])"', html)
    assert [seat for absent, seat in named if not absent] == seats
    meld_from = re.search(r'<select name="meld1_from".*?</select>', html, re.S).group(0)
    offered = re.findall(r'<option value="([ESWN]?)"( selected)?( hidden disabled)?>', meld_from)
    assert [value for value, _selected, hidden in offered if not hidden] == ["", *seats]


@pytest.mark.parametrize("size", SIZES)
def test_the_page_without_javascript_posts_to_the_share_link_of_its_table_size(client, size):
    response = client.post(reverse("calculator"), at(size, B1))
    assert response.status_code == 303
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["players"] == [str(size)]
    assert nets(page(client, {k: v[0] for k, v in query.items()})) == B1_NETS[size]


@pytest.mark.parametrize("size", SIZES)
def test_the_htmx_partial_draws_the_tables_nets(client, size):
    html = client.get(reverse("calculator"), at(size, B1), headers={"HX-Request": "true"}).content.decode()
    assert nets(html) == strip_nets(html) == B1_NETS[size]


def test_north_at_a_table_of_three_is_the_engines_error_beside_its_button(client):
    """A link that names a seat the table lacks: the engine refuses it (bad_seat), and the chosen button stays in
    view (the others of North stay hidden)."""
    html = page(client, at(3, {**B1, "winner": "N"}))
    assert 'data-error="bad_seat" data-field="winner"' in html
    assert shown_seats(html, "winner") == ["E", "S", "W", "N"]
    assert shown_seats(html, "dealer") == ["E", "S", "W"]


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_players_choice_is_offered_where_a_game_plays_more_than_one_size(client, game):
    """A choice of one value is no choice: xinyu (four only) draws none; bazhi offers 4 and 3, the fixture 4 and 2."""
    html = page(client, {})
    section = re.search(rf'<div class="options game-options[^"]*" data-rulesets="{game}">.*?</details>', html, re.S)
    offered = re.findall(r'<input type="radio" name="players" value="(\d)" id="id_players_' + game, section.group(0))
    sizes = RULESETS[game].table_sizes
    assert offered == ([str(n) for n in sizes] if len(sizes) > 1 else [])


def test_the_fixture_game_is_scored_at_two(client):
    """The fixture game's 2 is a choice of the page's form (a field shared by every game that declares it)."""
    hand = hands(FIXTURE)[0]["request"]
    request = {**hand, "options": {**hand.get("options", {}), "players": 2}, "winner": "E", "dealer": "E"}
    request["discarder"] = "S" if request.get("discarder") else None
    expected = score(request)["net"]
    assert list(expected) == ["E", "S"]
    fields = parse_qs(query_string(HandInput(request, {})))
    assert fields["players"] == ["2"]
    response = client.post(reverse("calculator"), {k: v[-1] for k, v in fields.items()})
    assert response.status_code == 303, response.content.decode()[:2000]
    assert nets(page(client, {k: v[0] for k, v in parse_qs(urlsplit(response["Location"]).query).items()})) == expected


# ------------------------------------------------------------------------------------------ who pays whom


@pytest.mark.parametrize(
    "request_",
    [
        request_of(at(4, B1)),
        request_of(at(3, B1)),
        request_of(at(3, {**B1, "winner": "E", "discarder": ""})),
        request_of(at(3, {**B1, "winner": "W", "discarder": "E"})),
    ],
    ids=["four", "three", "three, East self-draws", "three, West wins"],
)
def test_the_who_pays_picture_holds_the_tables_seats_each_arrow_between_its_payer_and_the_winner(request_):
    answer = score(request_)
    card = cards.win_card(answer, {}, Locale.from_catalogue("en", None, str, str))
    seats = [cell.seat for cell in card.cells if isinstance(cell, SeatCell)]
    assert sorted(seats) == sorted(answer["net"])
    assert len(card.cells) % 3 == 0  # rows of three
    place = {cell.pos: n for n, cell in enumerate(card.cells)}
    where = {cell.seat: place[cell.pos] for cell in card.cells if isinstance(cell, SeatCell)}
    winner = where[answer["request"]["winner"]]
    payers = {p["from"] for p in answer["payments"]}
    arrows = [place[cell.pos] for cell in card.cells if isinstance(cell, ArrowCell)]
    assert len(arrows) == len(payers)
    glyph = {n: cell.arrow for n, cell in enumerate(card.cells) if isinstance(cell, ArrowCell)}
    for payer in payers:  # each payer's arrow is in a cell beside both seats, pointing from the payer to the winner
        way = GLYPHS[(sign(winner % 3 - where[payer] % 3), sign(winner // 3 - where[payer] // 3))]
        between = [n for n in arrows if touches(n, where[payer]) and touches(n, winner) and glyph[n] == way]
        assert len(between) == 1, (payer, card.cells)


GLYPHS = {(0, -1): "↑", (0, 1): "↓", (1, 0): "→", (-1, 0): "←", (1, -1): "↗", (1, 1): "↘", (-1, 1): "↙", (-1, -1): "↖"}


def sign(n: int) -> int:
    return (n > 0) - (n < 0)


def test_the_picture_has_a_shape_for_every_table_size():
    """A game may play any size from two to four (the registry's bounds): each has its places, one cell apiece."""
    assert set(PLACES) == {seats_of(n) for n in table_sizes()}
    for seats, places in PLACES.items():
        assert set(places) == set(seats) and len(set(places.values())) == len(seats)


def touches(a: int, b: int) -> bool:
    """Two cells of the picture's rows of three side by side or corner to corner."""
    return a != b and abs(a // 3 - b // 3) <= 1 and abs(a % 3 - b % 3) <= 1


# ------------------------------------------------------------------------------------------ for learners


@pytest.mark.parametrize(("size", "downstream"), [(4, "N"), (3, "E")])
def test_the_waits_are_won_off_the_winners_next_player_at_the_table(client, size, downstream):
    """West's 下家 is North at four and East at three: the discard way names them, the nets hold the table's
    seats, and each way's link keeps the table size."""
    html = page(client, at(size, {**B1, "winner": "W", "discarder": "", "win_tile": ""}), **{"Accept-Language": "en"})
    names = {"N": "North", "E": "East"}
    assert f"Discard by {names[downstream]}" in html
    rows = re.findall(r'<span class="wait-nets">(.*?)</span>\s*(?:<span class="wait-patterns|</a>)', html, re.S)
    assert rows and all(row.count("<span>") == size - 1 for row in rows)  # the winner's gain apart
    assert all(query["players"] == [str(size)] for query in links(html) if "win_tile" in query)


@pytest.mark.parametrize("size", SIZES)
def test_a_hand_not_ready_shows_the_tiles_that_help_at_its_table(client, size):
    html = page(client, at(size, {**B1, "hand": "111345789p19m55s", "win_tile": ""}))
    assert 'data-draws="' in html
    drawn = [query for query in links(html) if "win_tile" in query]
    assert drawn and all(query["players"] == [str(size)] for query in drawn)


@pytest.mark.parametrize("size", SIZES)
def test_fourteen_tiles_that_do_not_win_show_the_nearest_win_and_the_best_discards(client, size):
    html = page(client, at(size, {**B1, "hand": "123456m123p1234s", "win_tile": "1s"}))
    assert 'data-win="false" data-code="no_bazhi"' in html
    assert "data-distance" in html and "data-discards" in html and 'data-discard="1s"' in html


@pytest.mark.parametrize("size", SIZES)
def test_the_other_readings_hold_the_tables_seats(client, size):
    """1113m waits on 2m and 3m; won on 2m it is 压档 only if any wait will do (case HB1): that reading's nets are
    the table's."""
    html = page(client, at(size, {**B1, "hand": "1113m123456789p", "win_tile": "2m"}))
    readings = re.findall(r'<li class="alt" data-alt="[^"]*" data-alt-win="true"([^>]*)>', html)
    assert readings
    for attributes in readings:
        assert re.findall(r"data-alt-net-([ESWN])=", attributes) == list(seats_of(size))
    assert all(query["players"] == [str(size)] for query in links(html) if "house_yadang_wait" in query)
    assert any("house_yadang_wait" in query for query in links(html))


# ------------------------------------------------------------------------------------------ the trainer


def spec_at(size: int, kind: str) -> Spec:
    """The first seed whose bazhi question of this kind is dealt at a table of `size`."""
    seed = next(seed for seed in range(200) if len(table_of("bazhi", seed)) == size)
    return Spec(seed, "bazhi", kind)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", ["pay", "waits"])
def test_a_trainer_question_is_dealt_at_each_size_the_game_plays_and_graded_by_the_engine(client, size, kind):
    q = question(spec_at(size, kind))
    answer = score(q.request)
    assert q.request["options"]["players"] == answer["request"]["options"]["players"] == size
    if kind == "pay":
        assert all(list(choice.net) == list(seats_of(size)) for choice in q.choices)  # one table's nets
        right = next(n for n, choice in enumerate(q.choices) if dict(choice.net) == answer["net"])
        query = {**q.link.query(), "answer": str(right)}
    else:
        tiles = [wait["tile"] for wait in answer["waits"]]
        query = {**q.link.query(), **({"answer": "tiles", "tile": tiles} if tiles else {"answer": "none"})}
    html = client.get(reverse("trainer"), query).content.decode()
    assert re.search(r'id="trainer"[^>]*data-correct="true"', html, re.S)
    if kind == "pay":
        assert html.count('<span class="pay-seat">') == size * len(q.choices)


def test_about_one_question_in_four_is_dealt_at_a_table_of_three():
    dealt = [len(table_of("bazhi", seed)) for seed in range(400)]
    assert set(dealt) == {3, 4}
    assert 60 <= dealt.count(3) <= 140
    assert {len(table_of("xinyu", seed)) for seed in range(100)} == {4}  # xinyu plays four only


# ------------------------------------------------------------------------------------------ the rules page


def test_the_rules_page_lists_the_table_of_three_as_a_reading(client):
    html = client.get(reverse("rules")).content.decode()
    assert re.search(r'<li><strong lang="zh-Hans">三人开局</strong> <span class="where">§1\.8</span>', html)
