"""xinyu invariants over generated hands (hypothesis): money is conserved, a 财神 never hurts a win,
and the table-driven reading matches a brute-force search over every use of the 财神."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from calculator.engine import score
from calculator.engine.notation import format_tiles
from calculator.engine.request import parse_request
from calculator.engine.rulesets.xinyu import reading as X
from calculator.engine.rulesets.xinyu import wilds as W
from calculator.engine.seats import SEATS, previous_seat
from calculator.engine.tiles import Tile
from calculator.engine.wildcards import ANY_COLOUR, shisanbuda_natural

SUIT_STARTS = [0, 9, 18]


@st.composite
def xinyu_requests(draw, complete: bool = True) -> dict:
    """A 14-tile xinyu hand (complete, or any tiles), some sets turned into melds, 财神 sprinkled in."""
    caishen = draw(st.integers(0, 33))
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    home = draw(st.sampled_from(SUIT_STARTS + [27]))
    near = [i for i in range(34) if (home <= i < home + 9) or i >= 27]
    if complete:
        for _ in range(4):
            if draw(st.booleans()):
                first = draw(st.sampled_from(SUIT_STARTS)) + draw(st.integers(0, 6))
                sets.append(("seq", first))
                for i in range(3):
                    counts[first + i] += 1
            else:
                kind = draw(st.sampled_from(near))
                sets.append(("tri", kind))
                counts[kind] += 3
        counts[draw(st.sampled_from(near))] += 2
    else:
        for _ in range(14):
            counts[draw(st.sampled_from(near))] += 1
    assume(all(c <= 4 for c in counts))
    # a few natural tiles become 财神 (they stay within four copies of that kind)
    for _ in range(draw(st.integers(0, 4))):
        spare = [i for i in range(34) if counts[i] and i != caishen]
        if counts[caishen] >= 4 or not spare:
            break
        taken = draw(st.sampled_from(spare))
        counts[taken] -= 1
        counts[caishen] += 1
    winner = draw(st.sampled_from(SEATS))
    melds = []
    if complete:
        for kind, first in sets:
            tiles = [first] * 3 if kind == "tri" else [first, first + 1, first + 2]
            if caishen in tiles or draw(st.integers(0, 3)) != 0 or any(counts[t] < tiles.count(t) for t in tiles):
                continue
            for t in tiles:
                counts[t] -= 1
            text = format_tiles([Tile(t) for t in tiles])
            if kind == "seq":
                melds.append({"type": "chow", "tiles": text, "from": previous_seat(winner, SEATS)})
            else:
                melds.append(
                    {"type": "pung", "tiles": text, "from": draw(st.sampled_from([s for s in SEATS if s != winner]))}
                )
    concealed = [Tile(i) for i in range(34) for _ in range(counts[i])]
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    discarder = draw(st.sampled_from([None] + [s for s in SEATS if s != winner]))
    return {
        "ruleset": "xinyu",
        "options": {"caishen": Tile(caishen).notation, "dealer_streak": draw(st.integers(1, 4))},
        "hand": format_tiles(concealed),
        "win_tile": win.notation,
        "melds": melds,
        "winner": winner,
        "dealer": draw(st.sampled_from(SEATS)),
        "discarder": discarder,
        "flags": [],
    }


def _check_money(result: dict) -> None:
    assert "error" not in result, result
    if not result["win"]:
        return
    assert sum(result["net"].values()) == 0
    assert all(p["amount"] > 0 for p in result["payments"])
    assert result["unit"] == result["di_long"] + result["long"]
    winner = result["request"]["winner"]
    assert result["net"][winner] == sum(p["amount"] for p in result["payments"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(xinyu_requests(complete=True))
def test_payments_sum_to_zero_on_complete_hands(data):
    _check_money(score(data))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(xinyu_requests(complete=False))
def test_payments_sum_to_zero_on_any_hand(data):
    _check_money(score(data))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(xinyu_requests(complete=True), st.data())
def test_a_caishen_in_place_of_a_natural_tile_never_loses_the_win(data, pick):
    before = score(data)
    assume(before.get("win"))
    caishen = data["options"]["caishen"]
    request = parse_request(data)
    assume(request.concealed_counts[Tile.from_str(caishen).index] < 4)
    naturals = [t for t in request.concealed if t.notation != caishen]
    assume(naturals)
    replaced = pick.draw(st.sampled_from(naturals))
    changed = dict(data)
    if request.win_tile == replaced:
        changed["win_tile"] = caishen
    else:
        hand = list(request.hand)
        hand.remove(replaced)
        changed["hand"] = format_tiles([*hand, Tile.from_str(caishen)])
    after = score(changed)
    assert after.get("win"), (changed, after)


@cache
def _shapes(counts: tuple[int, ...], pair_left: bool = True) -> frozenset[bool]:
    """Plain definition of pair + sets on any counts (a 财神 may make a fifth or sixth copy):
    the set of "uses a sequence" values over every decomposition."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset() if pair_left else frozenset([False])
    found: set[bool] = set()
    rest = list(counts)
    if counts[first] >= 3:
        rest[first] -= 3
        found |= _shapes(tuple(rest), pair_left)
        rest[first] += 3
    if pair_left and counts[first] >= 2:
        rest[first] -= 2
        found |= _shapes(tuple(rest), False)
        rest[first] += 2
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for i in range(3):
            rest[first + i] -= 1
        found |= {True for _ in _shapes(tuple(rest), pair_left)}
    return frozenset(found)


