"""The vocabulary a ruleset declares itself in: texts in both languages, options, flags with the conditions under
which each can apply, house rules, patterns and readings.

A ruleset package states its game's facts once, as values of these types; the engine validates requests with
them, and the forms, the page's JavaScript, the rules page and the ledger read them (through the registry,
`calculator.engine.rulesets.RULESETS`) instead of repeating them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..card import JsonValue
from ..text import Text

# ----------------------------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of an option or a house rule, with its label."""

    value: JsonValue
    label: Text

    def to_dict(self) -> dict:
        return {"value": self.value, "label": self.label.to_dict()}


OptionKind = Literal["choice", "bool", "tile", "int"]


@dataclass(frozen=True, slots=True)
class Option:
    """A request option of one game (`options.<id>` in API.md): its kind, allowed values and default.

    `per_hand` options change from hand to hand (xinyu's 财神); the others are a table's (its rule card).
    """

    id: str
    label: Text
    kind: OptionKind
    default: JsonValue = None
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    per_hand: bool = False
    help: Text | None = None

    def to_dict(self) -> dict:
        body: dict = {"id": self.id, "label": self.label.to_dict(), "kind": self.kind, "default": self.default}
        if self.choices:
            body["choices"] = [choice.to_dict() for choice in self.choices]
        if self.minimum is not None:
            body["minimum"], body["maximum"] = self.minimum, self.maximum
        body["per_hand"] = self.per_hand
        if self.help is not None:
            body["help"] = self.help.to_dict()
        return body


# ----------------------------------------------------------------------------------------------- flags

# The conditions a flag can have, each a question about the request that the engine (request.check_flags), the
# form and the page's JavaScript answer the same way. `arg` is the number of kongs for "kongs", and the other
# flag for "without".
ConditionCode = Literal[
    "self_draw",  # no discarder
    "discard",  # a discarder
    "kongs",  # at least `arg` kongs among the melds
    "winner_dealer",  # the winner is the dealer
    "winner_not_dealer",
    "no_melds",
    "discarder_dealer",  # the discarder is the dealer
    "without",  # not together with the flag `arg`
    "win_tile_not_held",  # the winner holds no other copy of the win tile (concealed or in a meld)
]


@dataclass(frozen=True, slots=True)
class Condition:
    """When a flag can apply; `reason` says why not (shown on a greyed flag and in the engine's error)."""

    code: ConditionCode
    reason: Text
    arg: str | int | None = None

    def to_dict(self) -> dict:
        return {"code": self.code, "arg": self.arg, "reason": self.reason.to_dict()}


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


# ----------------------------------------------------------------------------------------------- house rules


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A point the seeds leave open that a table may settle either way (RULES.md §5): the first choice is the
    project's reading and the default. `scoring` is False for a rule only the ledger applies (draw_dealer)."""

    id: str
    label: Text
    choices: tuple[Choice, ...]
    explanation: Text  # one line: what the other value changes
    rule: str
    scoring: bool = True

    @property
    def default(self) -> JsonValue:
        return self.choices[0].value

    def allows(self, value: object) -> bool:
        """A listed value, of its JSON type (true is not "true", 1 is not true)."""
        return any(type(value) is type(choice.value) and value == choice.value for choice in self.choices)

    def choice(self, value: object) -> Choice:
        return next(choice for choice in self.choices if type(value) is type(choice.value) and value == choice.value)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "label": self.label.to_dict(),
            "choices": [choice.to_dict() for choice in self.choices],
            "default": self.default,
            "explanation": self.explanation.to_dict(),
            "rule": self.rule,
            "scoring": self.scoring,
        }


# ----------------------------------------------------------------------------------------------- the rules page


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern or a number of the game as the rules page lists it: its code, names, value, what it means and
    example tiles (notation, groups split by spaces)."""

    code: str
    name: Text
    value: Text
    what: Text
    tiles: str = ""

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "name": self.name.to_dict(),
            "value": self.value.to_dict(),
            "what": self.what.to_dict(),
            "tiles": self.tiles,
        }


@dataclass(frozen=True, slots=True)
class PatternGroup:
    """A heading of the rules page with its patterns; `rules` are the RULES.md sections it covers (anchors)."""

    heading: Text
    rules: tuple[str, ...]
    patterns: tuple[Pattern, ...]


@dataclass(frozen=True, slots=True)
class ReadingNote:
    """A **[reading]** of RULES.md: where the seed is silent or ambiguous, the interpretation the engine follows."""

    rule: str
    name: str  # the Chinese term it is about
    text: Text


# ----------------------------------------------------------------------------------------------- the table (ledger)


@dataclass(frozen=True, slots=True)
class StakeRule:
    """A table's stake (RULES.md §3): what each player starts a 底 game / 局 with.

    Either one of `choices` (xinyu's rooms) or any whole number from `minimum` to `maximum` (bazhi's 底分);
    `none` names a table without a stake (null: running totals), where the game allows one.
    """

    label: Text
    help: Text
    choices: tuple[int, ...] = ()
    minimum: int = 1
    maximum: int = 1_000_000
    none: Text | None = None
    default: int | None = None

    def allows(self, value: object) -> bool:
        if value is None:
            return self.none is not None
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return value in self.choices if self.choices else self.minimum <= value <= self.maximum

    def to_dict(self) -> dict:
        return {
            "label": self.label.to_dict(),
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "none": self.none.to_dict() if self.none else None,
        }


@dataclass(frozen=True, slots=True)
class EndReason:
    """Why a 底 game / 局 ended (API.md `ended_reason`), with what the table page says."""

    code: str
    text: Text
