"""Random xinyu hands for learners (issue 13 §3): every legal win of RULES.md §2.2 (standard, 七对, 十三不搭,
4龙, 全风向), the 财神 turned up at random and standing in for some of the tiles, and shapes that make the 龙
bonuses come up (one suit, honours with one suit, all triplets, four melds). The trainer asks the engine what
each hand is."""

from __future__ import annotations

from random import Random

from ...deal import (
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
from ...tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS
from .declarations import ID, KINDS
from .wilds import caishen_after

# standard shapes (plain … four_melds), then the other wins of §2.2
SHAPES = {
    "plain": 29,
    "one_suit": 10,
    "honours": 10,
    "triplets": 8,
    "four_melds": 8,
    "qidui": 13,
    "shisanbuda": 10,
    "quanfeng": 7,
    "silong": 5,
}
STANDARD = ("plain", "one_suit", "honours", "triplets", "four_melds")
# the shape to deal when a pattern is favoured (the learner got it wrong)
FAVOURS = {
    "qingyise": "one_suit",
    "hunyise": "honours",
    "daduidui": "triplets",
    "dandiao": "four_melds",
    "qidui": "qidui",
    "qingqidui": "qidui",
    "shisanbuda": "shisanbuda",
    "qifengqi": "shisanbuda",
    "quanfeng": "quanfeng",
    "silong": "silong",
}
WILDS = (0, 1, 2, 3)
WILD_WEIGHTS = (35, 35, 20, 10)
MELDS = (0, 1, 2, 3)
MELD_WEIGHTS = (55, 25, 14, 6)
HONOURS = tuple(range(FIRST_HONOUR, NUM_KINDS))
SPREAD_RANKS = ((1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 4, 8), (1, 4, 9), (1, 5, 8), (1, 5, 9), (1, 6, 9), (2, 5, 9))

FLAGS: FlagChances = {
    True: (("kong_bloom", 0.08), ("last_tile", 0.05), ("pao_long", 0.04), ("heavenly", 0.04)),
    False: (("earthly", 0.05), ("liable_caishen", 0.05), ("robbing_kong", 0.02)),
}


def deal(rng: Random, favour: str | None, table: tuple[str, ...]) -> dict:
    """A request for a random xinyu hand at a table of `table`, won on one of its tiles, more often in a shape that
    makes the `favour` pattern."""
    indicator = rng.choice(ALL_TILES)
    caishen = caishen_after(indicator).index
    shape = shape_for(rng, SHAPES, FAVOURS, favour)
    dealt = None
    while dealt is None:
        dealt = _dealt(rng, shape, caishen)
    seats = Seats.random(rng, self_draw=1.0 if shape == "silong" else 0.35, table=table)
    given = {"indicator": indicator.notation} if rng.random() < 0.5 else {"caishen": ALL_TILES[caishen].notation}
    dealt.options = {**given, "dealer_streak": rng.choices((1, 2, 3), (80, 15, 5))[0]}
    return special_win(dealt.request(ID, rng, seats), rng, FLAGS)


def _dealt(rng: Random, shape: str, caishen: int) -> Dealt | None:
    wall = Wall(KINDS)
    wall.left[caishen] = 0  # natural tiles only: the 财神 are put in at the end
    if shape in STANDARD:
        dealt = _standard(rng, wall, shape)
    elif shape == "qidui":
        dealt = seven_pairs(rng, wall, KINDS)  # now and then all of one suit (清七对)
    elif shape == "shisanbuda":
        dealt = _spread(rng, caishen)
    elif shape == "quanfeng":
        dealt = Dealt(_any(rng, wall, [k for k in HONOURS if k != caishen], 14))
    else:
        return Dealt(_any(rng, wall, sorted(KINDS - {caishen}), 10) + [caishen] * 4)
    if dealt is None:
        return None
    return _with_wilds(rng, dealt, caishen, rng.choices(WILDS, WILD_WEIGHTS)[0])


def _standard(rng: Random, wall: Wall, style: str) -> Dealt | None:
    main = rng.randrange(3)
    if style == "one_suit":
        suits, honours = [main], []
    elif style == "honours":
        suits, honours = [main], list(HONOURS)
    else:
        suits, honours = [0, 1, 2], list(HONOURS)
    sets = []
    for _ in range(4):
        group = random_set(rng, wall, suits, honours, 1.0 if style == "triplets" else 0.3)
        if not group:
            return None
        sets.append(group)
    pair_kinds = [suited(s, r) for s in suits for r in range(1, 10)] + honours
    pair = random_pair(rng, wall, pair_kinds)
    if not pair:
        return None
    count = 4 if style == "four_melds" else rng.choices(MELDS, MELD_WEIGHTS)[0]
    melds = []
    for group in sets[:count]:
        if group[0] != group[1]:
            melds.append(("chow", group))
        else:
            melds.append(laid_down(rng, wall, group))
    return Dealt([k for group in sets[count:] for k in group] + list(pair), melds)


def _spread(rng: Random, caishen: int) -> Dealt | None:
    """十三不搭: fourteen different tiles, a suit's ranks at least 3 apart (sometimes all seven honours)."""
    honours = [k for k in HONOURS if k != caishen]
    count = len(honours) if rng.random() < 0.3 else rng.randint(5, len(honours))
    tiles = rng.sample(honours, count)
    for suit in rng.sample(range(3), 3):
        ranks = rng.choice(SPREAD_RANKS)
        tiles += [suited(suit, r) for r in ranks if suited(suit, r) != caishen]
    if len(tiles) < 14:
        return None
    return Dealt(rng.sample(tiles, 14))


def _any(rng: Random, wall: Wall, kinds: list[int], count: int) -> list[int]:
    """`count` tiles of these kinds from the wall, at random."""
    tiles = []
    while len(tiles) < count:
        kind = rng.choice(kinds)
        if wall.take((kind,)):
            tiles.append(kind)
    return tiles


def _with_wilds(rng: Random, dealt: Dealt, caishen: int, wilds: int) -> Dealt:
    """Some concealed tiles turned into 财神, each standing in for the tile it replaced."""
    places = rng.sample(range(len(dealt.concealed)), min(wilds, len(dealt.concealed)))
    for place in places:
        dealt.concealed[place] = caishen
    return dealt