def _brute_best(request, capped: bool = False) -> tuple[int, int] | None:
    """(bonus 龙, pattern count) of the best reading found by trying every kind for every 财神; `capped`: no
    stand-in may make a fifth copy, the winner's melds counted (house rule wild_fifth_copy=false)."""
    wilds = W.wilds_of(request)
    in_melds = [0] * 34
    for meld in request.melds:
        for tile in meld.tiles:
            in_melds[tile.index] += 1
    no_chow = all(m.type != "chow" for m in request.melds)
    meld_blocks = {W.block_of(m.kind.index) for m in request.melds}
    best = None
    for stand_ins in combinations_with_replacement(range(34), wilds.count):
        full = list(wilds.natural)
        for kind in stand_ins:
            full[kind] += 1
        if capped and any(full[k] + in_melds[k] > 4 for k in range(34)):
            continue
        blocks = meld_blocks | {W.block_of(i) for i in range(34) if full[i]}
        colours: list[str | None] = [None]
        if not blocks - {3}:
            colours.append("quanfeng")
        elif len(blocks - {3}) == 1:
            colours.append("hunyise" if 3 in blocks else "qingyise")
        shapes = []
        found = _shapes(tuple(full))
        if found:
            shapes.append(("standard", False))
            if no_chow and False in found:
                shapes.append(("standard", True))
        if not request.melds and all(c % 2 == 0 for c in full):
            shapes.append(("qidui", False))
        if not request.melds and shisanbuda_natural(wilds.blocks):
            shapes.append(("shisanbuda", False))
        for shape, triplets in shapes:
            for colour in colours:
                one = X.shape_of(request, wilds, shape, X.ColourChoice(colour, ANY_COLOUR), triplets)
                reading = X.reading_of(request, wilds, one, X.flag_patterns(request))
                key = (reading.bonus, len(reading.patterns))
                best = key if best is None or key > best else best
    if W.is_silong(request, wilds) or W.is_quanfeng(wilds):
        colour = "quanfeng" if W.is_quanfeng(wilds) else None
        one = X.shape_of(request, wilds, "none", X.ColourChoice(colour, ANY_COLOUR), False)
        reading = X.reading_of(request, wilds, one, X.flag_patterns(request))
        key = (reading.bonus, len(reading.patterns))
        best = key if best is None or key > best else best
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(xinyu_requests(complete=True), st.booleans())
def test_the_tables_find_the_reading_a_brute_force_search_finds(data, fifth_copy):
    """The per-block tables (and, under wild_fifth_copy=false, the capped search) against every stand-in."""
    data = {**data, "options": {**data["options"], "house": {"wild_fifth_copy": fifth_copy}}}
    request = parse_request(data)
    assume(W.wilds_of(request).count <= 2)  # 34² stand-ins per hand keeps the search quick
    best = X.best_reading(request, W.wilds_of(request))
    mine = None if best is None else (best.bonus, len(best.patterns))
    assert mine == _brute_best(request, capped=not fifth_copy)
    assert W.is_win(request) == (mine is not None)


