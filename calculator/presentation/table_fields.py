"""The calculator's fields a ledger table decides (issue 12 §2): the game, the dealer, the card's options and
house rules, the dealer's streak, the players' names; and a page's fields with them put in (`fixed_query`). Plain
Python: the server binds its pages with it (the page of who takes a discard), and the phone its offline calculator
(issue 22, calculator/offline/table.py)."""

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


def fixed_query(query, fixed: Mapping[str, object]) -> Fixed:
    """A page's fields with those the table decides put in (a checkbox: checked or absent)."""
    return Fixed(query, {k: (["on"] if v else []) if isinstance(v, bool) else [str(v)] for k, v in fixed.items()})


class Fixed:
    """A query whose table-decided keys are replaced (a `Query`: what the server's `with_fixed` does with a
    QueryDict)."""

    def __init__(self, query, fixed: dict[str, list[str]]) -> None:
        self.query, self.fixed = query, fixed

    def get(self, key: str, default: str | None = None) -> str | None:
        if key in self.fixed:
            values = self.fixed[key]
            return values[-1] if values else default
        return self.query.get(key, default)

    def getlist(self, key: str) -> list[str]:
        return list(self.fixed[key]) if key in self.fixed else self.query.getlist(key)
