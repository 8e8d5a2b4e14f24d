"""Hands the ledger tests record, taken from the acceptance cases (tests/cases/bazhi.json)."""

from __future__ import annotations

# B1: S wins 压档 8 on W's discard; 番 5, 底番 2.
B1 = {"hand": "111345789p79m55s", "win_tile": "8m", "melds": [], "winner": "S", "discarder": "W", "flags": []}
# B2: E self-draws 对对胡 + 混一色 (交, 40 per loser at 315); 番 15, 底番 3.
B2 = {
    "hand": "5558889m",
    "win_tile": "9m",
    "melds": [{"type": "pung", "tiles": "CCC", "from": "S"}, {"type": "pung", "tiles": "222m", "from": "W"}],
    "winner": "E",
}
