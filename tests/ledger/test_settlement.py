"""`settlement` (API.md): the fewest transfers that settle the totals, deterministic, in the order API.md gives.
Minimality is checked against a brute force on many random totals."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.ledger.settlement import settlement

SEATS = ("E", "S", "W", "N")


def totals_of(e: int, s: int, w: int) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": -(e + s + w)}


def test_one_winner_is_paid_by_each_loser():
    assert settlement({"E": -7, "S": 19, "W": -7, "N": -5}) == [
        {"from": "E", "to": "S", "amount": 7},
        {"from": "W", "to": "S", "amount": 7},
        {"from": "N", "to": "S", "amount": 5},
    ]


def test_players_at_zero_take_no_part():
    assert settlement({"E": 0, "S": 12, "W": 0, "N": -12}) == [{"from": "N", "to": "S", "amount": 12}]
    assert settlement(dict.fromkeys(SEATS, 0)) == []


def test_pairs_that_sum_to_zero_settle_among_themselves():
    # E+S = 0 and W+N = 0: two transfers, not three.
    assert settlement({"E": 30, "S": -30, "W": 12, "N": -12}) == [
        {"from": "S", "to": "E", "amount": 30},
        {"from": "N", "to": "W", "amount": 12},
    ]


def test_ties_take_the_split_whose_groups_come_first_in_seat_order():
    # {E,S}{W,N} and {E,N}{S,W} both have two groups; (E,S) comes before (E,N) in E S W N order.
    assert settlement({"E": 5, "S": -5, "W": 5, "N": -5}) == [
        {"from": "S", "to": "E", "amount": 5},
        {"from": "N", "to": "W", "amount": 5},
    ]


def test_within_a_group_the_first_debtor_pays_the_first_creditor():
    # One group: debtors E (40), W (10); creditors S (20), N (30). E pays S 20, E pays N 20, W pays N 10.
    assert settlement({"E": -40, "S": 20, "W": -10, "N": 30}) == [
        {"from": "E", "to": "S", "amount": 20},
        {"from": "E", "to": "N", "amount": 20},
        {"from": "W", "to": "N", "amount": 10},
    ]


@cache
def fewest(balances: tuple[int, ...]) -> int:
    """Brute force: the fewest transfers that bring every balance to 0, searching every payer, payee and amount
    that settles one of the two (an optimal plan of that kind always exists: in any plan the transfers form a
    forest, and paying off its leaves one by one settles one party with each transfer)."""
    if not any(balances):
        return 0
    best = len(balances)
    for i, owed in enumerate(balances):
        if owed >= 0:
            continue
        for j, due in enumerate(balances):
            if due <= 0:
                continue
            amount = min(-owed, due)
            after = list(balances)
            after[i] += amount
            after[j] -= amount
            best = min(best, 1 + fewest(tuple(after)))
    return best


def settles(totals: dict, transfers: list[dict]) -> bool:
    left = dict(totals)
    for t in transfers:
        left[t["from"]] += t["amount"]
        left[t["to"]] -= t["amount"]
    return not any(left.values())


SMALL = st.integers(min_value=-60, max_value=60)


@settings(max_examples=600, deadline=None)
@given(e=SMALL, s=SMALL, w=SMALL, pairs=st.booleans())
def test_the_fewest_transfers_on_random_totals(e, s, w, pairs):
    totals = totals_of(e, s, w) if not pairs else {"E": e, "S": -e, "W": w, "N": -w}
    transfers = settlement(totals)
    assert settles(totals, transfers)
    assert len(transfers) == fewest(tuple(totals[seat] for seat in SEATS))
    assert len(transfers) <= 3
    assert all(t["amount"] > 0 and t["from"] != t["to"] for t in transfers)
    order = [(SEATS.index(t["from"]), SEATS.index(t["to"])) for t in transfers]
    assert order == sorted(order)
    assert settlement(dict(reversed(list(totals.items())))) == transfers  # only the values count
