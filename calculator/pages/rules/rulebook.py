"""The rules page's content, read from the rulesets' declarations (the registry): for each game its notes and
patterns (example tiles, value), its house rules (each with its example hand scored under every value, by the
engine), and every **[reading]** of RULES.md."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.text import slugify
from django.utils.translation import gettext as _

from calculator.engine import parse_tiles, score
from calculator.engine.rulesets import RULESETS, Ruleset
from calculator.engine.rulesets.declarations import HouseRule, Pattern
from calculator.engine.tiles import SEAT_NAMES_EN, SEAT_NAMES_ZH, SEATS
from calculator.presentation.glossary import terms
from calculator.presentation.presenter import tile_src


def rule_anchor(rule: str) -> str:
    """`rule-12` for `§1.2`: the rules page's id for a section of RULES.md."""
    return f"rule-{slugify(rule)}"


@dataclass(frozen=True)
class TileView:
    n: str
    name: str
    src: str


def tile_groups(text: str, lang: str) -> list[list[TileView]]:
    """Example tiles as groups (split on spaces)."""
    return [
        [
            TileView(t.notation, t.name_en if lang == "en" else t.name_zh, tile_src(t.notation))
            for t in parse_tiles(part)
        ]
        for part in text.split()
    ]


def pattern_row(pattern: Pattern, lang: str) -> dict:
    return {
        "code": pattern.code,
        "zh": pattern.name.zh,
        "en": pattern.name.en,
        "value": pattern.value(lang),
        "what": pattern.what(lang),
        "groups": tile_groups(pattern.tiles, lang),
    }


def _seat(seat: str, lang: str) -> str:
    return SEAT_NAMES_EN[seat] if lang == "en" else SEAT_NAMES_ZH[seat]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def example_view(ruleset: Ruleset, rule: HouseRule, lang: str) -> dict | None:
    """A house rule's example hand, and what the engine makes of it under each value of the rule."""
    example = rule.example
    if example is None:
        return None
    rows = []
    for number, choice in enumerate(rule.choices):
        options = {**example["options"], "house": {rule.id: choice.value}}
        answer = score({**example, "ruleset": ruleset.id, "options": options}, lang)
        row = {"label": choice.label(lang), "default": number == 0, "win": bool(answer.get("win"))}
        if row["win"]:
            row["nets"] = [
                {"seat": _seat(s, lang), "net": answer["net"][s], "text": signed(answer["net"][s])} for s in SEATS
            ]
        else:
            row["message"] = answer.get("message", "")
        rows.append(row)
    winner, discarder = _seat(example["winner"], lang), example["discarder"]
    if discarder:
        how = _("%(winner)s wins on %(discarder)s's discard") % {"winner": winner, "discarder": _seat(discarder, lang)}
    else:
        how = _("%(winner)s wins by self-draw") % {"winner": winner}
    melds = [tile_groups(meld["tiles"], lang)[0] for meld in example["melds"]]
    return {
        "hand": tile_groups(example["hand"], lang),
        "win": tile_groups(example["win_tile"], lang)[0],
        "melds": melds,
        "how": how,
        "dealer": _seat(example["dealer"], lang),
        "options": " · ".join(
            f"{option.label(lang)} {example['options'][option.id]}"
            for option in ruleset.options
            if option.id in example["options"]
        ),
        "flags": [ruleset.flag_by_id[f].label(lang) for f in example["flags"]],
        "rows": rows,
    }


def house_rule_view(ruleset: Ruleset, rule: HouseRule, lang: str) -> dict:
    return {
        "id": rule.id,
        "label": rule.label(lang),
        "explanation": rule.explanation(lang),
        "rule": rule.rule,
        "scoring": rule.scoring,
        "choices": [{"value": c.value, "label": c.label(lang), "default": n == 0} for n, c in enumerate(rule.choices)],
        "example": example_view(ruleset, rule, lang),
    }


def ruleset_view(ruleset: Ruleset, lang: str) -> dict:
    house_rules = {rule.rule for rule in ruleset.house}
    return {
        "id": ruleset.id,
        "title": ruleset.title(lang),
        "notes": [{"anchors": [rule_anchor(r) for r in note.rules], "text": note.text(lang)} for note in ruleset.notes],
        "groups": [
            {
                "anchors": [rule_anchor(r) for r in group.rules],
                "heading": group.heading(lang),
                "rows": [pattern_row(p, lang) for p in group.patterns],
            }
            for group in ruleset.pattern_groups
        ],
        "house_anchors": [rule_anchor(r) for r in sorted(house_rules)],
        "house": [house_rule_view(ruleset, rule, lang) for rule in ruleset.house],
        "readings": [{"where": note.rule, "zh": note.name, "text": note.text(lang)} for note in ruleset.readings],
    }


def rulebook(lang: str) -> dict:
    """The page's content in one language (each house rule's example is scored afresh: some 20 scores)."""
    return {"rulesets": [ruleset_view(ruleset, lang) for ruleset in RULESETS.values()], "terms": terms(lang)}
