"""A table's rule card (API.md): the game, its options with every house rule, the stake and the multiplier;
read from a create-table body or a card change, every value checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from calculator.engine.errors import ScoreError
from calculator.engine.rulesets import RULESETS, Ruleset
from calculator.engine.rulesets.base import read_option
from calculator.engine.rulesets.table import TableRules
from calculator.engine.seats import Seats
from calculator.engine.text import AND, Joined, msg
from calculator.ledger.errors import LedgerError, bad

MAX_MULTIPLIER = 1000
CARD_FIELDS = ("ruleset", "options", "stake", "multiplier")


@dataclass(frozen=True)
class Card:
    """A table's rule card (API.md): ruleset, options (`house` with every house rule), stake, multiplier.

    A card stored before an option or a house rule existed holds it at its default (the reading the table was
    played under): a table of four, for one made before `players` (docs/seats.md)."""

    ruleset: str
    options: Mapping
    stake: int | None
    multiplier: int = 1
    version: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", complete_options(self.rules, self.options))

    @property
    def rules(self) -> Ruleset:
        return RULESETS[self.ruleset]

    @property
    def seats(self) -> Seats:
        """The table's seats, in play order: the first `players` of E S W N."""
        return self.rules.seats(self.options)

    @property
    def table(self) -> TableRules:
        return self.rules.table

    @property
    def is_room(self) -> bool:
        """Whether the table plays for stakes that run out (a 底 game, a 冲击 room) or keeps running totals."""
        return self.table.is_room(self.stake)

    @property
    def house(self) -> Mapping:
        return self.options["house"]

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "ruleset": self.ruleset,
            "options": _plain(self.options),
            "stake": self.stake,
            "multiplier": self.multiplier,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Card:
        """A stored card (validated on the way in)."""
        return cls(data["ruleset"], data["options"], data["stake"], data["multiplier"], data.get("version", 1))


def complete_options(rules: Ruleset, options: Mapping) -> Mapping:
    """A card's options with every table option and house rule of the game, the ones it lacks at their default
    (the same mapping when it lacks none: a card read from a request is whole)."""
    house = options.get("house") or {}
    if all(option.id in options for option in rules.table_options) and all(rule.id in house for rule in rules.house):
        return options
    whole = {option.id: options.get(option.id, option.default) for option in rules.table_options}
    whole["house"] = {rule.id: house.get(rule.id, rule.default) for rule in rules.house}
    return {**options, **whole}


def _plain(options: Mapping) -> dict:
    return {key: dict(value) if isinstance(value, Mapping) else value for key, value in options.items()}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def refuse_unknown(data: Mapping, known: tuple[str, ...], prefix: str = "") -> None:
    """API.md: a field the body may not have is bad_json naming it (nothing unknown is ever stored)."""
    for key in data:
        if key not in known:
            name = f"{prefix}{key}" if isinstance(key, str) else prefix.rstrip(".") or "body"
            raise bad(name, msg("unknown field {name}", name=name), "bad_json")


def ruleset_of(data: Mapping) -> Ruleset:
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise LedgerError("unknown_ruleset", msg("no ruleset {name!r}", name=ruleset), "ruleset")
    return RULESETS[ruleset]


def parse_options(rules: Ruleset, raw: object) -> dict:
    """A table's options: the ruleset's table options (defaults filled) and `house`, the whole card of house
    rules. Anything else, a per-hand option (xinyu's 财神) included, is a bad_option naming it."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise bad("options", msg("options must be an object"), "bad_option")
    known = {option.id: option for option in rules.table_options}
    for key in raw:
        if key not in known and key != "house":
            name = f"options.{key}" if isinstance(key, str) else "options"
            per_hand = msg("a table has no option {key!r} (options that change per hand come with each hand)", key=key)
            raise bad(name, per_hand, "bad_option")
    try:
        options = {key: read_option(option, raw.get(key)) for key, option in known.items()}
        options["house"] = rules.read_card(raw.get("house")).to_dict()
    except ScoreError as error:
        raise LedgerError.of(error) from None
    return options


def parse_stake(table: TableRules, value: object, options: Mapping) -> int | None:
    rule = table.stake
    if value is None and rule.none is None:
        return table.default_stake(options)
    if rule.allows(value):
        return value
    if rule.choices:
        listed = [str(choice) for choice in rule.choices]
        refused = msg(
            "the {label} stake must be {choices} or {last} (null: {none})",
            label=rule.label,
            choices=Joined(AND, listed[:-1]),
            last=listed[-1],
            none=rule.none,
        )
    else:
        refused = msg(
            "{label} must be a whole number from {minimum} to {maximum}",
            label=rule.label,
            minimum=rule.minimum,
            maximum=rule.maximum,
        )
    raise bad("stake", refused)


def parse_multiplier(value: object) -> int:
    if value is None:
        return 1
    if not _whole(value) or not 1 <= value <= MAX_MULTIPLIER:
        raise bad("multiplier", msg("multiplier must be a whole number from 1 to {most}", most=MAX_MULTIPLIER))
    return value


def parse_card(data: Mapping, version: int = 1) -> Card:
    """A rule card from a create-table body (its card fields), every value checked."""
    rules = ruleset_of(data)
    options = parse_options(rules, data.get("options"))
    stake = parse_stake(rules.table, data.get("stake"), options)
    return Card(rules.id, options, stake, parse_multiplier(data.get("multiplier")), version)


def change_card(card: Card, data: object) -> Card:
    """`POST /api/tables/<id>/card` (API.md): the next version of the card. `options` replaces the options (house
    rules included); `stake` and `multiplier` replace theirs when given (a null stake: the game's default, or no
    stake where the game allows it); what is left out stays. The ruleset and the table's size (`players`: left out
    of `options`, it is the table's) cannot change."""
    if not isinstance(data, Mapping):
        raise LedgerError("bad_json", msg("the request must be a JSON object"))
    refuse_unknown(data, (*CARD_FIELDS, "version"))
    if "ruleset" in data and data["ruleset"] != card.ruleset:
        raise bad("ruleset", msg("a table's ruleset cannot change"))
    rules = card.rules
    options = (
        parse_options(rules, _with_size(rules, card, data["options"])) if "options" in data else dict(card.options)
    )
    if rules.seats(options) != card.seats:  # API.md: a table's seats are fixed when it is made
        fixed = msg("a table's number of players cannot change (this table seats {size})", size=len(card.seats))
        raise bad(f"options.{rules.players_option.id}", fixed)
    stake = parse_stake(rules.table, data["stake"], options) if "stake" in data else card.stake
    multiplier = parse_multiplier(data["multiplier"]) if "multiplier" in data else card.multiplier
    return Card(card.ruleset, options, stake, multiplier, card.version + 1)


def _with_size(rules: Ruleset, card: Card, raw: object) -> object:
    """A card change's options: `players` left out is the table's (it cannot change), not the game's default."""
    size = rules.players_option.id
    if raw is None:
        raw = {}
    if isinstance(raw, Mapping) and size not in raw:
        return {**raw, size: card.options[size]}
    return raw
