"""Random bazhi hands for learners (issue 13 §3): one pair and four sets of the 112 tiles, drawn in shapes that
make the game's patterns come up (one suit, all triplets, 通天, 四核, two kongs) and in shapes that often miss
八支 (the sets spread over the suits). The trainer asks the engine what each hand is."""

from __future__ import annotations

from random import Random

from ...deal import (
    Dealt,
    FlagChances,
    Seats,
    Wall,
    kong,
    laid_down,
    random_pair,
    random_set,
    sequence,
    shape_for,
    special_win,
    suited,
)
from ...tiles import RED_DRAGON
from .declarations import ID, KINDS

SHAPES = {"plain": 30, "spread": 18, "one_suit": 14, "triplets": 12, "straight": 8, "sihe": 8, "two_kongs": 5}
# the shape to deal when a pattern is favoured (the learner got it wrong)
FAVOURS = {
    "bazhi": "spread",
    "qingyise": "one_suit",
    "hunyise": "one_suit",
    "hunyise_zimo": "one_suit",
    "duidui": "triplets",
    "tongtian": "straight",
    "sihe": "sihe",
    "shuangsihe": "sihe",
    "shuangbazhi": "two_kongs",
}
MELDS = (0, 1, 2, 3, 4)
MELD_WEIGHTS = (50, 22, 16, 8, 4)

FLAGS: FlagChances = {
    True: (("kong_bloom", 0.1), ("double_kong_bloom", 0.03), ("last_tile", 0.06), ("heavenly", 0.04)),
    False: (("earthly", 0.04), ("robbing_kong", 0.03)),
}


def deal(rng: Random, favour: str | None, table: tuple[str, ...]) -> dict:
    """A request for a random bazhi hand at a table of `table`, won on one of its tiles (a legal shape; 八支 as it
    falls), more often in a shape that makes the `favour` pattern."""
    shape = shape_for(rng, SHAPES, FAVOURS, favour)
    dealt = None
    while dealt is None:
        dealt = _dealt(rng, shape)
    seats = Seats.random(rng, table=table)
    dealt.options = {"tariff": rng.choice(("315", "315", "525"))}
    return special_win(dealt.request(ID, rng, seats), rng, FLAGS)


def _dealt(rng: Random, shape: str) -> Dealt | None:
    wall = Wall(KINDS)
    main = rng.randrange(3)
    others = [s for s in range(3) if s != main]
    fixed: list[tuple] = []
    kongs: list[tuple] = []
    if shape == "straight":
        fixed = [sequence(suited(main, r)) for r in (1, 4, 7)]
    elif shape == "sihe":
        kind = suited(main, rng.randint(3, 7))
        fixed = [(kind,) * 3, sequence(kind - rng.randint(0, 2))]
    elif shape == "two_kongs":
        other = rng.choice(others)
        first, second = rng.sample(range(1, 10), 2)
        kongs = [(suited(other, first),) * 3, (suited(other, second),) * 3]
    for group in fixed + [k + k[:1] for k in kongs]:
        if not wall.take(group):
            return None
    plan, honours, triplets = _mix(rng, shape, main, others)
    sets = list(fixed)
    while len(sets) + len(kongs) < 4:
        group = random_set(rng, wall, plan[len(sets) + len(kongs)], honours, triplets)
        if not group:
            return None
        sets.append(group)
    pair_suits = others if shape == "spread" else [main]
    pair_kinds = [suited(s, r) for s in pair_suits for r in range(1, 10)] + ([RED_DRAGON] if honours else [])
    pair = random_pair(rng, wall, pair_kinds)
    if not pair:
        return None
    return _laid_down(rng, wall, sets, pair, kongs)


def _mix(rng: Random, shape: str, main: int, others: list[int]) -> tuple[list[list[int]], list[int], float]:
    """The suits each of the four sets may take, the honours allowed, the chance of a triplet. "spread" puts two
    sets in the main suit and one in each other one, the pair outside the main suit: no suit reaches 8 (a kong
    makes 7), a complete shape that is no win."""
    if shape == "one_suit":
        return [[main]] * 4, [RED_DRAGON] if rng.random() < 0.5 else [], 0.25
    if shape == "spread":
        plan = [[main], [main], others[:1], others[1:]]
        rng.shuffle(plan)
        return plan, [RED_DRAGON] if rng.random() < 0.2 else [], 0.25
    honours = [RED_DRAGON] if rng.random() < 0.15 else []
    mix = [[main], [main], [main], others]
    return [rng.choice(mix) for _ in range(4)], honours, 1.0 if shape == "triplets" else 0.25


def _laid_down(rng: Random, wall: Wall, sets: list[tuple], pair: tuple, kongs: list[tuple]) -> Dealt:
    """Some triplets of `sets` laid down as melds (no chow in bazhi), and `kongs` as kongs."""
    melds = [kong(rng, group) for group in kongs]
    rest = list(sets)
    triplets = [group for group in rest if group[0] == group[1]]
    count = min(rng.choices(MELDS, MELD_WEIGHTS)[0], len(triplets))
    for group in rng.sample(triplets, count):
        rest.remove(group)
        melds.append(laid_down(rng, wall, group))
    concealed = [k for group in rest for k in group] + list(pair)
    return Dealt(concealed, melds)
