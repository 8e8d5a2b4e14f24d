"""The table ledger's pages: create a table, the table (read-only or with the edit token), record a hand, CSV,
"my tables".

Links: `/tables/<id>/` is the read-only link; `/tables/<id>/edit/<token>/` is the edit link (the token is the
secret; only its hash is stored). Every change is a POST with the CSRF token and the `version` the page showed, so a
second phone that recorded the same hand a moment earlier makes this one a visible conflict, not a double; writes
that add an entry carry an idempotency key made when the page was drawn, so the same form sent twice (a double
tap, the Back button) records once.

The page stays up to date by itself (static/js/ledger.js): every second it asks for its live part, the read-only
page at `/tables/<id>/live/`, the edit page at `/tables/<id>/edit/<token>/live/` (with its controls), naming the
part it shows in `If-None-Match` (a weak entity tag: the table's version, the page of history, the language). The
answer is 304 with no body while nothing changed (one indexed read), else the new live part, swapped in as it is.

The calculator bound to a table (`/?table=<id>&token=<edit token>&at=<version>`, from the edit page:
calculator/tables/binding.py) records a win straight from its result card: its button posts the hand's query,
the version the calculator was opened at and a key made from the hand to `/tables/<id>/edit/<token>/record/`,
which records it and returns to the table; the same hand sent again (a second tap, the Back button) is recorded once. "Type a hand in" opens the
same address with GET: a form, a preview and a confirmation; the preview gets an idempotency key on its first
visit (a redirect adds `key=`), so the confirmation can be sent once only, whatever the Back button does.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_POST

from calculator import ledger
from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.models import Event, Table
from calculator.pages.forms import HandForm
from calculator.pages.tables import export, picture
from calculator.pages.tables import presenter as pages
from calculator.pages.tables.forms import NewTableForm, RuleCardForm
from calculator.pages.tables.qr import qr_data_uri
from calculator.plumbing import ratelimit
from calculator.plumbing.django_locale import engine_lang, page_locale
from calculator.plumbing.middleware import request_client
from calculator.presentation.handquery import HandInput
from calculator.presentation.render import template as jinja_template
from calculator.presentation.words import player_names, signed
from calculator.tables import snapshot as snapshots
from calculator.tables import store
from calculator.tables.binding import calculator_fields, calculator_query
from calculator.tables.paths import edit_path, view_path
from calculator.tables.statuses import status_of

Read = tuple[snapshots.Snapshot, store.Page, list]  # a table's snapshot, a page of it, that page's entries

POLL_SECONDS = 1  # how often an open table page asks whether the table changed (docs/PERFORMANCE.md)


def new_table(request: HttpRequest) -> HttpResponse:
    lang = engine_lang(request)
    form = NewTableForm(lang, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table, token = store.create_table(form.body(), request_client(request))
        except ledger.LedgerError as error:
            form.add_error(_form_field(form, error.field), error.to_dict(lang)["error"]["message"])
        else:
            return HttpResponseRedirect(edit_path(table, token) + "?created=1")
    return render(request, "ledger/new.html", {"form": form, "cards": list(form.cards.values())})


def _form_field(form: NewTableForm, field: str | None) -> str | None:
    """The new-table form's field for an API field the ledger refused (`players.S` → `name_S`, `dealer`), else
    none (said above the form)."""
    name = f"name_{field.removeprefix('players.')}" if field and field.startswith("players.") else field
    return name if name in form.fields else None


@require_http_methods(["GET", "HEAD"])
def my_tables(request: HttpRequest) -> HttpResponse:
    """This device's tables: the page's script lists what the table pages kept in this browser (localStorage)."""
    return render(request, "ledger/mine.html")


# ---------------------------------------------------------------------------------------------------------
# The table page


def _table_or_404(table_id: str) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404("no such table")
    return table


def _editable(table_id: str, token: str) -> Table:
    table = _table_or_404(table_id)
    if not table.token_matches(token):
        raise Http404("no such edit link")  # a wrong token looks like a missing page: it reveals nothing
    return table


def live_context(request: HttpRequest, read: Read, token: str | None) -> dict:
    """What changes on the table page (templates/ledger/_live.html), from the table's snapshot at its version."""
    lang = engine_lang(request)
    snapshot, page, shown = read
    table, state, cards = snapshot.table, snapshot.state, snapshot.cards
    card = state.card
    entries = shown[::-1]  # the newest first
    words = card.table
    context = {
        "table": table,
        "state": state,
        "card": card,
        "card_lines": pages.rule_card_lines(card, lang),
        "words": {
            "game": words.game_number(lang).format(n=state.game),
            "next_game": words.next_game(lang),
            "balance": (words.balance_label if card.is_room else words.ordinary_balance_label)(lang),
            "outside": words.outside_label(lang) if words.outside_label else None,
            "outside_help": words.outside_help(lang) if words.outside_help else None,
            "leave": words.leave_label(lang) if words.leave_label else None,
        },
        "title": words.title(card.options, card.stake)(lang),
        "seats": pages.seats(table, state, lang),
        "settlement": pages.settlement_rows(table, ledger.settlement(state.totals, state.seats), lang),
        "history": [pages.history_item(e, table, cards, lang) for e in entries],
        # the page before this one (as many entries, from entry 1 at the earliest)
        "earlier": max(1, 2 * page.first - page.last - 1) if page.first > 1 else None,
        "later": page.last + 1 if page.last < state.entries else None,
        "chart": chart_of(snapshot, lang),
        "ended_text": card.table.ended_text(state.ended_reason, lang),
        "dealer_name": player_names(table.players, lang)[state.dealer],
        "token": token,
        "live_url": reverse("ledger_edit_live", args=[table.id, token])
        if token
        else reverse("ledger_live", args=[table.id]),
        "version": table.version,
        "etag": live_tag(request, table.version),
    }
    context["history_html"] = jinja_html("history.html", history=context["history"])
    if context["chart"]:
        context["chart_html"] = jinja_html("chart.html", chart=context["chart"])
    if token:
        base = reverse("ledger_edit", args=[table.id, token])
        context["actions"] = {k: f"{base}{k}/" for k in ("draw", "next", "undo", "redo", "leave", "card", "record")}
        context["calculator_url"] = f"{reverse('calculator')}?{calculator_query(table.id, token, table.version)}"
        context["keys"] = {kind: secrets.token_urlsafe(16) for kind in ("draw", "leave")}
        context["last"] = entries[0] if entries and page.last >= state.entries else store.last_entry(table)
        if context["last"]:
            context["last_line"] = jinja_html(
                "entry_line.html", item=pages.history_item(context["last"], table, cards, lang)
            )
        context["redo"] = table.redo
        context["after"] = pages.after_actions(table, state, lang)  # what the draw and the next game would do
        if not state.played:
            context["card_form"] = RuleCardForm(card.rules, lang, card=card)
    return context


