"""Who pays whom: payment rows and the nets derived from them."""

from __future__ import annotations

from typing import NamedTuple

from .tiles import SEATS


class Payment(NamedTuple):
    """One transfer. A NamedTuple: immutable like a frozen dataclass, several times cheaper to build."""

    payer: str
    payee: str
    amount: int
    part: str  # "fan" (out of the 底) or "jiao" (outside) in bazhi; "long" in xinyu
    code: str  # stable reason code, e.g. "fan", "dealer_extra", "discarder_jiao"
    reason: str  # the reason in the user's language
    on_behalf_of: str | None = None  # 包牌: the seat whose share the payer takes over

    def to_dict(self) -> dict:
        body = {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "part": self.part,
            "code": self.code,
            "reason": self.reason,
        }
        if self.on_behalf_of is not None:
            body["on_behalf_of"] = self.on_behalf_of
        return body


def net_of(payments: list[Payment], part: str | None = None) -> dict[str, int]:
    """Each seat's balance over the rows (of one part, or all). Always sums to zero."""
    net = dict.fromkeys(SEATS, 0)
    for row in payments:
        if part is None or row.part == part:
            net[row.payer] -= row.amount
            net[row.payee] += row.amount
    return net


def round_half_up(numerator: int, denominator: int) -> int:
    """四舍五入 of numerator / denominator for non-negative values (never banker's rounding)."""
    return (2 * numerator + denominator) // (2 * denominator)
