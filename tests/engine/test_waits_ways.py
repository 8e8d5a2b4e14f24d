"""Waits mode with flags (issue 21 §12, API.md "the waits of a 13-tile hand"): the request's discarder is ignored,
each wait is scored by self-draw and by a discard, and a flag that cannot apply to one way of winning is dropped
for that way (self-draw only: kong_bloom, double_kong_bloom, last_tile, heavenly, pao_long; discard only:
robbing_kong, earthly, liable_caishen). A conflict that does not depend on the discarder is still an error.

The oracle is the 14-tile request of each way: the hand with a win tile it does not hold, that way's discarder
(the winner's 下家; the dealer for a flag the game says the dealer must feed, xinyu's 地胡) and the flags that
apply to it. A waits request is refused exactly when one of those is, and each way of each wait nets what its
14-tile request nets.
"""

from __future__ import annotations

from random import Random

from calculator.engine import parse_tiles, score
from calculator.engine.rulesets import RULESETS, SERVED
from calculator.engine.seats import SEATS, next_seat
from calculator.engine.tiles import ALL_TILES

# API.md: the flags of one way of winning (a game's own flags say so by their declared conditions)
SELF_DRAW_ONLY = {"kong_bloom", "double_kong_bloom", "last_tile", "heavenly", "pao_long"}
DISCARD_ONLY = {"robbing_kong", "earthly", "liable_caishen"}


def test_the_served_games_declare_the_flags_of_one_way_as_api_md_lists_them():
    for game in SERVED:
        ruleset = RULESETS[game]
        assert ruleset.self_draw_flags == SELF_DRAW_ONLY & ruleset.flag_ids
        assert ruleset.discard_flags == DISCARD_ONLY & ruleset.flag_ids


def one_way_flags(game: str) -> tuple[set[str], set[str]]:
    """(self-draw only, discard only): API.md's lists for its flags, the game's declarations for its own."""
    ruleset = RULESETS[game]
    own = ruleset.flag_ids - SELF_DRAW_ONLY - DISCARD_ONLY
    return SELF_DRAW_ONLY | (ruleset.self_draw_flags & own), DISCARD_ONLY | (ruleset.discard_flags & own)


XINYU = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "123m456m789p11sEE", "winner": "S", "dealer": "E"}


def waits_nets(answer: dict) -> list[tuple[str, dict | None, dict | None]]:
    return [(w["tile"], (w["self_draw"] or {}).get("net"), (w["discard"] or {}).get("net")) for w in answer["waits"]]


def won(request: dict, tile: str, discarder: str | None, flags: list[str]) -> dict:
    return score({**request, "win_tile": tile, "discarder": discarder, "flags": flags})


def test_a_discard_only_flag_without_a_discarder_is_kept_for_the_discard_way_only():
    """包牌 with no discarder: refused before; now the self-draw way is a plain self-draw, the discard way the
    下家 (W) paying for everyone."""
    answer = score({**XINYU, "flags": ["liable_caishen"]})
    assert "error" not in answer
    for tile, self_draw, discard in waits_nets(answer):
        assert self_draw == won(XINYU, tile, None, [])["net"]
        assert discard == won(XINYU, tile, "W", ["liable_caishen"])["net"]
    assert waits_nets(answer)[1] == ("1s", {"E": -13, "S": 39, "W": -13, "N": -13}, {"E": 0, "S": 27, "W": -27, "N": 0})


def test_a_self_draw_only_flag_with_a_discarder_is_kept_for_the_self_draw_way_only():
    """海底捞月 with a discarder given: the discarder is ignored; 海底 counts on the self-draw way alone."""
    answer = score({**XINYU, "discarder": "N", "flags": ["last_tile"]})
    assert "error" not in answer and answer["request"]["discarder"] is None
    for tile, self_draw, discard in waits_nets(answer):
        assert self_draw == won(XINYU, tile, None, ["last_tile"])["net"]
        assert discard == won(XINYU, tile, "W", [])["net"]


def test_the_discard_way_of_a_xinyu_earthly_hand_is_the_dealers_discard():
    answer = score({**XINYU, "flags": ["earthly"]})
    assert answer["ways"][1] == {"how": "discard", "discarder": "E", "flags": ["earthly"]}
    tile, _, discard = waits_nets(answer)[0]
    assert discard == won(XINYU, tile, "E", ["earthly"])["net"] == {"E": -22, "S": 44, "W": -11, "N": -11}


