"""The flags of a win (API.md `flags`) and the conditions under which each can apply, as declared data.

The flags games share and the conditions they are built from are declared in flags.toml beside this module; a
game's declarations.toml lists the flags it uses, adds conditions of its own, and may declare flags of its own
(`read_flags`). A condition is one question about the win (`Situation`) in a small vocabulary of tests; `holds`
answers it, for the engine (request.check_flags) and the calculator page's form, and calculator.js answers the
same data with the same tests (it is fed the declarations through the page, and keeps no rule of its own).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .text import Text

# What a condition can ask about, each a field of `Situation`: the seats (None: no discarder), numbers of the
# melds, the other flags set, the copies of the winning tile the winner holds (None: no winning tile yet), the
# wild tiles in the winner's concealed part (None: the game has none, or it is not chosen yet) and whether the
# winning tile is of the wild kind (1 or 0; None: either is not known yet).
SEAT_FACTS = ("winner", "dealer", "discarder")
COUNT_FACTS = ("kongs", "melds", "win_tile_copies", "wild_copies", "win_tile_wild")
FACTS = (*SEAT_FACTS, *COUNT_FACTS, "flags")

# is / not: the fact is absent (value None) or equals another fact (value its name); min / max: a count's bound;
# lacks: the flags set do not include one.
Test = Literal["is", "not", "min", "max", "lacks"]


@dataclass(frozen=True, slots=True)
class Condition:
    """When a flag can apply: `fact` passes `test` against `value`; `reason` says why not (shown on a greyed flag
    and in the engine's error)."""

    fact: str
    test: Test
    value: str | int | None
    reason: Text

    def to_dict(self) -> dict:
        return {"fact": self.fact, "test": self.test, "value": self.value, "reason": self.reason.to_dict()}


@dataclass(frozen=True, slots=True)
class Flag:
    """A fact of the win the user states (API.md `flags`), with every condition it needs, in the order checked."""

    id: str
    label: Text
    conditions: tuple[Condition, ...]
    rule: str  # the section of RULES.md

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "label": self.label.to_dict(),
            "conditions": [condition.to_dict() for condition in self.conditions],
            "rule": self.rule,
        }


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
    wild_copies: int | None = None  # the game's wild tile (xinyu's 财神) in the concealed part, win tile included
    win_tile_wild: int | None = None  # 1: the winning tile is of the wild kind; 0: it is not


def holds(condition: Condition, situation: Situation) -> bool:
    """Whether one condition holds. A comparison with something the situation does not have (no discarder, no
    winning tile) holds: each condition asks one thing, and the one that asks for the missing thing says so."""
    actual = getattr(situation, condition.fact)
    test, value = condition.test, condition.value
    if value is None:  # is / not absent (only these two tests have no value)
        return (actual is None) is (test == "is")
    if test == "lacks":
        return value not in actual
    if test == "min":
        return actual is None or actual >= value
    if test == "max":
        return actual is None or actual <= value
    other = getattr(situation, value)
    return actual is None or other is None or (actual == other) is (test == "is")


def unmet(flag: Flag, situation: Situation) -> list[Condition]:
    """The conditions of a flag that fail in this situation, in the declared order (empty: the flag can apply)."""
    return [condition for condition in flag.conditions if not holds(condition, situation)]


def only_when(flag: Flag, discarder_present: bool) -> bool:
    """Whether the flag asks for a discarder (`discarder_present`) or for a self-draw, by its conditions."""
    wanted = "not" if discarder_present else "is"
    return any(c.fact == "discarder" and c.value is None and c.test == wanted for c in flag.conditions)


# ------------------------------------------------------------------------------------------- reading declarations


class DeclarationError(ValueError):
    """A declarations.toml that cannot be read: the message names the file's entry."""


