"""The small words and numbers every page writes the same way: signed amounts, the seats' labels, a table's players'
names, a seat with its player's name, a rule's anchor on the rules page, and the result card's recurring words in one language."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache

from calculator.engine.hand import MELD_NAMES
from calculator.engine.seats import SEAT_NAMES_EN, SEAT_NAMES_ZH, SEATS
from calculator.engine.text import Text
from calculator.ledger import DEFAULT_NAMES

from .locale import Locale

# The seats as every page labels them, in the page's language: the engine's own names (东 / East).
SEAT_TEXTS = {seat: Text(SEAT_NAMES_ZH[seat], SEAT_NAMES_EN[seat]) for seat in SEATS}


def gettext_noop(message: str) -> str:
    """Marks a word for the catalogue (makemessages finds the call) that is translated later, where it is shown."""
    return message


GROUP_WORDS = {"pair": gettext_noop("Pair"), "sequence": gettext_noop("Sequence"), "triplet": gettext_noop("Triplet")}


def signed(n: int, plus: bool = True) -> str:
    """An amount as the pages show it: +19, −7 (a real minus sign, U+2212), 0; with `plus` off a number that is
    not a change (a balance, a stake, a chart's scale) without its plus sign: 19, −7, 0. (CSV and JSON keep "-7".)"""
    if n < 0:
        return f"−{-n}"
    return f"+{n}" if n > 0 and plus else str(n)


def sign_class(n: int) -> str:
    """The class a page colours an amount with: plus, minus, zero."""
    return "plus" if n > 0 else ("minus" if n < 0 else "zero")


def seat_labels(lang: str) -> dict[str, str]:
    """The four seats' labels in the page's language ("zh" / "en")."""
    return SEAT_NAMES_EN if lang == "en" else SEAT_NAMES_ZH


def player_names(players: Mapping[str, str], lang: str) -> dict[str, str]:
    """A table's players as a page names them: an unnamed seat, which the ledger names with the seat's Chinese word
    (东), by the seat's word in the page's language (East), whatever language the table was made in."""
    words = seat_labels(lang)
    return {seat: words[seat] if name == DEFAULT_NAMES[seat] else name for seat, name in players.items()}


def with_name(label: str, name: str | None) -> str:
    """ "南 · 小王": a seat's label and the player's name, when one is given."""
    return f"{label} · {name}" if name else label


@cache
def rule_anchor(rule: str) -> str:
    """`rule-12` for `§1.2`: the rules page's anchor for a section of RULES.md (the slug of the reference, as
    Django's `slugify` writes it: ASCII letters, digits and hyphens)."""
    ascii_only = unicodedata.normalize("NFKD", rule).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_only.lower())).strip("-_")
    return f"rule-{slug}"


def claims_anchor(game: str) -> str:
    """The rules page's anchor of a game's rule for several claims on one discard (its `[claims]`)."""
    return f"claims-{game}"


@lru_cache(maxsize=8)
def card_words(locale: Locale) -> dict:
    """The result card's recurring words (seats, roles, marks, groups and melds) in one language, translated once
    per locale."""
    _, pgettext = locale.gettext, locale.pgettext
    return {
        "seats": seat_labels(locale.lang),
        "roles": {
            "win": pgettext("role", "Winner"),
            "dealer": pgettext("role", "Dealer"),
            "discarder": pgettext("role", "Discarder"),
            "bao": pgettext("role", "Pays for all"),
        },
        # the strip's short marks beside a seat's name
        "marks": {
            "win": pgettext("seat mark: the winner", "win"),
            "dealer": pgettext("seat mark: the dealer", "dealer"),
            "discarder": pgettext("seat mark: the discarder", "discard"),
            "bao": pgettext("seat mark: pays for everyone", "pays all"),
        },
        "groups": {
            **{kind: _(word) for kind, word in GROUP_WORDS.items()},
            **{kind: name(locale.lang) for kind, name in MELD_NAMES.items()},
        },
        "melds": {kind: name(locale.lang) for kind, name in MELD_NAMES.items()},
    }
