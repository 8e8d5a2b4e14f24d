"""Random tuidaohu hands for learners: a pair and four sets (now and then all of one suit, some laid down as
melds) or seven pairs, and a special win now and then. The trainer asks the engine what each hand is."""

from __future__ import annotations

from random import Random

from calculator.engine.deal import (
    Dealt,
    FlagChances,
    Seats,
    Wall,
    laid_down,
    random_pair,
    random_set,
    seven_pairs,
    shape_for,
    special_win,
    suited,
)
from calculator.engine.tiles import FIRST_HONOUR, NUM_KINDS

from .declarations import ID, KINDS

SHAPES = {"plain": 60, "one_suit": 20, "qidui": 20}
FAVOURS = {"qingyise": "one_suit", "qidui": "qidui"}  # the shape to deal when a pattern is favoured
MELDS = (0, 1, 2, 3)
MELD_WEIGHTS = (50, 25, 15, 10)
HONOURS = tuple(range(FIRST_HONOUR, NUM_KINDS))

FLAGS: FlagChances = {
    True: (("kong_bloom", 0.3), ("last_tile", 0.06)),
    False: (("kong_discard", 0.08),),
}


def deal(rng: Random, favour: str | None, table: tuple[str, ...]) -> dict:
    """A request for a random tuidaohu hand at a table of `table`, won on one of its tiles, more often in a shape
    that makes the `favour` pattern."""
    shape = shape_for(rng, SHAPES, FAVOURS, favour)
    dealt = None
    while dealt is None:
        wall = Wall(KINDS)
        dealt = seven_pairs(rng, wall, KINDS) if shape == "qidui" else _standard(rng, wall, shape)
    dealt.options = {"base": rng.choice((1, 2, 5))}
    return special_win(dealt.request(ID, rng, Seats.random(rng, table=table)), rng, FLAGS)


def _standard(rng: Random, wall: Wall, shape: str) -> Dealt | None:
    main = rng.randrange(3)
    suits, honours = ([main], []) if shape == "one_suit" else ([0, 1, 2], list(HONOURS))
    sets = []
    for _ in range(4):
        group = random_set(rng, wall, suits, honours, 0.3)
        if not group:
            return None
        sets.append(group)
    pair = random_pair(rng, wall, [suited(s, r) for s in suits for r in range(1, 10)] + honours)
    if not pair:
        return None
    count = rng.choices(MELDS, MELD_WEIGHTS)[0]
    melds = [("chow", group) if group[0] != group[1] else laid_down(rng, wall, group, 0.5) for group in sets[:count]]
    return Dealt([k for group in sets[count:] for k in group] + list(pair), melds)
