"""The ledger's writes and reads on the database: what the API and the pages share.

Every write runs in one transaction that first locks the table row (an UPDATE of the row: on PostgreSQL a second
writer waits for the row; on SQLite the UPDATE takes the database's write lock at once, so a second writer waits
(busy timeout) instead of failing half-way); the clean-up (`delete_untouched`) takes the same lock before it
deletes a table. Inside the lock the write reads the stored account (one row), checks the new entry against it,
appends the entry with the account after it and stores the account: the same few statements at hand 1 and at
hand 1,000. A rejected request raises inside the transaction, which rolls back: it
changes nothing.

Idempotency (API.md): a write's `idempotency_key` is looked up first, under the lock; found, the write answers
what the first one did and stores nothing. Undo keeps the entry it removed on the table (`redo`), until the next
write.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.fields.json import KeyTransform
from django.utils import timezone

from calculator.engine import score
from calculator.engine.text import msg
from calculator.ledger import (
    LedgerError,
    State,
    apply_card,
    apply_draw,
    apply_hand,
    apply_leave,
    apply_next,
    change_card,
    check_win,
    parse_config,
    prepare_request,
    refuse_if_ended,
    start,
)
from calculator.models import Card, Event, Hand, Table

MAX_KEY = 64  # characters of an idempotency key
LEDGER_KEYS = ("version", "idempotency_key")  # what a write body may carry beside the entry itself


def not_found() -> LedgerError:
    return LedgerError("not_found", msg("no such table"))


class TooManyTables(LedgerError):
    """This client opened LEDGER_TABLES_PER_DAY tables in the last 24 hours: it may open the next one in
    `retry_after` seconds."""

    def __init__(self, retry_after: int):
        most = settings.LEDGER_TABLES_PER_DAY
        super().__init__(
            "too_many_tables", msg("one client may open at most {most} tables a day: try again later", most=most)
        )
        self.retry_after = retry_after


def load(table_id: str) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise not_found()
    return table


# ---------------------------------------------------------------------------------------------------------
# Creating a table


def creator_of(address: str) -> str:
    """A keyed hash of the client's address: enough to count its tables, useless to anyone reading the database."""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def create_table(data: object, address: str = "") -> tuple[Table, str]:
    """A new table, unless this client created LEDGER_TABLES_PER_DAY of them in the last 24 hours (429)."""
    config = parse_config(data)
    creator = creator_of(address) if address else ""
    if creator:
        since = timezone.now() - timedelta(days=1)
        recent = Table.objects.filter(creator=creator, created__gte=since)
        if recent.count() >= settings.LEDGER_TABLES_PER_DAY:
            oldest = recent.order_by("created").values_list("created", flat=True).first()
            raise TooManyTables(max(1, int((oldest + timedelta(days=1) - timezone.now()).total_seconds())))
    with transaction.atomic():
        return Table.create(config, creator)


# ---------------------------------------------------------------------------------------------------------
# Writes


@dataclass
class Written:
    """What a write answers (API.md): the table's state and only the entries the write made. `status` is 201 for a
    new entry, 200 for an idempotent repeat, an undo or a redo."""

    table: Table
    state: State
    version: int  # the table's version after the write (for a repeat: after the first one)
    entries: list = field(default_factory=list)
    status: int = 201


def _locked(table_id: str) -> Table:
    """Lock the table row for this transaction (see the module docstring)."""
    if not Table.objects.filter(pk=table_id).update(version=F("version")):
        raise not_found()
    return Table.objects.get(pk=table_id)


def parse_version(body: Mapping) -> int | None:
    version = body.get("version")
    if version is None:
        return None
    if not isinstance(version, int) or isinstance(version, bool):
        raise LedgerError("bad_json", msg("version must be a whole number"), "version")
    return version


def parse_key(body: Mapping) -> str | None:
    """API.md: 1–64 printable characters."""
    key = body.get("idempotency_key")
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        refused = msg("idempotency_key must be 1 to {most} printable characters", most=MAX_KEY)
        raise LedgerError("bad_json", refused, "idempotency_key")
    return key


