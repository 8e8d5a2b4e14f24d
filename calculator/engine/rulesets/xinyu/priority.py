"""拦胡 (RULES.md §2.5): several players claim the same discard; which one wins it, and why.

Each claimant sends a full xinyu score request for the win on that discard. Their hands are scored
as usual; a claimant whose hand wins gets a level (0 ordinary; 1 单吊, 清一色, 清七对; 2 全风向) from
the reading the engine chose for it. The highest level takes the discard; equal levels go to the first
seat in play order after the discarder (a nearer player who passes lets the next one win: same order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import ScoreError, pick
from ...explain import seat_name
from ...hand import ScoreRequest
from ...notation import InvalidNotationError, parse_tiles
from ...request import parse_request
from ...seats import SEATS, seats_after
from ...tiles import NUM_KINDS, Tile
from .declarations import BONUS_BY_CODE
from .ruleset import PRIORITY_LEVEL_1, PRIORITY_LEVEL_2, evaluate, priority_level

LEVEL_NAMES = {
    0: ("普通胡牌", "ordinary win"),
    1: ("不能拦胡的牌型", "cannot be overtaken by an ordinary win"),
    2: ("全风向", "all honours"),
}


@dataclass(frozen=True)
class Claim:
    seat: str
    position: int  # 1 = the discarder's 下家, 2, 3
    request: ScoreRequest
    result: dict

    @property
    def wins(self) -> bool:
        return bool(self.result.get("win"))

    @property
    def codes(self) -> list[str]:
        return [p["code"] for p in self.result.get("patterns", [])]

    @property
    def level(self) -> int | None:
        return priority_level(self.codes) if self.wins else None

    @property
    def level_patterns(self) -> list[str]:
        wanted = PRIORITY_LEVEL_2 if self.level == 2 else PRIORITY_LEVEL_1
        return [c for c in self.codes if c in wanted] if self.level else []


def _bad(zh: str, en: str, field: str) -> ScoreError:
    return ScoreError("bad_claim", zh, en, field)


CLAIMS_KEYS = frozenset(["discarder", "tile", "claims"])  # the body's fields (each claim is a score request)


def parse_claims(data: object) -> tuple[str, list[tuple[int, ScoreRequest]]]:
    """The discarder and each claim's validated request (the claim's index in the body kept for errors)."""
    if not isinstance(data, Mapping):
        raise ScoreError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    unknown = next((key for key in data if key not in CLAIMS_KEYS), None)
    if unknown is not None:  # as every endpoint: an unknown key is refused, never ignored (API.md)
        raise ScoreError(
            "bad_json", f"请求里没有 {unknown!r} 这一项", f"unknown field {unknown!r} in the request", unknown
        )
    discarder = data.get("discarder")
    if discarder not in SEATS:
        raise ScoreError(
            "bad_seat",
            f"discarder 必须是 E S W N 之一，收到 {discarder!r}",
            f"discarder must be one of E S W N, got {discarder!r}",
            "discarder",
        )
    claims = data.get("claims")
    if not isinstance(claims, list) or not 1 <= len(claims) <= 3:
        raise _bad("claims 必须是 1 到 3 个胡牌请求的列表", "claims must be a list of 1 to 3 score requests", "claims")
    tile = data.get("tile")
    parsed: list[tuple[int, ScoreRequest]] = []
    for i, raw in enumerate(claims):
        field = f"claims[{i}]"
        if not isinstance(raw, Mapping):
            raise ScoreError("bad_json", f"{field} 必须是对象", f"{field} must be an object", field)
        body = dict(raw)
        body.setdefault("ruleset", "xinyu")
        body.setdefault("discarder", discarder)
        if tile is not None:
            body.setdefault("win_tile", tile)
        if body["ruleset"] != "xinyu":
            raise _bad(
                "拦胡只用于新余规则（八支无一炮多响）",
                "拦胡 priority is a xinyu rule (bazhi has one winner only)",
                f"{field}.ruleset",
            )
        try:
            request = parse_request(body)
        except ScoreError as error:
            error.field = f"{field}.{error.field}" if error.field else field
            raise
        parsed.append((i, request))
    _check_same_discard(discarder, parsed, tile)
    return discarder, parsed


def _canonical(tile: object) -> str | None:
    try:
        tiles = parse_tiles(tile) if isinstance(tile, str) else ()
    except InvalidNotationError:
        return None
    return tiles[0].notation if len(tiles) == 1 else None


def _check_same_discard(discarder: str, parsed: list[tuple[int, ScoreRequest]], tile: object) -> None:
    """All claims are on one discard: same discarder, same tile, same table, one claim per seat."""
    first = parsed[0][1]
    seats: set[str] = set()
    for i, request in parsed:
        field = f"claims[{i}]"
        if request.discarder != discarder:
            raise _bad(
                f"{field} 的放铳家不是 {discarder}", f"{field}: the discarder is not {discarder}", f"{field}.discarder"
            )
        if request.win_tile is None:
            raise _bad(
                f"{field} 缺少胡的那张牌（win_tile）",
                f"{field}: the claimed tile (win_tile) is missing",
                f"{field}.win_tile",
            )
        if request.win_tile != first.win_tile or (tile is not None and request.win_tile.notation != _canonical(tile)):
            raise _bad(
                f"所有人必须胡同一张打出的牌：{first.win_tile} 与 {request.win_tile}",
                f"every claim is on the same discard: {first.win_tile} vs {request.win_tile}",
                f"{field}.win_tile",
            )
        if request.options.caishen != first.options.caishen or request.dealer != first.dealer:
            raise _bad(
                f"{field} 的财神或庄家与其他人不同",
                f"{field}: the 财神 or the dealer differs from the other claims",
                field,
            )
        if request.winner in seats:
            raise _bad(f"{request.winner} 家提交了两次", f"seat {request.winner} claims twice", f"{field}.winner")
        seats.add(request.winner)
    _check_copies(parsed)


def _check_copies(parsed: list[tuple[int, ScoreRequest]]) -> None:
    """The claimants' hands and melds plus the one discard cannot hold a fifth copy of a kind."""
    totals = [0] * NUM_KINDS
    for _, request in parsed:
        for kind, count in enumerate(request.all_counts):
            totals[kind] += count
    totals[parsed[0][1].win_tile.index] -= len(parsed) - 1  # every claim counts the same discarded tile
    for kind, count in enumerate(totals):
        if count > 4:
            tile = Tile(kind)
            raise _bad(
                f"所有胡牌者合计有 {count} 张{tile.name_zh}（{tile}），最多 4 张",
                f"the claims hold {count} copies of {tile} together (at most 4)",
                "claims",
            )


