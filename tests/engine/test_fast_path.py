"""The fast paths (per-suit tables, waits from counts, 财神 tables) against a plain brute-force search.

The search below is written to be obviously right, not fast: take the lowest tile left, try every group
it can start, recurse. Hands come from a fixed seed: complete hands, and the same hands with a tile
swapped or taken away, so both answers (yes and no) are tested many times.
"""

from __future__ import annotations

import random

from calculator.engine.decompose import (
    Decomposition,
    completing_kinds,
    decompositions,
    decompositions_of,
    is_complete,
    keys_of,
)
from calculator.engine.notation import format_tiles
from calculator.engine.request import parse_request
from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.bazhi.declarations import TARIFFS
from calculator.engine.rulesets.bazhi.reading import HandFacts, Reading, hand_facts, read_hand, waits_from_counts
from calculator.engine.tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS, RED_DRAGON
from calculator.engine.waits import search_wait_kinds, wait_kinds
from calculator.engine.wildcards import block_counts, standard_plan

SEED = 20261129
HANDS = 2500


# --------------------------------------------------------------------------- the brute force


def starts_sequence(kind: int) -> bool:
    return kind < FIRST_HONOUR and kind % 9 <= 6


def brute_splits(counts: list[int], pair_left: bool) -> list[tuple]:
    """Every split of `counts` into sets (and one pair if `pair_left`), as sorted tuples of groups."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return [()] if not pair_left else []
    found = []
    if pair_left and counts[first] >= 2:
        counts[first] -= 2
        found += [(("pair", first), *rest) for rest in brute_splits(counts, False)]
        counts[first] += 2
    if counts[first] >= 3:
        counts[first] -= 3
        found += [(("tri", first), *rest) for rest in brute_splits(counts, pair_left)]
        counts[first] += 3
    if starts_sequence(first) and counts[first + 1] and counts[first + 2]:
        for k in range(3):
            counts[first + k] -= 1
        found += [(("seq", first), *rest) for rest in brute_splits(counts, pair_left)]
        for k in range(3):
            counts[first + k] += 1
    return [tuple(sorted(split)) for split in found]


def brute_complete(counts: list[int]) -> bool:
    return bool(brute_splits(list(counts), True))


def brute_complete_with_wild(counts: list[int], wild: int, pair_left: bool = True) -> bool:
    """Pair + sets where `wild` tiles may each stand for any kind (a fifth copy too)."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        spare = wild - (2 if pair_left else 0)
        return spare >= 0 and spare % 3 == 0
    options = []  # (natural tiles taken, wild tiles used, pair still wanted)
    if pair_left:
        options += [([first] * k, 2 - k, False) for k in (1, 2) if counts[first] >= k]
    options += [([first] * k, 3 - k, pair_left) for k in (1, 2, 3) if counts[first] >= k]
    if first < FIRST_HONOUR:
        suit_start = first - first % 9
        for start in (first - 2, first - 1, first):
            if start < suit_start or start + 2 >= suit_start + 9:
                continue
            others = [p for p in (start, start + 1, start + 2) if p != first]
            # each other place: a natural tile (only above `first`, none are left below) or a wild one
            for choice in range(4):
                natural = [p for bit, p in enumerate(others) if choice >> bit & 1]
                if any(p < first for p in natural):
                    continue
                options.append(([first, *natural], 3 - 1 - len(natural), pair_left))
    for taken, used, still_pair in options:
        if used > wild:
            continue
        rest = list(counts)
        for kind in taken:
            rest[kind] -= 1
        if min(rest) < 0:
            continue
        if brute_complete_with_wild(rest, wild - used, still_pair):
            return True
    return False


# --------------------------------------------------------------------------- hands


def complete_hand(rng: random.Random, kinds: list[int]) -> list[int]:
    while True:
        counts = [0] * NUM_KINDS
        counts[rng.choice(kinds)] += 2
        for _ in range(4):
            first = rng.choice(kinds)
            if starts_sequence(first) and first + 2 in kinds and rng.random() < 0.6:
                for k in range(3):
                    counts[first + k] += 1
            else:
                counts[first] += 3
        if max(counts) <= 4:
            return counts


def hands(seed: int, count: int, kinds: list[int]):
    """Complete hands, half of them spoiled by swapping one tile for a random one."""
    rng = random.Random(seed)
    for n in range(count):
        counts = complete_hand(rng, kinds)
        if n % 2:
            counts[rng.choice([i for i, c in enumerate(counts) if c])] -= 1
            counts[rng.choice([k for k in kinds if counts[k] < 4])] += 1
        yield rng, counts


ONE_SUIT_HEAVY = list(range(18))  # two suits only: more sequences, more readings, more waits
ALL_KINDS = list(range(NUM_KINDS))
BAZHI_KINDS = [*range(27), RED_DRAGON]


# --------------------------------------------------------------------------- the checks


