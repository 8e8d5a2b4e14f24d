"""The calculator page and the rules page (issue 4): function views over the engine.

The page is one form. A GET with a query string is the whole input (the share link); a plain POST (no
JavaScript) redirects to that GET; htmx asks for the `#result` partial of the same template on every change.
"""

from __future__ import annotations

import logging
from functools import cache, lru_cache
from urllib.parse import urlencode

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _
from django_htmx.http import replace_url

from . import edit_tokens, ledger_views
from .api import engine_lang
from .engine import InvalidNotationError, parse_tiles, score
from .engine.tiles import ALL_TILES, SEATS, Tile, next_seat, previous_seat
from .forms import (
    FLAG_LABELS,
    FLAG_REASONS,
    FLAG_RULESETS,
    MELD_LABELS,
    MELD_SLOTS,
    SEAT_LABELS,
    HandForm,
    ResultForm,
    flag_blockers,
    tile_name,
)
from .markup import esc, fmt

log = logging.getLogger(__name__)

BAZHI_KINDS = frozenset(range(27)) | {Tile.from_str("C").index}
# Where each seat sits in the 3 × 3 payment picture: the table seen from above, play order counter-clockwise.
SEAT_POS = {"W": (0, -1), "N": (-1, 0), "S": (1, 0), "E": (0, 1)}
CELL_NAMES = {
    (-1, -1): "tl",
    (0, -1): "t",
    (1, -1): "tr",
    (-1, 0): "l",
    (0, 0): "c",
    (1, 0): "r",
    (-1, 1): "bl",
    (0, 1): "b",
    (1, 1): "br",
}
ARROWS = {(0, -2): "↑", (0, 2): "↓", (2, 0): "→", (-2, 0): "←", (1, -1): "↗", (1, 1): "↘", (-1, 1): "↙", (-1, -1): "↖"}


def signed(n: int) -> str:
    """+19, −7 (a real minus sign), 0."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def seat_label(seat: str | None, names: dict[str, str] | None = None) -> str:
    if not seat:
        return ""
    return with_name(str(SEAT_LABELS[seat]), (names or {}).get(seat))


def with_name(label: str, name: str | None) -> str:
    """ "南 · 小王": a seat's label and the player's name, when one is given."""
    return f"{label} · {name}" if name else label


@cache
def tile_src(notation: str) -> str:
    """The URL of a tile's picture, asked of the static files storage once per tile and process (templates
    would ask it for every tile they draw, about 15 times per result)."""
    return static(f"tiles/{notation}.svg")


@cache
def rule_anchor(rule: str) -> str:
    """`#rule-12` for `§1.2`: the rules page's anchor for a rule reference (slugify once per reference)."""
    return f"#rule-{slugify(rule)}"


@lru_cache(maxsize=2048)
def small_tile_img(src: str, name: str, wild: bool) -> SafeString:
    """One tile of the result's decomposition, as markup: the same <img> for the same tile, name and 财神 state,
    made once. (As template code it was four template nodes per tile, some 60 per answer.)"""
    return fmt(
        '<img class="tile tile-s{}" src="{}" alt="{}" title="{}" width="30" height="40">',
        " is-wild" if wild else "",
        src,
        name,
        name,
    )


def explanation_html(lines: list[dict], rules_page: str) -> SafeString:
    """The "every number" list of a win: one row per explanation line (label, rule link, detail, value).

    Markup made here rather than in calculator.html: as template code it was some 50 variable nodes per answer,
    a quarter of the partial's rendering. Every value is escaped (`markup.fmt`, as format_html)."""
    return SafeString(
        "".join(
            [
                explanation_row(line["code"], line["label"], rules_page, line["rule"], line["detail"], line["value"])
                for line in lines
            ]
        )
    )


