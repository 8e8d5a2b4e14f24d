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


def check_nearest(request: dict, answer: dict) -> None:
    """In `answer`, the engine's answer to `request` (asked once, by the test that chose the request with it): the
    nearest win holds every concealed tile once (in a group or among the misfits), lacks exactly `distance` tiles,
    is as far as the engine's distance says, its tiles to draw make no fifth copy of a kind (counting the hand, the
    win tile and melds), and completed with what it lacks it is a win.

    The distance of 14 tiles is the least over their discards of the 13 left's (shanten + 1): a win that lacks d
    of the 14 leaves out one of them, which can go (unless it lacks none: a shape refused for another reason). So
    the discard table (distance.py's tables) checks the nearest win (nearest.py's search) in every game; a game's
    wild tile is what its ruleset says it is."""
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
    held, lacking, open_places = groups_held(nearest, RULESETS[request["ruleset"]].wild_tile(answer))
    assert held + Counter(tiles_of(nearest["misfits"])) == Counter(tiles_of(request["hand"] + request["win_tile"]))
    assert sum(lacking.values()) + open_places == far
    melds = Counter(tiles_of("".join(m["tiles"] for m in request["melds"])))
    copies = Counter(tiles_of(request["hand"] + request["win_tile"])) + lacking + melds
    assert max(copies.values()) <= 4, (request, nearest)  # a tile that cannot be drawn is no way to a win
    if nearest["shape"] in ("standard", "qidui") and not open_places:
        complete = list((held + lacking).elements())
        won = score({**request, "hand": "".join(complete[1:]), "win_tile": complete[0], "discarder": None, "flags": []})
        assert won["win"] is True, (request, nearest)


def groups_held(nearest: dict, wild: str | None) -> tuple[Counter, Counter, int]:
    """What the groups of a nearest win hold (natural tiles, and the 财神 held as the 财神 they are), the tiles
    they lack (a 财神 to draw as a 财神) and their open places. A group's `caishen` names what each 财神 in it
    stands for, held or still to draw; its `missing` holds the 财神 to draw as the 财神 kind, which has no
    natural tile in xinyu."""
    held, lacking, open_places = Counter(), Counter(), 0
    for g in nearest["groups"]:
        group = Counter(tiles_of(g["tiles"]))
        missing = Counter(tiles_of(g["missing"]))
        stands_in = Counter(g["caishen"])
        drawn = missing[wild] if wild and g["type"] != "silong" else 0
        natural_missing = missing - Counter({wild: drawn}) if drawn else missing
        held += group - natural_missing - stands_in
        if wild:
            held[wild] += sum(stands_in.values()) - drawn
        lacking += missing
        open_places += g["open"]
    return +held, lacking, open_places


@settings(max_examples=120, deadline=None)
@given(bazhi_hands(size=14))
def test_the_nearest_bazhi_win_is_at_the_engines_distance_and_a_win(request):
    answer = score(request)
    assume(answer.get("win") is False)
    check_nearest(request, answer)


@settings(max_examples=120, deadline=None)
@given(xinyu_requests(complete=False))
def test_the_nearest_xinyu_win_is_at_the_engines_distance_and_a_win(request):
    answer = score(request)
    assume(answer.get("win") is False)
    check_nearest(request, answer)


def test_the_nearest_win_of_dealt_near_misses_in_every_game():
    for game in sorted(RULESETS):
        kinds = sorted(RULESETS[game].kinds)
        for seed in range(150):
            rng = Random(seed)
            request = change_one(RULESETS[game].deal(rng), rng, kinds)
            answer = score(request)
            if answer.get("win") is False:
                check_nearest(request, answer)


def test_every_way_of_the_distance_protocol_is_there():
    for distance in (ruleset.distance for ruleset in RULESETS.values()):
        for name in ("shanten", "blocked_by", "blocked_message", "discards", "draws", "nearest"):
            assert callable(getattr(distance, name))


# --------------------------------------------------------------------------- no fifth copy (issue 21 §12)


def test_the_nearest_win_of_the_issues_hand_draws_no_fifth_copy():
    """111222347999m6s + 1m with 财神 白 (none held): it was 11111222234999m, drawing a fifth 1m."""
    request = {"ruleset": "xinyu", "options": {"caishen": "P"}, "hand": "111222347999m6s", "win_tile": "1m"}
    nearest = score({**request, "winner": "S", "dealer": "E"})["nearest"]
    assert nearest["distance"] == 2
    asked = {**request, "winner": "S", "dealer": "E", "melds": []}
    check_nearest(asked, score(asked))


def test_a_caishen_held_takes_the_place_of_a_fifth_copy_before_any_other():
    """Four 3s held and a fifth in the win: the 财神 (南) stands for that 3s, and the 2s is the tile to draw."""
    request = {"ruleset": "xinyu", "options": {"caishen": "S"}, "hand": "49m2333344577sS", "win_tile": "1s"}
    nearest = score({**request, "winner": "S", "dealer": "E"})["nearest"]
    assert [(g["tiles"], g["caishen"]) for g in nearest["groups"] if g["caishen"]] == [("345s", ["3s"])]
    assert sorted(g["missing"] for g in nearest["groups"] if g["missing"]) == ["2s", "7s"]


