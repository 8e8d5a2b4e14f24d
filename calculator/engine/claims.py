"""Several players claim one discard: which one takes it, and why (docs/API-priority.md; RULES.md §1.1, §2.5).

The same for every game: each claim is a full score request, scored as `/api/score` scores it; the game's
declared `[claims]` (`Ruleset.claims`) gives each winning claim its level (xinyu's 拦胡: 单吊, 清一色, 清七对 above an
ordinary win, 全风向 above them; bazhi: none, every win is level 0). The highest level takes the discard; equal
levels go to the first claimant in play order after the discarder (on 抢杠胡 the robbed seat, which a request
names as its discarder). Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import ScoreError
from .explain import seat_name
from .hand import ScoreRequest
from .notation import InvalidNotationError, parse_tiles
from .request import parse_request
from .rulesets import CLAIMS_DEFAULT, RULESETS, Ruleset
from .seats import SEATS, Seats, seat_list, seats_after
from .text import AND, Joined, Msg, Text, msg
from .tiles import NUM_KINDS, Tile

BODY_KEYS = frozenset(["ruleset", "discarder", "tile", "claims"])  # the body's fields (each claim is a score request)
# The flags that are the discard's, not a claimant's: on every claim or on none (抢杠胡 robs one kong for all).
DISCARD_FLAGS = ("robbing_kong",)


@dataclass(frozen=True)
class Claim:
    """One claimant: its seat, its place after the discarder (1 = the 下家), its request and its answer."""

    seat: str
    position: int
    request: ScoreRequest
    result: dict
    level: int | None  # None: the claim does not win
    level_patterns: tuple[str, ...]

    @property
    def wins(self) -> bool:
        return self.level is not None


@dataclass(frozen=True)
class Claims:
    """A validated body: the game, the discarder, the table's seats and each claim's request (with its index in
    the body, for errors)."""

    ruleset: Ruleset
    discarder: str
    seats: Seats
    requests: tuple[tuple[int, ScoreRequest], ...]


def priority(data: object, lang: str = "zh") -> dict:
    """Which claimant takes the discard (docs/API-priority.md), or an error object: what `POST /api/priority`
    answers, and what a page calls with the claims it has gathered."""
    try:
        claims = parse_claims(data)
    except ScoreError as error:
        return error.to_dict(lang)
    return answer(claims, lang)


# ------------------------------------------------------------------------------------------------ reading the body


def _bad(text: Msg, field: str) -> ScoreError:
    return ScoreError("bad_claim", text, field)


def parse_claims(data: object) -> Claims:
    """The body validated: every claim under one game, one card and one dealer, on one discard."""
    if not isinstance(data, Mapping):
        raise ScoreError("bad_json", msg("the request must be a JSON object"))
    unknown = next((key for key in data if key not in BODY_KEYS), None)
    if unknown is not None:  # as every endpoint: an unknown key is refused, never ignored (API.md)
        raise ScoreError("bad_json", msg("unknown field {name!r} in the request", name=unknown), unknown)
    discarder = data.get("discarder")
    _check_discarder(discarder, SEATS)  # a seat of some table; of the claims' card below
    raw = data.get("claims")
    if not isinstance(raw, list) or not 1 <= len(raw) < len(SEATS):
        raise _bad(msg("claims must be a list of 1 to {most} score requests", most=len(SEATS) - 1), "claims")
    for i, claim in enumerate(raw):
        if not isinstance(claim, Mapping):
            raise ScoreError("bad_json", msg("{field} must be an object", field=f"claims[{i}]"), f"claims[{i}]")
    game = _game(data, raw)
    seats = _card_seats(RULESETS[game], raw[0])
    if seats is not None:  # the body's discarder and the number of claims, before any claim is scored
        _check_table(discarder, len(raw), seats)
    tile = data.get("tile")
    requests = []
    for i, claim in enumerate(raw):
        body = dict(claim)
        body.setdefault("ruleset", game)
        body.setdefault("discarder", discarder)
        if tile is not None:
            body.setdefault("win_tile", tile)
        if body["ruleset"] != game:
            other = msg("every claim is under one ruleset: {game} vs {other!r}", game=game, other=body["ruleset"])
            raise _bad(other, f"claims[{i}].ruleset")
        try:
            request = parse_request(body)
        except ScoreError as error:
            error.field = f"claims[{i}].{error.field}" if error.field else f"claims[{i}]"
            raise
        requests.append((i, request))
    claims = Claims(RULESETS[game], discarder, requests[0][1].seats, tuple(requests))
    _check_table(discarder, len(requests), claims.seats)
    _check_one_discard(claims, tile)
    _check_copies(claims)
    return claims


def _game(data: Mapping, claims: list[Mapping]) -> object:
    """The game of every claim: the body's `ruleset`, else the first the claims name, else the registry's default
    for claims (API.md). An unknown id is refused as `/api/score` refuses it."""
    game, field = data.get("ruleset"), "ruleset"
    if game is None:
        named = next((i for i, claim in enumerate(claims) if "ruleset" in claim), None)
        game = CLAIMS_DEFAULT if named is None else claims[named]["ruleset"]
        field = f"claims[{named}].ruleset"
    if not isinstance(game, str) or game not in RULESETS:
        raise ScoreError("unknown_ruleset", msg("unknown ruleset {game!r}", game=game), field)
    return game


def _card_seats(ruleset: Ruleset, claim: Mapping) -> Seats | None:
    """The seats of the first claim's card (`options.players`, docs/seats.md), or None when its options cannot be
    read (its own error is the answer, once the claim is read as a score request)."""
    options = claim.get("options")
    if options is not None and not isinstance(options, Mapping):
        return None
    try:
        return ruleset.seats(options)
    except ScoreError:
        return None


def _check_discarder(discarder: object, seats: Seats) -> None:
    if discarder not in seats:
        no_seat = msg(
            "{field} must be one of {seats}, got {value!r}", field="discarder", seats=seat_list(seats), value=discarder
        )
        raise ScoreError("bad_seat", no_seat, "discarder")


def _check_table(discarder: str, claims: int, seats: Seats) -> None:
    """The discarder sits at the table, which has room for the claims (one seat discards)."""
    _check_discarder(discarder, seats)
    if claims >= len(seats):
        crowded = msg(
            "at a table of {size} at most {most} players claim one discard", size=len(seats), most=len(seats) - 1
        )
        raise _bad(crowded, "claims")


def _same_card(ruleset: Ruleset, a, b) -> bool:
    """The same options: every option but those that only decide another (xinyu's indicator gives the 财神, which
    is compared), and the house rules."""
    return a.house == b.house and all(
        getattr(a, option.id) == getattr(b, option.id) for option in ruleset.options if not option.gives
    )


def _check_one_discard(claims: Claims, tile: object) -> None:
    """All claims are on one discard: the same discarder and tile, the same card and dealer, one claim per seat,
    and all or none robbing the kong (抢杠胡 is the discard's, not a claimant's)."""
    first = claims.requests[0][1]
    seats: set[str] = set()
    for i, request in claims.requests:
        field = f"claims[{i}]"
        if request.win_tile is None:  # first: without a tile the request was read as waits, its discarder dropped
            raise _bad(msg("{field}: the claimed tile (win_tile) is missing", field=field), f"{field}.win_tile")
        if request.discarder != claims.discarder:
            other = msg("{field}: the discarder is not {seat}", field=field, seat=claims.discarder)
            raise _bad(other, f"{field}.discarder")
        if request.win_tile != first.win_tile:
            other = msg(
                "every claim is on the same discard: {first} vs {other}", first=first.win_tile, other=request.win_tile
            )
            raise _bad(other, f"{field}.win_tile")
        if tile is not None and request.win_tile.notation != _canonical(tile):
            other = msg(
                "the discard (tile) is {tile!r}, but {field} claims {claimed}",
                tile=tile,
                field=field,
                claimed=request.win_tile,
            )
            raise _bad(other, "tile")
        if not _same_card(claims.ruleset, request.options, first.options):
            other = msg("{field}: the options (the table's rule card) differ from the other claims'", field=field)
            raise _bad(other, f"{field}.options")
        if request.dealer != first.dealer:
            raise _bad(msg("{field}: the dealer differs from the other claims'", field=field), field)
        if any(request.has(flag) != first.has(flag) for flag in DISCARD_FLAGS):
            robbing = msg("{field}: robbing a kong is the discard's: every claim robs it, or none", field=field)
            raise _bad(robbing, f"{field}.flags")
        if request.winner in seats:
            raise _bad(msg("seat {seat} claims twice", seat=request.winner), f"{field}.winner")
        seats.add(request.winner)


def _canonical(tile: object) -> str | None:
    try:
        tiles = parse_tiles(tile) if isinstance(tile, str) else ()
    except InvalidNotationError:
        return None
    return tiles[0].notation if len(tiles) == 1 else None


def _check_copies(claims: Claims) -> None:
    """The claimants' hands and melds plus the one discard cannot hold a fifth copy of a kind."""
    totals = [0] * NUM_KINDS
    for _, request in claims.requests:
        for kind, count in enumerate(request.all_counts):
            totals[kind] += count
    totals[claims.requests[0][1].win_tile.index] -= len(claims.requests) - 1  # every claim counts the same discard
    for kind, count in enumerate(totals):
        if count > 4:
            tile = Tile(kind)
            copies = msg(
                "the claims hold {count} copies of {tile} together (at most 4)",
                count=count,
                tile=tile,
                name_zh=tile.name_zh,
            )
            raise _bad(copies, "claims")