def explanation_row(code: str, label: str, rules_page: str, rule: str, detail: str, value: int) -> SafeString:
    """One explanation line as markup."""
    return fmt(
        '<div class="line line-{}"><dt>{} <a class="rule" href="{}">{}</a></dt>'
        '<dd class="detail">{}</dd><dd class="value">{}</dd></div>',
        code,
        label,
        rules_page + rule_anchor(rule),
        rule,
        detail,
        value,
    )


def payments_html(payments: list[dict], bazhi: bool) -> SafeString:
    """The rows of the "every payment" table (from, to, amount, why, and the fan/jiao tag in bazhi); made here for
    the same reason as explanation_html."""
    return SafeString(
        "".join(
            [
                payment_row(p["from"], p["to"], p["amount"], p["reason"], p["part"] if bazhi else "", p["part_label"])
                for p in payments
            ]
        )
    )


def payment_row(payer: str, payee: str, amount: int, reason: str, part: str, part_label: str) -> SafeString:
    """One payment row as markup (`part` is empty where no fan/jiao tag is shown)."""
    return fmt(
        '<tr><td>{}</td><td>{}</td><td class="num">{}</td><td>{}{}</td></tr>',
        payer,
        payee,
        amount,
        reason,
        fmt(' <span class="tag tag-{}">{}</span>', part, part_label) if part else "",
    )


def compass_html(cells: list[dict]) -> SafeString:
    """The nine cells of the who-pays picture, as markup (seats with `data-seat` / `data-net`, the payers' arrows,
    the empty corners); made here for the same reason as explanation_html. The whitespace between tags is where
    the template had it (inline content: a line break renders as the template's indentation did)."""
    out = []
    for c in cells:
        if c["kind"] == "seat":
            out.append(
                fmt(
                    '<div class="cell seat-cell {}{}">\n<span class="seat-name">{}{}</span>\n'
                    '<span class="net {}" data-seat="{}" data-net="{}">{}</span>\n{}'
                    '<span class="roles">{}</span>\n</div>',
                    c["pos"],
                    c["role_classes"],
                    c["label"],
                    fmt(' <span class="player">{}</span>', c["name"]) if c["name"] else "",
                    c["sign"],
                    c["seat"],
                    c["net"],
                    c["net_text"],
                    fmt('<span class="parts">{}</span>\n', c["parts"]) if c["parts"] else "",
                    SafeString(
                        "".join(fmt('<span class="role role-{}">{}</span>', r["code"], r["label"]) for r in c["roles"])
                    ),
                )
            )
        elif c["kind"] == "arrow":
            out.append(
                fmt(
                    '<div class="cell arrow-cell {}"><span class="arrow" aria-hidden="true">{}</span>'
                    '<span class="amount">{}</span>{}<span class="visually-hidden">{}</span></div>',
                    c["pos"],
                    c["arrow"],
                    c["amount"],
                    SafeString("".join(fmt('<span class="part">{}</span>', p) for p in c["parts"])),
                    c["says"],
                )
            )
        else:
            out.append(fmt('<div class="cell {}"></div>', c["pos"]))
    return SafeString("\n".join(out))


def groups_html(groups: list[dict], winning: SafeString) -> SafeString:
    """The "how the hand was read" list: one <li> per group (its tiles, label, who it came from, the winning
    tile marked with `winning`); made here for the same reason as explanation_html, whitespace between tags
    where the template had it."""
    return SafeString(
        "\n".join(
            fmt(
                '<li class="group{}{}">\n<span class="group-tiles">{}</span>\n'
                '<span class="group-label">{}{}{}</span>\n</li>',
                " has-win" if g["win"] else "",
                " is-meld" if g["meld"] else "",
                g["tiles_html"],
                g["label"],
                fmt(" ← {}", g["from"]) if g["from"] else "",
                winning if g["win"] else "",
            )
            for g in groups
        )
    )


def page_path(name: str) -> str:
    """`reverse(name)` for a page without arguments: the same path every time for one script prefix (the
    deployment's mount point), so it is resolved once (each `reverse` walks the URLconf: three per answer)."""
    return _page_path(name, get_script_prefix())


