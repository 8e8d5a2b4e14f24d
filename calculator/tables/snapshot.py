"""A table as it was at one version, decoded once per process: what every read of it shows but its HTML.

The stored account, the rule cards, each player's total after every entry (the chart) and the entries of the pages
asked for depend only on the table and its version, and every write adds one to the version: (table id, version)
names that content for good. `at(table_id, version)` decodes it once and then answers from memory, until it is the
least recently read of SNAPSHOTS; `current(table_id)` finds the version with one indexed read first, as the live
poll does, so a write is seen by the next read on every worker. Only the pages of entries a read shows are
decoded (the chart reads one small field of the others); the HTML is never kept here: it carries a CSRF token,
edit-token URLs and idempotency keys (docs/PERFORMANCE.md § Heavy reads).

A table is written one entry at a time, so the snapshot of a newer version is read from the newest one this process
holds of the same table: the same entries up to the last one both have, and the few written since (`_extended`).
Each entry stores the table's version it was written at (its mark), and writes only append an entry or take the
last one away (undo), which a redo brings back unchanged: so an entry found at its place with the mark it had means
that every entry before it is unchanged too. Where that does not hold (the entry is gone or another), or too
much was written since, the snapshot is read whole.

A snapshot is read without a transaction spanning its queries; it checks that the table's version did not move
meanwhile (a write commits its entries and its new version together) and is thrown away if it did.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from calculator import ledger
from calculator.models import Event, Hand, Table
from calculator.plumbing import faults
from calculator.tables.store import DEFAULT_PAGE, Page, entries_in

SNAPSHOTS = 32  # snapshots kept per process (of any tables and versions)
PAGES = 4  # pages of entries kept per snapshot (the last page, which every table page and poll shows, and a few)
EXTEND_AT_MOST = DEFAULT_PAGE  # entries written since the snapshot a newer one is read from; more: read whole


class Moved(faults.Overtaken):
    """The table was written to while a snapshot of it was being read. A read tries again; one that every try
    finds overtaken answers 503 busy (`faults.Overtaken`)."""


def version_of(table_id: str) -> int | None:
    """The table's current version (None: no such table): one indexed read."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


@dataclass
class Snapshot:
    table: Table
    state: ledger.State
    cards: dict[int, ledger.Card]
    totals: list[dict]  # each of the table's seats' total before the first entry and after every entry
    marks: list[int | None]  # the table's version each entry was written at: marks[0] is entry 1's
    _rows: dict[int, Hand | Event] = field(default_factory=dict, repr=False)  # decoded entries, by seq
    _pages: OrderedDict = field(default_factory=OrderedDict, repr=False)  # the pages asked for, newest last
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def version(self) -> int:
        return self.table.version

    def entries(self, page: Page) -> list[Hand | Event]:
        """The hands and events of `page`, in their order (each decoded the first time a page holds it)."""
        seqs = range(page.first, min(page.last, self.state.entries) + 1)
        if not seqs:
            return []
        # what is kept is taken, not looked at: another thread's read may drop it before this one is done
        with self._lock:
            found = {seq: self._rows[seq] for seq in seqs if seq in self._rows}
        missing = [seq for seq in seqs if seq not in found]
        if missing:
            hands, events = entries_in(self.table, Page(missing[0], missing[-1]))
            if version_of(self.table.id) != self.version:
                raise Moved(self.table.id)
            found.update((entry.seq, entry) for entry in (*hands, *events))
        rows = [found[seq] for seq in seqs]
        with self._lock:
            self._rows.update(found)
            self._pages[(page.first, page.last)] = None
            self._pages.move_to_end((page.first, page.last))
            if len(self._pages) > PAGES:
                self._pages.popitem(last=False)
                self._keep_pages_only()
        return rows

    def shared_with(self, marks: list[int | None]) -> int:
        """How many first entries this snapshot has in common with a snapshot of the same table whose marks are
        `marks` (the module docstring: the last entry both hold with the same mark, and every one before it)."""
        shared = min(len(marks), len(self.marks))
        while shared and (marks[shared - 1] is None or marks[shared - 1] != self.marks[shared - 1]):
            shared -= 1
        return shared

    def _keep_pages_only(self) -> None:
        kept = {seq for first, last in self._pages for seq in range(first, last + 1)}
        self._rows = {seq: entry for seq, entry in self._rows.items() if seq in kept}


