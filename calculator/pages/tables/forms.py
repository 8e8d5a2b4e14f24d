"""The ledger's forms, built from the rulesets' declarations (the registry): no game is named here.

A `RuleCardForm` holds one game's rule card (its table options, stake, multiplier and house rules) under the game's
id as prefix (`bazhi-tariff`, `xinyu-stake`, `bazhi-house_draw_dealer` …), so that the new-table page can show
every game's card at once and read the chosen one.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from calculator.engine.errors import ScoreError
from calculator.engine.rulesets import DEFAULT, RULESETS, Ruleset
from calculator.engine.seats import SEATS
from calculator.ledger import MAX_MULTIPLIER, MAX_NAME, Card
from calculator.pages.forms import option_field
from calculator.pages.tables.presenter import offers_a_choice
from calculator.presentation.handquery import choice_value, field_text
from calculator.presentation.words import seat_labels


class RuleCardForm(forms.Form):
    """One game's rule card. `lang` picks the declarations' labels ("zh" / "en"). A field left out of the POST
    keeps the game's default (the API fills it).

    An option with one value offers nothing to choose and has no field (xinyu's table size). The table size
    (`players`, docs/seats.md) is asked when a table is made, as a row of radio buttons beside the players' names
    (`size_choices`); the form that changes a table's card (`card` given) has none: a table's seats are fixed."""

    def __init__(self, rules: Ruleset, lang: str, *args, card: Card | None = None, **kwargs):
        kwargs.setdefault("prefix", rules.id)
        super().__init__(*args, **kwargs)
        self.rules, table = rules, rules.table
        self.title = rules.title(lang)
        size = rules.players_option
        self.options = [
            option
            for option in rules.table_options
            if offers_a_choice(option) and not (card is not None and option is size)
        ]
        for option in self.options:
            self.fields[option.id] = option_field(option, lambda text: text(lang), radio=option is size)
            self.initial[option.id] = option.default
        stake = table.stake
        if stake.choices:
            choices = [("", stake.none(lang))] if stake.none else []
            choices += [(str(value), f"{stake.label(lang)} {value}") for value in stake.choices]
            self.fields["stake"] = forms.ChoiceField(label=stake.label(lang), choices=choices, required=False)
        else:
            self.fields["stake"] = forms.IntegerField(
                label=stake.label(lang),
                help_text=stake.help(lang),
                required=False,
                min_value=stake.minimum,
                max_value=stake.maximum,
            )
        if table.multiplier_label:
            self.fields["multiplier"] = forms.IntegerField(
                label=table.multiplier_label(lang), initial=1, min_value=1, max_value=MAX_MULTIPLIER, required=False
            )
        for rule in rules.house:
            choices = [(field_text(c.value), c.label(lang)) for c in rule.choices]
            self.fields[f"house_{rule.id}"] = forms.ChoiceField(
                label=rule.label(lang), choices=choices, help_text=rule.explanation(lang), required=False
            )
            self.initial[f"house_{rule.id}"] = field_text(rule.default)
        if card is not None:
            self.initial.update(self.values_of(card))

    def values_of(self, card: Card) -> dict:
        values: dict = {option.id: card.options[option.id] for option in self.options}
        # A stake at the game's default shows empty, so that a change of tariff takes the new tariff's default.
        default = None if card.table.stake.choices else card.table.default_stake(card.options)
        values["stake"] = "" if card.stake in (None, default) else card.stake
        values["multiplier"] = card.multiplier
        values.update({f"house_{rule.id}": field_text(card.house[rule.id]) for rule in self.rules.house})
        return values

    @property
    def house_fields(self) -> list:
        return [self[f"house_{rule.id}"] for rule in self.rules.house]

    @property
    def option_fields(self) -> list:
        """The card's options but the table size (asked beside the names)."""
        return [self[option.id] for option in self.options if option is not self.rules.players_option]

    @property
    def size_field(self):
        """The table size's field, when the game plays more than one (else None)."""
        size = self.rules.players_option
        return self[size.id] if size in self.options else None

    @property
    def size_choices(self) -> list[tuple]:
        """The table size's radio buttons, each with the seats that size sits ("E S W"): the new-table page shows
        a name for each of them (static/js/ledger.js)."""
        field, size = self.size_field, self.rules.players_option
        if field is None:
            return []
        return [
            (radio, " ".join(self.rules.seats({size.id: choice_value(size, radio.data["value"])}))) for radio in field
        ]

    def body(self) -> dict:
        """The card as the API takes it (the ledger validates it again)."""
        d = self.cleaned_data
        options: dict = {option.id: d[option.id] for option in self.options}
        options = {key: value for key, value in options.items() if value not in ("", None)}  # empty: the default
        for option in self.options:
            if option.id in options and option.choices:  # a choice as its JSON value (players: the number 3)
                options[option.id] = choice_value(option, options[option.id])
        options["house"] = {
            rule.id: choice.value
            for rule in self.rules.house
            for choice in rule.choices
            if field_text(choice.value) == d[f"house_{rule.id}"]
        }
        stake = d.get("stake")
        body = {"options": options, "stake": int(stake) if stake not in (None, "") else None}
        if "multiplier" in self.fields:
            body["multiplier"] = d.get("multiplier") or 1
        return body


class NewTableForm(forms.Form):
    """The new-table page: the game, how many players (where the game plays more than one size), the players, the
    first dealer, and every game's card (the chosen one counts).

    The page has a name field for every seat a table may have; the chosen card's seats are named (an empty name:
    the seat's word), and a name typed for a seat the chosen size lacks is sent too, for the ledger to refuse
    beside its field: a table never gets a seat it was not made with, and no name is dropped unseen. With
    JavaScript the page shows the chosen size's names and dealers only (static/js/ledger.js)."""

    ruleset = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    dealer = forms.ChoiceField(label=_("First dealer"), initial="E")

    def __init__(self, lang: str, data=None):
        super().__init__(data)
        seats = seat_labels(lang)
        self.fields["ruleset"].choices = [(r.id, r.title(lang)) for r in RULESETS.values()]
        self.fields["ruleset"].initial = DEFAULT
        self.fields["dealer"].choices = list(seats.items())
        for seat in SEATS:
            self.fields[f"name_{seat}"] = forms.CharField(label=seats[seat], max_length=MAX_NAME, required=False)
        self.cards = {r.id: RuleCardForm(r, lang, data) for r in RULESETS.values()}

    @property
    def games(self) -> list[tuple]:
        """The game's radio buttons, each with the seats of the game's default size ("E S W N")."""
        return [(radio, " ".join(RULESETS[radio.data["value"]].seats())) for radio in self["ruleset"]]

    @property
    def names(self) -> list[tuple]:
        """Each seat's name field, with its seat."""
        return [(seat, self[f"name_{seat}"]) for seat in SEATS]

    def chosen(self) -> RuleCardForm | None:
        return self.cards.get(self.data.get("ruleset") or DEFAULT)

    def is_valid(self) -> bool:
        card = self.chosen()
        return super().is_valid() and card is not None and card.is_valid()

    def body(self) -> dict:
        """The create-table body: a name for each seat the chosen card has, and any name typed for a seat it
        lacks (the ledger refuses it: `players.<seat>`)."""
        d = self.cleaned_data
        card = self.cards[d["ruleset"]].body()
        try:
            seats = RULESETS[d["ruleset"]].seats(card["options"])
        except ScoreError:
            seats = SEATS  # a card the API refuses: it says why
        return {
            "ruleset": d["ruleset"],
            "players": {seat: d.get(f"name_{seat}") or "" for seat in SEATS if seat in seats or d.get(f"name_{seat}")},
            "dealer": d["dealer"],
            **card,
        }
