"""The page "who takes the discard" (issue 29): several players claim one discard; who takes it, why, and what the
taking win pays.

The page is one GET form: its address is the whole input (the share link), so it works without JavaScript; htmx
asks for the answer alone (#claims-answer) on every change and the address follows it. The fields and the
answer are the presentation's (calculator/presentation/claims/: the phone draws the answer too); this view
draws the inputs: the game and its card, the discard, the discarder and dealer, and for each seat of the table a
claimant's hand with its melds and flags. Bound to a ledger table (`table`, `token`, `at`, from the table's
calculator), the table decides the game, its card, the dealer and the names, and the taking win is recorded there
as a hand of the bound calculator.
"""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django_htmx.http import replace_url

from calculator.engine.claims import DISCARD_FLAGS
from calculator.engine.errors import ScoreError
from calculator.engine.flags import Situation, unmet
from calculator.engine.hand import KONG_TYPES, MELD_NAMES
from calculator.engine.rulesets import DEFAULT, RULESETS, Ruleset
from calculator.engine.tiles import ALL_TILES
from calculator.pages.forms import option_field
from calculator.plumbing import edit_tokens
from calculator.plumbing.django_locale import local, page_locale, page_path
from calculator.presentation.claims.fields import TILE, ClaimsInput, kept_query, parse_claims, seat_field
from calculator.presentation.claims.render import PAGE, draw_claims
from calculator.presentation.entered import entered_hand
from calculator.presentation.handquery import MELD_SLOTS, field_text, meld_slots
from calculator.presentation.table_fields import fixed_query
from calculator.presentation.tiles import tile_name
from calculator.presentation.words import card_words, with_name
from calculator.tables.binding import calculator_binding, record_key


def claims(request: HttpRequest) -> HttpResponse:
    query = request.GET
    table = calculator_binding(query["table"], query.get("token", ""), query.get("at")) if query.get("table") else None
    fields = fixed_query(query, table["fixed"]) if table else query
    locale = page_locale()
    page = page_path(PAGE) + "?" + (table["query"] + "&" if table else "")  # this page, before its fields

    def key_of(hand: dict) -> str:
        return record_key(table, hand) if table else ""

    drawn = draw_claims(fields, locale, f"{request.scheme}://{request.get_host()}", table, key_of)
    if request.htmx:
        response = HttpResponse(drawn.html)
        replace_url(response, page + drawn.share_query)
        return private(response, table)
    claimed = parse_claims(fields)
    ruleset = RULESETS.get(claimed.ruleset) or RULESETS[DEFAULT]
    context = {
        "answer": mark_safe(drawn.html),  # a rendered template
        "table": table,
        "game": game_inputs(ruleset, fields, table),
        "seats": seat_inputs(ruleset, claimed, fields, locale.lang),
        "tile": tile_input(ruleset, claimed.tile, locale.lang),
        "discard_flags": discard_flags(ruleset, fields),
        "keyboard": keyboard(ruleset, locale.lang),
        "meld_names": [(kind, local(name)) for kind, name in MELD_NAMES.items()],
        "calculator_link": page_path("calculator") + ("?" + table["query"] if table else ""),
        # the copy of this page the offline pack keeps for its game and table size (offline/served.py)
        "kept_as": page_path(PAGE) + "?" + kept_query(ruleset.id, len(seats_of(ruleset, claimed))),
        # the wild tile tapped on the keyboard (the one that decides it, xinyu's indicator, stays a field)
        "tile_options": [
            {"id": o.id, "label": local(o.label)} for o in ruleset.options if o.kind == "tile" and not o.gives
        ],
        "js_text": js_text(ruleset, locale.lang),
    }
    return private(render(request, "claims.html", context), table)


# ------------------------------------------------------------------------------------------------- the inputs


def game_inputs(ruleset: Ruleset, fields, table: dict | None) -> dict:
    """The game and its card: the games to choose from, the chosen game's options as form fields (a choice of one
    value is no choice), its scoring house rules, and which fields reload the page (the game, the table's size:
    they change the seats and the keys)."""
    form = GameForm(ruleset, fields)
    if table:
        for name in form.fields:
            form.fields[name].disabled = True
    house = []
    for rule in ruleset.scoring_house:
        value = fields.get(f"house_{rule.id}") or field_text(rule.default)
        choices = [
            {"value": field_text(c.value), "label": local(c.label), "selected": field_text(c.value) == value}
            for c in rule.choices
        ]
        house.append(
            {
                "id": rule.id,
                "label": local(rule.label),
                "choices": choices,
                "changed": value != field_text(rule.default),
            }
        )
    return {
        "games": [{"id": r.id, "title": local(r.title), "current": r is ruleset} for r in RULESETS.values()],
        "id": ruleset.id,
        "form": form,
        "options": [form[name] for name in form.fields],
        "house": house,
        "changed": sum(rule["changed"] for rule in house),
    }


class GameForm(forms.Form):
    """The chosen game's options, as the calculator labels and draws them (pages/forms.py), bound to the page's
    fields (a table's, fixed); a choice of one value is no choice (xinyu's table of four)."""

    def __init__(self, ruleset: Ruleset, fields) -> None:
        shown = [o for o in ruleset.options if o.kind != "choice" or len(o.choices) > 1]
        given = {
            o.id: fields.get(o.id) or (field_text(o.default) if o.kind in ("choice", "int") else "") for o in shown
        }
        super().__init__({key: value for key, value in given.items() if value}, label_suffix="")
        for option in shown:
            self.fields[option.id] = option_field(option, local)


def seats_of(ruleset: Ruleset, claimed: ClaimsInput) -> tuple[str, ...]:
    """The seats of the chosen card (a table of three: E S W); the most a table has where the card cannot be read
    (the engine says why)."""
    try:
        return ruleset.seats(claimed.shared.request.get("options"))
    except ScoreError:
        return ruleset.seats()


