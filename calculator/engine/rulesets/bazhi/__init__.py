"""`bazhi`: the 112-tile 红中 game of seed 002 (315 / 525), read as RULES.md §1.

`declarations` holds the game's facts as data; `reading` (支番, 嘴子, 底番), `jiao` (交牌), `bao` (包牌),
`payments` and `explain` hold one function per rule; `ruleset` ties them into the answer.
"""

from .ruleset import RULESET

__all__ = ["RULESET"]
