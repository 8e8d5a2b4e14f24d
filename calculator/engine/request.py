"""Turn a request dict (API.md) into a validated `ScoreRequest`, or raise `ScoreError`.

The checks run in a fixed order so that each mistake gets the most specific code: structure, ruleset,
options, tiles, melds, seats, flags, copies, tile count, then flag conflicts.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import ScoreError
from .errors import flag_conflict as conflict
from .hand import FLAG_NAMES_EN, FLAG_NAMES_ZH, FLAGS, MELD_TYPES, Meld, ScoreRequest
from .notation import InvalidNotationError, parse_tiles
from .rulesets import RULESETS, Ruleset
from .tiles import ALL_TILES, FIRST_HONOUR, SEATS, Tile, previous_seat

MAX_TILE_TEXT = 200  # longer than any real hand written with spaces; keeps parsing cheap
TILE_BY_NOTATION = {tile.notation: tile for tile in ALL_TILES}  # "8m" -> the tile


def _is_mapping(value: object) -> bool:
    """A JSON object: a dict almost always, answered without the slower abstract-class check."""
    return type(value) is dict or isinstance(value, Mapping)


def parse_request(data: object) -> ScoreRequest:
    if not _is_mapping(data):
        raise ScoreError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    ruleset = _ruleset(data.get("ruleset"))
    options = ruleset.parse_options(data.get("options"))
    hand = _tiles(data.get("hand"), "hand", required=True)
    win_tile = _win_tile(data.get("win_tile"))
    melds = _melds(data.get("melds"), ruleset, options)
    _check_in_ruleset(hand, ruleset, "hand")
    if win_tile is not None:
        _check_in_ruleset((win_tile,), ruleset, "win_tile")
    winner = _seat(data.get("winner"), "winner", required=True)
    dealer = _seat(data.get("dealer"), "dealer", required=True)
    discarder = _seat(data.get("discarder"), "discarder", required=False)
    if discarder == winner:
        raise ScoreError(
            "bad_seat",
            "放铳的人不能是胡牌的人（自摸请不填放铳家）",
            "the discarder cannot be the winner (leave it empty for a self-draw)",
            "discarder",
        )
    _check_meld_feeders(melds, winner, ruleset)
    flags = _flags(data.get("flags"), ruleset)
    request = ScoreRequest(
        ruleset=ruleset.name,
        options=options,
        hand=hand,
        win_tile=win_tile,
        melds=melds,
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        flags=flags,
    )
    _check_copies(request)
    _check_tile_count(request)
    check_flags(request, ruleset)
    return request


def _ruleset(name: object) -> Ruleset:
    if not isinstance(name, str) or name not in RULESETS:
        raise ScoreError(
            "unknown_ruleset",
            f"未知的规则 {name!r}（可选：bazhi 八支，xinyu 新余）",
            f"unknown ruleset {name!r} (use 'bazhi' or 'xinyu')",
            "ruleset",
        )
    return RULESETS[name]


def _tiles(text: object, field: str, required: bool) -> tuple[Tile, ...]:
    if text is None and not required:
        return ()
    if not isinstance(text, str):
        raise ScoreError(
            "bad_json", f'{field} 必须是牌的字符串，例如 "123m"', f'{field} must be a tile string such as "123m"', field
        )
    if len(text) > MAX_TILE_TEXT:
        raise ScoreError("bad_tile", f"{field} 太长", f"{field} is too long", field)
    try:
        return parse_tiles(text)
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
    if ruleset.kinds.issuperset([tile.index for tile in tiles]):
        return  # the usual case, answered in one set operation
    for tile in tiles:
        if tile.index not in ruleset.kinds:
            raise ScoreError(
                "tile_not_in_ruleset",
                f"{ruleset.name_zh}没有 {tile.name_zh}（{tile}）这张牌",
                f"{tile} ({tile.name_en}) is not a tile of {ruleset.name_en}",
                field,
            )


def _melds(raw: object, ruleset: Ruleset, options) -> tuple[Meld, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ScoreError("bad_json", "melds 必须是列表", "melds must be a list", "melds")
    if len(raw) > 4:
        raise ScoreError("bad_meld", f"最多 4 组副露，收到 {len(raw)} 组", f"at most 4 melds, got {len(raw)}", "melds")
    melds = []
    for number, item in enumerate(raw, start=1):
        field, tiles_field, from_field = MELD_FIELDS[number - 1]
        if not _is_mapping(item):
            raise ScoreError("bad_meld", f"第 {number} 组副露格式不对", f"meld {number} must be an object", field)
        kind = item.get("type")
        if kind not in MELD_TYPES:
            raise ScoreError(
                "bad_meld",
                f"第 {number} 组副露类型 {kind!r} 不存在（pung chow kong_exposed kong_added kong_concealed）",
                f"meld {number}: unknown type {kind!r} (pung chow kong_exposed kong_added kong_concealed)",
                field,
            )
        if kind == "chow" and not ruleset.allows_chow:
            raise ScoreError("chow_not_allowed", f"{ruleset.name_zh}不准吃牌", f"{ruleset.name_en} has no chows", field)
        tiles = _tiles(item.get("tiles"), tiles_field, required=True)
        _check_in_ruleset(tiles, ruleset, field)
        _check_meld_shape(kind, tiles, number, field)
        ruleset.check_meld(tiles, options, number, field)
        feeder = item.get("from")
        if feeder is not None:
            feeder = _seat(feeder, from_field, required=True)
        melds.append(Meld(kind, tiles, feeder))
    return tuple(melds)


# The names errors give each meld's fields (at most four melds), written once instead of per meld and request.
MELD_FIELDS = tuple((f"melds[{i}]", f"melds[{i}].tiles", f"melds[{i}].from") for i in range(4))


def _check_meld_shape(kind: str, tiles: tuple[Tile, ...], number: int, field: str) -> None:
    indices = sorted([tile.index for tile in tiles])  # indices, not Tiles: cheaper to sort and compare
    size = 4 if kind.startswith("kong") else 3
    if kind == "chow":
        first = indices[0] if indices else 0
        ok = (
            len(indices) == 3
            and first < FIRST_HONOUR
            and indices == [first, first + 1, first + 2]
            and first // 9 == (first + 2) // 9  # one suit: 8s 9s 1z is no chow
        )
        shape_zh, shape_en = "同花色的三张顺牌", "three consecutive tiles of one suit"
    else:
        ok = len(indices) == size and indices[0] == indices[-1]
        shape_zh, shape_en = f"{size} 张相同的牌", f"{size} identical tiles"
    if not ok:
        raise ScoreError(
            "bad_meld",
            f"第 {number} 组副露 {kind} 必须是{shape_zh}，收到 {''.join(map(str, tiles))!r}",
            f"meld {number} ({kind}) must be {shape_en}, got {''.join(map(str, tiles))!r}",
            field,
        )


def _check_meld_feeders(melds: tuple[Meld, ...], winner: str, ruleset: Ruleset) -> None:
    for number, meld in enumerate(melds, start=1):
        field = f"melds[{number - 1}].from"
        if meld.type == "kong_concealed" and meld.from_seat is not None:
            raise ScoreError(
                "bad_meld",
                f"第 {number} 组是暗杠，没有来源",
                f"meld {number} is a concealed kong: it has no 'from'",
                field,
            )
        if meld.type == "chow":
            if meld.from_seat is not None and meld.from_seat != previous_seat(winner):
                raise ScoreError(
                    "bad_meld",
                    f"第 {number} 组吃牌只能吃上家（{previous_seat(winner)}）的牌",
                    f"meld {number}: a chow is fed by the winner's previous player ({previous_seat(winner)})",
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


def _seat(value: object, field: str, required: bool) -> str | None:
    if value is None and not required:
        return None
    if value not in SEATS:
        raise ScoreError(
            "bad_seat",
            f"{field} 必须是 E S W N 之一，收到 {value!r}",
            f"{field} must be one of E S W N, got {value!r}",
            field,
        )
    return value  # type: ignore[return-value]


def _flags(raw: object, ruleset: Ruleset) -> frozenset[str]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, list):
        raise ScoreError("bad_flag", "flags 必须是列表", "flags must be a list", "flags")
    for flag in raw:
        if flag not in FLAGS or flag not in ruleset.flags:
            where_zh = "" if flag not in FLAGS else f"（{ruleset.name_zh}不用这个标记）"
            where_en = "" if flag not in FLAGS else f" (not used in {ruleset.name_en})"
            raise ScoreError("bad_flag", f"未知的标记 {flag!r}{where_zh}", f"unknown flag {flag!r}{where_en}", "flags")
    return frozenset(raw)


def _check_copies(request: ScoreRequest) -> None:
    if max(request.all_counts) <= 4:
        return  # the usual case, answered without walking the kinds
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
    expected = 13 - 3 * len(request.melds)
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
    """The flag rules (API.md): each flag against the discarder, the kongs, the seats, and the others."""
    if not request.flags:
        return  # every rule below is about a flag that is set
    kongs = len(request.kongs)
    for flag in FLAGS:
        if flag not in request.flags:
            continue
        zh, en = FLAG_NAMES_ZH[flag], FLAG_NAMES_EN[flag]
        if flag in ("kong_bloom", "double_kong_bloom", "last_tile", "heavenly", "pao_long") and not request.self_draw:
            raise conflict(f"{zh}只能是自摸，不能有放铳家", f"{en} needs a self-draw (no discarder)")
        if flag in ("robbing_kong", "earthly", "liable_caishen") and request.self_draw:
            raise conflict(f"{zh}需要指定放铳家", f"{en} needs a discarder")
    if request.has("kong_bloom") and kongs < 1:
        raise conflict("杠后开花需要至少一个杠", "kong_bloom needs a kong")
    if request.has("double_kong_bloom") and kongs < 2:
        raise conflict("杠上杠后开花需要至少两个杠", "double_kong_bloom needs two kongs")
    if request.has("heavenly"):
        if request.winner != request.dealer:
            raise conflict("天胡只能是庄家", "heavenly needs the dealer as the winner")
        if request.melds:
            raise conflict("天胡不能有副露或杠", "heavenly needs a hand with no melds")
    if request.has("earthly"):
        if request.winner == request.dealer:
            raise conflict("地胡只能是闲家", "earthly needs a winner who is not the dealer")
        if request.melds:
            raise conflict("地胡不能有副露或杠", "earthly needs a hand with no melds")
        if request.has("robbing_kong"):
            raise conflict("地胡和抢杠胡不能同时成立", "earthly and robbing_kong cannot both hold")
    ruleset.check_flags(request)