def chart_of(snapshot: snapshots.Snapshot, lang: str) -> dict | None:
    """The chart of totals of the table at its snapshot's version: the same for every reader until the next write
    (a 1,000-entry table's chart has 4,000 points), so it is drawn once per (table, version, language: the legend
    names an unnamed seat in the page's language)."""
    try:
        return _chart_at(snapshot.table.id, snapshot.version, lang)
    except snapshots.Moved:  # no longer the snapshot's version, and that snapshot forgotten: draw it from this one
        return pages.chart(snapshot.table, snapshot.state.seats, snapshot.totals, lang)


@lru_cache(maxsize=32)
def _chart_at(table_id: str, version: int, lang: str) -> dict | None:
    snapshot = snapshots.at(table_id, version)
    return pages.chart(snapshot.table, snapshot.state.seats, snapshot.totals, lang)


def jinja_html(template: str, **context) -> str:
    """What the live part repeats most drawn by a Jinja2 template (jinja2/history.html, entry_line.html, chart.html):
    a page of 100 entries and a chart of up to 4,000 points are most of what it costs to draw, and Jinja2 draws them
    several times faster than Django's templates (docs/PERFORMANCE.md)."""
    return mark_safe(jinja_template(template, page_locale()).render(**context))  # the environment escapes


def table_context(request: HttpRequest, read: Read, token: str | None) -> dict:
    table = read[0].table
    context = live_context(request, read, token)
    view_url = request.build_absolute_uri(view_path(table))
    context["view_url"] = view_url
    context["view_qr"] = qr_data_uri(view_url)
    if token:
        context["edit_url"] = request.build_absolute_uri(edit_path(table, token))
        context["edit_qr"] = qr_data_uri(context["edit_url"])
    context["poll_ms"] = POLL_SECONDS * 1000
    context.update(picture.table_links(request, read[0], engine_lang(request)))  # its picture and preview tags
    return context


