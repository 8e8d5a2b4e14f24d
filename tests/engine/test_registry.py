"""The registry (issue 19): a game is registered on one line, with its distance to ready and its deal on the
ruleset itself; `register()` refuses a game that lacks what every game needs, naming the game and what is
missing."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import replace
from random import Random

import pytest

from calculator.engine.flags import DeclarationError
from calculator.engine.rulesets import RULESETS, SERVED, RegistrationError, register, table_missing
from calculator.engine.rulesets.declarations import AfterDraw, ClaimLevel, load

Card = namedtuple("Card", "ruleset options stake multiplier")  # what the table rules read of a table's card


def test_the_served_games_are_registered_in_order():
    assert list(RULESETS)[: len(SERVED)] == list(SERVED)
    assert all(RULESETS[game].id == game for game in SERVED)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_game_carries_its_distance_and_its_deal(game):
    ruleset = RULESETS[game]
    for name in ("shanten", "blocked_by", "blocked_message", "discards", "nearest"):
        assert callable(getattr(ruleset.distance, name))
    assert ruleset.deal(Random(0))["ruleset"] == game


def test_registering_a_game_again_changes_nothing():
    before = dict(RULESETS)
    ruleset = RULESETS[SERVED[0]]
    assert register(ruleset) is ruleset
    assert before == RULESETS


def test_another_game_under_a_taken_id_is_refused():
    ruleset = RULESETS[SERVED[0]]
    with pytest.raises(RegistrationError, match=rf"^{ruleset.id}: another game is registered under this id"):
        register(type(ruleset)())
    assert RULESETS[ruleset.id] is ruleset


def test_a_game_without_its_distance_is_refused_naming_the_game_and_what_is_missing():
    class Unfinished(type(RULESETS[SERVED[0]])):
        id = "unfinished"
        distance = None

    with pytest.raises(RegistrationError, match=r"^unfinished: its distance .* has no shanten, blocked_by"):
        register(Unfinished())
    assert "unfinished" not in RULESETS


# --------------------------------------------------------------------------- the loader's defaults

SMALLEST = """
title = { zh = "最小", en = "Smallest" }
summary = { zh = "只有必需的部分。", en = "Only what every game declares." }

[[pattern_groups]]
id = "shape"
heading = { zh = "牌型", en = "Shape" }
rules = ["§T"]
patterns = [{ code = "win", name = { zh = "和", en = "Win" }, value = { zh = "1", en = "1" }, what = { zh = "和牌", en = "a win" } }]

[table]
title = { zh = "最小", en = "Smallest" }
game = { zh = "局", en = "game" }
game_number = { zh = "第 {n} 局", en = "game {n}" }
next_game = { zh = "下一局", en = "Next game" }
balance_label = { zh = "分", en = "points" }
stake = { label = { zh = "底", en = "stake" }, help = { zh = "", en = "" } }
"""


def test_a_section_a_game_has_nothing_for_may_be_left_out(tmp_path):
    path = tmp_path / "declarations.toml"
    path.write_text(SMALLEST, encoding="utf-8")
    declared = load(path)
    assert (declared.options, declared.flags, declared.house, declared.readings, declared.notes) == ((),) * 5
    assert (declared.texts, declared.labels, declared.parts, declared.table.parts) == ({}, {}, (), {})
    assert declared.table.after_draw is None  # not declared: the registry refuses the game (below)


def test_a_section_every_game_declares_is_named_when_missing(tmp_path):
    path = tmp_path / "declarations.toml"
    path.write_text(SMALLEST.split("[table]")[0], encoding="utf-8")
    with pytest.raises(DeclarationError, match=r"declarations.toml: no table \(every game declares"):
        load(path)


# --------------------------------------------------------------------------- what the ledger needs


def game_with_table(after_draw: AfterDraw | None):
    """A served game under another id, its [table] declaring `after_draw`."""
    served = RULESETS[SERVED[0]]

    class Table(type(served.table)):
        declared = replace(served.table.declared, after_draw=after_draw)

    class Game(type(served)):
        id = "unfinished"
        table = Table()

    return Game()


def test_a_game_that_does_not_say_what_a_drawn_hand_does_is_refused():
    with pytest.raises(RegistrationError, match=r"^unfinished: \[table\] has no after_draw \(what a drawn hand does"):
        register(game_with_table(None))
    assert "unfinished" not in RULESETS


def test_a_drawn_hand_decided_by_a_house_rule_the_game_lacks_is_refused():
    with pytest.raises(RegistrationError, match=r"after_draw names the house rule 'draw_dealr', which the game does"):
        register(game_with_table(AfterDraw(house="draw_dealr")))


def test_a_drawn_hand_by_a_house_rule_with_other_values_is_refused():
    served = RULESETS[SERVED[0]]
    other = next(rule for rule in served.house if rule.id != "draw_dealer")
    with pytest.raises(
        RegistrationError, match=rf"the house rule '{other.id}' of \[table\] after_draw has values other"
    ):
        register(game_with_table(AfterDraw(house=other.id)))


def test_a_fixed_after_draw_is_keep_or_pass():
    with pytest.raises(RegistrationError, match=r"""\[table\] after_draw is 'stay', not "keep" or "pass\""""):
        register(game_with_table(AfterDraw(fixed="stay")))


@pytest.mark.parametrize("fixed, keeps", [("keep", True), ("pass", False)])
def test_a_fixed_after_draw_needs_no_house_rule(fixed, keeps):
    served = RULESETS[SERVED[0]]
    game = game_with_table(AfterDraw(fixed=fixed))
    assert table_missing(game) == []
    card = Card(game.id, {"house": {}}, None, 1)
    assert game.table.keeps_deal_on_draw(card) is keeps
    assert served.table.declared.after_draw == AfterDraw(house="draw_dealer")


# --------------------------------------------------------------------------- claims on one discard


def game_with_claims(claims):
    """A served game under another id, its declarations' `[claims]` replaced."""
    served = RULESETS[SERVED[0]]

    class Game(type(served)):
        id = "unranked"
        declared = replace(served.declared, claims=claims)

    return Game()


def test_a_game_that_does_not_say_how_claims_are_settled_is_refused():
    with pytest.raises(RegistrationError, match=r"unranked: no \[claims\]"):
        register(game_with_claims(None))


def test_a_claim_level_of_a_pattern_the_game_lacks_is_refused():
    served = RULESETS[SERVED[0]].claims
    levels = (ClaimLevel(1, ("no_such_pattern",)),)
    reasons = {**served.reasons, "higher_level": served.reasons["seat_order"]}
    with pytest.raises(RegistrationError, match=r"\[claims\] level 1 names no_such_pattern"):
        register(game_with_claims(replace(served, levels=levels, reasons=reasons)))


def test_a_game_with_levels_says_why_a_higher_level_wins():
    served = RULESETS[SERVED[0]].claims
    first = next(iter(RULESETS[SERVED[0]].pattern_by_code))
    with pytest.raises(RegistrationError, match=r"\[claims\] reasons has no higher_level"):
        register(game_with_claims(replace(served, levels=(ClaimLevel(1, (first,)),))))


def test_a_game_says_its_claims_rule_in_one_sentence():
    """The page of who takes a discard shows the game's rule as a player tells it (`[claims] how`)."""
    served = RULESETS[SERVED[0]].claims
    with pytest.raises(RegistrationError, match=r"\[claims\] has no how"):
        register(game_with_claims(replace(served, how=None)))
