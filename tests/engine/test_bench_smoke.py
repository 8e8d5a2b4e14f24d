"""`python -m calculator.engine.bench --quick` runs end to end and prints every target (figures not judged here)."""

from __future__ import annotations

import io
from random import Random

import pytest

pytest.importorskip("mahjong")

from calculator.engine import bench, score
from calculator.engine.bench_dealt import MAX_WILD, dealt_wins
from calculator.engine.notation import parse_tiles
from calculator.engine.rulesets import RULESETS


def test_quick_bench_prints_the_table_and_every_target():
    rows, targets = bench.run(hands=6, rounds=1, ledger_hands=8, out=io.StringIO(), dealt_hands=10, dealt_rounds=1)
    text = bench.render(rows, targets)
    assert "vs Agari.is_agari" in text and "ledger" in text
    assert len(targets) == 7  # the six of the speed issue and the alternatives (issue 11)
    assert len(bench.distance_targets(rows)) == 3 and "targets (issue 13: distance to ready)" in text
    assert len(bench.dealt_targets(rows)) == 2 and "targets (issue 19: dealt wins" in text
    assert all(row.ours.n > 0 for row in rows)


@pytest.mark.parametrize("game", sorted(RULESETS))
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
