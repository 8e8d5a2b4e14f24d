"""Who pays whom at the end of the night (API.md `settlement`): the fewest transfers that settle the totals.

Players whose totals sum to zero settle among themselves, so the fewest transfers is the number of players not at
zero less the most groups that sum to zero (each group of k players needs k − 1 transfers, and one transfer can
never settle two groups). The answer is deterministic, exactly as API.md words it:
- drop the players at 0;
- split the rest into the most groups whose totals sum to 0; among splits with as many groups, the one whose
  groups, each listed in seat order, come first in that order;
- within a group the first debtor in seat order pays the first creditor in seat order min(debt, credit), and so on;
- the list is sorted by `from`, then `to` (seat order).
At a table of three it is among its three seats (RULES.md §1.8).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from calculator.engine.seats import in_play_order


def settlement(totals: Mapping[str, int], seats: Sequence[str] | None = None) -> list[dict]:
    """The transfers that settle `totals` among the table's `seats` (by default the seats `totals` holds, in play
    order: three at a table of three)."""
    if seats is None:
        seats = in_play_order(totals)
    players = [seat for seat in seats if totals[seat] != 0]
    order = {seat: i for i, seat in enumerate(seats)}
    splits = zero_sum_splits(players, totals)
    split = min(splits, key=lambda groups: (-len(groups), [[order[s] for s in g] for g in groups]), default=())
    transfers = [transfer for group in split for transfer in settle_group(group, totals)]
    transfers.sort(key=lambda t: (order[t["from"]], order[t["to"]]))
    return transfers


def zero_sum_splits(players: list[str], totals: Mapping[str, int]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every split of `players` (in seat order) into groups that each sum to 0; each group in seat order, the
    groups in the order of their first player (so that comparing two splits compares them as API.md says)."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in range(len(rest) + 1):
        for partners in combinations(rest, size):
            if totals[first] + sum(totals[p] for p in partners):
                continue
            left = [p for p in rest if p not in partners]
            for others in zero_sum_splits(left, totals):
                yield ((first, *partners), *others)


def settle_group(group: tuple[str, ...], totals: Mapping[str, int]) -> list[dict]:
    """The first debtor in seat order pays the first creditor min(debt, credit), and so on: each transfer settles
    at least one of the two, so a group of k players needs at most k − 1."""
    debtors = [[seat, -totals[seat]] for seat in group if totals[seat] < 0]
    creditors = [[seat, totals[seat]] for seat in group if totals[seat] > 0]
    transfers = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        amount = min(debtors[i][1], creditors[j][1])
        transfers.append({"from": debtors[i][0], "to": creditors[j][0], "amount": amount})
        debtors[i][1] -= amount
        creditors[j][1] -= amount
        if debtors[i][1] == 0:
            i += 1
        if creditors[j][1] == 0:
            j += 1
    return transfers
