"""The calculator form: every input of one hand, readable from a query string or a plain POST.

The field names and values are a contract (issue 4, point 7): `ruleset`, `tariff`, `winner`, `dealer`,
`discarder` are radio inputs with the engine's own values. The whole page renders this form and shows its field
errors; what the fields mean as an engine request is `handquery.parse_query` (the htmx result card reads the
query with it alone, no form). The engine (calculator.engine) judges the hand and answers with its own codes.
"""

from __future__ import annotations

from functools import cached_property

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Layout
from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .engine.tiles import ALL_TILES, SEATS, Tile
from .handquery import MELD_SLOTS

KONGS = ("kong_exposed", "kong_added", "kong_concealed")

SEAT_LABELS = {
    "E": pgettext_lazy("seat", "East"),
    "S": pgettext_lazy("seat", "South"),
    "W": pgettext_lazy("seat", "West"),
    "N": pgettext_lazy("seat", "North"),
}
SEAT_CHOICES = [(seat, SEAT_LABELS[seat]) for seat in SEATS]

RULESET_CHOICES = [("bazhi", _("Bazhi · Red Dragon")), ("xinyu", _("Xinyu"))]
TARIFF_CHOICES = [("315", "315"), ("525", "525")]

MELD_LABELS = {
    "pung": _("Pung"),
    "kong_exposed": _("Exposed kong"),
    "kong_added": _("Added kong"),
    "kong_concealed": _("Concealed kong"),
    "chow": _("Chow"),
}
MELD_CHOICES = [("", "—"), *MELD_LABELS.items()]
MELD_SIZE = {"pung": 3, "chow": 3, "kong_exposed": 4, "kong_added": 4, "kong_concealed": 4}

FLAG_LABELS = {
    "kong_bloom": _("Win on a kong replacement"),
    "double_kong_bloom": _("Win on a second kong replacement"),
    "robbing_kong": _("Robbing a kong"),
    "last_tile": _("Last tile of the wall"),
    "heavenly": _("Heavenly hand"),
    "earthly": _("Earthly hand"),
    "pao_long": _("Passed self-draw (pao long)"),
    "liable_caishen": _("Liable discard (bao pai)"),
}
FLAG_RULESETS = {
    "bazhi": ("kong_bloom", "double_kong_bloom", "robbing_kong", "last_tile", "heavenly", "earthly"),
    "xinyu": tuple(FLAG_LABELS),
}
FLAG_REASONS = {
    "self_draw": _("needs a self-draw (no discarder)"),
    "discard": _("needs a discarder"),
    "kong": _("needs a kong among the melds"),
    "two_kongs": _("needs two kongs among the melds"),
    "winner_dealer": _("only the dealer can win it"),
    "winner_not_dealer": _("the dealer cannot win it"),
    "no_melds": _("only with no melds"),
    "discarder_dealer": _("the discarder must be the dealer"),
    "not_last_tile": _("not together with the last tile"),
    "not_kong_bloom": _("not together with a kong-replacement win"),
    "not_earthly": _("not together with an earthly hand"),
    "not_robbing": _("not together with robbing a kong"),
}


def tile_choices(blank_label: str = "—") -> list[tuple[str, str]]:
    return [("", blank_label)] + [(t.notation, f"{t.notation} · {t.name_zh}") for t in ALL_TILES]


TILE_CHOICES = tile_choices()  # built once: the names are Chinese in every language


def meld_label(n: int) -> str:
    return gettext("Meld %(n)d") % {"n": n}


meld_label_lazy = lazy(meld_label, str)  # translated when shown, in the language of that request


