"""The one entry point both rulesets share: `score(request_dict) -> response_dict` (API.md)."""

from __future__ import annotations

from .errors import ScoreError
from .hand import ScoreRequest
from .request import check_flags, parse_request
from .rulesets import RULESETS, Ruleset
from .tiles import Tile
from .waits import wait_kinds
from .ways import Way, ways


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
        return waits_result(request, lang)  # `alternatives` is ignored in waits mode (API.md)
    answer = ruleset.evaluate(request, lang)
    if answer.get("win") is False:
        # for learners: what to throw, and one nearest win with the tiles that do not fit
        answer["discards"] = ruleset.distance.discards(request)
        answer["nearest"] = ruleset.distance.nearest(request)
    if request.alternatives:
        answer["alternatives"] = alternatives(ruleset, request, answer)
    return answer


def alternatives(ruleset: Ruleset, request: ScoreRequest, answer: dict) -> list[dict]:
    """The same hand under the card's other readings (RULES.md §5.3): every scoring house rule and every value
    other than the card's, one option changed at a time, listed where the verdict, the not-a-win code or any
    seat's net differs; in the order of the ruleset's house rules, values in their listed order."""
    card = request.options.house
    found = []
    for rule in ruleset.house_rules_at_stake(request):
        for choice in rule.choices:
            if choice.value == card[rule.id] and type(choice.value) is type(card[rule.id]):
                continue
            other = ruleset.evaluate(request.with_card(card.replace(rule.id, choice.value)), brief=True)
            entry = differing(rule.id, choice.value, answer, other)
            if entry is not None:
                found.append(entry)
    return found


def differing(rule_id: str, value: object, answer: dict, other: dict) -> dict | None:
    """The alternatives entry for `other` (API.md), or None when it answers as `answer` does."""
    if other["win"]:
        if answer["win"] and other["net"] == answer["net"]:
            return None
        return {"option": rule_id, "value": value, "win": True, "net": dict(other["net"])}
    if not answer["win"] and other["code"] == answer["code"]:
        return None
    return {"option": rule_id, "value": value, "win": False, "code": other["code"]}


def waits_result(request: ScoreRequest, lang: str = "zh") -> dict:
    ruleset = RULESETS[request.ruleset]
    waits = wait_kinds(ruleset, request)
    self_draw, discard = ways(request, ruleset)
    distance = ruleset.distance
    shanten = 0 if waits else distance.shanten(request)  # ready: its waits are not empty (what shanten 0 means)
    blocked = distance.blocked_by(request, waits, shanten)
    answer = {
        "ruleset": request.ruleset,
        "win": False,
        "request": request.to_dict(),
        "waits": waits_won(ruleset, request, waits, (self_draw, discard), lang),
        "ways": [way.to_dict() for way in (self_draw, discard)],
        "shanten": shanten,
        "blocked_by": blocked,
    }
    if blocked:
        answer["blocked_message"] = distance.blocked_message(request, blocked, shanten, lang)
    if shanten:  # not ready, and a win can be reached: what to hope for (API.md `draws`)
        answer.update(distance.draws(request))
    return answer


def waits_won(ruleset: Ruleset, request: ScoreRequest, waits: list[Tile], both: tuple[Way, Way], lang: str) -> list:
    """Each wait of a waits answer, won both ways (`wait`); what the game works out of the 13 tiles and the ways
    for every wait is worked out once (`Ruleset.waiting`)."""
    if not waits:
        return []
    waiting = ruleset.waiting(request, both)
    return [wait(ruleset, request, both, waiting, tile, lang) for tile in waits]


def wait(
    ruleset: Ruleset, request: ScoreRequest, both: tuple[Way, Way], waiting: object, tile: Tile, lang: str
) -> dict:
    """One wait of a waits answer, won both ways (the self-draw, the discard: `ways.py`). Nothing of the request
    changes but the win tile, the discarder and the flags (the request was validated with each way's), so only
    the flag rules are checked again, for a way that keeps a flag (one depends on the win tile: 抢杠胡 while
    holding the robbed tile); the ways that pass are scored together (`Ruleset.evaluate_ways`: they share the
    tiles, and every wait shares `waiting`). The answers are brief (no request echo, groups or explanation): the
    page links each wait to its full result.

    A way that does not win is `null` (API.md), and `why_not` says why, by way: the code and message of the
    refusal (a flag conflict) or of the not-a-win (4龙 by discard), which the page shows in its place.
    """
    refused = [
        flag_error(request.with_win(tile, way.discarder, way.flags), ruleset, lang) if way.flags else None
        for way in both
    ]
    passed = [way for way, error in zip(both, refused, strict=True) if error is None]
    scored = iter(ruleset.evaluate_ways(request, tile, passed, lang, waiting))
    answers = [error if error is not None else next(scored) for error in refused]
    entry = {"tile": tile.notation}
    why_not = {}
    for way, answer in zip(both, answers, strict=True):
        won = answer.get("win") is True
        entry[way.how] = answer if won else None
        if not won:
            why_not[way.how] = reason_of(answer)
    if why_not:
        entry["why_not"] = why_not
    return entry


def reason_of(answer: dict) -> dict:
    """What a way that does not win says instead: the code and message of its error or of its not-a-win."""
    said = answer.get("error", answer)
    return {"code": said["code"], "message": said["message"]}


def flag_error(request: ScoreRequest, ruleset: Ruleset, lang: str) -> dict | None:
    """The error answer of a request the flag rules refuse, or None."""
    try:
        check_flags(request, ruleset)
    except ScoreError as error:
        return error.to_dict(lang)
    return None
