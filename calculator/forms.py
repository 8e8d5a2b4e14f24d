"""The calculator form: every input of one hand, readable from a query string or a plain POST.

The field names and values are a contract (issue 4, point 7): `ruleset`, `tariff`, `winner`, `dealer`,
`discarder` are radio inputs with the engine's own values. Django validates the shape of the input;
the engine (calculator.engine) judges the hand itself and answers with its own error codes.
"""

from __future__ import annotations

import copy
from functools import cached_property
from urllib.parse import urlencode

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Layout
from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .engine import InvalidNotationError, parse_tiles
from .engine.tiles import ALL_TILES, SEATS, Tile

MAX_MELDS = 4
MELD_SLOTS = tuple(range(1, MAX_MELDS + 1))
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


def _shallow_copy(obj):
    """copy.copy for a plain object, without the pickle protocol it goes through (several times faster)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


class LightCopyMixin:
    """A field that Django's per-form deep copy copies cheaply.

    Django deep-copies every field of a form for every instance (`BaseForm.__init__`): the field, its widget, its
    error messages and validators, and for a choice field its choices, which the widget's copy then normalises
    again. The htmx partial builds a form per request, and that copying was about a sixth of its time. This does
    what Field.__deepcopy__ and Widget.__deepcopy__ do (own widget, own widget attrs, own error messages and
    validators: crispy-forms writes into a widget's attrs while rendering) but shares the list of choices: it is
    never changed in place (assigning `.choices` on a form's copy replaces it, as before).
    """

    def __deepcopy__(self, memo):
        if isinstance(self.widget, forms.MultiWidget):  # its sub-widgets need copies too
            return super().__deepcopy__(memo)
        result = _shallow_copy(self)
        memo[id(self)] = result
        result.widget = _shallow_copy(self.widget)
        result.widget.attrs = self.widget.attrs.copy()
        memo[id(self.widget)] = result.widget
        result.error_messages = self.error_messages.copy()
        result.validators = self.validators[:]
        return result


class CharField(LightCopyMixin, forms.CharField):
    pass


class IntegerField(LightCopyMixin, forms.IntegerField):
    pass


class BooleanField(LightCopyMixin, forms.BooleanField):
    pass


class ChoiceField(LightCopyMixin, forms.ChoiceField):
    pass


class MultipleChoiceField(LightCopyMixin, forms.MultipleChoiceField):
    pass


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
    ruleset = ChoiceField(label=_("Game"), choices=RULESET_CHOICES, initial="bazhi", widget=forms.RadioSelect)
    tariff = ChoiceField(
        label=_("Tariff"), choices=TARIFF_CHOICES, initial="315", required=False, widget=forms.RadioSelect
    )
    multi_jiao = BooleanField(label=_("Multiple jiao (可多交)"), required=False)
    indicator = ChoiceField(label=_("Turned indicator tile"), choices=TILE_CHOICES, required=False)
    caishen = ChoiceField(label=_("Wild tile (财神)"), choices=TILE_CHOICES, required=False)
    dealer_streak = IntegerField(label=_("Dealer streak"), min_value=1, max_value=99, initial=1, required=False)

    hand = CharField(
        label=_("Hand (concealed tiles before the win)"),
        max_length=80,
        required=False,
        help_text=_("Notation: digits then suit, e.g. 111345789p79m55s; honours E S W N C F P."),
    )
    win_tile = CharField(
        label=_("Winning tile"),
        max_length=4,
        required=False,
        help_text=_("Leave empty to see the waits of a 13-tile hand."),
    )

    winner = ChoiceField(label=_("Winner"), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect)
    dealer = ChoiceField(label=_("Dealer"), choices=SEAT_CHOICES, initial="E", widget=forms.RadioSelect)
    discarder = ChoiceField(
        label=_("Discarder"),
        choices=[("", _("Self-draw")), *SEAT_CHOICES],
        initial="",
        required=False,
        widget=forms.RadioSelect,
    )
    flags = MultipleChoiceField(
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

    def fix(self, values: dict) -> None:
        """Fields decided elsewhere (a ledger table: game, options, dealer, streak, names): shown, not editable,
        and their values win over anything submitted (Django's disabled fields). Call before is_valid()."""
        for name, value in values.items():
            self.initial[name] = value
            if self.fields[name] is self.base_fields[name]:  # a ResultForm shares the class's fields
                self.fields[name] = copy.deepcopy(self.fields[name])
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

    # ------------------------------------------------------------------ reading the input

    def melds(self) -> list[dict]:
        out = []
        for n in MELD_SLOTS:
            kind = self.cleaned_data.get(f"meld{n}")
            tiles = self.cleaned_data.get(f"meld{n}_tiles")
            if not kind or not tiles:
                continue
            meld = {"type": kind, "tiles": tiles}
            source = self.cleaned_data.get(f"meld{n}_from")
            if source and kind != "kong_concealed":
                meld["from"] = source
            out.append(meld)
        return out

    def engine_request(self) -> dict:
        """The API.md request for this input (call after is_valid())."""
        d = self.cleaned_data
        ruleset = d["ruleset"]
        if ruleset == "bazhi":
            options = {"tariff": d.get("tariff") or "315", "multi_jiao": bool(d.get("multi_jiao"))}
        else:
            options = {"dealer_streak": d.get("dealer_streak") or 1}
            if d.get("indicator"):
                options["indicator"] = d["indicator"]
            if d.get("caishen"):
                options["caishen"] = d["caishen"]
        request = {
            "ruleset": ruleset,
            "options": options,
            "hand": d.get("hand") or "",
            "melds": self.melds(),
            "winner": d["winner"],
            "dealer": d["dealer"],
            "discarder": d.get("discarder") or None,
            "flags": list(d.get("flags") or []),
        }
        if d.get("win_tile"):
            request["win_tile"] = d["win_tile"]
        return request

    def names(self) -> dict[str, str]:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return {seat: data.get(f"name_{seat}") or "" for seat in SEATS}

    def query_string(self) -> str:
        """The whole input as a compact, canonical query string (the share link)."""
        d = self.cleaned_data
        pairs: list[tuple[str, str]] = [("ruleset", d["ruleset"])]
        if d["ruleset"] == "bazhi":
            pairs.append(("tariff", d.get("tariff") or "315"))
            if d.get("multi_jiao"):
                pairs.append(("multi_jiao", "on"))
        else:
            for key in ("indicator", "caishen"):
                if d.get(key):
                    pairs.append((key, d[key]))
            if (d.get("dealer_streak") or 1) != 1:
                pairs.append(("dealer_streak", str(d["dealer_streak"])))
        pairs.append(("hand", d.get("hand") or ""))
        if d.get("win_tile"):
            pairs.append(("win_tile", d["win_tile"]))
        for n, meld in enumerate(self.melds(), start=1):
            pairs.append((f"meld{n}", meld["type"]))
            pairs.append((f"meld{n}_tiles", meld["tiles"]))
            if meld.get("from"):
                pairs.append((f"meld{n}_from", meld["from"]))
        pairs += [("winner", d["winner"]), ("dealer", d["dealer"]), ("discarder", d.get("discarder") or "")]
        pairs += [("flags", f) for f in d.get("flags") or []]
        pairs += [(f"name_{seat}", name) for seat, name in self.names().items() if name]
        return urlencode(pairs)

    def tile_count(self) -> tuple[int, int] | None:
        """(concealed tiles entered, tiles expected before the win), or None when the notation is unreadable."""
        try:
            hand = parse_tiles(self.cleaned_data.get("hand") or "")
        except InvalidNotationError:
            return None
        return len(hand), 13 - 3 * len(self.melds())


def _add_slot_fields() -> None:
    """The meld slots and the players' names: fields like the declared ones, added once to the class (they were
    built again for every form), after the declared fields and in the same order as before."""
    extra: dict[str, forms.Field] = {}
    for n in MELD_SLOTS:
        extra[f"meld{n}"] = ChoiceField(label=meld_label_lazy(n), choices=MELD_CHOICES, required=False)
        extra[f"meld{n}_tiles"] = CharField(label=_("Tiles"), max_length=12, required=False)
        extra[f"meld{n}_from"] = ChoiceField(label=_("From"), choices=[("", "—"), *SEAT_CHOICES], required=False)
    for seat in SEATS:
        extra[f"name_{seat}"] = CharField(
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


class _SharedFields(dict):
    """A form's `base_fields` whose per-form "deep copy" is a new dict of the same field objects."""

    def __deepcopy__(self, memo):
        return dict(self)


class ResultForm(HandForm):
    """The input behind the htmx result partial: validated, never rendered (the partial shows only the result).

    Two costs of HandForm that only rendering needs are skipped: the per-form copy of all 28 fields (nothing
    changes a field outside rendering; `fix` copies the fields it disables), and the bound field and clean of an
    optional field absent from the input (most of the meld slots, the names, often the options): it takes the
    value its clean gives an absent input, worked out once per field. Present, required and disabled fields are
    cleaned exactly as HandForm cleans them, in the same order; the errors and cleaned data are the same.
    """

    _absent: dict[str, object] = {}

    def _clean_fields(self):
        data, absent, cleaned = self.data, self._absent, self.cleaned_data
        for name, field in self.fields.items():
            if name not in data and not field.required and not field.disabled and field is self.base_fields[name]:
                try:
                    value = absent[name]
                except KeyError:
                    value = absent[name] = field.clean(field.widget.value_from_datadict({}, {}, name))
                cleaned[name] = copy.copy(value)  # flags: a new empty list per form
                hook = getattr(self, f"clean_{name}", None)
                if hook is None:
                    continue
            else:
                bf = self[name]
                try:
                    cleaned[name] = field._clean_bound_field(bf)
                except ValidationError as e:
                    self.add_error(name, e)
                    continue
                hook = getattr(self, f"clean_{name}", None)
                if hook is None:
                    continue
            try:
                cleaned[name] = hook()
            except ValidationError as e:
                self.add_error(name, e)


ResultForm.base_fields = _SharedFields(HandForm.base_fields)  # after the metaclass, which sets its own


def tile_name(tile: Tile, lang: str) -> str:
    return tile.name_en if lang == "en" else tile.name_zh
