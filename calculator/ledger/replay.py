"""A table's log folded into its account: every number recomputed from the stored results and cards (the database
stores the state after every entry; a replay verifies it)."""

from __future__ import annotations

from collections.abc import Mapping

from calculator.ledger.card import Card
from calculator.ledger.config import TableConfig
from calculator.ledger.entries import apply_card, apply_draw, apply_hand, apply_leave, apply_next
from calculator.ledger.state import State, start


def apply(state: State, entry: Mapping, cards: Mapping[int, Card] | None = None) -> dict:
    """One stored entry applied to the state (a replay). A hand must have been scored under the card in force."""
    kind = entry.get("kind")
    if kind == "hand":
        version = entry.get("card_version", state.card.version)
        if version != state.card.version:
            raise ValueError(f"hand scored under card {version}, but card {state.card.version} is in force")
        return apply_hand(state, entry["result"])
    if kind == "draw":
        return apply_draw(state)
    if kind == "leave":
        return apply_leave(state, entry.get("seat"))
    if kind == "next":
        return apply_next(state)
    if kind == "card":
        return apply_card(state, (cards or {})[entry["card_version"]])
    raise ValueError(f"unknown ledger entry {kind!r}")


def replay(config: TableConfig, entries: list[Mapping], cards: Mapping[int, Card] | None = None) -> State:
    """The table's state after its log, every number recomputed from the stored results and cards."""
    state = start(config)
    for entry in entries:
        apply(state, entry, cards)
    return state
