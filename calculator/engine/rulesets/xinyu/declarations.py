"""xinyu's facts (RULES.md §2, §5.2), as `declarations.toml` states them: options, flags, house rules, the 龙
bonuses and their values, readings and the names the answer gives its codes. Everything else of the program
reads these; the scoring modules beside this one use them too."""

from __future__ import annotations

from pathlib import Path

from ...tiles import NUM_KINDS
from ..declarations import load

ID = "xinyu"
KINDS = frozenset(range(NUM_KINDS))  # all 34 kinds: 136 tiles

DECLARED = load(Path(__file__).with_name("declarations.toml"))
BONUSES = DECLARED.group("bonuses").patterns  # the 龙 bonuses of §2.3, in the order the answer lists them
BONUS_BY_CODE = {pattern.code: pattern for pattern in BONUSES}
LONG = {pattern.code: pattern.numbers["long"] for pattern in BONUSES}  # the 龙 each bonus adds (§2.3)
SILONG_MORE_WITH_SHAPE = BONUS_BY_CODE["silong"].numbers["more_with_shape"]  # 4龙 with a legal shape: this on top
SILONG_DETAIL = DECLARED.texts["silong_detail"]  # 4龙's line of the explanation, with a shape and without
SHAPE_NAMES = DECLARED.texts["shape_names"]
BAO_REASONS = DECLARED.texts["bao_reasons"]  # who pays for all, by the answer's `bao_reason`
HEADLINE = DECLARED.texts["headline"]  # the numbers a player reads first (Ruleset.headline)
LABELS = DECLARED.labels
ROOM_STAKES = DECLARED.table.stake.choices  # §2.6: a 冲击 room's stake
