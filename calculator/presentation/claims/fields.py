"""The fields of the page "who takes the discard" (issue 29) and the `/api/priority` body they stand for.

They are the calculator's fields (handquery.py): once for what every claim shares (the game, its options and rule
card, the dealer, the discarder, the flags of the discard, the players' names) and once for each claimant under
its seat: `S_hand`, `S_meld1`, `S_meld1_tiles`, `S_meld1_from`, `S_flags`. The discarded tile is `tile`. A seat
whose fields hold no tile claims nothing. Each claim is read by the calculator's one input path (`parse_query`)
from the fields seen as the calculator's own (`SeatFields`): a claim is exactly the hand the calculator would
score, and `claims_query` writes the canonical share link from the calculator's (`query_string`):
`parse_claims(Fields.of(claims_query(x))) == x` for every parsed input x.
Plain Python, no Django: the phone reads and writes them too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import SEATS

from ..handquery import MELD_SLOTS, HandInput, Query, form_field, parse_query, query_string

# A claimant's own fields, written after its seat (`S_hand`): its tiles, its melds and its flags.
CLAIM_FIELD = re.compile(r"hand|meld\d(?:_tiles|_from)?|flags")
# The fields that say whether a seat claims at all: a tile in its hand or in a meld.
TILE_FIELDS = ("hand", *(name for n in MELD_SLOTS for name in (f"meld{n}", f"meld{n}_tiles")))
TILE = "tile"  # the discarded tile (every claim's `win_tile`)


def seat_field(seat: str, name: str) -> str:
    """A claimant's field: `S_hand` for South's `hand`."""
    return f"{seat}_{name}"


@dataclass(frozen=True, slots=True)
class SeatFields:
    """The page's fields as the calculator's for one claimant (a `Query`): its own fields under the calculator's
    names, the discard as the winning tile, its seat as the winner, every other field shared; its flags are the
    discard's and its own."""

    query: Query
    seat: str

    def get(self, key: str, default: str | None = None) -> str | None:
        if CLAIM_FIELD.fullmatch(key):
            return self.query.get(seat_field(self.seat, key), default)
        if key == "win_tile":
            return self.query.get(TILE, default)
        if key == "winner":
            return self.seat
        return self.query.get(key, default)

    def getlist(self, key: str) -> list[str]:
        if key == "flags":
            shared = self.query.getlist("flags")
            return shared + [f for f in self.query.getlist(seat_field(self.seat, key)) if f not in shared]
        if CLAIM_FIELD.fullmatch(key):
            return self.query.getlist(seat_field(self.seat, key))
        return self.query.getlist(key)


@dataclass(slots=True)
class ClaimsInput:
    """The page's input: what the claims share (the calculator's hand with no tiles, no winner: the game, its
    options, the dealer, the discarder, the discard's flags, the names), the discarded tile, and each claim as
    the calculator's hand, by seat in play order."""

    shared: HandInput
    tile: str
    claims: list[tuple[str, HandInput]]

    @property
    def ruleset(self) -> str:
        return self.shared.request["ruleset"]

    @property
    def names(self) -> dict[str, str]:
        return self.shared.names

    def hand_of(self, seat: str) -> HandInput | None:
        return next((hand for claimant, hand in self.claims if claimant == seat), None)

    def body(self) -> dict:
        """The `/api/priority` body (docs/API-priority.md): each claim the calculator's request of its hand."""
        body = {"ruleset": self.ruleset, "discarder": self.shared.request["discarder"], "claims": []}
        if self.tile:
            body["tile"] = self.tile
        body["claims"] = [hand.request for _seat, hand in self.claims]
        return body


def claims_seat(query: Query, seat: str) -> bool:
    """Whether a seat's fields hold any tile (its hand or a meld): such a seat claims the discard."""
    return any(query.get(seat_field(seat, name)) for name in TILE_FIELDS)


def parse_claims(query: Query) -> ClaimsInput:
    """The page's input, read without judging it (the engine does): the shared fields as the calculator reads
    them, and a claim for each seat that holds a tile."""
    shared = parse_query(query)
    shared.request.pop("win_tile", None)
    tile = "".join((query.get(TILE) or "").split())
    claims = [(seat, parse_query(SeatFields(query, seat))) for seat in SEATS if claims_seat(query, seat)]
    return ClaimsInput(shared, tile, claims)


def claims_query(claims: ClaimsInput) -> str:
    """The canonical query of an input (the share link's): the shared fields as the calculator writes them, the
    tile, each claim's own fields under its seat, the names last."""
    pairs: list[tuple[str, str]] = []
    names: list[tuple[str, str]] = []
    for key, value in parse_qsl(query_string(claims.shared), keep_blank_values=True):
        if key.startswith("name_"):
            names.append((key, value))
        elif key == "hand":
            pairs.append((TILE, claims.tile))
        elif key != "winner":
            pairs.append((key, value))
    shared_flags = set(claims.shared.request.get("flags") or ())
    for seat, hand in claims.claims:
        for key, value in parse_qsl(query_string(hand), keep_blank_values=True):
            if CLAIM_FIELD.fullmatch(key) and not (key == "flags" and value in shared_flags):
                pairs.append((seat_field(seat, key), value))
    return urlencode(pairs + names)


def page_field(path: str | None, claims: ClaimsInput) -> str:
    """The page's field an engine error's `field` points at: `claims[1].hand` → `W_hand` (the seat of the second
    claim), `claims[0].win_tile` → `tile`, `claims[0].options.caishen` → `caishen`; empty for none."""
    if not path:
        return ""
    claim = re.fullmatch(r"claims\[(\d+)\](?:\.(.+))?", path)
    if not claim:
        return form_field(path)
    index, rest = int(claim.group(1)), claim.group(2) or ""
    if index >= len(claims.claims):
        return ""
    seat = claims.claims[index][0]
    name = form_field(rest) if rest else "hand"
    if name == "win_tile":
        return TILE
    if CLAIM_FIELD.fullmatch(name):
        return seat_field(seat, name)
    return seat_field(seat, "hand") if name == "winner" or not name else name


def kept_query(ruleset: str, players: int | None = None) -> str:
    """The query of the page as the offline pack keeps it for a game and table size, as a share link writes them:
    the game, and its table's size only where it plays more than one (public/sw.js looks the copy up so)."""
    game = RULESETS[ruleset]
    pairs = [("ruleset", ruleset)]
    if players is not None and len(game.table_sizes) > 1:
        pairs.append((game.players_option.id, str(players)))
    return urlencode(pairs)
