"""A table's account after some entries (`State`): the `Book` the game's table rules write to, and how a table
starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from calculator.engine.seats import Seats
from calculator.ledger.card import Card
from calculator.ledger.config import TableConfig


def zero(seats: Seats) -> dict[str, int]:
    return dict.fromkeys(seats, 0)


@dataclass
class State:
    """A table's account after some entries. It is the `Book` the game's table rules write to."""

    config: TableConfig
    card: Card
    game: int = 1
    balances: dict = field(default_factory=dict)  # each of the table's seats (`start` fills them)
    outside: dict = field(default_factory=dict)
    totals: dict = field(default_factory=dict)
    status: str = "playing"
    ended_reason: str | None = None
    dealer: str = "E"
    dealer_streak: int = 1
    hands: int = 0  # scored hands over the whole table (a hand's n)
    events: int = 0  # draws, leaves, next and card changes
    played: int = 0  # hands, draws and leaves in the current 底 game / 局: the card is locked while > 0
    log: list = field(default_factory=list)  # the entries applied to this state object (a replay's record)
    rows: list = field(default_factory=list)  # what the entry being applied moved

    @property
    def entries(self) -> int:
        return self.hands + self.events

    @property
    def seats(self) -> Seats:
        """The table's seats, in play order (its card's)."""
        return self.config.seats

    def to_dict(self) -> dict:
        """The state as stored after every entry (and on the table row)."""
        return {
            "game": self.game,
            "balances": dict(self.balances),
            "outside": dict(self.outside),
            "totals": dict(self.totals),
            "status": self.status,
            "ended_reason": self.ended_reason,
            "dealer": self.dealer,
            "dealer_streak": self.dealer_streak,
            "hands_total": self.hands,
            "events_total": self.events,
            "played": self.played,
            "card_version": self.card.version,
        }

    @classmethod
    def from_dict(cls, config: TableConfig, card: Card, data: Mapping) -> State:
        return cls(
            config=config,
            card=card,
            game=data["game"],
            balances=dict(data["balances"]),
            outside=dict(data["outside"]),
            totals=dict(data["totals"]),
            status=data["status"],
            ended_reason=data["ended_reason"],
            dealer=data["dealer"],
            dealer_streak=data["dealer_streak"],
            hands=data["hands_total"],
            events=data["events_total"],
            played=data["played"],
        )

    # ------------------------------------------------------------------------------ Book

    def pay_rows(self, rows: list[dict], capped: bool) -> None:
        """Apply the engine's payment rows; [reading L1] each row capped at what the payer has left. Rows of the
        game's outside parts (bazhi 交, RULES.md §1.5) are kept outside and never capped."""
        outside_parts = self.card.table.outside_parts
        for row in rows:
            payer, payee, owed, part = row["from"], row["to"], row["amount"], row.get("part")
            outside = part in outside_parts
            amount = owed if outside or not capped else min(owed, max(self.balances[payer], 0))
            self._move(payer, payee, amount, owed, outside, row.get("code", ""), row.get("reason", ""), part)
            if "on_behalf_of" in row:
                self.rows[-1]["on_behalf_of"] = row["on_behalf_of"]

    def transfer(self, payer: str, payee: str, amount: int, code: str, reason: str, outside: bool = False) -> None:
        self._move(payer, payee, amount, amount, outside, code, reason, code)

    def end(self, reason: str) -> None:
        self.status, self.ended_reason = "ended", reason

    def _move(self, payer, payee, amount, owed, outside, code, reason, part) -> None:
        book = self.outside if outside else self.balances
        book[payer] -= amount
        book[payee] += amount
        self.totals[payer] -= amount
        self.totals[payee] += amount
        self.rows.append(
            {
                "from": payer,
                "to": payee,
                "amount": amount,
                "owed": owed,
                "column": "outside" if outside else "balance",
                "code": code,
                "reason": reason,
                "part": part,
            }
        )


def start(config: TableConfig) -> State:
    seats = config.seats
    state = State(config=config, card=config.card, dealer=config.dealer, outside=zero(seats), totals=zero(seats))
    fresh_stakes(state)
    return state


def fresh_stakes(state: State) -> None:
    stake = state.card.stake if state.card.is_room else 0
    state.balances = dict.fromkeys(state.seats, stake)
    state.status, state.ended_reason = "playing", None
