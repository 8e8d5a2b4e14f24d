"""Distance to ready (issue 13) over generated hands (hypothesis), through the JSON answers (API.md)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings

from calculator.engine import parse_tiles, score
from calculator.engine.errors import ScoreError
from calculator.engine.notation import format_tiles
from calculator.engine.request import parse_request
from calculator.engine.rulesets import RULESETS
from calculator.engine.waits import wait_kinds

from .test_properties import bazhi_requests
from .test_xinyu_properties import crowded_requests, xinyu_requests

SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
TILE_ORDER = {tile.notation: tile.index for tile in parse_tiles("123456789m123456789p123456789sESWNCFP")}


def waiting(request: dict) -> dict:
    """The 13 tiles of a request before its win tile: the waits question."""
    return score({**request, "win_tile": None, "discarder": None, "flags": []})


@SETTINGS
@given(bazhi_requests())
def test_the_tiles_before_a_bazhi_win_are_ready(request):
    result = score(request)
    assume(result.get("win") is True)
    assert waiting(request)["shanten"] == 0


@SETTINGS
@given(xinyu_requests(complete=False))
def test_xinyu_shanten_is_zero_exactly_when_something_wins(request):
    result = waiting(request)
    assume("error" not in result)
    assert result["shanten"] >= 0
    assert (result["shanten"] == 0) == bool(result["waits"])
    assert result["blocked_by"] is None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(crowded_requests())
def test_forbidding_fifth_copies_never_brings_a_hand_nearer(request):
    """Asked of the request itself (not the JSON answer): the engine's waits under this card ask its capped win
    check of every kind, and scoring each wait both ways on top of that would make this test the suite's slowest."""
    strict = {**request, "options": {**request["options"], "house": {"wild_fifth_copy": False}}}
    try:
        allowed, forbidden = (
            parse_request({**r, "win_tile": None, "discarder": None, "flags": []}) for r in (request, strict)
        )
    except ScoreError:
        assume(False)
    assert RULESETS["xinyu"].distance.shanten(forbidden) >= RULESETS["xinyu"].distance.shanten(allowed)
    assert (RULESETS["xinyu"].distance.shanten(forbidden) == 0) == bool(wait_kinds(RULESETS["xinyu"], forbidden))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(xinyu_requests(complete=False))
def test_the_discard_table_has_each_tile_once_best_first_each_at_the_shanten_it_leaves(request):
    result = score(request)
    assume(result.get("win") is False)
    table = result["discards"]
    concealed = [tile.notation for tile in parse_tiles(request["hand"] + request["win_tile"])]
    assert sorted(row["tile"] for row in table) == sorted(set(concealed))
    keys = [(row["shanten"], -row["improving"], TILE_ORDER[row["tile"]]) for row in table]
    assert keys == sorted(keys)
    for row in table[:3]:
        left = list(concealed)
        left.remove(row["tile"])
        hand = format_tiles(parse_tiles("".join(left)))
        assert waiting({**request, "hand": hand})["shanten"] == row["shanten"]
        assert 0 <= row["improving"] <= 4 * 34
