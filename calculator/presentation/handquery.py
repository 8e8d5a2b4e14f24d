"""The calculator's fields (its form, its share link) and the engine request they stand for: the one input path.

`parse_query` turns the fields into an API.md request and the players' names without judging them: the engine
validates the request and answers with its own error codes. `query_string` writes the canonical query of an
input; it is the inverse of `parse_query` (`parse_query(query_string(x)) == x` for every parsed input x). How a
declared option of each kind reads and writes as a field is `FIELD_KINDS`, the one place that knows it; spaces
in tile fields are dropped once, in `tiles_of`. The hand form (pages/forms.py) validates and shows
these fields and hands its cleaned values back here (`Fields.of_values`).
Plain Python, no Django: the phone (issue 22) and the load script read and write queries with it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from calculator.engine.errors import ScoreError
from calculator.engine.hand import MOST_MELDS
from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.declarations import HouseRule, Option
from calculator.engine.seats import SEATS, Seats

from .locale import Locale
from .words import gettext_noop, seat_labels

MELD_SLOTS = tuple(range(1, MOST_MELDS + 1))  # the form's meld fields: meld1 … meld4 (as many as a hand holds)
UNCHECKED = ("", "false", "0")  # what a checkbox field reads as "off" (Django's BooleanField)
FIELDS = ("ruleset", "hand", "win_tile", "winner", "dealer", "discarder", "flags")  # named as in API.md

# The labels of the page's fields (the form shows them; an engine error is told beside the field it names).
FIELD_WORDS = {
    "ruleset": gettext_noop("Game"),
    "hand": gettext_noop("Hand (concealed tiles before the win)"),
    "win_tile": gettext_noop("Winning tile"),
    "winner": gettext_noop("Winner"),
    "dealer": gettext_noop("Dealer"),
    "discarder": gettext_noop("Discarder"),
    "flags": gettext_noop("Special wins"),
}
MELD_FIELD_WORDS = {"": gettext_noop("Meld %(n)d"), "_tiles": gettext_noop("Tiles"), "_from": gettext_noop("From")}


class Query(Protocol):
    """A query dict: `QueryDict` (the last value of a repeated key, or all of them)."""

    def get(self, key: str, default: str | None = None) -> str | None: ...

    def getlist(self, key: str) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Fields:
    """A query string's fields as a `Query`, without Django: `Fields.of("ruleset=bazhi&hand=…")`."""

    lists: dict[str, list[str]]

    @classmethod
    def of(cls, query: str) -> Fields:
        return cls(parse_qs(query.removeprefix("?"), keep_blank_values=True))

    @classmethod
    def of_values(cls, values: Mapping[str, object]) -> Fields:
        """A form's cleaned values as the fields a browser sends: a ticked box "on", an unticked one and an empty
        value absent, a list (the flags) one value each, anything else its text."""
        lists: dict[str, list[str]] = {}
        for name, value in values.items():
            if isinstance(value, list | tuple):
                lists[name] = [str(v) for v in value]
            elif value is True:
                lists[name] = ["on"]
            elif value not in (None, False, ""):
                lists[name] = [str(value)]
        return cls(lists)

    def get(self, key: str, default: str | None = None) -> str | None:
        values = self.lists.get(key)
        return values[-1] if values else default

    def getlist(self, key: str) -> list[str]:
        return list(self.lists.get(key, ()))


@dataclass(slots=True)
class HandInput:
    """One hand as the calculator's fields give it: the engine request, and the names shown with the seats."""

    request: dict
    names: dict[str, str]

    def with_win(self, win_tile: str, discarder: str | None, flags: list[str]) -> HandInput:
        """The same hand won on `win_tile` (a wait's link to its full result)."""
        return HandInput({**self.request, "win_tile": win_tile, "discarder": discarder, "flags": flags}, self.names)


def parse_query(query: Query) -> HandInput:
    """The engine request and the names of a calculator query. Spaces in tile fields are dropped, empty meld
    slots skipped, the game's declared defaults filled in; nothing else is checked here."""
    text = _texts(query)
    ruleset = text("ruleset")
    request = {
        "ruleset": ruleset,
        "options": _options(ruleset, text),
        "hand": tiles_of(text("hand")),
        "melds": _melds(query),
        "winner": text("winner"),
        "dealer": text("dealer"),
        "discarder": text("discarder") or None,
        "flags": query.getlist("flags"),
    }
    win_tile = tiles_of(text("win_tile"))
    if win_tile:
        request["win_tile"] = win_tile
    return HandInput(request, {seat: text(f"name_{seat}").strip() for seat in table_seats(request)})


