"""Who sits at a table (RULES.md §0, §1.8; docs/seats.md): the seats, their words and play order.

A table of n players sits the first n of `E S W N`, in play order: four at most games, three at a bazhi table of
three (E S W, the 下家 of W being E). A game declares the sizes it plays as its option `players`; a request's
seats are `seats_of(players)` (`ScoreRequest.seats`), and every play-order question takes the table's seats.
"""

from __future__ import annotations

SEATS = ("E", "S", "W", "N")  # play order 东 → 南 → 西 → 北, the most a table has
PLAYERS = "players"  # the option every game declares its table sizes with (docs/seats.md)
SEAT_NAMES_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
SEAT_NAMES_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}
FEWEST = 2  # a table of one is no game

Seats = tuple[str, ...]

# Every table's seats, built once: the play-order look-ups below are keyed on them.
_SEATS_OF: dict[int, Seats] = {n: SEATS[:n] for n in range(FEWEST, len(SEATS) + 1)}
_NEXT = {seats: {seat: seats[(i + 1) % len(seats)] for i, seat in enumerate(seats)} for seats in _SEATS_OF.values()}
_PREVIOUS = {seats: {seat: seats[i - 1] for i, seat in enumerate(seats)} for seats in _SEATS_OF.values()}
_AFTER = {
    seats: {seat: tuple(seats[(i + k) % len(seats)] for k in range(1, len(seats))) for i, seat in enumerate(seats)}
    for seats in _SEATS_OF.values()
}


def seats_of(players: int) -> Seats:
    """The seats of a table of `players`: the first `players` of E S W N, in play order."""
    try:
        return _SEATS_OF[players]
    except KeyError:
        raise ValueError(f"a table seats {FEWEST} to {len(SEATS)} players, not {players!r}") from None


def table_sizes() -> tuple[int, ...]:
    """Every size a table may have (a game declares which of them it plays)."""
    return tuple(_SEATS_OF)


def next_seat(seat: str, seats: Seats) -> str:
    """下家: the player after `seat` in play order at a table of `seats`."""
    return _NEXT[seats][seat]


def previous_seat(seat: str, seats: Seats) -> str:
    """上家: the player before `seat` in play order at a table of `seats`."""
    return _PREVIOUS[seats][seat]


def seats_after(seat: str, seats: Seats) -> Seats:
    """The other players of a table of `seats`, in play order starting after `seat`."""
    return _AFTER[seats][seat]


def in_play_order(seats: object) -> Seats:
    """The seats among `seats` (any collection of seat letters, a map keyed by them) in play order."""
    return tuple(seat for seat in SEATS if seat in seats)


def seat_list(seats: Seats) -> str:
    """The seats as a message lists them: "E S W"."""
    return " ".join(seats)