def body_hash(body: Mapping) -> str:
    """What a repeat with the same key must match: the body less the key and the version."""
    entry = {key: value for key, value in body.items() if key not in LEDGER_KEYS}
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()


def _body(body: object, allowed: tuple[str, ...] | None) -> Mapping:
    """A write body: an object; `allowed` lists its fields (None: any, the engine checks a hand's)."""
    if body is None:
        return {}
    if not isinstance(body, Mapping):
        raise LedgerError("bad_json", msg("the request must be a JSON object"))
    if allowed is not None:
        for key in body:
            if key not in allowed:
                raise LedgerError("bad_json", msg("unknown field {name}", name=key), str(key))
    return body


def keyed_entry(table: Table, key: str):
    return Hand.objects.filter(table=table, idempotency_key=key).first() or (
        Event.objects.filter(table=table, idempotency_key=key).first()
    )


Action = Callable[[Table, State, Mapping], list]


def write(
    table_id: str,
    body: object,
    action: Action,
    allowed: tuple[str, ...] | None,
    keyed: str | None,
    status: int = 201,
) -> Written:
    """The frame of every write: body, lock, idempotency key, version, the action, the stored account. `keyed`
    is the kind of entry the write makes (`entry_kind`) where it takes an idempotency key, None where it takes
    none: a key's repeat must make the same kind of entry from the same body."""
    body = _body(body, allowed)
    key = parse_key(body) if keyed else None
    if not keyed and "idempotency_key" in body:
        raise LedgerError("bad_json", msg("this write takes no idempotency_key"), "idempotency_key")
    version = parse_version(body)
    with transaction.atomic():
        table = _locked(table_id)
        if key is not None:
            first = keyed_entry(table, key)
            if first is not None:
                return repeat(table, first, keyed, body)
        if version is not None and version != table.version:
            changed = msg("the table changed meanwhile (perhaps this hand is already recorded): reload and check")
            raise LedgerError("stale", changed, "version")
        state = table.current()
        entries = action(table, state, body)
        table.version += 1
        for entry in entries:
            entry.after.setdefault("version", table.version)  # a redone entry keeps its own
            if key is not None:
                entry.idempotency_key, entry.body_hash = key, body_hash(body)
            entry.save()
        if entries:
            table.redo = None  # API.md: redo only if nothing was written since the undo
        table.state = state.to_dict()
        table.save(update_fields=["version", "state", "redo", "updated"])
    return Written(table, state, table.version, entries, status if entries else 200)


def entry_kind(entry: Hand | Event) -> str:
    """What kind of write made an entry: "hand", or the event's kind (draw, leave, next, card)."""
    return entry.kind if isinstance(entry, Event) else "hand"


def repeat(table: Table, first, kind: str, body: Mapping) -> Written:
    """The same key again: the first answer (200), or 409 if the write or its body is not the first one's (a draw's
    body and that of a hand sent with only the draw's key are both empty: the kind tells them apart)."""
    if entry_kind(first) != kind or first.body_hash != body_hash(body):
        used = msg("this idempotency_key was used with a different request")
        raise LedgerError("idempotency_mismatch", used, "idempotency_key")
    after = dict(first.after)
    then = State.from_dict(table.config(), table.card_of(after["card_version"]), after)
    return Written(table, then, after["version"], [first], 200)  # the table as the first write left it


def full(state: State) -> None:
    if state.entries >= settings.LEDGER_MAX_HANDS:
        most = settings.LEDGER_MAX_HANDS
        raise LedgerError(
            "table_full", msg("this table holds {most} entries, its most: start a new table to go on", most=most)
        )


def _entry(model, table: Table, state: State, logged: dict, **fields):
    """A hand or an event as the log entry `logged` made it (not saved yet: `write` saves it with its key)."""
    return model(
        table=table,
        seq=state.entries,
        card_version=state.card.version,
        applied=logged["applied"],
        rows=logged["rows"],
        after=state.to_dict(),
        **fields,
    )


