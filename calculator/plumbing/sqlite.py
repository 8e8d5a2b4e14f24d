"""SQLite in write-ahead-log mode, when the file can be written (settings.py says why WAL).

The mode is stored in the database file, so setting it once is enough; each new connection asks again because
that costs nothing when the file is in WAL mode already. A read-only file (or a read-only open) refuses the change:
the connection goes on in the file's own mode, and every page that only reads still works.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError

log = logging.getLogger(__name__)


def use_wal(sender, connection, **kwargs) -> None:
    """`connection_created` receiver: `PRAGMA journal_mode=WAL`, unless the database cannot be written."""
    if connection.vendor != "sqlite":
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
    except DatabaseError as error:
        log.warning("SQLite stays in its journal mode (the database is read-only?): %s", error)
