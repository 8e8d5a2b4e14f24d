"""xinyu at a table (RULES.md §2.6): the 冲击 room or an ordinary table, 全缴, the leaving penalty, the deal."""

from __future__ import annotations

from collections.abc import Mapping

from ...text import Text
from ...tiles import SEATS
from ..declarations import EndReason, StakeRule
from ..table import Book, CardFacts, TableRules, losers_of, penalty_shares
from .declarations import ROOM_STAKES

LEAVE_PENALTY = 50  # §2.6: −50 × the current dealer's streak × the table's multiplier


class XinyuTable(TableRules):
    stake = StakeRule(
        Text("冲击房间", "冲击 room"),
        Text("普通牌桌没有底：余额是累计的", "an ordinary table has no stake: balances are running totals"),
        choices=ROOM_STAKES,
        none=Text("普通牌桌", "Ordinary table"),
    )
    game = Text("局", "局")
    game_number = Text("第 {n} 局", "局 {n}")
    next_game = Text("下一局", "Next 局")
    balance_label = Text("房间", "Room")
    ordinary_balance_label = Text("余额", "Balance")
    parts = {"long": Text("龙", "龙"), "quanjiao": Text("全缴", "全缴"), "leave": Text("离场罚分", "leaving penalty")}
    end_reasons = (
        EndReason("bust", Text("爆了：有人的房间底输光了", "Bust: a player's stake is used up")),
        EndReason("quanjiao", Text("全缴：其余三家交出了全部", "全缴: every other player paid all they had")),
    )
    streak_option = "dealer_streak"  # §2.4: 底龙 grows with the streak, which the table keeps
    multiplier_label = Text("倍数（普通牌桌，离场罚分用）", "Multiplier (ordinary table: the leaving penalty)")
    leave_label = Text("中途离场", "Leaves mid-game")

    def title(self, options: Mapping, stake: int | None) -> Text:
        if stake is None:
            return Text("新余 · 普通牌桌", "Xinyu · ordinary table")
        return Text(f"新余 · 冲击 {stake}", f"Xinyu · 冲击 {stake}")

    def settle(self, book: Book, result: dict, card: CardFacts) -> None:
        """§2.6: payments come out of the room stake, capped at what is left; an ordinary table has no cap
        [reading L8]. 全缴 in a room: every other player pays all they have left, instead of the hand's payments."""
        room = card.stake is not None
        winner = result["request"]["winner"]
        if room and result.get("quanjiao"):
            for seat in losers_of(result):
                book.transfer(seat, winner, book.balances[seat], "quanjiao", "全缴")
            book.end("quanjiao")
            return
        book.pay_rows(result["payments"], capped=room)
        if room and any(book.balances[seat] == 0 for seat in SEATS):
            book.end("bust")

    def keeps_deal(self, result: dict) -> bool:
        """§2.6: a dealer win → streak + 1; another player's win → the 下家 deals, streak 1."""
        request = result["request"]
        return request["winner"] == request["dealer"]

    def leave(self, book: Book, seat: str, dealer_streak: int, card: CardFacts) -> None:
        """§2.6: ordinary table −50 × the dealer's streak × the multiplier; 冲击 room: the leaver loses all that is
        left and the 局 ends [reading L5: ended_reason "bust"]."""
        room = card.stake is not None
        amount = book.balances[seat] if room else LEAVE_PENALTY * dealer_streak * card.multiplier
        for other, share in penalty_shares(seat, amount).items():
            book.transfer(seat, other, share, "leave", "中途离场")
        if room:
            book.end("bust")

    def hand_facts(self, result: dict) -> list[Text]:
        long_, unit = result.get("long"), result.get("unit")
        facts = [Text(f"龙 {long_}，P {unit}", f"龙 {long_}, P {unit}")]
        if result.get("quanjiao"):
            facts.append(Text("全风向成牌型", "全风向 with a shape"))
        return facts


TABLE = XinyuTable()
