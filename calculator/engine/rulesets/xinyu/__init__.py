"""`xinyu`: 新余冲击麻将 v2.0.1 (seed 000), read as RULES.md §2. Payments in 龙, 财神 wildcards."""

from .scoring import RULESET

__all__ = ["RULESET"]
