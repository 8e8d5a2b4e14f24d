"""Requests the way a table meets them: hands dealt by each game's own deal (`Ruleset.deal`, the learners' deal),
with melds, flags and every seat as winner, dealer and discarder; the engine says which are wins.

The sets are built from a seeded `random.Random`, so a seed gives the same requests as long as the deal and the
engine's verdicts do not change (the guard stores its requests for that reason). A game with a wild tile gets its
wins with a chosen number of them: the deal holds 0-3 more often than 4, so a dealt win short of the count has
natural concealed tiles turned into the wild tile (each standing in for the tile it replaced, as the deal itself
puts them in), and the engine checks the result again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from random import Random

from calculator.engine import score
from calculator.engine.deal import change_one
from calculator.engine.notation import format_tiles, parse_tiles
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import SEATS

MAX_WILD = 4  # four copies of a wild kind exist
SeatWay = tuple[str, str, str | None]  # (winner, dealer, discarder); None: a self-draw


@dataclass
class Dealt:
    """One game's dealt wins: each request with the number of wild tiles in its concealed part."""

    game: str
    requests: list[dict]
    wild: list[int]

    def with_wild(self, counts: Iterable[int]) -> list[dict]:
        """The requests holding one of these numbers of wild tiles."""
        wanted = set(counts)
        return [request for request, n in zip(self.requests, self.wild, strict=True) if n in wanted]


def seat_ways(seats: Sequence[str] = SEATS) -> list[SeatWay]:
    """Every (winner, dealer, discarder) of a table: 64 at four, 27 at three."""
    return [
        (winner, dealer, discarder)
        for winner in seats
        for dealer in seats
        for discarder in [None, *(seat for seat in seats if seat != winner)]
    ]


def seat_way(request: dict) -> SeatWay:
    return request["winner"], request["dealer"], request["discarder"]


def is_win(request: dict) -> bool:
    return score(request).get("win") is True


def wins_in_every_seat_way(game: str, each: int, rng: Random, seats: Sequence[str] = SEATS) -> list[dict]:
    """`each` dealt wins of `game` for every (winner, dealer, discarder) of a table of `seats` (the game's deal at
    that table), in the order dealt. A win is kept while its seat way still wants one."""
    wanted = dict.fromkeys(seat_ways(seats), each)
    found = []
    while any(wanted.values()):
        request = RULESETS[game].deal(rng, None, tuple(seats))
        way = seat_way(request)
        if wanted.get(way, 0) and is_win(request):
            wanted[way] -= 1
            found.append(request)
    return found


def dealt_wins(game: str, count: int, rng: Random, wild: Sequence[int] | None = None) -> Dealt:
    """`count` winning requests of `game` from its deal. With a wild tile, as many with each number of them in
    `wild` (by default 0 to 4), the rest with the first of them."""
    ruleset = RULESETS[game]
    if not has_wild(game, rng):
        requests = []
        while len(requests) < count:
            request = ruleset.deal(rng, None)
            if is_win(request):
                requests.append(request)
        return Dealt(game, requests, [0] * count)
    numbers = list(range(MAX_WILD + 1) if wild is None else wild)
    wanted = {n: count // len(numbers) for n in numbers}
    wanted[numbers[0]] += count - sum(wanted.values())
    found: dict[int, list[dict]] = {n: [] for n in numbers}
    while any(len(found[n]) < wanted[n] for n in numbers):
        request = ruleset.deal(rng, None)
        answer = score(request)
        if answer.get("win") is not True:
            continue
        tile = ruleset.wild_tile(answer)
        held = wild_held(request, tile)
        short = [n for n in numbers if n >= held and len(found[n]) < wanted[n]]
        if not short:
            continue
        target = rng.choice(short)
        topped = topped_up(request, tile, target - held, rng)
        if topped is not None and is_win(topped):
            found[target].append(topped)
    return Dealt(game, [r for n in numbers for r in found[n]], [n for n in numbers for _ in found[n]])


def has_wild(game: str, rng: Random) -> bool:
    """Whether the game's answers name a wild tile (asked of one dealt hand)."""
    while True:
        answer = score(RULESETS[game].deal(Random(rng.random()), None))
        if "error" not in answer:
            return RULESETS[game].wild_tile(answer) is not None


def wild_held(request: dict, wild: str) -> int:
    """Wild tiles in the concealed part, the winning tile included."""
    return [tile.notation for tile in parse_tiles(request["hand"] + request["win_tile"])].count(wild)


def topped_up(request: dict, wild: str, more: int, rng: Random) -> dict | None:
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


def waiting(request: dict) -> dict:
    """The 13-tile hand before the win: the question "what does it wait on?" (a waits request)."""
    body = dict(request)
    del body["win_tile"]
    return body


def near_misses(game: str, count: int, rng: Random) -> list[dict]:
    """`count` dealt requests with one concealed tile changed (`deal.change_one`) that are no win: what a learner
    asks about (the discard table and a nearest win)."""
    kinds = sorted(RULESETS[game].kinds)
    found = []
    while len(found) < count:
        request = change_one(RULESETS[game].deal(rng, None), rng, kinds)
        if score(request).get("win") is False:
            found.append(request)
    return found
