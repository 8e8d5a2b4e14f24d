"""tuidaohu at a table (§T.4): a stake that ends the game when a player is out, or running totals; the deal passes
unless the dealer wins. The words and parts are declared in declarations.toml (`[table]`)."""

from __future__ import annotations

from calculator.engine.rulesets.table import Book, CardFacts, TableRules
from calculator.engine.text import Text

from .declarations import DECLARED, HEADLINE


class TuidaohuTable(TableRules):
    declared = DECLARED.table

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """Payments come out of the stake, capped at what is left; at 0 the game is over. Without a stake,
        running totals. The dealer keeps the deal on a win of its own (TableRules.keeps_deal)."""
        self.pay_from_stakes(book, result, card, "bust")

    def hand_facts(self, result: dict) -> list[Text]:
        """What each payer paid, as the card's headline says it."""
        said = HEADLINE["self_draw" if result["self_draw"] else "discard"]
        return [Text(said.zh.format(value=result["each_pays"]), said.en.format(value=result["each_pays"]))]


TABLE = TuidaohuTable()
