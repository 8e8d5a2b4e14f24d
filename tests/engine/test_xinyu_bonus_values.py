"""xinyu's 龙 bonuses (RULES.md §2.3) are written once: `numbers` in declarations.toml. The score adds those
numbers, and every text that says a value (the rules page's value, a house rule's explanation, a reading, the
explanation's 4龙 line) is written from them, so that one number changed changes all of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculator.engine.flags import DeclarationError
from calculator.engine.rulesets.declarations import load
from calculator.engine.rulesets.xinyu import declarations as xinyu_declarations
from calculator.engine.rulesets.xinyu.declarations import BONUS_BY_CODE, LONG, SILONG_MORE_WITH_SHAPE
from calculator.engine.text import Text
from tests.engine.helpers import xinyu

PLAIN = "123m456m789sEEE2s"  # a plain standard hand waiting on 2s, no 财神 (5p)
TOML = Path(xinyu_declarations.__file__).with_name("declarations.toml")


def test_the_bonuses_add_the_long_of_rules_md_2_3():
    assert LONG == {
        "qidui": 1,
        "shisanbuda": 1,
        "qifengqi": 1,
        "hunyise": 1,
        "daduidui": 1,
        "qingyise": 10,
        "qingqidui": 10,
        "tianhu": 10,
        "dihu": 10,
        "gangbao": 10,
        "haidi": 10,
        "dandiao": 10,
        "paolong": 10,
        "silong": 10,
        "quanfeng": 50,
    }
    assert SILONG_MORE_WITH_SHAPE == 10  # 4龙 with a legal shape: +10 more, one entry worth 20


MELDS_OF_DANDIAO = [
    {"type": "chow", "tiles": "123m"},
    {"type": "pung", "tiles": "555s", "from": "S"},
    {"type": "pung", "tiles": "777s", "from": "N"},
    {"type": "chow", "tiles": "345s"},
]
KONGS = [{"type": "kong_concealed", "tiles": "7777s"}, {"type": "kong_concealed", "tiles": "9999p"}]

# One hand for each bonus: the bonus, the hand, the 龙 the answer gives it, and its value as the rules page says it.
BONUS_HANDS = [
    ("qidui", ("1111m3344p5566s7s", "7s"), {"discarder": "W"}, 1, ("+1", "+1")),
    ("shisanbuda", ("147m258p369sESWN", "C"), {"caishen": "5m", "discarder": "W"}, 1, ("+1", "+1")),
    (
        "qifengqi",
        ("ESWNCFP147p258s", "3m"),
        {"caishen": "1m", "winner": "N", "discarder": "E"},
        1,
        ("再 +1", "+1 more"),
    ),
    ("hunyise", ("123m456m789mEEES", "S"), {}, 1, ("+1", "+1")),
    ("daduidui", ("111m444p777sEEES", "S"), {"discarder": "W"}, 1, ("+1", "+1")),
    ("qingyise", ("1112345678999m", "5m"), {"discarder": "W"}, 10, ("+10", "+10")),
    ("qingqidui", ("1122334455779m", "9m"), {"discarder": "W"}, 10, ("+10", "+10")),
    ("tianhu", (PLAIN, "2s"), {"winner": "E", "flags": ["heavenly"]}, 10, ("+10", "+10")),
    ("dihu", (PLAIN, "2s"), {"discarder": "E", "flags": ["earthly"]}, 10, ("+10", "+10")),
    ("gangbao", ("123m456m2s", "2s"), {"melds": KONGS, "flags": ["kong_bloom"]}, 10, ("+10", "+10")),
    ("haidi", (PLAIN, "2s"), {"flags": ["last_tile"]}, 10, ("+10", "+10")),
    ("dandiao", ("9p", "9p"), {"melds": MELDS_OF_DANDIAO, "winner": "E", "discarder": "W"}, 10, ("+10", "+10")),
    ("paolong", (PLAIN, "2s"), {"flags": ["pao_long"]}, 10, ("+10", "+10")),
    ("quanfeng", ("ESWNCFPESWNCF", "E"), {"discarder": "W"}, 50, ("+50", "+50")),
]


@pytest.mark.parametrize(("code", "hand", "context", "long", "value"), BONUS_HANDS, ids=[b[0] for b in BONUS_HANDS])
def test_each_bonus_is_shown_with_the_number_the_score_adds(code, hand, context, long, value):
    result = xinyu(*hand, **context)
    added = {p["code"]: p["long"] for p in result["patterns"]}
    lines = [line["value"] for line in result["explanation"] if line["code"] == "long_bonus"]
    assert added[code] == long == LONG[code]
    assert long in lines
    assert BONUS_BY_CODE[code].value == Text(*value)


def test_silong_is_shown_with_its_two_numbers_and_scores_their_sum_with_a_shape():
    result = xinyu("123m456m789s1s555p", "5p")  # case X11: four 财神 and a legal shape
    (line,) = [line for line in result["explanation"] if line["code"] == "long_bonus"]
    assert result["patterns"] == [{"code": "silong", "long": 20, "label": "4龙"}]
    assert (line["value"], line["detail"]) == (20, "四张财神自摸 +10，另有牌型再 +10")
    assert BONUS_BY_CODE["silong"].value == Text("+10（成牌型再 +10）", "+10 (+10 more with a legal shape)")


def test_silong_without_a_shape_scores_its_own_number_alone():
    result = xinyu("EEEE159m26p379sC", "S", caishen="E", lang="en")  # case X5
    (line,) = [line for line in result["explanation"] if line["code"] == "long_bonus"]
    assert result["patterns"][0]["long"] == LONG["silong"] == 10
    assert (line["value"], line["detail"]) == (10, "four 财神 by self-draw, no shape needed")


def changed(tmp_path: Path, code: str, numbers: str) -> Path:
    """A copy of xinyu's declarations with one pattern's `numbers` written otherwise."""
    text = TOML.read_text(encoding="utf-8")
    pattern = re.compile(rf'(code = "{code}"\n(?:  .*\n)*?  numbers = )\{{[^}}]*\}}')
    assert pattern.search(text), code
    path = tmp_path / "declarations.toml"
    path.write_text(pattern.sub(lambda m: m.group(1) + numbers, text, count=1), encoding="utf-8")
    return path


def test_one_changed_bonus_number_changes_every_text_that_says_it(tmp_path):
    declared = load(changed(tmp_path, "qingyise", "{ long = 12 }"))
    patterns = {p.code: p for p in declared.group("bonuses").patterns}
    house = {rule.id: rule for rule in declared.house}
    readings = {reading.name: reading for reading in declared.readings}
    assert patterns["qingyise"].value == Text("+12", "+12")
    assert patterns["qingqidui"].value == Text("+10", "+10")  # its own number, not 清一色's
    assert "清一色 +12 都算" in house["qingqidui"].explanation.zh
    assert "pure one suit +12 both count" in house["qingqidui"].explanation.en
    assert readings["清七对"].text == Text(
        "+10，并代替对对碰（+1）和清一色（+12）。",
        "Worth +10 and replaces both seven pairs (对对碰, +1) and pure one suit (清一色, +12).",
    )


def test_a_changed_silong_number_changes_its_value_and_its_explanation_line(tmp_path):
    declared = load(changed(tmp_path, "silong", "{ long = 10, more_with_shape = 5 }"))
    silong = next(p for p in declared.group("bonuses").patterns if p.code == "silong")
    assert silong.value == Text("+10（成牌型再 +5）", "+10 (+5 more with a legal shape)")
    assert declared.texts["silong_detail"]["with_shape"] == Text(
        "四张财神自摸 +10，另有牌型再 +5", "four 财神 by self-draw +10, and +5 more with a legal shape"
    )


def test_a_text_that_names_a_number_no_pattern_declares_fails_at_load(tmp_path):
    path = changed(tmp_path, "qingyise", "{ worth = 10 }")
    with pytest.raises(DeclarationError, match=r"\{qingyise\.long\}.*pattern 'qingyise' declares no 'long'"):
        load(path)


def test_the_answers_own_placeholders_are_left_for_the_answer():
    # {unit}, {share}, {long} … are filled in by the answer (no dot): loading leaves them as they are
    assert xinyu_declarations.HEADLINE["long"] == Text("{long} 龙", "{long} long")
    assert "{unit}" in xinyu_declarations.DECLARED.texts["payments"]["zimo"].zh
