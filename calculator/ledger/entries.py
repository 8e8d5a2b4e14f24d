"""Applying one entry to a table's account (RULES.md §3): a scored win, a draw, a player leaving, the next 底 game /
局, a new rule card. Each returns the log entry: what moved (after caps) and the state after it."""

from __future__ import annotations

from calculator.engine.seats import Seats, next_seat
from calculator.engine.text import msg
from calculator.ledger.card import Card
from calculator.ledger.config import refuse_no_seat
from calculator.ledger.errors import LedgerError
from calculator.ledger.state import State, fresh_stakes, zero


def refuse_if_ended(state: State) -> None:
    if state.status == "ended":
        raise LedgerError("game_over", msg("this 底 game / 局 is over: start the next one first"))


def _net(rows: list[dict], seats: Seats) -> dict[str, int]:
    net = zero(seats)
    for row in rows:
        net[row["from"]] -= row["amount"]
        net[row["to"]] += row["amount"]
    return net


def streak_mismatch(state) -> LedgerError:
    """A request whose dealer streak is not the table's (the table keeps the streak, RULES.md §2.6)."""
    return LedgerError(
        "dealer_mismatch",
        msg("the dealer's streak is {streak}", streak=state.dealer_streak),
        f"options.{state.card.table.streak_option}",
    )


def _pass_deal(state: State) -> None:
    """The deal passes to the dealer's 下家 among the table's seats (E → S → W → E at a table of three)."""
    state.dealer, state.dealer_streak = next_seat(state.dealer, state.seats), 1


def apply_hand(state: State, result: dict) -> dict:
    """Record one scored win; returns the log entry (what moved, after caps, and the state after)."""
    refuse_if_ended(state)
    if not isinstance(result, dict) or result.get("win") is not True:
        raise LedgerError("not_a_win", msg("only a win can be recorded"))
    request = result["request"]
    if request["dealer"] != state.dealer:
        raise LedgerError("dealer_mismatch", msg("the dealer is {seat}", seat=state.dealer), "dealer")
    table = state.card.table
    if table.streak_option and request["options"].get(table.streak_option, 1) != state.dealer_streak:
        raise streak_mismatch(state)
    before = _begin(state)
    table.settle(state, result, state.card)
    if table.keeps_deal(result):
        state.dealer_streak += 1
    else:
        _pass_deal(state)
    state.hands += 1
    state.played += 1
    return _log(state, "hand", before, n=state.hands, winner=request["winner"], card_version=state.card.version)


def apply_draw(state: State) -> dict:
    """流局: no payments; the deal as the card's draw_dealer says (RULES.md §5) [reading L9]."""
    refuse_if_ended(state)
    before = _begin(state)
    if not state.card.table.keeps_deal_on_draw(state.card):
        _pass_deal(state)
    state.events += 1
    state.played += 1
    return _log(state, "draw", before)


def apply_leave(state: State, seat: object) -> dict:
    """A player leaves mid-game: the game's penalty (RULES.md §2.6), where it has one."""
    table = state.card.table
    if table.leave_label is None:
        title = state.card.rules.title
        raise LedgerError("not_available", msg("{game} has no penalty for leaving", game=title))
    refuse_no_seat(seat, state.seats, "seat", msg("the seat"))
    refuse_if_ended(state)
    before = _begin(state)
    table.leave(state, seat, state.dealer_streak, state.card)
    state.events += 1
    state.played += 1
    return _log(state, "leave", before, seat=seat)


def apply_next(state: State) -> dict:
    """Start the next 底 game / 局 with fresh stakes; outside and totals carry on [readings L2, L3, L8]."""
    if not state.card.is_room:
        raise LedgerError(
            "not_available", msg("an ordinary table has no stake to restart (balances are running totals)")
        )
    before = _begin(state)
    state.game += 1
    fresh_stakes(state)
    state.events += 1
    state.played = 0
    return _log(state, "next", before)


def card_locked() -> LedgerError:
    return LedgerError(
        "card_locked",
        msg("this 底 game / 局 has entries already: the rules can change only before its first hand or after “next”"),
    )


def apply_card(state: State, card: Card) -> dict:
    """A new rule card (API.md), only while the current 底 game / 局 has no hand, draw or leave [reading L10]."""
    if state.played:
        raise card_locked()
    before = _begin(state)
    state.card = card
    fresh_stakes(state)
    state.events += 1
    return _log(state, "card", before, card_version=card.version)


def _begin(state: State) -> dict:
    state.rows = []
    return dict(state.balances)


def _log(state: State, kind: str, before: dict, **extra) -> dict:
    rows = state.rows
    state.rows = []
    entry = {
        "kind": kind,
        **extra,
        "applied": _net(rows, state.seats),
        "rows": rows,
        "balances_before": before,
        **state.to_dict(),
    }
    state.log.append(entry)
    return entry
