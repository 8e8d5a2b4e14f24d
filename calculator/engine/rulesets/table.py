"""What a game's table rules are (RULES.md §1.7, §2.6, §3): the ledger keeps a table's account with them.

Each ruleset package has a `table.py` that subclasses `TableRules`: its declarations (the stake, the words for a
底 game / 局, which payments are kept outside, the reasons a game ends) as data, and a few small functions that
apply its rules to a table's account (`Book`). The ledger (`calculator.ledger`) does the bookkeeping and never
asks which game it keeps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Protocol

from ..text import Text
from ..tiles import SEATS, seats_after
from .declarations import EndReason, StakeRule


class CardFacts(Protocol):
    """What the table rules read of a table's rule card (the ledger's `Card`)."""

    @property
    def options(self) -> Mapping: ...  # the table's options, `house` (every house rule) included

    @property
    def stake(self) -> int | None: ...

    @property
    def multiplier(self) -> int: ...


class Book(Protocol):
    """A table's account as the table rules may change it (the ledger's `State`)."""

    @property
    def balances(self) -> Mapping[str, int]: ...  # what is left of each stake (or running totals)

    def pay_rows(self, rows: list[dict], capped: bool) -> None:
        """Apply a win's payment rows: each capped at what the payer has left when `capped` (rows of the
        parts in `TableRules.outside_parts` are kept outside and never capped)."""

    def transfer(self, payer: str, payee: str, amount: int, code: str, reason: str, outside: bool = False) -> None:
        """One payment the table adds (通底, 全缴, a leaving penalty), uncapped."""

    def end(self, reason: str) -> None:
        """The 底 game / 局 is over (`reason` one of the game's `end_reasons`)."""


class TableRules(ABC):
    """One game's table rules. Subclasses set the declarations and implement `settle` and `keeps_deal`."""

    stake: StakeRule
    game: Text  # what one game of stakes is called: 底 / 局
    game_number: Text  # "第 {n} 底" / "底 game {n}"
    next_game: Text  # the button that starts the next one with fresh stakes
    balance_label: Text  # the column of what is left of the stake
    ordinary_balance_label: Text  # the same column at a table without a stake (running totals)
    outside_label: Text | None = None  # the column of payments kept outside the stake (bazhi 交), if any
    outside_parts: frozenset[str] = frozenset()  # payment parts kept outside the stake, never capped
    end_reasons: tuple[EndReason, ...]
    parts: Mapping[str, Text]  # every payment part a table's rows may carry (the engine's and the table's own)
    streak_option: str | None = None  # the per-hand option the table fills with its dealer's streak
    multiplier_label: Text | None = None  # the table's multiplier (a leaving penalty's factor), if it has one
    leave_label: Text | None = None  # a player leaving mid-game, if the game has a penalty for it

    # ------------------------------------------------------------------------------ the stake

    def default_stake(self, options: Mapping) -> int | None:
        """The stake a table gets when it names none."""
        return self.stake.default

    def is_room(self, stake: int | None) -> bool:
        """Whether the table plays for stakes that run out (a 底 game, a 冲击 room), or keeps running totals."""
        return stake is not None

    @abstractmethod
    def title(self, options: Mapping, stake: int | None) -> Text:
        """The table's game in a few words: the page's heading."""

    # ------------------------------------------------------------------------------ the hands

    @abstractmethod
    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """Apply a scored win (an engine answer with `win: true`) to the account, and end the game if it ends."""

    @abstractmethod
    def keeps_deal(self, result: dict) -> bool:
        """Whether the dealer keeps the deal after this win (the streak grows); else the 下家 deals, streak 1."""

    def keeps_deal_on_draw(self, card: CardFacts) -> bool:
        """After a drawn hand (流局): the house rule `draw_dealer` (RULES.md §5), which every game declares."""
        return card.options["house"]["draw_dealer"] == "keep"

    def leave(self, book: Book, seat: str, dealer_streak: int, card: CardFacts) -> None:
        """A player leaves mid-game: the penalty (only a game with a `leave_label` has one)."""
        raise NotImplementedError(f"{type(self).__name__} has no penalty for leaving")

    # ------------------------------------------------------------------------------ what a page shows of a hand

    @abstractmethod
    def hand_facts(self, result: dict) -> list[Text]:
        """The few numbers that decided a recorded hand (番 / 交, or 龙 / P), in both languages."""


def penalty_shares(seat: str, amount: int) -> dict[str, int]:
    """[reading RULES.md §2.6] A penalty goes to the other three: amount ÷ 3 rounded down each, the remainder to
    the first of them in play order after the leaver."""
    others = seats_after(seat)
    shares = dict.fromkeys(others, amount // 3)
    shares[others[0]] += amount % 3
    return shares


def losers_of(result: dict) -> list[str]:
    winner = result["request"]["winner"]
    return [seat for seat in SEATS if seat != winner]
