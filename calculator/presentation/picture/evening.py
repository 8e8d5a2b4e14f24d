"""The picture of a table's evening (issue 32): the standings and who pays whom to settle, under the table's game
and rule card, with the QR code of its read-only link (never the edit link). The table page hands in what it
shows (its words are the ledger's, in the page's language); this places it for jinja2/picture.svg."""

from __future__ import annotations

from dataclasses import dataclass

from ..locale import Locale
from ..words import signed, with_name
from .draw import GAP, INNER, MARGIN, Box, Column, Group, Picture, Words
from .frame import band, close, picture, section
from .text import fit


@dataclass(frozen=True, slots=True)
class Standing:
    seat: str
    label: str  # the seat's word (东)
    name: str  # the player's name, or empty where it is the seat's word
    total: int


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str  # seats
    payee: str
    payer_name: str
    payee_name: str
    amount: int


@dataclass(frozen=True, slots=True)
class Evening:
    """A table as its page shows it at one version: its title, rule card lines, where the evening is (the game,
    the hands played), each seat's total and the transfers that settle them."""

    title: str
    card: list[str]
    status: list[str]
    standings: list[Standing]
    transfers: list[Transfer]


TOTAL_ROOM = 260  # px at the right of a standing for its total


def evening_picture(evening: Evening, link: str, home: str, locale: Locale) -> Picture:
    """The picture of `evening`; `link` is the table's read-only link (its QR code), `home` the calculator's URL."""
    _ = locale.gettext
    ranked = sorted(evening.standings, key=lambda s: -s.total)  # stable: seat order among equals
    said = " · ".join(f"{with_name(s.label, s.name)} {signed(s.total)}" for s in ranked)
    parts = [
        band(evening.card, evening.title, [" · ".join(evening.status)], hooks={"part": "table"}),
        standings(ranked, locale),
        settlement(evening.transfers, locale),
    ]
    return picture(parts, link, home, _("Scan to open this table"), f"{evening.title} · {said}", locale)


def standings(ranked: list[Standing], locale: Locale) -> Group:
    """Each seat's total, the highest first: the seat and its player at the left, the total large at the right."""
    _ = locale.gettext
    group, column = section(_("Standings"), {"part": "standings"})
    for standing in ranked:
        row = Group(y=column.y, hooks={"seat": standing.seat, "net": str(standing.total)})
        words = Column(row, INNER - TOTAL_ROOM - GAP, MARGIN + 16, 14)
        words.words(standing.label, 30, bold=True, gap=2)
        if standing.name:
            words.words(standing.name, 34, lines=2, gap=2)
        tone = "plus" if standing.total > 0 else ("minus" if standing.total < 0 else "zero")
        total = Words(MARGIN + INNER - 16, 14, fit(signed(standing.total), TOTAL_ROOM, 64, bold=True), tone, "end")
        row.words.append(total)
        row.height = round(max(words.y, 14 + total.height) + 12, 1)
        row.boxes.insert(0, Box(MARGIN, 0, INNER, row.height, "card", "line"))
        group.groups.append(row)
        column.skip(row.height + 12)
    return close(group, column)


def settlement(transfers: list[Transfer], locale: Locale) -> Group:
    """The transfers that settle the totals: who pays whom how much."""
    _ = locale.gettext
    group, column = section(_("Who pays whom"), {"part": "settlement"})
    if not transfers:
        column.words(_("Nobody owes anything."), 32)
    for transfer in transfers:
        hooks = {"from": transfer.payer, "to": transfer.payee, "amount": str(transfer.amount)}
        row = Group(y=column.y, hooks=hooks)
        words = Column(row, INNER - TOTAL_ROOM - GAP, MARGIN, 0)
        words.words(f"{transfer.payer_name} → {transfer.payee_name}", 32, lines=3, gap=4)
        amount = Words(MARGIN + INNER, 0, fit(str(transfer.amount), TOTAL_ROOM, 48, bold=True), "ink", "end")
        row.words.append(amount)
        row.height = round(max(words.y, amount.height), 1)
        group.groups.append(row)
        column.skip(row.height + 10)
        group.boxes.append(Box(MARGIN, column.y - 6, INNER, 2, "rule"))
        column.skip(6)
    return close(group, column)
