"""bazhi at a table (RULES.md §1.7): the 底 game, 交 kept outside the 底, 通底 and 脱底, and the deal.
The table's words and parts are declared in declarations.toml (`[table]`)."""

from __future__ import annotations

from collections.abc import Mapping

from ...text import Said, msg
from ..table import Book, CardFacts, TableRules, losers_of
from .declarations import DECLARED, TARIFFS


class BazhiTable(TableRules):
    declared = DECLARED.table

    def default_stake(self, options: Mapping) -> int:
        """§1.3: one 底 is the tariff's 底分 (30 at 315, 50 at 525)."""
        return TARIFFS[options["tariff"]].stake

    def is_room(self, stake: int | None) -> bool:
        return True  # every bazhi table plays a 底 game

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """§1.7: 番 comes out of the 底, a payer (包牌 too) pays at most what is left; 交 is outside. If every loser
        (the three others, or the two at a table of three: §1.8) is at 0 it is 通底: each pays the winner one more
        嘴's 交分, outside [readings L6, L7]; else a player at 0 is 脱底."""
        book.pay_rows(result["payments"], capped=True)
        losers = losers_of(result, book.seats)
        if all(book.balances[seat] == 0 for seat in losers):
            extra = TARIFFS[card.options["tariff"]].jiao_zui
            for seat in losers:
                book.transfer(seat, result["request"]["winner"], extra, "tongdi", self.reason("tongdi"), outside=True)
            book.end("tongdi")
        elif any(book.balances[seat] == 0 for seat in book.seats):
            book.end("tuodi")

    def keeps_deal(self, result: dict) -> bool:
        """§1.7: the dealer keeps the deal on a win without 交; passes it on a 交 win and on another's win."""
        request = result["request"]
        return request["winner"] == request["dealer"] and not result["jiao"]["is_jiao"]

    fact_fields = ("fan", "jiao")

    def hand_facts(self, result: dict) -> list[Said]:
        facts = [msg("番 {fan} each", fan=result.get("fan"))]
        jiao = result.get("jiao") or {}
        if jiao.get("is_jiao"):
            facts.append(msg("交 {per} each", per=jiao.get("per_loser")))
        return facts


TABLE = BazhiTable()