def flag_blockers(flag: str, data: dict) -> list[str]:
    """Why `flag` cannot apply to this input (RULES.md / API.md flag rules); empty when it can.

    `data` holds ruleset, winner, dealer, discarder, melds (list of meld types) and flags. The same
    rules live in static/js/calculator.js for the live page; the engine stays the judge.
    """
    ruleset = data.get("ruleset") or "bazhi"
    discarder = data.get("discarder") or ""
    winner, dealer = data.get("winner"), data.get("dealer")
    melds = data.get("melds") or []
    flags = set(data.get("flags") or [])
    kongs = sum(1 for m in melds if m in KONGS)
    out = []
    if flag in ("kong_bloom", "double_kong_bloom", "last_tile", "heavenly", "pao_long") and discarder:
        out.append("self_draw")
    if flag in ("robbing_kong", "earthly", "liable_caishen") and not discarder:
        out.append("discard")
    if flag == "kong_bloom" and kongs < 1:
        out.append("kong")
    if flag == "double_kong_bloom" and kongs < 2:
        out.append("two_kongs")
    if flag == "heavenly" and winner != dealer:
        out.append("winner_dealer")
    if flag == "earthly" and winner == dealer:
        out.append("winner_not_dealer")
    if flag in ("heavenly", "earthly") and melds:
        out.append("no_melds")
    if flag == "earthly" and ruleset == "xinyu" and discarder and discarder != dealer:
        out.append("discarder_dealer")
    if flag == "earthly" and "robbing_kong" in flags:
        out.append("not_robbing")
    if flag == "robbing_kong" and "earthly" in flags:
        out.append("not_earthly")
    if ruleset == "bazhi":
        if flag in ("kong_bloom", "double_kong_bloom") and "last_tile" in flags:
            out.append("not_last_tile")
        if flag == "last_tile" and flags & {"kong_bloom", "double_kong_bloom"}:
            out.append("not_kong_bloom")
    return out


