"""The engine beside the `mahjong` package (riichi, 2.1.0), on hands generated from a fixed seed.

    python -m calculator.engine.bench            # the full run (about a minute on 2 cores)
    python -m calculator.engine.bench --quick    # a tiny sample: checks that everything runs
    python -m calculator.engine.bench --dealt-only   # only the dealt wins of issue 19 (under a minute)

One table: median and p99 of every operation in µs, the `mahjong` median where both libraries do the same
work, and the ratio; then every target of issue 6 with PASS or FAIL. How it measures, so a reader can judge it:
- every call is timed on its own (`perf_counter_ns`); the garbage collector is paused while timing, as `timeit`
  does, and run between operations;
- where two libraries are compared, their calls alternate hand by hand, so a busy machine slows both alike;
- the last rows (issue 19) are the realistic set of `bench_dealt.py`: 2,000 winning requests a game dealt by
  each game's own deal, with melds, flags and every seat, xinyu with 0-4 财神 alike, timed on the thread's CPU
  time in at least 9 rounds interleaved with `mahjong`; their ratios are medians of the rounds' ratios;
- caches are warm, as in a running server: each operation runs once over its hands before it is timed. The
  `mahjong` package keeps its own cache too (`HandDivider` remembers its last 128 hands); both keep theirs.
  No engine cache is keyed on a whole hand (only on one suit's counts or on a group of at most four tiles),
  so timing the same hands round after round does not flatter the engine.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from calculator.engine import score
from calculator.engine.bench_dealt import SEAT_WAYS, Round, dealt_wins, fastest, interleaved, timed
from calculator.engine.decompose import decompositions, is_complete
from calculator.engine.request import parse_request
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import SEATS, previous_seat
from calculator.engine.tiles import ALL_TILES, FIRST_HONOUR, RED_DRAGON
from calculator.engine.waits import wait_kinds

SEED = 6
DEALT_HANDS = 2000  # dealt wins a game (issue 19)
DEALT_ROUNDS = 9  # interleaved rounds over them
BAZHI_KINDS = tuple(range(27)) + (RED_DRAGON,)
MAX_WILD = 4


# --------------------------------------------------------------------------- timing


def time_calls(
    call: Callable, items: Sequence, rounds: int, clock=time.perf_counter_ns, warm: bool = True
) -> list[int]:
    """Nanoseconds of each call of `call(item)`, `rounds` passes over the items after one warm pass (none
    without `warm`).

    The clock is wall time; `time.thread_time_ns` counts only this thread's CPU time instead, so time the
    operating system gives to other programs is left out (a shared machine makes wall-clock tails long).
    """
    for item in items if warm else ():
        call(item)
    gc.collect()
    samples = []
    for _ in range(rounds):
        samples += timed(call, items, clock)
    return samples


def time_pair(ours: Callable, theirs: Callable, items: Sequence, rounds: int) -> tuple[list[int], list[int]]:
    """Both libraries on the same items, alternating call by call: (our samples, their samples)."""
    for a, b in items:
        ours(a)
        theirs(b)
    gc.collect()
    gc.disable()
    clock = time.perf_counter_ns
    mine, other = [], []
    try:
        for _ in range(rounds):
            for a, b in items:
                start = clock()
                ours(a)
                middle = clock()
                theirs(b)
                end = clock()
                mine.append(middle - start)
                other.append(end - middle)
    finally:
        gc.enable()
    return mine, other


@dataclass
class Stat:
    median: float  # µs
    p99: float  # µs
    n: int


def stat(samples: list[int]) -> Stat:
    ordered = sorted(samples)
    n = len(ordered)
    return Stat(ordered[n // 2] / 1000, ordered[min(n - 1, (n * 99) // 100)] / 1000, n)


# --------------------------------------------------------------------------- hands


def standard_counts(rng: random.Random, kinds: Sequence[int], sequences: bool, main_suit: int | None = None):
    """A complete 14-tile concealed part (pair + four sets) as (counts, groups), at most four copies a kind.

    With `main_suit`, most groups come from that suit (bazhi needs eight tiles of one suit).
    """
    suited = [k for k in kinds if k < FIRST_HONOUR]
    while True:
        counts = [0] * 34
        groups = []

        def pick() -> int:
            if main_suit is not None and rng.random() < 0.75:
                return main_suit * 9 + rng.randrange(9)
            return rng.choice(kinds)

        pair = pick()
        counts[pair] += 2
        groups.append(("pair", pair))
        for _ in range(4):
            first = pick()
            if sequences and first < FIRST_HONOUR and first % 9 <= 6 and rng.random() < 0.55:
                for d in range(3):
                    counts[first + d] += 1
                groups.append(("seq", first))
            else:
                counts[first] += 3
                groups.append(("tri", first))
        if max(counts) <= 4 and (not suited or any(counts)):
            return counts, groups


def tiles_text(indices: Sequence[int]) -> str:
    return "".join(ALL_TILES[i].notation for i in sorted(indices))


def expand(counts: Sequence[int]) -> list[int]:
    return [i for i, c in enumerate(counts) for _ in range(c)]


def random_seats(rng: random.Random, self_draw_share: float = 0.4) -> tuple[str, str, str | None]:
    winner, dealer = rng.choice(SEATS), rng.choice(SEATS)
    discarder = None if rng.random() < self_draw_share else rng.choice([s for s in SEATS if s != winner])
    return winner, dealer, discarder


def meld_of(rng: random.Random, group: tuple[str, int], winner: str, chows: bool, kong: bool) -> dict | None:
    """The group as a meld, or None when it cannot be one (a chow in bazhi)."""
    kind, first = group
    if kind == "seq":
        if not chows:
            return None
        return {
            "type": "chow",
            "tiles": tiles_text([first, first + 1, first + 2]),
            "from": previous_seat(winner, SEATS),
        }
    feeder = rng.choice([s for s in SEATS if s != winner])
    if kong and rng.random() < 0.35:
        kong_type = rng.choice(["kong_exposed", "kong_added", "kong_concealed"])
        body = {"type": kong_type, "tiles": tiles_text([first] * 4)}
        if kong_type != "kong_concealed":
            body["from"] = feeder
        return body
    return {"type": "pung", "tiles": tiles_text([first] * 3), "from": feeder}


def win_request(rng, ruleset: str, options: dict, counts, groups, max_melds: int, wild_tiles: int = 0) -> dict:
    """A request whose concealed part (the groups not made melds) plus its melds is the complete hand `counts`."""
    winner, dealer, discarder = random_seats(rng)
    set_groups = groups[1:]
    rng.shuffle(set_groups)
    melds, concealed = [], list(counts)
    for group in set_groups[: rng.randint(0, max_melds)]:
        kind, first = group
        # a kong's fourth tile comes on top of the 14: only when the hand holds no fourth copy already
        meld = meld_of(rng, group, winner, chows=ruleset == "xinyu", kong=counts[first] <= 3)
        if meld is None:
            continue
        for i in [first, first + 1, first + 2] if kind == "seq" else [first] * 3:
            concealed[i] -= 1
        melds.append(meld)
    tiles = expand(concealed)
    if wild_tiles:
        caishen = ALL_TILES_BY_TEXT[options["caishen"]]
        for position in rng.sample(range(len(tiles)), min(wild_tiles, len(tiles))):
            tiles[position] = caishen
    rng.shuffle(tiles)
    win = tiles.pop()
    flags = []
    kongs = sum(m["type"].startswith("kong") for m in melds)
    if kongs and discarder is None and rng.random() < 0.3:
        flags.append("kong_bloom")
    return {
        "ruleset": ruleset,
        "options": options,
        "hand": tiles_text(tiles),
        "win_tile": ALL_TILES[win].notation,
        "melds": melds,
        "winner": winner,
        "dealer": dealer,
        "discarder": discarder,
        "flags": flags,
    }


ALL_TILES_BY_TEXT = {tile.notation: tile.index for tile in ALL_TILES}


def bazhi_wins(rng: random.Random, n: int) -> list[dict]:
    """Winning bazhi requests (八支 in a main suit, pungs and kongs, both tariffs), checked by the engine."""
    found = []
    while len(found) < n:
        counts, groups = standard_counts(rng, BAZHI_KINDS, sequences=True, main_suit=rng.randrange(3))
        options = {"tariff": rng.choice(["315", "525"]), "multi_jiao": rng.random() < 0.3}
        body = win_request(rng, "bazhi", options, counts, groups, max_melds=2)
        if score(body).get("win") is True:
            found.append(body)
    return found


def xinyu_wins(rng: random.Random, n: int, wild: int) -> list[tuple[dict, dict]]:
    """Pairs (the natural winning hand, the same hand with `wild` of its concealed tiles turned into 财神).

    The 财神 kind is absent from the natural hand, so the second hand holds exactly `wild` of them.
    """
    found = []
    while len(found) < n:
        caishen = rng.randrange(34)
        kinds = [k for k in range(34) if k != caishen]
        counts, groups = standard_counts(rng, kinds, sequences=True)
        options = {"caishen": ALL_TILES[caishen].notation, "dealer_streak": rng.randint(1, 3)}
        state = rng.getstate()
        natural = win_request(rng, "xinyu", options, counts, groups, max_melds=2)
        rng.setstate(state)
        wilded = win_request(rng, "xinyu", options, counts, groups, max_melds=2, wild_tiles=wild)
        # the same random draws make the same melds and seats: only the 财神 differ
        if score(natural).get("win") is True and score(wilded).get("win") is True and caishen_count(wilded) == wild:
            found.append((natural, wilded))
    return found


def caishen_count(body: dict) -> int:
    caishen = body["options"]["caishen"]
    tiles = [ALL_TILES[i].notation for i in expand(counts_of_text(body["hand"] + body.get("win_tile", "")))]
    return tiles.count(caishen)


def counts_of_text(text: str) -> list[int]:
    from calculator.engine.notation import parse_tiles

    counts = [0] * 34
    for tile in parse_tiles(text):
        counts[tile.index] += 1
    return counts


def without_win(body: dict) -> dict:
    """The 13-tile hand before the win: the question "what does it wait on?"."""
    waiting = dict(body)
    waiting.pop("win_tile")
    return waiting


def nine_wait_requests(rng: random.Random, n: int) -> list[dict]:
    """bazhi waits questions on 九莲宝灯 (1112345678999 of one suit, the one-suit shape that waits on all nine
    of its kinds): the most waits a bazhi hand can show, each scored both ways. Suits, seats, tariffs at random."""
    found = []
    for _ in range(n):
        winner, dealer, _ = random_seats(rng)
        found.append(
            {
                "ruleset": "bazhi",
                "options": {"tariff": rng.choice(["315", "525"]), "multi_jiao": rng.random() < 0.3},
                "hand": "1112345678999" + rng.choice("mps"),
                "melds": [],
                "winner": winner,
                "dealer": dealer,
                "discarder": None,
                "flags": [],
            }
        )
    return found


def riichi_hands(rng: random.Random, n: int):
    """Closed riichi hands for `estimate_hand_value`: (136-format tiles, win tile, config)."""
    from mahjong.hand_calculating.hand_config import HandConfig

    hands = []
    while len(hands) < n:
        counts, _ = standard_counts(rng, range(34), sequences=True)
        tiles136 = [4 * kind + copy for kind in range(34) for copy in range(counts[kind])]
        win = rng.choice(tiles136)
        config = HandConfig(is_riichi=True, is_tsumo=rng.random() < 0.4)
        hands.append((counts, tiles136, win, config))
    return hands


# --------------------------------------------------------------------------- the run


@dataclass
class Row:
    name: str
    ours: Stat
    theirs: Stat | None = None
    figure: float | None = None  # the ratio when it is not ours / theirs of the medians (the dealt wins' rounds)

    @property
    def ratio(self) -> float | None:
        if self.figure is not None:
            return self.figure
        return None if self.theirs is None else self.ours.median / self.theirs.median


@dataclass
class Target:
    text: str
    figure: str
    met: bool


def run(
    hands: int,
    rounds: int,
    ledger_hands: int,
    seed: int = SEED,
    out=sys.stdout,
    dealt_hands: int = DEALT_HANDS,
    dealt_rounds: int = DEALT_ROUNDS,
) -> tuple[list[Row], list[Target]]:
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator

    rng = random.Random(seed)
    rows: list[Row] = []
    say = out.write

    say(f"generating hands (seed {seed}) …\n")
    riichi = riichi_hands(rng, hands)
    pairs = [(counts, counts) for counts, _, _, _ in riichi]
    mine, theirs = time_pair(is_complete, Agari.is_agari, pairs, rounds)
    rows.append(Row("complete? 14 tiles, no 财神  vs Agari.is_agari", stat(mine), stat(theirs)))
    mine, theirs = time_pair(decompositions, HandDivider.divide_hand, pairs, rounds)
    rows.append(Row("all decompositions  vs HandDivider.divide_hand", stat(mine), stat(theirs)))

    bazhi = bazhi_wins(rng, hands)
    estimate = HandCalculator.estimate_hand_value
    scored = [(body, (tiles, win, config)) for body, (_, tiles, win, config) in zip(bazhi, riichi, strict=False)]
    mine, theirs = time_pair(score, lambda h: estimate(h[0], h[1], config=h[2]), scored, rounds)
    rows.append(Row("full bazhi score  vs estimate_hand_value", stat(mine), stat(theirs)))
    rows += by_melds("  bazhi score", bazhi, mine)
    parsed = [(parse_request(body), h) for body, h in scored]
    evaluate = RULESETS["bazhi"].evaluate
    mine, theirs = time_pair(evaluate, lambda h: estimate(h[0], h[1], config=h[2]), parsed, rounds)
    rows.append(Row("  the same, request already parsed", stat(mine), stat(theirs)))
    bazhi_waiting = [parse_request(without_win(body)) for body in bazhi]
    rows.append(Row("bazhi waits of 13 tiles", stat(time_calls(_waits, bazhi_waiting, rounds))))
    nine = nine_wait_requests(rng, max(hands // 8, 4))
    rows.append(Row(f"{BAZHI_WAITS_RESPONSE} (9 waits)", stat(time_calls(score, nine, rounds))))

    xinyu = RULESETS["xinyu"]
    complete_medians = {}
    for wild in range(MAX_WILD + 1):
        pairs_x = xinyu_wins(rng, max(hands // 2, 8), wild)
        requests = [parse_request(wilded) for _, wilded in pairs_x]
        if wild in (0, MAX_WILD):
            # beside the same hands with their natural tiles back in place of the 财神, call by call
            natural = [parse_request(plain) for plain, _ in pairs_x]
            mine, plain = time_pair(xinyu.is_win, xinyu.is_win, list(zip(requests, natural, strict=True)), rounds)
            complete_medians[wild] = (stat(mine).median, stat(plain).median)
        else:
            mine = time_calls(xinyu.is_win, requests, rounds)
        rows.append(Row(f"xinyu complete? {wild} 财神", stat(mine)))
        bodies = [w for _, w in pairs_x]
        rows.append(Row(f"full xinyu score {wild} 财神", stat(time_calls(score, bodies, rounds))))
        if wild == MAX_WILD:
            cpu = time_calls(score, bodies, rounds, clock=time.thread_time_ns)
            rows.append(Row(f"  the same, thread CPU time ({CPU_NOTE})", stat(cpu)))
        waiting = [parse_request(without_win(w)) for _, w in pairs_x if _wild_after_win(w) == wild]
        rows.append(Row(f"xinyu waits of 13 tiles, {wild} 财神", stat(time_calls(_waits, waiting, rounds))))
        if wild == MAX_WILD:
            # the whole answer the phone page shows live: every wait (about 30 here) scored both ways
            questions = [without_win(w) for _, w in pairs_x if _wild_after_win(w) == wild]
            rows.append(Row(f"{XINYU_WAITS_RESPONSE}, {wild} 财神", stat(time_calls(score, questions, rounds))))

    rows.extend(alternatives_rows(bazhi, xinyu_wins(rng, max(hands // 2, 8), MAX_WILD), rounds))
    rows.extend(distance_rows(rng, bazhi, hands, rounds))
    rows.extend(ledger_rows(rng, ledger_hands, max(2, rounds)))
    rows.extend(dealt_rows(seed, dealt_hands, dealt_rounds, out))

    return rows, targets(rows, complete_medians)


ALTERNATIVES = "  the same with alternatives"


def alternatives_rows(bazhi: list[dict], xinyu_pairs: list[tuple[dict, dict]], rounds: int) -> list[Row]:
    """A score with `alternatives` (RULES.md §5.3: the hand under every other house-rule value) beside the plain
    score of the same hands, call by call; bazhi hands with 海底 as well, so that one more rule is at stake."""
    rows = []
    haidi = [{**body, "discarder": None, "flags": ["last_tile"]} for body in bazhi]
    for name, bodies in (
        ("bazhi score", bazhi),
        ("bazhi score, 海底捞月", haidi),
        (f"xinyu score, {MAX_WILD} 财神", [wilded for _, wilded in xinyu_pairs]),
    ):
        asked = [({**body, "alternatives": True}, body) for body in bodies]
        mine, plain = time_pair(score, score, asked, rounds)
        rows.append(Row(name, stat(plain)))
        rows.append(Row(ALTERNATIVES, stat(mine), stat(plain)))
    return rows


SHANTEN = "shanten of 13 tiles"
DISCARDS = "discard table of 14 tiles"
DRAWS = "draws of 13 tiles not ready"
DRAWS_RESPONSE = "  the whole waits answer"
FIRST_SIGHT = "  the same, first sight"


def distance_rows(rng: random.Random, bazhi: list[dict], hands: int, rounds: int) -> list[Row]:
    """Distance to ready (issue 13): the shanten of 13-tile hands and the discard table of 14-tile hands that
    do not win, on winning hands with 0-2 tiles swapped for random ones (bazhi; xinyu by 财神 in hand).

    Timed on the thread's CPU time, as the p99 targets are judged (the wall clock is in the other rows). The
    first-sight row times hands never asked before, one call each with no warm pass: the caches hold only what
    the rest of the bench left in them, as on a server meeting a new hand.
    """
    cpu = time.thread_time_ns
    rows = []
    sets = [("bazhi", bazhi)] + [
        (f"xinyu, {wild} 财神", [w for _, w in xinyu_wins(rng, hands // 2 + 4, wild)]) for wild in range(4)
    ]
    for (name, bodies), wild in zip(sets, [0, 0, 1, 2, 3], strict=True):
        kept = [without_win(b) for b in bodies if b["ruleset"] == "bazhi" or _wild_after_win(b) == wild]
        waiting = [parse_request(body) for body in _spoiled(rng, kept, 0)]
        distance = RULESETS[waiting[0].ruleset].distance
        rows.append(Row(f"{SHANTEN}, {name}", stat(time_calls(distance.shanten, waiting, rounds, clock=cpu))))
        if wild < 3:  # (three 财神 are always ready)
            rows.extend(draws_rows(rng, name, kept, rounds))
    for name, bodies in sets[:2] + sets[3:4]:
        losing = [parse_request(body) for body in _spoiled(rng, bodies, 1)]
        distance = RULESETS[losing[0].ruleset].distance
        rows.append(Row(f"{DISCARDS}, {name}", stat(time_calls(distance.discards, losing, rounds, clock=cpu))))
        fresh = [parse_request(body) for body in _spoiled(rng, bodies, 1)]
        rows.append(Row(FIRST_SIGHT, stat(time_calls(distance.discards, fresh, 1, clock=cpu, warm=False))))
    return rows


def draws_rows(rng: random.Random, name: str, bodies: list[dict], rounds: int) -> list[Row]:
    """The draws that help a 13-tile hand that is not ready (issue 21), alone and as part of the whole waits
    answer (shanten, draws, no waits), on the hands with 1 or 2 tiles swapped that are then not ready."""
    requests = [parse_request(body) for body in _spoiled(rng, bodies, 1)]
    if not requests:
        return []
    distance = RULESETS[requests[0].ruleset].distance
    waiting = [r for r in requests if distance.shanten(r)]
    if not waiting:
        return []
    cpu = time.thread_time_ns
    bodies = [r.to_dict() for r in waiting]
    return [
        Row(f"{DRAWS}, {name}", stat(time_calls(distance.draws, waiting, rounds, clock=cpu))),
        Row(DRAWS_RESPONSE, stat(time_calls(score, bodies, rounds, clock=cpu))),
    ]


def _spoiled(rng: random.Random, bodies: list[dict], least: int) -> list[dict]:
    """The requests with `least` to 2 concealed tiles swapped for random kinds of the game (copies permitting);
    with `least` ≥ 1 only those that no longer win. The 财神 in hand stay as many."""
    found = []
    for body in bodies:
        counts = counts_of_text(body["hand"])
        held = list(counts)
        for meld in body["melds"]:
            for k, c in enumerate(counts_of_text(meld["tiles"])):
                held[k] += c
        if "win_tile" in body:
            held[counts_of_text(body["win_tile"]).index(1)] += 1
        caishen = counts_of_text(body["options"]["caishen"]).index(1) if "caishen" in body["options"] else None
        kinds = [k for k in RULESETS[body["ruleset"]].kinds if k != caishen]
        for _ in range(rng.randint(least, 2)):
            out = rng.choice([k for k in kinds if counts[k]])
            into = rng.choice([k for k in kinds if held[k] < 4 and k != out])
            counts[out] -= 1
            counts[into] += 1
            held[out] -= 1
            held[into] += 1
        spoiled = {**body, "hand": tiles_text(expand(counts))}
        if least == 0 or score(spoiled).get("win") is False:
            found.append(spoiled)
    return found


def distance_targets(rows: list[Row]) -> list[Target]:
    """Issue 13: the shanten of 13 tiles with up to 2 财神 p99 < 5 ms, the discard table p99 < 50 ms (CPU time,
    caches warm as everywhere in this bench; the first-sight rows are printed beside, not judged). Issue 21: the
    whole waits answer of 13 tiles with two 财神 that are not ready (with its draws) p99 < 50 ms."""
    if not any(row.name.startswith(SHANTEN) for row in rows):
        return []
    shanten = [row for row in rows if row.name.startswith(SHANTEN) and not row.name.endswith("3 财神")]
    discards = [row for row in rows if row.name.startswith(DISCARDS)]
    worst_shanten = max(row.ours.p99 for row in shanten)
    worst_discards = max(row.ours.p99 for row in discards)
    draws = _answer_after(rows, f"{DRAWS}, xinyu, 2 财神")
    return [
        Target(
            "shanten of 13 tiles, up to 2 财神: p99 < 5 ms (CPU time, worst set)",
            f"{worst_shanten / 1000:.2f} ms",
            worst_shanten < 5000,
        ),
        Target(
            "discard table of 14 tiles: p99 < 50 ms (CPU time, worst set)",
            f"{worst_discards / 1000:.1f} ms",
            worst_discards < 50000,
        ),
        Target(
            "waits answer of 13 tiles not ready, 2 财神, with its draws: p99 < 50 ms (CPU time)",
            "no such hands" if draws is None else f"{draws.ours.p99 / 1000:.1f} ms",
            draws is not None and draws.ours.p99 < 50000,
        ),
    ]


def _answer_after(rows: list[Row], name: str) -> Row | None:
    """The whole-answer row that follows the row `name`, if there is one."""
    for row, after in zip(rows, rows[1:], strict=False):
        if row.name == name and after.name == DRAWS_RESPONSE:
            return after
    return None


CPU_NOTE = "other programs excluded"
BAZHI_WAITS_RESPONSE = "bazhi waits response"
XINYU_WAITS_RESPONSE = "xinyu waits response"


def by_melds(prefix: str, bodies: list[dict], samples: list[int]) -> list[Row]:
    """The samples of `bodies` (timed in order, round after round) grouped by the number of melds."""
    groups: dict[int, list[int]] = {}
    for i, sample in enumerate(samples):
        groups.setdefault(len(bodies[i % len(bodies)]["melds"]), []).append(sample)
    return [Row(f"{prefix}, {melds} meld{'s' * (melds != 1)}", stat(groups[melds])) for melds in sorted(groups)]


def _waits(request) -> list:
    return wait_kinds(RULESETS[request.ruleset], request)


def _wild_after_win(body: dict) -> int:
    """财神 left in the 13-tile hand once the win tile is taken away."""
    return caishen_count(body) - (body["win_tile"] == body["options"]["caishen"])


def ledger_rows(rng: random.Random, hands: int, rounds: int) -> list[Row]:
    """A bazhi table of `hands` hands played through the ledger, then recomputed as a whole."""
    from calculator import ledger

    config = ledger.parse_config({"ruleset": "bazhi", "options": {"tariff": "315"}, "dealer": "E"})
    state = ledger.start(config)
    pool = bazhi_wins(rng, 60)
    entries, requests = [], []
    while len(requests) < hands:
        if state.status == "ended":
            entry = {"kind": "next"}
        else:
            body = dict(rng.choice(pool), dealer=state.dealer)
            requests.append(body)
            entry = {"kind": "hand", "result": score(body)}
        ledger.apply(state, entry)
        entries.append(entry)

    def rescore(_) -> None:
        fresh = [
            {"kind": "hand", "result": score(body)} if e["kind"] == "hand" else e
            for e, body in _with(entries, requests)
        ]
        ledger.replay(config, fresh)

    rows = []
    for share in (4, 2, 1):  # a quarter, half and the whole table: how replay grows with the hands
        part = entries[: _entries_for(entries, hands // share)]
        replay = time_calls(lambda _, part=part: ledger.replay(config, part), [0], rounds * 4)
        rows.append(Row(f"ledger: replay a table of {hands // share} stored results", stat(replay)))
    rows.append(Row(f"ledger: rescore and replay {hands} hands", stat(time_calls(rescore, [0], rounds))))
    return rows


def _entries_for(entries: list[dict], hands: int) -> int:
    """How many entries of the log hold its first `hands` hands."""
    seen = 0
    for i, entry in enumerate(entries):
        seen += entry["kind"] == "hand"
        if seen == hands:
            return i + 1
    return len(entries)


def _with(entries: list[dict], requests: list[dict]):
    """Each entry with the request of its hand (None for other entries)."""
    it = iter(requests)
    for entry in entries:
        yield entry, next(it) if entry["kind"] == "hand" else None


# --------------------------------------------------------------------------- dealt wins (issue 19)

DEALT = "dealt wins"
DEALT_BAZHI = f"{DEALT}: full bazhi score  vs estimate_hand_value"
DEALT_XINYU = f"{DEALT}: full xinyu score"
DEALT_CROWDED = "  3-4 财神: p99  vs estimate_hand_value's median"
DEALT_FASTEST = "  each hand's fastest round"
CROWDED = (3, 4)
BAZHI_GOAL = 0.9  # × estimate_hand_value's median (issue 19)
CROWDED_GOAL = 4.0  # p99, × estimate_hand_value's median hand


def dealt_rows(seed: int, hands: int, rounds: int, out=sys.stdout) -> list[Row]:
    """The realistic set (bench_dealt.py): `hands` winning requests a game from each game's deal (xinyu's with
    0-4 财神 alike), timed in `rounds` interleaved rounds with `mahjong` on as many riichi hands. A row's ratio is
    the median of the rounds' ratios (the crowded row: our p99 to `mahjong`'s median hand)."""
    from mahjong.hand_calculating.hand import HandCalculator

    rng = random.Random(seed)
    out.write(f"dealing {hands} wins a game (seed {seed}) …\n")
    bazhi = dealt_wins("bazhi", hands, rng)
    xinyu = dealt_wins("xinyu", hands, rng)
    riichi = [(tiles, win, config) for _, tiles, win, config in riichi_hands(rng, hands)]
    estimate = HandCalculator.estimate_hand_value
    found = interleaved(
        {"bazhi": bazhi.requests, "xinyu": xinyu.requests},
        lambda hand: estimate(hand[0], hand[1], config=hand[2]),
        riichi,
        rounds,
    )
    theirs = stat([ns for one in found for ns in one.theirs])
    crowded = [i for i, wild in enumerate(xinyu.wild) if wild in CROWDED]
    rows = [
        Row(f"{DEALT_BAZHI} ({rounds} rounds)", _pooled(found, "bazhi"), theirs, _median_ratio(found, "bazhi")),
        Row(f"{DEALT_XINYU}  vs estimate_hand_value", _pooled(found, "xinyu"), theirs, _median_ratio(found, "xinyu")),
    ]
    for wild in range(MAX_WILD + 1):
        picked = [i for i, n in enumerate(xinyu.wild) if n == wild]
        rows.append(Row(f"  {wild} 财神", _pooled(found, "xinyu", picked)))
    rows.append(
        Row(DEALT_CROWDED, _pooled(found, "xinyu", crowded), theirs, _median_ratio(found, "xinyu", 0.99, crowded))
    )
    # beside the goals, not judged: each hand's fastest round (what the load added to single calls left out)
    their_best = stat(fastest(found))
    bazhi_best, xinyu_best = fastest(found, "bazhi"), fastest(found, "xinyu")
    rows.append(Row(f"{DEALT_FASTEST}: bazhi median", stat(bazhi_best), their_best))
    crowded_best = stat([xinyu_best[i] for i in crowded])
    rows.append(Row(f"{DEALT_FASTEST}: 3-4 财神 p99", crowded_best, their_best, crowded_best.p99 / their_best.median))
    out.write(
        f"dealt wins: {bazhi.seat_ways()} and {xinyu.seat_ways()} of {SEAT_WAYS} (winner, dealer, discarder) "
        f"combinations; per round, bazhi {_per_round(found, 'bazhi')}; "
        f"3-4 财神 p99 {_per_round(found, 'xinyu', 0.99, crowded)}\n"
    )
    return rows


def _pooled(found: list[Round], name: str, picked: list[int] | None = None) -> Stat:
    """Our samples of set `name` over every round (only the requests at the `picked` places, if given)."""
    return stat(
        [one.ours[name][i] for one in found for i in (picked if picked is not None else range(len(one.ours[name])))]
    )


def _median_ratio(found: list[Round], name: str, share: float = 0.5, picked: list[int] | None = None) -> float:
    return statistics.median(one.ratio(name, share, picked) for one in found)


def _per_round(found: list[Round], name: str, share: float = 0.5, picked: list[int] | None = None) -> str:
    return " ".join(f"{one.ratio(name, share, picked):.2f}" for one in found)


def dealt_targets(rows: list[Row]) -> list[Target]:
    """Issue 19, on the dealt wins: the full bazhi score ≤ 0.9× estimate_hand_value and the xinyu 3-4 财神 p99 ≤ 4×
    its median hand (medians of the rounds' ratios)."""
    if not any(row.name.startswith(DEALT) for row in rows):
        return []
    bazhi = _find(rows, DEALT_BAZHI).ratio
    crowded = _find(rows, DEALT_CROWDED).ratio
    return [
        Target(
            f"dealt wins: full bazhi score ≤ {BAZHI_GOAL}× estimate_hand_value", f"{bazhi:.2f}×", bazhi <= BAZHI_GOAL
        ),
        Target(
            f"dealt wins: xinyu 3-4 财神 p99 ≤ {CROWDED_GOAL:.0f}× estimate_hand_value's median hand",
            f"{crowded:.2f}×",
            crowded <= CROWDED_GOAL,
        ),
    ]


def _find(rows: list[Row], prefix: str) -> Row:
    return next(row for row in rows if row.name.startswith(prefix))


def targets(rows: list[Row], complete_medians: dict[int, tuple[float, float]]) -> list[Target]:
    found = []
    for prefix, text in (
        ("complete? 14", "completeness ≤ 1.0× Agari.is_agari (median)"),
        ("all decompositions", "decompositions ≤ 1.0× HandDivider.divide_hand (median)"),
        ("full bazhi score", "full bazhi score ≤ 1.0× estimate_hand_value (median)"),
    ):
        ratio = _find(rows, prefix).ratio
        found.append(Target(text, f"{ratio:.2f}×", ratio <= 1.0))
    with_wild, plain = complete_medians[MAX_WILD]
    found.append(
        Target(
            "completeness with 4 财神 ≤ 2× the same hands without (median)",
            f"{with_wild / plain:.2f}×",
            with_wild <= 2 * plain,
        )
    )
    # p99 is judged on the thread's CPU time: on a shared machine a wall-clock tail measures the other programs
    wall = _find(rows, f"full xinyu score {MAX_WILD}").ours.p99
    cpu = _find(rows, f"  the same, thread CPU time ({CPU_NOTE})").ours.p99
    found.append(
        Target(
            "full xinyu score with 4 财神: p99 < 1 ms (CPU time)",
            f"{cpu:.0f} µs (wall clock {wall:.0f} µs)",
            cpu < 1000,
        )
    )
    median = _find(rows, f"xinyu waits of 13 tiles, {MAX_WILD}").ours.median
    found.append(Target("waits with 4 财神 < 200 µs (median)", f"{median:.0f} µs", median < 200))
    worst = max(row.ratio for row in rows if row.name == ALTERNATIVES)
    found.append(Target("alternatives ≤ 12× one score (median, worst of the three sets)", f"{worst:.2f}×", worst <= 12))
    return found


def waits_aims(rows: list[Row]) -> list[Target]:
    """Aims for the waits answers the phone page shows live (every wait scored by self-draw and by discard)."""
    if not any(row.name.startswith(BAZHI_WAITS_RESPONSE) for row in rows):
        return []
    bazhi = _find(rows, BAZHI_WAITS_RESPONSE).ours.median
    xinyu = _find(rows, f"{XINYU_WAITS_RESPONSE}, {MAX_WILD}").ours.median
    return [
        Target("bazhi waits response, 9 waits < 3 ms (median)", f"{bazhi / 1000:.2f} ms", bazhi < 3000),
        Target("xinyu waits response with 4 财神 < 15 ms (median)", f"{xinyu / 1000:.2f} ms", xinyu < 15000),
    ]


def _width(text: str) -> int:
    """Columns on a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def render(rows: list[Row], found: list[Target]) -> str:
    width = max(_width(row.name) for row in rows)
    lines = [
        f"{_pad('operation', width)}  {'n':>6}  {'median µs':>10}  {'p99 µs':>10}  {'mahjong µs':>10}  {'ratio':>6}",
        "-" * (width + 52),
    ]
    for row in rows:
        theirs = f"{row.theirs.median:10.1f}" if row.theirs else " " * 10
        ratio = f"{row.ratio:5.2f}×" if row.ratio is not None else ""
        lines.append(
            f"{_pad(row.name, width)}  {row.ours.n:>6}  {row.ours.median:10.1f}  {row.ours.p99:10.1f}  {theirs}  {ratio:>6}"
        )
    for heading, listed in (
        ("targets (issue 6)", found),
        ("targets (issue 13: distance to ready)", distance_targets(rows)),
        ("aims (the waits view of the phone page)", waits_aims(rows)),
        ("targets (issue 19: dealt wins, CPU time, medians of interleaved rounds)", dealt_targets(rows)),
    ):
        if listed:
            lines.append("")
            lines.append(heading)
            lines.extend(f"  {'PASS' if t.met else 'FAIL'}  {t.text}: {t.figure}" for t in listed)
    return "\n".join(lines)


def machine() -> str:
    """What the numbers were measured on: Python, CPUs, and how busy the machine was (load average)."""
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"Python {platform.python_version()} · {os.cpu_count()} CPUs · load average {load}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per operation (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the hands (default 5)")
    parser.add_argument("--ledger-hands", type=int, default=500, help="hands in the ledger table (default 500)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--dealt-hands", type=int, default=DEALT_HANDS, help=f"dealt wins a game (default {DEALT_HANDS})"
    )
    parser.add_argument(
        "--dealt-rounds", type=int, default=DEALT_ROUNDS, help=f"interleaved rounds over them (default {DEALT_ROUNDS})"
    )
    parser.add_argument("--dealt-only", action="store_true", help="only the dealt wins (issue 19), about a minute")
    parser.add_argument("--quick", action="store_true", help="a tiny sample that only checks the run works")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.rounds, args.ledger_hands, args.dealt_hands, args.dealt_rounds = 8, 1, 12, 10, 1
    before = machine()
    if args.dealt_only:
        rows, found = dealt_rows(args.seed, args.dealt_hands, args.dealt_rounds), []
    else:
        rows, found = run(
            args.hands, args.rounds, args.ledger_hands, args.seed, sys.stdout, args.dealt_hands, args.dealt_rounds
        )
    print(render(rows, found))
    print(f"\nbefore: {before}\nafter:  {machine()}")
    judged = found + waits_aims(rows) + distance_targets(rows) + dealt_targets(rows)
    return 0 if all(t.met for t in judged) else 1


if __name__ == "__main__":
    sys.exit(main())
