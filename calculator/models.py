"""The table ledger's storage: a table, its scored hands and its events, in one order (`seq`).

The numbers are never stored as the truth: balances, totals, the dealer and the streak are recomputed from the
stored results by `calculator.ledger.replay`. `applied` keeps what each entry moved when it was recorded, so a
test (and anyone auditing a table) can check that the recomputation still agrees.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.db import models

from . import ledger


def new_table_id() -> str:
    """96 random bits, URL-safe: the table's address doubles as its read-only link, so it must be unguessable."""
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Table(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_table_id, editable=False)
    # Only a hash of the edit token is kept: a leaked database does not leak the edit links.
    edit_token_hash = models.CharField(max_length=64)
    ruleset = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    players = models.JSONField(default=dict)
    stake = models.IntegerField(null=True, blank=True)
    multiplier = models.IntegerField(default=1)
    first_dealer = models.CharField(max_length=1, default="E")
    # The last `seq` given to a hand or an event. Every write bumps it first, which locks the row.
    seq = models.IntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.ruleset} table {self.id}"

    @classmethod
    def create(cls, config: ledger.TableConfig) -> tuple[Table, str]:
        token = secrets.token_urlsafe(24)
        table = cls.objects.create(
            edit_token_hash=hash_token(token),
            ruleset=config.ruleset,
            options=config.options,
            players=config.players,
            stake=config.stake,
            multiplier=config.multiplier,
            first_dealer=config.dealer,
        )
        return table, token

    def token_matches(self, token: str | None) -> bool:
        """Constant-time comparison of the hashes: the time taken says nothing about the right token."""
        if not token:
            return False
        return hmac.compare_digest(hash_token(token), self.edit_token_hash)

    @property
    def config(self) -> ledger.TableConfig:
        return ledger.TableConfig(
            self.ruleset, dict(self.options), dict(self.players), self.stake, self.multiplier, self.first_dealer
        )

    def entries(self) -> list:
        """Hands and events in the order they happened."""
        rows = list(self.hands.all()) + list(self.events.all())
        rows.sort(key=lambda row: row.seq)
        return rows

    def replay(self) -> tuple[ledger.State, list]:
        entries = self.entries()
        return ledger.replay(self.config, [row.as_entry() for row in entries]), entries


class Hand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    n = models.IntegerField()  # 1, 2, 3 … over the whole table
    seq = models.IntegerField()  # position among the table's hands and events
    request = models.JSONField()
    result = models.JSONField()
    applied = models.JSONField()  # each seat's change from this hand, after caps (all columns)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "n"], name="hand_n_unique"),
            models.UniqueConstraint(fields=["table", "seq"], name="hand_seq_unique"),
        ]

    def as_entry(self) -> dict:
        return {"kind": "hand", "result": self.result}


class Event(models.Model):
    DRAW, LEAVE, NEXT = "draw", "leave", "next"
    KINDS = [(DRAW, "流局"), (LEAVE, "离场"), (NEXT, "下一底 / 局")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.IntegerField()
    kind = models.CharField(max_length=8, choices=KINDS)
    seat = models.CharField(max_length=1, blank=True, default="")
    applied = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique")]

    def as_entry(self) -> dict:
        entry = {"kind": self.kind}
        if self.kind == self.LEAVE:
            entry["seat"] = self.seat
        return entry
