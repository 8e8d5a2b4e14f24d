"""Stable error codes. An error is an answer: a code for programs, a message for people (zh or en)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field

LANGS = ("zh", "en")

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


def pick(lang: str, zh: str, en: str) -> str:
    """The message in the user's language; Chinese is the product's default."""
    return en if lang == "en" else zh


@dataclass
class ScoreError(Exception):
    """Input that cannot be scored: malformed, impossible, or against the ruleset."""

    code: str
    zh: str
    en: str
    field: str | None = None
    extra: dict = dataclass_field(default_factory=dict)

    def __post_init__(self) -> None:
        assert self.code in ERROR_CODES, self.code
        super().__init__(f"{self.code}: {self.en}")

    def message(self, lang: str = "zh") -> str:
        return pick(lang, self.zh, self.en)

    def to_dict(self, lang: str = "zh") -> dict:
        body = {"code": self.code, "message": self.message(lang)}
        if self.field:
            body["field"] = self.field
        body.update(self.extra)
        return {"error": body}


def flag_conflict(zh: str, en: str) -> ScoreError:
    return ScoreError("flag_conflict", zh, en, "flags")
