"""The table ledger's storage: a table, its rule cards, and its scored hands and events in one order (`seq`).

The table row keeps the account after its last entry (`state`, calculator.ledger.State.to_dict), and every entry
keeps what it moved (`rows`, `applied`) and the account after it (`after`): a write reads one row and appends
one, whatever the table's length, and a page of entries is shown without recomputing anything. The numbers are
still never taken on trust: `calculator.ledger.replay` recomputes them from the stored results and cards, and the
tests compare the two after every write of random sessions (tests/ledger/test_stored_state.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.db import models

from calculator import ledger


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
    players = models.JSONField(default=dict)
    first_dealer = models.CharField(max_length=1, default="E")
    # The table's revision (API.md `version`): every write adds one. A write first takes the row's lock.
    version = models.IntegerField(default=0)
    state = models.JSONField(default=dict)  # the account after the last entry
    redo = models.JSONField(null=True, blank=True)  # the entry the last undo removed, until the next write
    # Who created it, for the cap on tables per client per day: a keyed hash of the address, never the address.
    creator = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)  # the last write (the clean-up's clock)

    class Meta:
        indexes = [
            models.Index(fields=["creator", "created"], name="table_creator_created"),
            models.Index(fields=["updated"], name="table_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} table {self.id}"

    @classmethod
    def create(cls, config: ledger.TableConfig, creator: str = "") -> tuple[Table, str]:
        token = secrets.token_urlsafe(24)
        state = ledger.start(config)
        table = cls.objects.create(
            edit_token_hash=hash_token(token),
            ruleset=config.ruleset,
            players=dict(config.players),
            first_dealer=config.dealer,
            state=state.to_dict(),
            creator=creator,
        )
        Card.store(table, config.card)
        return table, token

    def token_matches(self, token: str | None) -> bool:
        """Constant-time comparison of the hashes: the time taken says nothing about the right token."""
        if not token:
            return False
        return hmac.compare_digest(hash_token(token), self.edit_token_hash)

    # ------------------------------------------------------------------------------ the ledger's values

    def card_of(self, version: int) -> ledger.Card:
        return self.cards.get(version=version).as_card(self.ruleset)

    def current_card(self) -> ledger.Card:
        return self.card_of(self.state["card_version"])

    def config(self) -> ledger.TableConfig:
        return ledger.TableConfig(self.card_of(1), dict(self.players), self.first_dealer)

    def current(self) -> ledger.State:
        """The stored account, as the ledger's State (no replay)."""
        return ledger.State.from_dict(self.config(), self.current_card(), self.state)

    def entries(self) -> list:
        """Hands and events in the order they happened."""
        rows = list(self.hands.all()) + list(self.events.all())
        rows.sort(key=lambda row: row.seq)
        return rows

    def replay(self) -> tuple[ledger.State, list]:
        """Every number recomputed from the stored results and cards: what the stored state must equal."""
        entries = self.entries()
        cards = {card.version: card.as_card(self.ruleset) for card in self.cards.all()}
        state = ledger.replay(self.config(), [row.as_entry() for row in entries], cards)
        return state, entries


class Card(models.Model):
    """One version of a table's rule card (API.md): version 1 at creation, one more per `POST …/card`."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="cards")
    version = models.IntegerField()
    options = models.JSONField()  # the whole card: the table's options and `house` with every house rule
    stake = models.IntegerField(null=True, blank=True)
    multiplier = models.IntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="card_version_unique")]

    @classmethod
    def store(cls, table: Table, card: ledger.Card) -> Card:
        return cls.objects.create(
            table=table,
            version=card.version,
            options=card.to_dict()["options"],
            stake=card.stake,
            multiplier=card.multiplier,
        )

    def as_card(self, ruleset: str) -> ledger.Card:
        return ledger.Card(ruleset, self.options, self.stake, self.multiplier, self.version)


class Entry(models.Model):
    """What hands and events share: their place in the table's log, the card they were applied under, what they
    moved, the account after them, and the idempotency key they were written with (API.md)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seq = models.IntegerField()  # the entry's number in the table's log: 1, 2, 3 … (hands and events together)
    card_version = models.IntegerField(default=1)
    applied = models.JSONField(default=dict)  # each seat's change, after caps (all columns)
    rows = models.JSONField(default=list)  # every transfer: from, to, amount, owed (before the cap), column …
    after = models.JSONField(default=dict)  # the account after this entry, and the table's version then
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)
    body_hash = models.CharField(max_length=64, blank=True, default="")  # of the body the key came with
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["seq"]


class Hand(Entry):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    n = models.IntegerField()  # 1, 2, 3 … over the whole table
    request = models.JSONField()
    result = models.JSONField()

    class Meta(Entry.Meta):
        constraints = [
            models.UniqueConstraint(fields=["table", "n"], name="hand_n_unique"),
            models.UniqueConstraint(fields=["table", "seq"], name="hand_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="hand_key_unique",
            ),
        ]

    def as_entry(self) -> dict:
        return {"kind": "hand", "result": self.result, "card_version": self.card_version}


class Event(Entry):
    DRAW, LEAVE, NEXT, CARD = "draw", "leave", "next", "card"
    KINDS = [(DRAW, "流局"), (LEAVE, "离场"), (NEXT, "下一底 / 局"), (CARD, "规则卡")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=8, choices=KINDS)
    seat = models.CharField(max_length=1, blank=True, default="")

    class Meta(Entry.Meta):
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_key_unique",
            ),
        ]

    def as_entry(self) -> dict:
        entry = {"kind": self.kind, "card_version": self.card_version}
        if self.kind == self.LEAVE:
            entry["seat"] = self.seat
        return entry
