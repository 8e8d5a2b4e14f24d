"""bazhi at a table (RULES.md §1.7): the 底 game, 交 kept outside the 底, 通底 and 脱底, and the deal."""

from __future__ import annotations

from collections.abc import Mapping

from ...text import Text
from ...tiles import SEATS
from ..declarations import EndReason, StakeRule
from ..table import Book, CardFacts, TableRules, losers_of
from .declarations import TARIFFS


class BazhiTable(TableRules):
    stake = StakeRule(
        Text("底分", "底分 (stake)"),
        Text("空着 = 番价的底分（315 为 30，525 为 50）", "empty = the tariff's (30 at 315, 50 at 525)"),
    )
    game = Text("底", "底 game")
    game_number = Text("第 {n} 底", "底 game {n}")
    next_game = Text("下一底", "Next 底 game")
    balance_label = Text("底", "底")
    ordinary_balance_label = balance_label  # a bazhi table always plays a 底 game
    outside_label = Text("交（底外）", "交 outside")
    outside_parts = frozenset({"jiao"})  # §1.5: 交 is paid outside the 底, never capped
    parts = {"fan": Text("番", "番"), "jiao": Text("交", "交"), "tongdi": Text("通底", "通底")}
    end_reasons = (
        EndReason("tuodi", Text("脱底：有人的底输光了", "脱底: a player's 底 is used up")),
        EndReason("tongdi", Text("通底：三家都输光了", "通底: all three losers are out")),
    )

    def default_stake(self, options: Mapping) -> int:
        """§1.3: one 底 is 30 at 315 and 50 at 525."""
        return TARIFFS[options["tariff"]].stake

    def is_room(self, stake: int | None) -> bool:
        return True  # every bazhi table plays a 底 game

    def title(self, options: Mapping, stake: int | None) -> Text:
        return Text(f"八支 {options['tariff']}", f"Bazhi {options['tariff']}")

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """§1.7: 番 comes out of the 底, a payer (包牌 too) pays at most what is left; 交 is outside. If all three
        losers are at 0 it is 通底: each pays the winner one more 嘴's 交分, outside [readings L6, L7]."""
        book.pay_rows(result["payments"], capped=True)
        losers = losers_of(result)
        if all(book.balances[seat] == 0 for seat in losers):
            extra = TARIFFS[card.options["tariff"]].jiao_zui
            for seat in losers:
                book.transfer(seat, result["request"]["winner"], extra, "tongdi", "通底", outside=True)
            book.end("tongdi")
        elif any(book.balances[seat] == 0 for seat in SEATS):
            book.end("tuodi")

    def keeps_deal(self, result: dict) -> bool:
        """§1.7: the dealer keeps the deal on a win without 交; passes it on a 交 win and on another's win."""
        request = result["request"]
        return request["winner"] == request["dealer"] and not result["jiao"]["is_jiao"]

    def hand_facts(self, result: dict) -> list[Text]:
        fan = result.get("fan")
        facts = [Text(f"番 {fan} 每家", f"番 {fan} each")]
        jiao = result.get("jiao") or {}
        if jiao.get("is_jiao"):
            per = jiao.get("per_loser")
            facts.append(Text(f"交 {per} 每家", f"交 {per} each"))
        return facts


TABLE = BazhiTable()
