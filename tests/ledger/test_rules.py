"""The ledger rules (RULES.md §1.7, §2.6, §3) with exact numbers: pure functions, no database.

bazhi hands go through the real engine; xinyu arithmetic is tested on result-shaped dicts here (the xinyu engine
runs the same games in test_xinyu_engine.py).
"""

from __future__ import annotations

import pytest

from calculator import ledger as L
from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.tables.statuses import status_of
from tests.ledger.hands import B1, B2


def bazhi(stake=None, tariff="315", dealer="E"):
    return L.start(
        L.parse_config({"ruleset": "bazhi", "options": {"tariff": tariff}, "stake": stake, "dealer": dealer})
    )


def play(state, body):
    result = score(L.prepare_request(state, body))
    L.check_win(result)
    return L.apply_hand(state, result)


def test_315_game_played_to_tuodi_with_the_capped_last_payment():
    state = bazhi()
    assert state.balances == {"E": 30, "S": 30, "W": 30, "N": 30}
    steps = [
        # (applied, balances after, dealer, streak)
        ({"E": -7, "S": 19, "W": -7, "N": -5}, {"E": 23, "S": 49, "W": 23, "N": 25}, "S", 1),
        # S is the dealer now and wins again: every loser pays one more 底番, W also the discarder's.
        ({"E": -7, "S": 23, "W": -9, "N": -7}, {"E": 16, "S": 72, "W": 14, "N": 18}, "S", 2),
        ({"E": -7, "S": 23, "W": -9, "N": -7}, {"E": 9, "S": 95, "W": 5, "N": 11}, "S", 3),
        # W owes 9 and has 5: pays 5, is 脱底, and the 底 game ends.
        ({"E": -7, "S": 19, "W": -5, "N": -7}, {"E": 2, "S": 114, "W": 0, "N": 4}, "S", 4),
    ]
    for applied, balances, dealer, streak in steps:
        entry = play(state, B1)
        assert entry["applied"] == applied
        assert state.balances == balances
        assert (state.dealer, state.dealer_streak) == (dealer, streak)
    last = state.log[-1]["rows"]
    w_rows = [(r["amount"], r["owed"]) for r in last if r["from"] == "W"]
    assert w_rows == [(5, 5), (0, 2), (0, 2)]  # 番 5 paid; dealer's and discarder's 底番 capped to 0
    assert (state.status, state.ended_reason) == ("ended", "tuodi")
    assert state.totals == {"E": -28, "S": 84, "W": -30, "N": -26}
    assert state.outside == L.zero(L.SEATS)
    with pytest.raises(L.LedgerError) as refused:
        play(state, B1)
    assert (refused.value.code, status_of(refused.value.code)) == ("game_over", 409)
    # The next 底 game: fresh 底, totals carry on, the dealer keeps his seat and streak [reading L3].
    L.apply_next(state)
    assert state.balances == {"E": 30, "S": 30, "W": 30, "N": 30}
    assert (state.status, state.ended_reason, state.game) == ("playing", None, 2)
    assert state.totals == {"E": -28, "S": 84, "W": -30, "N": -26}
    assert (state.dealer, state.dealer_streak) == ("S", 4)


def test_tongdi_and_jiao_outside_the_di():
    state = bazhi()
    first = play(state, B2)
    # 番 15 + dealer's 底番 3 out of each 底; 交 40 outside; a dealer's 交 win passes the deal.
    assert first["applied"] == {"E": 174, "S": -58, "W": -58, "N": -58}
    assert state.balances == {"E": 84, "S": 12, "W": 12, "N": 12}
    assert state.outside == {"E": 120, "S": -40, "W": -40, "N": -40}
    assert (state.dealer, state.dealer_streak, state.status) == ("S", 1, "playing")
    second = play(state, B2)
    # Each loser owes 15 (S, the dealer, 18) and has 12: all three pay 12 and are at 0 → 通底: 10 more each, outside.
    assert state.balances == {"E": 120, "S": 0, "W": 0, "N": 0}
    assert state.outside == {"E": 120 + 120 + 30, "S": -90, "W": -90, "N": -90}
    assert second["applied"] == {"E": 36 + 120 + 30, "S": -62, "W": -62, "N": -62}
    assert [r["code"] for r in second["rows"]][-3:] == ["tongdi"] * 3
    assert (state.status, state.ended_reason) == ("ended", "tongdi")
    assert state.totals == {"E": 360, "S": -120, "W": -120, "N": -120}
    # E won 交 as a non-dealer: the deal passes from S to W.
    assert (state.dealer, state.dealer_streak) == ("W", 1)