def test_completeness_and_decompositions_match_the_search():
    complete = 0
    mixed = [*hands(SEED, HANDS // 2, ALL_KINDS), *hands(SEED + 10, HANDS // 2, ONE_SUIT_HEAVY)]
    for i, (_, counts) in enumerate(mixed):
        expected = brute_splits(list(counts), True)
        assert is_complete(counts) == bool(expected), counts
        found = sorted(tuple(sorted([("pair", d.pair), *d.sets])) for d in decompositions(counts))
        assert found == sorted(set(expected)), (i, counts)
        complete += bool(expected)
    assert HANDS // 3 < complete < HANDS  # both answers were tested


def test_waits_from_counts_match_the_search():
    with_waits = 0
    for rng, counts in hands(SEED + 1, HANDS, ONE_SUIT_HEAVY):
        counts[rng.choice([i for i, c in enumerate(counts) if c])] -= 1  # 13 tiles
        expected = [
            k
            for k in range(NUM_KINDS)
            if counts[k] < 4 and brute_complete([c + (i == k) for i, c in enumerate(counts)])  # no fifth copy
        ]
        assert completing_kinds(counts) == expected, counts
        # bazhi: the same, limited to its kinds, a fifth copy never, and eight of one suit after the win
        if all(counts[k] == 0 for k in range(NUM_KINDS) if k not in BAZHI_KINDS):
            bazhi = [
                k
                for k in expected
                if k in BAZHI_KINDS
                and counts[k] < 4
                and any(sum(counts[s * 9 : s * 9 + 9]) + (k // 9 == s and k < 27) >= 8 for s in range(3))
            ]
            assert waits_from_counts(counts, counts) == bazhi, counts
        with_waits += bool(expected)
    assert with_waits > HANDS // 3


def test_a_requests_block_keys_answer_as_its_counts():
    """A request reads its hand's four block keys once (`ScoreRequest.hand_keys`, `concealed_keys`) and asks the
    tables with them for the splits and the waits: the same answers as the counts give, before the win tile and
    after it; its echo writes the tiles in their canonical order."""
    for rng, counts in hands(SEED + 4, HANDS // 2, ALL_KINDS):
        win = rng.choice([i for i, c in enumerate(counts) if c])
        before = list(counts)
        before[win] -= 1
        hand = "".join(ALL_TILES[k].notation for k, n in enumerate(before) for _ in range(n))
        request = parse_request(
            {"ruleset": "xinyu", "options": {"caishen": "E"}, "hand": hand, "win_tile": ALL_TILES[win].notation}
            | {"winner": "S", "dealer": "E"}
        )
        assert list(request.hand_keys) == keys_of(before) and list(request.concealed_keys) == keys_of(counts)
        assert completing_kinds(before, request.hand_keys) == completing_kinds(before), before
        assert decompositions_of(counts, request.concealed_keys) == decompositions(counts), counts
        assert request.to_dict()["hand"] == format_tiles([ALL_TILES[k] for k, n in enumerate(before) for _ in range(n)])


def test_caishen_table_matches_the_search():
    """wildcards.standard_plan: can natural tiles plus J 财神 be a pair and sets?"""
    rng = random.Random(SEED + 2)
    answers = set()
    for _, counts in hands(SEED + 3, HANDS // 2, ALL_KINDS):
        wild = rng.randrange(5)
        natural = list(counts)
        for _ in range(wild):
            natural[rng.choice([i for i, c in enumerate(natural) if c])] -= 1
        expected = brute_complete_with_wild(natural, wild)
        assert (standard_plan(block_counts(natural), wild) is not None) == expected, (natural, wild)
        answers.add(expected)
    assert answers == {True, False}


def request_of(ruleset: str, counts: list[int], options: dict) -> dict:
    hand = "".join(ALL_TILES[i].notation for i in range(NUM_KINDS) for _ in range(counts[i]))
    return {"ruleset": ruleset, "options": options, "hand": hand, "winner": "S", "dealer": "E"}


def test_ruleset_waits_match_trying_every_tile():
    """The count-based waits of both rulesets against the definition: try each kind as the win tile."""
    rng = random.Random(SEED + 4)
    checked = 0
    for ruleset, kinds in (("bazhi", BAZHI_KINDS), ("xinyu", ALL_KINDS)):
        for _, counts in hands(SEED + 5, 300, kinds if ruleset == "xinyu" else list(range(9)) + [RED_DRAGON]):
            counts[rng.choice([i for i, c in enumerate(counts) if c])] -= 1
            options = {"caishen": ALL_TILES[rng.randrange(NUM_KINDS)].notation} if ruleset == "xinyu" else {}
            request = parse_request(request_of(ruleset, counts, options))
            rules = RULESETS[ruleset]
            assert wait_kinds(rules, request) == search_wait_kinds(rules, request), request.to_dict()
            checked += 1
    assert checked == 600


def test_the_values_built_as_named_tuples_hold_every_field():
    """bazhi's `HandFacts` and `Reading` and a `Decomposition`, each built with its fields named: one of each, from
    123 456 789p 55p + 123s won on 1s, holds exactly its fields, each in its place."""
    request = parse_request(
        {
            "ruleset": "bazhi",
            "hand": "12345556789p23s",
            "win_tile": "1s",
            "winner": "S",
            "dealer": "E",
            "discarder": "W",
        }
    )
    tariff = TARIFFS[request.options.tariff]
    (decomposition,) = decompositions(request.concealed_counts)
    facts = hand_facts(request, tariff, unique_wait=False)
    reading = read_hand(request, tariff, facts, decomposition, "side")
    for value, kind in ((decomposition, Decomposition), (facts, HandFacts), (reading, Reading)):
        assert type(value) is kind
        assert len(value) == len(kind._fields)
    assert (decomposition.pair, decomposition.sequences, reading.win_role, facts.zhi_count) == (
        13,
        (9, 12, 15, 18),
        "side",
        11,
    )
