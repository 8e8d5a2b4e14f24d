"""The explanation that travels with every number: lines of "name · arithmetic · value · rule"."""

from __future__ import annotations

from typing import TypedDict

from .decompose import Decomposition
from .hand import ScoreRequest
from .notation import format_tiles
from .seats import SEAT_NAMES_EN, SEAT_NAMES_ZH, SEATS
from .text import Msg, Said, pmsg, said
from .tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS


class Line(TypedDict):
    """One explanation line as the answer carries it: every number with its name, arithmetic and rule."""

    code: str  # stable: what the number is (zhi_fan, fan, jiao, long_bonus, …)
    label: str  # its name in the user's language
    detail: str  # the arithmetic or the reason
    value: int
    rule: str  # the section of RULES.md it comes from


def decomposition_groups(request: ScoreRequest, decomposition: Decomposition, win_role: str | None) -> list[dict]:
    """The hand as groups for display: concealed pair and sets (the winning tile marked), then melds."""
    win = request.win_tile.index if request.win_tile is not None else None
    marked = _group_of_win(decomposition, win, win_role)
    groups = [_concealed_group("pair", _PAIR_TEXT[decomposition.pair], marked == 0)]
    for number, (kind, first) in enumerate(decomposition.sets, start=1):
        name, texts = _SET_KINDS[kind]
        groups.append(_concealed_group(name, texts[first], number == marked))
    for meld in request.melds:
        groups.append(meld_group(meld.type, meld.notation, meld.from_seat))
    return groups


def meld_group(kind: str, notation: str, from_seat: str | None) -> dict:
    """A meld as a display group."""
    body = {"type": kind, "tiles": notation, "concealed": kind == "kong_concealed", "win": False}
    if from_seat:
        body["from"] = from_seat
    return body


def _concealed_group(kind: str, tiles: str, win: bool) -> dict:
    return {"type": kind, "tiles": tiles, "concealed": True, "win": win}


def _group_of_win(decomposition: Decomposition, win: int | None, win_role: str | None) -> int | None:
    """Which group shows the winning tile (0 the pair, then the sets in order): the first that holds it in the
    role the reading gives it, or None."""
    if win is None:
        return None
    if win_role == "pair":
        return 0 if decomposition.pair == win else None
    for number, (kind, first) in enumerate(decomposition.sets, start=1):
        if win_role == "triplet" and kind == "tri" and first == win:
            return number
        if kind == "seq" and first <= win <= first + 2 and win_role == ("middle" if win == first + 1 else "side"):
            return number
    return None


# The notation of every pair, triplet and sequence by its first tile: a table built once, by tile kind.
_PAIR_TEXT = tuple(format_tiles((tile, tile)) for tile in ALL_TILES)
_TRIPLET_TEXT = tuple(format_tiles((tile,) * 3) for tile in ALL_TILES)
_SEQUENCE_TEXT = tuple(
    format_tiles(ALL_TILES[i : i + 3]) if i < FIRST_HONOUR and i % 9 <= 6 else "" for i in range(NUM_KINDS)
)


# The decomposition's kinds of set: the group's type and the notation of each by its first tile.
_SET_KINDS = {"tri": ("triplet", _TRIPLET_TEXT), "seq": ("sequence", _SEQUENCE_TEXT)}


def line(lang: str, code: str, label: Said | str, detail: Said | str, value: int, rule: str) -> Line:
    """A line in the user's language; a plain string is used as it is (already in the user's language, or the
    same in both)."""
    return {"code": code, "label": said(label, lang), "detail": said(detail, lang), "value": value, "rule": rule}


def player_at(seat: str) -> Msg:
    """The player at a seat as explanations name them: East / 东家."""
    return PLAYERS[seat]


# The player at each seat: a table built once, by seat.
PLAYERS = {
    seat: pmsg("the player at a seat", "{seat_en}", seat_en=SEAT_NAMES_EN[seat], seat_zh=SEAT_NAMES_ZH[seat])
    for seat in SEATS
}


def seat_name(seat: str, lang: str) -> str:
    """A seat as explanations name it: 东家 / East."""
    return player_at(seat)(lang)


def not_a_win_answer(ruleset: str, request, code: str, message: str, brief: bool) -> dict:
    """The answer for a hand that does not win: its code and message, and the request echo unless brief."""
    answer = {"ruleset": ruleset, "win": False, "code": code, "message": message}
    if not brief:
        answer["request"] = request.to_dict()
    return answer
