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


def _load() -> dict[str, Ruleset]:
    from . import bazhi, xinyu

    return {"bazhi": bazhi.RULESET, "xinyu": xinyu.RULESET}


RULESETS: dict[str, Ruleset] = _load()
