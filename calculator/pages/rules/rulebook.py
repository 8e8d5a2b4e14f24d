"""The rules page's content, read from the rulesets' declarations (the registry): for each game its notes and
patterns (example tiles, value), its house rules (each with its example hand scored under every value, by the
engine), and every **[reading]** of RULES.md."""

from __future__ import annotations

from django.utils.translation import gettext as _

from calculator.engine import score
from calculator.engine.rulesets import RULESETS, Ruleset
from calculator.engine.rulesets.declarations import HouseRule, Pattern
from calculator.engine.seats import in_play_order
from calculator.presentation.glossary import terms
from calculator.presentation.locale import Locale
from calculator.presentation.readings import headline_arithmetic
from calculator.presentation.tiles import TileView, group_tiles
from calculator.presentation.words import claims_anchor, rule_anchor, seat_labels, signed


def tile_groups(text: str, locale: Locale) -> list[list[TileView]]:
    """Example tiles as groups (split on spaces)."""
    return [list(group_tiles(part, locale)) for part in text.split()]


def pattern_row(pattern: Pattern, locale: Locale) -> dict:
    lang = locale.lang
    return {
        "code": pattern.code,
        "zh": pattern.name.zh,
        "en": pattern.name.en,
        "value": pattern.value(lang),
        "what": pattern.what(lang),
        "groups": tile_groups(pattern.tiles, locale),
    }


def example_view(ruleset: Ruleset, rule: HouseRule, locale: Locale) -> dict | None:
    """A house rule's example hand, and what the engine makes of it under each value of the rule."""
    lang, seats = locale.lang, seat_labels(locale.lang)
    example = rule.example
    if example is None:
        return None
    rows = []
    for number, choice in enumerate(rule.choices):
        options = {**example["options"], "house": {rule.id: choice.value}}
        answer = score({**example, "ruleset": ruleset.id, "options": options}, lang)
        row = {"label": choice.label(lang), "default": number == 0, "win": bool(answer.get("win"))}
        if row["win"]:
            net = answer["net"]  # the example's table's seats, in play order
            row["nets"] = [{"seat": seats[s], "net": net[s], "text": signed(net[s])} for s in in_play_order(net)]
            row["arithmetic"] = headline_arithmetic(answer)
        else:
            row["message"] = answer.get("message", "")
        rows.append(row)
    winner, discarder = seats[example["winner"]], example["discarder"]
    if discarder:
        how = _("%(winner)s wins on %(discarder)s's discard") % {"winner": winner, "discarder": seats[discarder]}
    else:
        how = _("%(winner)s wins by self-draw") % {"winner": winner}
    melds = [tile_groups(meld["tiles"], locale)[0] for meld in example["melds"]]
    return {
        "hand": tile_groups(example["hand"], locale),
        "win": tile_groups(example["win_tile"], locale)[0],
        "melds": melds,
        "how": how,
        "dealer": seats[example["dealer"]],
        "options": " · ".join(
            f"{option.label(lang)} {example['options'][option.id]}"
            for option in ruleset.options
            if option.id in example["options"]
        ),
        "flags": [ruleset.flag_by_id[f].label(lang) for f in example["flags"]],
        "rows": rows,
    }


def house_rule_view(ruleset: Ruleset, rule: HouseRule, locale: Locale) -> dict:
    lang = locale.lang
    return {
        "id": rule.id,
        "label": rule.label(lang),
        "explanation": rule.explanation(lang),
        "rule": rule.rule,
        "scoring": rule.scoring,
        "choices": [{"value": c.value, "label": c.label(lang), "default": n == 0} for n, c in enumerate(rule.choices)],
        "example": example_view(ruleset, rule, locale),
    }


def ruleset_view(ruleset: Ruleset, locale: Locale) -> dict:
    lang = locale.lang
    house_rules = {rule.rule for rule in ruleset.house}
    return {
        "id": ruleset.id,
        "title": ruleset.title(lang),
        "notes": [{"anchors": [rule_anchor(r) for r in note.rules], "text": note.text(lang)} for note in ruleset.notes],
        "groups": [
            {
                "anchors": [rule_anchor(r) for r in group.rules],
                "heading": group.heading(lang),
                "rows": [pattern_row(p, locale) for p in group.patterns],
            }
            for group in ruleset.pattern_groups
        ],
        "house_anchors": [rule_anchor(r) for r in sorted(house_rules)],
        "house": [house_rule_view(ruleset, rule, locale) for rule in ruleset.house],
        "readings": [{"where": note.rule, "zh": note.name, "text": note.text(lang)} for note in ruleset.readings],
        "claims": claims_view(ruleset, lang),
    }


def claims_view(ruleset: Ruleset, lang: str) -> dict:
    """Who takes a discard several players can win on, as the game's `[claims]` says it: its rule in a sentence
    and, in a game with levels, each level with the patterns that give it (the highest first, an ordinary win
    last)."""
    claims = ruleset.claims
    levels = [
        {"level": level.level, "names": [ruleset.pattern_by_code[code].name(lang) for code in level.patterns]}
        for level in reversed(claims.levels)
    ]
    if levels:
        levels.append({"level": 0, "names": [claims.ordinary(lang)]})
    return {"anchor": claims_anchor(ruleset.id), "rule": claims.rule, "how": claims.how(lang), "levels": levels}


def rulebook(locale: Locale) -> dict:
    """The page's content in one language (each house rule's example is scored afresh: some 20 scores)."""
    return {
        "rulesets": [ruleset_view(ruleset, locale) for ruleset in RULESETS.values()],
        "terms": terms(locale.lang),
    }
