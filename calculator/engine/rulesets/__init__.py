"""The registry of rulesets: one package per game (`bazhi/`, `xinyu/`), each a `Ruleset` (base.py) that declares
its game's facts as data (declarations.py). The rest of the program loops over `RULESETS` instead of naming a
game."""

from __future__ import annotations

from .base import Ruleset
from .bazhi import RULESET as BAZHI
from .xinyu import RULESET as XINYU

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (BAZHI, XINYU)}
DEFAULT = next(iter(RULESETS))  # the first game is the page's and the form's default

__all__ = ["DEFAULT", "RULESETS", "Ruleset"]
