"""calculator/plumbing/strict_json.py: the one decoder of request bodies. Plain JSON decodes as `json.loads` does;
what cannot be stored or written back is a `bad_json` ScoreError naming the JSON path."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.engine.errors import ScoreError
from calculator.plumbing.strict_json import MAX_DEPTH, decode, json_path
from tests.web.test_security import manage, production_env


def refused(raw: str | bytes) -> dict:
    with pytest.raises(ScoreError) as caught:
        decode(raw)
    assert caught.value.code == "bad_json"
    return caught.value.to_dict("en")["error"]


plain_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"))
plain_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | plain_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(plain_text, children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(plain_json)
def test_plain_json_decodes_as_json_loads_does(value):
    text = json.dumps(value)
    assert decode(text) == json.loads(text) and decode(text.encode()) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.binary(max_size=60))
def test_any_input_decodes_or_is_bad_json(raw):
    try:
        decode(raw)
    except ScoreError as error:
        assert error.code == "bad_json"
        json.dumps(error.to_dict("en"), ensure_ascii=False).encode("utf-8")  # the answer itself can be written


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_nesting_up_to_the_limit_is_fine_one_more_is_refused():
    assert decode(nested(MAX_DEPTH)) is not None
    error = refused(nested(MAX_DEPTH + 1))
    assert error["field"] == "[0]" * MAX_DEPTH and error["message"].endswith("nested more than 32 levels deep")


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"name": "[" * 100, "quoted": '\\"{{{' * 20})
    assert decode(text) == json.loads(text)


def test_the_depth_error_names_keys_and_indices():
    text = '{"a": [1, {"b\\"c": ' + nested(40) + "}]}"
    assert refused(text)["field"] == 'a[1].b"c' + "[0]" * 29


def test_a_body_the_parser_would_recurse_through_is_refused_before_parsing():
    assert refused(nested(200_000))["field"].startswith("[0][0]")


def test_integers_up_to_4300_digits_are_numbers_longer_ones_are_refused():
    assert decode("9" * 4300) == int("9" * 4300)
    assert decode("-" + "9" * 4300) == -int("9" * 4300)
    assert refused('{"stake": ' + "1" * 4301 + "}") == {
        "code": "bad_json",
        "message": "stake is an integer of more than 4,300 digits",
        "field": "stake",
    }


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_numbers_that_are_not_finite_are_refused(literal):
    assert refused('{"x": [0, ' + literal + "]}")["field"] == "x[1]"


def test_tiny_floats_are_fine():
    assert decode("[1e-999, 0.5]") == [0.0, 0.5]


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('"\\ud800"', None),
        ('{"a": "\\udfff"}', "a"),
        ('{"a": "\\ud83c\\udc04 ok \\ud83c"}', "a"),  # a pair is a character; the last one is alone
        ('{"a": ["x\\u0000"]}', "a[0]"),
        ('{"\\u0000": 1}', "\\u0000"),
        ('{"' + "k" * 60 + '\\ud800": 1}', "k" * 40 + "…"),
    ],
)
def test_lone_surrogates_and_nul_anywhere(raw, field):
    assert refused(raw).get("field") == field


def test_a_surrogate_pair_is_a_character():
    assert decode('"\\ud83c\\udc04"') == "🀄"


def test_text_that_is_not_utf8_or_not_json_keeps_its_message():
    assert refused(b"\xff{}")["message"] == "the body is not UTF-8"
    assert refused("{")["message"].startswith("the body is not valid JSON")


def test_json_path():
    assert json_path(["melds", 0, "tiles"]) == "melds[0].tiles"
    assert json_path(["players", "E"]) == "players.E"
    assert json_path([0, "a"]) == "[0].a" and json_path([]) == ""


def test_the_scoring_cli_reads_its_input_the_same_way():
    done = manage("score", env=production_env(), stdin='{"ruleset": "bazhi", "hand": "1m\\u0000"}')
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "hand"
