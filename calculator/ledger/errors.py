"""What the ledger refuses: a stable code for programs, a message for people (zh or en), and the field it is about.

The ledger is pure: how a refusal travels over HTTP (its status) is the web's (calculator/tables/statuses.py).
"""

from __future__ import annotations

from calculator.engine.errors import ScoreError, error_answer
from calculator.engine.text import Said, said


class LedgerError(Exception):
    """A request the ledger refuses, with its stable `code`, its message (`text`: calculator/engine/text.py, or a
    plain string already in the user's language) and the `field` it is about (if one)."""

    def __init__(self, code: str, text: Said | str, field: str | None = None):
        super().__init__(code)
        self.code, self.text, self.field = code, text, field

    def __str__(self) -> str:
        return f"{self.code}: {self.message('en')}"

    def message(self, lang: str = "zh") -> str:
        return said(self.text, lang)

    def to_dict(self, lang: str = "zh") -> dict:
        return error_answer(self.code, self.message(lang), self.field)

    @classmethod
    def of(cls, error: ScoreError) -> LedgerError:
        """An engine refusal (bad_option, bad_tile …) as the ledger answers it: the same code, message and field."""
        return cls(error.code, error.text, error.field)


def bad(field: str, text: Said, code: str = "bad_table") -> LedgerError:
    """A value of a table's body the ledger refuses, naming its field."""
    return LedgerError(code, text, field)
