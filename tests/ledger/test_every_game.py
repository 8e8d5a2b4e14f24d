"""The ledger over every registered game (issue 19): a table opens with the game's defaults, records its worked
hands (examples.toml in the game's package) with their nets, moves the deal after a drawn hand as the game
declares, undoes, and its pages show it. Nothing here names a game."""

from __future__ import annotations

import pytest

from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import SEATS, next_seat, seats_of
from tests.games.examples import hand_body, hands, table_body
from tests.ledger.client import Api

pytestmark = pytest.mark.django_db

GAMES = sorted(RULESETS)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_records_the_games_worked_hands_with_their_nets(client, game):
    for hand in hands(game):
        api = Api(client, table_body(game, hand))
        recorded = api.ok("hands", hand_body(game, hand))
        assert recorded["totals"] == hand["net"]
        assert recorded["hands"][0]["result"]["net"] == hand["net"]
        assert api.get()["totals"] == hand["net"]


@pytest.mark.parametrize("game", GAMES)
def test_undo_takes_the_hand_back(client, game):
    hand = hands(game)[0]
    api = Api(client, table_body(game, hand))
    api.ok("hands", hand_body(game, hand))
    assert api.ok("undo")["totals"] == dict.fromkeys("ESWN", 0)
    assert api.get()["hands_total"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_drawn_hand_moves_the_deal_as_the_game_declares(client, game):
    ruleset = RULESETS[game]
    after = ruleset.table.declared.after_draw
    keeps = (ruleset.house_by_id[after.house].default if after.house else after.fixed) == "keep"
    api = Api(client, {"ruleset": game, "dealer": "S"})
    state = api.ok("draw")
    assert state["dealer"] == ("S" if keeps else next_seat("S", SEATS))
    assert state["totals"] == dict.fromkeys("ESWN", 0)


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_that_is_no_win_is_refused_and_changes_nothing(client, game):
    hand = hands(game)[0]
    api = Api(client, table_body(game, hand))
    spread = {"hand": "1357m2468p1357s9s", "win_tile": "9m", "melds": [], "flags": []}  # a win in no game
    status, code, _ = api.refused("hands", {**hand_body(game, hand), **spread})
    assert (status, code) == (400, "incomplete")  # the engine's own code for a hand of no shape
    assert api.get()["hands_total"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_table_pages_show_the_game_its_players_and_who_pays_whom(client, game):
    hand = hands(game)[0]
    api = Api(client, table_body(game, hand))
    settlement = api.ok("hands", hand_body(game, hand))["settlement"]
    assert settlement  # someone pays someone
    for path in (f"/tables/{api.id}/", f"/tables/{api.id}/edit/{api.token}/"):
        page = client.get(path, headers={"Accept-Language": "zh-CN"})
        assert page.status_code == 200, path
        html = page.content.decode()
        assert "阿东" in html, path
        for t in settlement:
            assert f'data-from="{t["from"]}" data-to="{t["to"]}" data-amount="{t["amount"]}"' in html, (path, t)
    assert f'data-ruleset="{game}"' in client.get("/tables/new/").content.decode()  # a table of it can be opened


SIZES = [(game, size) for game in GAMES for size in RULESETS[game].table_sizes]


@pytest.mark.parametrize(("game", "size"), SIZES, ids=[f"{game}-{size}" for game, size in SIZES])
def test_a_table_of_each_size_the_game_plays_keeps_exactly_its_seats(client, game, size):
    """docs/seats.md: the first `size` of E S W N, each named, every map of the table holding exactly them (a
    stored map's key order is the database's: PostgreSQL's jsonb sorts keys), and the deal passing round them in
    play order after drawn hands (where the game passes it)."""
    seats = seats_of(size)
    names = {seat: f"P{seat}" for seat in seats}
    api = Api(client, {"ruleset": game, "options": {"players": size}, "players": names})
    state = api.get()
    assert state["players"] == names and state["card"]["options"]["players"] == size
    for books in ("balances", "outside", "totals"):
        assert sorted(state[books]) == sorted(seats)
    after = RULESETS[game].table.declared.after_draw
    keeps = (RULESETS[game].house_by_id[after.house].default if after.house else after.fixed) == "keep"
    dealers = [api.ok("draw")["dealer"] for _ in seats]
    assert dealers == ([seats[0]] * size if keeps else [*seats[1:], seats[0]])
