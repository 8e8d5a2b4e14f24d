"""What a game's table rules are (RULES.md §1.7, §2.6, §3): the ledger keeps a table's account with them.

Each ruleset package declares its table in the `[table]` section of its declarations.toml (the stake, the words
for a 底 game / 局, which payments are kept outside, the reasons a game ends: `TableDeclared`) and has a
`table.py` that subclasses `TableRules` with the few small functions that apply its rules to a table's account
(`Book`). The ledger (`calculator.ledger`) does the bookkeeping and never asks which game it keeps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Protocol

from ..seats import Seats, seats_after
from ..text import Said, Text
from .declarations import EndReason, StakeRule, TableDeclared


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
    def seats(self) -> Seats: ...  # the table's seats, in play order (its card's `players`)

    @property
    def balances(self) -> Mapping[str, int]: ...  # what is left of each stake (or running totals)

    def pay_rows(self, rows: list[dict], capped: bool) -> None:
        """Apply a win's payment rows: each capped at what the payer has left when `capped` (rows of the
        parts in `outside_parts` are kept outside and never capped)."""

    def transfer(self, payer: str, payee: str, amount: int, code: str, reason: str, outside: bool = False) -> None:
        """One payment the table adds (通底, 全缴, a leaving penalty), uncapped; `code` is its part."""

    def end(self, reason: str) -> None:
        """The 底 game / 局 is over (`reason` one of the game's `end_reasons`)."""


class TableRules(ABC):
    """One game's table rules: its declarations (`declared`, from declarations.toml) and its functions."""

    declared: TableDeclared

    # ------------------------------------------------------------------------------ the declarations

    stake: StakeRule = property(lambda self: self.declared.stake)
    game: Text = property(lambda self: self.declared.game)
    game_number: Text = property(lambda self: self.declared.game_number)
    next_game: Text = property(lambda self: self.declared.next_game)
    balance_label: Text = property(lambda self: self.declared.balance_label)
    ordinary_balance_label: Text = property(lambda self: self.declared.ordinary_balance_label)
    outside_label: Text | None = property(lambda self: self.declared.outside_label)
    outside_help: Text | None = property(lambda self: self.declared.outside_help)
    outside_parts: frozenset[str] = property(lambda self: self.declared.outside_parts)
    parts: Mapping[str, Text] = property(lambda self: self.declared.parts)
    end_reasons: tuple[EndReason, ...] = property(lambda self: self.declared.end_reasons)
    streak_option: str | None = property(lambda self: self.declared.streak_option)
    multiplier_label: Text | None = property(lambda self: self.declared.multiplier_label)
    leave_label: Text | None = property(lambda self: self.declared.leave_label)

    def title(self, options: Mapping, stake: int | None) -> Text:
        """The table's game in a few words: the page's heading."""
        if stake is None and self.declared.title_without_stake is not None:
            return self.declared.title_without_stake
        title = self.declared.title
        values = {**options, "stake": stake}
        return Text(title.zh.format(**values), title.en.format(**values))

    def reason(self, part: str) -> str:
        """A row the table adds names its part as its reason, stored in Chinese (a page says it again in its own
        language: `row_reason`)."""
        return self.declared.parts[part].zh

    def row_reason(self, code: str, lang: str) -> str | None:
        """The reason of a row the table added (通底, 全缴, a leaving penalty), by its code, in `lang`; None for a
        code that is not one of the table's parts."""
        part = self.declared.parts.get(code)
        return part(lang) if part is not None else None

    # ------------------------------------------------------------------------------ the stake

    def ended_text(self, reason: str | None, lang: str) -> str | None:
        """Why a 底 game / 局 ended, in words (None while it is played, or for a reason the game does not name)."""
        return next((end.text(lang) for end in self.end_reasons if end.code == reason), None)

    def default_stake(self, options: Mapping) -> int | None:
        """The stake a table gets when it names none (a game without a stake-less table overrides it)."""
        return None

    def is_room(self, stake: int | None) -> bool:
        """Whether the table plays for stakes that run out (a 底 game, a 冲击 room), or keeps running totals."""
        return stake is not None

    # ------------------------------------------------------------------------------ the hands

    @abstractmethod
    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """Apply a scored win (an engine answer with `win: true`) to the account, and end the game if it ends."""

    def keeps_deal(self, result: dict) -> bool:
        """Whether the dealer keeps the deal after this win (the streak grows); else the 下家 deals, streak 1. By
        default the dealer keeps it on a win of its own (RULES.md §2.6); a game may say otherwise (§1.7)."""
        request = result["request"]
        return request["winner"] == request["dealer"]

    def pay_from_stakes(self, book: Book, result: dict, card: CardFacts, ended: str) -> None:
        """A win's payments out of the stakes, each capped at what the payer has left, the game over (`ended`) when
        a player is at 0; at a table without a stake, running totals, uncapped."""
        room = card.stake is not None
        book.pay_rows(result["payments"], capped=room)
        if room and any(book.balances[seat] == 0 for seat in book.seats):
            book.end(ended)

    def keeps_deal_on_draw(self, card: CardFacts) -> bool:
        """After a drawn hand (流局): as the game's `[table] after_draw` says, always the same or by a house rule
        of the card (RULES.md §5: `draw_dealer`); the registry has checked that it is declared."""
        after = self.declared.after_draw
        return (card.options["house"][after.house] if after.house else after.fixed) == "keep"

    def leave(self, book: Book, seat: str, dealer_streak: int, card: CardFacts) -> None:
        """A player leaves mid-game: the penalty (only a game with a `leave_label` has one)."""
        raise NotImplementedError(f"{type(self).__name__} has no penalty for leaving")

    # ------------------------------------------------------------------------------ what a page shows of a hand

    @abstractmethod
    def hand_facts(self, result: dict) -> list[Said]:
        """The few numbers that decided a recorded hand (番 / 交, or 龙 / P), each said in the page's language."""

    # The answer's fields `hand_facts` reads: an export of a whole table decodes only those of each hand (and its
    # request, 包 and why), not the whole answer. None: the whole answer.
    fact_fields: tuple[str, ...] | None = None


def penalty_shares(seat: str, amount: int, seats: Seats) -> dict[str, int]:
    """[reading RULES.md §2.6] A penalty goes to the others at the table (three at a table of four): amount ÷
    their number rounded down each, the remainder to the first of them in play order after the leaver."""
    others = seats_after(seat, seats)
    shares = dict.fromkeys(others, amount // len(others))
    shares[others[0]] += amount % len(others)
    return shares


def losers_of(result: dict, seats: Seats) -> list[str]:
    """Every seat of the table (`seats`, the table's) but the winner's, in seat order."""
    winner = result["request"]["winner"]
    return [seat for seat in seats if seat != winner]
