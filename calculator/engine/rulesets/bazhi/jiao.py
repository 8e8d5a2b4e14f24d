"""交牌 (RULES.md §1.5): what makes a hand 交, and how many 交 and extra 嘴 each loser pays (outside the 底)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...hand import ScoreRequest

if TYPE_CHECKING:
    from .reading import HandFacts

# The special 交 that 杠后开花 makes with 压档 or 单吊, and 杠上杠后开花 on its own.
GANGHUA_TRIGGERS = ("ganghua_yadang", "ganghua_dandiao", "gangshang_ganghua")

# Without 可多交: the 嘴 a trigger uses up to reach its 交 (the cheapest trigger present counts).
TRIGGER_COST = {
    "qingyise": 0,
    "shuangbazhi": 0,
    "tianhu": 0,
    "dihu": 0,
    "shuangsihe": 2,
    "ganghua_yadang": 1,
    "ganghua_dandiao": 1,
    "gangshang_ganghua": 1,
    "hunyise_zimo": 2,
    "two_zui": 2,
}


def jiao_triggers(
    request: ScoreRequest, facts: HandFacts, zui: list[str], sihe: list[int], yadang: int | None, dandiao: bool
) -> list[str]:
    """Every trigger of 交 this reading has: direct, two 嘴, or special (海底 under haidi=zui is only a 嘴)."""
    triggers = []
    hue = facts.colour
    if hue == "qingyise":
        triggers.append("qingyise")
    if facts.shuangbazhi:
        triggers.append("shuangbazhi")
    if len(sihe) >= 2:
        triggers.append("shuangsihe")
    flags = request.flags
    if "heavenly" in flags:
        triggers.append("tianhu")
    if "earthly" in flags:
        triggers.append("dihu")
    if len(zui) >= 2:
        triggers.append("two_zui")
    ganghua = facts.ganghua
    if ganghua and yadang is not None:
        triggers.append("ganghua_yadang")
    if ganghua and dandiao:
        triggers.append("ganghua_dandiao")
    if "double_kong_bloom" in flags:
        triggers.append("gangshang_ganghua")
    if hue == "hunyise" and facts.self_draw:
        triggers.append("hunyise_zimo")
    return triggers


def zui_units(facts: HandFacts, zui: list[str]) -> int:
    """U: the 嘴 for 交. 自摸 is one more 嘴 inside 交, except when 杠后开花 already covers it."""
    return len(zui) + (1 if facts.self_draw and not facts.ganghua else 0)


def jiao_count(request: ScoreRequest, facts: HandFacts, triggers: list[str], zui: list[str]) -> tuple[int, int]:
    """(交 count, extra 嘴) each loser pays, with or without 可多交 (a table option)."""
    units = zui_units(facts, zui)
    return multi_jiao(triggers, units) if request.options.multi_jiao else single_jiao(triggers, units)


def single_jiao(triggers: list[str], units: int) -> tuple[int, int]:
    """Without 可多交: one 交 plus every 嘴 beyond those used to reach it."""
    cost = min([TRIGGER_COST[t] for t in triggers])
    return 1, units - cost


def multi_jiao(triggers: list[str], units: int) -> tuple[int, int]:
    """With 可多交: every direct trigger is a 交, and every two remaining 嘴 make one more."""
    count = sum([t in triggers for t in ("qingyise", "shuangbazhi", "tianhu", "dihu")])
    remaining = units
    if "shuangsihe" in triggers:
        count += 1
        remaining -= 2
    if any([t in triggers for t in GANGHUA_TRIGGERS]):
        count += 1
        remaining -= 1
    return count + remaining // 2, remaining % 2
