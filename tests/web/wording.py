"""How the tests read an English text for Chinese left in it (issue 21 §2, §7).

An English page may show a Chinese word of the games only where the reader can learn what it means:
- a glossary term (庄, 底, 交, 龙 …: calculator/presentation/glossary.py): the page explains it where it first
  shows it (static/js/boot.js);
- a word followed by its gloss in brackets: "单吊 (a pair wait)";
- the original in brackets after its English: "Multiple extra payments (可多交)", "Wild tile (财神)".
A word glossed once in a text needs no gloss again in it. A *self-contained* text (a hint in a folded rule card,
a glossary meaning) may not lean on the page's glossary: there a glossary term needs its gloss too.
"""

from __future__ import annotations

import re

HAN = re.compile(r"[\u3400-\u9fff]+")
CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff01-\uff5e]")  # ，。：（）、 … in an English text
GLOSS_AFTER = re.compile(r"\s*\((?=[^()]*[A-Za-z]{2})[^()]*\)")  # " (a pair wait)"
LATIN = re.compile(r"[A-Za-z]")


def glossary_terms() -> frozenset[str]:
    from calculator.presentation.glossary import terms

    return frozenset(term.term for term in terms("en"))


def unexplained(text: str, terms: frozenset[str] | set[str] = frozenset(), self_contained: bool = False) -> list[str]:
    """The Chinese in an English text that nothing explains (each word once, in the order met)."""
    found: list[str] = []
    explained: set[str] = set()
    for match in HAN.finditer(text):
        word, start, end = match.group(), match.start(), match.end()
        if word in explained:
            continue
        if GLOSS_AFTER.match(text, end) or _original_after_english(text, start, end):
            explained.add(word)
        elif not (word in terms and not self_contained) and word not in found:
            found.append(word)
    found += [f"{mark!r} (Chinese punctuation)" for mark in dict.fromkeys(CJK_PUNCTUATION.findall(text))]
    return found


def _original_after_english(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] stands in brackets holding no Latin letter, right after an English word."""
    opening = text.rfind("(", 0, start)
    closing = text.find(")", end)
    if opening < 0 or closing < 0 or ")" in text[opening:start] or LATIN.search(text, opening, closing):
        return False
    before = text[:opening].rstrip()
    return bool(before) and bool(LATIN.match(before[-1]))