@lru_cache(maxsize=64)
def _page_path(name: str, prefix: str) -> str:
    return reverse(name)


@receiver(setting_changed)
def forget_urls(*, setting: str, **kwargs) -> None:
    if setting in ("STATIC_URL", "STORAGES", "ROOT_URLCONF"):
        tile_src.cache_clear()
        small_tile_img.cache_clear()
        _page_path.cache_clear()


def tile_items(text: str, lang: str) -> list[dict]:
    """The tiles of `text` for a template: notation, name, picture; `wild` is True for a 财神 standing in."""
    try:
        tiles = parse_tiles(text)
    except InvalidNotationError:
        return []
    return [{"n": t.notation, "name": tile_name(t, lang), "src": tile_src(t.notation), "wild": False} for t in tiles]


def sort_key(notation: str) -> int:
    return Tile.from_str(notation).index


# ------------------------------------------------------------------------------------- the page


def keyboard(lang: str) -> list[dict]:
    rows = []
    for suit, label in (("m", _("Characters")), ("p", _("Dots")), ("s", _("Bamboo")), ("z", _("Honours"))):
        tiles = [t for t in ALL_TILES if t.suit == suit]
        rows.append(
            {
                "suit": suit,
                "label": label,
                "tiles": [
                    {
                        "n": t.notation,
                        "name": tile_name(t, lang),
                        "src": tile_src(t.notation),
                        "bazhi": t.index in BAZHI_KINDS,
                    }
                    for t in tiles
                ],
            }
        )
    return rows


def entered_hand(form: HandForm, lang: str) -> dict:
    """The hand as entered (for the first paint and the no-JS page): sorted tiles, the win tile, the melds."""
    data = form.cleaned_data if form.is_bound and hasattr(form, "cleaned_data") else {}
    if form.is_bound and not data:
        data = {k: form.data.get(k, "") for k in form.fields}
    hand = sorted(tile_items(data.get("hand") or "", lang), key=lambda t: sort_key(t["n"]))
    win = tile_items(data.get("win_tile") or "", lang)
    melds = []
    for n in MELD_SLOTS:
        kind, tiles = data.get(f"meld{n}"), data.get(f"meld{n}_tiles")
        if kind in MELD_LABELS and tiles:
            melds.append(
                {
                    "type": kind,
                    "label": MELD_LABELS[kind],
                    "tiles": tile_items(tiles, lang),
                    "from": data.get(f"meld{n}_from") or "",
                }
            )
    return {"tiles": hand, "win": win[0] if len(win) == 1 else None, "melds": melds}


def flag_states(form: HandForm) -> list[dict]:
    if form.is_bound and hasattr(form, "cleaned_data") and "ruleset" in form.cleaned_data:
        d = form.cleaned_data
        data = {
            "ruleset": d.get("ruleset"),
            "winner": d.get("winner"),
            "dealer": d.get("dealer"),
            "discarder": d.get("discarder"),
            "melds": [m["type"] for m in form.melds()],
            "flags": d.get("flags") or [],
        }
    else:
        data = {"ruleset": "bazhi", "winner": "E", "dealer": "E", "discarder": "", "melds": [], "flags": []}
        data.update({k: v for k, v in form.initial.items() if k in ("ruleset", "dealer")})  # a table's
    states = []
    for code, label in FLAG_LABELS.items():
        blockers = flag_blockers(code, data)
        states.append(
            {
                "code": code,
                "label": label,
                "rulesets": " ".join(r for r, flags in FLAG_RULESETS.items() if code in flags),
                "checked": code in data["flags"],
                "reason": FLAG_REASONS[blockers[0]] if blockers else "",
            }
        )
    return states