def test_tongdi_pays_20_at_525():
    state = bazhi(stake=10, tariff="525")
    play(state, B2)  # 525: every loser owes far more than 10
    assert state.balances == {"E": 40, "S": 0, "W": 0, "N": 0}
    assert state.ended_reason == "tongdi"
    assert [r["amount"] for r in state.log[-1]["rows"] if r["code"] == "tongdi"] == [20, 20, 20]


def test_dealer_keeps_the_deal_on_a_win_without_jiao_and_loses_it_otherwise():
    state = bazhi(dealer="S")
    play(state, B1)  # S is the dealer and wins without 交
    assert (state.dealer, state.dealer_streak) == ("S", 2)
    L.apply_draw(state)  # 流局: bazhi passes the deal to the 下家
    assert (state.dealer, state.dealer_streak) == ("W", 1)
    play(state, B1)  # another player's win: W → N
    assert (state.dealer, state.dealer_streak) == ("N", 1)


def test_a_payer_with_a_different_dealer_is_refused_and_nothing_moves():
    state = bazhi()
    with pytest.raises(L.LedgerError) as refused:
        L.prepare_request(state, {**B1, "dealer": "N"})
    assert (refused.value.code, status_of(refused.value.code)) == ("dealer_mismatch", 409)
    with pytest.raises(L.LedgerError) as refused:
        L.prepare_request(state, {**B1, "options": {"tariff": "525"}})
    assert refused.value.code == "option_mismatch"
    assert state.balances == {"E": 30, "S": 30, "W": 30, "N": 30} and state.log == []


def test_leave_is_xinyu_only_and_next_needs_a_stake():
    with pytest.raises(L.LedgerError) as refused:
        L.apply_leave(bazhi(), "W")
    assert refused.value.code == "not_available"
    ordinary = L.start(L.parse_config({"ruleset": "xinyu", "stake": None}))
    with pytest.raises(L.LedgerError):
        L.apply_next(ordinary)


@pytest.mark.parametrize(
    "body, field, code",
    [
        ({"ruleset": "mahjong"}, "ruleset", "unknown_ruleset"),
        ({"ruleset": "bazhi", "options": {"tariff": "400"}}, "options.tariff", "bad_option"),
        (
            {"ruleset": "bazhi", "options": {"house": {"draw_dealer": "stay"}}},
            "options.house.draw_dealer",
            "bad_option",
        ),
        ({"ruleset": "bazhi", "options": {"house": {"dilong": "table"}}}, "options.house.dilong", "bad_option"),
        ({"ruleset": "bazhi", "stake": 0}, "stake", "bad_table"),
        ({"ruleset": "bazhi", "stake": True}, "stake", "bad_table"),
        ({"ruleset": "xinyu", "stake": 300}, "stake", "bad_table"),
        # the 财神 changes every hand: it is given with each hand, never by the table
        ({"ruleset": "xinyu", "options": {"caishen": "5p"}}, "options.caishen", "bad_option"),
        ({"ruleset": "xinyu", "multiplier": 0}, "multiplier", "bad_table"),
        ({"ruleset": "bazhi", "dealer": "e"}, "dealer", "bad_seat"),
        ({"ruleset": "bazhi", "players": {"X": "a"}}, "players.X", "bad_json"),
        ({"ruleset": "bazhi", "players": {"E": "a" * 41}}, "players.E", "bad_table"),
        ({"ruleset": "bazhi", "players": {"S": "\ud800"}}, "players.S", "bad_table"),
        ({"ruleset": "bazhi", "players": {"W": "a\x00b"}}, "players.W", "bad_table"),
        ({"ruleset": "bazhi", "junk": 60}, "junk", "bad_json"),
    ],
)
def test_bad_tables_name_the_field(body, field, code):
    with pytest.raises(L.LedgerError) as refused:
        L.parse_config(body)
    assert (refused.value.field, refused.value.code, status_of(refused.value.code)) == (field, code, 400)


def test_names_up_to_40_characters():
    config = L.parse_config({"ruleset": "bazhi", "players": {"E": "阿" * 40, "S": "  小   南 ", "W": "", "N": "北"}})
    assert config.players["E"] == "阿" * 40 and config.players["S"] == "小 南"


def test_defaults():
    config = L.parse_config({"ruleset": "bazhi", "options": {"tariff": "525"}})
    assert (config.stake, config.dealer, config.multiplier) == (50, "E", 1)
    assert config.players == {"E": "东", "S": "南", "W": "西", "N": "北"}


# ---------------------------------------------------------------------------------------------------------
# xinyu on result-shaped dicts


def half_up(value):
    return (value + 1) // 2