@st.composite
def crowded_requests(draw) -> dict:
    """14 tiles from a few kinds (four copies are common), one or two of them 财神, maybe a pung: the hands where
    a 财神 would have to be a fifth copy."""
    window = draw(st.sampled_from(SUIT_STARTS)) + draw(st.integers(0, 4))
    kinds = [window + i for i in range(5)] + [27, 31]
    caishen = draw(st.sampled_from([k for k in range(34) if k not in kinds]))
    counts = [0] * 34
    for _ in range(14):
        kind = draw(st.sampled_from(kinds))
        assume(counts[kind] < 4)
        counts[kind] += 1
    winner = draw(st.sampled_from(SEATS))
    melds = []
    triplets = [k for k in kinds if counts[k] >= 3]
    if triplets and draw(st.booleans()):
        kind = draw(st.sampled_from(triplets))
        counts[kind] -= 3
        feeder = draw(st.sampled_from([s for s in SEATS if s != winner]))
        melds.append({"type": "pung", "tiles": format_tiles([Tile(kind)] * 3), "from": feeder})
    for _ in range(draw(st.integers(1, 2))):
        taken = draw(st.sampled_from([k for k in range(34) if counts[k]]))
        counts[taken] -= 1
        counts[caishen] += 1
    concealed = [Tile(i) for i in range(34) for _ in range(counts[i])]
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return {
        "ruleset": "xinyu",
        "options": {"caishen": Tile(caishen).notation, "house": {"wild_fifth_copy": False}},
        "hand": format_tiles(concealed),
        "win_tile": win.notation,
        "melds": melds,
        "winner": winner,
        "dealer": "E",
        "discarder": draw(st.sampled_from([None] + [s for s in SEATS if s != winner])),
        "flags": [],
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(crowded_requests())
def test_no_fifth_copy_finds_the_reading_a_capped_brute_force_finds(data):
    request = parse_request(data)
    best = X.best_reading(request, W.wilds_of(request))
    mine = None if best is None else (best.bonus, len(best.patterns))
    assert mine == _brute_best(request, capped=True)
    assert W.is_win(request) == (mine is not None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.one_of(xinyu_requests(complete=True), xinyu_requests(complete=False), crowded_requests()), st.booleans())
def test_a_wait_reads_its_tiles_as_the_hand_won_on_it_does(data, fifth_copy):
    """The waits answer works out the 13 tiles once (`waiting_of`) and each wait from them (`won_on`): for every
    kind, what the hand won on it reads (its 财神, blocks, needs, 十三不搭, the room under wild_fifth_copy=false)."""
    data = {**data, "options": {**data["options"], "house": {"wild_fifth_copy": fifth_copy}}}
    waiting = parse_request({**data, "win_tile": None})
    ahead = W.waiting_of(waiting)
    no_chow = all(m.type != "chow" for m in waiting.melds)
    for kind in range(34):
        if kind in waiting.kinds_exhausted():
            continue
        won = waiting.with_win(Tile(kind), None)
        wilds = W.wilds_of(won)
        assert W.won_on(ahead, kind) == (wilds, W.natural_of(wilds, triplets=no_chow, closed=not won.melds))


FULL_ONLY = ("request", "decomposition", "explanation")  # what a brief win leaves out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.one_of(xinyu_requests(complete=True), xinyu_requests(complete=False), crowded_requests()))
def test_every_wait_won_either_way_answers_as_its_hand_won_that_way_alone(data):
    """A waits answer works out the brief answer of the wins that say the same, won the same way, once: each wait
    of each way still answers exactly what the 14 tiles won on it that way answer alone, but for the request
    echo, the groups and the explanation."""
    waiting = {**data, "win_tile": None}
    answer = score(waiting)
    assume("error" not in answer and answer["waits"])
    for wait in answer["waits"]:
        for way in answer["ways"]:
            alone = score({**waiting, "win_tile": wait["tile"], "discarder": way["discarder"], "flags": way["flags"]})
            brief = wait[way["how"]]
            if alone["win"]:
                assert brief == {k: v for k, v in alone.items() if k not in FULL_ONLY}, (wait["tile"], way)
            else:  # a wait of the other way only (4龙 wins only by self-draw): null, and the wait says why
                why_not = {"code": alone["code"], "message": alone["message"]}
                assert (brief, wait["why_not"][way["how"]]) == (None, why_not), (wait["tile"], way)
