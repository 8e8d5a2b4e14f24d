"""`manage.py prune_tables`: delete the ledger tables nobody has written to for LEDGER_RETENTION_DAYS days.

Safe to run from cron (README § Deployment): it deletes in small batches, each in its own short transaction, so it
never holds the database long; a table written to meanwhile is kept (the age is checked again in the DELETE); a
second run at the same time, or a run that was killed, leaves nothing half-deleted (a table goes with its cards,
hands and events in one transaction). `--dry-run` only counts.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from calculator.models import Table

BATCH = 50  # tables per transaction


class Command(BaseCommand):
    help = "Delete ledger tables untouched (no write) for LEDGER_RETENTION_DAYS days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="override LEDGER_RETENTION_DAYS")
        parser.add_argument("--dry-run", action="store_true", help="count the tables, delete nothing")

    def handle(self, *args, days: int | None = None, dry_run: bool = False, **options) -> None:
        days = settings.LEDGER_RETENTION_DAYS if days is None else days
        if days < 1:
            raise ValueError("the retention must be at least one day")
        cutoff = timezone.now() - timedelta(days=days)
        old = Table.objects.filter(updated__lt=cutoff)
        if dry_run:
            self.stdout.write(f"{old.count()} tables untouched since {cutoff:%Y-%m-%d %H:%M} (dry run: kept)")
            return
        deleted = 0
        while True:
            ids = list(old.order_by("updated").values_list("id", flat=True)[:BATCH])
            if not ids:
                break
            with transaction.atomic():
                deleted += Table.objects.filter(id__in=ids, updated__lt=cutoff).delete()[1].get("calculator.Table", 0)
        self.stdout.write(f"{deleted} tables untouched since {cutoff:%Y-%m-%d %H:%M} deleted")
