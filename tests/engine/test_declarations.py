"""The rulesets' declarations (declarations.toml in each package): what the rest of the program reads must match
RULES.md and API.md, and name every code the engine can answer with."""

from __future__ import annotations

import pytest

from calculator.engine.rulesets import RULESETS, every_flag
from calculator.engine.rulesets.bazhi import declarations as bazhi
from calculator.engine.rulesets.bazhi.jiao import TRIGGER_COST
from calculator.engine.rulesets.xinyu import declarations as xinyu
from tests.games.examples import examples


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_house_rules_are_those_the_game_reads_with_the_default_first(game):
    """RULES.md §5 (or the game's own reading of its house rules): ids and values, in order."""
    declared = {rule.id: [choice.value for choice in rule.choices] for rule in RULESETS[game].house}
    expected = examples(game)["house"]["values"]
    assert declared == expected
    assert list(declared) == list(expected)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_ledger_only_house_rules_are_those_the_game_declares_so(game):
    ledger_only = [rule.id for rule in RULESETS[game].house if not rule.scoring]
    assert ledger_only == examples(game)["house"]["ledger_only"]


# API.md `flags`, in the order the request echo lists them
API_FLAGS = (
    "kong_bloom",
    "double_kong_bloom",
    "robbing_kong",
    "last_tile",
    "heavenly",
    "earthly",
    "pao_long",
    "liable_caishen",
)


def test_every_flag_of_api_md_belongs_to_some_ruleset_and_bazhi_has_no_xinyu_flags():
    assert [flag_id for flag_id in every_flag() if flag_id in API_FLAGS] == list(API_FLAGS)
    assert RULESETS["bazhi"].flag_ids == set(API_FLAGS) - {"pao_long", "liable_caishen"}
    assert RULESETS["xinyu"].flag_ids == set(API_FLAGS)


def test_every_code_the_engine_answers_with_has_a_name():
    assert {p.code for p in bazhi.ZUI} == {"duidui", "tongtian", "sihe", "hunyise", "ganghua", "haidi"}
    assert {p.code for p in bazhi.JIAO_TRIGGERS} == set(TRIGGER_COST)
    assert set(bazhi.BAO_REASONS) == {
        "sandui_same_feeder",
        "sidui_zhuanbao",
        "sandui_several_feeders",
        "shuangbazhi",
        "shuangsihe",
        "hunyise_dingzui",
        "qianggang",
    }
    assert [p.code for p in xinyu.BONUSES] == [
        "qidui",
        "shisanbuda",
        "qifengqi",
        "hunyise",
        "daduidui",
        "qingyise",
        "qingqidui",
        "tianhu",
        "dihu",
        "gangbao",
        "haidi",
        "dandiao",
        "paolong",
        "silong",
        "quanfeng",
    ]


def test_the_tariffs_are_those_of_rules_md_1_3():
    assert bazhi.TARIFFS["315"].di_fan == (1, 2, 3, 4) and bazhi.TARIFFS["525"].di_fan == (2, 4, 6, 8)
    assert [(t.zui, t.stake, t.jiao, t.jiao_zui) for t in bazhi.TARIFFS.values()] == [(2, 30, 30, 10), (5, 50, 50, 20)]
    assert [choice.value for choice in RULESETS["bazhi"].options[0].choices] == list(bazhi.TARIFFS)


def test_every_text_is_written_in_both_languages():
    for ruleset in RULESETS.values():
        texts = [ruleset.title, ruleset.summary]
        texts += [option.label for option in ruleset.options]
        texts += [rule.label for rule in ruleset.house] + [rule.explanation for rule in ruleset.house]
        texts += [choice.label for rule in ruleset.house for choice in rule.choices]
        texts += [p.name for g in ruleset.pattern_groups for p in g.patterns]
        texts += [p.what for g in ruleset.pattern_groups for p in g.patterns]
        texts += [note.text for note in ruleset.readings]
        assert all(text.zh and text.en for text in texts)
