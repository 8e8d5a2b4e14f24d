"""What a shared link says of itself where it is pasted (Open Graph and Twitter-card tags): the verdict in a line
of words ("南胡 西放铳 · 南 +19 · 东 −7 西 −7 北 −5") and a sentence more; the picture's title is the same line."""

from __future__ import annotations

from dataclasses import dataclass

from calculator.engine.seats import SEATS

from ..cards import NoWinCard, ResultCard, WaitsCard, WinCard
from ..locale import Locale
from ..who_pays import SeatCell


@dataclass(frozen=True, slots=True)
class Preview:
    title: str
    description: str


def preview(card: ResultCard, game: list[str], locale: Locale) -> Preview:
    """The preview of a hand's answer; `game` is the game and its rule card in words (verdict.game_words)."""
    _, pgettext = locale.gettext, locale.pgettext
    rules = " · ".join(game)
    if isinstance(card, WinCard):
        seats = sorted((c for c in card.cells if isinstance(c, SeatCell)), key=lambda c: SEATS.index(c.seat))
        holder = {role.code: c for c in seats for role in c.roles}
        winner = holder["win"]
        if "discarder" in holder:
            said = pgettext("a link's preview", "%(winner)s wins, %(discarder)s discards") % {
                "winner": winner.label,
                "discarder": holder["discarder"].label,
            }
        else:
            said = pgettext("a link's preview", "%(winner)s wins by self-draw") % {"winner": winner.label}
        others = " ".join(f"{c.label} {c.net_text}" for c in seats if c is not winner)
        title = f"{said} · {winner.label} {winner.net_text} · {others}"
        named = [card.verdict] if any(c.name for c in seats) else []  # the verdict again, with the players' names
        return Preview(title, " · ".join([*named, *card.summary, *([card.bao] if card.bao else []), rules]))
    if isinstance(card, NoWinCard):
        return Preview(f"{_('Not a win')} · {card.message}", " · ".join(filter(None, [card.distance, rules])))
    if isinstance(card, WaitsCard):
        tiles = " ".join(w.tile.name for w in card.waits)
        title = f"{card.title} · {tiles}" if tiles else card.title
        return Preview(title, " · ".join(filter(None, [card.hint if card.count else card.why, rules])))
    return Preview(_("Mahjong scoring calculator"), rules)
