"""The vocabulary a ruleset declares itself in: texts in both languages, options, flags with the conditions under
which each can apply (their types live in calculator/engine/flags.py), house rules, patterns and readings.

A ruleset package states its game's facts once, as values of these types; the engine validates requests with
them, and the forms, the page's JavaScript, the rules page and the ledger read them (through the registry,
`calculator.engine.rulesets.RULESETS`) instead of repeating them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..card import JsonValue
from ..flags import DeclarationError, Flag, read_flags
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


# ----------------------------------------------------------------------------------------------- the result card


@dataclass(frozen=True, slots=True)
class Part:
    """A part a win's nets are split into and shown as (bazhi: 番 out of the 底, 交 outside it): `id` is a key of
    the answer's `net_by_part` and a payment row's `part`."""

    id: str
    label: Text


# ----------------------------------------------------------------------------------------------- the rules page


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern or a number of the game as the rules page lists it: its code, names, value, what it means and
    example tiles (notation, groups split by spaces).

    `numbers` are what the pattern is worth (xinyu: `long`, the 龙 it adds): the game's rules score with them,
    and every text of the declarations says them through `{code.name}` (`{qingyise.long}`), so that the value
    is written once."""

    code: str
    name: Text
    value: Text
    what: Text
    tiles: str = ""
    numbers: dict[str, int] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "name": self.name.to_dict(),
            "value": self.value.to_dict(),
            "what": self.what.to_dict(),
            "tiles": self.tiles,
            "numbers": dict(self.numbers),
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


# ----------------------------------------------------------------------------------------------- claims on one discard


@dataclass(frozen=True, slots=True)
class ClaimLevel:
    """A level above 0 at which a win claims a discard (xinyu's 拦胡, RULES.md §2.5), and the patterns that give it
    (codes of `Ruleset.patterns_of`)."""

    level: int
    patterns: tuple[str, ...]


# The reasons a claims answer gives (docs/API-priority.md `reason_code`); higher_level only in a game with levels.
CLAIM_REASONS = ("only_winner", "higher_level", "seat_order", "no_winner")


@dataclass(frozen=True)
class ClaimRules:
    """How a game settles several claims on one discard (`[claims]`, RULES.md §1.1 / §2.5): a winning claim's level
    is the highest of `levels` whose patterns its answer names, else 0; the highest level takes the discard, equal
    levels the first claimant in play order after the discarder. A game without levels plays by seat order alone.
    `reasons` say each `reason_code` with {who} (the seat that takes it), {level} (its level, said) and {beaten}
    (the others' levels); `how` says the whole rule in a sentence, as a player tells it at the table (a page shows
    it beside an answer)."""

    rule: str  # the section of RULES.md that settles it
    ordinary: Text  # what a win of level 0 is called
    levels: tuple[ClaimLevel, ...]  # ascending
    reasons: dict[str, Text]
    how: Text | None = None  # the rule in one sentence (the registry refuses a game without it)

    def level_of(self, codes: tuple[str, ...] | list[str]) -> tuple[int, tuple[str, ...]]:
        """The level of a win naming these pattern codes, and the codes that give it (0 and none: ordinary)."""
        for level in reversed(self.levels):
            giving = tuple([code for code in codes if code in level.patterns])
            if giving:
                return level.level, giving
        return 0, ()

    def missing(self) -> list[str]:
        """What the declaration lacks, in words (empty: nothing)."""
        needed = [code for code in CLAIM_REASONS if code != "higher_level" or self.levels]
        lacking = [code for code in needed if code not in self.reasons]
        problems = [f"[claims] reasons has no {', '.join(lacking)}"] if lacking else []
        return problems + ([] if self.how else ["[claims] has no how (the rule in one sentence)"])


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

    def allows(self, value: object) -> bool:
        if value is None:
            return self.none is not None
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return value in self.choices if self.choices else self.minimum <= value <= self.maximum


@dataclass(frozen=True, slots=True)
class EndReason:
    """Why a 底 game / 局 ended (API.md `ended_reason`), with what the table page says."""

    code: str
    text: Text


AFTER_DRAW = ("keep", "pass")  # a drawn hand (流局) keeps the deal, or passes it to the dealer's 下家 (streak 1)


