"""The registry of rulesets: one package per game (`bazhi/`, `xinyu/`), each a `Ruleset` (base.py) that declares
its game's facts as data (declarations.py). The rest of the program loops over `RULESETS` instead of naming a
game."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from ..hand import ScoreRequest
from ..tiles import Tile
from .base import Ruleset
from .bazhi import RULESET as BAZHI
from .bazhi import deal as bazhi_deal
from .bazhi import shanten as bazhi_shanten
from .xinyu import RULESET as XINYU
from .xinyu import deal as xinyu_deal
from .xinyu import shanten as xinyu_shanten

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (BAZHI, XINYU)}
DEFAULT = next(iter(RULESETS))  # the first game is the page's and the form's default


class Distance(Protocol):
    """How far a hand is from ready under a game's own wins (issue 13): each game's `shanten` module."""

    def shanten(self, request: ScoreRequest) -> int | None: ...

    def blocked_by(self, request: ScoreRequest, waits: list[Tile], shanten: int | None) -> str | None: ...

    def blocked_message(self, request: ScoreRequest, blocked_by: str, shanten: int | None, lang: str) -> str: ...

    def discards(self, request: ScoreRequest) -> list[dict]: ...

    def draws(self, request: ScoreRequest) -> dict: ...

    def nearest(self, request: ScoreRequest) -> dict | None: ...


DISTANCES: dict[str, Distance] = {BAZHI.id: bazhi_shanten, XINYU.id: xinyu_shanten}

# Random hands of each game for learners (issue 13 §3): `deal(rng, favour)`, a request meant to be a win, more
# often in a shape that makes the pattern `favour` (a code of the game's patterns, or None).
DEALS: dict[str, Callable[[Random, str | None], dict]] = {BAZHI.id: bazhi_deal.deal, XINYU.id: xinyu_deal.deal}

__all__ = ["DEALS", "DEFAULT", "DISTANCES", "RULESETS", "Distance", "Ruleset"]
