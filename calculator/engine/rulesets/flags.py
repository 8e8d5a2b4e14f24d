"""The flags both games share (API.md `flags`) and the conditions they have in common.

Each ruleset declares its own flags from these (`flag(...)`), adding the conditions of its game; the engine
checks a request's flags against them (`request.check_flags`), and the page greys a flag whose condition fails
with the condition's reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text import Text
from .declarations import Condition, Flag

SELF_DRAW = Condition("self_draw", Text("须自摸（无放铳）", "needs a self-draw (no discarder)"))
DISCARD = Condition("discard", Text("须有人放铳", "needs a discarder"))
ONE_KONG = Condition("kongs", Text("须有一个杠", "needs a kong among the melds"), 1)
TWO_KONGS = Condition("kongs", Text("须有两个杠", "needs two kongs among the melds"), 2)
WINNER_DEALER = Condition("winner_dealer", Text("只有庄家能胡", "only the dealer can win it"))
WINNER_NOT_DEALER = Condition("winner_not_dealer", Text("庄家不能胡", "the dealer cannot win it"))
NO_MELDS = Condition("no_melds", Text("须没有吃碰杠", "only with no melds"))
DISCARDER_DEALER = Condition("discarder_dealer", Text("须由庄家放铳", "the discarder must be the dealer"))
# RULES.md §4: the robbed player held the other three copies and adds the fourth, so the winner holds none.
ROBBED_TILE_NOT_HELD = Condition(
    "win_tile_not_held",
    Text(
        "胡牌者手里不能有被抢的这张牌（四张都在被抢杠者那里）", "the winner cannot hold another copy of the robbed tile"
    ),
)
NOT_LAST_TILE = Condition("without", Text("不能与海底捞月同时", "not together with the last tile"), "last_tile")
NOT_KONG_BLOOM = Condition(
    "without", Text("不能与杠后开花同时", "not together with a kong-replacement win"), "kong_bloom"
)
NOT_DOUBLE_KONG_BLOOM = Condition(
    "without", Text("不能与杠上杠后开花同时", "not together with a second kong-replacement win"), "double_kong_bloom"
)
NOT_EARTHLY = Condition("without", Text("不能与地胡同时", "not together with an earthly hand"), "earthly")
NOT_ROBBING = Condition("without", Text("不能与抢杠胡同时", "not together with robbing a kong"), "robbing_kong")
NOT_HEAVENLY = Condition("without", Text("不能与天胡同时", "not together with a heavenly hand"), "heavenly")
NOT_LIABLE = Condition("without", Text("不能与包牌同时", "not together with a liable discard"), "liable_caishen")
# RULES.md §4: 抛龙 passes an earlier self-drawn win, so the hand is no longer the dealt one (no 天胡).
NOT_PAO_LONG = Condition("without", Text("不能与抛龙同时", "not together with a passed self-draw"), "pao_long")

# The conditions a game's declarations.toml may add to a flag (`also = [...]`), by name.
NAMED_CONDITIONS = {
    "not_last_tile": NOT_LAST_TILE,
    "not_kong_bloom": NOT_KONG_BLOOM,
    "not_double_kong_bloom": NOT_DOUBLE_KONG_BLOOM,
    "not_earthly": NOT_EARTHLY,
    "not_robbing": NOT_ROBBING,
    "not_heavenly": NOT_HEAVENLY,
    "not_liable": NOT_LIABLE,
    "not_pao_long": NOT_PAO_LONG,
    "discarder_dealer": DISCARDER_DEALER,
}

LABELS = {
    "kong_bloom": Text("杠后开花", "Win on a kong replacement"),
    "double_kong_bloom": Text("杠上杠后开花", "Win on a second kong replacement"),
    "robbing_kong": Text("抢杠胡", "Robbing a kong"),
    "last_tile": Text("海底捞月", "Last tile of the wall"),
    "heavenly": Text("天胡", "Heavenly hand"),
    "earthly": Text("地胡", "Earthly hand"),
    "pao_long": Text("抛龙", "Passed self-draw (pao long)"),
    "liable_caishen": Text("包牌（喂财神）", "Liable discard (bao pai)"),
}

# What each flag needs in both games (API.md "Flag rules", RULES.md §4), in the order the engine checks them.
COMMON_CONDITIONS: dict[str, tuple[Condition, ...]] = {
    "kong_bloom": (SELF_DRAW, ONE_KONG),
    "double_kong_bloom": (SELF_DRAW, TWO_KONGS),
    "robbing_kong": (DISCARD, NOT_EARTHLY, ROBBED_TILE_NOT_HELD),
    "last_tile": (SELF_DRAW, NOT_HEAVENLY),
    "heavenly": (SELF_DRAW, WINNER_DEALER, NO_MELDS, NOT_LAST_TILE),
    "earthly": (DISCARD, WINNER_NOT_DEALER, NO_MELDS, NOT_ROBBING),
    "pao_long": (SELF_DRAW,),
    "liable_caishen": (DISCARD,),
}


def flag(flag_id: str, rule: str, *extra: Condition) -> Flag:
    """A flag with the conditions both games give it, then the game's own (`extra`)."""
    return Flag(flag_id, LABELS[flag_id], COMMON_CONDITIONS[flag_id] + extra, rule)


@dataclass(frozen=True, slots=True)
class Situation:
    """What the flag conditions ask about a win: the engine builds it from a request, the calculator page from its
    form (where the hand may still be incomplete: `win_tile_copies` is None when no winning tile is known)."""

    winner: str | None
    dealer: str | None
    discarder: str | None
    kongs: int
    melds: int
    flags: frozenset[str]
    win_tile_copies: int | None = None  # copies of the winning tile the winner holds, it included (melds too)


def holds(condition: Condition, situation: Situation) -> bool:
    """Whether one condition holds. Each asks one thing: a condition that depends on another (the discarder being
    the dealer needs a discarder) holds when that other thing is missing, and the other condition says so."""
    code = condition.code
    if code == "self_draw":
        return situation.discarder is None
    if code == "discard":
        return situation.discarder is not None
    if code == "kongs":
        return situation.kongs >= condition.arg
    if code == "winner_dealer":
        return situation.winner == situation.dealer
    if code == "winner_not_dealer":
        return situation.winner != situation.dealer
    if code == "no_melds":
        return situation.melds == 0
    if code == "discarder_dealer":
        return situation.discarder is None or situation.discarder == situation.dealer
    if code == "without":
        return condition.arg not in situation.flags
    if code == "win_tile_not_held":
        return situation.win_tile_copies is None or situation.win_tile_copies <= 1
    raise ValueError(f"unknown condition {code!r}")


def unmet(flag_: Flag, situation: Situation) -> list[Condition]:
    """The conditions of a flag that fail in this situation, in the declared order (empty: the flag can apply)."""
    return [condition for condition in flag_.conditions if not holds(condition, situation)]