def xinyu_result(winner, dealer, streak, long_, discarder=None, quanjiao=False):
    """The engine's payment rows for a xinyu win (RULES.md §2.4): P = 底龙 + 龙."""
    unit = 11 + 10 * (streak - 1) + long_
    payments = []
    for seat in L.SEATS:
        if seat == winner:
            continue
        amount = unit if discarder in (None, seat) else half_up(unit)
        payments.append({"from": seat, "to": winner, "amount": amount, "part": "long", "code": "long", "reason": "龙"})
    return {
        "ruleset": "xinyu",
        "win": True,
        "request": {"winner": winner, "dealer": dealer, "discarder": discarder, "options": {"dealer_streak": streak}},
        "payments": payments,
        "quanjiao": quanjiao,
        "unit": unit,
    }


def room(stake=100, multiplier=1, dealer="E"):
    return L.start(L.parse_config({"ruleset": "xinyu", "stake": stake, "multiplier": multiplier, "dealer": dealer}))


def test_chongji_100_room_ending_on_a_bust():
    state = room(100)
    expected = [
        # S wins on W's discard, no 财神 (龙 2): P = 13, then 13 as dealer, then 21+2, 31+2, 41+2 as 二/三/四老庄.
        ({"E": 93, "S": 127, "W": 87, "N": 93}, "S", 1),
        ({"E": 86, "S": 154, "W": 74, "N": 86}, "S", 2),
        ({"E": 74, "S": 201, "W": 51, "N": 74}, "S", 3),
        ({"E": 57, "S": 268, "W": 18, "N": 57}, "S", 4),
        # P = 43: W owes 43 and has 18 → pays 18, is bust, the 局 ends; E and N pay 22 each.
        ({"E": 35, "S": 330, "W": 0, "N": 35}, "S", 5),
    ]
    for balances, dealer, streak in expected:
        L.apply_hand(state, xinyu_result("S", state.dealer, state.dealer_streak, 2, discarder="W"))
        assert state.balances == balances
        assert (state.dealer, state.dealer_streak) == (dealer, streak)
    assert [(r["from"], r["amount"], r["owed"]) for r in state.log[-1]["rows"]] == [
        ("E", 22, 22),
        ("W", 18, 43),
        ("N", 22, 22),
    ]
    assert (state.status, state.ended_reason) == ("ended", "bust")
    assert state.totals == {"E": -65, "S": 230, "W": -100, "N": -65}
    with pytest.raises(L.LedgerError):
        L.apply_draw(state)
    L.apply_next(state)
    assert state.balances == dict.fromkeys(L.SEATS, 100) and state.status == "playing"


def test_quanjiao_takes_everything_left():
    state = room(200)
    L.apply_hand(state, xinyu_result("E", "E", 1, 3, discarder="S"))  # E (dealer) wins: P 14; S 14, W 7, N 7
    assert state.balances == {"E": 228, "S": 186, "W": 193, "N": 193}
    L.apply_hand(state, xinyu_result("N", "E", 2, 51, discarder="W", quanjiao=True))
    assert state.balances == {"E": 0, "S": 0, "W": 0, "N": 800}
    assert [(r["from"], r["amount"], r["code"]) for r in state.log[-1]["rows"]] == [
        ("E", 228, "quanjiao"),
        ("S", 186, "quanjiao"),
        ("W", 193, "quanjiao"),
    ]
    assert (state.status, state.ended_reason) == ("ended", "quanjiao")
    assert (state.dealer, state.dealer_streak) == ("S", 1)


def test_quanjiao_outside_a_room_is_an_ordinary_payment():
    state = room(None)
    L.apply_hand(state, xinyu_result("N", "E", 1, 51, discarder="W", quanjiao=True))
    assert state.balances == {"E": -31, "S": -31, "W": -62, "N": 124}
    assert state.status == "playing"


def test_leave_penalty_on_an_ordinary_table():
    state = room(None, multiplier=3)
    L.apply_hand(state, xinyu_result("E", "E", 1, 2))  # dealer self-draw, P 13 each; streak → 2
    L.apply_draw(state)  # xinyu draw: same dealer, same streak
    assert (state.dealer, state.dealer_streak) == ("E", 2)
    entry = L.apply_leave(state, "W")
    # −50 × streak 2 × multiplier 3 = 300 → 100 each to N, E, S.
    assert entry["applied"] == {"E": 100, "S": 100, "W": -300, "N": 100}
    assert state.balances == {"E": 139, "S": 87, "W": -313, "N": 87}
    assert state.status == "playing"  # [reading L5] an ordinary table goes on


