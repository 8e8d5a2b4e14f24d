"""The HTTP status of each refusal a table answers with (API.md § "The table ledger"): one code, one status.

The pure ledger (calculator/ledger) names what it refuses by a stable code; how that travels over HTTP is the web's,
written once here for the JSON API (calculator/api/tables.py) and the table pages (calculator/pages/tables), which
answer with the same statuses (neither may import the other: each stands alone).
"""

from __future__ import annotations

# A request that cannot be what it says is 400: every other code (the engine's codes, bad_json, bad_table, bad_query,
# not_a_win, no_win_tile, the engine's codes of a hand that does not win).
BAD_REQUEST = 400
STATUSES = {
    "unauthorized": 401,  # no edit token
    "forbidden": 403,  # a wrong one
    "not_found": 404,  # no such table
    # well formed, but not what the table is now: the client reloads and decides
    "game_over": 409,
    "dealer_mismatch": 409,
    "ruleset_mismatch": 409,
    "option_mismatch": 409,
    "card_locked": 409,
    "not_available": 409,
    "table_full": 409,
    "stale": 409,
    "idempotency_mismatch": 409,
    "nothing_to_undo": 409,
    "nothing_to_redo": 409,
    "too_many_tables": 429,  # with Retry-After
}


def status_of(code: str) -> int:
    """The HTTP status of a table's refusal by its code."""
    return STATUSES.get(code, BAD_REQUEST)
