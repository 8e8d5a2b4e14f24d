"""A table as it was at one version, decoded once per process: what every read of it shows but its HTML.

The stored account, the rule cards, each player's total after every entry (the chart) and the entries of the pages
asked for depend only on the table and its version, and every write adds one to the version: (table id, version)
names that content for good. `at(table_id, version)` decodes it once and then answers from memory, until it is the
least recently read of SNAPSHOTS; `current(table_id)` finds the version with one indexed read first, as the live
poll does, so a write is seen by the next read on every worker. Only the pages of entries a read shows are
decoded (the chart reads one small field of the others); the HTML is never kept here: it carries a CSRF token,
edit-token URLs and idempotency keys (docs/PERFORMANCE.md § Heavy reads).

A snapshot is read without a transaction spanning its queries; it checks that the table's version did not move
meanwhile (a write commits its entries and its new version together) and is thrown away if it did.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from calculator import ledger
from calculator.engine.tiles import SEATS
from calculator.models import Event, Hand, Table
from calculator.tables.store import Page, entries_in

SNAPSHOTS = 32  # tables kept per process
PAGES = 4  # pages of entries kept per snapshot (the last page, which every table page and poll shows, and a few)


class Moved(Exception):
    """The table was written to while a snapshot of it was being read."""


def version_of(table_id: str) -> int | None:
    """The table's current version (None: no such table): one indexed read."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


@dataclass
class Snapshot:
    table: Table
    state: ledger.State
    cards: dict[int, ledger.Card]
    totals: list[dict]  # each seat's total before the first entry and after every entry
    _pages: OrderedDict = field(default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def version(self) -> int:
        return self.table.version

    def entries(self, page: Page) -> list[Hand | Event]:
        """The hands and events of `page`, in their order (decoded the first time this page is asked for)."""
        key = (page.first, page.last)
        with self._lock:
            if key in self._pages:
                self._pages.move_to_end(key)
                return self._pages[key]
        hands, events = entries_in(self.table, page)
        if version_of(self.table.id) != self.version:
            raise Moved(self.table.id)
        rows = sorted([*hands, *events], key=lambda entry: entry.seq)
        with self._lock:
            self._pages[key] = rows
            while len(self._pages) > PAGES:
                self._pages.popitem(last=False)
        return rows


@lru_cache(maxsize=SNAPSHOTS)
def at(table_id: str, version: int) -> Snapshot:
    """The table at `version`; Moved if it is not at that version (any more): nothing is kept then."""
    table = Table.objects.filter(pk=table_id, version=version).first()
    if table is None:
        raise Moved(table_id)
    cards = {card.version: card.as_card(table.ruleset) for card in table.cards.all()}
    config = ledger.TableConfig(cards[1], dict(table.players), table.first_dealer)
    state = ledger.State.from_dict(config, cards[table.state["card_version"]], table.state)
    rows = [
        *Hand.objects.filter(table=table).values_list("seq", "after__totals"),
        *Event.objects.filter(table=table).values_list("seq", "after__totals"),
    ]
    if version_of(table_id) != version:
        raise Moved(table_id)
    rows.sort(key=lambda row: row[0])
    return Snapshot(table, state, cards, [dict.fromkeys(SEATS, 0)] + [totals for _, totals in rows])


def current(table_id: str, page_of: Callable[[Snapshot], Page]) -> tuple[Snapshot, Page, list] | None:
    """The table as it is now, the page `page_of` picks and that page's entries (None: no such table). A
    `page_of` that refuses (a bad `?from=`) raises its own error."""
    for _ in range(5):  # each retry follows a write that landed meanwhile
        version = version_of(table_id)
        if version is None:
            return None
        try:
            snapshot = at(table_id, version)
            page = page_of(snapshot)
            return snapshot, page, snapshot.entries(page)
        except Moved:
            continue
    raise Moved(table_id)