def test_a_bazhi_earthly_hand_is_fed_by_the_winners_next_seat():
    request = {"ruleset": "bazhi", "hand": "111345789p79m55s", "winner": "S", "dealer": "E", "flags": ["earthly"]}
    assert score(request)["ways"][1] == {"how": "discard", "discarder": "W", "flags": ["earthly"]}


def test_heavenly_with_a_discarder_is_scored_on_the_self_draw_way():
    answer = score({**XINYU, "winner": "E", "discarder": "W", "flags": ["heavenly"]})
    assert answer["ways"] == [
        {"how": "self_draw", "discarder": None, "flags": ["heavenly"]},
        {"how": "discard", "discarder": "S", "flags": []},
    ]


def test_robbing_a_kong_without_a_discarder_is_scored_on_the_discard_way():
    answer = score({**XINYU, "flags": ["robbing_kong"]})
    assert answer["ways"][1]["flags"] == ["robbing_kong"] and answer["ways"][0]["flags"] == []
    assert answer["waits"][0]["tile"] == "5p" and answer["waits"][0]["discard"] is None  # no kong of 财神 (§2.1)
    open_wait = {**XINYU, "hand": "123m456m789pEE23s", "flags": ["robbing_kong"]}  # on 1s or 4s, neither held
    by_tile = {wait["tile"]: wait for wait in score(open_wait)["waits"]}
    assert by_tile["4s"]["discard"]["net"] == won(open_wait, "4s", "W", ["robbing_kong"])["net"]
    assert by_tile["4s"]["discard"]["bao_reason"] == "qianggang"


def test_a_discarder_equal_to_the_winner_is_ignored_in_waits_mode():
    assert "error" not in score({**XINYU, "discarder": "S"})


def test_conflicts_that_do_not_depend_on_the_discarder_are_still_refused():
    melded = {**XINYU, "hand": "123m456m11sEE", "melds": [{"type": "pung", "tiles": "999p", "from": "N"}]}
    for request, message in (
        ({**melded, "winner": "E", "flags": ["heavenly"]}, "天胡：须没有吃碰杠"),
        ({**XINYU, "flags": ["earthly", "robbing_kong"]}, "抢杠胡：不能与地胡同时"),
        ({**XINYU, "winner": "E", "flags": ["heavenly", "last_tile"]}, "海底捞月：不能与天胡同时"),
        ({**XINYU, "flags": ["kong_bloom"]}, "杠后开花：须有一个杠"),
        ({**XINYU, "winner": "E", "flags": ["earthly"]}, "地胡：庄家不能胡"),
    ):
        error = score(request)["error"]
        assert (error["code"], error["message"]) == ("flag_conflict", message), request


# --------------------------------------------------------------------------- random waits requests


def way_requests(game: str, request: dict, tile: str) -> list[tuple[str, dict]]:
    """The 14-tile request of each way of winning, on `tile`."""
    ruleset = RULESETS[game]
    flags = request["flags"]
    self_draw_only, discard_only = one_way_flags(game)
    self_draw = [f for f in flags if f not in discard_only]
    discard = [f for f in flags if f not in self_draw_only]
    dealer_feeds = ("discarder", "is", "dealer")  # the condition that the dealer discards (xinyu's 地胡)
    by_dealer = any(
        (c.fact, c.test, c.value) == dealer_feeds for f in discard for c in ruleset.flag_by_id[f].conditions
    )
    winner, dealer = request["winner"], request["dealer"]
    feeder = dealer if by_dealer and dealer != winner else next_seat(winner, SEATS)
    return [
        ("self_draw", {**request, "win_tile": tile, "discarder": None, "flags": self_draw}),
        ("discard", {**request, "win_tile": tile, "discarder": feeder, "flags": discard}),
    ]


