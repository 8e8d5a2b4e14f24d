"""The table ledger's JSON API (API.md § "The table ledger"): thin views over calculator.tables.store."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache, wraps

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition, require_http_methods, require_POST

from calculator import ledger
from calculator.engine.errors import ScoreError
from calculator.engine.text import msg
from calculator.models import Event, Hand, Table
from calculator.plumbing import ratelimit
from calculator.plumbing.django_locale import engine_lang
from calculator.plumbing.middleware import request_client
from calculator.plumbing.strict_json import read_json
from calculator.tables import snapshot as snapshots
from calculator.tables import store
from calculator.tables.paths import edit_path, view_path
from calculator.tables.statuses import status_of

# ---------------------------------------------------------------------------------------------------------
# The table as JSON


def entry_json(entry: Hand | Event) -> dict:
    """One hand or event as API.md shows it: what it moved and the account after it."""
    after = entry.after
    detail = {
        "seq": entry.seq,
        "card_version": entry.card_version,
        "game": after["game"],
        "applied": entry.applied,
        "rows": entry.rows,
        "balances": after["balances"],
        "outside": after["outside"],
        "totals": after["totals"],
        "dealer": after["dealer"],
        "dealer_streak": after["dealer_streak"],
    }
    if isinstance(entry, Hand):
        return {"n": entry.n, "request": entry.request, "result": entry.result, **detail}
    return {"kind": entry.kind, "seat": entry.seat or None, **detail}


def state_json(table: Table, state: ledger.State, version: int, request: HttpRequest | None = None) -> dict:
    """Everything `GET` returns but the paged lists (what every write answers with)."""
    card = state.card
    view_url = view_path(table)
    return {
        "id": table.id,
        "ruleset": table.ruleset,
        "options": card.to_dict()["options"],
        "players": table.players,
        "stake": card.stake,
        "multiplier": card.multiplier,
        "card": card.to_dict(),
        "first_dealer": table.first_dealer,
        "dealer": state.dealer,
        "dealer_streak": state.dealer_streak,
        "game": state.game,
        "balances": state.balances,
        "outside": state.outside,
        "totals": state.totals,
        "status": state.status,
        "ended_reason": state.ended_reason,
        "settlement": ledger.settlement(state.totals, state.seats),
        "version": version,
        "hands_total": state.hands,
        "events_total": state.events,
        "view_url": request.build_absolute_uri(view_url) if request else view_url,
    }


def written_json(written: store.Written, request: HttpRequest | None = None) -> dict:
    body = state_json(written.table, written.state, written.version, request)
    body["hands"] = [entry_json(e) for e in written.entries if isinstance(e, Hand)]
    body["events"] = [entry_json(e) for e in written.entries if isinstance(e, Event)]
    return body


def page_json(
    table: Table, state: ledger.State, version: int, entries: list, request: HttpRequest | None = None
) -> dict:
    """`GET /api/tables/<id>`: the state and one page of hands and events (`entries`, in their order)."""
    body = state_json(table, state, version, request)
    body["hands"] = [entry_json(e) for e in entries if isinstance(e, Hand)]
    body["events"] = [entry_json(e) for e in entries if isinstance(e, Event)]
    return body


def table_json(table: Table, request: HttpRequest | None = None, page: store.Page | None = None) -> dict:
    """The same, read from the database as the table is now (by default the last 100 entries)."""
    state = table.current()
    page = page or store.Page.of(state.entries)
    hands, events = store.entries_in(table, page)
    return page_json(table, state, table.version, sorted([*hands, *events], key=lambda e: e.seq), request)


# ---------------------------------------------------------------------------------------------------------
# Views


def _json(body: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _error(error: ledger.LedgerError | ScoreError, lang: str) -> JsonResponse:
    """A refusal as API.md answers it: its status by its code (an engine refusal is a 400)."""
    response = _json(error.to_dict(lang), status_of(error.code))
    if error.code == "unauthorized":
        response["WWW-Authenticate"] = 'Bearer realm="table"'
    if isinstance(error, store.TooManyTables):
        response["Retry-After"] = str(error.retry_after)
    return response


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorize(table: Table, token: str | None) -> None:
    if token is None:
        raise ledger.LedgerError("unauthorized", msg("changing a table needs its edit token (Authorization: Bearer …)"))
    if not table.token_matches(token):
        raise ledger.LedgerError("forbidden", msg("wrong edit token"))


@csrf_exempt  # authority comes from the Bearer token in a header, never from a cookie
@require_POST
def api_create(request: HttpRequest) -> JsonResponse:
    lang = engine_lang(request)
    try:
        table, token = store.create_table(read_json(request), request_client(request))
    except (ledger.LedgerError, ScoreError) as error:
        return _error(error, lang)
    body = table_json(table, request)
    body["edit_token"] = token
    body["edit_url"] = request.build_absolute_uri(edit_path(table, token))
    return _json(body, 201)


def etag(version: int, request: HttpRequest) -> str:
    """The answer changes with the table's version, the page asked for and the language of its messages."""
    query = request.GET.urlencode()
    return f'"{version}-{engine_lang(request)}-{query}"'