def near_misses(rng: Random, game: str, count: int) -> list[tuple[dict, dict]]:
    """Dealt wins with one to three tiles changed that no longer win, each with the engine's answer; in xinyu a fifth
    of them under wild_fifth_copy=false."""
    kinds = sorted(RULESETS[game].kinds)
    found = []
    while len(found) < count:
        request = RULESETS[game].deal(rng)
        for _ in range(rng.randint(1, 3)):
            request = change_one(request, rng, kinds)
        if game == "xinyu" and rng.random() < 0.2:
            request = {**request, "options": {**request["options"], "house": {"wild_fifth_copy": False}}}
        answer = score(request)
        if answer.get("win") is False:
            found.append((request, answer))
    return found


def test_no_nearest_win_of_random_near_misses_draws_a_fifth_copy():
    """Over random near misses of both games: no kind more than four times among the hand, the melds and the
    tiles to draw, and every other property of `check_nearest`."""
    rng = Random(2112)
    for game in sorted(RULESETS):
        for request, answer in near_misses(rng, game, 250):
            check_nearest(request, answer)


def brute_distance(request: dict, most: int) -> int | None:
    """The least number of tiles to draw, exchanging others, before the concealed part is a win (the game's own
    win check, self-drawn), drawing only tiles that exist (four copies a kind, the hand and melds counted), up to
    `most`; None when more are needed."""
    from itertools import combinations, combinations_with_replacement

    ruleset = RULESETS[request["ruleset"]]
    concealed = tiles_of(request["hand"] + request["win_tile"])
    seen = Counter(concealed) + Counter(tiles_of("".join(m["tiles"] for m in request["melds"])))
    kinds = [t.notation for t in parse_tiles("123456789m123456789p123456789sESWNCFP") if t.index in ruleset.kinds]
    for drawn in range(most + 1):
        for extra in combinations_with_replacement(kinds, drawn):
            if max((seen + Counter(extra)).values()) > 4:
                continue
            pool = concealed + list(extra)
            for thrown in set(combinations(sorted(pool), drawn)):
                left = Counter(pool) - Counter(thrown)
                tiles = list(left.elements())
                body = {**request, "hand": "".join(tiles[1:]), "win_tile": tiles[0], "discarder": None, "flags": []}
                if ruleset.is_win(parse_request(body)):
                    return drawn
    return None


def small_hands(rng: Random, game: str, melds: int, count: int, most: int) -> list[tuple[dict, dict]]:
    """Not-a-win requests with `melds` melds (so few concealed tiles that every exchange can be tried) whose
    engine distance is at most `most`, each with the engine's answer; xinyu with 0-2 财神 in the concealed part."""
    ruleset = RULESETS[game]
    suited = [k for k in sorted(ruleset.kinds) if k < 27]
    found = []
    while len(found) < count:
        caishen = rng.choice(sorted(ruleset.kinds)) if game == "xinyu" else None
        home = rng.randrange(3) * 9
        pool = [k for k in sorted(ruleset.kinds) if k != caishen and (home <= k < home + 9 or rng.random() < 0.3)]
        held = Counter()
        made = []
        while len(made) < melds:
            first = rng.choice(pool)
            chow = game == "xinyu" and first in suited and first % 9 <= 6 and rng.random() < 0.4
            tiles = [first, first + 1, first + 2] if chow else [first] * (4 if rng.random() < 0.2 else 3)
            if caishen in tiles or any(held[k] + tiles.count(k) > 4 for k in tiles):
                continue
            held.update(tiles)
            kind = "chow" if chow else ("kong_concealed" if len(tiles) == 4 else "pung")
            meld = {"type": kind, "tiles": notation(tiles)}
            if kind != "kong_concealed":
                meld["from"] = "E"
            made.append(meld)
        concealed = []
        while len(concealed) < 14 - 3 * melds:
            k = caishen if caishen is not None and rng.random() < 0.12 else rng.choice(pool)
            if held[k] < 4:
                held[k] += 1
                concealed.append(k)
        options = {"caishen": notation([caishen])} if game == "xinyu" else {}
        if game == "xinyu" and rng.random() < 0.3:
            options["house"] = {"wild_fifth_copy": False}
        request = {
            "ruleset": game,
            "options": options,
            "hand": notation(concealed[1:]),
            "win_tile": notation(concealed[:1]),
            "melds": made,
            "winner": "S",
            "dealer": "E",
        }
        answer = score(request)
        if answer.get("win") is False and answer["nearest"] and answer["nearest"]["distance"] <= most:
            found.append((request, answer))
    return found


def test_the_nearest_distance_is_the_least_number_of_tiles_to_draw_by_brute_force():
    """On hands small enough to try every exchange: the nearest win's distance is the least number of real tiles
    (a 财神 drawn as a 财神, four copies a kind) to draw before the hand wins, and its tiles are such a way."""
    rng = Random(2113)
    for game in sorted(RULESETS):
        for melds, count, most in ((3, 14, 2), (2, 10, 1)):
            for request, answer in small_hands(rng, game, melds, count, most):
                distance = answer["nearest"]["distance"]
                assert brute_distance(request, distance) == distance, request
                check_nearest(request, answer)


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
