"""Who pays whom on a win's result card: the table seen from above in a picture of three columns (the answer's
seats with their nets and roles, each payer's arrow towards the winner, the empty places) and the list of every
payment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import Seats, in_play_order, seats_of

from .locale import Locale
from .words import sign_class, signed

# Where each seat sits in the picture, by the table's seats: the table seen from above, East at the bottom and play
# order counter-clockwise. Four sit a compass (three rows: West on top, North left, South right, East under them);
# three a triangle (two rows: West and South across the top, East between them below); two face to face (one
# row). Every two seats of a table of three are neighbours: each arrow has a cell between its two seats.
PLACES: dict[Seats, dict[str, tuple[int, int]]] = {
    seats_of(4): {"W": (0, -1), "N": (-1, 0), "S": (1, 0), "E": (0, 1)},
    seats_of(3): {"W": (-1, 0), "S": (1, 0), "E": (0, 1)},
    seats_of(2): {"E": (-1, 0), "S": (1, 0)},
}
COLUMNS = (-1, 0, 1)
# A cell's name (its class on the page), by its place: the rows above, through and below the middle.
CELL_NAMES = {
    (-1, -1): "tl",
    (0, -1): "t",
    (1, -1): "tr",
    (-1, 0): "l",
    (0, 0): "c",
    (1, 0): "r",
    (-1, 1): "bl",
    (0, 1): "b",
    (1, 1): "br",
}
ARROWS = {(0, -2): "↑", (0, 2): "↓", (2, 0): "→", (-2, 0): "←", (1, -1): "↗", (1, 1): "↘", (-1, 1): "↙", (-1, -1): "↖"}


def picture_cells(seats: Seats) -> tuple[str, ...]:
    """The names of the picture's cells for a table of `seats`, row by row: the rows its seats sit in, three
    columns each."""
    rows = sorted({y for _x, y in PLACES[seats].values()})
    return tuple(CELL_NAMES[(x, y)] for y in rows for x in COLUMNS)


class Cell:
    """One of the nine cells of the who-pays picture; `kind` names the template's branch."""

    __slots__ = ()
    kind: ClassVar[str]


@dataclass(slots=True)
class Role:
    code: str
    label: str


@dataclass(slots=True)
class SeatCell(Cell):
    """A seat in the who-pays picture: its label, the player's name, the net (signed text and number), its
    roles and, where the game splits nets into parts (Ruleset.parts), the net part by part."""

    kind: ClassVar[str] = "seat"
    pos: str
    seat: str
    label: str
    name: str
    roles: list[Role]
    net: int
    net_text: str
    sign: str
    parts: str
    says: str = ""  # the cell as one sentence, what a screen reader says instead of its pieces


@dataclass(slots=True)
class ArrowCell(Cell):
    """A payer's arrow towards the winner: the amount, what it carries of each part when it carries more than one
    (Ruleset.parts), and the sentence a screen reader says instead of the arrow."""

    kind: ClassVar[str] = "arrow"
    pos: str
    arrow: str
    amount: int
    parts: list[str]
    says: str


@dataclass(slots=True)
class EmptyCell(Cell):
    """A place of the who-pays picture with nothing in it."""

    kind: ClassVar[str] = "empty"
    pos: str


@dataclass(slots=True)
class PaymentRow:
    """One row of "every payment"; `part` is empty where no part tag is shown (a game without parts, a reason that
    names its part)."""

    payer: str
    payee: str
    amount: int
    reason: str
    part: str
    part_label: str