def table_seats(request: dict) -> Seats:
    """The seats of a request's table (`Ruleset.seats` of its game and options), before the engine has answered:
    what the page draws seat buttons and names for. The most a table has where the game or its size cannot be
    read (the engine says why)."""
    ruleset = RULESETS.get(request.get("ruleset"))
    if ruleset is None:
        return SEATS
    try:
        return ruleset.seats(request.get("options"))
    except ScoreError:
        return SEATS


def query_string(hand: HandInput) -> str:
    """The canonical query of an input: the share link's query, the fields in a fixed order, defaults left out.
    Any API.md request will do (fields it omits take their defaults)."""
    request = hand.request
    pairs = [("ruleset", request["ruleset"]), *_option_pairs(request["ruleset"], request.get("options") or {})]
    pairs.append(("hand", request["hand"]))
    if request.get("win_tile"):
        pairs.append(("win_tile", request["win_tile"]))
    for n, meld in enumerate(request.get("melds") or [], start=1):
        pairs += [(f"meld{n}", meld["type"]), (f"meld{n}_tiles", meld["tiles"])]
        if meld.get("from"):
            pairs.append((f"meld{n}_from", meld["from"]))
    pairs += [
        ("winner", request["winner"]),
        ("dealer", request["dealer"]),
        ("discarder", request.get("discarder") or ""),
    ]
    pairs += [("flags", flag) for flag in request.get("flags") or []]
    pairs += [(f"name_{seat}", name) for seat, name in hand.names.items() if name]
    return urlencode(pairs)


def form_field(path: str | None) -> str:
    """The calculator's field that an engine error's `field` (a path into the request) points at: `hand`,
    `melds[0].tiles` → `meld1_tiles`, `options.house.haidi` → `house_haidi`; empty for a path no field holds."""
    if not path:
        return ""
    meld = re.fullmatch(r"melds\[(\d)\](?:\.(tiles|from))?", path)
    if meld:
        slot, part = int(meld.group(1)) + 1, meld.group(2)
        if slot not in MELD_SLOTS:
            return ""
        return f"meld{slot}_{part}" if part else f"meld{slot}"
    if path.startswith("options.house."):
        return "house_" + path.removeprefix("options.house.")
    if path.startswith("options."):
        return path.removeprefix("options.")
    return path if path in FIELDS else ""


def field_label(name: str, locale: Locale) -> str:
    """The label of one of the page's fields (empty for a field the page labels otherwise: a rule of the rule
    card, a field it does not have)."""
    _ = locale.gettext
    if name in FIELD_WORDS:
        return _(FIELD_WORDS[name])
    meld = re.fullmatch(r"meld(\d)(_tiles|_from)?", name)
    if meld and meld.group(2):
        return _(MELD_FIELD_WORDS[meld.group(2)])
    if meld:
        return _(MELD_FIELD_WORDS[""]) % {"n": int(meld.group(1))}
    if name.startswith("name_") and name[5:] in SEATS:
        return seat_labels(locale.lang)[name[5:]]
    option = next((o for ruleset in RULESETS.values() for o in ruleset.options if o.id == name), None)
    return option.label(locale.lang) if option else ""


# --------------------------------------------------------------------------------------------- the kinds of option


class FieldKind:
    """How a declared option of one kind is a field of the page: `control` is what the form shows (a checkbox,
    a number, a tile, one of a few choices); `read` turns the field's text into the request's value (None: left
    out of the request), `write` a request's value into the share link's text (None: left out of the link)."""

    control: str

    def read(self, text: str, option: Option) -> object | None:
        raise NotImplementedError

    def write(self, value: object, option: Option) -> str | None:
        raise NotImplementedError


class Checkbox(FieldKind):
    control = "checkbox"

    def read(self, text: str, option: Option) -> bool:
        return text.lower() not in UNCHECKED

    def write(self, value: object, option: Option) -> str | None:
        return "on" if value else None