def read_condition(name: str, raw: Mapping) -> Condition:
    """One `[conditions]` entry: `reason` and one fact with its test (the syntax of flags.toml)."""
    tests = {key: value for key, value in raw.items() if key != "reason"}
    if "reason" not in raw or len(tests) != 1:
        raise DeclarationError(f"condition {name!r}: needs a reason and exactly one of {', '.join(FACTS)}")
    ((fact, test),) = tests.items()
    reason = Text(raw["reason"]["zh"], raw["reason"]["en"])
    if fact in SEAT_FACTS and isinstance(test, str):
        return Condition(fact, "is", _seat_value(name, test), reason)
    if fact in SEAT_FACTS and isinstance(test, Mapping) and set(test) == {"not"}:
        return Condition(fact, "not", _seat_value(name, test["not"]), reason)
    if fact in COUNT_FACTS and isinstance(test, Mapping) and len(test) == 1 and set(test) <= {"min", "max"}:
        ((bound, number),) = test.items()
        if isinstance(number, int) and not isinstance(number, bool):
            return Condition(fact, bound, number, reason)
    if fact == "flags" and isinstance(test, Mapping) and set(test) == {"lacks"} and isinstance(test["lacks"], str):
        return Condition(fact, "lacks", test["lacks"], reason)
    raise DeclarationError(f"condition {name!r}: {fact} = {test!r} is no test of flags.toml")


def _seat_value(name: str, value: object) -> str | None:
    if value == "none":
        return None
    if value in SEAT_FACTS:
        return value
    raise DeclarationError(f'condition {name!r}: a seat is compared with "none" or one of {", ".join(SEAT_FACTS)}')


def read_flags(entries: list[Mapping], conditions: Mapping[str, Mapping], where: str) -> tuple[Flag, ...]:
    """A game's `[[flags]]` with its `[conditions]`: a shared flag by its id (its label and conditions from
    flags.toml, `also` adds the game's), or a flag of the game's own with `label` and `needs`. `where` names the
    file in errors."""
    own = {name: read_condition(name, raw) for name, raw in conditions.items()}
    clash = sorted(set(own) & set(SHARED_CONDITIONS))
    if clash:
        raise DeclarationError(f"{where}: condition {clash[0]!r} is declared in flags.toml already")
    known = {**SHARED_CONDITIONS, **own}

    def named(names: list[str], flag_id: str) -> tuple[Condition, ...]:
        unknown = [name for name in names if name not in known]
        if unknown:
            raise DeclarationError(f"{where}: flag {flag_id!r} needs an undeclared condition {unknown[0]!r}")
        return tuple(known[name] for name in names)

    flags = []
    for entry in entries:
        flag_id, rule = entry["id"], entry["rule"]
        shared = SHARED_FLAGS.get(flag_id)
        if shared is not None:
            if "label" in entry or "needs" in entry:
                raise DeclarationError(f"{where}: flag {flag_id!r} is shared (flags.toml): add conditions with also")
            flags.append(Flag(flag_id, shared.label, shared.conditions + named(entry.get("also", []), flag_id), rule))
        elif "label" in entry and "needs" in entry:
            label = Text(entry["label"]["zh"], entry["label"]["en"])
            needs = named(entry["needs"], flag_id) + named(entry.get("also", []), flag_id)
            flags.append(Flag(flag_id, label, needs, rule))
        else:
            raise DeclarationError(f"{where}: flag {flag_id!r} is not shared: give it a label and needs")
    return tuple(flags)


def _shared() -> tuple[dict[str, Condition], dict[str, Flag]]:
    raw = tomllib.loads(Path(__file__).with_name("flags.toml").read_text(encoding="utf-8"))
    conditions = {name: read_condition(name, entry) for name, entry in raw["conditions"].items()}
    flags = {
        entry["id"]: Flag(
            entry["id"],
            Text(entry["label"]["zh"], entry["label"]["en"]),
            tuple(conditions[name] for name in entry["needs"]),
            "",
        )
        for entry in raw["flags"]
    }
    return conditions, flags


SHARED_CONDITIONS, SHARED_FLAGS = _shared()


def listed(flags: frozenset[str]) -> list[str]:
    """Flags in the order the request echo lists them: the shared ones in flags.toml's order, then a game's own by
    id."""
    if len(flags) == 1:
        return list(flags)
    shared = [flag_id for flag_id in SHARED_FLAGS if flag_id in flags]
    if len(shared) == len(flags):
        return shared
    own = [flag_id for flag_id in flags if flag_id not in SHARED_FLAGS]
    return shared + (sorted(own) if len(own) > 1 else own)
