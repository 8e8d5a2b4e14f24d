"""The page greys a special win exactly where the engine refuses it (issue 19): calculator.js evaluates the
conditions each game declares (fed to it with the declarations) with one generic function, and keeps no rule of
its own. Each situation is made by tapping; every flag of the chosen game is compared with the engine's own
`unmet` for the same situation, and the reason shown with the first condition that fails."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from calculator.engine.flags import Situation, unmet
from calculator.engine.rulesets import RULESETS
from tests.browser.phone import expect, tap_meld, tap_seats, tap_tiles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (winner, dealer, discarder or "" for a self-draw, concealed kongs), each tapped on a fresh page
SEATINGS = [
    ("S", "E", "", 0),
    ("S", "E", "W", 0),
    ("E", "E", "", 0),
    ("E", "E", "S", 0),
    ("S", "E", "E", 0),
    ("S", "E", "", 1),
    ("S", "E", "", 2),
]
KONG_TILES = ("2s", "4s")  # tiles every game has


def expect_flags_as_the_engine_says(page, ruleset, situation: Situation) -> None:
    for flag in ruleset.flags:
        failed = unmet(flag, situation)
        box = page.locator(f'input[name="flags"][value="{flag.id}"]')
        if failed:
            expect(box).to_be_disabled()
        else:
            expect(box).to_be_enabled()
        expect(page.locator(f"#why-{flag.id}")).to_have_text(failed[0].reason.zh if failed else "")


def open_game(page, game: str) -> None:
    page.goto(page.base + "/")
    page.check(f'input[name="ruleset"][value="{game}"]')


@pytest.mark.parametrize("game", sorted(RULESETS))
@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: "-".join(map(str, s)))
def test_a_flag_is_greyed_where_the_engine_refuses_it(page, game, seating):
    winner, dealer, discarder, kongs = seating
    open_game(page, game)
    tap_seats(page, winner, dealer, discarder)
    for tile in KONG_TILES[:kongs]:
        tap_meld(page, "kong_concealed", tile)
    situation = Situation(winner, dealer, discarder or None, kongs, kongs, frozenset())
    expect_flags_as_the_engine_says(page, RULESETS[game], situation)
    assert page.console.errors == [], page.console.errors


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_flag_that_is_ticked_greys_the_flags_it_excludes(page, game):
    ruleset = RULESETS[game]
    open_game(page, game)
    tap_seats(page, "E", "E", "")
    seated = Situation("E", "E", None, 0, 0, frozenset())
    for flag in ruleset.flags:
        if unmet(flag, seated):
            continue
        page.check(f'input[name="flags"][value="{flag.id}"]')
        expect_flags_as_the_engine_says(page, ruleset, Situation("E", "E", None, 0, 0, frozenset([flag.id])))
        page.uncheck(f'input[name="flags"][value="{flag.id}"]')


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_winning_tile_the_winner_holds_more_of_greys_robbing_a_kong(page, game):
    """13 tiles with two 5s, won on a third 5s by a discard: the robbed tile cannot be held (RULES.md §4)."""
    open_game(page, game)
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "5s", "5s", "5s"])
    situation = Situation("S", "E", "W", 0, 0, frozenset(), win_tile_copies=3)
    expect_flags_as_the_engine_says(page, RULESETS[game], situation)


@pytest.mark.parametrize(("win", "win_copies", "wild"), [("5p", 4, 4), ("9m", 3, 3)])
def test_a_winner_holding_all_four_wild_tiles_greys_the_liable_discard(page, win, win_copies, wild):
    """RULES.md §4: 555p 123m 456s 78s 99m with 财神 5p, won on W's discard: on 5p the winner holds all four 财神
    and no discarder is liable; on 9m three, and the liable discard can apply."""
    query = {"ruleset": "xinyu", "caishen": "5p", "hand": "555p123m456s78s99m", "win_tile": win}
    page.goto(page.base + "/?" + urlencode({**query, "winner": "S", "dealer": "E", "discarder": "W"}))
    situation = Situation("S", "E", "W", 0, 0, frozenset(), win_tile_copies=win_copies, wild_copies=wild)
    assert bool(unmet(RULESETS["xinyu"].flag_by_id["liable_caishen"], situation)) is (wild == 4)
    expect_flags_as_the_engine_says(page, RULESETS["xinyu"], situation)


@pytest.mark.parametrize(("win", "wild_win"), [("5p", 1), ("2s", 0)])
def test_a_win_on_the_wild_tile_greys_robbing_a_kong(page, win, wild_win):
    """RULES.md §2.1: the 财神 kind is never melded, so no kong of it is robbed: won on the 财神 (5p) by W's
    discard, 抢杠胡 is greyed; won on 2s it can apply."""
    query = {"ruleset": "xinyu", "caishen": "5p", "hand": "123m456m789sEE13s", "win_tile": win}
    page.goto(page.base + "/?" + urlencode({**query, "winner": "S", "dealer": "E", "discarder": "W"}))
    situation = Situation(
        "S", "E", "W", 0, 0, frozenset(), win_tile_copies=1, wild_copies=wild_win, win_tile_wild=wild_win
    )
    assert bool(unmet(RULESETS["xinyu"].flag_by_id["robbing_kong"], situation)) is bool(wild_win)
    expect_flags_as_the_engine_says(page, RULESETS["xinyu"], situation)
