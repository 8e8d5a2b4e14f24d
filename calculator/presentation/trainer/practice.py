"""Spaced practice of the patterns a learner gets wrong (issue 21 §9).

A pattern missed is put under review: it comes back after 2 to 4 other questions (never sooner: the questions in
between are dealt without it), and again after each right answer, until it has been answered right three times in
a row; then it is retired. A wrong answer starts its count again. The review travels in the question's link
(`review=xinyu:qidui.3.0,…`: topic, questions still to pass before it is due, right answers in a row), so it
works without JavaScript, is graded on the server like everything else, and the browser only keeps it between
visits (static/js/trainer.js).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from random import Random

GAP = (2, 4)  # other questions before a pattern under review comes back
RETIRE_AFTER = 3  # right answers in a row that retire a pattern
MOST = 8  # patterns under review at once (the oldest goes first beyond)


@dataclass(frozen=True, slots=True)
class Entry:
    """A pattern under review: `wait` other questions still to pass before it is due, `right` answers in a row."""

    topic: str  # "<game>:<code>"
    wait: int
    right: int = 0

    def text(self) -> str:
        return f"{self.topic}.{self.wait}.{self.right}"


@dataclass(frozen=True, slots=True)
class Review:
    """The patterns under review, oldest first."""

    entries: tuple[Entry, ...] = ()

    @classmethod
    def parse(cls, text: str, is_topic: Callable[[str], bool]) -> Review | None:
        """The review of a link's `review` value; None when it is not one (the view then drops it)."""
        if not text:
            return cls()
        entries = []
        for part in text.split(","):
            topic, _, rest = part.partition(".")
            wait, _, right = rest.partition(".")
            if not (is_topic(topic) and _number(wait, GAP[1]) and _number(right, RETIRE_AFTER - 1)):
                return None
            if any(e.topic == topic for e in entries):
                return None
            entries.append(Entry(topic, int(wait), int(right)))
        if len(entries) > MOST:
            return None
        return cls(tuple(entries))

    def text(self) -> str:
        return ",".join(entry.text() for entry in self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    @property
    def topics(self) -> tuple[str, ...]:
        return tuple(entry.topic for entry in self.entries)

    def due(self, game: str | None = None) -> str | None:
        """The pattern the next question asks for: the oldest one due (of `game`, if the questions are of one)."""
        return next(
            (e.topic for e in self.entries if e.wait == 0 and (game is None or e.topic.startswith(f"{game}:"))),
            None,
        )

    def resting(self) -> frozenset[str]:
        """The patterns not yet due: the next question is dealt without them."""
        return frozenset(entry.topic for entry in self.entries if entry.wait > 0)

    def after(self, seen: Iterable[str], correct: bool, asked: str | None, rng: Random) -> Review:
        """The review once a question naming the patterns `seen` is answered (`correct` or not); `asked` is the
        pattern it was dealt for, if any (asked but not dealt, it waits again). A pattern seen comes back after a
        gap of `GAP` other questions, unless it is retired; every other pattern is one question nearer. A pattern
        still resting that a question names all the same (one that comes with the pattern asked for: 双四核 with
        四核) is not counted: it keeps its place."""
        resting = self.resting() - {asked}
        seen = [topic for topic in dict.fromkeys(seen) if topic not in resting]
        kept: list[Entry] = []
        for entry in self.entries:
            if entry.topic in seen:
                right = entry.right + 1 if correct else 0
                if right < RETIRE_AFTER:
                    kept.append(Entry(entry.topic, -1, right))  # its gap is chosen below
            elif entry.topic == asked:
                kept.append(replace(entry, wait=-1))  # the deal could not make it: it waits again
            else:
                kept.append(replace(entry, wait=max(0, entry.wait - 1)))
        if not correct:
            known = {entry.topic for entry in kept}
            kept += [Entry(topic, -1, 0) for topic in seen if topic not in known]
        kept = kept[-MOST:]
        return Review(tuple(_spaced(kept, rng)))


def _spaced(entries: list[Entry], rng: Random) -> list[Entry]:
    """The entries with a new gap (wait -1) given one: a random gap in `GAP`, moved to one no other pattern
    comes back at where there is such a gap (two patterns due together would push one of them past the gap)."""
    taken = {entry.wait for entry in entries if entry.wait >= 0}
    out = []
    for entry in entries:
        if entry.wait < 0:
            gaps = list(range(GAP[0], GAP[1] + 1))
            rng.shuffle(gaps)
            free = [gap for gap in gaps if gap not in taken]
            gap = (free or gaps)[0]
            taken.add(gap)
            entry = replace(entry, wait=gap)
        out.append(entry)
    return out


def _number(text: str, most: int) -> bool:
    return text.isascii() and text.isdigit() and len(text) == 1 and int(text) <= most