def priority(data: object, lang: str = "zh") -> dict:
    """Which claimant wins the discard (a dict), or an error object."""
    try:
        discarder, parsed = parse_claims(data)
    except ScoreError as error:
        return error.to_dict(lang)
    order = seats_after(discarder, SEATS)  # xinyu sits four (RULES.md §1.8)
    claims = sorted(
        (Claim(r.winner, order.index(r.winner) + 1, r, evaluate(r, lang)) for _, r in parsed),
        key=lambda c: c.position,
    )
    winner, reason_code = choose(claims)
    return {
        "ruleset": "xinyu",
        "discarder": discarder,
        "tile": claims[0].request.win_tile.notation,
        "order": list(order),
        "winner": winner.seat if winner else None,
        "reason_code": reason_code,
        "reason": reason_text(winner, reason_code, claims, lang),
        "claims": [claim_dict(c, winner, lang) for c in claims],
    }


def choose(claims: list[Claim]) -> tuple[Claim | None, str]:
    """The highest level wins; equal levels go to the nearest seat after the discarder."""
    winning = [c for c in claims if c.wins]
    if not winning:
        return None, "no_winner"
    top = max(c.level for c in winning)
    best = next(c for c in winning if c.level == top)  # claims are in seat order
    if len(winning) == 1:
        return best, "only_winner"
    if any(c.level == top for c in winning if c is not best):
        return best, "seat_order"
    return best, "higher_level"


def _level_text(claim: Claim, lang: str) -> str:
    if not claim.level:
        return pick(lang, *LEVEL_NAMES[0])
    names = (
        "、".join(BONUS_BY_CODE[c].name.zh for c in claim.level_patterns)
        if lang != "en"
        else ", ".join(BONUS_BY_CODE[c].name.en for c in claim.level_patterns)
    )
    return names


def reason_text(winner: Claim | None, code: str, claims: list[Claim], lang: str) -> str:
    if winner is None:
        return pick(lang, "没有人能胡这张牌", "nobody can win on this discard")
    who = seat_name(winner.seat, lang)
    level = f"{_level_text(winner, lang)}（{pick(lang, '级别', 'level')} {winner.level}）"
    if lang == "en":
        level = f"{_level_text(winner, lang)} (level {winner.level})"
    if code == "only_winner":
        return pick(lang, f"只有{who}能胡：{level}", f"only {who} can win: {level}")
    others = [c for c in claims if c.wins and c is not winner]
    if code == "higher_level":
        beaten = "、".join(f"{seat_name(c.seat, lang)} {c.level}" for c in others)
        if lang == "en":
            beaten = ", ".join(f"{seat_name(c.seat, lang)} {c.level}" for c in others)
        return pick(
            lang,
            f"{who}的{level}高于其他人（{beaten}）：小的不能拦大的",
            f"{who}'s {level} is above the others ({beaten}): a lower level cannot overtake",
        )
    return pick(
        lang,
        f"同级别（{winner.level}）按座位：{who}是放铳家之后最近的一家",
        f"equal level ({winner.level}): {who} is the first after the discarder in play order",
    )


def claim_dict(claim: Claim, winner: Claim | None, lang: str) -> dict:
    result = {k: v for k, v in claim.result.items() if k not in ("request", "explanation")}
    body = {
        "seat": claim.seat,
        "position": claim.position,
        "win": claim.wins,
        "level": claim.level,
        "level_patterns": claim.level_patterns,
        "level_reason": _level_text(claim, lang) if claim.wins else claim.result.get("message"),
        "takes_discard": winner is claim,
        "result": result,
    }
    return body
