"""Melds and the validated score request: the domain values every ruleset reads."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field, replace
from typing import Protocol

from .card import HouseCard
from .decompose import BLOCK_OF_KIND, STEP_OF_KIND
from .flags import listed
from .notation import format_tiles
from .text import msg
from .tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS, Tile, counts_of

MELD_TYPES = ("pung", "chow", "kong_exposed", "kong_added", "kong_concealed")
MELD_NAMES = {
    "pung": msg("Pung"),
    "chow": msg("Chow"),
    "kong_exposed": msg("Exposed kong"),
    "kong_added": msg("Added kong"),
    "kong_concealed": msg("Concealed kong"),
}
EXPOSED_TYPES = ("pung", "chow", "kong_exposed", "kong_added")
KONG_TYPES = ("kong_exposed", "kong_added", "kong_concealed")


def concealed_size(melds: int) -> int:
    """How many concealed tiles a hand holds before the win: 13 − 3 × melds (a kong counts as three)."""
    return 13 - 3 * melds


MOST_MELDS = 4  # four melds leave one concealed tile (13 − 3 × 4), which the win pairs


def concealed_sizes() -> tuple[int, ...]:
    """`concealed_size` for every number of melds a hand can hold, 0 … MOST_MELDS: the page's script counts the
    tiles still to enter with it (`Ruleset.to_dict`) instead of a copy of the rule."""
    return tuple(concealed_size(melds) for melds in range(MOST_MELDS + 1))


# Melds, requests and xinyu options are built for every request (and every wait of a waits answer), so they
# are plain slotted dataclasses: a frozen one sets each field through `object.__setattr__`, which made building
# them about four times slower. They are values all the same: nothing assigns to a field once they are built
# (`ScoreRequest.with_win` builds a new request).


@dataclass(slots=True)
class Meld:
    type: str
    tiles: tuple[Tile, ...]
    from_seat: str | None = None
    # The meld's tile kind (the lowest tile for a chow): set once, the rules ask for it many times.
    kind: Tile = field(init=False, repr=False, compare=False)
    # Its canonical notation ("555m"): the request echo and the display groups both show it.
    notation: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # by index: comparing Tile objects goes through the dataclass's ordering methods, several times slower
        self.kind = ALL_TILES[min([tile.index for tile in self.tiles])]
        self.notation = format_tiles(self.tiles)

    @property
    def suit(self) -> str:
        return self.kind.suit

    def to_dict(self) -> dict:
        body: dict = {"type": self.type, "tiles": self.notation}
        if self.from_seat is not None:
            body["from"] = self.from_seat
        return body


class Options(Protocol):
    """A game's options (each ruleset package defines its own): the request's `options`, the card included."""

    house: HouseCard
    seats: tuple[str, ...]  # the table's, from `players` (docs/seats.md)

    def to_dict(self) -> dict: ...

    def with_card(self, card: HouseCard) -> Options: ...


@dataclass(slots=True)
class ScoreRequest:
    """A validated request: tiles parsed, counts and seats checked, flags consistent.

    The counts every rule reads are worked out once, when the request is built (`__post_init__`), and kept
    as plain fields: computing them on first use (`cached_property`) cost more than the counting itself.
    """

    ruleset: str
    options: Options
    hand: tuple[Tile, ...]
    win_tile: Tile | None
    melds: tuple[Meld, ...]
    winner: str
    dealer: str
    discarder: str | None
    flags: frozenset[str]
    alternatives: bool = False  # also score the hand under the card's other readings (RULES.md §5.3)
    # The hand's 34 counts when the caller has them (the request reader counts while reading the tiles, a
    # request won on a wait has its waiting hand's): counted from `hand` otherwise.
    counted: InitVar[list[int] | None] = None
    # The same hand's four block keys (`suits.py`) when the caller has them (a request won on a wait, or scored
    # under another card, has its first request's): read from the tiles otherwise.
    keyed: InitVar[tuple[int, ...] | None] = None
    # Derived from the fields above (not arguments: `dataclasses.replace` recomputes them).
    hand_counts: list[int] = field(init=False, repr=False, compare=False)  # the hand before the win tile
    hand_keys: tuple[int, ...] = field(init=False, repr=False, compare=False)  # its four blocks' keys
    concealed: tuple[Tile, ...] = field(init=False, repr=False, compare=False)  # hand + win tile
    concealed_counts: list[int] = field(init=False, repr=False, compare=False)
    concealed_keys: tuple[int, ...] = field(init=False, repr=False, compare=False)  # hand + win tile, by block
    all_counts: list[int] = field(init=False, repr=False, compare=False)  # melds included, a kong counts 4
    suit_counts: dict[str, int] = field(init=False, repr=False, compare=False)  # m p s, melds included
    largest_suit: int = field(init=False, repr=False, compare=False)  # the most of `suit_counts` (bazhi's 八支)
    kongs: tuple[Meld, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self, counted: list[int] | None, keyed: tuple[int, ...] | None) -> None:
        win = self.win_tile
        hand_counts = counts_of(self.hand) if counted is None else counted
        concealed_counts = list(hand_counts)
        if keyed is None:
            keys = [0, 0, 0, 0]
            for tile in self.hand:
                keys[BLOCK_OF_KIND[tile.index]] += STEP_OF_KIND[tile.index]
            keyed = tuple(keys)
        suits = [sum(hand_counts[0:9]), sum(hand_counts[9:18]), sum(hand_counts[18:27])]  # melds, win tile below
        concealed_keys = keyed
        if win is not None:
            concealed_counts[win.index] += 1
            keys = list(keyed)
            keys[BLOCK_OF_KIND[win.index]] += STEP_OF_KIND[win.index]
            concealed_keys = tuple(keys)
            if win.index < FIRST_HONOUR:
                suits[win.index // 9] += 1
        concealed = self.hand if win is None else (*self.hand, win)
        all_counts = list(concealed_counts)
        for meld in self.melds:
            for tile in meld.tiles:
                all_counts[tile.index] += 1
            if meld.kind.index < FIRST_HONOUR:
                suits[meld.kind.index // 9] += len(meld.tiles)
        self.hand_counts = hand_counts
        self.hand_keys = keyed
        self.concealed = concealed
        self.concealed_counts = concealed_counts
        self.concealed_keys = concealed_keys
        self.all_counts = all_counts
        self.suit_counts = {"m": suits[0], "p": suits[1], "s": suits[2]}
        self.largest_suit = max(suits)
        self.kongs = tuple([m for m in self.melds if m.type in KONG_TYPES]) if self.melds else ()

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of the request's table, in play order (its `options.players`): every seat it names is one."""
        return self.options.seats

    @property
    def self_draw(self) -> bool:
        return self.discarder is None

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def with_win(self, tile: Tile | None, discarder: str | None, flags: frozenset[str] | None = None) -> ScoreRequest:
        """The same hand won on `tile` (built directly: `dataclasses.replace` costs as much again, once per wait
        and way of winning in a waits answer)."""
        return ScoreRequest(
            ruleset=self.ruleset,
            options=self.options,
            hand=self.hand,
            win_tile=tile,
            melds=self.melds,
            winner=self.winner,
            dealer=self.dealer,
            discarder=discarder,
            flags=self.flags if flags is None else flags,
            counted=self.hand_counts,
            keyed=self.hand_keys,
        )

    def with_card(self, card: HouseCard) -> ScoreRequest:
        """The same request scored under another house card (one alternative of RULES.md §5.3)."""
        return replace(
            self,
            options=self.options.with_card(card),
            alternatives=False,
            counted=self.hand_counts,
            keyed=self.hand_keys,
        )

    def kinds_exhausted(self) -> set[int]:
        """Kinds the hand already holds all four of (melds included): never a wait."""
        counts = list(self.all_counts)
        return {i for i in range(NUM_KINDS) if counts[i] >= 4}

    def to_dict(self) -> dict:
        body = {"ruleset": self.ruleset, "options": self.options.to_dict(), "hand": format_tiles(self.hand)}
        if self.win_tile is not None:
            body["win_tile"] = self.win_tile.notation
        body["melds"] = [m.to_dict() for m in self.melds]
        body["winner"] = self.winner
        body["dealer"] = self.dealer
        body["discarder"] = self.discarder
        body["flags"] = listed(self.flags) if self.flags else []  # shared flags first (flags.toml's order)
        if self.alternatives:
            body["alternatives"] = True
        return body
