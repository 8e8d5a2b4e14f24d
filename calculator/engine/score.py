"""The one entry point both rulesets share: `score(request_dict) -> response_dict` (API.md)."""

from __future__ import annotations

from .errors import ScoreError
from .hand import ScoreRequest
from .request import parse_request
from .rulesets import RULESETS
from .tiles import next_seat
from .waits import wait_kinds

SELF_DRAW_ONLY = frozenset(["kong_bloom", "double_kong_bloom", "last_tile", "heavenly", "pao_long"])
DISCARD_ONLY = frozenset(["robbing_kong", "earthly", "liable_caishen"])


def score(data: object, lang: str = "zh") -> dict:
    """Score a request dict: a result (win or not), the waits of a 13-tile hand, or an error object."""
    try:
        request = parse_request(data)
    except ScoreError as error:
        return error.to_dict(lang)
    return score_request(request, lang)


def score_request(request: ScoreRequest, lang: str = "zh") -> dict:
    ruleset = RULESETS[request.ruleset]
    if request.win_tile is None:
        return waits_result(request, lang)
    return ruleset.evaluate(request, lang)


def _variant(request: ScoreRequest, tile, discarder: str | None, lang: str) -> dict:
    """One way of winning on a wait, scored like any request (a flag that cannot apply is dropped)."""
    drop = DISCARD_ONLY if discarder is None else SELF_DRAW_ONLY
    body = request.to_dict()
    body["win_tile"] = tile.notation
    body["discarder"] = discarder
    body["flags"] = [f for f in body["flags"] if f not in drop]
    result = score(body, lang)
    result.pop("request", None)
    result.pop("explanation", None)
    return result


def waits_result(request: ScoreRequest, lang: str = "zh") -> dict:
    ruleset = RULESETS[request.ruleset]
    waits = wait_kinds(ruleset, request)
    discarder = next_seat(request.winner)
    return {
        "ruleset": request.ruleset,
        "win": False,
        "request": request.to_dict(),
        "waits": [
            {
                "tile": tile.notation,
                "self_draw": _variant(request, tile, None, lang),
                "discard": _variant(request, tile, discarder, lang),
            }
            for tile in waits
        ],
    }
