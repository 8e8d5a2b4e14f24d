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
from .tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS, Tile
from .ways import way_request, ways

MAX_TILE_TEXT = 200  # longer than any real hand written with spaces; keeps parsing cheap


def _is_mapping(value: object) -> bool:
    """A JSON object: a dict almost always, answered without the slower abstract-class check."""
    return type(value) is dict or isinstance(value, Mapping)


def parse_request(data: object) -> ScoreRequest:
    if not _is_mapping(data):
        raise ScoreError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    if not REQUEST_KEYS.issuperset(data):
        _unknown_key(data, REQUEST_KEYS, "")  # raises
    alternatives = data.get("alternatives", False)
    if type(alternatives) is not bool:
        raise ScoreError(
            "bad_json", "alternatives 必须是 true 或 false", "alternatives must be true or false", "alternatives"
        )
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
            "bad_seat",
            "放铳的人不能是胡牌的人（自摸请不填放铳家）",
            "the discarder cannot be the winner (leave it empty for a self-draw)",
            "discarder",
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
    raise ScoreError("bad_json", f"请求里没有 {name!r} 这一项", f"unknown field {name!r} in the request", name)


def _ruleset(name: object) -> Ruleset:
    """The request's game; the error lists the games the deployment serves (not one the tests registered)."""
    if not isinstance(name, str) or name not in RULESETS:
        served = [RULESETS[game] for game in SERVED]
        raise ScoreError(
            "unknown_ruleset",
            f"未知的规则 {name!r}（可选：{'，'.join(f'{r.id} {r.title.zh}' for r in served)}）",
            f"unknown ruleset {name!r} (use {' or '.join(repr(r.id) for r in served)})",
            "ruleset",
        )
    return RULESETS[name]


def _tiles(text: object, field: str, required: bool, counted: bool = False):
    """The tiles of `field` (with their counts when `counted`: `read_tiles`), or `ScoreError`."""
    if text is None and not required:
        return ()
    if not isinstance(text, str):
        raise ScoreError(
            "bad_json", f'{field} 必须是牌的字符串，例如 "123m"', f'{field} must be a tile string such as "123m"', field
        )
    if len(text) > MAX_TILE_TEXT:
        raise ScoreError("bad_tile", f"{field} 太长", f"{field} is too long", field)
    try:
        return read_tiles(text) if counted else parse_tiles(text)
    except InvalidNotationError as error:
        raise ScoreError(
            "bad_tile",
            f"{field} 第 {error.position + 1} 个字符 {error.char!r} 无法识别：{text!r}",
            f"{field}: {error.reason} at position {error.position + 1} of {text!r}",
            field,
            {"position": error.position},
        ) from None


def _win_tile(text: object) -> Tile | None:
    if text is None or text == "":
        return None
    if isinstance(text, str) and text in TILE_BY_NOTATION:
        return TILE_BY_NOTATION[text]  # the usual "8m" or "C", without the general reader
    tiles = _tiles(text, "win_tile", required=True)
    if len(tiles) != 1:
        raise ScoreError(
            "wrong_tile_count",
            f"胡的牌必须正好是一张，收到 {len(tiles)} 张：{text!r}",
            f"win_tile must be exactly one tile, got {len(tiles)} in {text!r}",
            "win_tile",
        )
    return tiles[0]


def _check_in_ruleset(tiles, ruleset: Ruleset, field: str) -> None:
    """Raise for the first tile the game lacks (callers ask the everyday question in one set operation first)."""
    for tile in tiles:
        if tile.index not in ruleset.kinds:
            raise ScoreError(
                "tile_not_in_ruleset",
                f"{ruleset.title.zh}没有 {tile.name_zh}（{tile}）这张牌",
                f"{tile} ({tile.name_en}) is not a tile of {ruleset.id}",
                field,
            )


def _melds(raw: object, ruleset: Ruleset, options) -> tuple[Meld, ...]:
    if raw is None or raw == []:  # most requests (a list compares with == in one step)
        return ()
    if not isinstance(raw, list):
        raise ScoreError("bad_json", "melds 必须是列表", "melds must be a list", "melds")
    if len(raw) > 4:
        raise ScoreError("bad_meld", f"最多 4 组副露，收到 {len(raw)} 组", f"at most 4 melds, got {len(raw)}", "melds")
    return tuple([_meld(item, number, ruleset, options) for number, item in enumerate(raw, start=1)])


