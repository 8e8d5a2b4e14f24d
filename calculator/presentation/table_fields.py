"""The calculator's fields a ledger table decides (issue 12 §2): the game, the dealer, the card's options and
house rules, the dealer's streak, the players' names. Plain Python: the server binds its calculator with it, and
the phone its offline one (issue 22, calculator/offline/table.py)."""

from __future__ import annotations

from collections.abc import Mapping

from calculator import ledger
from calculator.presentation.handquery import field_text


def calculator_fields(state: ledger.State, players: Mapping[str, str]) -> dict:
    card = state.card
    fixed: dict = {"ruleset": card.ruleset, "dealer": state.dealer}
    fixed.update({option.id: card.options[option.id] for option in card.rules.table_options})
    fixed.update({f"house_{rule.id}": field_text(card.house[rule.id]) for rule in card.rules.house})
    if card.table.streak_option:
        fixed[card.table.streak_option] = state.dealer_streak
    fixed.update({f"name_{s}": "" if players[s] == ledger.DEFAULT_NAMES[s] else players[s] for s in state.seats})
    return fixed
