"""The table ledger's pages: create a table, the table (read-only or with the edit token), record a hand, CSV.

Links: `/tables/<id>/` is the read-only link; `/tables/<id>/edit/<token>/` is the edit link (the token is the
secret; only its hash is stored). Every change is a POST with the CSRF token and the `version` the page showed, so a
second phone that recorded the same hand a moment earlier makes this one a visible conflict, not a double.

"Record this hand" from the calculator: `/tables/<id>/edit/<token>/record/?<the calculator's query string>` reads
the calculator's own fields (calculator.forms.HandForm: ruleset, tariff, multi_jiao, indicator, caishen,
dealer_streak, hand, win_tile, meld1…meld4 with meldN_tiles and meldN_from, winner, dealer, discarder, flags), fills
the dealer, streak and options from the table, shows the scored hand and records it after a confirmation.
"""

from __future__ import annotations

import csv
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from . import ledger, ledger_api
from .api import engine_lang
from .engine import score
from .engine.rulesets import RULESETS
from .forms import FLAG_CHOICES, HandForm
from .handquery import parse_query
from .models import Event, Hand, Table

SEAT_NAMES = {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}
ENDED = {
    "tuodi": _("脱底: a player's 底 is used up"),
    "tongdi": _("通底: all three losers are out"),
    "bust": _("Bust: a player's stake is used up"),
    "quanjiao": _("全缴: every other player paid all they had"),
}


class TableForm(forms.Form):
    ruleset = forms.ChoiceField(
        label=_("Game"), choices=[("bazhi", _("Bazhi (八支)")), ("xinyu", _("Xinyu (新余)"))], initial="bazhi"
    )
    tariff = forms.ChoiceField(label=_("Tariff (bazhi)"), choices=[("315", "315"), ("525", "525")], initial="315")
    multi_jiao = forms.BooleanField(label=_("Multiple jiao (可多交, bazhi)"), required=False)
    stake = forms.IntegerField(
        label=_("底分 (bazhi; empty = the tariff's 30 / 50)"), required=False, min_value=1, max_value=ledger.MAX_STAKE
    )
    room = forms.ChoiceField(
        label=_("Room (xinyu)"),
        choices=[("", _("Ordinary table")), ("100", _("冲击 100")), ("200", _("冲击 200")), ("500", _("冲击 500"))],
        required=False,
    )
    multiplier = forms.IntegerField(
        label=_("Multiplier (xinyu ordinary table)"), initial=1, min_value=1, max_value=ledger.MAX_MULTIPLIER
    )
    dealer = forms.ChoiceField(label=_("First dealer"), choices=list(SEAT_NAMES.items()), initial="E")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in ledger.SEATS:
            self.fields[f"name_{seat}"] = forms.CharField(label=SEAT_NAMES[seat], max_length=24, required=False)

    def body(self) -> dict:
        d = self.cleaned_data
        body = {
            "ruleset": d["ruleset"],
            "players": {seat: d.get(f"name_{seat}") or "" for seat in ledger.SEATS},
            "multiplier": d.get("multiplier") or 1,
            "dealer": d["dealer"],
        }
        if d["ruleset"] == "bazhi":
            body["options"] = {"tariff": d["tariff"], "multi_jiao": bool(d.get("multi_jiao"))}
            body["stake"] = d.get("stake")
        else:
            body["options"] = {}
            body["stake"] = int(d["room"]) if d.get("room") else None
        return body


