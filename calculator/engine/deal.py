"""Random hands for learners (issue 13 §3): what dealing shares between the games.

Each game deals hands from its own shapes (`rulesets/<game>/deal.py`, each ruleset's `deal`); here are the
pieces they share: a `Wall` that never gives a fifth copy of a kind, sets and pairs drawn from it, the seats of a
win, and the request (API.md) a dealt hand becomes. A dealt hand is meant to be a win, but nothing here decides
that: the trainer asks the engine what every hand is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random

from .notation import format_tiles, parse_tiles
from .seats import PLAYERS, SEATS, previous_seat
from .tiles import ALL_TILES, NUM_KINDS

COPIES = 4
FAVOURED = 0.5  # the share of deals made in the shape of a favoured pattern
KONGS = ("kong_exposed", "kong_added", "kong_concealed")


class Wall:
    """The tiles of one game still to deal: at most four copies of each of its kinds."""

    def __init__(self, kinds: Iterable[int]) -> None:
        self.kinds = tuple(sorted(kinds))
        self.left = [COPIES if k in self.kinds else 0 for k in range(NUM_KINDS)]

    def has(self, tiles: Sequence[int]) -> bool:
        return all(self.left[k] >= tiles.count(k) for k in set(tiles))

    def take(self, tiles: Sequence[int]) -> bool:
        """Take these tiles if they are all there (True), else take nothing (False)."""
        if not self.has(tiles):
            return False
        for k in tiles:
            self.left[k] -= 1
        return True

    def give_back(self, tiles: Sequence[int]) -> None:
        for k in tiles:
            self.left[k] += 1


def shape_for(rng: Random, weights: Mapping[str, int], favours: Mapping[str, str], favour: str | None) -> str:
    """A shape drawn by its weight; half the time, the shape that makes the favoured pattern (a pattern code of
    the game) when the game names one for it."""
    if favour in favours and rng.random() < FAVOURED:
        return favours[favour]
    return rng.choices(list(weights), list(weights.values()))[0]


def sequence(first: int) -> tuple[int, int, int]:
    return (first, first + 1, first + 2)


def suited(suit: int, rank: int) -> int:
    """The kind of rank 1-9 in suit 0-2 (万 筒 条)."""
    return suit * 9 + rank - 1


def random_set(rng: Random, wall: Wall, suits: Sequence[int], honours: Sequence[int], triplets: float) -> tuple:
    """A sequence or a triplet from the wall: in one of `suits`, or a triplet of one of `honours` (the honour
    kinds that may be used); `triplets` is the chance of a triplet. Empty when the wall has none after 50 tries."""
    for _ in range(50):
        pool = [("s", s) for s in suits] + [("h", h) for h in honours]
        where, which = rng.choice(pool)
        if where == "h":
            group: tuple = (which,) * 3
        elif rng.random() < triplets:
            group = (suited(which, rng.randint(1, 9)),) * 3
        else:
            group = sequence(suited(which, rng.randint(1, 7)))
        if wall.take(group):
            return group
    return ()


def random_pair(rng: Random, wall: Wall, kinds: Sequence[int]) -> tuple:
    for _ in range(50):
        kind = rng.choice(kinds)
        if wall.take((kind, kind)):
            return (kind, kind)
    return ()


@dataclass
class Seats:
    """Who won, who deals, who discarded (None: a self-draw), at a table of `table` (its seats: four by default)."""

    winner: str
    dealer: str
    discarder: str | None
    table: tuple[str, ...] = SEATS

    @classmethod
    def random(cls, rng: Random, self_draw: float = 0.35, table: tuple[str, ...] = SEATS) -> Seats:
        winner = rng.choice(table)
        discarder = None if rng.random() < self_draw else rng.choice([s for s in table if s != winner])
        return cls(winner, rng.choice(table), discarder, table)

    def feeder(self, rng: Random) -> str:
        """A seat that may have fed an exposed meld: anyone but the winner."""
        return rng.choice([s for s in self.table if s != self.winner])


@dataclass
class Dealt:
    """A hand as groups of kinds: the concealed groups (a pair and sets, or any tiles) and the melds as (type,
    kinds); the `options` of the request."""

    concealed: list[int]
    melds: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    options: dict = field(default_factory=dict)

    def request(self, ruleset: str, rng: Random, seats: Seats) -> dict:
        """The request (API.md) of this hand won on one of its concealed tiles, chosen at random, at the table of
        `seats` (its option `players`)."""
        concealed = list(self.concealed)
        win = concealed.pop(rng.randrange(len(concealed)))
        melds = []
        for kind, tiles in self.melds:
            meld = {"type": kind, "tiles": notation(tiles)}
            if kind == "chow":
                meld["from"] = previous_seat(seats.winner, seats.table)
            elif kind != "kong_concealed":
                meld["from"] = seats.feeder(rng)
            melds.append(meld)
        return {
            "ruleset": ruleset,
            "options": {**self.options, PLAYERS: len(seats.table)},
            "hand": notation(concealed),
            "win_tile": ALL_TILES[win].notation,
            "melds": melds,
            "winner": seats.winner,
            "dealer": seats.dealer,
            "discarder": seats.discarder,
            "flags": [],
        }


# A game's special wins for dealing: (flag, chance) pairs, tried in order, for a self-draw (True) and a discard.
FlagChances = dict[bool, tuple[tuple[str, float], ...]]


def special_win(request: dict, rng: Random, chances: FlagChances) -> dict:
    """The request with one of the game's special wins now and then, if the engine accepts it for this hand (its
    flag rules decide, as for any request)."""
    from .score import score  # the engine scores hands with the rulesets, which deal with this module

    roll = rng.random()
    for flag, chance in chances[request["discarder"] is None]:
        if roll < chance:
            flagged = {**request, "flags": [flag]}
            return flagged if "error" not in score(flagged) else request
        roll -= chance
    return request


def notation(kinds: Iterable[int]) -> str:
    return format_tiles(sorted(ALL_TILES[k] for k in kinds))


def kinds_of(text: str) -> list[int]:
    return [t.index for t in parse_tiles(text)]


def held(request: dict) -> list[int]:
    """Copies per kind in the request: concealed, win tile and melds."""
    counts = [0] * NUM_KINDS
    text = request["hand"] + request.get("win_tile", "") + "".join(m["tiles"] for m in request["melds"])
    for k in kinds_of(text):
        counts[k] += 1
    return counts


def change_one(request: dict, rng: Random, kinds: Sequence[int]) -> dict:
    """The same request with one concealed tile (the win tile included) changed into another kind of the game
    that still has a copy left: a near miss, or now and then another win (the engine says which)."""
    counts = held(request)
    hand = kinds_of(request["hand"])
    places = len(hand) + (1 if request.get("win_tile") else 0)
    place = rng.randrange(places)
    old = hand[place] if place < len(hand) else kinds_of(request["win_tile"])[0]
    new = rng.choice([k for k in kinds if k != old and counts[k] < COPIES])
    changed = dict(request)
    if place < len(hand):
        hand[place] = new
        changed["hand"] = notation(hand)
    else:
        changed["win_tile"] = ALL_TILES[new].notation
    return changed


def seven_pairs(rng: Random, wall: Wall, kinds: Sequence[int]) -> Dealt | None:
    """七对: seven pairs of `kinds` from the wall, a quarter of the time all of one suit (None: the wall ran out)."""
    main = rng.randrange(3)
    pool = [suited(main, r) for r in range(1, 10)] if rng.random() < 0.25 else sorted(kinds)
    tiles: list[int] = []
    for _ in range(7):
        pair = random_pair(rng, wall, pool)
        if not pair:
            return None
        tiles += pair
    return Dealt(tiles)


def kong(rng: Random, triplet: tuple) -> tuple[str, tuple[int, ...]]:
    """A triplet laid down as a kong of any kind (its fourth copy already taken from the wall)."""
    return rng.choice(KONGS), triplet + triplet[:1]


def laid_down(rng: Random, wall: Wall, triplet: tuple, kongs: float = 0.3) -> tuple[str, tuple[int, ...]]:
    """A triplet laid down: a kong now and then, when the wall has its fourth copy; else a pung."""
    if rng.random() < kongs and wall.take(triplet[:1]):
        return kong(rng, triplet)
    return "pung", triplet
