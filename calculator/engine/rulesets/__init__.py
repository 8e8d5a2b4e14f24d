"""The two rulesets, each in its own module, behind one small interface."""

from __future__ import annotations

from typing import Protocol

from ..hand import ScoreRequest
from ..tiles import Tile


class Ruleset(Protocol):
    name: str
    name_zh: str
    name_en: str
    kinds: frozenset[int]  # tile indices that exist in this game
    flags: frozenset[str]
    allows_chow: bool

    def parse_options(self, raw: object): ...

    def check_meld(self, tiles: tuple[Tile, ...], options, number: int, field: str) -> None: ...

    def check_flags(self, request: ScoreRequest) -> None: ...

    def is_win(self, request: ScoreRequest) -> bool: ...

    def evaluate(self, request: ScoreRequest, lang: str, brief: bool = False) -> dict: ...


class Distance(Protocol):
    """How far a hand is from ready under a ruleset's own wins (each ruleset's `shanten` module)."""

    def shanten(self, request: ScoreRequest) -> int | None: ...

    def blocked_by(self, request: ScoreRequest, waits: list[Tile], shanten: int | None) -> str | None: ...

    def discards(self, request: ScoreRequest) -> list[dict]: ...


def _load() -> tuple[dict[str, Ruleset], dict[str, Distance]]:
    from . import bazhi, xinyu
    from .bazhi import shanten as bazhi_shanten
    from .xinyu import shanten as xinyu_shanten

    return {"bazhi": bazhi.RULESET, "xinyu": xinyu.RULESET}, {"bazhi": bazhi_shanten, "xinyu": xinyu_shanten}


RULESETS: dict[str, Ruleset]
DISTANCES: dict[str, Distance]
RULESETS, DISTANCES = _load()