@dataclass(frozen=True, slots=True)
class AfterDraw:
    """What a drawn hand does to the deal (RULES.md §3): always the same (`fixed`: "keep" or "pass"), or as the
    table's card says (`house`: a house rule whose values are "keep" and "pass", RULES.md §5)."""

    fixed: str | None = None
    house: str | None = None


@dataclass(frozen=True)
class TableDeclared:
    """A game at a table (`[table]` in its declarations.toml, RULES.md §3): the stake, the words the ledger's pages
    use, which payment parts are kept outside the stake, the reasons a game ends, and what a table fills in."""

    stake: StakeRule
    title: Text  # the table's game in a few words, formatted with its options and {stake}
    title_without_stake: Text | None  # the same for a table without a stake, where the game allows one
    game: Text  # what one game of stakes is called: 底 / 局
    game_number: Text  # "第 {n} 底" / "底 game {n}"
    next_game: Text
    balance_label: Text  # the column of what is left of the stake
    ordinary_balance_label: Text  # the same column at a table without a stake (running totals)
    outside_label: Text | None  # the column of payments kept outside the stake, if any
    outside_help: Text | None  # what that column holds, said under the table
    outside_parts: frozenset[str]  # payment parts kept outside the stake, never capped
    parts: dict[str, Text]  # every part a table's rows may carry (the engine's and the table's own)
    end_reasons: tuple[EndReason, ...]
    streak_option: str | None  # the per-hand option the table fills with its dealer's streak
    multiplier_label: Text | None  # the table's multiplier (a leaving penalty's factor), if it has one
    leave_label: Text | None  # a player leaving mid-game, if the game has a penalty for it
    after_draw: AfterDraw | None  # the deal after a drawn hand (None: not declared, the registry refuses it)
    data: dict  # the game's own numbers (a leaving penalty …)


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
    table: TableDeclared
    data: dict
    parts: tuple[Part, ...] = ()  # `[parts]`: none when the card shows each net whole
    claims: ClaimRules | None = None  # `[claims]` (None: not declared, the registry refuses the game)
    # `[headline] lines`: the codes of the explanation lines whose arithmetic gives the headline's numbers (another
    # reading of the rule card is told by them: RULES.md §5.3); none: the headline alone
    headline_lines: tuple[str, ...] = ()

    def group(self, group_id: str) -> PatternGroup:
        return next(group for group in self.pattern_groups if group.id == group_id)


REQUIRED = ("title", "summary", "pattern_groups", "table")  # every other section may be left out: none of it


def load(path: Path) -> Declared:
    """Read a game's declarations (TOML) into values; a mistake in the file fails at import, naming the entry.
    A section the game has nothing for (options, flags, house rules, readings, notes, texts, labels, parts,
    headline) may be left out. Every `{code.name}` in a text is replaced by that pattern's number (`Pattern.numbers`)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    lacking = [key for key in REQUIRED if key not in raw]
    if lacking:
        raise DeclarationError(f"{path}: no {', '.join(lacking)} (every game declares {', '.join(REQUIRED)})")
    raw = _with_numbers(raw, _numbers(raw["pattern_groups"]), str(path))
    return Declared(
        title=_text(raw.pop("title")),
        summary=_text(raw.pop("summary")),
        options=tuple(_option(entry) for entry in raw.pop("options", ())),
        flags=read_flags(raw.pop("flags", []), raw.pop("conditions", {}), str(path)),
        house=tuple(_house_rule(entry) for entry in raw.pop("house", ())),
        pattern_groups=tuple(
            PatternGroup(
                group["id"],
                _text(group["heading"]),
                tuple(group["rules"]),
                tuple(
                    Pattern(
                        p["code"],
                        _text(p["name"]),
                        _text(p["value"]),
                        _text(p["what"]),
                        p.get("tiles", ""),
                        dict(p.get("numbers", {})),
                    )
                    for p in group["patterns"]
                ),
            )
            for group in raw.pop("pattern_groups")
        ),
        readings=tuple(ReadingNote(r["rule"], r["name"], _text(r["text"])) for r in raw.pop("readings", ())),
        notes=tuple(Note(tuple(n["rules"]), _text(n["text"])) for n in raw.pop("notes", ())),
        texts={
            name: {code: _text(text) for code, text in table.items()} for name, table in raw.pop("texts", {}).items()
        },
        labels={code: (_text(label["name"]), _text(label["note"])) for code, label in raw.pop("labels", {}).items()},
        table=_table(raw.pop("table")),
        parts=tuple(Part(part_id, _text(label)) for part_id, label in raw.pop("parts", {}).items()),
        claims=_claims(raw.pop("claims", None)),
        headline_lines=tuple(raw.pop("headline", {}).get("lines", ())),
        data=raw,
    )


def _text(raw: dict) -> Text:
    return Text(raw["zh"], raw["en"])


NUMBER = re.compile(r"\{(\w+)\.(\w+)\}")  # a pattern's number said in a text: {qingyise.long}; {unit} is the answer's


def _numbers(groups: list[dict]) -> dict[str, dict[str, int]]:
    """Every pattern's numbers, by its code (the ones a text may say)."""
    return {p["code"]: p["numbers"] for group in groups for p in group["patterns"] if "numbers" in p}