def record_hand(table_id: str, body: object, lang: str = "zh") -> Written:
    """Score the request with the table's dealer, streak and card, and append it; or refuse and change nothing."""

    def hand(table: Table, state: State, body: Mapping) -> list:
        full(state)
        refuse_if_ended(state)
        request = prepare_request(state, {k: v for k, v in body.items() if k not in LEDGER_KEYS})
        result = score(request, lang)
        check_win(result)
        logged = apply_hand(state, result)
        return [_entry(Hand, table, state, logged, n=logged["n"], request=request, result=result)]

    return write(table_id, body, hand, None, keyed="hand")


EVENTS = {
    Event.DRAW: (lambda state, body: apply_draw(state), ("version", "idempotency_key"), True),
    Event.LEAVE: (
        lambda state, body: apply_leave(state, body.get("seat")),
        ("seat", "version", "idempotency_key"),
        True,
    ),
    Event.NEXT: (lambda state, body: apply_next(state), ("version",), False),
}


def record_event(table_id: str, kind: str, body: object = None) -> Written:
    """A drawn hand, a player leaving, or the next 底 game / 局."""
    apply_kind, allowed, keyed = EVENTS[kind]

    def event(table: Table, state: State, body: Mapping) -> list:
        full(state)
        logged = apply_kind(state, body)
        return [_entry(Event, table, state, logged, kind=kind, seat=logged.get("seat") or "")]

    return write(table_id, body, event, allowed, keyed=kind if keyed else None)


def change_rules(table_id: str, body: object) -> Written:
    """`POST …/card`: a new version of the rule card, while the current 底 game / 局 has no entry (API.md)."""

    def card(table: Table, state: State, body: Mapping) -> list:
        full(state)
        new = change_card(state.card, body)
        logged = apply_card(state, new)
        Card.store(table, new)
        return [_entry(Event, table, state, logged, kind=Event.CARD)]

    return write(table_id, body, card, None, keyed=None)


def undo_last(table_id: str, body: object = None) -> Written:
    """The table without its last entry; the entry is kept for `redo` until the next write."""

    def undo(table: Table, state: State, body: Mapping) -> list:
        last = last_entry(table)
        if last is None:
            raise LedgerError("nothing_to_undo", msg("there is nothing to undo"))
        table.redo = stash(table, last)
        previous = entry_at(table, last.seq - 1)
        restored = previous.after if previous else start_of(table)
        if isinstance(last, Event) and last.kind == Event.CARD:
            table.cards.filter(version=last.card_version).delete()
        last.delete()
        _restore(state, table, restored)
        return []

    return write(table_id, body, undo, ("version",), keyed=None)


def redo_last(table_id: str, body: object = None) -> Written:
    """The entry the last undo removed, exactly as it was, if nothing was written since (API.md)."""

    def redo(table: Table, state: State, body: Mapping) -> list:
        kept = table.redo
        if not kept:
            raise LedgerError("nothing_to_redo", msg("there is nothing to redo"))
        if kept.get("card"):
            Card.objects.create(table=table, **kept["card"])
        model = Hand if kept["model"] == "hand" else Event
        entry = model(table=table, **kept["fields"])
        _restore(state, table, entry.after)
        table.redo = None
        return [entry]

    return write(table_id, body, redo, ("version",), keyed=None, status=200)


def _restore(state: State, table: Table, stored: Mapping) -> None:
    """Make `state` the stored account `stored` (the card it names included)."""
    restored = State.from_dict(state.config, table.card_of(stored["card_version"]), stored)
    state.__dict__.update(restored.__dict__)


def last_entry(table: Table):
    hand = Hand.objects.filter(table=table).order_by("-seq").first()
    event = Event.objects.filter(table=table).order_by("-seq").first()
    return max((e for e in (hand, event) if e is not None), key=lambda e: e.seq, default=None)


def entry_at(table: Table, seq: int):
    if seq < 1:
        return None
    return Hand.objects.filter(table=table, seq=seq).first() or Event.objects.filter(table=table, seq=seq).first()


def start_of(table: Table) -> dict:
    return start(table.config()).to_dict()


STASHED = ("seq", "card_version", "applied", "rows", "after", "idempotency_key", "body_hash")


