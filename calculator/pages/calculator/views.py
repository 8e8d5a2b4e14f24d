"""The calculator page (issue 4): a function view over the engine.

The page is one form. A GET with a query string is the whole input (the share link); a plain POST (no
JavaScript) redirects to that GET; htmx asks for the result card alone (`#result`) on every change. The input is
read by `handquery.parse_query`, scored by the engine, laid out by the presentation (cards.py) and drawn by
jinja2/result.html (render.py).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.datastructures import MultiValueDict
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_htmx.http import replace_url

from calculator.engine.flags import Situation, unmet
from calculator.engine.hand import KONG_TYPES
from calculator.engine.rulesets import DEFAULT, RULESETS, Ruleset, every_flag
from calculator.engine.rulesets.declarations import Option
from calculator.engine.seats import Seats
from calculator.engine.tiles import ALL_TILES
from calculator.pages.calculator import picture
from calculator.pages.forms import HandForm
from calculator.plumbing import edit_tokens
from calculator.plumbing.django_locale import local, page_locale, page_path
from calculator.presentation import cards
from calculator.presentation.cards import ResultCard
from calculator.presentation.entered import entered_hand
from calculator.presentation.handquery import field_text, parse_query, query_string, table_seats
from calculator.presentation.locale import Locale
from calculator.presentation.render import CardLinks, card_html, strip_html
from calculator.presentation.tiles import tile_name
from calculator.presentation.words import card_words
from calculator.tables.binding import calculator_binding, record_key

DEFAULT_INPUT = {"ruleset": DEFAULT, "winner": "E", "dealer": "E", "discarder": None, "melds": [], "flags": []}


# ------------------------------------------------------------------------------------- the page


def keyboard(locale: Locale) -> list[dict]:
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
                        "name": tile_name(t, locale.lang),
                        "rulesets": rulesets_with(lambda r, index=t.index: index in r.kinds),
                    }
                    for t in tiles
                ],
            }
        )
    return rows


def rulesets_with(has) -> tuple[str, ...]:
    """The games for which `has(ruleset)` holds (an element's `data-rulesets`): the page shows the element only
    for those; the chosen game decides, on the server and in calculator.js alike."""
    return tuple(ruleset.id for ruleset in RULESETS.values() if has(ruleset))


def flag_states(request: dict) -> list[dict]:
    """Each special-win checkbox: its games, checked, and why it cannot apply to this input (the first condition
    of the game's declaration that fails), if it cannot."""
    ruleset = RULESETS.get(request["ruleset"]) or RULESETS[DEFAULT]
    melds = [m for m in request["melds"] if isinstance(m, dict)]
    situation = Situation(
        request.get("winner"),
        request.get("dealer"),
        request.get("discarder") or None,
        sum(1 for m in melds if m.get("type") in KONG_TYPES),
        len(melds),
        frozenset(request["flags"]),
    )
    states = []
    for code, (declared, games) in every_flag().items():  # the registry's union, each flag with its games
        flag = ruleset.flag_by_id.get(code)
        failed = unmet(flag, situation) if flag else []
        states.append(
            {
                "code": code,
                "label": local(declared.label),
                "rulesets": games,
                "checked": code in request["flags"],
                "reason": local(failed[0].reason) if failed else "",
            }
        )
    return states


def game_settings(form: HandForm, shown: dict, lang: str) -> list[dict]:
    """Each game's options and rule card as the page shows them, the chosen game's with the values in force."""
    house = (shown.get("options") or {}).get("house") or {}
    games = []
    for ruleset in RULESETS.values():
        current = ruleset.id == shown["ruleset"]
        rules = []
        for rule in ruleset.house:
            value = house.get(rule.id, rule.default) if current else rule.default
            rules.append(
                {
                    "id": rule.id,
                    "label": local(rule.label),
                    "explanation": local(rule.explanation),
                    "anchor": f"house-{ruleset.id}-{rule.id}",
                    "scoring": rule.scoring,
                    "choices": [
                        {"value": field_text(c.value), "label": local(c.label), "selected": c.value == value}
                        for c in rule.choices
                    ],
                    "changed": value != rule.default,
                }
            )
        options = (shown.get("options") or {}) if current else {}
        games.append(
            {
                "id": ruleset.id,
                "current": current,
                "options": [option_view(form, ruleset.id, o, options.get(o.id, o.default)) for o in drawn(ruleset)],
                "tile_options": [{"id": o.id, "label": local(o.label)} for o in ruleset.options if o.kind == "tile"],
                "house": rules,
                "changed": sum(rule["changed"] for rule in rules),
            }
        )
    return games


def drawn(ruleset: Ruleset) -> list[Option]:
    """The game's options the page draws: all but a choice of one value, which is no choice (xinyu's players)."""
    return [o for o in ruleset.options if o.kind != "choice" or len(o.choices) > 1]


def option_view(form: HandForm, game: str, option: Option, value: object) -> dict:
    """One of a game's options as the page draws it: a choice as its radio buttons, the game's own choices only,
    `value` checked (each game's buttons their own ids: two games may declare the same option with other choices);
    any other kind as the form's field."""
    view = {"id": option.id, "kind": option.kind, "label": local(option.label), "field": form[option.id]}
    if option.kind == "choice":
        view["disabled"] = form.fields[option.id].disabled  # a table's
        view["choices"] = [
            {
                "id": f"id_{option.id}_{game}_{n}",
                "value": field_text(choice.value),
                "label": local(choice.label),
                "checked": field_text(choice.value) == field_text(value),
            }
            for n, choice in enumerate(option.choices)
        ]
    return view


def calculator(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    # Bound to a ledger table (?table=<id>&token=<edit token>, from the table's edit page): the table decides the
    # game, options, dealer and streak, and a win gets a "record this hand" button. The token stays out of the
    # share link (built from the hand alone).
    table = (
        calculator_binding(source["table"], source.get("token", ""), source.get("at")) if source.get("table") else None
    )
    page = page_path("calculator") + "?" + (table["query"] + "&" if table else "")  # this page, before the hand
    bound = request.method == "POST" or any(key in request.GET for key in ("ruleset", "hand", "winner"))
    if table:
        source = with_fixed(source, table["fixed"])
    elif bound:
        source = with_choice_defaults(source)
    locale = page_locale()
    lang = locale.lang

    if request.htmx:
        # the result card alone, asked for on every tap: no form, the engine validates the input
        hand = parse_query(source)
        share_query = query_string(hand)
        card = cards.result_card(hand, cards.ask_engine(hand, lang), locale)
        response = HttpResponse(
            render_card(request, card, locale, share_query, table, hand.request) + strip_html(card, locale, oob=True)
        )
        replace_url(response, page + share_query)
        return private(response, table)

    form = HandForm(source) if bound else HandForm()
    if table:
        form.fix(table["fixed"])
    share_query, preview = "", None
    if not bound:
        card, shown = cards.EmptyCard(), {**DEFAULT_INPUT, **table_defaults(form)}
        if table:
            shown["options"] = table_card(table)  # the table's options and rule card, before any hand
    elif form.is_valid():
        hand = form.hand()
        share_query = query_string(hand)
        if request.method == "POST":
            response = redirect(page + share_query)
            response.status_code = 303  # see other: the browser GETs the share link
            return response
        answer = cards.ask_engine(hand, lang)
        card = cards.result_card(hand, answer, locale)
        preview = picture.page_preview(request, hand, answer, card, locale)  # the link's, pasted in a chat
        shown = (answer or {}).get("request") or hand.request  # the engine's normalised echo when it answered
    else:
        errors = [(field_label(form, name), str(m)) for name, messages in form.errors.items() for m in messages]
        card, shown = cards.invalid_card(errors), parse_query(source).request
    if isinstance(card, cards.ErrorCard) and card.field in form.fields:
        form.add_error(card.field, card.message)  # shown beside the field too (the page's field errors)
    seats = table_seats(shown)  # the table's, as its game and options say (the page's script redraws them)
    form.draw_seats(seats)

    context = {
        "card": mark_safe(
            render_card(request, card, locale, share_query, table, hand.request if share_query else None)
        ),
        "strip": mark_safe(strip_html(card, locale)),
        "table": table,
        "form": form,
        "ruleset": shown["ruleset"] if shown["ruleset"] in RULESETS else DEFAULT,
        "games": game_settings(form, shown if shown["ruleset"] in RULESETS else DEFAULT_INPUT, lang),
        "declarations": [page_facts(ruleset, lang) for ruleset in RULESETS.values()],
        "chow_rulesets": rulesets_with(lambda r: r.allows_chow),
        "keyboard": keyboard(locale),
        "entered": entered_hand(shown, locale),
        "flags": flag_states(shown),
        "rule_effects": getattr(card, "rule_effects", []),  # a win's: what the card's changed rules do
        "seat_rows": seat_rows(form, seats, {s: table["fixed"][f"name_{s}"] for s in table["seats"]} if table else {}),
        "js_text": js_text(locale),
        "preview": preview,
    }
    status = 400 if request.method == "POST" else 200
    return private(render(request, "calculator.html", context, status=status), table)


SEAT_ROWS = ("winner", "dealer", "discarder")


def seat_rows(form: HandForm, seats: Seats, names: dict[str, str]) -> list[dict]:
    """The three rows of seat buttons (winner, dealer, discarder): each radio with the player's name a ledger table
    gives its seat (the button shows the seat's word, the name under it). There is a button for every seat a table
    may have; those the table of `seats` lacks are drawn hidden (the page's script shows them when another table
    size is chosen), unless chosen: the engine's error about that seat is then shown beside it."""
    return [
        {
            "name": name,
            "legend": form.fields[name].label,
            "seats": [
                {
                    "radio": radio,
                    "seat": radio.data["value"],
                    "player": names.get(radio.data["value"], ""),
                    "absent": radio.data["value"] not in ("", *seats) and not radio.data["selected"],
                }
                for radio in form[name]
            ],
        }
        for name in SEAT_ROWS
    ]


def table_card(table: dict) -> dict:
    """A ledger table's options (those its card fixes) and its rule card: the input before any hand."""
    fixed = table["fixed"]
    return {
        **{o.id: fixed[o.id] for o in RULESETS[fixed["ruleset"]].options if o.id in fixed},
        "house": table["house"],
    }


# what calculator.js reads of a game's declarations
PAGE_FACTS = ("id", "allows_chow", "concealed_sizes", "options", "flags")


def page_facts(ruleset: Ruleset, lang: str) -> dict:
    """The part of a game's declarations the page's script reads, each text in the page's language only (the rest
    would only make the first load heavier), and its tables: the option that sets a table's size, and the seats
    of each size it plays (Ruleset.seats), by the option's field text, the default's first."""
    declarations = in_language(ruleset.to_dict(), lang)
    sizes = ruleset.players_option
    tables = {field_text(n): list(ruleset.seats({sizes.id: n})) for n in ruleset.table_sizes}
    return {
        **{key: declarations[key] for key in PAGE_FACTS},
        "table": {"option": sizes.id, "default": field_text(sizes.default), "seats": tables},
    }


def in_language(value: object, lang: str) -> object:
    """Declarations as JSON with each text (a `Text`'s `{"zh": …, "en": …}`) kept in `lang` alone: the script reads
    `text[LANG]`, the page's language."""
    if isinstance(value, dict):
        if value.keys() == {"zh", "en"}:
            return {lang: value[lang]}
        return {key: in_language(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [in_language(item, lang) for item in value]
    return value


def with_fixed(query: QueryDict, fixed: dict) -> MultiValueDict:
    """The input with the fields a ledger table decides put in (the page shows them disabled, and a browser
    does not send a disabled field); a boolean is a checkbox, checked or absent. A plain MultiValueDict built
    from the lists (QueryDict.copy deep-copies: half of what binding a tap to a table costs)."""
    data = MultiValueDict({key: values for key, values in query.lists() if key not in fixed})
    for key, value in fixed.items():
        data.setlist(key, (["on"] if value else []) if isinstance(value, bool) else [str(value)])
    return data


def with_choice_defaults(query: QueryDict) -> QueryDict | MultiValueDict:
    """The input with each of the game's choice options that it leaves out at its default (a share link may omit
    them): the page then shows the choice the engine scored with, not a row of unchosen buttons."""
    ruleset = RULESETS.get(query.get("ruleset") or DEFAULT)
    missing = [o for o in ruleset.options if o.kind == "choice" and not query.get(o.id)] if ruleset else []
    if not missing:
        return query
    data = MultiValueDict({key: values for key, values in query.lists()})
    for option in missing:
        data.setlist(option.id, [option.default])
    return data


def table_defaults(form: HandForm) -> dict:
    """A table's game and dealer, for the page before anything is entered."""
    return {key: value for key, value in form.initial.items() if key in ("ruleset", "dealer")}


def field_label(form: HandForm, name: str) -> str:
    return str(form.fields[name].label) if name in form.fields else ""


def render_card(
    request: HttpRequest,
    card: ResultCard,
    locale: Locale,
    share_query: str,
    table: dict | None,
    hand: dict | None = None,
) -> str:
    """The result card and the share box under it (render.py), with this request's absolute share link and, bound
    to a table, the binding and the key of "record this hand" (calculator.html's #record-form, once per hand)."""
    share_url = request.build_absolute_uri(f"{page_path('calculator')}?{share_query}") if share_query else ""
    key = record_key(table, hand) if table and hand else ""
    return card_html(card, locale, CardLinks(share_query, share_url, table, key))


def js_text(locale: Locale) -> dict:
    """The words and picture URLs the page's JavaScript needs (given to it with json_script)."""
    said = card_words(locale)
    return {
        "meldNames": said["melds"],
        "seats": said["seats"],
        "remove": _("Remove %(tile)s"),
        "winTile": _("winning tile"),
        "from": _("from"),
        "tileNames": {t.notation: tile_name(t, locale.lang) for t in ALL_TILES},
        "copied": _("Link copied"),
        "selected": _("The link is selected: copy it with your phone's menu."),
        "offline": _("No connection: the answer needs the server. The tile keyboard still works."),
        "offlineTitle": _("This hand needs the network to be scored"),
        "offlineKept": _("It is entered above and kept: it is scored as soon as this phone is back online."),
        "fixTyped": _(
            "The typed hand has a character that is not a tile (see under the field): correct it, or tap Clear."
        ),
        "discarderReset": _("Discarder set to self-draw: %(seat)s is the winner and cannot be the discarder."),
        "discarderBack": _("Discarder %(seat)s again."),
        # a seat the chosen table lacks (North at a table of three), taken from a row or a meld and given back
        "seatGone": _("This table has no %(seat)s: %(row)s set to %(other)s."),
        "seatBack": _("%(row)s %(seat)s again."),
        "meldGone": _("This table has no %(seat)s: %(meld)s now from %(other)s."),
        "meldBack": _("%(meld)s from %(seat)s again."),
        "flagOff": _("“%(flag)s” unticked: %(why)s."),
        "flagBack": _("“%(flag)s” ticked again."),
        "notThisGame": _("not part of this game"),
        "full": _("The hand is full: tap a tile in the hand to remove it."),
        "noCopies": _("All four %(tile)s are already used."),
        "tooManyMelds": _("A hand has at most four melds."),
        "modeHints": {
            "hand": "",
            "pung": _("Pung: tap the tile (three copies)."),
            "kong_exposed": _("Exposed kong: tap the tile (four copies)."),
            "kong_added": _("Added kong: tap the tile (four copies)."),
            "kong_concealed": _("Concealed kong: tap the tile (four copies)."),
            "chow": _("Chow: tap the lowest tile of the run."),
            **{
                option.id: local(option.help or option.label)
                for ruleset in RULESETS.values()
                for option in ruleset.options
                if option.kind == "tile"
            },
        },
        "removeMeld": _("Remove this meld"),
        "added": _("%(tile)s added."),
        "addedWin": _("%(tile)s added as the winning tile."),
        "takenOut": _("%(tile)s taken out."),
        # the rule card, changed: how many rules, and what the change did to the hand shown
        "rulesChanged": {
            "one": ngettext("%(counter)s rule changed", "%(counter)s rules changed", 1),
            "other": ngettext("%(counter)s rule changed", "%(counter)s rules changed", 2),
        },
        "paymentsUnchanged": _("payments unchanged"),
        "newNets": _("new nets"),
        "before": _("before"),
        "wildFrom": _("from the turned %(tile)s"),
        "wildPicked": _("%(wild)s: %(tile)s"),
        "wildCleared": _("No %(wild)s."),
        "isWild": _("%(tile)s (%(wild)s)"),
    }


def private(response: HttpResponse, table: dict | None) -> HttpResponse:
    """A page bound to a table carries its edit token. Bound by its URL, EditLinkMiddleware marks it too; bound
    by the form's POST body (no JavaScript), only this does."""
    if table:
        edit_tokens.keep_private(response)
    return response