# ------------------------------------------------------------------------------------------------ the answer


def ranked(claims: Claims, lang: str) -> list[Claim]:
    """Each claim scored and levelled, in play order after the discarder."""
    order = seats_after(claims.discarder, claims.seats)
    found = []
    for _, request in claims.requests:
        result = claims.ruleset.evaluate(request, lang)
        held = claims.ruleset.claim_level(result)
        level, patterns = held if held is not None else (None, ())
        found.append(Claim(request.winner, order.index(request.winner) + 1, request, result, level, patterns))
    return sorted(found, key=lambda claim: claim.position)


def choose(claims: list[Claim]) -> tuple[Claim | None, str]:
    """The highest level wins; equal levels go to the nearest seat after the discarder (`claims` are in that
    order): the winner and the `reason_code`."""
    winning = [claim for claim in claims if claim.wins]
    if not winning:
        return None, "no_winner"
    top = max(claim.level for claim in winning)
    best = next(claim for claim in winning if claim.level == top)
    if len(winning) == 1:
        return best, "only_winner"
    if any(claim.level == top for claim in winning if claim is not best):
        return best, "seat_order"
    return best, "higher_level"


def answer(claims: Claims, lang: str) -> dict:
    """The answer of docs/API-priority.md for a validated body."""
    return settle(claims, lang)[0]


