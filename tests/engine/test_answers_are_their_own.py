"""Issue 30: nothing of an answer is shared with another (the engine remembers no line, row or net): whatever a
caller does to one answer, the next answer to the same request is unharmed."""

from __future__ import annotations

from calculator.engine import score
from tests.casefiles import load_cases

B1 = next(case["request"] for case in load_cases() if case["name"].startswith("B1 "))


def test_changing_a_bazhi_answer_changes_no_other_answer():
    first = score(B1)
    first["payments"][0]["amount"] = 0  # its rows, nets and lines are written for it
    first["net"]["E"] = 0
    first["net_by_part"]["fan"]["E"] = 0
    first["explanation"][0]["value"] = 0
    first["decomposition"][0]["tiles"] = ""
    first["request"]["options"]["house"]["haidi"] = "zui"
    first["payments"].append({"from": "E"})  # the lists are each answer's own
    first["explanation"].clear()
    again = score(B1)
    assert again["explanation"][0]["code"] == "zhi_count" and again["explanation"][0]["value"] == 9  # 筒 9
    assert again["payments"][-1] != {"from": "E"} and again["payments"][0]["amount"] == 5
    assert again["decomposition"][0]["tiles"] and again["request"]["options"]["house"]["haidi"] == "label"
    assert again["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}  # case B1
    assert again["net_by_part"]["fan"]["E"] == -7


X1 = {
    "ruleset": "xinyu",
    "options": {"caishen": "5p", "dealer_streak": 2},
    "hand": "5p5p123m456s789sEE",
    "win_tile": "E",
    "winner": "S",
    "dealer": "E",
    "discarder": None,
}


def test_changing_a_xinyu_answer_changes_no_other_answer():
    first = score(X1)
    first["explanation"][0]["value"] = 0
    first["patterns"].clear()
    first["payments"][0]["amount"] = 0
    first["explanation"].clear()  # the list is the answer's own
    again = score(X1)
    assert [line["code"] for line in again["explanation"]][:2] == ["long_tiles", "shape"]
    assert again["explanation"][0]["value"] == 2  # two 财神, one 龙 each
    assert again["payments"][0]["amount"] == again["unit"]


def test_changing_a_xinyu_waits_answer_changes_no_other_answer():
    """A waits answer's waits that say the same list one brief answer (`WayAhead`): it goes with that answer."""
    waiting = {**X1, "options": {"caishen": "5p"}, "hand": "5p5p5p123m456s789sE", "win_tile": None}
    first = score(waiting)
    assert len(first["waits"]) > 20  # three 财神: most kinds win, and most of them say the same
    for wait in first["waits"]:
        wait["self_draw"]["net"]["S"] = 0
        wait["self_draw"]["payments"].clear()
    again = score(waiting)
    assert all(wait["self_draw"]["payments"] for wait in again["waits"])
    assert all(wait["self_draw"]["net"]["S"] == 3 * wait["self_draw"]["unit"] for wait in again["waits"])
