"""The benchmark's realistic set (issue 19): winning hands dealt by each game's own deal, the way a table meets
them, beside the bench's hand-made sets (`bench.py`).

The bench's own sets are built for one question each (八支 in a main suit, natural hands with 财神 put in); the
hands a table scores are not like that: they have melds, flags (杠后开花, 抢杠胡, 天胡 …), every seat as winner,
dealer and discarder, and in a game with wild tiles any number of them. Here every registered game deals hands
with its own `deal` (the learners' deal, `rulesets/<game>/deal.py`), the engine says which are wins, and only
wins are kept. A game with a wild tile gets the same number of hands with 0, 1, … `MAX_WILD` of them: the deal
holds 0-3 more often than 4, so a dealt win short of the count has natural concealed tiles turned into the wild
tile (each standing in for the tile it replaced, as the deal itself puts them in), and the engine checks the
result again.

The figure (`interleaved`) is taken in rounds: all of our hands, then all of `mahjong`'s riichi hands, then
ours …; each round gives one ratio (our median, or our p99, to `mahjong`'s median of that round), and the figure
is the median of the rounds' ratios. Every call is timed alone on the thread's CPU time, so time the operating
system gives other programs on a shared machine is left out.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from .notation import format_tiles, parse_tiles
from .rulesets import RULESETS
from .score import score
from .seats import SEATS

MAX_WILD = 4  # four copies of a wild kind exist
SEAT_WAYS = len(SEATS) * len(SEATS) * len(SEATS)  # winner × dealer × (self-draw or one of the three others)


@dataclass
class Dealt:
    """One game's dealt wins: each request with the number of wild tiles in its concealed part."""

    game: str
    requests: list[dict]
    wild: list[int]

    def with_wild(self, counts: Sequence[int]) -> list[dict]:
        """The requests holding one of these numbers of wild tiles."""
        return [request for request, n in zip(self.requests, self.wild, strict=True) if n in counts]

    def seat_ways(self) -> int:
        """How many of the 64 (winner, dealer, discarder) combinations the set holds."""
        return len({(r["winner"], r["dealer"], r["discarder"]) for r in self.requests})


def dealt_wins(game: str, count: int, rng: Random) -> Dealt:
    """`count` winning requests of `game` from its deal; with a wild tile, `count // 5` with each number of them
    (0 to 4, the rest with 0)."""
    ruleset = RULESETS[game]
    deal = ruleset.deal
    if not _has_wild(game, rng):
        requests = []
        while len(requests) < count:
            request = deal(rng, None)
            if score(request).get("win") is True:
                requests.append(request)
        return Dealt(game, requests, [0] * count)
    wanted = [count // (MAX_WILD + 1)] * (MAX_WILD + 1)
    wanted[0] += count - sum(wanted)
    found: list[list[dict]] = [[] for _ in wanted]
    while any(len(found[n]) < wanted[n] for n in range(len(wanted))):
        request = deal(rng, None)
        answer = score(request)
        if answer.get("win") is not True:
            continue
        wild = ruleset.wild_tile(answer)
        held = _wild_held(request, wild)
        short = [n for n in range(held, MAX_WILD + 1) if len(found[n]) < wanted[n]]
        if not short:
            continue
        target = rng.choice(short)
        topped = _topped_up(request, wild, target - held, rng)
        if topped is not None and score(topped).get("win") is True:
            found[target].append(topped)
    return Dealt(
        game,
        [request for requests in found for request in requests],
        [n for n, requests in enumerate(found) for _ in requests],
    )


def _has_wild(game: str, rng: Random) -> bool:
    """Whether the game's answers name a wild tile (asked of one dealt hand)."""
    while True:
        answer = score(RULESETS[game].deal(Random(rng.random()), None))
        if "error" not in answer:
            return RULESETS[game].wild_tile(answer) is not None


def _wild_held(request: dict, wild: str) -> int:
    """Wild tiles in the concealed part, the winning tile included."""
    return [tile.notation for tile in parse_tiles(request["hand"] + request["win_tile"])].count(wild)


def _topped_up(request: dict, wild: str, more: int, rng: Random) -> dict | None:
    """The request with `more` of its natural concealed tiles (the winning tile among them) turned into the wild
    tile; None when it has too few."""
    if not more:
        return request
    tiles = [tile.notation for tile in parse_tiles(request["hand"])] + [request["win_tile"]]
    natural = [i for i, tile in enumerate(tiles) if tile != wild]
    if len(natural) < more:
        return None
    for place in rng.sample(natural, more):
        tiles[place] = wild
    win = tiles.pop()
    return {**request, "hand": format_tiles(parse_tiles("".join(tiles))), "win_tile": win}


# --------------------------------------------------------------------------- the interleaved rounds


@dataclass
class Round:
    """One round: the CPU time (ns) of each call, ours per set (in the set's order) and `mahjong`'s."""

    ours: dict[str, list[int]]
    theirs: list[int]

    def ratio(self, name: str, share: float = 0.5, picked: Sequence[int] | None = None) -> float:
        """Our `share` quantile (the median by default, 0.99 for the p99) of set `name` (only the requests at the
        `picked` places, if given) to `mahjong`'s median hand in this round."""
        samples = self.ours[name] if picked is None else [self.ours[name][i] for i in picked]
        return quantile(samples, share) / quantile(self.theirs, 0.5)


def fastest(found: Sequence[Round], name: str | None = None) -> list[int]:
    """Each call's fastest round (set `name` of ours, or `mahjong`'s): on a loaded machine a single call's time
    also holds what other programs did to the processor's caches meanwhile, its fastest of the rounds much less."""
    runs = [one.theirs if name is None else one.ours[name] for one in found]
    return [min(times) for times in zip(*runs, strict=True)]


def quantile(samples: Sequence[int], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def timed(call: Callable, items: Sequence, clock: Callable[[], int] = time.thread_time_ns) -> list[int]:
    """Each call's time (ns; by default its CPU time on this thread), the garbage collector paused."""
    gc.disable()
    samples = []
    try:
        for item in items:
            start = clock()
            call(item)
            samples.append(clock() - start)
    finally:
        gc.enable()
    return samples


def interleaved(sets: dict[str, Sequence[dict]], theirs: Callable, their_items: Sequence, rounds: int) -> list[Round]:
    """`rounds` rounds of: each of our sets scored in full, then `theirs` over its items. One warm pass first (as a
    running server is warm); a collection before each round."""
    for requests in sets.values():
        timed(score, requests)
    timed(theirs, their_items)
    found = []
    for _ in range(rounds):
        gc.collect()
        ours = {name: timed(score, requests) for name, requests in sets.items()}
        found.append(Round(ours, timed(theirs, their_items)))
    return found