def compass(answer: dict, names: dict[str, str], labels: dict, said: dict, locale: Locale) -> list[Cell]:
    """The cells of the who-pays picture, row by row: the answer's seats (its `net`'s), each payer's arrow towards
    the winner (in the cell between them), the empty places. Where the game splits nets into parts (bazhi's fan and
    jiao) each seat shows its net part by part, and an arrow what it carries of each part when it carries more
    than one."""
    _ = locale.gettext
    request = answer["request"]
    winner = request["winner"]
    parts = RULESETS[answer["ruleset"]].parts
    net = answer["net"]
    by_part = answer.get("net_by_part") or {}
    seat_roles = {
        "win": winner,
        "dealer": request["dealer"],
        "discarder": request["discarder"],
        "bao": answer.get("bao"),
    }
    seats = in_play_order(net)
    places = PLACES[seats]
    cells: dict[str, Cell] = {}
    for seat in seats:
        pos = CELL_NAMES[places[seat]]
        # a narrow cell breaks at the dot only
        shown = " · ".join(
            f"{part.label(locale.lang)}\u00a0{signed(by_part.get(part.id, {}).get(seat, 0))}" for part in parts
        )
        roles = [Role(code, said["roles"][code]) for code, holder in seat_roles.items() if holder == seat]
        label = said["seats"][seat]
        cells[pos] = SeatCell(
            pos,
            seat,
            label,
            names.get(seat, ""),
            roles,
            net[seat],
            signed(net[seat]),
            sign_class(net[seat]),
            shown,
            seat_says(labels[seat], roles, signed(net[seat]), shown, locale),
        )

    totals: dict[str, int] = {}  # what each payer pays the winner, in all and per part
    paid: dict[str, dict[str, int]] = {}
    ids = [part.id for part in parts]
    for p in answer["payments"]:
        totals[p["from"]] = totals.get(p["from"], 0) + p["amount"]
        if ids:
            of_payer = paid.setdefault(p["from"], dict.fromkeys(ids, 0))
            of_payer[p["part"] if p["part"] in of_payer else ids[0]] += p["amount"]
    wx, wy = places[winner]
    for payer, total in totals.items():
        px, py = places[payer]
        pos = CELL_NAMES[(px + wx, py + wy)]
        of_payer = paid.get(payer, {})
        several = sum(1 for amount in of_payer.values() if amount) > 1
        carried = [f"{part.label(locale.lang)} {of_payer[part.id]}" for part in parts] if several else []
        says = _("%(payer)s pays %(winner)s %(amount)d") % {
            "payer": labels[payer],
            "winner": labels[winner],
            "amount": total,
        }
        if carried:
            comma = locale.pgettext("between the items of a list", ", ")
            says = _("%(sentence)s (%(parts)s)") % {"sentence": says, "parts": comma.join(carried)}
        cells[pos] = ArrowCell(pos, ARROWS[(wx - px, wy - py)], total, carried, says)
    return [cells.get(pos) or EmptyCell(pos) for pos in picture_cells(seats)]


def seat_says(who: str, roles: list[Role], net: str, parts: str, locale: Locale) -> str:
    """A seat of the picture as one sentence: "South · 小王, Winner, Dealer: +19 (fan +19 · jiao 0)"."""
    _ = locale.gettext
    comma = locale.pgettext("between the items of a list", ", ")
    sentence = _("%(seat)s: %(net)s") % {"seat": comma.join([who, *(role.label for role in roles)]), "net": net}
    return _("%(sentence)s (%(parts)s)") % {"sentence": sentence, "parts": parts} if parts else sentence


def payment_rows(answer: dict, labels: dict, lang: str) -> list[PaymentRow]:
    """Every transfer: from, to, amount, why, and the part it is paid in where the game splits nets in parts and
    the reason does not already end by saying it (a reason "番", or "包牌（代东家）：番", is not tagged 番 again)."""
    part_labels = {part.id: part.label(lang) for part in RULESETS[answer["ruleset"]].parts}
    rows = []
    for p in answer["payments"]:
        label = part_labels.get(p["part"], "")
        if p["reason"] == label or p["reason"].endswith(("：" + label, ": " + label)):
            label = ""
        part = p["part"] if label else ""
        rows.append(PaymentRow(labels[p["from"]], labels[p["to"]], p["amount"], p["reason"], part, label))
    return rows
