"""The table ledger's JSON API (API.md § "The table ledger") and the storage operations the pages share.

Every write runs in one transaction that first locks the table row (an UPDATE of its `seq`, then
SELECT … FOR UPDATE): on PostgreSQL a second writer waits for the row; on SQLite the UPDATE takes the database's
write lock at once, so a second writer waits (busy timeout) instead of failing half-way. Inside the lock the table is
replayed from its stored hands, the new entry is checked against that state and stored, or the whole transaction is
rolled back: a rejected request changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from . import ledger
from .api import engine_lang
from .engine import score
from .engine.errors import ScoreError
from .models import Event, Hand, Table
from .strict_json import read_json

# ---------------------------------------------------------------------------------------------------------
# Storage operations (shared with the pages)


def not_found() -> ledger.LedgerError:
    return ledger.LedgerError("not_found", "没有这张牌桌", "no such table", 404)


def load(table_id: str) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise not_found()
    return table


def create_table(data: object) -> tuple[Table, str]:
    config = ledger.parse_config(data)
    return Table.create(config)


def _locked(table_id: str, version: object = None) -> Table:
    """Lock the table row for this transaction (see the module docstring) and check the client's `version`."""
    if not Table.objects.filter(pk=table_id).update(seq=F("seq") + 1):
        raise not_found()
    table = Table.objects.select_for_update().get(pk=table_id)
    if version is not None and version != table.seq - 1:
        raise ledger.LedgerError(
            "stale",
            "牌桌刚被别人改过（也许这手已经记了），请刷新后再看",
            "the table changed meanwhile (perhaps this hand is already recorded): reload and check",
            409,
            "version",
        )
    return table


def _version_of(body: object) -> object:
    if isinstance(body, dict) and "version" in body:
        version = body["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise ledger.LedgerError("bad_json", "version 必须是整数", "version must be a whole number", 400, "version")
        return version
    return None


def record_hand(table_id: str, body: object, lang: str = "zh") -> Table:
    """Score the request with the table's dealer, streak and options, and append it; or refuse and change nothing."""
    if not isinstance(body, dict):
        raise ledger.LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    with transaction.atomic():
        table = _locked(table_id, _version_of(body))
        state, _ = table.replay()
        ledger.refuse_if_ended(state)
        request = ledger.prepare_request(state, {k: v for k, v in body.items() if k != "version"})
        result = score(request, lang)
        ledger.check_win(result)
        entry = ledger.apply_hand(state, result)
        Hand.objects.create(
            table=table, n=entry["n"], seq=table.seq, request=request, result=result, applied=entry["applied"]
        )
    return table


def record_event(table_id: str, kind: str, body: object = None) -> Table:
    body = body if isinstance(body, dict) else {}
    with transaction.atomic():
        table = _locked(table_id, _version_of(body))
        state, _ = table.replay()
        seat = ""
        if kind == Event.DRAW:
            entry = ledger.apply_draw(state)
        elif kind == Event.LEAVE:
            seat = body.get("seat")
            entry = ledger.apply_leave(state, seat)
        else:
            entry = ledger.apply_next(state)
        Event.objects.create(table=table, seq=table.seq, kind=kind, seat=seat or "", applied=entry["applied"])
    return table


def undo_last(table_id: str, body: object = None) -> Table:
    with transaction.atomic():
        table = _locked(table_id, _version_of(body))
        last = max(table.entries(), key=lambda row: row.seq, default=None)
        if last is None:
            raise ledger.LedgerError("nothing_to_undo", "没有可以撤销的记录", "there is nothing to undo", 409)
        last.delete()
    return table


# ---------------------------------------------------------------------------------------------------------
# The table as JSON


def view_path(table: Table) -> str:
    return reverse("ledger_table", args=[table.id])


def edit_path(table: Table, token: str) -> str:
    return reverse("ledger_edit", args=[table.id, token])


def table_json(table: Table, request: HttpRequest | None = None) -> dict:
    state, rows = table.replay()
    hands, events = [], []
    for row, entry in zip(rows, state.log, strict=True):
        detail = {
            "seq": row.seq,
            "game": entry["game"],
            "applied": row.applied,
            "rows": entry["rows"],
            "balances": entry["balances"],
            "outside": entry["outside"],
            "dealer": entry["dealer"],
            "dealer_streak": entry["dealer_streak"],
        }
        if isinstance(row, Hand):
            hands.append({"n": row.n, "request": row.request, "result": row.result, **detail})
        else:
            events.append({"kind": row.kind, "seat": row.seat or None, **detail})
    view_url = view_path(table)
    return {
        "id": table.id,
        "ruleset": table.ruleset,
        "options": table.options,
        "players": table.players,
        "stake": table.stake,
        "multiplier": table.multiplier,
        "first_dealer": table.first_dealer,
        "dealer": state.dealer,
        "dealer_streak": state.dealer_streak,
        "game": state.game,
        "balances": state.balances,
        "outside": state.outside,
        "totals": state.totals,
        "status": state.status,
        "ended_reason": state.ended_reason,
        "version": table.seq,
        "view_url": request.build_absolute_uri(view_url) if request else view_url,
        "hands": hands,
        "events": events,
    }


# ---------------------------------------------------------------------------------------------------------
# Views


def _json(body: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _error(error: ledger.LedgerError | ScoreError, lang: str) -> JsonResponse:
    if isinstance(error, ScoreError):
        return _json(error.to_dict(lang), 400)
    response = _json(error.to_dict(lang), error.status)
    if error.status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="table"'
    return response


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorize(table: Table, token: str | None) -> None:
    if token is None:
        raise ledger.LedgerError(
            "unauthorized",
            "修改牌桌需要编辑令牌（Authorization: Bearer …）",
            "changing a table needs its edit token (Authorization: Bearer …)",
            401,
        )
    if not table.token_matches(token):
        raise ledger.LedgerError("forbidden", "编辑令牌不对", "wrong edit token", 403)


@csrf_exempt  # authority comes from the Bearer token in a header, never from a cookie
@require_POST
def api_create(request: HttpRequest) -> JsonResponse:
    lang = engine_lang(request)
    try:
        table, token = create_table(read_json(request))
    except (ledger.LedgerError, ScoreError) as error:
        return _error(error, lang)
    body = table_json(table, request)
    body["edit_token"] = token
    body["edit_url"] = request.build_absolute_uri(edit_path(table, token))
    return _json(body, 201)


@require_http_methods(["GET", "HEAD"])
def api_table(request: HttpRequest, table_id: str) -> JsonResponse:
    try:
        return _json(table_json(load(table_id), request))
    except ledger.LedgerError as error:
        return _error(error, engine_lang(request))


def _write(request: HttpRequest, table_id: str, action, status: int = 201) -> JsonResponse:
    lang = engine_lang(request)
    try:
        authorize(load(table_id), bearer(request))
        body = read_json(request) if request.body.strip() else {}
        table = action(body, lang)
    except (ledger.LedgerError, ScoreError) as error:
        return _error(error, lang)
    return _json(table_json(table, request), status)


@csrf_exempt
@require_POST
def api_hand(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: record_hand(table_id, body, lang))


@csrf_exempt
@require_POST
def api_draw(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: record_event(table_id, Event.DRAW, body))


@csrf_exempt
@require_POST
def api_leave(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: record_event(table_id, Event.LEAVE, body))


@csrf_exempt
@require_POST
def api_next(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: record_event(table_id, Event.NEXT, body))


@csrf_exempt
@require_POST
def api_undo(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: undo_last(table_id, body), 200)
