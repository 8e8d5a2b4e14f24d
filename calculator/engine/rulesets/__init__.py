"""The registry of rulesets: one package per game (`bazhi/`, `xinyu/`), each a `Ruleset` (base.py) that declares
its game's facts as data (declarations.py) and carries its distance to ready and its deal. The rest of the program
loops over `RULESETS` instead of naming a game.

A deployment serves the games of `SERVED`, the one line a game is registered on; the test suite registers a
game of its own beside them with `register()` (the engine reads no Django settings).
"""

from __future__ import annotations

from importlib import import_module

from ..flags import SHARED_FLAGS, Flag
from .base import Distance, Ruleset

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


DISTANCE_FUNCTIONS = ("shanten", "blocked_by", "blocked_message", "discards", "nearest")


def missing(ruleset: Ruleset) -> list[str]:
    """What a game lacks of what every game needs, in words (empty: nothing)."""
    problems = []
    distance = getattr(ruleset, "distance", None)
    lacking = [name for name in DISTANCE_FUNCTIONS if not callable(getattr(distance, name, None))]
    if lacking:
        problems.append(f"its distance (`distance`, the game's shanten module) has no {', '.join(lacking)}")
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

__all__ = ["DEFAULT", "RULESETS", "SERVED", "Distance", "RegistrationError", "Ruleset", "every_flag", "register"]
