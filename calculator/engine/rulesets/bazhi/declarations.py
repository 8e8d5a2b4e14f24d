"""bazhi's facts (RULES.md §1, §5.1), as `declarations.toml` states them: options, tariffs, flags, house rules,
patterns, readings and the names the answer gives its codes. Everything else of the program reads these; the
scoring modules beside this one use them too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...tiles import RED_DRAGON
from ..declarations import load

ID = "bazhi"
KINDS = frozenset([*range(27), RED_DRAGON])  # the 27 suited kinds and 红中: 112 tiles

DECLARED = load(Path(__file__).with_name("declarations.toml"))
ZUI = DECLARED.group("zui").patterns  # the 嘴子 of §1.4, by the codes of the answer's `zui`
JIAO_TRIGGERS = DECLARED.group("jiao").patterns  # the 交 triggers of §1.5, by the codes of `jiao.triggers`
BAO_REASONS = DECLARED.texts["bao_reasons"]
BLOCKED = DECLARED.texts[
    "blocked"
]  # why a hand waits on nothing for lack of 八支: "ready" in shape, or "never"  # 包牌 (§1.6), by the answer's `bao_reason`
HEADLINE = DECLARED.texts["headline"]  # the numbers a player reads first (Ruleset.headline)
LABELS = DECLARED.labels  # facts shown as labels: they change no number (under the default card)


@dataclass(frozen=True)
class Tariff:
    """One tariff of §1.3 (`[tariffs.<name>]` in declarations.toml)."""

    name: str
    di_fan: tuple[int, int, int, int]  # 和牌, 压档, 自摸, 自摸压档
    zhi_numerator: int  # 支番 = T × numerator ÷ denominator, rounded half up
    zhi_denominator: int
    zui: int  # one 嘴子 in 番
    kong: Mapping[str, int]  # 杠分 by meld type (the winner's own kongs)
    stake: int  # 底分: one 底, a player's stake in a 底 game [reading]
    jiao: int  # 交分 of one 交 (one 底)
    jiao_zui: int  # 交分 of one extra 嘴 (also the 通底 payment)


TARIFFS = {
    name: Tariff(name, **{**numbers, "di_fan": tuple(numbers["di_fan"])})
    for name, numbers in DECLARED.data["tariffs"].items()
}
