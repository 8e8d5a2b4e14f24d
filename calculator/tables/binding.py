"""The calculator bound to a table (issue 12 §2): `/?table=<id>&token=<edit token>&at=<version>`, opened from the
table's edit page. The table decides the game, its options and rule card, the dealer, the streak and the names;
a win's result card gets a "record this hand" button that posts the hand to the table's record endpoint with a
key made from the hand (`record_key`), so the same hand sent again is recorded once.

Below the pages: the calculator page binds itself with `calculator_binding`, the table's pages link to it with
`calculator_query` and fill the record page with `calculator_fields`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from functools import lru_cache
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404

from calculator import ledger
from calculator.models import Table, hash_token
from calculator.plumbing.django_locale import engine_lang
from calculator.presentation import table_fields
from calculator.presentation.words import player_names
from calculator.tables.paths import token_paths


def calculator_query(table_id: str, token: str, seen: int | str) -> str:
    """What binds the calculator page to a table: `table=<id>&token=<edit token>&at=<version>`, the version of the
    table when the referee opened the calculator for the next hand. Never part of a share link."""
    return urlencode({"table": table_id, "token": token, "at": seen})


def calculator_fields(table: Table, state: ledger.State) -> dict:
    """The calculator's fields the table decides (presentation/table_fields.py: the phone fixes the same)."""
    return table_fields.calculator_fields(state, table.players)


def calculator_binding(table_id: str, token: str, at: str | None = None) -> dict:
    """The calculator scoring a hand for this table (issue 12 §2): the fields the table decides (game, options,
    dealer, streak, names), the banner, and what the result card's "record" button posts: the table's version `at`
    which the calculator was opened (a hand recorded since makes the button's write stale, never a double) and
    the record endpoint. A wrong token is a 404, as on the edit link.

    The calculator opened at version `at` shows the table as it was then, so what the table decides is read once
    per (table, version) and kept (`table_at`): a tap costs no database read (docs/PERFORMANCE.md). Without `at`
    (an old link) the table is read as it is now."""
    if not (at and at.isdigit()):
        version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        if version is None:
            raise Http404("no such table")
        at = str(version)
    seen = table_at(table_id, int(at), engine_lang())
    if seen is None or not hmac.compare_digest(hash_token(token), seen["token_hash"]):
        raise Http404("no such edit link")  # a wrong token looks like a missing page: it reveals nothing
    edit_path, record_path = token_paths(table_id, token)
    return {
        **seen,
        "token": token,
        "query": calculator_query(table_id, token, at),
        "edit_path": edit_path,
        "record_path": record_path,
    }


@lru_cache(maxsize=512)
def table_at(table_id: str, version: int, lang: str) -> dict | None:
    """What a calculator opened at `version` of the table shows, and its edit token's hash (None: no such table).
    Read when first asked (at that version, or later: a write since makes the record button stale anyway)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    state = table.current()
    card = state.card
    names = player_names(table.players, lang)
    return {
        "id": table.id,
        "token_hash": table.edit_token_hash,
        "title": f"{card.table.title(card.options, card.stake)(lang)}（{'、'.join(names[s] for s in state.seats)}）",
        "fixed": calculator_fields(table, state),
        "seats": state.seats,  # the table's, in play order
        "house": dict(card.house),
        "names": dict(table.players),
        "dealer_name": names[state.dealer],
        "streak": state.dealer_streak if card.table.streak_option else None,
        "playing": state.status == "playing",
        "ended_text": card.table.ended_text(state.ended_reason, lang),
        "version": version,
    }


RECORDED_FIELDS = ("hand", "win_tile", "melds", "winner", "discarder", "flags")  # what a hand is, the table aside


def record_key(binding: dict, request: dict) -> str:
    """The idempotency key of "record this hand" on a bound calculator's result: one per hand and per table
    version the calculator was opened at. The same result sent again (a second tap, the Back button, the page
    fetched anew) has the same key and gets the first answer; a keyed hash, so nobody can guess another's."""
    hand = json.dumps({k: request.get(k) for k in RECORDED_FIELDS}, sort_keys=True)
    message = f"{binding['id']}|{binding['version']}|{hand}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]
