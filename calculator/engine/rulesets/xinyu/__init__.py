"""`xinyu`: 新余冲击麻将 v2.0.1 (seed 000), read as RULES.md §2. Payments in 龙, 财神 wildcards.

`declarations` holds the game's facts as data; `wilds` (the 财神 and the legal wins), `reading` (the 龙
bonuses), `payments` and `explain` hold one function per rule; `ruleset` ties them into the answer.
"""

from .ruleset import RULESET

__all__ = ["RULESET"]
