"""A ledger table in the phone (issue 22): the hands recorded without network are scored and booked here by the
server's own ledger (calculator/ledger, pure Python), against the table as this phone last saw it (its JSON as
`GET /api/tables/<id>` or a write answers it) and then against each hand it queued before.

Every function takes and gives JSON-able values (the worker passes text): `table` is the table's JSON (a state as
the API writes it); a `hand` is the calculator's fields of one hand (its query string).
"""

from __future__ import annotations

from collections.abc import Mapping

from calculator import ledger
from calculator.engine import score
from calculator.presentation.handquery import parse_query
from calculator.presentation.table_fields import Fixed, calculator_fields, fixed_query

RECORDED = ("hand", "win_tile", "melds", "winner", "discarder", "flags")  # what a hand is, the table aside


def state_of(table: Mapping) -> ledger.State:
    """The ledger's state of the table's JSON (what the table decides for the next hand, and its books). The JSON
    does not say how many entries the current game has (`played`: it only locks the rule card, which no hand
    changes)."""
    card = ledger.Card.from_dict(table["card"])
    config = ledger.TableConfig(card, dict(table["players"]), table["first_dealer"])
    return ledger.State.from_dict(config, card, {**table, "played": 0})


def fixed_fields(table: Mapping) -> dict:
    """The calculator's fields this table decides, as the server's bound calculator fixes them."""
    return calculator_fields(state_of(table), table["players"])


def with_table(query, table: Mapping) -> Fixed:
    """The calculator's fields with those the table decides put in (a checkbox: checked or absent)."""
    return fixed_query(query, fixed_fields(table))


def record(table: Mapping, hand: Mapping, lang: str) -> dict:
    """One hand booked against the table: {request, net, payments, seats, table} with the table's seats in play
    order (what the phone's queue lists the nets by) and the table's JSON after it (dealer, streak and books
    moved; version untouched: it is the server's), or {error} as the server would refuse it (not a win, a table
    over, ...)."""
    state = state_of(table)
    try:
        request = ledger.prepare_request(state, {k: hand[k] for k in RECORDED if k in hand})
        result = score(request, lang)
        ledger.check_win(result, lang)
        ledger.apply_hand(state, result)
    except ledger.LedgerError as error:
        return error.to_dict(lang)
    after = {**table, **{k: v for k, v in state.to_dict().items() if k in table}}
    return {
        "request": result["request"],
        "net": result["net"],
        "payments": result["payments"],
        "seats": list(state.seats),
        "table": after,
    }


def hand_of(query) -> dict:
    """The hand (its recorded fields) of the calculator's fields."""
    return {k: v for k, v in parse_query(query).request.items() if k in RECORDED}
