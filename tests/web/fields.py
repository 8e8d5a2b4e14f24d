"""The calculator's form fields for hands of the acceptance cases (tests/cases/*.json), as the page submits them."""

from __future__ import annotations

# B1: South wins 压档 8 on West's discard; nets E −7, S +19, W −7, N −5.
B1 = {
    "ruleset": "bazhi",
    "tariff": "315",
    "hand": "111345789p79m55s",
    "win_tile": "8m",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}
# X1 as tapped in: the turned 4p makes 5p the 财神; South wins on West's discard; nets E −6, S +24, W −12, N −6.
X1 = {
    "ruleset": "xinyu",
    "indicator": "4p",
    "hand": "123456789m115pE",
    "win_tile": "E",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}

# For learners (issue 13): a bazhi shape that is ready but can never make 八支 (m 6 · p 3 · s 4), waits on nothing;
# with the win tile 1s it is two exchanges from a win.
SHORT_OF_EIGHT = {"ruleset": "bazhi", "hand": "123456m123p1234s", "winner": "S", "dealer": "E", "discarder": ""}
# A xinyu win whose 财神 (5p) stands for 北 in the triplet of the win.
WILD_AS_NORTH = {
    "ruleset": "xinyu",
    "caishen": "5p",
    "hand": "123m456m789s11sN5p",
    "win_tile": "N",
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
}
