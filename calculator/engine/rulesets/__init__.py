"""The registry of rulesets: one package per game (`bazhi/`, `xinyu/`), each a `Ruleset` (base.py) that declares
its game's facts as data (declarations.py) and carries its distance to ready and its deal. The rest of the program
loops over `RULESETS` instead of naming a game.

A deployment serves the games of `SERVED`, the one line a game is registered on; the test suite registers a
game of its own beside them with `register()` (the engine reads no Django settings).
"""

from __future__ import annotations

from importlib import import_module

from ..flags import SHARED_FLAGS, Flag
from ..seats import table_sizes
from .base import PLAYERS, Distance, Ruleset
from .declarations import AFTER_DRAW

RULESETS: dict[str, Ruleset] = {}  # every registered game by its id, in the order registered


class RegistrationError(ValueError):
    """A game the registry refuses: the message names the game and what it lacks."""


def register(ruleset: Ruleset) -> Ruleset:
    """Add a game to the registry (again: nothing changes), after checking that it has what the engine, the
    trainer and the ledger ask of every game; a `RegistrationError` says what is missing."""
    taken = RULESETS.get(ruleset.id)
    if taken is ruleset:
        return ruleset
    if taken is not None:
        raise RegistrationError(f"{ruleset.id}: another game is registered under this id")
    problems = missing(ruleset)
    if problems:
        raise RegistrationError(f"{ruleset.id}: " + "; ".join(problems))
    RULESETS[ruleset.id] = ruleset
    return ruleset


DISTANCE_FUNCTIONS = ("shanten", "blocked_by", "blocked_message", "discards", "draws", "nearest")


def missing(ruleset: Ruleset) -> list[str]:
    """What a game lacks of what every game needs, in words (empty: nothing)."""
    problems = []
    distance = getattr(ruleset, "distance", None)
    lacking = [name for name in DISTANCE_FUNCTIONS if not callable(getattr(distance, name, None))]
    if lacking:
        problems.append(f"its distance (`distance`, the game's shanten module) has no {', '.join(lacking)}")
    return problems + players_missing(ruleset) + table_missing(ruleset) + claims_missing(ruleset)


def players_missing(ruleset: Ruleset) -> list[str]:
    """What the seats need (docs/seats.md): an option `players`, a choice of the table sizes the game plays (whole
    numbers a table can seat, the default first), a table's option rather than a hand's."""
    option = ruleset.players_option
    sizes = table_sizes()
    if option is None:
        return [f"it declares no option {PLAYERS!r} (the table sizes it plays: a choice of {sizes})"]
    values = [choice.value for choice in option.choices]
    if option.kind != "choice" or not values or any(type(v) is not int or v not in sizes for v in values):
        return [f"its option {PLAYERS!r} is not a choice of table sizes among {sizes}"]
    if option.default != values[0]:
        return [f"its option {PLAYERS!r} does not default to its first choice"]
    if option.per_hand:
        return [f"its option {PLAYERS!r} is a table's, not a hand's (per_hand)"]
    return []


def claims_missing(ruleset: Ruleset) -> list[str]:
    """What `/api/priority` needs of a game's `[claims]` that it lacks: the declaration, its reasons, and levels
    that name the game's own patterns."""
    claims = ruleset.declared.claims
    if claims is None:
        return ["no [claims] (how several claims on one discard are settled: rule, ordinary, levels, reasons)"]
    problems = claims.missing()
    for level in claims.levels:
        unknown = [code for code in level.patterns if code not in ruleset.pattern_by_code]
        if unknown:
            problems.append(f"[claims] level {level.level} names {', '.join(unknown)}, which the game does not declare")
    return problems


def table_missing(ruleset: Ruleset) -> list[str]:
    """What the ledger needs of a game's `[table]` that it lacks: what a drawn hand does to the deal, and the
    option its streak fills."""
    declared = ruleset.table.declared
    problems = []
    after = declared.after_draw
    values = f'"{AFTER_DRAW[0]}" or "{AFTER_DRAW[1]}"'
    if after is None:
        problems.append(
            f"[table] has no after_draw (what a drawn hand does to the deal: {values}, or"
            ' { house = "<rule>" }: a house rule such as draw_dealer)'
        )
    elif after.house is not None:
        rule = ruleset.house_by_id.get(after.house)
        if rule is None:
            problems.append(f"[table] after_draw names the house rule {after.house!r}, which the game does not declare")
        elif sorted(str(choice.value) for choice in rule.choices) != sorted(AFTER_DRAW):
            problems.append(f"the house rule {after.house!r} of [table] after_draw has values other than {values}")
    elif after.fixed not in AFTER_DRAW:
        problems.append(f"[table] after_draw is {after.fixed!r}, not {values}")
    streak = declared.streak_option
    if streak is not None and not any(o.id == streak and o.kind == "int" for o in ruleset.options):
        problems.append(f"[table] streak_option names {streak!r}, which is no whole-number option of the game")
    return problems


def every_flag() -> dict[str, tuple[Flag, tuple[str, ...]]]:
    """Every flag some registered game declares, with the games that declare it: {id: (the flag as the first of
    them declares it, their ids)}. The shared flags come first, in flags.toml's order, then each game's own in
    the order it declares them."""
    games: dict[str, list[Ruleset]] = {flag_id: [] for flag_id in SHARED_FLAGS}
    for ruleset in RULESETS.values():
        for flag in ruleset.flags:
            games.setdefault(flag.id, []).append(ruleset)
    return {
        flag_id: (found[0].flag_by_id[flag_id], tuple(r.id for r in found)) for flag_id, found in games.items() if found
    }


def serve(*packages: str) -> tuple[str, ...]:
    """Register the `RULESET` of each package of this folder, in order: the games a deployment serves."""
    return tuple(register(import_module(f".{name}", __name__).RULESET).id for name in packages)


SERVED: tuple[str, ...] = serve("bazhi", "xinyu")  # a new game is one more name here
DEFAULT = SERVED[0]  # the first game is the page's and the form's default
CLAIMS_DEFAULT = "xinyu"  # API.md: /api/priority's game when neither the body nor a claim names one (its first)

__all__ = [
    "CLAIMS_DEFAULT",
    "DEFAULT",
    "RULESETS",
    "SERVED",
    "Distance",
    "RegistrationError",
    "Ruleset",
    "every_flag",
    "register",
]
