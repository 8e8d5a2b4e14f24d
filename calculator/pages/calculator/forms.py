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
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from calculator.engine.hand import MELD_NAMES
from calculator.engine.rulesets import DEFAULT, RULESETS, every_flag
from calculator.engine.rulesets.declarations import Option
from calculator.engine.tiles import ALL_TILES, SEATS
from calculator.plumbing.django_locale import local, local_lazy
from calculator.presentation.handquery import FIELD_WORDS, MELD_FIELD_WORDS, MELD_SLOTS, house_text
from calculator.presentation.words import SEAT_TEXTS

SEAT_LABELS = {seat: local_lazy(SEAT_TEXTS[seat]) for seat in SEATS}
SEAT_CHOICES = [(seat, SEAT_LABELS[seat]) for seat in SEATS]

RULESET_CHOICES = [(ruleset.id, local_lazy(ruleset.title)) for ruleset in RULESETS.values()]
MELD_LABELS = {kind: local_lazy(name) for kind, name in MELD_NAMES.items()}
MELD_CHOICES = [("", "—"), *MELD_LABELS.items()]
MELD_SIZE = {"pung": 3, "chow": 3, "kong_exposed": 4, "kong_added": 4, "kong_concealed": 4}


# Every flag some registered game declares (the registry's union, in the request echo's order), with its label.
FLAG_CHOICES = [(flag_id, local_lazy(flag.label)) for flag_id, (flag, _games) in every_flag().items()]


def tile_choices(blank_label: str = "—") -> list[tuple[str, str]]:
    return [("", blank_label)] + [(t.notation, f"{t.notation} · {t.name_zh}") for t in ALL_TILES]


TILE_CHOICES = tile_choices()  # built once: the names are Chinese in every language


def meld_label(n: int) -> str:
    return gettext(MELD_FIELD_WORDS[""]) % {"n": n}


meld_label_lazy = lazy(meld_label, str)  # translated when shown, in the language of that request


def fields_only(layout: Layout) -> FormHelper:
    """A crispy helper that renders just the fields of `layout`, each with its errors beside it (`<id>_error`, the
    id Django's aria-describedby names): the page draws its own <form> and token."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.layout = layout
    return helper


class HandForm(forms.Form):
    ruleset = forms.ChoiceField(
        label=_(FIELD_WORDS["ruleset"]), choices=RULESET_CHOICES, initial=DEFAULT, widget=forms.RadioSelect
    )

    hand = forms.CharField(
        label=_(FIELD_WORDS["hand"]),
        max_length=80,
        required=False,
        help_text=_("Notation: digits then suit, e.g. 111345789p79m55s; honours E S W N C F P."),
    )
    win_tile = forms.CharField(
        label=_(FIELD_WORDS["win_tile"]),
        max_length=4,
        required=False,
        help_text=_("Leave empty to see the waits of a 13-tile hand."),
    )

    winner = forms.ChoiceField(
        label=_(FIELD_WORDS["winner"]), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect
    )
    dealer = forms.ChoiceField(
        label=_(FIELD_WORDS["dealer"]), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect
    )
    discarder = forms.ChoiceField(
        label=_(FIELD_WORDS["discarder"]),
        choices=[("", _("Self-draw")), *SEAT_CHOICES],
        initial="",
        required=False,
        widget=forms.RadioSelect,
    )
    flags = forms.MultipleChoiceField(
        label=_(FIELD_WORDS["flags"]),
        choices=FLAG_CHOICES,
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
        ruleset = RULESETS[data.get("ruleset") or DEFAULT]
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
            if kind == "chow" and not ruleset.allows_chow:
                self.add_error(f"meld{n}", _("%(game)s allows no chow.") % {"game": local(ruleset.title)})
        foreign = [f for f in data.get("flags") or [] if f not in ruleset.flag_ids]
        if foreign:
            label = dict(FLAG_CHOICES)[foreign[0]]
            self.add_error("flags", _("%(flag)s is not part of this game.") % {"flag": label})
        for rule in ruleset.house:
            value = data.get(f"house_{rule.id}")
            if value and not any(house_text(choice.value) == value for choice in rule.choices):
                self.add_error(f"house_{rule.id}", _("Not a value of this game's rule card."))
        return data


def option_field(option: Option) -> forms.Field:
    """A form field for a game's declared option (API.md `options.<id>`)."""
    label = local_lazy(option.label)
    if option.kind == "bool":
        return forms.BooleanField(label=label, required=False)
    if option.kind == "int":
        field = forms.IntegerField(
            label=label, min_value=option.minimum, max_value=option.maximum, initial=option.default, required=False
        )
        field.widget.attrs.update(inputmode="numeric")
        return field
    if option.kind == "tile":
        return forms.ChoiceField(label=label, choices=TILE_CHOICES, required=False)
    choices = [(choice.value, local_lazy(choice.label)) for choice in option.choices]
    return forms.ChoiceField(
        label=label, choices=choices, initial=option.default, required=False, widget=forms.RadioSelect
    )


def game_fields() -> dict[str, forms.Field]:
    """The options of every game (each id once) and the fields of every game's rule card, `house_<id>` (a rule
    two games share the id of takes the values of both; `clean` checks them against the chosen game)."""
    fields: dict[str, forms.Field] = {}
    values: dict[str, list[str]] = {}
    for ruleset in RULESETS.values():
        for option in ruleset.options:
            fields.setdefault(option.id, option_field(option))
        for rule in ruleset.house:
            listed = values.setdefault(rule.id, [""])
            listed += [house_text(choice.value) for choice in rule.choices if house_text(choice.value) not in listed]
    for rule_id, listed in values.items():
        fields[f"house_{rule_id}"] = forms.ChoiceField(choices=[(v, v) for v in listed], required=False)
    return fields


def _add_slot_fields() -> None:
    """The games' options and rule cards, the meld slots and the players' names: fields like the declared ones,
    added once to the class, after the declared fields."""
    extra: dict[str, forms.Field] = game_fields()
    for n in MELD_SLOTS:
        extra[f"meld{n}"] = forms.ChoiceField(label=meld_label_lazy(n), choices=MELD_CHOICES, required=False)
        extra[f"meld{n}_tiles"] = forms.CharField(label=_(MELD_FIELD_WORDS["_tiles"]), max_length=12, required=False)
        extra[f"meld{n}_from"] = forms.ChoiceField(
            label=_(MELD_FIELD_WORDS["_from"]), choices=[("", "—"), *SEAT_CHOICES], required=False
        )
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


_add_slot_fields()