def _read(request: HttpRequest, table_id: str, entries: bool = True) -> Read:
    """The table's snapshot and the page of entries `?from=` asks for (404: no such table, or a bad `?from=`);
    without `entries`, no page (an empty one)."""
    start = request.GET.get("from")

    def page_of(snapshot: snapshots.Snapshot) -> store.Page:
        return store.Page.of(snapshot.state.entries, start) if entries else store.Page(1, 0)

    try:
        read = snapshots.current(table_id, page_of)
    except ledger.LedgerError as error:  # a bad ?from=
        raise Http404(error.message("en")) from None
    if read is None:
        raise Http404("no such table")
    return read


def _page(request: HttpRequest, table: Table, token: str | None, status: int = 200, **extra) -> HttpResponse:
    read = _read(request, table.id)
    with ratelimit.heavy_read(request, read[0].state.entries):
        context = table_context(request, read, token)
        context.update(extra)
        return render(request, "ledger/table.html", context, status=status)  # with a token: EditLinkMiddleware


@require_http_methods(["GET", "HEAD"])
def table_view(request: HttpRequest, table_id: str) -> HttpResponse:
    return _page(request, _table_or_404(table_id), None)


@require_http_methods(["GET", "HEAD"])
def table_edit(request: HttpRequest, table_id: str, token: str) -> HttpResponse:
    return _page(
        request,
        _editable(table_id, token),
        token,
        created="created" in request.GET,
        repeat="repeat" in request.GET,
    )


# ---------------------------------------------------------------------------------------------------------
# The live part, asked for every second by an open table page


def live_tag(request: HttpRequest, version: int) -> str:
    """The entity tag of a table's live part at `version`, for this request's page of history and language. Weak
    (RFC 9110 § 8.8.1): two drawings of one version differ only in their CSRF and idempotency tokens."""
    start = request.GET.get("from", "")
    return f'W/"{version}-{engine_lang(request)}-{start if start.isdigit() else ""}"'


def live_etag(request: HttpRequest, table_id: str, token: str | None = None) -> str | None:
    """The live part's tag as the table is now, for Django's `condition` (None: no such table, or not this edit
    link: the view answers 404, whatever `If-None-Match` says)."""
    if token is None:
        version = snapshots.version_of(table_id)
    else:
        table = Table.objects.filter(pk=table_id).first()
        version = table.version if table is not None and table.token_matches(token) else None
    return None if version is None else live_tag(request, version)


def _live(request: HttpRequest, read: Read, token: str | None) -> HttpResponse:
    with ratelimit.heavy_read(request, read[0].state.entries):
        response = render(request, "ledger/_live.html", live_context(request, read, token))
    response["ETag"] = live_tag(request, read[0].version)  # the version drawn (a write may have landed since)
    return response


@require_http_methods(["GET", "HEAD"])
@cache_control(no_store=True)
@condition(etag_func=live_etag)
def table_live(request: HttpRequest, table_id: str) -> HttpResponse:
    """The read-only live part; 304 while `If-None-Match` names the part the page shows."""
    read = _read(request, table_id)
    if request.GET.get("v") == str(read[0].version):
        return HttpResponse(status=204)  # a page drawn before entity tags asks `?v=<version>`: nothing changed
    return _live(request, read, None)


@require_http_methods(["GET", "HEAD"])
@condition(etag_func=live_etag)
def table_edit_live(request: HttpRequest, table_id: str, token: str) -> HttpResponse:
    """The edit page's live part, with its controls: a change arrives in this one answer (the page swaps it in);
    304 while `If-None-Match` names the part the page shows. Private: EditLinkMiddleware."""
    _editable(table_id, token)
    return _live(request, _read(request, table_id), token)


