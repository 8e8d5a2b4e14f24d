"""Who pays whom: payment rows as the answer carries them (API.md `payments`), and the nets derived from them.

Both rulesets build their rows with `row` and sum them with `nets`, so every answer's rows look the same.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

# One transfer: `part` is "fan" (out of the 底) or "jiao" (outside) in bazhi, "long" in xinyu; `code` is its stable
# reason code ("fan", "dealer_extra", "half" …); under 包牌 `on_behalf_of` names the seat whose share the payer
# took over. (The functional form: a class cannot name a field "from".)
PaymentRow = TypedDict(  # noqa: UP013
    "PaymentRow",
    {
        "from": str,
        "to": str,
        "amount": int,
        "part": str,
        "code": str,
        "reason": str,
        "on_behalf_of": NotRequired[str],
    },
)


def row(payer: str, payee: str, amount: int, part: str, code: str, reason: str) -> PaymentRow:
    """One payment row, in the answer's form."""
    return {"from": payer, "to": payee, "amount": amount, "part": part, "code": code, "reason": reason}


def taken_over(row_: PaymentRow, liable: str, reason: str) -> PaymentRow:
    """包牌 / 独缴: the row paid by `liable` instead, naming the seat whose share it is."""
    return {**row_, "from": liable, "reason": reason, "on_behalf_of": row_["from"]}


def nets(
    rows: list[PaymentRow], parts: tuple[str, ...], seats: tuple[str, ...]
) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Each seat of the table's balance in all and per part (exactly `seats`, in their order: API.md, one key per
    seat of the table), in one pass over the rows. Each sums to zero."""
    net = dict.fromkeys(seats, 0)
    by_part = {part: dict.fromkeys(seats, 0) for part in parts}
    for one in rows:
        payer, payee, amount, part = one["from"], one["to"], one["amount"], by_part[one["part"]]
        net[payer] -= amount
        net[payee] += amount
        part[payer] -= amount
        part[payee] += amount
    return net, by_part


def round_half_up(numerator: int, denominator: int) -> int:
    """四舍五入 of numerator / denominator for non-negative values (never banker's rounding)."""
    return (2 * numerator + denominator) // (2 * denominator)