def stash(table: Table, entry) -> dict:
    """An entry as `redo` brings it back: every stored field (and its card, for a card change)."""
    fields = {name: getattr(entry, name) for name in STASHED}
    if isinstance(entry, Hand):
        fields.update(n=entry.n, request=entry.request, result=entry.result)
        return {"model": "hand", "fields": fields}
    fields.update(kind=entry.kind, seat=entry.seat)
    kept: dict = {"model": "event", "fields": fields}
    if entry.kind == Event.CARD:
        card = table.cards.get(version=entry.card_version)
        kept["card"] = {
            "version": card.version,
            "options": card.options,
            "stake": card.stake,
            "multiplier": card.multiplier,
        }
    return kept


# ---------------------------------------------------------------------------------------------------------
# The clean-up


def delete_untouched(table_id: str, cutoff: datetime) -> bool:
    """Delete the table, its cards, hands and events, if nobody has written to it since `cutoff`; say whether it
    did.

    Under the lock every write takes (`_locked`), in one transaction: a write that got the lock first has moved
    `updated` and the table is kept; a write that comes after finds no table (404) and has recorded nothing. So a
    write answered 2xx is never deleted, and nothing is left half-deleted."""
    with transaction.atomic():
        if not Table.objects.filter(pk=table_id, updated__lt=cutoff).update(version=F("version")):
            return False  # written to since (or already deleted): kept
        Table.objects.filter(pk=table_id).delete()  # with its cards, hands and events (on_delete=CASCADE)
    return True


# ---------------------------------------------------------------------------------------------------------
# Reads


MAX_PAGE = 500
DEFAULT_PAGE = 100


@dataclass(frozen=True)
class Page:
    """Entries `first` … `last` (their numbers in the table's log, 1-based, inclusive)."""

    first: int
    last: int

    @classmethod
    def of(cls, total: int, start: object = None, limit: object = None) -> Page:
        """API.md: `?from=N&limit=M` (at most 500); by default the last 100."""
        size = _whole_param(limit, "limit", DEFAULT_PAGE, 1, MAX_PAGE)
        first = _whole_param(start, "from", max(1, total - size + 1), 1, None)
        return cls(first, first + size - 1)


def _whole_param(value: object, name: str, default: int, low: int, high: int | None) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(str(value))
    except ValueError:
        number = None
    if number is None or number < low or (high is not None and number > high):
        if high:
            refused = msg("{name} must be a whole number from {low} to {high}", name=name, low=low, high=high)
        else:
            refused = msg("{name} must be a whole number from {low} up", name=name, low=low)
        raise LedgerError("bad_query", refused, name)
    return number


EXPORTED = ("request", "bao", "bao_reason")  # what an export shows of every hand's answer, besides its facts


def exported_entries(table: Table, fact_fields: tuple[str, ...] | None, first: int = 1) -> list[Hand | Event]:
    """The table's entries from number `first` on, in their order, each hand's `result` holding only what an export
    shows of it (its request, 包 and why, and `fact_fields`, the game's TableRules.fact_fields): the database hands
    over those fields, not the whole answer with its explanation (most of what a hand stores)."""
    events = list(Event.objects.filter(table=table, seq__gte=first).defer("idempotency_key", "body_hash"))
    hands = Hand.objects.filter(table=table, seq__gte=first).defer("request", "idempotency_key", "body_hash")
    if fact_fields is None:
        hands = list(hands)
    else:
        fields = (*EXPORTED, *fact_fields)
        hands = list(hands.defer("result").annotate(**{f"result_{f}": KeyTransform(f, "result") for f in fields}))
        for hand in hands:
            hand.result = {f: getattr(hand, f"result_{f}") for f in fields}
    return sorted([*hands, *events], key=lambda entry: entry.seq)


def entries_in(table: Table, page: Page) -> tuple[list[Hand], list[Event]]:
    hands = list(Hand.objects.filter(table=table, seq__gte=page.first, seq__lte=page.last).order_by("seq"))
    events = list(Event.objects.filter(table=table, seq__gte=page.first, seq__lte=page.last).order_by("seq"))
    return hands, events
