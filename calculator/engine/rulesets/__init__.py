"""The registry of rulesets: one package per game (`bazhi/`, `xinyu/`), each a `Ruleset` (base.py) that declares
its game's facts as data (declarations.py). The rest of the program loops over `RULESETS` instead of naming a
game."""

from __future__ import annotations

from typing import Protocol

from ..hand import ScoreRequest
from ..tiles import Tile
from .base import Ruleset
from .bazhi import RULESET as BAZHI
from .bazhi import shanten as bazhi_shanten
from .xinyu import RULESET as XINYU
from .xinyu import shanten as xinyu_shanten

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (BAZHI, XINYU)}
DEFAULT = next(iter(RULESETS))  # the first game is the page's and the form's default


class Distance(Protocol):
    """How far a hand is from ready under a game's own wins (issue 13): each game's `shanten` module."""

    def shanten(self, request: ScoreRequest) -> int | None: ...

    def blocked_by(self, request: ScoreRequest, waits: list[Tile], shanten: int | None) -> str | None: ...

    def discards(self, request: ScoreRequest) -> list[dict]: ...


DISTANCES: dict[str, Distance] = {BAZHI.id: bazhi_shanten, XINYU.id: xinyu_shanten}

__all__ = ["DEFAULT", "DISTANCES", "RULESETS", "Distance", "Ruleset"]
