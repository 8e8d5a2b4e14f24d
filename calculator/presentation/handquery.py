"""The calculator's query string (its form fields, the share link) and the engine request it stands for.

`parse_query` turns the fields into an API.md request and the players' names without judging them: the engine
validates the request and answers with its own error codes. `query_string` writes the canonical query of an
input; it is the inverse of `parse_query` (`parse_query(query_string(x)) == x` for every parsed input x).
Plain Python, no Django: the load script writes its queries with it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.declarations import HouseRule
from calculator.engine.tiles import SEATS

from .locale import Locale
from .words import gettext_noop, seat_labels

MELD_SLOTS = (1, 2, 3, 4)  # the form's meld fields: meld1 … meld4 (a hand has at most four melds)
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
        "hand": _tiles(text("hand")),
        "melds": _melds(text),
        "winner": text("winner"),
        "dealer": text("dealer"),
        "discarder": text("discarder") or None,
        "flags": query.getlist("flags"),
    }
    win_tile = _tiles(text("win_tile"))
    if win_tile:
        request["win_tile"] = win_tile
    return HandInput(request, {seat: text(f"name_{seat}").strip() for seat in SEATS})


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
    if meld:
        return _(MELD_FIELD_WORDS[meld.group(2) or ""]) % {"n": int(meld.group(1))}
    if name.startswith("name_") and name[5:] in SEATS:
        return seat_labels(locale.lang)[name[5:]]
    option = next((o for ruleset in RULESETS.values() for o in ruleset.options if o.id == name), None)
    return option.label(locale.lang) if option else ""


# --------------------------------------------------------------------------------------------- the parts


def _texts(query: Query):
    def text(key: str) -> str:
        return query.get(key) or ""

    return text


def _tiles(text: str) -> str:
    return "".join(text.split())


def _options(ruleset_id: str, text) -> dict:
    """The declared options of the game (its default where a field is empty) and the house rules the query
    sets (`house_<id>`; a house rule at its default is left out: absent means the default)."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        return {}
    options: dict = {}
    for option in ruleset.options:
        value = text(option.id)
        if option.kind == "bool":
            options[option.id] = value.lower() not in UNCHECKED
        elif option.kind == "int":
            options[option.id] = _number(value, option.default)
        elif option.kind == "tile":
            if value:
                options[option.id] = value
        else:
            options[option.id] = value or option.default
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
        value = options.get(option.id)
        if option.kind == "bool":
            if value:
                pairs.append((option.id, "on"))
        elif option.kind == "int":
            if value is not None and value != option.default:
                pairs.append((option.id, str(value)))
        elif option.kind == "tile":
            if value:
                pairs.append((option.id, value))
        else:
            pairs.append((option.id, value if value is not None else option.default))
    house = options.get("house") or {}
    for rule in ruleset.house:
        if rule.id in house:
            pairs.append((f"house_{rule.id}", house_text(house[rule.id])))
    return pairs


def house_text(value: object) -> str:
    """A house rule's value as a form field writes it: true / false for booleans, else the value itself."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(text: str, default: int) -> int | str:
    """A whole number as a number (empty: the default); anything else as written, for the engine to refuse."""
    stripped = text.strip()
    if not stripped:
        return default
    digits = stripped[1:] if stripped[0] in "+-" else stripped
    return int(stripped) if digits.isascii() and digits.isdigit() else text


def _melds(text) -> list[dict]:
    """The filled meld slots in order; a slot with only a type or only tiles goes to the engine as it is."""
    melds = []
    for n in MELD_SLOTS:
        kind, tiles = text(f"meld{n}"), _tiles(text(f"meld{n}_tiles"))
        if not kind and not tiles:
            continue
        meld = {"type": kind, "tiles": tiles}
        source = text(f"meld{n}_from")
        if source and kind != "kong_concealed":
            meld["from"] = source
        melds.append(meld)
    return melds