def new_table(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table, token = ledger_api.create_table(form.body())
        except ledger.LedgerError as error:
            form.add_error(None, error.to_dict(engine_lang(request))["error"]["message"])
        else:
            return HttpResponseRedirect(ledger_api.edit_path(table, token) + "?created=1")
    return render(request, "ledger/new.html", {"form": form, "names": [form[f"name_{s}"] for s in ledger.SEATS]})


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


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("±0" if value == 0 else f"−{-value}")


def chart(table: Table, state: ledger.State, players: dict) -> dict | None:
    """A line chart of each player's balance over the current 底 game / 局, as SVG coordinates (no JavaScript)."""
    start = next((i for i in range(len(state.log) - 1, -1, -1) if state.log[i]["kind"] == "next"), -1)
    entries = state.log[start + 1 :]
    first = dict(state.log[start]["balances"]) if start >= 0 else dict(ledger.start(table.config).balances)
    series = [first] + [e["balances"] for e in entries]
    if len(series) < 2:
        return None
    values = [v for point in series for v in point.values()]
    low, high = min(values + [0]), max(values)
    if high == low:
        high = low + 1
    width, height, left, right, top, bottom = 360, 200, 40, 8, 10, 22
    step = (width - left - right) / (len(series) - 1)

    def y(value: int) -> float:
        return round(top + (high - value) * (height - top - bottom) / (high - low), 1)

    lines = []
    for seat in ledger.SEATS:
        points = " ".join(f"{round(left + i * step, 1)},{y(point[seat])}" for i, point in enumerate(series))
        last = series[-1][seat]
        lines.append({"seat": seat, "points": points, "name": players[seat], "last": last, "y": y(last)})
    ticks = sorted(
        {
            low,
            high,
            *([0] if low < 0 < high else []),
            *([table.stake] if table.stake and low < table.stake < high else []),
        }
    )
    labels = []
    for i, entry in enumerate(entries, start=1):
        if len(entries) <= 12 or i % max(1, len(entries) // 10) == 0:
            label = (
                f"#{entry['n']}" if entry["kind"] == "hand" else {"draw": "流", "leave": "离"}.get(entry["kind"], "")
            )
            labels.append({"x": round(left + i * step, 1), "text": label})
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "ticks": [{"value": t, "y": y(t)} for t in ticks],
        "labels": labels,
        "left": left,
        "right": width - right,
        "bottom": height - bottom,
        "label_y": height - 6,
        "zero_y": y(0) if low <= 0 <= high else None,
    }


def describe_hand(hand: Hand, players: dict) -> dict:
    result, request = hand.result, hand.request
    winner = request.get("winner") or result["request"]["winner"]
    discarder = result["request"].get("discarder")
    if hand.result["ruleset"] == "bazhi":
        jiao = result.get("jiao") or {}
        facts = [_("番 %(fan)s each") % {"fan": result.get("fan")}]
        if jiao.get("is_jiao"):
            facts.append(_("交 %(amount)s each") % {"amount": jiao.get("per_loser")})
    else:
        facts = [_("龙 %(long)s, P %(unit)s") % {"long": result.get("long"), "unit": result.get("unit")}]
        if result.get("quanjiao"):
            facts.append(_("全风向 with a shape"))
    if result.get("bao"):
        facts.append(_("包牌: %(name)s pays for all") % {"name": players[result["bao"]]})
    return {
        "winner": players[winner],
        "discarder": players[discarder] if discarder else None,
        "tiles": " ".join(
            [result["request"].get("hand", "")]
            + [m["tiles"] for m in result["request"].get("melds", [])]
            + ["+" + result["request"].get("win_tile", "")]
        ),
        "facts": facts,
    }


def table_context(request: HttpRequest, table: Table, token: str | None) -> dict:
    state, rows = table.replay()
    players = table.players
    history = []
    for row, entry in zip(rows, state.log, strict=True):
        item = {
            "seq": row.seq,
            "kind": entry["kind"],
            "game": entry["game"],
            "applied": [
                {"seat": s, "name": players[s], "value": entry["applied"][s], "text": signed(entry["applied"][s])}
                for s in ledger.SEATS
            ],
            "rows": [
                {**r, "from_name": players[r["from"]], "to_name": players[r["to"]], "capped": r["amount"] < r["owed"]}
                for r in entry["rows"]
            ],
        }
        if isinstance(row, Hand):
            item.update(n=row.n, hand=describe_hand(row, players))
        elif row.kind == Event.LEAVE:
            item["seat_name"] = players[row.seat]
        history.append(item)
    history.reverse()
    seats = [
        {
            "seat": s,
            "seat_name": SEAT_NAMES[s],
            "name": players[s],
            "balance": state.balances[s],
            "outside": state.outside[s],
            "total": state.totals[s],
            "total_text": signed(state.totals[s]),
            "dealer": s == state.dealer,
            "out": table.config.is_room and state.balances[s] <= 0,
        }
        for s in ledger.SEATS
    ]
    view_url = request.build_absolute_uri(ledger_api.view_path(table))
    context = {
        "table": table,
        "state": state,
        "seats": seats,
        "history": history,
        "chart": chart(table, state, players),
        "ended_text": ENDED.get(state.ended_reason),
        "is_room": table.config.is_room,
        "view_url": view_url,
        "token": token,
        "dealer_name": players[state.dealer],
        "game_word": _("底 game") if table.ruleset == "bazhi" else _("局"),
    }
    if token:
        context["edit_url"] = request.build_absolute_uri(ledger_api.edit_path(table, token))
        base = reverse("ledger_edit", args=[table.id, token])
        context["actions"] = {k: f"{base}{k}/" for k in ("draw", "next", "undo", "leave", "record")}
        context["calculator_url"] = f"{reverse('calculator')}?{calculator_query(table, token)}"
    return context


def calculator_query(table: Table, token: str) -> str:
    """What binds the calculator page to a table: `table=<id>&token=<edit token>`. Never part of a share link."""
    return urlencode({"table": table.id, "token": token})


def table_title(table: Table) -> str:
    if table.ruleset == "bazhi":
        game = f"{_('Bazhi')} {table.options.get('tariff', '')}"
    elif table.stake:
        game = f"{_('Xinyu')} · {_('冲击')} {table.stake}"
    else:
        game = f"{_('Xinyu')} · {_('ordinary table')}"
    return f"{game}（{'、'.join(table.players[s] for s in ledger.SEATS)}）"


def calculator_binding(table_id: str, token: str) -> dict:
    """The calculator scoring a hand for this table ("record this hand", issue 5): the fields the table decides
    (game, options, dealer, streak, names), the banner, and the record page the result's button leads to.
    A wrong token is a 404, as on the edit link itself."""
    table = _editable(table_id, token)
    state, _rows = table.replay()
    fixed = {"ruleset": table.ruleset, "dealer": state.dealer}
    if table.ruleset == "bazhi":
        fixed.update(tariff=table.options["tariff"], multi_jiao=bool(table.options.get("multi_jiao")))
    else:
        fixed["dealer_streak"] = state.dealer_streak
    defaults = {"E": "东", "S": "南", "W": "西", "N": "北"}  # what the ledger names an unnamed seat
    fixed.update({f"name_{s}": "" if table.players[s] == defaults[s] else table.players[s] for s in ledger.SEATS})
    return {
        "id": table.id,
        "token": token,
        "title": table_title(table),
        "fixed": fixed,
        "dealer_name": table.players[state.dealer],
        "streak": state.dealer_streak if table.ruleset == "xinyu" else None,
        "playing": state.status == "playing",
        "ended_text": ENDED.get(state.ended_reason),
        "query": calculator_query(table, token),
        "edit_path": ledger_api.edit_path(table, token),
        "record_path": reverse("ledger_record", args=[table.id, token]),
    }


@require_http_methods(["GET", "HEAD"])
def table_view(request: HttpRequest, table_id: str) -> HttpResponse:
    table = _table_or_404(table_id)
    return render(request, "ledger/table.html", table_context(request, table, None))


@require_http_methods(["GET", "HEAD"])
def table_edit(request: HttpRequest, table_id: str, token: str) -> HttpResponse:
    table = _editable(table_id, token)
    context = table_context(request, table, token)
    context["created"] = "created" in request.GET
    response = render(request, "ledger/table.html", context)
    # The edit link never leaks to another site: Referrer-Policy stays "same-origin" (SecurityMiddleware's default;
    # "no-referrer" would make the browser send "Origin: null" with our own forms and fail the CSRF check).
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "no-store"
    return response


def _version(request: HttpRequest) -> dict:
    try:
        return {"version": int(request.POST.get("version", ""))}
    except ValueError:
        return {}


@require_POST
def table_action(request: HttpRequest, table_id: str, token: str, action: str) -> HttpResponse:
    table = _editable(table_id, token)
    body = _version(request)
    try:
        if action == "undo":
            ledger_api.undo_last(table.id, body)
        elif action in (Event.DRAW, Event.NEXT, Event.LEAVE):
            body["seat"] = request.POST.get("seat")
            ledger_api.record_event(table.id, action, body)
        else:
            raise Http404("no such action")
    except ledger.LedgerError as error:
        table.refresh_from_db()
        context = table_context(request, table, token)
        context["error"] = error.to_dict(engine_lang(request))["error"]["message"]
        return render(request, "ledger/table.html", context, status=error.status)
    return HttpResponseRedirect(ledger_api.edit_path(table, token))


# ---------------------------------------------------------------------------------------------------------
# Recording a hand


def _record_data(table: Table, state: ledger.State, query: QueryDict) -> tuple[QueryDict, list[str]]:
    """The calculator's fields with the table's ruleset, options, dealer and streak put in; what was changed."""
    data = query.copy()
    notes = []
    if data.get("dealer") and data.get("dealer") != state.dealer:
        notes.append(_("The dealer is taken from the table."))
    data["ruleset"] = table.ruleset
    data["dealer"] = state.dealer
    if table.ruleset == "bazhi":
        data["tariff"] = table.options["tariff"]
        data.setlist("multi_jiao", ["on"] if table.options.get("multi_jiao") else [])
    else:
        data["dealer_streak"] = str(state.dealer_streak)
    for key in ("winner",):
        data.setdefault(key, "")
    return data, notes


@require_http_methods(["GET", "HEAD", "POST"])
def record(request: HttpRequest, table_id: str, token: str) -> HttpResponse:
    table = _editable(table_id, token)
    lang = engine_lang(request)
    state, _rows = table.replay()
    source = QueryDict(request.POST.get("q", ""), mutable=False) if request.method == "POST" else request.GET
    error = None
    preview = None
    notes: list[str] = []
    if source.get("hand") or source.get("win_tile"):
        data, notes = _record_data(table, state, source)
        form = HandForm(data)
        if form.is_valid():
            body = parse_query(data).request
            try:
                if request.method == "POST":
                    ledger_api.record_hand(table.id, {**body, **_version(request)}, lang)
                    return HttpResponseRedirect(ledger_api.edit_path(table, token))
                prepared = ledger.prepare_request(state, body)
                result = score(prepared, lang)
                ledger.check_win(result)
                preview = {"result": result, "query": urlencode(list(data.lists()), doseq=True)}
                trial = ledger.replay(table.config, [row.as_entry() for row in _rows])
                entry = ledger.apply_hand(trial, result)
                preview["rows"] = [
                    {
                        **r,
                        "from_name": table.players[r["from"]],
                        "to_name": table.players[r["to"]],
                        "capped": r["amount"] < r["owed"],
                    }
                    for r in entry["rows"]
                ]
                preview["applied"] = [
                    {"name": table.players[s], "text": signed(entry["applied"][s]), "value": entry["applied"][s]}
                    for s in ledger.SEATS
                ]
                preview["ended_text"] = ENDED.get(trial.ended_reason)
            except ledger.LedgerError as refusal:
                error = refusal.to_dict(lang)["error"]["message"]
        else:
            error = "; ".join(str(m) for messages in form.errors.values() for m in messages)
    else:
        initial = {"ruleset": table.ruleset, "dealer": state.dealer, "winner": state.dealer}
        form = HandForm(initial=initial)
    game = RULESETS[table.ruleset]
    flags = [(code, label) for code, label in FLAG_CHOICES if code in game.flag_ids]
    chosen_flags = source.getlist("flags")
    context = {
        "table": table,
        "state": state,
        "form": form,
        "preview": preview,
        "error": error,
        "notes": notes,
        "seats": [{"seat": s, "name": table.players[s]} for s in ledger.SEATS],
        "winner": source.get("winner") or state.dealer,
        "discarder": source.get("discarder", ""),
        "flags": [{"code": c, "label": label, "checked": c in chosen_flags} for c, label in flags],
        "meld_rows": [
            {"type": form[f"meld{n}"], "tiles": form[f"meld{n}_tiles"], "from": form[f"meld{n}_from"], "n": n}
            for n in (1, 2, 3, 4)
        ],
        "dealer_name": table.players[state.dealer],
        "edit_path": ledger_api.edit_path(table, token),
        "version": table.seq,
    }
    status = 400 if error and request.method == "POST" else 200
    return render(request, "ledger/record.html", context, status=status)


# ---------------------------------------------------------------------------------------------------------
# CSV


@require_http_methods(["GET", "HEAD"])
def export_csv(request: HttpRequest, table_id: str) -> HttpResponse:
    table = _table_or_404(table_id)
    state, rows = table.replay()
    players = table.players
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table-{table.id}.csv"'
    response.write("\ufeff")  # a BOM, so that spreadsheet programs read the Chinese names as UTF-8
    writer = csv.writer(response)
    names = [players[s] for s in ledger.SEATS]
    writer.writerow(
        ["seq", "game", "kind", "n", "winner", "discarder", "dealer_before"]
        + [f"change {n}" for n in names]
        + [f"balance {n}" for n in names]
        + [f"outside {n}" for n in names]
        + [f"total {n}" for n in names]
    )
    running = ledger.start(table.config)
    for row, entry in zip(rows, state.log, strict=True):
        request_body = row.result["request"] if isinstance(row, Hand) else {}
        writer.writerow(
            [
                row.seq,
                entry["game"],
                entry["kind"],
                entry.get("n", ""),
                request_body.get("winner", ""),
                request_body.get("discarder") or "",
                running.dealer,
            ]
            + [entry["applied"][s] for s in ledger.SEATS]
            + [entry["balances"][s] for s in ledger.SEATS]
            + [entry["outside"][s] for s in ledger.SEATS]
            + [entry["totals"][s] for s in ledger.SEATS]
        )
        running.dealer = entry["dealer"]
    return response
