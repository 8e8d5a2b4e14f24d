"""Where a table's pages are: its read-only link, its edit link (the token is the secret) and the record endpoint
of a calculator bound to it. The table's pages and its JSON API both link to them."""

from __future__ import annotations

from functools import lru_cache

from django.urls import reverse

from calculator.models import Table


def view_path(table: Table) -> str:
    return reverse("ledger_table", args=[table.id])


def edit_path(table: Table, token: str) -> str:
    return edit_path_of(table.id, token)


def edit_path_of(table_id: str, token: str) -> str:
    return reverse("ledger_edit", args=[table_id, token])


@lru_cache(maxsize=512)
def token_paths(table_id: str, token: str) -> tuple[str, str]:
    """The edit link and the record endpoint of a table (URL reversing is the slow part of a bound tap)."""
    return edit_path_of(table_id, token), reverse("ledger_record", args=[table_id, token])
