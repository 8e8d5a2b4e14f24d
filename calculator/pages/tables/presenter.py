"""What the ledger's pages show, built from the stored account and entries (no replay) and the rulesets'
declarations: the seats, the rule card, the history, the chart of totals. Markup stays in templates/ledger/."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from calculator.engine.rulesets.declarations import Option
from calculator.engine.seats import Seats
from calculator.ledger import Card, State, apply_draw, apply_next
from calculator.models import Event, Hand, Table
from calculator.presentation.handquery import field_text
from calculator.presentation.words import player_names, seat_labels, signed


def seats(table: Table, state: State, lang: str) -> list[dict]:
    seat_words = seat_labels(lang)
    names = player_names(table.players, lang)
    return [
        {
            "seat": s,
            "seat_name": seat_words[s],
            "name": names[s],
            "balance": state.balances[s],
            "balance_text": signed(state.balances[s], plus=False),
            "outside": state.outside[s],
            "outside_text": signed(state.outside[s], plus=False),
            "total": state.totals[s],
            "total_text": signed(state.totals[s]),
            "dealer": s == state.dealer,
            "out": state.card.is_room and state.balances[s] <= 0,
        }
        for s in state.seats  # the table's, in play order (a stored map's key order is the database's)
    ]


def settlement_rows(table: Table, transfers: list[dict], lang: str) -> list[dict]:
    names = player_names(table.players, lang)
    return [{**t, "from_name": names[t["from"]], "to_name": names[t["to"]]} for t in transfers]


def after_actions(table: Table, state: State, lang: str) -> dict:
    """What a drawn hand and the next 底 game / 局 would leave the table with, worked out on a copy of its account
    by the ledger itself: the page asks before either is recorded and says it (issue 21 §5). `draw` while the game
    is played: the next dealer and whether the dealer keeps the deal; `next` at a table with stakes: the game it
    starts, the stake every balance starts again at, and whether the game being played is unfinished."""
    names = player_names(table.players, lang)
    after: dict = {}
    if state.status == "playing":
        drawn = State.from_dict(state.config, state.card, state.to_dict())
        apply_draw(drawn)
        after["draw"] = {"dealer": names[drawn.dealer], "keeps": drawn.dealer == state.dealer}
    if state.card.is_room:
        fresh = State.from_dict(state.config, state.card, state.to_dict())
        apply_next(fresh)
        after["next"] = {
            "game": state.card.table.game_number(lang).format(n=fresh.game),
            "word": state.card.table.game(lang),  # 底 game / 局
            "stake": signed(fresh.balances[fresh.seats[0]], plus=False),
            "unfinished": state.status == "playing" and state.played > 0,
        }
    return after


# ---------------------------------------------------------------------------------------------------------
# The rule card


@dataclass(frozen=True)
class CardLine:
    label: str
    value: str


def offers_a_choice(option: Option) -> bool:
    """Whether a table option has something to choose: not a choice of one value (xinyu's `players`, 4 only)."""
    return not (option.kind == "choice" and len(option.choices) == 1)


def rule_card_lines(card: Card, lang: str) -> list[CardLine]:
    """The card as the table page shows it: the game, its options, the stake, the multiplier, and every house rule
    that differs from the default (the defaults are RULES.md's readings, linked from the page)."""
    rules, table = card.rules, card.table
    lines = [CardLine(rules.title(lang), table.title(card.options, card.stake)(lang))]
    for option in rules.table_options:
        if not offers_a_choice(option):
            continue  # nothing was chosen (xinyu's four players)
        value = card.options[option.id]
        shown = next((c.label(lang) for c in option.choices if c.value == value), None)
        if shown is None:
            shown = _("yes") if value else _("no")
        lines.append(CardLine(option.label(lang), shown))
    stake = table.stake
    lines.append(CardLine(stake.label(lang), str(card.stake) if card.stake is not None else stake.none(lang)))
    if table.multiplier_label:
        lines.append(CardLine(table.multiplier_label(lang), f"× {card.multiplier}"))
    for rule in rules.house:
        value = card.house[rule.id]
        if field_text(value) != field_text(rule.default):
            lines.append(CardLine(rule.label(lang), rule.choice(value).label(lang)))
    return lines


# ---------------------------------------------------------------------------------------------------------
# The history


# Values, not dicts: the history is drawn by Jinja2 (jinja2/history.html), which reads `item.kind` as an attribute
# first and a key only after that attribute failed: a hundred entries' fields cost twice the time as dict keys.


@dataclass(frozen=True, slots=True)
class HandLine:
    """A recorded hand as its history entry says it: who won on whose discard, the tiles, the flags, the facts."""

    winner: str
    discarder: str | None
    tiles: str
    flags: list[str]  # in words
    facts: list[str]


@dataclass(frozen=True, slots=True)
class MovedRow:
    """One transfer an entry made, as the history and the record preview show it."""

    code: str | None
    column: str | None
    amount: int
    owed: int
    reason: str
    from_name: str
    to_name: str
    capped: bool  # less was paid than owed (a cap)


@dataclass(frozen=True, slots=True)
class Net:
    """One seat's change in an entry."""

    seat: str
    name: str
    value: int
    text: str  # signed: "+19", "−7", "0"


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One entry of a table's history (jinja2/history.html, entry_line.html)."""

    seq: int
    game: int
    card_version: int
    kind: str  # "hand", or the event's kind
    applied: list[Net]
    rows: list[MovedRow]
    n: int | None = None  # a hand's number
    hand: HandLine | None = None
    seat_name: str | None = None  # who left
    game_text: str | None = None  # the game a "next" or a new card starts


def describe_hand(hand: Hand, table: Table, card: Card, lang: str) -> HandLine:
    request = hand.result["request"]
    players = player_names(table.players, lang)
    discarder = request.get("discarder")
    tiles = [request.get("hand", "")] + [m["tiles"] for m in request.get("melds", [])] + ["+" + request["win_tile"]]
    facts = [fact(lang) for fact in card.table.hand_facts(hand.result)]
    if hand.result.get("bao"):
        name = players[hand.result["bao"]]
        facts.append(_("liable: %(name)s pays for all") % {"name": name})
    return HandLine(
        winner=players[request["winner"]],
        discarder=players[discarder] if discarder else None,
        tiles=" ".join(tiles),
        flags=[card.rules.flag_by_id[f].label(lang) for f in request.get("flags", [])],
        facts=facts,
    )


def row_reason(card: Card, row: Mapping, result: Mapping | None, lang: str, players: Mapping[str, str]) -> str:
    """Why a stored row moved, in the page's language: said again from its code (the engine's rows by the game,
    the table's own by its parts), whatever language the hand was recorded in; the stored text for a code neither
    knows."""
    said = card.rules.payment_reason(row, result, lang, players.__getitem__) if result else None
    if said is None:
        said = card.table.row_reason(row.get("code", ""), lang)
    return row.get("reason", "") if said is None else said


def moved_rows(
    card: Card, rows: list[dict], result: Mapping | None, lang: str, players: Mapping[str, str]
) -> list[MovedRow]:
    """The rows an entry moved, as the history and the record preview show them."""
    return [
        MovedRow(
            code=r.get("code", ""),
            column=r.get("column"),
            amount=r["amount"],
            owed=r["owed"],
            reason=row_reason(card, r, result, lang, players),
            from_name=players[r["from"]],
            to_name=players[r["to"]],
            capped=r["amount"] < r["owed"],
        )
        for r in rows
    ]


def history_item(entry: Hand | Event, table: Table, cards: Mapping[int, Card], lang: str) -> HistoryItem:
    players = player_names(table.players, lang)
    card = cards[entry.card_version]
    common = {
        "seq": entry.seq,
        "game": entry.after["game"],
        "card_version": entry.card_version,
        "applied": [Net(s, players[s], entry.applied[s], signed(entry.applied[s])) for s in card.seats],
    }
    if isinstance(entry, Hand):
        rows = moved_rows(card, entry.rows, entry.result, lang, players)
        return HistoryItem(**common, kind="hand", rows=rows, n=entry.n, hand=describe_hand(entry, table, card, lang))
    return HistoryItem(
        **common,
        kind=entry.kind,
        rows=moved_rows(card, entry.rows, None, lang, players),
        seat_name=players[entry.seat] if entry.kind == Event.LEAVE else None,
        game_text=(
            card.table.game_number(lang).format(n=entry.after["game"])
            if entry.kind in (Event.NEXT, Event.CARD)
            else None
        ),
    )


# ---------------------------------------------------------------------------------------------------------
# The chart

MARKERS = 24  # at most this many markers per line, evenly spaced


def chart(table: Table, seats: Seats, series: list[dict], lang: str) -> dict | None:
    """A line chart of the total of each of the table's `seats` over the table (`series`: the totals before the
    first entry and after every entry, calculator.tables.snapshot), as SVG coordinates (no JavaScript). Each player
    has a colour, a dash pattern and a marker shape of its own, so lines that run together stay apart."""
    if len(series) < 2:
        return None
    values = [v for point in series for v in point.values()]
    low, high = min(values + [0]), max(values + [0])
    if high == low:
        high = low + 1
    width, height, left, right, top, bottom = 360, 200, 40, 10, 10, 22
    tick_x = left - 4  # where the tick labels end
    inset = 7  # the first point stands clear of them: a marker (jinja2/chart.html) is 9 wide
    step = (width - left - inset - right) / (len(series) - 1)

    def x(i: int) -> float:
        return round(left + inset + i * step, 1)

    scale = (height - top - bottom) / (high - low)

    def y(value: int) -> float:
        return round(top + (high - value) * scale, 1)

    every = max(1, -(-(len(series) - 1) // MARKERS))
    marked = sorted({*range(0, len(series), every), len(series) - 1})
    xs = [f"{x(i)}," for i in range(len(series))]  # shared by the lines (a 1,000-entry table has 1,001 points)
    lines = []
    names = player_names(table.players, lang)
    for seat in seats:
        points = " ".join(
            [px + str(round(top + (high - point[seat]) * scale, 1)) for px, point in zip(xs, series, strict=True)]
        )
        markers = [{"x": x(i), "y": y(series[i][seat])} for i in marked]
        last = series[-1][seat]
        lines.append({"seat": seat, "points": points, "markers": markers, "name": names[seat], "last": signed(last)})
    ticks = sorted({low, high, *([0] if low < 0 < high else [])})
    label_every = max(1, -(-(len(series) - 1) // 10))
    labels = [{"x": x(i), "text": str(i)} for i in range(label_every, len(series), label_every)]
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "ticks": [{"value": signed(t, plus=False), "y": y(t)} for t in ticks],
        "labels": labels,
        "left": left,
        "tick_x": tick_x,
        "right": width - right,
        "label_y": height - 6,
        "zero_y": y(0),
    }
