"""xinyu at a table (RULES.md §2.6): the 冲击 room or an ordinary table, 全缴, the leaving penalty, the deal (a
dealer win → streak + 1, another player's win → the 下家 deals, streak 1: `TableRules.keeps_deal`).
The table's words, parts and the penalty's 50 are declared in declarations.toml (`[table]`)."""

from __future__ import annotations

from ...text import Said, msg
from ..table import Book, CardFacts, TableRules, losers_of, penalty_shares
from .declarations import DECLARED


class XinyuTable(TableRules):
    declared = DECLARED.table

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """§2.6: payments come out of the room stake, capped at what is left; an ordinary table has no cap
        [reading L8]. 全缴 in a room: every other player pays all they have left, instead of the hand's payments."""
        room = card.stake is not None
        winner = result["request"]["winner"]
        if room and result.get("quanjiao"):
            for seat in losers_of(result, book.seats):
                book.transfer(seat, winner, book.balances[seat], "quanjiao", self.reason("quanjiao"))
            book.end("quanjiao")
            return
        self.pay_from_stakes(book, result, card, "bust")

    def leave(self, book: Book, seat: str, dealer_streak: int, card: CardFacts) -> None:
        """§2.6: ordinary table −50 × the dealer's streak × the multiplier; 冲击 room: the leaver loses all that is
        left and the 局 ends [reading L5: ended_reason "bust"]."""
        room = card.stake is not None
        penalty = self.declared.data["leave_penalty"]
        amount = book.balances[seat] if room else penalty * dealer_streak * card.multiplier
        for other, share in penalty_shares(seat, amount, book.seats).items():
            book.transfer(seat, other, share, "leave", self.reason("leave"))
        if room:
            book.end("bust")

    fact_fields = ("long", "unit", "quanjiao")

    def hand_facts(self, result: dict) -> list[Said]:
        facts = [msg("long {long}, P {unit}", long=result.get("long"), unit=result.get("unit"))]
        if result.get("quanjiao"):
            facts.append(msg("all honours with a shape (全风向)"))
        return facts


TABLE = XinyuTable()
