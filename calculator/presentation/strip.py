"""The strip: the answer in a few words, kept in view at the top of the page while the hand changes (issue 14
§1), drawn by jinja2/strip.html from whatever the result card shows."""

from __future__ import annotations

from dataclasses import dataclass

from calculator.engine.seats import in_play_order

from .cards import ErrorCard, FailedCard, InvalidCard, NoWinCard, ProgressCard, ResultCard, WaitsCard, WinCard
from .locale import Locale
from .who_pays import Role, SeatCell
from .words import card_words


@dataclass(slots=True)
class StripSeat:
    """One seat in the strip: its label, its short marks (庄, 胡, 铳, 包) and its net."""

    seat: str
    label: str
    marks: list[Role]
    net: int
    text: str
    sign: str


@dataclass(slots=True)
class Strip:
    """The verdict and, for a win, the table's nets with the seats' marks; otherwise one line of detail."""

    kind: str
    verdict: str
    detail: str
    seats: list[StripSeat]


def strip(card: ResultCard, locale: Locale) -> Strip:
    """The strip for whatever the result card shows."""
    if isinstance(card, WinCard):
        marks = card_words(locale)["marks"]
        by_seat = {c.seat: c for c in card.cells if isinstance(c, SeatCell)}  # the answer's seats
        seats = [by_seat[seat] for seat in in_play_order(by_seat)]
        return Strip(
            card.kind,
            card.verdict,
            " · ".join(card.summary),
            [
                StripSeat(c.seat, c.label, [Role(r.code, marks[r.code]) for r in c.roles], c.net, c.net_text, c.sign)
                for c in seats
            ],
        )
    verdict, detail = strip_words(card, locale)
    return Strip(card.kind, verdict, detail, [])


def strip_words(card: ResultCard, locale: Locale) -> tuple[str, str]:
    """The verdict and the detail line of a card that is not a win."""
    _ = locale.gettext
    if isinstance(card, WaitsCard):
        return card.title, " ".join(w.tile.name for w in card.waits)
    if isinstance(card, NoWinCard):
        return _("Not a win"), card.message
    if isinstance(card, ProgressCard):
        return card.to_go, card.so_far
    if isinstance(card, InvalidCard):
        return _("Please check the input"), card.errors[0].message if card.errors else ""
    if isinstance(card, ErrorCard):
        return _("This hand cannot be scored"), card.message
    if isinstance(card, FailedCard):
        return _("The calculator could not score this hand"), ""
    return _("Enter a hand to see who pays whom."), _(
        "Choose the game and the seats, then tap the 13 or 14 tiles. With 13 tiles and no winning tile you see the "
        "waits."
    )
