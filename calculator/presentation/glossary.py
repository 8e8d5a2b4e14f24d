"""The words of Chinese mahjong an English page keeps in Chinese (庄, 底, 交, 龙 …), each with what it means: the
games' own words from their declarations (`[texts.glossary]`), the words both games share from here. An English page
explains each where it first uses it (static/js/boot.js); the rules page lists them all."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from calculator.engine.rulesets import RULESETS
from calculator.engine.text import Said, msg

# Words every game here uses in the same sense, with what they mean (the engine's texts: calculator/engine/text.py).
SHARED = {
    "庄": msg("zhuang: the dealer of this hand"),
    "自摸": msg("zimo: winning on a tile one drew oneself"),
    "放铳": msg("fangchong: discarding the tile another player wins on"),
    "包牌": msg("baopai: one player pays for all the losers"),
    "流局": msg("liuju: a drawn hand, nobody won"),
    "下家": msg("xiajia: the next player in turn"),
    "上家": msg("shangjia: the player before in turn"),
}


# Pinyin that is an English word too: an English page looks for the Chinese word only, never for this spelling
# (its gloss still says it: "龙 (long: …)").
ENGLISH_WORDS = {"long"}


@dataclass(frozen=True, slots=True)
class Term:
    """A word, its pinyin as the English pages write it (empty in Chinese), what it means, its id on the rules
    page. The English texts are written "pinyin: meaning"."""

    term: str
    pinyin: str
    meaning: str
    anchor: str

    @property
    def text(self) -> str:
        return f"{self.pinyin}: {self.meaning}" if self.pinyin else self.meaning

    def to_dict(self) -> dict:
        """What the page's script reads: the word, its pinyin (what the gloss says) and whether an English text
        writes the word so (`latin`: look for the pinyin too), and its meaning."""
        latin = bool(self.pinyin) and self.pinyin not in ENGLISH_WORDS
        return {"term": self.term, "pinyin": self.pinyin, "latin": latin, "meaning": self.meaning}


@lru_cache(maxsize=4)
def terms(lang: str) -> tuple[Term, ...]:
    """Every word once (a game's own explanation before the shared one), in the games' order, then the shared."""
    found: dict[str, Said] = {}
    for ruleset in RULESETS.values():
        for word, text in ruleset.declared.texts.get("glossary", {}).items():
            found.setdefault(word, text)
    for word, text in SHARED.items():
        found.setdefault(word, text)
    out = []
    for n, (word, text) in enumerate(found.items()):
        pinyin, _, meaning = text(lang).partition(": ") if lang == "en" else ("", "", text(lang))
        out.append(Term(word, pinyin, meaning, f"term-{n}"))
    return tuple(out)
