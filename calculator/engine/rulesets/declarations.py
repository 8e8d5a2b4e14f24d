"""The vocabulary a ruleset declares itself in: texts in both languages, options, flags with the conditions under
which each can apply, house rules, patterns and readings.

A ruleset package states its game's facts once, as values of these types; the engine validates requests with
them, and the forms, the page's JavaScript, the rules page and the ledger read them (through the registry,
`calculator.engine.rulesets.RULESETS`) instead of repeating them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
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
    gives: str | None = None  # the option whose value this one decides (xinyu's indicator gives the 财神)

    def to_dict(self) -> dict:
        body: dict = {"id": self.id, "label": self.label.to_dict(), "kind": self.kind, "default": self.default}
        if self.choices:
            body["choices"] = [choice.to_dict() for choice in self.choices]
        if self.minimum is not None:
            body["minimum"], body["maximum"] = self.minimum, self.maximum
        body["per_hand"] = self.per_hand
        if self.help is not None:
            body["help"] = self.help.to_dict()
        if self.gives is not None:
            body["gives"] = self.gives
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
    # A hand that the rule decides (a score request without its card; the worked cases of house.json): the
    # rules page scores it under each value.
    example: dict | None = field(default=None, compare=False, hash=False)

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
            "example": self.example,
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

    id: str
    heading: Text
    rules: tuple[str, ...]
    patterns: tuple[Pattern, ...]


@dataclass(frozen=True, slots=True)
class Note:
    """A paragraph of the rules page, under the RULES.md sections it reads (anchors)."""

    rules: tuple[str, ...]
    text: Text


@dataclass(frozen=True, slots=True)
class ReadingNote:
    """A **[reading]** of RULES.md: where the seed is silent or ambiguous, the interpretation the engine follows."""

    rule: str
    name: str  # the Chinese term it is about
    text: Text


# ----------------------------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class Declared:
    """Everything a game's `declarations.toml` states, read into the types above. `texts` holds its named tables
    of texts (the names of its codes); `data` the rest of the file, for the game's own numbers (tariffs …)."""

    title: Text
    summary: Text
    options: tuple[Option, ...]
    flags: tuple[Flag, ...]
    house: tuple[HouseRule, ...]
    pattern_groups: tuple[PatternGroup, ...]
    readings: tuple[ReadingNote, ...]
    notes: tuple[Note, ...]
    texts: dict[str, dict[str, Text]]
    labels: dict[str, tuple[Text, Text]]  # a fact shown as a label on an answer: its name and note, by code
    data: dict

    def group(self, group_id: str) -> PatternGroup:
        return next(group for group in self.pattern_groups if group.id == group_id)


def load(path: Path) -> Declared:
    """Read a game's declarations (TOML) into values; a mistake in the file fails at import, naming the entry."""
    from .flags import NAMED_CONDITIONS, flag  # flags.py builds on this module's types

    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return Declared(
        title=_text(raw.pop("title")),
        summary=_text(raw.pop("summary")),
        options=tuple(_option(entry) for entry in raw.pop("options")),
        flags=tuple(
            flag(entry["id"], entry["rule"], *(NAMED_CONDITIONS[name] for name in entry.get("also", ())))
            for entry in raw.pop("flags")
        ),
        house=tuple(_house_rule(entry) for entry in raw.pop("house")),
        pattern_groups=tuple(
            PatternGroup(
                group["id"],
                _text(group["heading"]),
                tuple(group["rules"]),
                tuple(
                    Pattern(p["code"], _text(p["name"]), _text(p["value"]), _text(p["what"]), p.get("tiles", ""))
                    for p in group["patterns"]
                ),
            )
            for group in raw.pop("pattern_groups")
        ),
        readings=tuple(ReadingNote(r["rule"], r["name"], _text(r["text"])) for r in raw.pop("readings")),
        notes=tuple(Note(tuple(n["rules"]), _text(n["text"])) for n in raw.pop("notes", ())),
        texts={name: {code: _text(text) for code, text in table.items()} for name, table in raw.pop("texts").items()},
        labels={code: (_text(label["name"]), _text(label["note"])) for code, label in raw.pop("labels").items()},
        data=raw,
    )


def _text(raw: dict) -> Text:
    return Text(raw["zh"], raw["en"])


def _choices(raw: list[dict]) -> tuple[Choice, ...]:
    return tuple(Choice(choice["value"], _text(choice["label"])) for choice in raw)


def _option(raw: dict) -> Option:
    return Option(
        raw["id"],
        _text(raw["label"]),
        raw["kind"],
        raw.get("default"),
        _choices(raw.get("choices", [])),
        raw.get("minimum"),
        raw.get("maximum"),
        raw.get("per_hand", False),
        _text(raw["help"]) if "help" in raw else None,
        raw.get("gives"),
    )


def _house_rule(raw: dict) -> HouseRule:
    example = raw.get("example")
    if example is not None:  # TOML has no null: an absent discarder is a self-draw
        example = {"melds": [], "flags": [], "discarder": None, **example}
    return HouseRule(
        raw["id"],
        _text(raw["label"]),
        _choices(raw["choices"]),
        _text(raw["explanation"]),
        raw["rule"],
        raw.get("scoring", True),
        example,
    )
