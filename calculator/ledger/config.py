"""A table's configuration (API.md, creating a table): its first rule card, the players' names and the first
dealer. Its seats are its card's (`options.players`, docs/seats.md): fixed when it is made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from calculator.engine.seats import SEATS, Seats, seat_list
from calculator.engine.text import Joined, Msg, msg, pmsg
from calculator.ledger import names
from calculator.ledger.card import Card, parse_card, refuse_unknown
from calculator.ledger.errors import LedgerError, bad

MAX_NAME = 40  # characters of a player's name
DEFAULT_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}  # what the ledger names an unnamed seat
TABLE_FIELDS = ("ruleset", "options", "players", "stake", "multiplier", "dealer")


@dataclass(frozen=True)
class TableConfig:
    """What a table starts with: its first rule card, the players and the first dealer."""

    card: Card
    players: Mapping
    dealer: str

    seats = property(lambda self: self.card.seats)  # fixed at creation: a card change cannot alter `players`
    ruleset = property(lambda self: self.card.ruleset)
    options = property(lambda self: self.card.options)
    stake = property(lambda self: self.card.stake)
    multiplier = property(lambda self: self.card.multiplier)
    is_room = property(lambda self: self.card.is_room)


def clean_name(value: object, seat: str) -> str:
    """A player's name: text of at most MAX_NAME characters, spaces collapsed, nothing that cannot be shown as
    itself (API.md: control, format, surrogate, unassigned, private-use characters: NUL, a tab, a lone surrogate, a
    right-to-left override that reverses the text around it, a zero-width space that makes two names look alike),
    at least one visible character and at most a few marks on a character (calculator/ledger/names.py);
    empty → the seat's name."""
    field_name = f"players.{seat}"
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise bad(field_name, msg("a player's name must be text"))
    if names.hidden_character(value):  # before spaces are collapsed: a tab or a CR is refused, not made a space
        raise bad(field_name, msg("the name holds a character that cannot be shown"))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise bad(field_name, msg("a name has at most {most} characters", most=MAX_NAME))
    if name and not any(names.visible(ch) for ch in name):
        raise bad(field_name, msg("the name has no character that can be seen"))
    if names.most_marks(name) > names.MAX_MARKS:
        raise bad(field_name, msg("a character carries at most {most} combining marks", most=names.MAX_MARKS))
    return name or DEFAULT_NAMES[seat]


def refuse_no_seat(value: object, seats: Seats, field_name: str, what: Msg) -> None:
    """bad_seat unless `value` is one of the table's seats (N at a table of three is none), listing them."""
    if type(value) is not str or value not in seats:
        listed = Joined(pmsg("between seats", " "), seats)
        no_seat = msg("{what} must be one of {seats} (a table of {size})", what=what, seats=listed, size=len(seats))
        raise LedgerError("bad_seat", no_seat, field_name)


def parse_config(data: object) -> TableConfig:
    """Validate a create-table body (API.md): defaults filled, anything odd refused with the field named. The
    table's seats are its card's (`options.players`); the first dealer is one of them, and a `players` names map
    names every one of them and no other seat (no seat is ever filled in: a table never gets a player nobody
    named). Left out, every seat gets its seat's word."""
    if not isinstance(data, Mapping):
        raise LedgerError("bad_json", msg("the request must be a JSON object"))
    refuse_unknown(data, TABLE_FIELDS)
    card = parse_card(data)
    seats = card.seats
    dealer = data.get("dealer", seats[0])
    refuse_no_seat(dealer, seats, "dealer", msg("the dealer"))
    raw_players = data.get("players")
    if raw_players is None:
        return TableConfig(card, {seat: DEFAULT_NAMES[seat] for seat in seats}, dealer)
    if not isinstance(raw_players, Mapping):
        raise bad("players", msg("players must be an object keyed by {seats}", seats=seat_list(seats)))
    refuse_unknown(raw_players, SEATS, "players.")  # a key that is no seat at all is no field
    extra = next((seat for seat in raw_players if seat not in seats), None)
    if extra is not None:
        raise _names_refused(extra, seats, msg("it has no seat {seat}", seat=extra))
    named = {seat: clean_name(raw_players[seat], seat) for seat in seats if seat in raw_players}
    missing = next((seat for seat in seats if seat not in named), None)
    if missing is not None:
        raise _names_refused(missing, seats, msg("{seat} is missing", seat=missing))
    return TableConfig(card, named, dealer)


def _names_refused(seat: str, seats: Seats, why: Msg) -> LedgerError:
    """A `players` map that does not name exactly the table's seats (API.md), the field naming the seat."""
    refused = msg(
        "a table of {size} names exactly its seats ({seats}; a name may be empty): {why}",
        size=len(seats),
        seats=seat_list(seats),
        why=why,
    )
    return bad(f"players.{seat}", refused)
