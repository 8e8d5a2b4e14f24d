"""Another reading of the rule card told by its numbers (RULES.md §5.3): the engine's `alternatives` give each
reading's nets (API.md); the card also says how the reading comes to them, in the arithmetic of the game's headline
(`[headline] lines`: xinyu's 龙 and P, "龙（合计） 0 + 1 = 1 · P（每份） 11 + 1 = 12"; bazhi's 番 and 交).
Plain Python: the phone draws the card too."""

from __future__ import annotations

from calculator.engine import score
from calculator.engine.rulesets import RULESETS


def reading_arithmetic(request: dict, lang: str) -> str:
    """The headline's arithmetic of `request` (the hand under another reading: its card changed), or empty when
    that reading is no win or the game names no such lines."""
    if not RULESETS[request["ruleset"]].headline_lines:
        return ""
    return headline_arithmetic(score(request, lang))


def headline_arithmetic(answer: dict) -> str:
    """The arithmetic of a scored answer's headline numbers, from its explanation (empty for no win)."""
    if not answer.get("win"):
        return ""
    codes = RULESETS[answer["ruleset"]].headline_lines
    return " · ".join(f"{line['label']} {line['detail']}" for line in answer["explanation"] if line["code"] in codes)
