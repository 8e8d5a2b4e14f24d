"""tuidaohu at a table (§T.4): a stake that ends the game when a player is out, or running totals; the deal passes
unless the dealer wins. The words and parts are declared in declarations.toml (`[table]`)."""

from __future__ import annotations

from calculator.engine.rulesets.table import Book, CardFacts, TableRules
from calculator.engine.text import Text
from calculator.engine.tiles import SEATS

from .declarations import DECLARED, HEADLINE


class TuidaohuTable(TableRules):
    declared = DECLARED.table

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """Payments come out of the stake, capped at what is left; at 0 the game is over. Without a stake,
        running totals."""
        room = card.stake is not None
        book.pay_rows(result["payments"], capped=room)
        if room and any(book.balances[seat] == 0 for seat in SEATS):
            book.end("bust")

    def keeps_deal(self, result: dict) -> bool:
        request = result["request"]
        return request["winner"] == request["dealer"]

    def hand_facts(self, result: dict) -> list[Text]:
        """What each payer paid, as the card's headline says it."""
        said = HEADLINE["self_draw" if result["self_draw"] else "discard"]
        return [Text(said.zh.format(value=result["each_pays"]), said.en.format(value=result["each_pays"]))]


TABLE = TuidaohuTable()