def current_etag(request: HttpRequest, table_id: str) -> str | None:
    """The tag of the answer as the table is now, for Django's `condition` (one indexed read); None for no such
    table or a bad page, which the view answers with an error."""
    try:
        store.Page.of(0, *_page_params(request))
    except ledger.LedgerError:
        return None
    version = snapshots.version_of(table_id)
    return None if version is None else etag(version, request)


def tagged_only_when_ok(view: Callable) -> Callable:
    """Only a table carries its tag: `condition` tags every answer, an error (429, 503) included."""

    @wraps(view)
    def tagged(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.status_code not in (200, 304):
            del response["ETag"]
        return response

    return tagged


@csrf_exempt  # it writes nothing: a POST, PUT or DELETE is 405 (with Allow), not a CSRF refusal
@require_http_methods(["GET", "HEAD"])
@cache_control(no_cache=True)  # always revalidate: a table changes while it is played
@tagged_only_when_ok
@condition(etag_func=current_etag)
def api_table(request: HttpRequest, table_id: str) -> HttpResponse:
    """The table; 304 with no body while `If-None-Match` names it as it is now: RFC 9110's weak comparison, a list
    of tags or `*` (Django's `condition`: a tag sent back compressed, W/"…", matches too)."""
    lang = engine_lang(request)
    try:
        response, tag = _page_answer(request, table_id)
    except ledger.LedgerError as error:
        return _error(error, lang)
    response["ETag"] = tag  # the version read (a write may have landed since the tag was checked)
    return response


def _page_answer(request: HttpRequest, table_id: str) -> tuple[HttpResponse, str]:
    """The page `?from=&limit=` of the table as it is now, and its ETag."""
    for _ in range(5):  # each retry follows a write that landed while the page was read
        read = snapshots.current(
            table_id, lambda snapshot: store.Page.of(snapshot.state.entries, *_page_params(request))
        )
        if read is None:
            raise store.not_found()
        snapshot, page, _ = read
        view_url = request.build_absolute_uri(view_path(snapshot.table))
        with ratelimit.heavy_read(request, snapshot.state.entries):
            try:
                body = page_body(table_id, snapshot.version, page.first, page.last, view_url)
            except snapshots.Moved:
                continue
        return HttpResponse(body, content_type="application/json"), etag(snapshot.version, request)
    raise snapshots.Moved(table_id)


@lru_cache(maxsize=8)
def page_body(table_id: str, version: int, first: int, last: int, view_url: str) -> bytes:
    """The encoded answer of `GET /api/tables/<id>` for a page of the table at `version`: made once per version,
    page and process, then a lookup (a page of 500 entries is ~2 MB of JSON). It holds no token."""
    snapshot = snapshots.at(table_id, version)
    entries = snapshot.entries(store.Page(first, last))
    body = {**page_json(snapshot.table, snapshot.state, version, entries), "view_url": view_url}
    return json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def _page_params(request: HttpRequest) -> tuple[str | None, str | None]:
    return request.GET.get("from"), request.GET.get("limit")


def _write(request: HttpRequest, table_id: str, action: Callable[[object, str], store.Written]) -> JsonResponse:
    lang = engine_lang(request)
    try:
        authorize(store.load(table_id), bearer(request))
        body = read_json(request) if request.body.strip() else {}
        written = action(body, lang)
    except (ledger.LedgerError, ScoreError) as error:
        return _error(error, lang)
    return _json(written_json(written, request), written.status)


@csrf_exempt
@require_POST
def api_hand(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.record_hand(table_id, body, lang))


@csrf_exempt
@require_POST
def api_draw(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.record_event(table_id, Event.DRAW, body))


@csrf_exempt
@require_POST
def api_leave(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.record_event(table_id, Event.LEAVE, body))


@csrf_exempt
@require_POST
def api_next(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.record_event(table_id, Event.NEXT, body))


@csrf_exempt
@require_POST
def api_card(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.change_rules(table_id, body))


@csrf_exempt
@require_POST
def api_undo(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.undo_last(table_id, body))


@csrf_exempt
@require_POST
def api_redo(request: HttpRequest, table_id: str) -> JsonResponse:
    return _write(request, table_id, lambda body, lang: store.redo_last(table_id, body))
