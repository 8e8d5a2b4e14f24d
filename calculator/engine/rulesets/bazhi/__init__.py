"""`bazhi`: the 112-tile 红中 game of seed 002 (315 / 525), read as RULES.md §1."""

from .scoring import RULESET

__all__ = ["RULESET"]
