"""Remembered lines and rows are shared between answers, so nobody may change them (calculator.engine.frozen)."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from calculator.engine import score
from calculator.engine.frozen import FrozenDict

B1 = {
    "ruleset": "bazhi",
    "options": {"tariff": "315"},
    "hand": "111345789p79m55s",
    "win_tile": "8m",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__("value", 99),
        lambda d: d.__delitem__("value"),
        lambda d: d.update(value=99),
        lambda d: d.pop("value"),
        lambda d: d.popitem(),
        lambda d: d.setdefault("extra", 1),
        lambda d: d.clear(),
    ],
)
def test_a_frozen_dict_refuses_every_change(change):
    row = FrozenDict({"code": "fan", "value": 3})
    with pytest.raises(TypeError):
        change(row)
    assert row == {"code": "fan", "value": 3}


def test_copies_of_a_frozen_dict_are_plain_dicts():
    row = FrozenDict({"code": "fan", "value": 3, "parts": [1, 2]})
    for twin in (dict(row), copy.copy(row), copy.deepcopy(row), pickle.loads(pickle.dumps(row))):
        assert type(twin) is dict and twin == row
        twin["value"] = 4  # the copy is the caller's
    assert row["value"] == 3


def test_a_frozen_dict_is_written_as_json_like_any_dict():
    assert json.dumps(FrozenDict({"a": 1})) == '{"a": 1}'


def test_an_answers_shared_lines_cannot_be_changed_and_the_next_answer_is_unharmed():
    first = score(B1)
    shared = next(line for line in first["explanation"] if isinstance(line, FrozenDict))
    with pytest.raises(TypeError):
        shared["value"] = 0
    first["payments"][0]["amount"] = 0  # the rows and nets are each answer's own
    first["net"]["E"] = 0
    first["payments"].append({"from": "E"})  # the lists are each answer's own
    first["explanation"].clear()
    again = score(B1)
    assert again["explanation"] and again["payments"][-1] != {"from": "E"} and again["payments"][0]["amount"]
    assert again["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}  # case B1


X1 = {
    "ruleset": "xinyu",
    "options": {"caishen": "5p", "dealer_streak": 2},
    "hand": "5p5p123m456s789sEE",
    "win_tile": "E",
    "winner": "S",
    "dealer": "E",
    "discarder": None,
}


def test_every_xinyu_explanation_line_is_shared_and_cannot_be_changed():
    first = score(X1)
    assert first["win"] and all(isinstance(line, FrozenDict) for line in first["explanation"])
    with pytest.raises(TypeError):
        first["explanation"][0]["value"] = 0
    first["explanation"].clear()  # the list is the answer's own
    again = score(X1)
    assert [line["code"] for line in again["explanation"]][:2] == ["long_tiles", "shape"]
    assert again["explanation"][0]["value"] == 2  # two 财神, one 龙 each