def test_leave_penalty_remainder_goes_to_the_next_player():
    state = room(None)
    entry = L.apply_leave(state, "W")  # 50 = 16 × 3 + 2: N (W's 下家) gets the 2
    assert entry["applied"] == {"E": 16, "S": 16, "W": -50, "N": 18}
    assert L.penalty_shares("N", 100, L.SEATS) == {"E": 34, "S": 33, "W": 33}


def test_leaving_a_room_loses_all_that_is_left_and_ends_the_ju():
    state = room(100)
    L.apply_hand(state, xinyu_result("E", "E", 1, 2, discarder="S"))  # S 13, W 7, N 7
    entry = L.apply_leave(state, "S")  # S has 87: W 29, N 29, E 29
    assert entry["applied"] == {"E": 29, "S": -87, "W": 29, "N": 29}
    assert state.balances == {"E": 156, "S": 0, "W": 122, "N": 122}
    assert (state.status, state.ended_reason) == ("ended", "bust")


def test_xinyu_streak_must_match():
    state = room(100)
    with pytest.raises(L.LedgerError) as refused:
        L.apply_hand(state, xinyu_result("S", "E", 2, 2, discarder="W"))
    assert refused.value.code == "dealer_mismatch"
    assert state.balances == dict.fromkeys(L.SEATS, 100)
    request = L.prepare_request(state, {"ruleset": "xinyu", "options": {"caishen": "5p"}, "winner": "S"})
    assert request["dealer"] == "E" and request["options"] == {
        "caishen": "5p",
        "dealer_streak": 1,
        "players": 4,  # the table's card fills its size
        "house": RULESETS["xinyu"].default_card.to_dict(),  # and the house rules
    }


def test_replay_equals_step_by_step():
    state = room(100)
    entries = [
        {"kind": "hand", "result": xinyu_result("S", "E", 1, 2, discarder="W")},
        {"kind": "draw"},
        {"kind": "hand", "result": xinyu_result("S", "S", 1, 12)},
        {"kind": "leave", "seat": "N"},
        {"kind": "next"},
    ]
    for entry in entries:
        L.apply(state, entry)
    again = L.replay(state.config, entries)
    assert again.to_dict() == state.to_dict()
    assert [e["applied"] for e in again.log] == [e["applied"] for e in state.log]
    assert sum(state.totals.values()) == 0


# E, the dealer, self-draws a plain hand without 财神 (X2's tiles): 龙 2, 底龙 11 + 10 × (streak − 1).
DEALER_SELF_DRAW = {"options": {"caishen": "5p"}, "hand": "123m456m789sEEE2s", "win_tile": "2s", "winner": "E"}


def test_a_dealer_may_win_a_thousand_hands_in_a_row_each_scored_with_the_streak_the_table_fills():
    # Issue 20: the table used to fill streak 100 and then have every hand refused by the engine (at most 99).
    state = L.start(L.parse_config({"ruleset": "xinyu", "stake": None}))
    for streak in range(1, 1001):
        result = score(L.prepare_request(state, DEALER_SELF_DRAW))
        assert result["win"] is True, result
        assert result["request"]["options"]["dealer_streak"] == streak and result["di_long"] == 11 + 10 * (streak - 1)
        L.apply_hand(state, result)
    assert (state.dealer, state.dealer_streak, state.hands) == ("E", 1001, 1000)
    # Each of the three paid (2 + 11 + 10 × (k − 1)) × 1 per hand k: 13 + 10 × Σ(k − 1) = 13,000 + 4,995,000.
    assert state.totals == {"E": 3 * 5_008_000, "S": -5_008_000, "W": -5_008_000, "N": -5_008_000}


def test_after_a_thousand_dealer_wins_in_a_row_the_table_takes_no_more_hands():
    # The engine scores streaks 1 to 1,000 (API.md); a table past it says so instead of filling a streak the engine
    # refuses. (With the default LEDGER_MAX_HANDS of 1,000 the table is full by then anyway.)
    state = L.start(L.parse_config({"ruleset": "xinyu", "stake": None}))
    state.dealer_streak = 1001
    before = state.to_dict()
    for winner, discarder in (("E", None), ("S", "W")):
        with pytest.raises(L.LedgerError) as refused:
            L.prepare_request(state, {**DEALER_SELF_DRAW, "winner": winner, "discarder": discarder})
        assert (refused.value.code, status_of(refused.value.code)) == ("table_full", 409)
        assert "1000 hands in a row" in refused.value.message("en")
    assert state.to_dict() == before
    state.dealer_streak = 1000
    assert L.prepare_request(state, DEALER_SELF_DRAW)["options"]["dealer_streak"] == 1000
