"""Why a hand is not a win, for learners (issue 13 §2, §4): how far it is from ready, why a ready shape waits on
nothing in bazhi, and one nearest win with the tiles that do not fit (the 14-tile answer's `nearest`)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calculator.engine import parse_tiles, score
from calculator.engine.deal import change_one, notation
from calculator.engine.request import parse_request
from calculator.engine.rulesets import RULESETS
from calculator.engine.waits import search_wait_kinds, wait_kinds

from .test_xinyu_properties import xinyu_requests

SETTINGS = settings(max_examples=150, deadline=None)
BAZHI_TILES = [k for k in sorted(RULESETS["bazhi"].kinds) for _ in range(4)]


@st.composite
def bazhi_hands(draw, size: int = 13) -> dict:
    """Any bazhi tiles (most of them from one suit, so that many are near 八支), no melds."""
    suit = draw(st.integers(0, 2))
    pool = [k for k in BAZHI_TILES if draw(st.booleans()) or k // 9 == suit]
    tiles = draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True))
    kinds = [pool[i] for i in tiles]
    assume(max(Counter(kinds).values()) <= 4)
    request = {"ruleset": "bazhi", "hand": notation(kinds[:13]), "melds": [], "winner": "S", "dealer": "E"}
    if size == 14:
        request["win_tile"] = notation(kinds[13:])
    return request


def tiles_of(text: str) -> list[str]:
    return [t.notation for t in parse_tiles(text)]


# --------------------------------------------------------------------------- distance to ready


@SETTINGS
@given(bazhi_hands())
def test_bazhi_shanten_is_never_negative_and_zero_exactly_when_something_wins(request):
    answer = score(request)
    assert answer["shanten"] is None or answer["shanten"] >= 0
    assert (answer["shanten"] == 0) == bool(answer["waits"])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(RULESETS)), st.integers(0, 10_000), st.integers(0, 12), st.integers(0, 33))
def test_one_exchange_from_a_ready_hand_is_never_more_than_one_from_ready(game, seed, out, kind):
    dealt = RULESETS[game].deal(Random(seed))
    ready = {**dealt, "discarder": None, "flags": []}
    del ready["win_tile"]
    assume(score(ready)["shanten"] == 0)
    tiles = tiles_of(ready["hand"])
    held = Counter(tiles_of(ready["hand"] + "".join(m["tiles"] for m in ready["melds"])))
    new = parse_tiles("123456789m123456789p123456789sESWNCFP")[kind].notation
    assume(kind in RULESETS[game].kinds and held[new] < 4)
    tiles[out % len(tiles)] = new
    after = score({**ready, "hand": "".join(tiles)})
    assert after["shanten"] is not None and after["shanten"] <= 1


# --------------------------------------------------------------------------- bazhi: ready, but no 八支


def test_a_ready_shape_without_bazhi_says_so_with_the_suit_counts():
    request = {"ruleset": "bazhi", "hand": "123456m123p1234s", "winner": "S", "dealer": "E"}
    assert score(request)["blocked_message"] == "牌型已听牌，但没有一张能凑够八支（万 6 · 筒 3 · 条 4）"
    assert score(request, "en")["blocked_message"] == "Ready in shape, but no wait makes 八支 (m 6 · p 3 · s 4)"


def test_melds_that_leave_no_suit_able_to_reach_bazhi_say_so():
    melds = [{"type": "kong_concealed", "tiles": "2222m"}]
    melds += [{"type": "pung", "tiles": t, "from": "E"} for t in ("333p", "444s", "CCC")]
    request = {"ruleset": "bazhi", "hand": "1m", "melds": melds, "winner": "S", "dealer": "E"}
    answer = score(request, "en")
    assert answer["shanten"] is None
    assert answer["blocked_message"] == "With these melds no suit can reach 八支 (m 5 · p 3 · s 3)"


def test_a_hand_that_is_merely_far_carries_no_blocked_message():
    answer = score({"ruleset": "bazhi", "hand": "1479m258p369sCCC", "winner": "S", "dealer": "E"})
    assert answer["blocked_by"] is None and "blocked_message" not in answer


# --------------------------------------------------------------------------- the nearest win


def test_the_nearest_win_of_a_bazhi_hand_short_of_eight():
    request = {"ruleset": "bazhi", "hand": "123456m123p1234s", "win_tile": "1s", "winner": "S", "dealer": "E"}
    nearest = score(request)["nearest"]
    assert nearest["shape"] == "standard" and nearest["distance"] == 2
    assert nearest["misfits"] == "14s"
    assert [g["type"] for g in nearest["groups"]] == ["pair", "sequence", "sequence", "sequence", "sequence"]
    suits = Counter(t[-1] for g in nearest["groups"] for t in tiles_of(g["tiles"]))
    assert suits["m"] >= 8  # the nearest win has 八支


def test_the_nearest_win_can_be_seven_pairs():
    request = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "1199m2288p33sEEC", "win_tile": "F"}
    nearest = score({**request, "winner": "S", "dealer": "E"})["nearest"]
    assert nearest["shape"] == "qidui" and nearest["distance"] == 1
    assert [(g["tiles"], g["missing"]) for g in nearest["groups"] if g["missing"]] == [("CC", "C")]
    assert nearest["misfits"] == "F"


def test_a_caishen_stands_in_for_a_missing_tile_of_the_nearest_win():
    request = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "123m456m78s5pEESN", "win_tile": "W"}
    nearest = score({**request, "winner": "S", "dealer": "E"})["nearest"]
    assert nearest["distance"] == 2
    assert [(g["tiles"], g["caishen"]) for g in nearest["groups"] if g["caishen"]] == [("678s", ["6s"])]
    assert nearest["misfits"] == "WN"


def check_nearest(request: dict) -> None:
    """The nearest win holds every concealed tile once (in a group or among the misfits), lacks exactly
    `distance` tiles, is as far as the engine's distance says, and completed with what it lacks it is a win.

    The distance of 14 tiles is the least over their discards of the 13 left's (shanten + 1): a win that lacks d
    of the 14 leaves out one of them, which can go (unless it lacks none: a shape refused for another reason). So the discard table (distance.py's tables) checks the
    nearest win (nearest.py's search), in every game; a game's wild tile is what its ruleset says it is."""
    answer = score(request)
    assert answer["win"] is False
    nearest = answer["nearest"]
    best = answer["discards"][0]["shanten"]
    if best is None:
        assert nearest is None
        return
    far = best + 1
    if nearest["distance"] == 0:  # every tile in a winning shape, refused for another reason (4龙 by discard)
        assert answer["code"] != "incomplete"
        far = 0
    assert nearest["distance"] == far
    wild = RULESETS[request["ruleset"]].wild_tile(answer)
    held, lacking, open_places = Counter(), Counter(), 0
    for g in nearest["groups"]:
        group = Counter(tiles_of(g["tiles"]))
        missing = Counter(tiles_of(g["missing"]))
        stands_in = Counter(g["caishen"])
        held += group - missing - stands_in
        held[wild] += sum(stands_in.values())
        lacking += missing
        open_places += g["open"]
    assert +held + Counter(tiles_of(nearest["misfits"])) == Counter(tiles_of(request["hand"] + request["win_tile"]))
    assert sum(lacking.values()) + open_places == far
    if nearest["shape"] in ("standard", "qidui") and not open_places:
        complete = list((held + lacking).elements())
        copies = Counter(complete) + Counter(tiles_of("".join(m["tiles"] for m in request["melds"])))
        if max(copies.values()) <= 4:  # (a 财神 would stand for a fifth copy: drawn as a 财神, not as itself)
            won = score(
                {**request, "hand": "".join(complete[1:]), "win_tile": complete[0], "discarder": None, "flags": []}
            )
            assert won["win"] is True, (request, nearest)


@settings(max_examples=120, deadline=None)
@given(bazhi_hands(size=14))
def test_the_nearest_bazhi_win_is_at_the_engines_distance_and_a_win(request):
    assume(score(request).get("win") is False)
    check_nearest(request)


@settings(max_examples=120, deadline=None)
@given(xinyu_requests(complete=False))
def test_the_nearest_xinyu_win_is_at_the_engines_distance_and_a_win(request):
    assume(score(request).get("win") is False)
    check_nearest(request)


def test_the_nearest_win_of_dealt_near_misses_in_every_game():
    from calculator.engine.deal import change_one

    for game in sorted(RULESETS):
        kinds = sorted(RULESETS[game].kinds)
        for seed in range(150):
            rng = Random(seed)
            request = change_one(RULESETS[game].deal(rng), rng, kinds)
            if score(request).get("win") is False:
                check_nearest(request)


def test_every_way_of_the_distance_protocol_is_there():
    for distance in (ruleset.distance for ruleset in RULESETS.values()):
        for name in ("shanten", "blocked_by", "blocked_message", "discards", "nearest"):
            assert callable(getattr(distance, name))


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_dealt_hand_without_its_winning_tile_is_ready_exactly_when_it_waits(game):
    """In every game: shanten 0 exactly when some tile wins, never below 0, and the waits the game reads from
    counts are those of trying every tile (a dealt hand, or one tile changed: near misses and far ones)."""
    ruleset = RULESETS[game]
    kinds = sorted(ruleset.kinds)
    for seed in range(60):
        rng = Random(seed)
        dealt = ruleset.deal(rng)
        ready = {**dealt, "discarder": None, "flags": []}
        del ready["win_tile"]
        for request in (ready, change_one(ready, rng, kinds)):
            answer = score(request)
            assert answer["shanten"] is None or answer["shanten"] >= 0, request
            assert (answer["shanten"] == 0) == bool(answer["waits"]), request
            parsed = parse_request(request)
            assert wait_kinds(ruleset, parsed) == search_wait_kinds(ruleset, parsed), request
