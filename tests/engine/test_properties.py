"""Invariants over many generated hands (hypothesis): money is conserved, the echo is faithful."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from calculator.engine import score
from calculator.engine.decompose import decompositions, is_complete
from calculator.engine.notation import format_tiles
from calculator.engine.seats import seats_of
from calculator.engine.tiles import RED_DRAGON, Tile

BAZHI_KINDS = list(range(27)) + [RED_DRAGON]
FLAG_CHOICES = ["kong_bloom", "double_kong_bloom", "robbing_kong", "last_tile", "heavenly", "earthly"]


TABLE_SIZES = st.sampled_from([4, 3])  # bazhi's (RULES.md §1.8)
# what bazhi_requests draws from, made once (a strategy made inside a draw is made and checked again at each draw)
SUIT_STARTS = st.sampled_from([0, 9, 18])
ANY_KIND = st.sampled_from(BAZHI_KINDS)
MELD_TYPES = st.sampled_from(["pung", "kong_exposed", "kong_added", "kong_concealed"])
TARIFFS = st.sampled_from(["315", "525"])
FLAGS = st.lists(st.sampled_from(FLAG_CHOICES), max_size=2, unique=True)


@st.composite
def bazhi_requests(draw, sizes=TABLE_SIZES) -> dict:
    """A complete 14-tile bazhi hand at a table of four or three, some triplets turned into melds, seats and flags
    at random."""
    players = draw(sizes)
    seats = seats_of(players)
    suit = draw(SUIT_STARTS)
    counts = [0] * 34
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        if draw(st.booleans()):
            first = (
                suit + draw(st.integers(0, 6))
                if draw(st.integers(0, 3))
                else draw(SUIT_STARTS) + draw(st.integers(0, 6))
            )
            groups.append(("seq", first))
            for i in range(3):
                counts[first + i] += 1
        else:
            kind = draw(ANY_KIND) if draw(st.integers(0, 2)) == 0 else suit + draw(st.integers(0, 8))
            groups.append(("tri", kind))
            counts[kind] += 3
    pair = draw(ANY_KIND)
    counts[pair] += 2
    assume(max(counts) <= 4)
    winner = draw(st.sampled_from(seats))
    others = [s for s in seats if s != winner]
    melds = []
    concealed = list(counts)
    for kind_of_group, first in groups:
        if kind_of_group == "tri" and draw(st.integers(0, 2)) == 0:
            meld_type = draw(MELD_TYPES)
            if meld_type != "pung" and counts[first] != 3:
                meld_type = "pung"
            size = 4 if meld_type.startswith("kong") else 3
            meld = {"type": meld_type, "tiles": format_tiles([Tile(first)] * size)}
            if meld_type != "kong_concealed":
                meld["from"] = draw(st.sampled_from(others))
            melds.append(meld)
            concealed[first] -= 3
    tiles = [Tile(i) for i, n in enumerate(concealed) for _ in range(n)]
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    discarder = draw(st.one_of(st.none(), st.sampled_from(others)))
    flags = draw(FLAGS)
    return {
        "ruleset": "bazhi",
        "options": {
            "tariff": draw(TARIFFS),
            "multi_jiao": draw(st.booleans()),
            "players": players,
        },
        "hand": format_tiles(tiles),
        "win_tile": win.notation,
        "melds": melds,
        "winner": winner,
        "dealer": draw(st.sampled_from(seats)),
        "discarder": discarder,
        "flags": flags,
    }


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@SETTINGS
@given(bazhi_requests())
def test_payments_always_sum_to_zero(request):
    result = score(request)
    assume("error" not in result)
    if result["win"]:
        assert sum(result["net"].values()) == 0
        for part in result["net_by_part"].values():
            assert sum(part.values()) == 0
        assert result["net"][request["winner"]] == sum(p["amount"] for p in result["payments"])
        assert all(p["amount"] > 0 and p["to"] == request["winner"] for p in result["payments"])


def seat_maps(answer: dict) -> list[dict]:
    """Every map of seats an answer holds: its net, each part's, each wait's ways' and each alternative's nets."""
    maps = []
    if answer.get("win"):
        maps += [answer["net"], *answer["net_by_part"].values()]
    for wait in answer.get("waits", ()):
        maps += [way["net"] for way in (wait["self_draw"], wait["discard"]) if way and way.get("win")]
    maps += [other["net"] for other in answer.get("alternatives", ()) if other["win"]]
    return maps


@SETTINGS
@pytest.mark.parametrize(("players", "seats"), [(3, ["E", "S", "W"]), (4, ["E", "S", "W", "N"])])
@given(data=st.data())
def test_every_answers_seats_are_the_tables_in_play_order_and_sum_to_zero(players, seats, data):
    """RULES.md §1.8, API.md: every seat map of every answer (a win with its alternatives, the waits of the same
    hand without its win tile) holds exactly the table's seats, in play order, and sums to zero; every payment
    is between two of them."""
    request = {**data.draw(bazhi_requests(st.just(players))), "alternatives": True}
    answers = [score(request), score({**request, "win_tile": None})]
    assume(all("error" not in answer for answer in answers))
    for answer in answers:
        for seat_map in seat_maps(answer):
            assert list(seat_map) == seats and sum(seat_map.values()) == 0
        for row in answer.get("payments", ()):
            assert row["from"] in seats and row["to"] in seats and row["from"] != row["to"]


@SETTINGS
@given(bazhi_requests())
def test_every_readings_total_is_the_sum_of_its_payments(request):
    """Readings are ranked on a total computed from the formula: it must equal the rows, 包牌 or not."""
    from calculator.engine.request import parse_request
    from calculator.engine.rulesets.bazhi.bao import liable_seat
    from calculator.engine.rulesets.bazhi.declarations import TARIFFS
    from calculator.engine.rulesets.bazhi.payments import payments_and_nets
    from calculator.engine.rulesets.bazhi.reading import hand_facts, read_hand, waits_before_win, win_roles

    result = score(request)
    assume(result.get("win") is True)
    parsed = parse_request(request)
    tariff = TARIFFS[parsed.options.tariff]
    win = parsed.win_tile.index
    facts = hand_facts(parsed, tariff, [t.index for t in waits_before_win(parsed)] == [win])
    readings = [
        read_hand(parsed, tariff, facts, d, role)
        for d in decompositions(parsed.concealed_counts)
        for role in win_roles(d, win)
    ]
    assert readings
    for reading in readings:
        bao = liable_seat(parsed, bool(reading.triggers))
        for liable in {None, bao[0] if bao else None}:
            rows, _, _ = payments_and_nets(
                parsed.seats,
                parsed.winner,
                parsed.dealer,
                parsed.discarder,
                reading.fan,
                reading.di_fan,
                reading.jiao_per_loser if reading.jiao_count else None,
                tariff,
                liable,
                "zh",
            )
            assert reading.total == sum(row["amount"] for row in rows)
    assert max(r.total for r in readings) == result["net"][request["winner"]]


@SETTINGS
@given(bazhi_requests())
def test_a_request_and_its_echo_score_the_same(request):
    result = score(request)
    assume("error" not in result)
    assert score(result["request"]) == result


@SETTINGS
@given(bazhi_requests())
def test_a_generated_complete_hand_always_has_a_shape(request):
    result = score(request)
    assume("error" not in result)
    assert result.get("code") != "incomplete"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_is_complete_agrees_with_decompositions(counts):
    assert is_complete(counts) == bool(decompositions(counts))


@SETTINGS
@given(bazhi_requests())
def test_every_wait_wins_and_every_win_is_a_wait(request):
    waiting = {**request, "win_tile": None}
    waits = score(waiting)
    assume("error" not in waits)
    listed = {w["tile"] for w in waits["waits"]}
    result = score(request)
    assume("error" not in result)  # e.g. 抢杠胡 on a tile the winner holds (RULES.md §4)
    assert (request["win_tile"] in listed) == (result["win"] is True)
    for wait in waits["waits"]:
        assert wait["self_draw"] or wait["discard"]  # a wait wins one way at least (API.md)
        for how in ("self_draw", "discard"):  # the other is null, and the wait says why
            assert (wait[how] is None) == (how in wait.get("why_not", {}))
            assert wait[how] is None or wait[how]["win"] is True
