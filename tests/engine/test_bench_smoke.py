"""`python -m calculator.engine.bench --quick` runs end to end and prints every target (figures not judged here)."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("mahjong")

from calculator.engine import bench


def test_quick_bench_prints_the_table_and_every_target():
    rows, targets = bench.run(hands=6, rounds=1, ledger_hands=8, out=io.StringIO())
    text = bench.render(rows, targets)
    assert "vs Agari.is_agari" in text and "ledger" in text
    assert len(targets) == 7  # the six of the speed issue and the alternatives (issue 11)
    assert len(bench.distance_targets(rows)) == 3 and "targets (issue 13: distance to ready)" in text
    assert all(row.ours.n > 0 for row in rows)