def _version(request: HttpRequest) -> dict:
    try:
        return {"version": int(request.POST.get("version", ""))}
    except ValueError:
        return {}


def _keyed(request: HttpRequest) -> dict:
    key = request.POST.get("idempotency_key")
    return {"idempotency_key": key} if key else {}


def _card_body(request: HttpRequest, table: Table) -> dict:
    rules = RULESETS[table.ruleset]
    form = RuleCardForm(rules, engine_lang(request), request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{form[name].label}: {' '.join(errors)}" for name, errors in form.errors.items())
        raise ledger.LedgerError("bad_table", problems)  # in the page's language already
    return form.body()


@require_POST
def table_action(request: HttpRequest, table_id: str, token: str, action: str) -> HttpResponse:
    table = _editable(table_id, token)
    body = _version(request)
    try:
        if action == "undo":
            written = store.undo_last(table.id, body)
        elif action == "redo":
            written = store.redo_last(table.id, body)
        elif action == "card":
            written = store.change_rules(table.id, {**_card_body(request, table), **body})
        elif action == Event.LEAVE:
            written = store.record_event(
                table.id, action, {**body, **_keyed(request), "seat": request.POST.get("seat")}
            )
        elif action == Event.DRAW:
            written = store.record_event(table.id, action, {**body, **_keyed(request)})
        elif action == Event.NEXT:
            written = store.record_event(table.id, action, body)
        else:
            raise Http404("no such action")
    except ledger.LedgerError as error:
        table.refresh_from_db()
        return _page(
            request, table, token, status_of(error.code), error=error.to_dict(engine_lang(request))["error"]["message"]
        )
    return _after_write(table, token, written)


def _after_write(table: Table, token: str, written: store.Written) -> HttpResponse:
    """Back to the table; a repeat of an earlier write (its idempotency key) says so."""
    repeat = written.status == 200 and written.entries
    return HttpResponseRedirect(edit_path(table, token) + ("?repeat=1" if repeat else ""))


# ---------------------------------------------------------------------------------------------------------
# Recording a hand


def _record_data(table: Table, state: ledger.State, query: QueryDict) -> tuple[QueryDict, list[str]]:
    """The calculator's fields with the table's ruleset, options, dealer and streak put in; what was changed."""
    data = query.copy()
    notes = []
    if data.get("dealer") and data.get("dealer") != state.dealer:
        notes.append(_("The dealer is taken from the table."))
    for name, value in calculator_fields(table, state).items():
        if isinstance(value, bool):
            data.setlist(name, ["on"] if value else [])
        elif not name.startswith("name_"):
            data[name] = str(value)
    data.setdefault("winner", "")
    return data, notes


def _hand_body(hand: HandInput) -> dict:
    """The calculator's request less what the table's card decides (its house rules: the card fills them)."""
    body = hand.request
    options = {k: v for k, v in (body.get("options") or {}).items() if k != "house"}
    return {**body, "options": options}


@require_http_methods(["GET", "HEAD", "POST"])
def record(request: HttpRequest, table_id: str, token: str) -> HttpResponse:
    table = _editable(table_id, token)
    lang = engine_lang(request)
    source = QueryDict(request.POST.get("q", ""), mutable=False) if request.method == "POST" else request.GET
    has_hand = bool(source.get("hand") or source.get("win_tile"))
    key = (request.POST if request.method == "POST" else request.GET).get("key", "")
    if request.method != "POST" and has_hand and not key:
        # One key per hand to record, made on the first visit: the confirmation can land once only.
        query = request.GET.copy()
        query["key"] = secrets.token_urlsafe(16)
        return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
    state = table.current()
    error, preview, recorded = None, None, None
    error_status = 400
    notes: list[str] = []
    if has_hand:
        if request.method == "POST":
            # The confirmation sends the hand exactly as its preview scored it (the table's dealer and card of
            # that moment): if the table moved on since, it is refused (409), never scored with the new dealer.
            data = source.copy()
        else:
            data, notes = _record_data(table, state, source)
        data.pop("key", None)
        form = HandForm(data)
        if form.is_valid():
            body = _hand_body(form.hand())
            try:
                if request.method == "POST":
                    if key and store.keyed_entry(table, key) is not None:
                        # The page's key names the hand (and, from the calculator, the table's version when it was
                        # opened): this hand is recorded, though the table's dealer may have moved since.
                        return HttpResponseRedirect(edit_path(table, token) + "?repeat=1")
                    keyed = {"idempotency_key": key} if key else {}
                    written = store.record_hand(table.id, {**body, **_version(request), **keyed}, lang)
                    return _after_write(table, token, written)
                recorded = store.keyed_entry(table, key) if key else None
                if recorded is None:
                    preview = _preview(table, state, body, data, lang)
            except ledger.LedgerError as refusal:
                error, error_status = refusal.to_dict(lang)["error"]["message"], status_of(refusal.code)
        else:
            error = "; ".join(str(m) for messages in form.errors.values() for m in messages)
    else:
        form = HandForm(initial={"ruleset": table.ruleset, "dealer": state.dealer, "winner": state.dealer})
    form.draw_seats(state.seats)  # a meld's source offers the table's seats only
    chosen_flags = source.getlist("flags")
    names = player_names(table.players, lang)
    context = {
        "table": table,
        "state": state,
        "form": form,
        "preview": preview,
        "recorded": recorded,
        "key": key,
        "error": error,
        "notes": notes,
        "seats": [{"seat": s, "name": names[s]} for s in state.seats],
        "winner": source.get("winner") or state.dealer,
        "discarder": source.get("discarder", ""),
        "flags": [
            {"code": f.id, "label": f.label(lang), "checked": f.id in chosen_flags} for f in state.card.rules.flags
        ],
        "per_hand": [
            form[o.id] for o in state.card.rules.options if o.per_hand and o.id in form.fields and o.kind == "tile"
        ],
        "streak": state.dealer_streak if state.card.table.streak_option else None,
        "meld_rows": [
            {"type": form[f"meld{n}"], "tiles": form[f"meld{n}_tiles"], "from": form[f"meld{n}_from"], "n": n}
            for n in (1, 2, 3, 4)
        ],
        "dealer_name": names[state.dealer],
        "edit_path": edit_path(table, token),
        "version": table.version,
    }
    status = 400 if error and request.method == "POST" else 200
    if error and request.method == "POST" and request.POST.get("from") == "calculator":
        # Recorded straight from the calculator's result card: the refusal is shown on the table page.
        return _page(request, table, token, error_status, error=error)
    return render(request, "ledger/record.html", context, status=status)  # private: EditLinkMiddleware


def _preview(table: Table, state: ledger.State, body: dict, data: QueryDict, lang: str) -> dict:
    """The hand scored for the table, and what it would move, without storing anything."""
    store.full(state)
    ledger.refuse_if_ended(state)
    prepared = ledger.prepare_request(state, body)
    result = score(prepared, lang)
    ledger.check_win(result)
    trial = ledger.State.from_dict(state.config, state.card, state.to_dict())  # a copy: the page shows `state`
    entry = ledger.apply_hand(trial, result)
    players = player_names(table.players, lang)
    return {
        "result": result,
        "query": urlencode(list(data.lists()), doseq=True),
        "rows": pages.moved_rows(trial.card, entry["rows"], result, lang, players),
        "applied": [
            {"name": players[s], "text": signed(entry["applied"][s]), "value": entry["applied"][s]} for s in trial.seats
        ],
        "ended_text": trial.card.table.ended_text(trial.ended_reason, lang),
    }


# ---------------------------------------------------------------------------------------------------------
# CSV


@require_http_methods(["GET", "HEAD"])
def export_csv(request: HttpRequest, table_id: str) -> HttpResponse:
    """Everything of the table, one row per entry, headers in the page's language, and the settlement."""
    lang = engine_lang(request)
    for _attempt in range(5):  # each retry follows a write that landed while the export was read
        snapshot = _read(request, table_id, entries=False)[0]
        with ratelimit.heavy_read(request, snapshot.state.entries):
            try:
                text = export.csv_text(table_id, snapshot.version, lang)
            except snapshots.Moved:
                continue
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="table-{table_id}.csv"'
        return response
    raise snapshots.Moved(table_id)
