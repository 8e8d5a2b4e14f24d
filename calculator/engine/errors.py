"""Stable error codes. An error is an answer: a code for programs, a message for people (zh or en)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field

from .text import Said, said

ERROR_CODES = (
    "bad_json",
    "unknown_ruleset",
    "bad_tile",
    "tile_not_in_ruleset",
    "too_many_copies",
    "wrong_tile_count",
    "bad_meld",
    "chow_not_allowed",
    "caishen_in_meld",
    "bad_seat",
    "bad_flag",
    "flag_conflict",
    "bad_option",
    "bad_claim",  # POST /api/priority: claims that are not on one discard (docs/API-priority.md)
)


@dataclass
class ScoreError(Exception):
    """Input that cannot be scored: malformed, impossible, or against the ruleset. `text` is its message
    (calculator/engine/text.py), said in the user's language when the answer is written."""

    code: str
    text: Said
    field: str | None = None
    extra: dict = dataclass_field(default_factory=dict)

    def __post_init__(self) -> None:
        assert self.code in ERROR_CODES, self.code
        super().__init__(self.code)

    def __str__(self) -> str:
        return f"{self.code}: {self.message('en')}"

    def message(self, lang: str = "zh") -> str:
        return said(self.text, lang)

    def to_dict(self, lang: str = "zh") -> dict:
        return error_answer(self.code, self.message(lang), self.field, self.extra)


def error_answer(code: str, message: str, field: str | None = None, extra: dict | None = None) -> dict:
    """A refusal as an answer (API.md): {"error": {"code", "message", "field" when there is one, and `extra`}}."""
    body = {"code": code, "message": message}
    if field:
        body["field"] = field
    if extra:
        body.update(extra)
    return {"error": body}


def flag_conflict(text: Said) -> ScoreError:
    return ScoreError("flag_conflict", text, "flags")