def seat_inputs(ruleset: Ruleset, claimed: ClaimsInput, fields, lang: str) -> dict:
    """The seat rows (discarder, dealer) and, for each seat of the table, a claimant's panel: its hand as entered,
    its notation fields, its meld slots and its flags (each with why it cannot apply, if it cannot)."""
    seats = seats_of(ruleset, claimed)
    words = card_words(page_locale())["seats"]
    names = claimed.names
    discarder, dealer = fields.get("discarder") or "", fields.get("dealer") or seats[0]
    panels = []
    for seat in seats:
        hand = claimed.hand_of(seat)
        request = hand.request if hand else {"ruleset": ruleset.id, "hand": "", "melds": []}
        melds = [
            {"n": n, "type": kind, "tiles": tiles, "source": source}
            for n, kind, tiles, source in meld_slots(_Own(fields, seat))
        ]
        panels.append(
            {
                "seat": seat,
                "label": with_name(words[seat], names.get(seat)),
                "word": words[seat],
                "hand": fields.get(seat_field(seat, "hand")) or "",
                "melds": melds,
                "entered": entered_hand(request, page_locale()),
                "flags": seat_flags(ruleset, seat, dealer, discarder, request, fields),
                "discards": seat == discarder,
            }
        )
    return {
        "seats": [{"seat": s, "word": words[s], "name": names.get(s) or ""} for s in seats],
        "discarder": discarder,
        "dealer": dealer,
        "panels": panels,
        "melds": MELD_SLOTS,
    }


class _Own:
    """One claimant's fields under the calculator's names (its meld slots)."""

    def __init__(self, fields, seat: str) -> None:
        self.fields, self.seat = fields, seat

    def get(self, key: str, default=None):
        return self.fields.get(seat_field(self.seat, key), default)


def seat_flags(ruleset: Ruleset, seat: str, dealer: str, discarder: str, request: dict, fields) -> list[dict]:
    """A claimant's flags: the game's flags a discard win may have, but the discard's own (robbing a kong: every
    claim's, `discard_flags`), each checked or not and with why it cannot apply to this claim, if it cannot."""
    chosen = fields.getlist(seat_field(seat, "flags"))
    melds = request.get("melds") or []
    situation = Situation(
        seat,
        dealer or None,
        discarder or None,
        sum(1 for m in melds if m.get("type") in KONG_TYPES),
        len(melds),
        frozenset(chosen),
    )
    out = []
    for flag in ruleset.flags:
        if flag.id in DISCARD_FLAGS or flag.id in ruleset.self_draw_flags:
            continue
        failed = unmet(flag, situation)
        out.append(
            {
                "id": flag.id,
                "label": local(flag.label),
                "checked": flag.id in chosen,
                "reason": local(failed[0].reason) if failed else "",
            }
        )
    return out


def discard_flags(ruleset: Ruleset, fields) -> list[dict]:
    """The flags of the discard itself (robbing a kong: all claims rob the same kong), as the game declares them."""
    chosen = fields.getlist("flags")
    return [
        {"id": flag.id, "label": local(flag.label), "checked": flag.id in chosen}
        for flag in ruleset.flags
        if flag.id in DISCARD_FLAGS
    ]


def tile_input(ruleset: Ruleset, tile: str, lang: str) -> dict:
    """The discarded tile: a choice of the game's tiles (the keyboard taps it in)."""
    return {
        "name": TILE,
        "value": tile,
        "choices": [
            (t.notation, f"{t.notation} · {tile_name(t, lang)}") for t in ALL_TILES if t.index in ruleset.kinds
        ],
    }


def keyboard(ruleset: Ruleset, lang: str) -> list[dict]:
    """The game's tiles by suit, as the calculator's keyboard shows them (templates/keyboard_keys.html)."""
    rows = []
    for suit, label in (("m", _("Characters")), ("p", _("Dots")), ("s", _("Bamboo")), ("z", _("Honours"))):
        tiles = [
            {"n": t.notation, "name": tile_name(t, lang), "rulesets": (ruleset.id,)}
            for t in ALL_TILES
            if t.suit == suit and t.index in ruleset.kinds
        ]
        if tiles:
            rows.append({"suit": suit, "label": label, "tiles": tiles})
    return rows


def js_text(ruleset: Ruleset, lang: str) -> dict:
    """What the page's script needs: the game's hand sizes and chow rule, the tiles' and melds' names, its words."""
    said = card_words(page_locale())
    facts = ruleset.to_dict()
    return {
        "concealedSizes": facts["concealed_sizes"],
        "reloads": ["ruleset", *([ruleset.players_option.id] if ruleset.players_option else [])],
        "tileOptions": [{"id": o.id, "gives": o.gives} for o in ruleset.options if o.kind == "tile"],
        "allowsChow": facts["allows_chow"],
        "tileNames": {t.notation: tile_name(t, lang) for t in ALL_TILES},
        "meldNames": said["melds"],
        "seats": said["seats"],
        "remove": _("Remove %(tile)s"),
        "full": _("The hand is full: tap a tile in the hand to remove it."),
        "noCopies": _("All four %(tile)s are already used."),
        "tooManyMelds": _("A hand has at most four melds."),
        "discardFirst": _("Tap the discarded tile."),
        "editing": _("Entering: %(seat)s"),
        "offline": _("No connection: the answer needs the server. The tile keyboard still works."),
        "copied": _("Link copied"),
        "selected": _("The link is selected: copy it with your phone's menu."),
    }


def private(response: HttpResponse, table: dict | None) -> HttpResponse:
    """A page bound to a table carries its edit token."""
    if table:
        edit_tokens.keep_private(response)
    return response
