"""tuidaohu's facts, as declarations.toml states them."""

from __future__ import annotations

from pathlib import Path

from calculator.engine.rulesets.declarations import load
from calculator.engine.tiles import NUM_KINDS

ID = "tuidaohu"
KINDS = frozenset(range(NUM_KINDS))  # all 34 kinds: 136 tiles

DECLARED = load(Path(__file__).with_name("declarations.toml"))
DOUBLES = {pattern.code: pattern for pattern in DECLARED.group("doubles").patterns}  # §T.2, in the answer's order
FLAG_DOUBLES = {"kong_bloom": "ganghua", "last_tile": "haidi", "kong_discard": "gangshangpao"}  # flag -> double
NOT_A_WIN = DECLARED.texts["not_a_win"]
LINES = DECLARED.texts["lines"]
HEADLINE = DECLARED.texts["headline"]
REASONS = DECLARED.texts["payments"]  # the payment rows' reasons, by code
PART = "points"  # a hand is paid in points alone