def settle(claims: Claims, lang: str) -> tuple[dict, list[Claim]]:
    """The answer of docs/API-priority.md, and the claims scored in play order after the discarder, each with its
    whole score answer (the request echo and the explanation the answer leaves out: what a page draws each claim's
    result card from)."""
    scored = ranked(claims, lang)
    winner, reason_code = choose(scored)
    rules = claims.ruleset.claims
    return {
        "ruleset": claims.ruleset.id,
        "rule": rules.rule,
        "discarder": claims.discarder,
        "tile": scored[0].request.win_tile.notation,
        "order": list(seats_after(claims.discarder, claims.seats)),
        "winner": winner.seat if winner else None,
        "reason_code": reason_code,
        "reason": reason_text(claims.ruleset, winner, reason_code, scored, lang),
        "claims": [claim_dict(claims.ruleset, claim, winner, lang) for claim in scored],
    }, scored


def win_level(ruleset: Ruleset, answer: dict, lang: str) -> dict | None:
    """What a result card says of a win's level on a claimed discard (xinyu's 拦胡 level), in a game whose
    `[claims]` has levels: `{"level": 1, "patterns": ["qingyise"], "name": "清一色", "rule": "§2.5"}`; None in a
    game without levels (every win alike) and for an answer that does not win."""
    held = ruleset.claim_level(answer)
    if held is None or not ruleset.claims.levels:
        return None
    level, patterns = held
    return {
        "level": level,
        "patterns": list(patterns),
        "name": level_name(ruleset, patterns, lang),
        "rule": ruleset.claims.rule,
    }


def level_name(ruleset: Ruleset, patterns: tuple[str, ...], lang: str) -> str:
    """A level as a player says it: the patterns that give it, or what an ordinary win is called."""
    if not patterns:
        return ruleset.claims.ordinary(lang)
    return Joined(AND, [ruleset.pattern_by_code[code].name for code in patterns])(lang)


def _level_said(ruleset: Ruleset, claim: Claim, lang: str) -> str:
    """A winning claim's level in a reason: its name, and its number in a game that has levels."""
    name = level_name(ruleset, claim.level_patterns, lang)
    if not ruleset.claims.levels:
        return name
    return msg("{name} (level {level})", name=name, level=claim.level)(lang)


def reason_text(ruleset: Ruleset, winner: Claim | None, code: str, claims: list[Claim], lang: str) -> str:
    """Why the winner takes the discard, in the game's own words (`[claims] reasons`)."""
    said: Text = ruleset.claims.reasons[code]
    if winner is None:
        return said(lang)
    others = [claim for claim in claims if claim.wins and claim is not winner]
    beaten = AND(lang).join([f"{seat_name(c.seat, lang)} {c.level}" for c in others])
    return said(lang).format(
        who=seat_name(winner.seat, lang), level=_level_said(ruleset, winner, lang), beaten=beaten, n=winner.level
    )


def claim_dict(ruleset: Ruleset, claim: Claim, winner: Claim | None, lang: str) -> dict:
    """One claim of the answer: its seat and place, its level and why, whether it takes the discard, and its
    score answer (without the request echo and the explanation)."""
    result = {key: value for key, value in claim.result.items() if key not in ("request", "explanation")}
    return {
        "seat": claim.seat,
        "position": claim.position,
        "win": claim.wins,
        "level": claim.level,
        "level_patterns": list(claim.level_patterns),
        "level_reason": level_name(ruleset, claim.level_patterns, lang) if claim.wins else result.get("message"),
        "takes_discard": winner is claim,
        "result": result,
    }
