"""Reading one xinyu hand (RULES.md §2.2-2.3, house rules of §5.2): every legal reading worth telling apart
(shape × colour × all-triplets, and the shapeless wins) with the 龙 bonuses it gives, and the best of them."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from ...hand import ScoreRequest
from ...wildcards import ANY_COLOUR, Colour, seven_pairs_fit, shisanbuda_fit
from .declarations import BONUSES, LONG, SILONG_MORE_WITH_SHAPE
from .wilds import (
    Natural,
    Wilds,
    is_quanfeng,
    is_silong,
    long_fixed,
    long_from_tiles,
    natural_of_hand,
    plan_standard,
)

BONUS = {code: (code, long) for code, long in LONG.items()}  # each bonus as a reading lists it, with its 龙
PATTERN_RANK = {pattern.code: rank for rank, pattern in enumerate(BONUSES)}  # the order an answer lists them in
SUIT_BLOCKS = "mps"


@dataclass(frozen=True)
class ColourChoice:
    code: str | None  # None | "hunyise" | "qingyise" | "quanfeng"
    colour: Colour
    suit: str | None = None


def colour_choices(wilds: Wilds) -> tuple[ColourChoice, ...]:
    """The colour patterns the natural tiles and melds leave open; 财神 may supply a missing colour."""
    choices = COLOUR_CHOICES[wilds.present]
    return choices if wilds.count else tiles_colour(choices)


def tiles_colour(choices: tuple[ColourChoice, ...]) -> tuple[ColourChoice, ...]:
    """Without 财神 the tiles decide the colour: a colour pattern they make (混一色, 清一色, 全风向) is a fact of the
    hand, not a reading one may leave out (a reading chooses sets and what 财神 stand for). It matters where a
    pattern can lower the pay: under wulong=total a hand of 混一色 without 财神 is 1 龙, never a plain 2 (§5.2)."""
    made = tuple(choice for choice in choices if choice.code is not None and not any(choice.colour.required))
    return made or choices[:1]  # no colour: the plain one (every other would need a 财神 for a missing colour)


def _colour_choices(present: tuple[bool, bool, bool, bool]) -> tuple[ColourChoice, ...]:
    """`colour_choices` of the blocks that hold a natural or meld tile."""
    need = tuple(not p for p in present)
    choices = [ColourChoice(None, ANY_COLOUR)]
    suited = [b for b in range(3) if present[b]]
    if not suited:
        choices.append(ColourChoice("quanfeng", Colour((False, False, False, True), (False, False, False, need[3]))))
    for b in range(3):
        if any(s != b for s in suited):
            continue
        only = tuple(i == b for i in range(4))
        if not present[3]:
            choices.append(
                ColourChoice("qingyise", Colour(only, tuple(i == b and need[i] for i in range(4))), SUIT_BLOCKS[b])
            )
        hun_allowed = tuple(i in (b, 3) for i in range(4))
        hun_required = tuple(i in (b, 3) and need[i] for i in range(4))
        choices.append(ColourChoice("hunyise", Colour(hun_allowed, hun_required), SUIT_BLOCKS[b]))
    return tuple(choices)


# The colour choices of every way the four blocks can hold tiles (16), keyed on which of them hold a natural or
# meld tile: written once, at import.
COLOUR_CHOICES = {present: _colour_choices(present) for present in product((False, True), repeat=4)}


class Reading(NamedTuple):
    """One legal way to read the hand: its shape, colour and all-triplets choice, and the patterns they give.

    A NamedTuple (immutable, and cheap to build: a crowded hand has a dozen readings).
    """

    shape: str  # "standard" | "qidui" | "shisanbuda" | "none"
    colour: ColourChoice
    triplets: bool
    patterns: tuple[tuple[str, int], ...]
    bonus: int  # the patterns' 龙, summed once
    from_tiles: int  # L under this reading (无龙算2龙 may depend on its bonus: house rule wulong)
    plan: object = None  # the standard shape's plan (pair block and 财神 per block; groups when capped)

    @property
    def long(self) -> int:
        """龙 in all (§2.3): L and every bonus. The best reading is chosen on it."""
        return self.from_tiles + self.bonus


class Won(NamedTuple):
    """What an answer says of a win's tiles: its best reading's shape, bonuses and L, whether it is 全缴 (全风向 in
    a shape), and the 财神 it holds. A brief answer says nothing else of them: two wins that say the same, won the
    same way, have the same brief answer."""

    shape: str
    patterns: tuple[tuple[str, int], ...]
    long: int  # 龙 in all: L and every bonus
    from_tiles: int  # L
    quanjiao: bool
    caishen: str  # the 财神's notation
    caishen_count: int

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple([code for code, _ in self.patterns])


def won_of(reading: Reading, wilds: Wilds) -> Won:
    return Won(
        shape=reading.shape,
        patterns=reading.patterns,
        long=reading.long,
        from_tiles=reading.from_tiles,
        quanjiao=reading.colour.code == "quanfeng" and reading.shape != "none",
        caishen=wilds.caishen.notation,
        caishen_count=wilds.count,
    )


def flag_patterns(request: ScoreRequest) -> list[tuple[str, int]]:
    """The bonuses the user states as facts of the win."""
    if not request.flags:
        return []  # most wins state none
    found = []
    if request.has("heavenly"):
        found.append(BONUS["tianhu"])
    if request.has("earthly"):
        found.append(BONUS["dihu"])
    if request.has("kong_bloom") or request.has("double_kong_bloom"):
        found.append(BONUS["gangbao"])  # 杠上杠 is still one 杠爆
    if request.has("last_tile"):
        found.append(BONUS["haidi"])
    if request.has("pao_long"):
        found.append(BONUS["paolong"])
    return found


def is_qifengqi(request: ScoreRequest, wilds: Wilds) -> bool:
    """七风齐: all seven honours as natural tiles (so never when the 财神 is an honour: one copy is wild); under
    the house rule qifengqi_wild, 财神 may stand for the missing honours (still never when the 财神 is one)."""
    honours = wilds.blocks[3]
    if all(honours):
        return True
    if not request.options.house["qifengqi_wild"] or wilds.caishen.is_honour:
        return False
    return honours.count(0) <= wilds.count


def tile_patterns(
    request: ScoreRequest, wilds: Wilds, shape: str, choice: ColourChoice, triplets: bool
) -> list[tuple[str, int]]:
    """The bonuses a class of readings gives whoever wins it and however (every one but 4龙 and the flags')."""
    card = request.options.house
    found: list[tuple[str, int]] = []
    if shape == "qidui":
        # 清七对 replaces both 对对碰 and 清一色 [reading]; house rule qingqidui=with_qingyise adds 清一色 back
        found.append(BONUS["qingqidui"] if choice.code == "qingyise" else BONUS["qidui"])
    if shape == "shisanbuda":
        found.append(BONUS["shisanbuda"])
        if is_qifengqi(request, wilds):
            found.append(BONUS["qifengqi"])
    if choice.code == "hunyise":
        found.append(BONUS["hunyise"])
    if triplets:
        found.append(BONUS["daduidui"])
    if choice.code == "qingyise" and (shape != "qidui" or card["qingqidui"] == "with_qingyise"):
        found.append(BONUS["qingyise"])
    if shape == "standard" and len(request.melds) == 4:
        found.append(BONUS["dandiao"])  # four melds: the one concealed tile is paired by the win [reading]
    if choice.code == "quanfeng":
        found.append(BONUS["quanfeng"])
    return found


def way_patterns(
    request: ScoreRequest, wilds: Wilds, shaped: bool, flags: list[tuple[str, int]]
) -> list[tuple[str, int]]:
    """The bonuses this way of winning adds to a class of readings with a legal shape (`shaped`) or to a shapeless
    one: 4龙 (a self-draw, or a discard under a house rule) and the stated facts (`flags`, the request's
    `flag_patterns`)."""
    if scores_silong(request, wilds, shaped):
        # one silong entry: its 龙, and more on top when the hand is also a legal shape (RULES.md §2.3)
        return [("silong", LONG["silong"] + (SILONG_MORE_WITH_SHAPE if shaped else 0)), *flags]
    return flags


def scores_silong(request: ScoreRequest, wilds: Wilds, shaped: bool) -> bool:
    """The 4龙 entry (§2.2 item 4, §2.3): four 财神 won by self-draw; won by discard only with a legal shape
    (`shaped`), and only under the house rule silong_discard=with_shape (§5.2). Shapeless, 4龙 stays a self-draw
    win (`is_silong`)."""
    if wilds.count != 4:
        return False
    if request.discarder is None:
        return True
    return shaped and request.options.house["silong_discard"] == "with_shape"


def _listed_rank(pattern: tuple[str, int]) -> int:
    return PATTERN_RANK[pattern[0]]


def _colour_supplied(wilds: Wilds, choice: ColourChoice) -> bool:
    """A shapeless reading of a colour: the 财神 stand for the colours it needs that the hand lacks."""
    return sum(choice.colour.required) <= wilds.count


class Shape(NamedTuple):
    """A class of readings of a hand's tiles (shape × colour × all-triplets) that the tiles allow, whoever wins
    them and however: the same for a self-draw and a discard of one hand (only 4龙 tells them apart), and so are
    the bonuses it gives (`tile_patterns`): a way of winning adds its own (`way_patterns`)."""

    shape: str  # "standard" | "qidui" | "shisanbuda" | "none" (全风向, a shapeless 4龙)
    colour: ColourChoice
    triplets: bool
    patterns: tuple[tuple[str, int], ...]  # `tile_patterns`, as they are found
    bonus: int  # their 龙, summed once
    plan: object = None  # the standard shape's plan


def shape_of(
    request: ScoreRequest, wilds: Wilds, shape: str, choice: ColourChoice, triplets: bool, plan: object = None
) -> Shape:
    """The class with the bonuses its tiles give."""
    patterns = tile_patterns(request, wilds, shape, choice, triplets)
    return Shape(
        shape=shape,
        colour=choice,
        triplets=triplets,
        patterns=tuple(patterns),
        bonus=sum([value for _, value in patterns]),
        plan=plan,
    )


class Classes:
    """The shape classes of one kind (with a legal shape, or shapeless) that a hand keeps as they are found. A way
    of winning adds the same bonuses to every class of a kind (`way_patterns`), so where L does not depend on the
    bonuses (`long_fixed`) the classes of a kind rank alike in every way: then only the first of those that pay
    most can be the best, and only it is kept; otherwise every class is."""

    __slots__ = ("best_only", "found", "request", "wilds")

    def __init__(self, request: ScoreRequest, wilds: Wilds, best_only: bool) -> None:
        self.request, self.wilds, self.best_only = request, wilds, best_only
        self.found: list[Shape] = []

    def add(self, shape: str, choice: ColourChoice, triplets: bool, plan: object = None) -> None:
        """Keep the class (its plan, for the standard shape) unless one kept before pays as much or more."""
        found = shape_of(self.request, self.wilds, shape, choice, triplets, plan)
        if self.best_only and self.found:
            kept = self.found[0]
            if (found.bonus, len(found.patterns)) <= (kept.bonus, len(kept.patterns)):
                return
            self.found.clear()
        self.found.append(found)


def shapes(request: ScoreRequest, wilds: Wilds, natural: Natural | None = None) -> list[Shape]:
    """The shape classes the tiles allow that can be the best: standard (per colour, with or without sequences:
    without, where it pays more), 七对, 十三不搭 (no melds), and 全风向; of those with a shape, only the first that
    pays most where L is fixed (`Classes`). Decompositions and 财神 assignments inside one of these classes pay the
    same, so the tables are asked whether each class is reachable instead of enumerating the assignments
    themselves.
    `natural`: the hand's `natural_of`, when the caller has it (a wait's, from its waiting hand: `won_on`)."""
    classes = Classes(request, wilds, best_only=long_fixed(wilds.count, request.options.house["wulong"]))
    choices = colour_choices(wilds)
    no_chow = all(m.type != "chow" for m in request.melds)
    if natural is None:
        natural = natural_of_hand(request, wilds)
    plain = plan_standard(wilds, natural=natural)  # in no colour, with sequences: none, and no colour has one
    # blocks that need as many 财神 without sequences as with them (honours, suits no sequence helps: the slowest
    # waits are such hands) have one plan both ways, unless the card caps the copies (a plan of the groups)
    same_plan = no_chow and wilds.room is None and natural.triplets_only == natural.with_sequences
    if plain is not None:
        for choice in choices:
            plan = plain if choice.colour == ANY_COLOUR else plan_standard(wilds, choice.colour, True, natural)
            if plan is None:
                continue  # nor without sequences: a block read without them needs as many 财神 or more
            triplets_plan = None
            if no_chow:
                triplets_plan = plan if same_plan else plan_standard(wilds, choice.colour, False, natural)
            # a colour's all-triplets class has every pattern of its class with sequences and 大对对 on top: where L
            # is fixed it pays more, and the class with sequences is not worth its bonuses
            if triplets_plan is None or not classes.best_only:
                classes.add("standard", choice, False, plan)
            if triplets_plan is not None:
                classes.add("standard", choice, True, triplets_plan)
    if not request.melds:
        for choice in choices:
            if seven_pairs_fit(natural.odd, natural.empty, wilds.count, choice.colour):
                classes.add("qidui", choice, False)
        for choice in choices:
            if shisanbuda_fit(natural.spread, natural.empty, wilds.count, choice.colour):
                classes.add("shisanbuda", choice, False)
    found = classes.found
    if is_quanfeng(wilds):
        quanfeng = next(c for c in choices if c.code == "quanfeng")
        found.append(shape_of(request, wilds, "none", quanfeng, False))
    return found


def shapeless_silong(request: ScoreRequest, wilds: Wilds) -> list[Shape]:
    """The shapeless 4龙 of a self-draw (four 财神: a win whatever the other tiles), in the colour the 财神 can
    supply that pays most (L is 4: `Classes`); none for a hand of honours (全风向 is its shapeless class) or a
    discard."""
    if is_quanfeng(wilds) or not is_silong(request, wilds):
        return []
    # house rule shapeless_colours (default true): 混一色 / 清一色 read on the tiles of a shapeless 4龙 too
    choices = colour_choices(wilds)
    classes = Classes(request, wilds, best_only=True)
    for choice in choices if request.options.house["shapeless_colours"] else choices[:1]:
        if _colour_supplied(wilds, choice):
            classes.add("none", choice, False)
    return classes.found


def reading_of(request: ScoreRequest, wilds: Wilds, shape: Shape, flags: list[tuple[str, int]]) -> Reading:
    """The reading of one class won this way: the class's bonuses and the way's (`flags`: the request's
    `flag_patterns`, worked out once for all its readings), in the order an answer lists them."""
    added = way_patterns(request, wilds, shape.shape != "none", flags)
    bonus = shape.bonus + sum([value for _, value in added])
    return Reading(
        shape=shape.shape,
        colour=shape.colour,
        triplets=shape.triplets,
        patterns=tuple(sorted([*shape.patterns, *added], key=_listed_rank)),
        bonus=bonus,
        from_tiles=long_from_tiles(wilds.count, bonus, request.options.house["wulong"]),
        plan=shape.plan,
    )


def best_reading(request: ScoreRequest, wilds: Wilds, allowed: list[Shape] | None = None) -> Reading | None:
    """The reading that pays most of every legal one worth telling apart, or None when there is none: the shape
    classes the tiles allow (`allowed`, when the caller has them: `shapes`) with the bonuses this win adds to
    each, and the shapeless 4龙 of a self-draw. The most 龙, L included (P and so every payment grows with it;
    under wulong=total L depends on the reading); ties go to more patterns, then the first found. The classes
    are compared on their numbers: only the chosen one is read in full (`reading_of`)."""
    if allowed is None:
        allowed = shapes(request, wilds)
    flags = flag_patterns(request)
    wulong = request.options.house["wulong"]
    # what the way adds is the same for every class with a legal shape, and for every shapeless one
    shaped = way_patterns(request, wilds, True, flags)
    shapeless = way_patterns(request, wilds, False, flags)
    shaped_more, shapeless_more = sum([value for _, value in shaped]), sum([value for _, value in shapeless])
    best, most = None, None
    for shape in allowed + shapeless_silong(request, wilds):
        added, more = (shapeless, shapeless_more) if shape.shape == "none" else (shaped, shaped_more)
        bonus = shape.bonus + more
        worth = (long_from_tiles(wilds.count, bonus, wulong) + bonus, len(shape.patterns) + len(added))
        if most is None or worth > most:
            best, most = shape, worth
    return None if best is None else reading_of(request, wilds, best, flags)


def best_readings(requests: list[ScoreRequest], wilds: Wilds, allowed: list[Shape]) -> list[Reading | None]:
    """`best_reading` of one hand won on one tile in each of several ways (a self-draw, a discard). A way adds to
    the shape classes only 4龙 (four 财神) and its flags' bonuses: without four 财神, a way whose flags give the
    bonuses the way before it got reads the hand as that way does, and is not read again."""
    found: list[Reading | None] = []
    for n, request in enumerate(requests):
        if n and wilds.count != 4 and flag_patterns(request) == flag_patterns(requests[n - 1]):
            found.append(found[-1])
        else:
            found.append(best_reading(request, wilds, allowed))
    return found
