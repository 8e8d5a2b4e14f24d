"""Who pays whom in bazhi (RULES.md §1.4-1.6): the chosen reading's payment rows, 包牌 applied, and the nets."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...explain import seat_name
from ...payments import PaymentRow, nets, row, taken_over
from .declarations import DECLARED, Tariff

PARTS = ("fan", "jiao")  # out of the 底, and outside it
REASONS = DECLARED.texts["payments"]  # the rows' reasons by code, and the prefix of a row taken over ("liable")


def payments_and_nets(
    seats: tuple[str, ...],
    winner: str,
    dealer: str,
    discarder: str | None,
    fan: int,
    di_fan: int,
    jiao_per_loser: int | None,
    tariff: Tariff,
    liable: str | None,
    lang: str,
) -> tuple[list[PaymentRow], dict[str, int], dict[str, dict[str, int]]]:
    """The payment rows and each seat's balance, in all and per part. 包牌 moves every row to the liable seat (new
    rows for those it takes over), summed again. `seats` are the table's (RULES.md §1.8: E S W at a table of
    three): the losers are the others."""
    rows, net, by_part = plain_rows(
        seats, winner, dealer, discarder, fan, di_fan, jiao_per_loser, tariff.jiao_zui, lang
    )
    if liable:
        moved = [paid_by(liable, one, lang) for one in rows]
        return (moved, *nets(moved, PARTS, seats))
    return rows, net, by_part


def plain_rows(
    seats: tuple[str, ...],
    winner: str,
    dealer: str,
    discarder: str | None,
    fan: int,
    di: int,
    jiao: int | None,
    jiao_zui: int,
    lang: str,
) -> tuple[list[PaymentRow], dict[str, int], dict[str, dict[str, int]]]:
    """The rows before 包牌 (rows of 0 left out) and their nets.

    Every loser (every seat of the table but the winner: three at four, two at three) pays the fan; the dealer one
    more 底番 (every loser when the dealer wins); the discarder one more 底番; with 交 every loser pays the 交 and
    the discarder one more 嘴 of it.
    """
    losers = [seat for seat in seats if seat != winner]  # in seat order
    said = REASONS["fan"](lang)
    rows = [row(loser, winner, fan, "fan", "fan", said) for loser in losers]
    if winner == dealer:
        said = REASONS["dealer_won"](lang)
        rows += [row(loser, winner, di, "fan", "dealer_extra", said) for loser in losers]
    else:
        rows.append(row(dealer, winner, di, "fan", "dealer_extra", REASONS["dealer_extra"](lang)))
    if discarder:
        rows.append(row(discarder, winner, di, "fan", "discarder_extra", REASONS["discarder_extra"](lang)))
    if jiao is not None:
        said = REASONS["jiao"](lang)
        rows += [row(loser, winner, jiao, "jiao", "jiao", said) for loser in losers]
        if discarder:
            rows.append(row(discarder, winner, jiao_zui, "jiao", "discarder_jiao", REASONS["discarder_jiao"](lang)))
    rows = [one for one in rows if one["amount"]]  # 包牌 changes who pays, never an amount: filtered first
    net, by_part = nets(rows, PARTS, seats)
    return rows, net, by_part


def paid_by(liable: str, one: PaymentRow, lang: str) -> PaymentRow:
    """包牌: the liable seat pays the row (as it is); a row it takes over is a new one naming the seat it pays for."""
    payer = one["from"]
    if payer == liable:
        return one
    return taken_over(one, liable, REASONS["liable"](lang).format(seat=seat_name(payer, lang), reason=one["reason"]))


def payment_reason(row_: Mapping, answer: Mapping, lang: str, seat_word: Callable[[str], str]) -> str | None:
    """A row's reason said again from its code (a table's stored row, in the page's language), as `plain_rows`
    and `paid_by` say it; `seat_word` names the seat whose row a liable seat took over. None: not a code of a
    bazhi payment."""
    code = row_.get("code")
    if code == "dealer_extra" and answer["request"]["winner"] == answer["request"]["dealer"]:
        code = "dealer_won"
    if code not in REASONS or code == "liable":
        return None
    said = REASONS[code](lang)
    if "on_behalf_of" in row_:
        return REASONS["liable"](lang).format(seat=seat_word(row_["on_behalf_of"]), reason=said)
    return said
