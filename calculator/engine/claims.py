"""Several players claim the same discard: which one takes it, and why (docs/API-priority.md, RULES.md §2.5).

One entry point for every game: the registered game that ranks claims (`Ruleset.resolves_claims`, xinyu's 拦胡)
answers; the others have one winner per discard.
"""

from __future__ import annotations

from .rulesets import RULESETS


def priority(data: object, lang: str = "zh") -> dict:
    """The claims of `data` ranked by the game that ranks claims (its answer names the game)."""
    ruleset = next(ruleset for ruleset in RULESETS.values() if ruleset.resolves_claims)
    return ruleset.priority(data, lang)