def _with_numbers(raw, numbers: dict[str, dict[str, int]], where: str):
    """The raw declarations with every `{code.name}` of a text replaced by that pattern's number (a name no
    pattern declares fails, naming it)."""
    if isinstance(raw, dict):
        return {key: _with_numbers(value, numbers, where) for key, value in raw.items()}
    if isinstance(raw, list):
        return [_with_numbers(value, numbers, where) for value in raw]
    if not isinstance(raw, str):
        return raw

    def number(match: re.Match) -> str:
        code, name = match.groups()
        if name not in numbers.get(code, {}):
            raise DeclarationError(f"{where}: {match.group(0)} in {raw!r}: pattern {code!r} declares no {name!r}")
        return str(numbers[code][name])

    return NUMBER.sub(number, raw)


def _maybe_text(raw: dict | None) -> Text | None:
    return None if raw is None else _text(raw)


def _table(raw: dict) -> TableDeclared:
    stake = raw.pop("stake")
    balance = _text(raw.pop("balance_label"))
    known = {
        "stake": StakeRule(
            _text(stake["label"]),
            _text(stake["help"]),
            tuple(stake.get("choices", ())),
            stake.get("minimum", 1),
            stake.get("maximum", 1_000_000),
            _maybe_text(stake.get("none")),
        ),
        "title": _text(raw.pop("title")),
        "title_without_stake": _maybe_text(raw.pop("title_without_stake", None)),
        "game": _text(raw.pop("game")),
        "game_number": _text(raw.pop("game_number")),
        "next_game": _text(raw.pop("next_game")),
        "balance_label": balance,
        "ordinary_balance_label": _maybe_text(raw.pop("ordinary_balance_label", None)) or balance,
        "outside_label": _maybe_text(raw.pop("outside_label", None)),
        "outside_help": _maybe_text(raw.pop("outside_help", None)),
        "outside_parts": frozenset(raw.pop("outside_parts", ())),
        "parts": {code: _text(text) for code, text in raw.pop("parts", {}).items()},
        "end_reasons": tuple(EndReason(code, _text(text)) for code, text in raw.pop("end_reasons", {}).items()),
        "streak_option": raw.pop("streak_option", None),
        "multiplier_label": _maybe_text(raw.pop("multiplier_label", None)),
        "leave_label": _maybe_text(raw.pop("leave_label", None)),
        "after_draw": _after_draw(raw.pop("after_draw", None)),
    }
    return TableDeclared(**known, data=raw)


def _claims(raw: dict | None) -> ClaimRules | None:
    """`[claims]`: the rule, what an ordinary win is called, the levels (ascending) and the reasons."""
    if raw is None:
        return None
    levels = sorted(
        (ClaimLevel(entry["level"], tuple(entry["patterns"])) for entry in raw.get("levels", ())),
        key=lambda level: level.level,
    )
    reasons = {code: _text(text) for code, text in raw.get("reasons", {}).items()}
    return ClaimRules(raw["rule"], _text(raw["ordinary"]), tuple(levels), reasons, _maybe_text(raw.get("how")))


def _after_draw(raw: str | dict | None) -> AfterDraw | None:
    """`after_draw = "keep"` / `"pass"`, or `after_draw = { house = "<rule>" }` (checked when registered)."""
    if raw is None:
        return None
    return AfterDraw(house=raw.get("house")) if isinstance(raw, dict) else AfterDraw(fixed=raw)


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
