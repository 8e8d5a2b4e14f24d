"""300 requests for the offline pack's sameness test (issue 22): every game the pack serves, its house rules with
`alternatives`, waits (with `shanten` and `draws`), 14-tile hands that are not a win (`discards`, `nearest`) and
errors. Built from the acceptance cases and hands the games deal themselves (seeded: the same list every run).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from random import Random

from calculator.engine import score
from calculator.engine.deal import change_one
from calculator.engine.rulesets import RULESETS, SERVED

CASES = Path(__file__).parent / "cases"
COUNT = 300


def acceptance_requests() -> list[dict]:
    requests = []
    for path in sorted(CASES.glob("*.json")):
        requests += [case["request"] for case in json.loads(path.read_text(encoding="utf-8"))]
    return requests


def with_house(request: dict, rng: Random) -> dict:
    """The request under a card with one house rule at another of its values, and its other readings."""
    rules = [rule for rule in RULESETS[request["ruleset"]].house if len(rule.choices) > 1]
    options = dict(request.get("options") or {})
    if rules:
        rule = rng.choice(rules)
        options["house"] = {rule.id: rng.choice([c.value for c in rule.choices])}
    return {**request, "options": options, "alternatives": True}


def waits_of(request: dict) -> dict:
    """The 13 tiles before the win: the waits of a ready hand."""
    return {key: value for key, value in request.items() if key != "win_tile"}


def broken(request: dict, rng: Random) -> dict:
    """An error the engine names: a tile that is no tile, a fifth copy, a seat that is none, a flag that cannot
    apply, a missing tile."""
    kind = rng.randrange(5)
    if kind == 0:
        return {**request, "hand": request["hand"] + "x"}
    if kind == 1:
        return {**request, "hand": request["hand"][:-2] + "1m1m1m1m1m"[: len(request["hand"][:-2]) and 10]}
    if kind == 2:
        return {**request, "winner": "Q"}
    if kind == 3:
        return {**request, "flags": ["kong_bloom"], "discarder": None}
    return {**request, "hand": request["hand"][:-2]}


def requests(count: int = COUNT) -> list[tuple[dict, str]]:
    """(request, language) pairs: both languages in turn."""
    rng = Random(22)
    found: list[dict] = acceptance_requests()
    games = list(SERVED)  # the pack holds the served games (a game only the tests register is not packed)
    seed = 0
    while len(found) < count:
        game = games[seed % len(games)]
        dealt = RULESETS[game].deal(Random(seed))
        kinds = sorted(RULESETS[game].kinds)
        found.append(with_house(dealt, rng))  # a win (most often), its other readings
        waits = waits_of(dealt)
        found.append(waits)  # ready: waits
        found.append(change_one(waits, rng, kinds))  # often not ready: shanten and draws
        found.append(with_house(change_one(dealt, rng, kinds), rng))  # 14 tiles, often no win: discards, nearest
        found.append(broken(dealt, rng))
        seed += 1
    return [(request, "en" if n % 2 else "zh") for n, request in enumerate(found[:count])]


def kinds_covered(pairs: list[tuple[dict, str]]) -> Counter[str]:
    """What the list holds, as the server answers it, and how many of each (the test checks each kind is there):
    the games, wins and their `alternatives`, 13-tile hands with their `waits` (ready) or their `shanten` and
    `draws` (not ready), 14-tile hands that are no win with their `discards` and `nearest`, errors."""
    kinds: Counter[str] = Counter()
    for request, lang in pairs:
        answer = score(request, lang)
        if request["ruleset"] in RULESETS:
            kinds[request["ruleset"]] += 1
        if "error" in answer:
            kinds["error"] += 1
            continue
        if "waits" in answer:
            kinds["waits" if answer["waits"] else "not ready"] += 1
        elif answer.get("win"):
            kinds["win"] += 1
        else:
            kinds["no win"] += 1
        kinds.update(key for key in ("alternatives", "shanten", "draws", "discards", "nearest") if answer.get(key))
    return kinds