def calculator(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    # Bound to a ledger table (?table=<id>&token=<edit token>, from the table's edit page): the table decides the
    # game, options, dealer and streak, and a win gets a "record this hand" button. The token stays out of the
    # share link (built from the form alone).
    table = ledger_views.calculator_binding(source["table"], source.get("token", "")) if source.get("table") else None
    page = page_path("calculator") + "?" + (table["query"] + "&" if table else "")  # this page, before the hand

    if request.method == "POST" or any(key in request.GET for key in ("ruleset", "hand", "winner")):
        # the partial never renders the form: its lighter variant (same validation, no field copies)
        form = (ResultForm if request.htmx else HandForm)(source)
    else:
        form = HandForm()
    if table:
        form.fix(table["fixed"])
    if request.method == "POST" and form.is_valid():
        response = redirect(page + form.query_string())
        response.status_code = 303  # see other: the browser GETs the share link
        return response

    lang = engine_lang()
    result = compute(form, lang) if form.is_bound else {"kind": "empty"}
    share_query = form.query_string() if form.is_bound and form.is_valid() else ""
    context = {
        "form": form,
        "result": result,
        "share_url": request.build_absolute_uri(f"{page_path('calculator')}?{share_query}") if share_query else "",
        "share_query": share_query,
        "table": table,
        "w": result_words(get_language())["card"],  # the result card's fixed words, translated once per language
    }
    if request.htmx:
        # the result card reads only this context: rendered without the request's context processors (language
        # list, CSP nonce, request), which the whole page needs and the partial, asked for on every tap, does not
        response = HttpResponse(render_to_string("calculator.html#result", context))
        if share_query:
            replace_url(response, page + share_query)
        return private(response, table)

    ruleset = form.cleaned_data.get("ruleset") if form.is_bound and hasattr(form, "cleaned_data") else None
    context.update(
        {
            "ruleset": ruleset or form.initial.get("ruleset") or "bazhi",
            "keyboard": keyboard(lang),
            "entered": entered_hand(form, lang),
            "flags": flag_states(form),
            "js_text": {
                "reasons": {k: str(v) for k, v in FLAG_REASONS.items()},
                "meldNames": {k: str(v) for k, v in MELD_LABELS.items()},
                "seats": {s: str(SEAT_LABELS[s]) for s in SEATS},
                "remove": _("Remove %(tile)s"),
                "winTile": _("winning tile"),
                "from": _("from"),
                "tileNames": {t.notation: tile_name(t, lang) for t in ALL_TILES},
                "copied": _("Link copied"),
                "full": _("The hand is full: tap a tile in the hand to remove it."),
                "noCopies": _("All four %(tile)s are already used."),
                "tooManyMelds": _("A hand has at most four melds."),
                "tileUrls": {t.notation: tile_src(t.notation) for t in ALL_TILES},
                "modeHints": {
                    "hand": "",
                    "pung": _("Pung: tap the tile (three copies)."),
                    "kong_exposed": _("Exposed kong: tap the tile (four copies)."),
                    "kong_added": _("Added kong: tap the tile (four copies)."),
                    "kong_concealed": _("Concealed kong: tap the tile (four copies)."),
                    "chow": _("Chow: tap the lowest tile of the run."),
                    "caishen": _("Tap the wild tile (财神) itself."),
                    "indicator": _("Tap the turned indicator tile; the next tile is the 财神."),
                },
                "removeMeld": _("Remove this meld"),
                "wildFrom": _("from the turned %(tile)s"),
            },
        }
    )
    status = 400 if request.method == "POST" else 200
    return private(render(request, "calculator.html", context, status=status), table)


def private(response: HttpResponse, table: dict | None) -> HttpResponse:
    """A page bound to a table carries its edit token. Bound by its URL, EditLinkMiddleware marks it too; bound
    by the form's POST body (no JavaScript), only this does."""
    if table:
        edit_tokens.keep_private(response)
    return response


# ------------------------------------------------------------------------------------- the result


def compute(form: HandForm, lang: str) -> dict:
    """What the result area shows for this input: nothing yet, progress, form errors, or the engine's answer."""
    if not form.is_valid():
        errors = []
        for name, messages in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            errors += [{"field": str(label), "message": m} for m in messages]
        return {"kind": "invalid", "errors": errors}
    counted = form.tile_count()
    melds = form.melds()
    if counted is not None:
        have, need = counted
        if have == 0 and not melds and not form.cleaned_data.get("win_tile"):
            return {"kind": "empty"}
        if have < need:
            return {"kind": "progress", "have": have, "need": need, "missing": need - have}
    engine_request = form.engine_request()
    try:
        answer = score(engine_request, lang)
    except Exception:  # the page must answer, never 500; the log keeps the engine bug
        log.exception("engine failed on %r", engine_request)
        return {"kind": "failed", "request": engine_request}
    names = form.names()
    if "error" in answer:
        return {"kind": "error", "code": answer["error"]["code"], "message": answer["error"]["message"]}
    if "waits" in answer:
        return waits_view(form, answer, names, lang)
    if not answer.get("win"):
        return {"kind": "nowin", "code": answer.get("code"), "message": answer.get("message", "")}
    return win_view(answer, engine_request, names, lang)


@lru_cache(maxsize=8)
def result_words(language: str) -> dict:
    """The fixed words of a result card in one language, translated once per process and language: each
    `gettext` (and each `{% translate %}` tag) goes through a thread-local and the catalogue, and an answer used
    some 35 of them. Call it with the active language (`get_language()`): the words are translated in that one."""
    return {
        "seats": {seat: str(SEAT_LABELS[seat]) for seat in SEATS},
        "fan": _("fan"),
        "jiao": _("jiao"),
        "roles": {
            "win": pgettext("role", "Winner"),
            "dealer": pgettext("role", "Dealer"),
            "discarder": pgettext("role", "Discarder"),
            "bao": pgettext("role", "Pays for all"),
        },
        "groups": {kind: group_label(kind) for kind in (*GROUP_LABELS, *MELD_LABELS)},
        "pays": _("%(payer)s pays %(winner)s %(amount)d"),
        "wild_as": _("wild tile as %(tile)s"),
        "winning_tile": fmt(" · <strong>{}</strong>", _("winning tile")),
        "won_self_draw": _("%(winner)s wins by self-draw"),
        "won_on_discard": _("%(winner)s wins on %(discarder)s's discard"),
        "fan_per_loser": _("%(fan)d fan per loser"),
        "jiao_per_loser": _("jiao: %(amount)d per loser"),
        "no_jiao": _("no jiao"),
        "long": _("%(long)d long"),
        "unit": _("P = %(unit)d"),
        # the result card's headings and the share box (calculator.html's `w`), escaped once as well
        "card": {
            key: fmt("{}", text)
            for key, text in (
                ("who_pays", _("Who pays whom")),
                ("every_payment", _("Every payment")),
                ("from", _("From")),
                ("to", _("To")),
                ("amount", _("Amount")),
                ("why", _("Why")),
                ("how_read", _("How the hand was read")),
                ("every_number", _("Every number")),
                ("share", _("Share this hand")),
                ("copy_link", _("Copy link")),
            )
        },
    }


def win_view(answer: dict, engine_request: dict, names: dict[str, str], lang: str) -> dict:
    winner = engine_request["winner"]
    dealer = engine_request["dealer"]
    discarder = engine_request.get("discarder")
    bazhi = answer["ruleset"] == "bazhi"
    net = answer["net"]
    rules_page = page_path("rules")
    words = result_words(get_language())
    plain = words["seats"]
    # each seat's label, with the player's name when one is given
    labels = {seat: with_name(plain[seat], names.get(seat)) for seat in SEATS}
    fan_word, jiao_word = words["fan"], words["jiao"]
    role_words = words["roles"]

    def label(seat: str | None) -> str:
        return labels[seat] if seat else ""

    by_part = answer.get("net_by_part") or {}

    # who pays whom, summed per payer and part
    flows: dict[str, dict[str, int]] = {}
    for p in answer["payments"]:
        flow = flows.setdefault(p["from"], {"total": 0, "fan": 0, "jiao": 0})
        flow["total"] += p["amount"]
        flow[p["part"] if p["part"] in ("fan", "jiao") else "fan"] += p["amount"]

    cells = {name: {"kind": "empty", "pos": name} for name in CELL_NAMES.values()}
    for seat, (x, y) in SEAT_POS.items():
        roles = []
        if seat == winner:
            roles.append({"code": "win", "label": role_words["win"]})
        if seat == dealer:
            roles.append({"code": "dealer", "label": role_words["dealer"]})
        if seat == discarder:
            roles.append({"code": "discarder", "label": role_words["discarder"]})
        if seat == answer.get("bao"):
            roles.append({"code": "bao", "label": role_words["bao"]})
        fan = signed(by_part.get("fan", {}).get(seat, 0)) if bazhi else ""
        jiao = signed(by_part.get("jiao", {}).get(seat, 0)) if bazhi else ""
        cells[CELL_NAMES[(x, y)]] = {
            "kind": "seat",
            "pos": CELL_NAMES[(x, y)],
            "seat": seat,
            "label": plain[seat],
            "name": names.get(seat, ""),
            "roles": roles,
            "role_classes": "".join(f" is-{r['code']}" for r in roles),
            "net": net[seat],
            "net_text": signed(net[seat]),
            "sign": "plus" if net[seat] > 0 else ("minus" if net[seat] < 0 else "zero"),
            "fan": fan,
            "jiao": jiao,
            "parts": f"{fan_word} {fan} · {jiao_word} {jiao}" if bazhi else "",
        }
    wx, wy = SEAT_POS[winner]
    for payer, flow in flows.items():
        px, py = SEAT_POS[payer]
        cell = CELL_NAMES[(px + wx, py + wy)]
        parts = []
        if bazhi and flow["jiao"]:
            parts = [f"{fan_word} {flow['fan']}", f"{jiao_word} {flow['jiao']}"]
        cells[cell] = {
            "kind": "arrow",
            "pos": cell,
            "arrow": ARROWS[(wx - px, wy - py)],
            "amount": flow["total"],
            "parts": parts,
            "says": words["pays"] % {"payer": label(payer), "winner": label(winner), "amount": flow["total"]},
        }
    order = ["tl", "t", "tr", "l", "c", "r", "bl", "b", "br"]

    groups = []
    wild = answer.get("caishen")
    for g in answer.get("decomposition", []):
        tiles = tile_items(g["tiles"], lang)
        for stands_for in g.get("caishen") or []:  # xinyu: a 财神 standing in for this tile
            for t in reversed(tiles):
                if t["n"] == stands_for and not t["wild"] and wild:
                    t.update(n=wild, src=tile_src(wild), wild=True, name=words["wild_as"] % {"tile": t["name"]})
                    break
        groups.append(
            {
                "type": g["type"],
                "label": words["groups"].get(g["type"]) or g["type"],
                "tiles": tiles,
                "tiles_html": SafeString("".join(small_tile_img(t["src"], t["name"], t["wild"]) for t in tiles)),
                "concealed": g.get("concealed", True),
                "win": g.get("win", False),
                "from": label(g.get("from")),
                "meld": g["type"] in MELD_LABELS,
            }
        )
    payments = [
        {
            "from": label(p["from"]),
            "to": label(p["to"]),
            "amount": p["amount"],
            "part": p["part"],
            "part_label": fan_word if p["part"] == "fan" else (jiao_word if p["part"] == "jiao" else p["part"]),
            "reason": p["reason"],
        }
        for p in answer["payments"]
    ]
    return {
        "kind": "win",
        "bazhi": bazhi,
        "winner": label(winner),
        # the translated sentence with the escaped names in it, as {% blocktranslate %} writes it
        "verdict": SafeString(
            words["won_on_discard"] % {"winner": esc(label(winner)), "discarder": esc(label(discarder))}
            if discarder
            else words["won_self_draw"] % {"winner": esc(label(winner))}
        ),
        "winner_net": signed(net[winner]),
        "self_draw": not discarder,
        "discarder": label(discarder),
        "cells": [cells[name] for name in order],
        "compass_html": compass_html([cells[name] for name in order]),
        "nets": [{"seat": s, "label": labels[s], "net": net[s], "text": signed(net[s])} for s in SEATS],
        "groups": groups,
        "groups_html": groups_html(groups, words["winning_tile"]),
        "lines": answer.get("explanation", []),
        "lines_html": explanation_html(answer.get("explanation", []), rules_page),
        "labels": answer.get("labels", []),
        "payments": payments,
        "payments_html": payments_html(payments, bazhi),
        "summary": win_summary(answer, words),
        "bao": label(answer.get("bao")),
    }


def win_summary(answer: dict, words: dict) -> list[str]:
    """The two or three numbers a player reads first (`words`: `result_words` of the active language)."""
    if answer["ruleset"] == "bazhi":
        out = [words["fan_per_loser"] % {"fan": answer["fan"]}]
        jiao = answer.get("jiao") or {}
        if jiao.get("is_jiao"):
            out.append(words["jiao_per_loser"] % {"amount": jiao.get("per_loser", 0)})
        else:
            out.append(words["no_jiao"])
        return out
    out = []
    if "long" in answer:
        out.append(words["long"] % {"long": answer["long"]})
    if "unit" in answer:
        out.append(words["unit"] % {"unit": answer["unit"]})
    return out


GROUP_LABELS = {"pair": gettext_lazy("Pair"), "sequence": gettext_lazy("Sequence"), "triplet": gettext_lazy("Triplet")}


def group_label(kind: str) -> str:
    return str(GROUP_LABELS.get(kind) or MELD_LABELS.get(kind, kind))  # translated now, one look-up


def waits_view(form: HandForm, answer: dict, names: dict[str, str], lang: str) -> dict:
    d = form.cleaned_data
    winner = d["winner"]
    feeder = next_seat(winner)
    base = form.query_string()
    waits = []
    for w in answer["waits"]:
        tile = Tile.from_str(w["tile"])
        rows = []
        for how, discarder in (("self_draw", ""), ("discard", feeder)):
            variant = w.get(how) or {}
            if not variant.get("win"):
                rows.append(
                    {
                        "how": how,
                        "ok": False,
                        "message": variant.get("message") or variant.get("error", {}).get("message", ""),
                    }
                )
                continue
            query = replace_params(base, {"win_tile": w["tile"], "discarder": discarder}, drop_flags=how == "discard")
            rows.append(
                {
                    "how": how,
                    "ok": True,
                    "label": _("Self-draw")
                    if how == "self_draw"
                    else _("Discard by %(seat)s") % {"seat": seat_label(feeder, names)},
                    "gain": signed(variant["net"][winner]),
                    "nets": [
                        {"seat": s, "text": signed(variant["net"][s]), "label": str(SEAT_LABELS[s])}
                        for s in SEATS
                        if s != winner
                    ],
                    "query": query,
                }
            )
        waits.append(
            {"tile": {"n": tile.notation, "name": tile_name(tile, lang), "src": tile_src(tile.notation)}, "rows": rows}
        )
    return {
        "kind": "waits",
        "waits": waits,
        "winner": seat_label(winner, names),
        "count": len(waits),
        "upper": previous_seat(winner),
    }


def replace_params(query: str, changes: dict[str, str], drop_flags: bool = False) -> str:
    from urllib.parse import parse_qsl

    pairs = [
        (k, v)
        for k, v in parse_qsl(query, keep_blank_values=True)
        if k not in changes and not (drop_flags and k == "flags")
    ]
    pairs += list(changes.items())
    return urlencode(pairs)


# ------------------------------------------------------------------------------------- the rules page


def rules(request: HttpRequest) -> HttpResponse:
    from .rulebook import rulebook

    lang = engine_lang()
    return render(request, "rules.html", rulebook(lang))
