"""What the ledger refuses: a stable code for programs, a message for people (zh or en), and the field it is about.

The ledger is pure: how a refusal travels over HTTP (its status) is the web's (calculator/tables/statuses.py).
"""

from __future__ import annotations

from calculator.engine.errors import ScoreError


class LedgerError(Exception):
    """A request the ledger refuses, with its stable `code` and the `field` it is about (if one)."""

    def __init__(self, code: str, zh: str, en: str, field: str | None = None):
        super().__init__(f"{code}: {en}")
        self.code, self.zh, self.en, self.field = code, zh, en, field

    def to_dict(self, lang: str = "zh") -> dict:
        body = {"code": self.code, "message": self.en if lang == "en" else self.zh}
        if self.field:
            body["field"] = self.field
        return {"error": body}

    @classmethod
    def of(cls, error: ScoreError) -> LedgerError:
        """An engine refusal (bad_option, bad_tile …) as the ledger answers it: the same code, message and field."""
        return cls(error.code, error.message("zh"), error.message("en"), error.field)


def bad(field: str, zh: str, en: str, code: str = "bad_table") -> LedgerError:
    """A value of a table's body the ledger refuses, naming its field."""
    return LedgerError(code, zh, en, field)
