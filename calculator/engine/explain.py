"""The explanation that travels with every number: lines of "name · arithmetic · value · rule"."""

from __future__ import annotations

from typing import NamedTuple

from .decompose import Decomposition
from .hand import ScoreRequest
from .notation import format_tiles


class Line(NamedTuple):
    """One explanation line. A NamedTuple: immutable, and cheap to build (an answer has a dozen)."""

    code: str  # stable: what the number is (zhi_fan, fan, jiao, long_bonus, …)
    label: str  # its name in the user's language
    detail: str  # the arithmetic or the reason
    value: int
    rule: str  # the section of RULES.md it comes from

    def to_dict(self) -> dict:
        return {"code": self.code, "label": self.label, "detail": self.detail, "value": self.value, "rule": self.rule}


def decomposition_groups(request: ScoreRequest, decomposition: Decomposition, win_role: str | None) -> list[dict]:
    """The hand as groups for display: concealed pair and sets (the winning tile marked), then melds."""
    win = request.win_tile.index if request.win_tile is not None else None
    groups = []
    marked = False
    for kind, tiles in decomposition.groups():
        indices = [t.index for t in tiles]
        holds_win = False
        if not marked and win in indices:
            middle = kind == "sequence" and indices[1] == win
            holds_win = (
                (win_role == "pair" and kind == "pair")
                or (win_role == "middle" and middle)
                or (win_role == "side" and kind == "sequence" and not middle)
                or (win_role == "triplet" and kind == "triplet")
            )
            marked = marked or holds_win
        groups.append({"type": kind, "tiles": format_tiles(tiles), "concealed": True, "win": holds_win})
    for meld in request.melds:
        body = {"type": meld.type, "tiles": meld.notation, "concealed": meld.type == "kong_concealed", "win": False}
        if meld.from_seat:
            body["from"] = meld.from_seat
        groups.append(body)
    return groups


def line(lang: str, code: str, label: tuple[str, str], detail: tuple[str, str] | str, value: int, rule: str) -> Line:
    """A Line in the user's language from (zh, en) pairs; a plain string detail is the same in both."""
    index = 1 if lang == "en" else 0
    text = detail if isinstance(detail, str) else detail[index]
    return Line(code, label[index], text, value, rule)
