"""The forms the pages share: the hand form (the calculator page, a table's record page) and a game's declared
option as a form field (the hand form, a table's rule card, pages/tables/forms.py).

The hand form holds every input of one hand, readable from a query string or a plain POST.

The field names and values are a contract (issue 4, point 7): `ruleset`, `tariff`, `winner`, `dealer`,
`discarder` are radio inputs with the engine's own values. The form is built for each request from the registry
(every game's options and rule card) and wraps the one input path, calculator.presentation.handquery: it
validates what a page submits, shows the fields and their errors, and `hand()` is its cleaned values read by
`handquery` as the engine request (the htmx result card reads the query with `handquery` alone, no form: it is
asked for on every tap). The engine (calculator.engine) judges the hand and answers with its own codes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Layout
from django import forms
from django.utils.translation import gettext as _

from calculator.engine.hand import MELD_NAMES
from calculator.engine.rulesets import DEFAULT, RULESETS, every_flag
from calculator.engine.rulesets.declarations import Option
from calculator.engine.seats import SEATS, Seats
from calculator.engine.text import Text
from calculator.engine.tiles import ALL_TILES
from calculator.ledger import MAX_NAME  # a table's players' names fill these fields
from calculator.plumbing.django_locale import local
from calculator.presentation.handquery import (
    FIELD_KINDS,
    FIELD_WORDS,
    MELD_FIELD_WORDS,
    MELD_SLOTS,
    Fields,
    HandInput,
    field_text,
    meld_slots,
    parse_query,
)
from calculator.presentation.words import SEAT_TEXTS

NO_AUTOFILL = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


def tile_choices(blank_label: str = "—") -> list[tuple[str, str]]:
    return [("", blank_label)] + [(t.notation, f"{t.notation} · {t.name_zh}") for t in ALL_TILES]


TILE_CHOICES = tile_choices()  # built once: the names are Chinese in every language


def option_field(option: Option, say: Callable[[Text], str], *, radio: bool = True) -> forms.Field:
    """A form field for a game's declared option (API.md `options.<id>`), its label and its choices' labels
    written by `say` (a language's, or the request's, lazily). A choice is a row of radio buttons, or with
    `radio` off a select."""
    label = say(option.label)
    control = FIELD_KINDS[option.kind].control
    if control == "checkbox":
        return forms.BooleanField(label=label, required=False)
    if control == "number":
        field = forms.IntegerField(
            label=label, min_value=option.minimum, max_value=option.maximum, initial=option.default, required=False
        )
        field.widget.attrs.update(inputmode="numeric")
        return field
    if control == "tile":
        return forms.ChoiceField(label=label, choices=TILE_CHOICES, required=False)
    choices = [(field_text(choice.value), say(choice.label)) for choice in option.choices]
    widget = forms.RadioSelect if radio else forms.Select
    return forms.ChoiceField(label=label, choices=choices, initial=option.default, required=False, widget=widget)


# ------------------------------------------------------------------------------------------ the hand form


def flag_choices() -> list[tuple[str, str]]:
    """Every flag some registered game declares (the registry's union, the shared flags first), with its label."""
    return [(flag_id, local(flag.label)) for flag_id, (flag, _games) in every_flag().items()]


def fields_only(layout: Layout) -> FormHelper:
    """A crispy helper that renders just the fields of `layout`, each with its errors beside it (`<id>_error`, the
    id Django's aria-describedby names): the page draws its own <form> and token."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.layout = layout
    return helper


class SeatSelect(forms.Select):
    """A select of seats whose options for the seats the table lacks (`absent`, set for each page by `draw_seats`)
    are hidden and cannot be chosen, unless chosen already: the page's script shows them when the table changes,
    and a link's value can still be put in."""

    absent: tuple[str, ...] = ()

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        for _group, options, _index in context["widget"]["optgroups"]:
            for option in options:
                if option["value"] in self.absent and not option["selected"]:
                    option["attrs"] = {**option["attrs"], "hidden": True, "disabled": True}
        return context


def hand_fields() -> dict[str, forms.Field]:
    """Every field of the calculator, in the page's order, labelled in the active language: the game, the
    hand, the seats, the flags, every game's options and rule card, the meld slots, the players' names."""
    seats = [(seat, local(SEAT_TEXTS[seat])) for seat in SEATS]
    fields: dict[str, forms.Field] = {
        "ruleset": forms.ChoiceField(
            label=_(FIELD_WORDS["ruleset"]),
            choices=[(ruleset.id, local(ruleset.title)) for ruleset in RULESETS.values()],
            initial=DEFAULT,
            widget=forms.RadioSelect,
        ),
        "hand": forms.CharField(
            label=_(FIELD_WORDS["hand"]),
            max_length=80,
            required=False,
            help_text=_("Notation: digits then suit, e.g. 111345789p79m55s; honours E S W N C F P."),
        ),
        "win_tile": forms.CharField(
            label=_(FIELD_WORDS["win_tile"]),
            max_length=4,
            required=False,
            help_text=_("Leave empty to see the waits of a 13-tile hand."),
        ),
        "winner": forms.ChoiceField(
            label=_(FIELD_WORDS["winner"]), choices=seats, initial="E", widget=forms.RadioSelect
        ),
        "dealer": forms.ChoiceField(
            label=_(FIELD_WORDS["dealer"]), choices=seats, initial="E", widget=forms.RadioSelect
        ),
        "discarder": forms.ChoiceField(
            label=_(FIELD_WORDS["discarder"]),
            choices=[("", _("Self-draw")), *seats],
            initial="",
            required=False,
            widget=forms.RadioSelect,
        ),
        "flags": forms.MultipleChoiceField(
            label=_(FIELD_WORDS["flags"]),
            choices=flag_choices(),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        ),
        **game_fields(),
    }
    melds = [("", "—"), *((kind, local(name)) for kind, name in MELD_NAMES.items())]
    for n in MELD_SLOTS:
        fields[f"meld{n}"] = forms.ChoiceField(label=_(MELD_FIELD_WORDS[""]) % {"n": n}, choices=melds, required=False)
        fields[f"meld{n}_tiles"] = forms.CharField(label=_(MELD_FIELD_WORDS["_tiles"]), max_length=12, required=False)
        fields[f"meld{n}_from"] = forms.ChoiceField(
            label=_(MELD_FIELD_WORDS["_from"]), choices=[("", "—"), *seats], required=False, widget=SeatSelect
        )
    for name in ("hand", "win_tile"):
        fields[name].widget.attrs.update(NO_AUTOFILL)
    for seat, label in seats:
        fields[f"name_{seat}"] = forms.CharField(label=label, max_length=MAX_NAME, required=False, strip=True)
    return fields


def game_fields() -> dict[str, forms.Field]:
    """The options of every game (each id once) and the fields of every game's rule card, `house_<id>` (a rule
    two games share the id of takes the values of both; `clean` checks them against the chosen game). An option
    of choices that two games share takes the choices of both (bazhi's players 4 or 3, another game's 4 or 2):
    the engine judges the value against the chosen game."""
    fields: dict[str, forms.Field] = {}
    values: dict[str, list[str]] = {}
    for ruleset in RULESETS.values():
        for option in ruleset.options:
            field = fields.setdefault(option.id, option_field(option, local))
            if isinstance(field, forms.ChoiceField) and option.choices:
                listed = {value for value, _label in field.choices}
                more = [(field_text(c.value), local(c.label)) for c in option.choices]
                field.choices = [*field.choices, *((v, label) for v, label in more if v not in listed)]
        for rule in ruleset.house:
            listed = values.setdefault(rule.id, [""])
            listed += [field_text(choice.value) for choice in rule.choices if field_text(choice.value) not in listed]
    for rule_id, listed in values.items():
        fields[f"house_{rule_id}"] = forms.ChoiceField(choices=[(v, v) for v in listed], required=False)
    return fields


class HandForm(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(hand_fields())

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

    seats: Seats = SEATS  # the table's seats the page is drawn for (draw_seats)

    def draw_seats(self, seats: Seats) -> None:
        """Draw the fields about seats for a table of `seats` (the page's script redraws them when another table
        size is chosen): a meld's source offers the table's seats (any other one chosen stays, for the engine to
        refuse), and the name of a seat the table lacks is hidden. (The seat buttons: the view's seat_rows.)"""
        self.seats = seats
        for n in MELD_SLOTS:
            self.fields[f"meld{n}_from"].widget.absent = tuple(seat for seat in SEATS if seat not in seats)

    @cached_property
    def names_helper(self) -> FormHelper:
        return fields_only(
            Layout(
                Div(
                    *[
                        Div(
                            Field(f"name_{seat}", placeholder=self.fields[f"name_{seat}"].label),
                            css_class="name-field" if seat in self.seats else "name-field is-absent",
                            data_table_seat=seat,
                        )
                        for seat in SEATS
                    ],
                    css_class="names-grid",
                )
            )
        )

    def fix(self, values: dict) -> None:
        """Fields decided elsewhere (a ledger table: game, options, dealer, streak, names): shown, not editable,
        and their values win over anything submitted (Django's disabled fields). Call before is_valid()."""
        for name, value in values.items():
            self.initial[name] = value
            self.fields[name].disabled = True

    # ------------------------------------------------------------------ validation

    def clean(self):
        data = super().clean()
        ruleset = RULESETS[data.get("ruleset") or DEFAULT]
        winner, discarder = data.get("winner"), data.get("discarder")
        if winner and discarder and winner == discarder:
            self.add_error("discarder", _("The discarder cannot be the winner."))
        for n, kind, tiles, _source in meld_slots(data):
            if tiles and not kind:
                self.add_error(f"meld{n}", _("Meld %(n)d: choose pung, kong or chow.") % {"n": n})
            elif kind and not tiles:
                self.add_error(f"meld{n}_tiles", _("Meld %(n)d: enter its tiles.") % {"n": n})
            if kind == "chow" and not ruleset.allows_chow:
                self.add_error(f"meld{n}", _("%(game)s allows no chow.") % {"game": local(ruleset.title)})
        foreign = [f for f in data.get("flags") or [] if f not in ruleset.flag_ids]
        if foreign:
            label = dict(self.fields["flags"].choices)[foreign[0]]
            self.add_error("flags", _("%(flag)s is not part of this game.") % {"flag": label})
        for rule in ruleset.house:
            value = data.get(f"house_{rule.id}")
            if value and not any(field_text(choice.value) == value for choice in rule.choices):
                self.add_error(f"house_{rule.id}", _("Not a value of this game's rule card."))
        return data

    def hand(self) -> HandInput:
        """The validated fields as the engine request and the players' names (call after is_valid()): the
        cleaned values, a table's fixed ones included, read by the one input path."""
        return parse_query(Fields.of_values(self.cleaned_data))