def fields_only(layout: Layout) -> FormHelper:
    """A crispy helper that renders just the fields of `layout`: the page draws its own <form>, token and errors."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.form_show_errors = False
    helper.layout = layout
    return helper


class HandForm(forms.Form):
    ruleset = forms.ChoiceField(label=_("Game"), choices=RULESET_CHOICES, initial="bazhi", widget=forms.RadioSelect)
    tariff = forms.ChoiceField(
        label=_("Tariff"), choices=TARIFF_CHOICES, initial="315", required=False, widget=forms.RadioSelect
    )
    multi_jiao = forms.BooleanField(label=_("Multiple jiao (可多交)"), required=False)
    indicator = forms.ChoiceField(label=_("Turned indicator tile"), choices=TILE_CHOICES, required=False)
    caishen = forms.ChoiceField(label=_("Wild tile (财神)"), choices=TILE_CHOICES, required=False)
    dealer_streak = forms.IntegerField(label=_("Dealer streak"), min_value=1, max_value=99, initial=1, required=False)

    hand = forms.CharField(
        label=_("Hand (concealed tiles before the win)"),
        max_length=80,
        required=False,
        help_text=_("Notation: digits then suit, e.g. 111345789p79m55s; honours E S W N C F P."),
    )
    win_tile = forms.CharField(
        label=_("Winning tile"),
        max_length=4,
        required=False,
        help_text=_("Leave empty to see the waits of a 13-tile hand."),
    )

    winner = forms.ChoiceField(label=_("Winner"), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect)
    dealer = forms.ChoiceField(label=_("Dealer"), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect)
    discarder = forms.ChoiceField(
        label=_("Discarder"),
        choices=[("", _("Self-draw")), *SEAT_CHOICES],
        initial="",
        required=False,
        widget=forms.RadioSelect,
    )
    flags = forms.MultipleChoiceField(
        label=_("Special wins"),
        choices=list(FLAG_LABELS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    @cached_property
    def notation_helper(self) -> FormHelper:
        """The crispy layout of the notation fields (only the whole page renders it: built when first asked)."""
        return fields_only(
            Layout(
                Field("hand"),
                Field("win_tile"),
                *[
                    Div(
                        Field(f"meld{n}", wrapper_class="meld-type"),
                        Field(f"meld{n}_tiles", wrapper_class="meld-tiles", autocomplete="off", autocapitalize="off"),
                        Field(f"meld{n}_from", wrapper_class="meld-from"),
                        css_class="meld-row",
                        css_id=f"meld-row-{n}",
                    )
                    for n in MELD_SLOTS
                ],
            )
        )

    @cached_property
    def names_helper(self) -> FormHelper:
        return fields_only(
            Layout(
                Div(*[Field(f"name_{seat}", placeholder=SEAT_LABELS[seat]) for seat in SEATS], css_class="names-grid")
            )
        )

    def name_seats(self, names: dict[str, str]) -> None:
        """A ledger table's players on the seat buttons ("南 小南"); the values stay the seats."""
        for name in ("winner", "dealer", "discarder"):
            field = self.fields[name]
            field.choices = [
                (seat, f"{label} {names[seat]}" if names.get(seat) else label) for seat, label in field.choices
            ]

    def fix(self, values: dict) -> None:
        """Fields decided elsewhere (a ledger table: game, options, dealer, streak, names): shown, not editable,
        and their values win over anything submitted (Django's disabled fields). Call before is_valid()."""
        for name, value in values.items():
            self.initial[name] = value
            self.fields[name].disabled = True

    # ------------------------------------------------------------------ validation

    def clean_hand(self):
        return "".join(self.cleaned_data["hand"].split())

    def clean_win_tile(self):
        return "".join(self.cleaned_data["win_tile"].split())

    def clean(self):
        data = super().clean()
        ruleset = data.get("ruleset") or "bazhi"
        winner, discarder = data.get("winner"), data.get("discarder")
        if winner and discarder and winner == discarder:
            self.add_error("discarder", _("The discarder cannot be the winner."))
        for n in MELD_SLOTS:
            kind, tiles = data.get(f"meld{n}"), "".join((data.get(f"meld{n}_tiles") or "").split())
            data[f"meld{n}_tiles"] = tiles
            if tiles and not kind:
                self.add_error(f"meld{n}", _("Meld %(n)d: choose pung, kong or chow.") % {"n": n})
            elif kind and not tiles:
                self.add_error(f"meld{n}_tiles", _("Meld %(n)d: enter its tiles.") % {"n": n})
            if kind == "chow" and ruleset == "bazhi":
                self.add_error(f"meld{n}", _("Bazhi allows no chow."))
        foreign = [f for f in data.get("flags") or [] if f not in FLAG_RULESETS[ruleset]]
        if foreign:
            self.add_error("flags", _("%(flag)s is not part of this game.") % {"flag": FLAG_LABELS[foreign[0]]})
        return data


def _add_slot_fields() -> None:
    """The meld slots and the players' names: fields like the declared ones, added once to the class (they were
    built again for every form), after the declared fields and in the same order as before."""
    extra: dict[str, forms.Field] = {}
    for n in MELD_SLOTS:
        extra[f"meld{n}"] = forms.ChoiceField(label=meld_label_lazy(n), choices=MELD_CHOICES, required=False)
        extra[f"meld{n}_tiles"] = forms.CharField(label=_("Tiles"), max_length=12, required=False)
        extra[f"meld{n}_from"] = forms.ChoiceField(label=_("From"), choices=[("", "—"), *SEAT_CHOICES], required=False)
    for seat in SEATS:
        extra[f"name_{seat}"] = forms.CharField(
            label=SEAT_LABELS[seat],
            max_length=24,
            required=False,
            strip=True,  # a ledger table's limit
        )
    HandForm.base_fields.update(extra)
    HandForm.declared_fields.update(extra)
    fields = HandForm.base_fields
    fields["hand"].widget.attrs.update(autocomplete="off", autocapitalize="off", spellcheck="false")
    fields["win_tile"].widget.attrs.update(autocomplete="off", autocapitalize="off", spellcheck="false")
    fields["dealer_streak"].widget.attrs.update(inputmode="numeric")


_add_slot_fields()


def tile_name(tile: Tile, lang: str) -> str:
    return tile.name_en if lang == "en" else tile.name_zh
