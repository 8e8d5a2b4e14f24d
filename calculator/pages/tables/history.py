"""A table's history as its pages show it (jinja2/history.html): one drawn line per entry, kept by
(table, entry, mark, languages).

An entry never changes once written: its mark (the table's version it was written at, Snapshot.marks) names it for
good, since an entry undone and written again in its place has another mark; what its line says depends only on it,
the table's players and rule cards (neither changes once written) and the languages. So each line is drawn once per
process, and a write's next read draws only the entries written since (docs/PERFORMANCE.md § Heavy reads). A line
holds what its entry says and nothing else: no CSRF token, no edit-token URL, no idempotency key (the same markup
on the read-only and the edit page).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.utils.safestring import mark_safe

from calculator.models import Event, Hand
from calculator.pages.tables import presenter as pages
from calculator.plumbing.django_locale import page_locale
from calculator.presentation.render import template
from calculator.tables.snapshot import Snapshot

LINES = 4096  # entries' lines kept per process (about 1 KB each): the last pages of the tables being read

_lines: OrderedDict[tuple[str, int, int, str, str], str] = OrderedDict()  # least recently read first
_lock = threading.Lock()


def history_html(snapshot: Snapshot, entries: list[Hand | Event], lang: str) -> str:
    """The history of `entries` (in the order given) of the table at `snapshot`, texts in `lang` (the engine's)
    and the page's language."""
    locale = page_locale()
    table = snapshot.table
    lines = []
    for entry in entries:
        mark = snapshot.marks[entry.seq - 1]
        key = (table.id, entry.seq, mark, lang, locale.lang)
        with _lock:
            line = _lines.get(key) if mark is not None else None
            if line is not None:
                _lines.move_to_end(key)
        if line is None:
            item = pages.history_item(entry, table, snapshot.cards, lang)
            line = mark_safe(template("history_entry.html", locale).render(item=item))  # the environment escapes
            if mark is not None:
                with _lock:
                    _lines[key] = line
                    while len(_lines) > LINES:
                        _lines.popitem(last=False)
        lines.append(line)
    return mark_safe(template("history.html", locale).render(lines=lines))


def forget() -> None:
    """Drop every line (what a worker that never drew a table's history holds)."""
    with _lock:
        _lines.clear()
