"""`Text`: one text in the product's two languages. The engine speaks Chinese by default and English second."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Text:
    """One text in both languages: Chinese first (the default), English second. `text(lang)` picks one."""

    zh: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def to_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}