class Number(FieldKind):
    control = "number"

    def read(self, text: str, option: Option) -> int | str:
        """A whole number as a number (empty: the default); anything else as written, for the engine to refuse."""
        stripped = text.strip()
        if not stripped:
            return option.default
        digits = stripped[1:] if stripped[0] in "+-" else stripped
        return int(stripped) if digits.isascii() and digits.isdigit() else text

    def write(self, value: object, option: Option) -> str | None:
        return None if value is None or value == option.default else str(value)


class TileChoice(FieldKind):
    control = "tile"

    def read(self, text: str, option: Option) -> str | None:
        return text or None

    def write(self, value: object, option: Option) -> str | None:
        return str(value) if value else None


class Choice(FieldKind):
    control = "choice"

    def read(self, text: str, option: Option) -> object:
        """The choice the field names, as its JSON value (a whole-number choice such as `players` is a number);
        anything unlisted as written, for the engine to refuse; empty: the default."""
        if not text:
            return option.default
        return choice_value(option, text)

    def write(self, value: object, option: Option) -> str | None:
        if len(option.choices) == 1:
            return None  # nothing to choose (xinyu's players: 4 only)
        return str(value if value is not None else option.default)


FIELD_KINDS: dict[str, FieldKind] = {"bool": Checkbox(), "int": Number(), "tile": TileChoice(), "choice": Choice()}


def choice_value(option: Option, text: object) -> object:
    """The declared choice a form field's text names, as its JSON value (`players` "3" is the number 3); any other
    text as it is, for the engine to refuse."""
    return next((choice.value for choice in option.choices if field_text(choice.value) == text), text)


def field_text(value: object) -> str:
    """A declared value (a house rule's, a choice's) as a form field writes it: true / false for booleans, empty
    for none, else the value itself."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def tiles_of(text: str) -> str:
    """A tile field's notation, the spaces a player typed between groups dropped."""
    return "".join(text.split())


def meld_slots(query: Query) -> Iterator[tuple[int, str, str, str]]:
    """The form's meld slots, each (n, type, tiles, from), empty ones included."""
    for n in MELD_SLOTS:
        yield (
            n,
            query.get(f"meld{n}") or "",
            tiles_of(query.get(f"meld{n}_tiles") or ""),
            query.get(f"meld{n}_from") or "",
        )


# --------------------------------------------------------------------------------------------- the parts


def _texts(query: Query):
    def text(key: str) -> str:
        return query.get(key) or ""

    return text


def _options(ruleset_id: str, text) -> dict:
    """The declared options of the game (its default where a field is empty) and the house rules the query
    sets (`house_<id>`; a house rule at its default is left out: absent means the default)."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        return {}
    options: dict = {}
    for option in ruleset.options:
        value = FIELD_KINDS[option.kind].read(text(option.id), option)
        if value is not None:
            options[option.id] = value
    house = {}
    for rule in ruleset.house:
        value = _house_value(rule, text(f"house_{rule.id}"))
        if value is not None and value != rule.default:
            house[rule.id] = value
    if house:
        options["house"] = house
    return options


def _house_value(rule: HouseRule, text: str) -> object:
    """A house rule's field as its JSON value: "true" / "false" for a rule of booleans; anything unlisted is
    passed on as written, for the engine to refuse; empty is None (the default)."""
    if not text:
        return None
    if isinstance(rule.default, bool) and text in ("true", "false"):
        return text == "true"
    return text


def _option_pairs(ruleset_id: str, options: dict) -> list[tuple[str, str]]:
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        return []
    pairs = []
    for option in ruleset.options:
        text = FIELD_KINDS[option.kind].write(options.get(option.id), option)
        if text is not None:
            pairs.append((option.id, text))
    house = options.get("house") or {}
    for rule in ruleset.house:
        if rule.id in house:
            pairs.append((f"house_{rule.id}", field_text(house[rule.id])))
    return pairs


def _melds(query: Query) -> list[dict]:
    """The filled meld slots in order; a slot with only a type or only tiles goes to the engine as it is."""
    melds = []
    for _n, kind, tiles, source in meld_slots(query):
        if not kind and not tiles:
            continue
        meld = {"type": kind, "tiles": tiles}
        if source and kind != "kong_concealed":
            meld["from"] = source
        melds.append(meld)
    return melds
