"""The benchmarks outside the package (benchmarks/): the speed figure runs end to end and judges every goal, the
dealt sets hold what they are filed under, and the guard names each request whose answer differs. The figures
themselves are not judged here (docs/PERFORMANCE.md)."""

from __future__ import annotations

import io
import json
from random import Random

import pytest

from benchmarks import before, figure, guard
from benchmarks.dealt import MAX_WILD, dealt_wins, seat_way, seat_ways, wins_in_every_seat_way
from calculator.engine import score
from calculator.engine.notation import parse_tiles
from calculator.engine.rulesets import RULESETS, SERVED

pytest.importorskip("mahjong")


def test_a_tiny_figure_times_every_set_and_judges_the_three_goals():
    found, goals = figure.run(seed=1, per_round=4, rounds=1, warm=2, out=io.StringIO())
    assert [len(found[0].ours[name]) for name in ("bazhi", "xinyu", "waits bazhi", "waits xinyu")] == [4, 4, 2, 2]
    assert len(found[0].theirs) == 12  # one riichi hand beside each of our calls
    assert [goal.text.split()[0] for goal in goals] == ["bazhi", "xinyu", "waits", "waits"]


def test_a_tiny_before_times_fresh_bazhi_wins_after_each_kind_of_work():
    found = before.run(per_kind=3, warm=2)
    assert len(found) == before.KINDS  # as many kinds as the wins were dealt for
    assert list(found)[0] == "nothing" and list(found)[-1] == "the figure's order"
    assert all(median > 0 for median in found.values())


@pytest.mark.parametrize("game", SERVED)
def test_dealt_wins_are_wins_holding_the_wild_tiles_they_are_filed_under(game):
    dealt = dealt_wins(game, 30, Random(1))
    assert len(dealt.requests) == 30
    for request, wild in zip(dealt.requests, dealt.wild, strict=True):
        answer = score(request)
        assert answer["win"] is True, request
        tile = RULESETS[game].wild_tile(answer)
        concealed = [t.notation for t in parse_tiles(request["hand"] + request["win_tile"])]
        assert (concealed.count(tile) if tile else 0) == wild
    if any(dealt.wild):
        assert sorted(set(dealt.wild)) == list(range(MAX_WILD + 1))  # each number of wild tiles, 30 // 5 each


def test_the_dealt_bazhi_wins_come_in_every_seat_way_at_four_and_at_three():
    four = wins_in_every_seat_way("bazhi", 1, Random(2))
    three = wins_in_every_seat_way("bazhi", 1, Random(3), ("E", "S", "W"))
    assert sorted(map(seat_way, four), key=str) == sorted(seat_ways(), key=str) and len(four) == 64
    assert sorted(map(seat_way, three), key=str) == sorted(seat_ways(("E", "S", "W")), key=str) and len(three) == 27
    assert all(score(request)["win"] is True for request in four + three)


def test_the_guard_names_each_request_whose_answer_differs(tmp_path):
    entries = [
        {"name": "case:B1", "kind": "score", "lang": "zh", "request": guard.BAZHI},
        {"name": "error:1", "kind": "score", "lang": "en", "request": []},
    ]
    before, now = tmp_path / "before.jsonl", tmp_path / "now.jsonl"
    assert guard.write(before, entries) == 2
    lines = [json.loads(line) for line in before.read_text(encoding="utf-8").splitlines()]
    lines[0]["answer"]["fan"] += 1
    now.write_text("".join(guard.canonical(line) + "\n" for line in lines), encoding="utf-8")
    out = io.StringIO()
    assert guard.report(guard.read(before), guard.read(now), out) == 1
    assert out.getvalue().splitlines() == [
        "case:B1 (zh): .fan: 5 before, 6 now",
        "guard: 1 of 2 answers differ",
    ]
    assert guard.report(guard.read(before), guard.read(before), io.StringIO()) == 0
