"""Turn a request dict (API.md) into a validated `ScoreRequest`, or raise `ScoreError`.

The checks run in a fixed order so that each mistake gets the most specific code: structure, ruleset,
options, tiles, melds, seats, flags, copies, tile count, then flag conflicts.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import ScoreError
from .errors import flag_conflict as conflict
from .flags import Situation, unmet
from .hand import MELD_TYPES, Meld, ScoreRequest, concealed_size
from .notation import TILE_BY_NOTATION, InvalidNotationError, format_tiles, parse_tiles, read_tiles
from .rulesets import RULESETS, SERVED, Ruleset
from .seats import Seats, previous_seat, seat_list
from .text import Joined, msg, pmsg
from .tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS, Tile
from .ways import way_request, ways

MAX_TILE_TEXT = 200  # longer than any real hand written with spaces; keeps parsing cheap


def _is_mapping(value: object) -> bool:
    """A JSON object: a dict almost always, answered without the slower abstract-class check."""
    return type(value) is dict or isinstance(value, Mapping)


def parse_request(data: object) -> ScoreRequest:
    if not _is_mapping(data):
        raise ScoreError("bad_json", msg("the request must be a JSON object"))
    if not REQUEST_KEYS.issuperset(data):
        _unknown_key(data, REQUEST_KEYS, "")  # raises
    alternatives = data.get("alternatives", False)
    if type(alternatives) is not bool:
        raise ScoreError("bad_json", msg("alternatives must be true or false"), "alternatives")
    ruleset = _ruleset(data.get("ruleset"))
    options = ruleset.parse_options(data.get("options"))
    hand, hand_counts = _tiles(data.get("hand"), "hand", required=True, counted=True)
    win_tile = _win_tile(data.get("win_tile"))
    melds = _melds(data.get("melds"), ruleset, options)
    lacks = ruleset.lacked_kinds
    if lacks and any([hand_counts[kind] for kind in lacks]):  # fewer kinds to look at than tiles
        _check_in_ruleset(hand, ruleset, "hand")  # raises, naming the first tile the game lacks
    if win_tile is not None and win_tile.index not in ruleset.kinds:
        _check_in_ruleset((win_tile,), ruleset, "win_tile")  # raises
    seats = options.seats
    winner, dealer, discarder = _seats(data, seats)
    if win_tile is None:
        discarder = None  # waits mode: each way of winning sets its own discarder (ways.py, API.md)
    elif discarder == winner:
        raise ScoreError(
            "bad_seat", msg("the discarder cannot be the winner (leave it empty for a self-draw)"), "discarder"
        )
    if melds:
        _check_meld_feeders(melds, winner, seats)
    flags = _flags(data.get("flags"), ruleset)
    request = ScoreRequest(
        ruleset=ruleset.id,
        options=options,
        hand=hand,
        win_tile=win_tile,
        melds=melds,
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        flags=flags,
        alternatives=alternatives,
        counted=hand_counts,
    )
    # The last checks, each answered inline on the everyday request (a helper is called to raise): every
    # call costs more than its work here, as scoring runs between other work with the processor's caches cold.
    if not COPIES_ALLOWED.issuperset(request.all_counts):  # cheaper than `max`, which compares one by one
        _check_copies(request)
    if len(hand) != concealed_size(len(melds)):
        _check_tile_count(request)
    if flags:  # every flag rule is about a flag that is set
        if win_tile is None:  # waits mode: each way of winning with the flags that apply to it
            for way in ways(request, ruleset):
                check_flags(way_request(request, way), ruleset)
        else:
            check_flags(request, ruleset)
    return request


# The fields of a request and of a meld (API.md); anything else is refused, naming the key.
REQUEST_KEYS = frozenset(
    ["ruleset", "options", "hand", "win_tile", "melds", "winner", "dealer", "discarder", "alternatives", "flags"]
)
MELD_KEYS = frozenset(["type", "tiles", "from"])


def _unknown_key(data: Mapping, known: frozenset[str], where: str) -> None:
    """Raise `bad_json` for the first key of `data` that is not a field (`where` is the object's path)."""
    key = next(key for key in data if key not in known)
    name = f"{where}.{key}" if where else str(key)
    raise ScoreError("bad_json", msg("unknown field {name!r} in the request", name=name), name)


def _ruleset(name: object) -> Ruleset:
    """The request's game; the error lists the games the deployment serves (not one the tests registered)."""
    if not isinstance(name, str) or name not in RULESETS:
        served = [RULESETS[game] for game in SERVED]
        games = [pmsg("a game to choose", "{game!r}", game=r.id, title=r.title) for r in served]
        games = Joined(pmsg("between games to choose", " or "), games)
        raise ScoreError(
            "unknown_ruleset", msg("unknown ruleset {name!r} (use {games})", name=name, games=games), "ruleset"
        )
    return RULESETS[name]


def _tiles(text: object, field: str, required: bool, counted: bool = False):
    """The tiles of `field` (with their counts when `counted`: `read_tiles`), or `ScoreError`."""
    if text is None and not required:
        return ()
    if not isinstance(text, str):
        raise ScoreError("bad_json", msg('{field} must be a tile string such as "123m"', field=field), field)
    if len(text) > MAX_TILE_TEXT:
        too_long = msg(
            "{field} is too long: {length} characters, at most {most} (spaces included)",
            field=field,
            length=len(text),
            most=MAX_TILE_TEXT,
        )
        raise ScoreError("bad_tile", too_long, field)
    try:
        return read_tiles(text) if counted else parse_tiles(text)
    except InvalidNotationError as error:
        unreadable = msg(
            "{field}: {reason} at position {position} of {text!r}",
            field=field,
            reason=error.reason,
            position=error.position + 1,
            char=error.char,
            text=text,
        )
        raise ScoreError("bad_tile", unreadable, field, {"position": error.position}) from None


def _win_tile(text: object) -> Tile | None:
    """The winning tile; None (the waits) when it is left out, null or empty (spaces are ignored: API.md)."""
    if text is None or text == "" or (isinstance(text, str) and text.isspace()):
        return None
    if isinstance(text, str) and text in TILE_BY_NOTATION:
        return TILE_BY_NOTATION[text]  # the usual "8m" or "C", without the general reader
    tiles = _tiles(text, "win_tile", required=True)
    if len(tiles) != 1:
        raise ScoreError(
            "wrong_tile_count",
            msg("win_tile must be exactly one tile, got {count} in {text!r}", count=len(tiles), text=text),
            "win_tile",
        )
    return tiles[0]


def _check_in_ruleset(tiles, ruleset: Ruleset, field: str) -> None:
    """Raise for the first tile the game lacks (callers ask the everyday question in one set operation first)."""
    for tile in tiles:
        if tile.index not in ruleset.kinds:
            lacked = msg(
                "{tile} ({name_en}) is not a tile of {game}",
                tile=tile,
                name_en=tile.name_en,
                name_zh=tile.name_zh,
                game=ruleset.id,
                title=ruleset.title,
            )
            raise ScoreError("tile_not_in_ruleset", lacked, field)


def _melds(raw: object, ruleset: Ruleset, options) -> tuple[Meld, ...]:
    if raw is None or raw == []:  # most requests (a list compares with == in one step)
        return ()
    if not isinstance(raw, list):
        raise ScoreError("bad_json", msg("melds must be a list"), "melds")
    if len(raw) > 4:
        raise ScoreError("bad_meld", msg("at most 4 melds, got {count}", count=len(raw)), "melds")
    return tuple([_meld(item, number, ruleset, options) for number, item in enumerate(raw, start=1)])


def _meld(item: object, number: int, ruleset: Ruleset, options) -> Meld:
    """One meld, checked in one pass in this order: an object, its type, chows allowed, its tiles, the ruleset's
    tiles, its shape, the ruleset's own meld rule, then the feeder's seat (its relation to the winner waits for
    the seats: `_check_meld_feeders`). Messages are written only when one is raised."""
    field, tiles_field, from_field = MELD_FIELDS[number - 1]
    if not _is_mapping(item):
        raise ScoreError("bad_meld", msg("meld {number} must be an object", number=number), field)
    if not MELD_KEYS.issuperset(item):
        _unknown_key(item, MELD_KEYS, field)  # raises
    kind = item.get("type")
    if kind not in MELD_TYPES:
        unknown = msg(
            "meld {number}: unknown type {kind!r} (pung chow kong_exposed kong_added kong_concealed)",
            number=number,
            kind=kind,
        )
        raise ScoreError("bad_meld", unknown, field)
    if kind == "chow" and not ruleset.allows_chow:
        raise ScoreError("chow_not_allowed", msg("{game} has no chows", game=ruleset.id, title=ruleset.title), field)
    tiles, shape = _meld_tiles(item.get("tiles"), tiles_field)
    if not ruleset.kinds.issuperset(shape):
        _check_in_ruleset(tiles, ruleset, field)  # raises, naming the first tile the game lacks
    if shape not in MELD_SHAPES[kind]:
        _raise_bad_shape(kind, tiles, number, field)
    ruleset.check_meld(tiles, options, number, field)
    feeder = item.get("from")
    if feeder is not None and feeder not in options.seats:
        _seat(feeder, from_field, options.seats, required=True)  # raises
    return Meld(type=kind, tiles=tiles, from_seat=feeder)


# The names errors give each meld's fields (at most four melds), written once instead of per meld and request.
MELD_FIELDS = tuple((f"melds[{i}]", f"melds[{i}].tiles", f"melds[{i}].from") for i in range(4))

# Every good meld as its sorted tile indices, per type: a shape check is one set look-up.
_PUNGS = frozenset((i, i, i) for i in range(NUM_KINDS))
_KONGS = frozenset((i, i, i, i) for i in range(NUM_KINDS))
_CHOWS = frozenset((i, i + 1, i + 2) for i in range(FIRST_HONOUR) if i % 9 <= 6)  # one suit: 8s 9s 1z is no chow
MELD_SHAPES = {"pung": _PUNGS, "chow": _CHOWS, "kong_exposed": _KONGS, "kong_added": _KONGS, "kong_concealed": _KONGS}

# Every meld as it is usually written ("555m", "EEEE", "123s"), with its tiles and shape: one look-up reads it.
# Keyed on a meld's text, 89 of them (a pung, a kong and a chow of each kind that has one); anything else is read.
MELD_TEXTS: dict[str, tuple[tuple[Tile, ...], tuple[int, ...]]] = {
    format_tiles([ALL_TILES[kind] for kind in shape]): (tuple(ALL_TILES[kind] for kind in shape), shape)
    for shapes in (_PUNGS, _KONGS, _CHOWS)
    for shape in sorted(shapes)
}


def _meld_tiles(text: object, field: str) -> tuple[tuple[Tile, ...], tuple[int, ...]]:
    """A meld's tiles as written, and its shape (their sorted indices); an unreadable text raises as `_tiles`."""
    if type(text) is str and text in MELD_TEXTS:
        return MELD_TEXTS[text]
    tiles = _tiles(text, field, required=True)  # raises for anything unreadable
    return tiles, tuple(sorted([tile.index for tile in tiles]))


def _raise_bad_shape(kind: str, tiles: tuple[Tile, ...], number: int, field: str) -> None:
    if kind == "chow":
        shape = msg("three consecutive tiles of one suit")
    else:
        shape = msg("{size} identical tiles", size=4 if kind.startswith("kong") else 3)
    written = "".join(map(str, tiles))
    bad_shape = msg(
        "meld {number} ({kind}) must be {shape}, got {tiles!r}", number=number, kind=kind, shape=shape, tiles=written
    )
    raise ScoreError("bad_meld", bad_shape, field)


def _check_meld_feeders(melds: tuple[Meld, ...], winner: str, seats: Seats) -> None:
    for number, meld in enumerate(melds, start=1):
        field = MELD_FIELDS[number - 1][2]
        if meld.type == "kong_concealed" and meld.from_seat is not None:
            raise ScoreError(
                "bad_meld", msg("meld {number} is a concealed kong: it has no 'from'", number=number), field
            )
        if meld.type == "chow":
            fed_by = previous_seat(winner, seats)
            if meld.from_seat is not None and meld.from_seat != fed_by:
                fed = msg(
                    "meld {number}: a chow is fed by the winner's previous player ({seat})", number=number, seat=fed_by
                )
                raise ScoreError("bad_meld", fed, field)
            continue
        if meld.type != "kong_concealed" and meld.from_seat is None:
            unfed = msg("meld {number} ({kind}) needs 'from': the seat that fed it", number=number, kind=meld.type)
            raise ScoreError("bad_meld", unfed, field)
        if meld.from_seat == winner:
            raise ScoreError("bad_meld", msg("meld {number} cannot be fed by the winner", number=number), field)


def _seats(data: Mapping, seats: Seats) -> tuple[str, str, str | None]:
    """The winner, the dealer and the discarder (None for a self-draw), checked in that order against the table's
    seats (N at a table of three is no seat); `_seat` is called only to raise (or for the discarder's None), so the
    everyday request costs three look-ups."""
    winner, dealer, discarder = data.get("winner"), data.get("dealer"), data.get("discarder")
    if winner not in seats:
        _seat(winner, "winner", seats, required=True)
    if dealer not in seats:
        _seat(dealer, "dealer", seats, required=True)
    if discarder is not None and discarder not in seats:
        _seat(discarder, "discarder", seats, required=False)
    return winner, dealer, discarder


def _seat(value: object, field: str, seats: Seats, required: bool) -> str | None:
    """A seat of the table, or `bad_seat` listing the seats there are (E S W at a table of three)."""
    if value is None and not required:
        return None
    if type(value) is not str or value not in seats:  # a list or an object is no seat either
        no_seat = msg("{field} must be one of {seats}, got {value!r}", field=field, seats=seat_list(seats), value=value)
        raise ScoreError("bad_seat", no_seat, field)
    return value


NO_FLAGS: frozenset[str] = frozenset()


def _flags(raw: object, ruleset: Ruleset) -> frozenset[str]:
    if raw is None or raw == []:  # most requests: no flags (a list compares with == in one step)
        return NO_FLAGS
    if not isinstance(raw, list):
        raise ScoreError("bad_flag", msg("flags must be a list"), "flags")
    for flag in raw:
        if type(flag) is not str or flag not in ruleset.flag_ids:  # a list or an object cannot be looked up
            _unknown_flag(flag, ruleset)  # raises
    return frozenset(raw)


def _unknown_flag(flag: object, ruleset: Ruleset) -> None:
    """`bad_flag`, saying so when another registered game has the flag."""
    elsewhere = isinstance(flag, str) and any(flag in other.flag_ids for other in RULESETS.values())
    if elsewhere:
        unknown = msg("unknown flag {flag!r} (not used in {game})", flag=flag, game=ruleset.id, title=ruleset.title)
    else:
        unknown = msg("unknown flag {flag!r}", flag=flag)
    raise ScoreError("bad_flag", unknown, "flags")


COPIES_ALLOWED = frozenset(range(5))  # 0 to 4 of a kind


def _check_copies(request: ScoreRequest) -> None:
    """Raise for the first kind held more than four times (`parse_request` asks whether any is, in one step)."""
    for index, count in enumerate(request.all_counts):
        if count > 4:
            tile = Tile(index)
            copies = msg("{count} copies of {tile} (at most 4)", count=count, tile=tile, name_zh=tile.name_zh)
            raise ScoreError("too_many_copies", copies, "hand")


def _check_tile_count(request: ScoreRequest) -> None:
    expected = concealed_size(len(request.melds))
    if len(request.hand) != expected:
        melds = msg("with {count} meld(s)", count=len(request.melds)) if request.melds else msg("with no melds")
        wrong = msg(
            "the hand (before the winning tile) must hold {expected} tiles {melds}, got {count}",
            expected=expected,
            melds=melds,
            count=len(request.hand),
        )
        raise ScoreError("wrong_tile_count", wrong, "hand")


def check_flags(request: ScoreRequest, ruleset: Ruleset) -> None:
    """The flag rules (API.md, RULES.md §4): each flag set, in the order its ruleset declares them, against the
    conditions declared for it, in their declared order; the first that fails is the error."""
    if not request.flags:
        return  # every rule is about a flag that is set
    situation = situation_of(request, ruleset)
    for flag in ruleset.flags:
        if flag.id in request.flags:
            failed = unmet(flag, situation)
            if failed:
                raise conflict(msg("{flag}: {reason}", flag=flag.label, reason=failed[0].reason))


def situation_of(request: ScoreRequest, ruleset: Ruleset) -> Situation:
    """What the flag conditions ask, read off a request (the wild tile is the game's to name)."""
    win = request.win_tile
    wild = ruleset.wild_kind(request.options)
    return Situation(
        winner=request.winner,
        dealer=request.dealer,
        discarder=request.discarder,
        kongs=len(request.kongs),
        melds=len(request.melds),
        flags=request.flags,
        win_tile_copies=None if win is None else request.all_counts[win.index],
        wild_copies=None if wild is None else request.concealed_counts[wild.index],
        win_tile_wild=None if win is None or wild is None else int(win.index == wild.index),
    )
