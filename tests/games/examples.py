"""What the generic suites expect of a game: the `examples.toml` beside its declarations, in its own package (a
game the deployment serves, or one the tests register)."""

from __future__ import annotations

import sys
import tomllib
from functools import cache
from pathlib import Path

from calculator.engine.rulesets import RULESETS, Ruleset


def package_of(ruleset: Ruleset) -> Path:
    """The folder of a game's package (where its declarations.toml is)."""
    return Path(sys.modules[type(ruleset).__module__].__file__).parent


@cache
def examples(game: str) -> dict:
    return tomllib.loads((package_of(RULESETS[game]) / "examples.toml").read_text(encoding="utf-8"))


def hands(game: str) -> list[dict]:
    """The game's worked hands: each a request (API.md) and the nets it gives."""
    return [
        {"request": {"melds": [], "flags": [], **hand["request"]}, "net": hand["net"]}
        for hand in examples(game)["hands"]
    ]


def table_body(game: str, hand: dict) -> dict:
    """A new table (`POST /api/tables`) for a worked hand: its game, the table's options of the hand, its dealer."""
    ruleset, request = RULESETS[game], hand["request"]
    table_ids = {option.id for option in ruleset.table_options}
    options = {key: value for key, value in request.get("options", {}).items() if key in table_ids}
    return {"ruleset": game, "options": options, "dealer": request["dealer"]}


def hand_body(game: str, hand: dict) -> dict:
    """The worked hand as a table records it (`POST /api/tables/<id>/hands`): the per-hand options only (the table
    fills the rest, and the dealer)."""
    ruleset, request = RULESETS[game], hand["request"]
    per_hand = {option.id for option in ruleset.options if option.per_hand}
    options = {key: value for key, value in request.get("options", {}).items() if key in per_hand}
    body = {key: value for key, value in request.items() if key not in ("ruleset", "options", "dealer")}
    return {**body, "options": options} if options else body