def _meld(item: object, number: int, ruleset: Ruleset, options) -> Meld:
    """One meld, checked in one pass in this order: an object, its type, chows allowed, its tiles, the ruleset's
    tiles, its shape, the ruleset's own meld rule, then the feeder's seat (its relation to the winner waits for
    the seats: `_check_meld_feeders`). Messages are written only when one is raised."""
    field, tiles_field, from_field = MELD_FIELDS[number - 1]
    if not _is_mapping(item):
        raise ScoreError("bad_meld", f"第 {number} 组副露格式不对", f"meld {number} must be an object", field)
    if not MELD_KEYS.issuperset(item):
        _unknown_key(item, MELD_KEYS, field)  # raises
    kind = item.get("type")
    if kind not in MELD_TYPES:
        raise ScoreError(
            "bad_meld",
            f"第 {number} 组副露类型 {kind!r} 不存在（pung chow kong_exposed kong_added kong_concealed）",
            f"meld {number}: unknown type {kind!r} (pung chow kong_exposed kong_added kong_concealed)",
            field,
        )
    if kind == "chow" and not ruleset.allows_chow:
        raise ScoreError("chow_not_allowed", f"{ruleset.title.zh}不准吃牌", f"{ruleset.id} has no chows", field)
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
        shape_zh, shape_en = "同花色的三张顺牌", "three consecutive tiles of one suit"
    else:
        size = 4 if kind.startswith("kong") else 3
        shape_zh, shape_en = f"{size} 张相同的牌", f"{size} identical tiles"
    raise ScoreError(
        "bad_meld",
        f"第 {number} 组副露 {kind} 必须是{shape_zh}，收到 {''.join(map(str, tiles))!r}",
        f"meld {number} ({kind}) must be {shape_en}, got {''.join(map(str, tiles))!r}",
        field,
    )


def _check_meld_feeders(melds: tuple[Meld, ...], winner: str, seats: Seats) -> None:
    for number, meld in enumerate(melds, start=1):
        field = MELD_FIELDS[number - 1][2]
        if meld.type == "kong_concealed" and meld.from_seat is not None:
            raise ScoreError(
                "bad_meld",
                f"第 {number} 组是暗杠，没有来源",
                f"meld {number} is a concealed kong: it has no 'from'",
                field,
            )
        if meld.type == "chow":
            fed_by = previous_seat(winner, seats)
            if meld.from_seat is not None and meld.from_seat != fed_by:
                raise ScoreError(
                    "bad_meld",
                    f"第 {number} 组吃牌只能吃上家（{fed_by}）的牌",
                    f"meld {number}: a chow is fed by the winner's previous player ({fed_by})",
                    field,
                )
            continue
        if meld.type != "kong_concealed" and meld.from_seat is None:
            raise ScoreError(
                "bad_meld",
                f"第 {number} 组副露要写明是谁打的（from）",
                f"meld {number} ({meld.type}) needs 'from': the seat that fed it",
                field,
            )
        if meld.from_seat == winner:
            raise ScoreError(
                "bad_meld",
                f"第 {number} 组副露不能来自胡牌者自己",
                f"meld {number} cannot be fed by the winner",
                field,
            )


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
        raise ScoreError(
            "bad_seat",
            f"{field} 必须是 {seat_list(seats)} 之一，收到 {value!r}",
            f"{field} must be one of {seat_list(seats)}, got {value!r}",
            field,
        )
    return value


NO_FLAGS: frozenset[str] = frozenset()


def _flags(raw: object, ruleset: Ruleset) -> frozenset[str]:
    if raw is None or raw == []:  # most requests: no flags (a list compares with == in one step)
        return NO_FLAGS
    if not isinstance(raw, list):
        raise ScoreError("bad_flag", "flags 必须是列表", "flags must be a list", "flags")
    for flag in raw:
        if type(flag) is not str or flag not in ruleset.flag_ids:  # a list or an object cannot be looked up
            _unknown_flag(flag, ruleset)  # raises
    return frozenset(raw)


def _unknown_flag(flag: object, ruleset: Ruleset) -> None:
    """`bad_flag`, saying so when another registered game has the flag."""
    elsewhere = isinstance(flag, str) and any(flag in other.flag_ids for other in RULESETS.values())
    where_zh = f"（{ruleset.title.zh}不用这个标记）" if elsewhere else ""
    where_en = f" (not used in {ruleset.id})" if elsewhere else ""
    raise ScoreError("bad_flag", f"未知的标记 {flag!r}{where_zh}", f"unknown flag {flag!r}{where_en}", "flags")


COPIES_ALLOWED = frozenset(range(5))  # 0 to 4 of a kind


def _check_copies(request: ScoreRequest) -> None:
    """Raise for the first kind held more than four times (`parse_request` asks whether any is, in one step)."""
    for index, count in enumerate(request.all_counts):
        if count > 4:
            tile = Tile(index)
            raise ScoreError(
                "too_many_copies",
                f"{tile.name_zh}（{tile}）有 {count} 张，最多 4 张",
                f"{count} copies of {tile} (at most 4)",
                "hand",
            )


def _check_tile_count(request: ScoreRequest) -> None:
    expected = concealed_size(len(request.melds))
    if len(request.hand) != expected:
        melds_zh = f"{len(request.melds)} 组副露时" if request.melds else "没有副露时"
        melds_en = f"with {len(request.melds)} meld(s)" if request.melds else "with no melds"
        raise ScoreError(
            "wrong_tile_count",
            f"手牌（不含胡的那张）应为 {expected} 张（{melds_zh}），收到 {len(request.hand)} 张",
            f"the hand (before the winning tile) must hold {expected} tiles {melds_en}, got {len(request.hand)}",
            "hand",
        )


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
                reason = failed[0].reason
                raise conflict(f"{flag.label.zh}：{reason.zh}", f"{flag.label.en}: {reason.en}")


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
    )