def random_waits_request(rng: Random, game: str) -> dict:
    """A dealt hand without its win tile, random seats, a random discarder (the winner's own, even) and up to
    two of the game's flags."""
    request = RULESETS[game].deal(rng)
    del request["win_tile"]
    winner, dealer = rng.choice(SEATS), rng.choice(SEATS)
    discarder = rng.choice([None, *SEATS])
    flags = rng.sample(sorted(RULESETS[game].flag_ids), rng.choice([1, 1, 1, 2]))
    return {**request, "winner": winner, "dealer": dealer, "discarder": discarder, "flags": flags}


def unheld_tile(game: str, request: dict) -> str:
    """A kind of the game the hand and its melds do not hold (so it may be 抢杠胡's robbed tile)."""
    held = {t.notation for t in parse_tiles(request["hand"] + "".join(m["tiles"] for m in request["melds"]))}
    return next(t.notation for t in ALL_TILES if t.index in RULESETS[game].kinds and t.notation not in held)


def test_no_waits_request_is_refused_unless_one_of_its_ways_is_and_each_way_nets_as_its_own_request():
    rng = Random(2121)
    refused = accepted = 0
    for n in range(600):
        game = sorted(RULESETS)[n % len(RULESETS)]
        request = random_waits_request(rng, game)
        answer = score(request)
        if "error" in answer and answer["error"]["code"] != "flag_conflict":
            continue  # dealt seats the game refuses for another reason (a meld fed by the winner)
        probe = unheld_tile(game, request)
        oracle = [score(body) for _, body in way_requests(game, request, probe)]
        way_refused = any(o.get("error", {}).get("code") == "flag_conflict" for o in oracle)
        if "error" in answer:
            refused += 1
            assert way_refused, (request, answer["error"])
            continue
        accepted += 1
        assert not way_refused, (request, oracle)
        for wait in answer["waits"][:1]:
            for how, body in way_requests(game, request, wait["tile"]):
                expected = score(body)
                entry = wait[how]
                if "error" in expected:
                    assert entry is None and wait["why_not"][how]["code"] == expected["error"]["code"], (request, how)
                elif expected["win"]:
                    assert entry["net"] == expected["net"], (request, how)
                else:
                    assert entry is None and wait["why_not"][how]["code"] == expected["code"], (request, how)
    assert refused > 30 and accepted > 170


# Four 财神 and no shape (RULES.md §2.2): a win by self-draw only (4龙), on any tile but the 财神's own kind.
SILONG = {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "5555p138m26sESNC", "winner": "S", "dealer": "E"}


def test_a_way_that_does_not_win_is_null_and_the_wait_says_why():
    """API.md: a wait's `self_draw` / `discard` entry is null when that way is not a win; `why_not` holds the
    not-a-win's code and message (docs/API-additions.md), which the page shows in its place."""
    answer = score(SILONG)
    assert len(answer["waits"]) == 33
    for wait in answer["waits"]:
        assert wait["discard"] is None
        assert wait["self_draw"]["net"] == {"E": -25, "S": 75, "W": -25, "N": -25}  # 4 + 4龙 10 = 14, P 25
        assert wait["why_not"] == {
            "discard": {
                "code": "silong_discard",
                "message": score({**SILONG, "win_tile": wait["tile"], "discarder": "W"})["message"],
            }
        }


def test_a_way_the_flags_refuse_for_one_wait_is_null_and_says_the_conflict():
    """包牌 (liable_caishen) on the discard way: won on 5p the winner would hold all four 财神, which RULES.md §4
    refuses (flag_conflict); that wait's discard is null, its self-draw a win, and the other waits win both ways."""
    answer = score({**XINYU, "hand": "555p147m29sESNCF", "flags": ["liable_caishen"]})
    by_tile = {wait["tile"]: wait for wait in answer["waits"]}
    caishen = by_tile["5p"]
    assert caishen["discard"] is None and caishen["self_draw"]["win"] is True
    assert caishen["why_not"]["discard"]["code"] == "flag_conflict"
    assert (
        caishen["why_not"]["discard"]["message"]
        == score(
            {**XINYU, "hand": "555p147m29sESNCF", "win_tile": "5p", "discarder": "W", "flags": ["liable_caishen"]}
        )["error"]["message"]
    )
    others = [wait for tile, wait in by_tile.items() if tile != "5p"]
    assert others and all(w["self_draw"]["win"] and w["discard"]["win"] and "why_not" not in w for w in others)
