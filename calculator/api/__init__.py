"""The JSON API (API.md): scoring, priority and the table ledger's endpoints."""