_snapshots: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()  # by (table id, version), least recent first
_lock = threading.Lock()


def at(table_id: str, version: int) -> Snapshot:
    """The table at `version`; Moved if it is not at that version (any more): nothing is kept then."""
    key = (table_id, version)
    with _lock:
        snapshot = _snapshots.get(key)
        if snapshot is not None:
            _snapshots.move_to_end(key)
            return snapshot
        older = max((s for (t, _), s in _snapshots.items() if t == table_id), key=lambda s: s.version, default=None)
    table = Table.objects.filter(pk=table_id, version=version).first()
    if table is None:
        raise Moved(table_id)
    cards = {card.version: card.as_card(table.ruleset) for card in table.cards.all()}
    if 1 not in cards or table.state["card_version"] not in cards:
        # a table's cards are only ever added: missing, they went with the table, deleted (by the clean-up) between
        # the two reads, which are not one snapshot of the database (PostgreSQL reads each query's committed state)
        raise Moved(table_id)
    config = ledger.TableConfig(cards[1], dict(table.players), table.first_dealer)
    state = ledger.State.from_dict(config, cards[table.state["card_version"]], table.state)
    snapshot = (older and _extended(older, table, state, cards)) or _whole(table, state, cards)
    if version_of(table_id) != version:
        raise Moved(table_id)
    with _lock:
        _snapshots[key] = snapshot
        while len(_snapshots) > SNAPSHOTS:
            _snapshots.popitem(last=False)
    return snapshot


def forget() -> None:
    """Drop every snapshot (what a worker that never read a table holds: scripts/heavy_reads.py's first reads)."""
    with _lock:
        _snapshots.clear()


def _whole(table: Table, state: ledger.State, cards: dict) -> Snapshot:
    """The snapshot read from the table's every entry: one small field of each (its totals, its mark)."""
    rows = [
        *Hand.objects.filter(table=table).values_list("seq", "after__totals", "after__version"),
        *Event.objects.filter(table=table).values_list("seq", "after__totals", "after__version"),
    ]
    rows.sort(key=lambda row: row[0])
    totals = [dict.fromkeys(state.seats, 0)] + [totals for _, totals, _ in rows]
    return Snapshot(table, state, cards, totals, [mark for _, _, mark in rows])


def _extended(older: Snapshot, table: Table, state: ledger.State, cards: dict) -> Snapshot | None:
    """The snapshot of `table` read from `older` of the same table (module docstring): the entries from the last
    one both share on, decoded; None where `older` cannot say what the table holds now."""
    shared = min(older.state.entries, state.entries)
    if state.entries - shared > EXTEND_AT_MOST or (shared and older.marks[shared - 1] is None):
        return None
    hands, events = entries_in(table, Page(max(1, shared), state.entries))
    read = {entry.seq: entry for entry in (*hands, *events)}
    if (
        len(read) != state.entries - max(1, shared) + 1
        or shared
        and read[shared].after.get("version") != (older.marks[shared - 1])
    ):
        return None  # the entry both should share is gone or another: the log changed under it
    with older._lock:
        rows = {seq: entry for seq, entry in older._rows.items() if seq < shared}
        pages = OrderedDict.fromkeys(older._pages)
    rows.update(read)
    new = range(shared + 1, state.entries + 1)
    return Snapshot(
        table,
        state,
        cards,
        older.totals[: shared + 1] + [read[seq].after["totals"] for seq in new],
        older.marks[:shared] + [read[seq].after.get("version") for seq in new],
        rows,
        pages,
    )


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
