"""`manage.py prune_tables`: delete the ledger tables nobody has written to for LEDGER_RETENTION_DAYS days.

Safe to run from cron while the tables are played (docs/security.md): each table is deleted in a transaction of
its own that first takes the lock every write takes and checks the age again under it
(`calculator.tables.store.delete_untouched`), so a write that lands before is kept with its table and a write
that comes after finds no table (404): no write answered 2xx is ever deleted, and a table goes whole, with its
cards, hands and events, or not at all. The list of candidates is read without a lock; it only says which tables
to look at.

A busy database (SQLite's lock held past its timeout, a PostgreSQL deadlock or restart) makes it wait and try the
table again, a few times; a table it still cannot delete is kept for the next run, and the command says so and
exits 1. `--dry-run` only counts.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection
from django.utils import timezone

from calculator.models import Table
from calculator.tables.store import delete_untouched

BATCH = 100  # candidate ids read at a time
RETRIES = (0.2, 0.5, 1, 2, 4)  # seconds to wait before each new try of a table the database refused


class Command(BaseCommand):
    help = "Delete ledger tables untouched (no write) for LEDGER_RETENTION_DAYS days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="override LEDGER_RETENTION_DAYS")
        parser.add_argument("--dry-run", action="store_true", help="count the tables, delete nothing")

    def handle(self, *args, days: int | None = None, dry_run: bool = False, **options) -> None:
        days = settings.LEDGER_RETENTION_DAYS if days is None else days
        if days < 1:
            raise CommandError("the retention must be at least one day")
        cutoff = timezone.now() - timedelta(days=days)
        since = f"untouched since {cutoff:%Y-%m-%d %H:%M}"
        if dry_run:
            count = Table.objects.filter(updated__lt=cutoff).count()
            self.stdout.write(f"{count} tables {since} (dry run: kept)")
            return
        deleted, busy = 0, []
        after = ""  # the ids are walked in order, so a table kept (written meanwhile, or busy) is not read again
        while ids := candidates(cutoff, after):
            for table_id in ids:
                outcome = self.delete(table_id, cutoff)
                deleted += outcome is True
                if outcome is None:
                    busy.append(table_id)
            after = ids[-1]
        self.stdout.write(f"{deleted} tables {since} deleted")
        if busy:
            raise CommandError(
                f"{len(busy)} tables {since} could not be deleted (the database stayed busy): kept for the next run"
            )

    def delete(self, table_id: str, cutoff) -> bool | None:
        """True: deleted; False: written to meanwhile, kept; None: the database kept refusing."""
        for pause in (*RETRIES, None):
            try:
                return delete_untouched(table_id, cutoff)
            except DatabaseError as error:
                if pause is None:
                    self.stderr.write(f"table {table_id}: {error}")
                    return None
                reconnect_if_broken()
                time.sleep(pause)
        return None


def reconnect_if_broken() -> None:
    """A connection the error left unusable (a restarted server) is closed, so the next try opens a new one; not
    inside a caller's transaction, which owns it."""
    if not connection.in_atomic_block:
        connection.close_if_unusable_or_obsolete()


def candidates(cutoff, after: str) -> list[str]:
    """The next ids, in id order, of tables untouched since `cutoff` (read without a lock: only a list to check)."""
    for pause in (*RETRIES, None):
        try:
            old = Table.objects.filter(updated__lt=cutoff, id__gt=after).order_by("id")
            return list(old.values_list("id", flat=True)[:BATCH])
        except DatabaseError:
            if pause is None:
                raise CommandError("the database cannot be read: nothing more deleted") from None
            reconnect_if_broken()
            time.sleep(pause)
    return []
