"""Distance to ready (issue 13 §1, API.md waits mode): `shanten`, `blocked_by` and the discard table."""

from __future__ import annotations

from calculator.engine import parse_tiles, score

from .helpers import bazhi, hand_request, kong, pung, xinyu

# --------------------------------------------------------------------------- bazhi


def test_a_ready_bazhi_hand_is_at_zero():
    result = bazhi("123456789p123sC", None)
    assert [w["tile"] for w in result["waits"]] == ["C"]
    assert result["shanten"] == 0
    assert result["blocked_by"] is None


def test_a_bazhi_shape_without_eight_of_a_suit_is_blocked_by_bazhi():
    # 111m 222p 333s 456s and C: red dragon completes the shape, but no suit reaches 8 (m 3, p 3, s 6)
    result = bazhi("111m222p333s456sC", None)
    assert result["waits"] == []
    assert result["blocked_by"] == "no_bazhi"
    # one exchange: C out, 7s in: 4567s waits on 4s or 7s, and either makes 8 条
    assert result["shanten"] == 1


def test_bazhi_melds_that_leave_no_suit_able_to_reach_eight_make_shanten_null():
    melds = [kong("2222m"), pung("333p", "E"), pung("444s", "E"), pung("CCC", "W")]
    result = bazhi("1m", None, melds=melds)
    # every suit holds at most its meld tiles and the two concealed tiles: m 4 + 2, p 3, s 3
    assert result["shanten"] is None
    assert result["blocked_by"] == "no_bazhi"


def test_a_bazhi_hand_far_from_any_shape_is_not_blocked():
    # 123 456 789m and four loose tiles: a pair and a set still to make, 3 tiles to draw
    result = bazhi("123456789m15p9sC", None)
    assert result["shanten"] == 2
    assert result["blocked_by"] is None


# --------------------------------------------------------------------------- xinyu


def test_three_caishen_are_always_ready():
    # a fourth 财神 by self-draw is 4龙, whatever the other tiles
    assert xinyu("5p5p5p1m4m7m2s5s8sENCP", None, caishen="5p")["shanten"] == 0


def test_two_caishen_are_at_most_one_exchange_away():
    # five two-tile starts and a single 东: the two 财神 complete two of them, one exchange does the rest
    result = xinyu("5p5p12m45m78m12s45sE", None, caishen="5p")
    assert result["waits"] == []
    assert result["shanten"] == 1


def test_seven_pairs_count_toward_ready():
    # six pairs and a single: the single's mate, or a 财神, makes 七对
    result = xinyu("11m22m33p44p55s66sE", None, caishen="5p")
    assert [w["tile"] for w in result["waits"]] == ["5p", "E"]
    assert result["shanten"] == 0


def test_shisanbuda_counts_toward_ready():
    # 147m 2p 8p 369s and five honours: two more distinct honours (or a 财神) make 十三不搭
    result = xinyu("147m28p369sESWNC", None, caishen="5p")
    assert [w["tile"] for w in result["waits"]] == ["5p", "F", "P"]
    assert result["shanten"] == 0


def test_all_honours_need_no_shape():
    # a pung of 东 and ten loose honours: any honour drawn is 全风向, and so is the 财神 (standing for one)
    result = xinyu("SSWWNNCCFP", None, caishen="1m", melds=[pung("EEE", "N")])
    assert [w["tile"] for w in result["waits"]] == ["1m", "E", "S", "W", "N", "C", "F", "P"]
    assert result["shanten"] == 0


def test_xinyu_is_never_blocked():
    assert xinyu("1m4m7m1p4p7p1s4s7sESWN", None, caishen="5p")["blocked_by"] is None


def test_a_caishen_as_a_fifth_copy_counts_only_when_the_card_allows_it():
    # 1111m 56789m 567s and one 财神: with the 财神 as a fifth 1m, 111m + 11m leave 56789m waiting on 4m or 7m
    assert xinyu("111156789m5p567s", None, caishen="5p")["shanten"] == 0
    strict = hand_request("xinyu", {"caishen": "5p", "house": {"wild_fifth_copy": False}}, "111156789m5p567s", None)
    assert score(strict)["shanten"] == 1


# --------------------------------------------------------------------------- the discard table


def test_the_discard_table_lists_every_tile_best_first():
    # 123456789m 11p 23s and a red dragon drawn: not a win
    result = bazhi("123456789m11p23s", "C")
    assert result["code"] == "incomplete"
    table = result["discards"]
    assert [row["tile"] for row in table] == [
        "C", "2s", "3s", "1m", "9m", "4m", "6m", "1p", "2m", "3m", "5m", "7m", "8m"
    ]  # fmt: skip
    # C out: ready on 1s or 4s, 4 + 4 unseen
    assert table[0] == {"tile": "C", "shanten": 0, "improving": 8}
    # 2s out: 3s, 1s, 2s, 4s, 5s, C and 1p each make it ready: 3 + 4 + 3 + 4 + 4 + 3 + 2 unseen
    assert table[1] == {"tile": "2s", "shanten": 1, "improving": 23}


def test_at_zero_the_improving_tiles_are_the_unseen_waits():
    result = xinyu("11m22m33p44p55s66sE", "9m", caishen="5p", discarder="W")
    assert result["code"] == "incomplete"
    row = next(r for r in result["discards"] if r["tile"] == "9m")
    # 9m out: six pairs and 东, waiting on 东's mate or a 财神
    waiting = xinyu("11m22m33p44p55s66sE", None, caishen="5p")
    assert [w["tile"] for w in waiting["waits"]] == ["5p", "E"]
    assert row == {"tile": "9m", "shanten": 0, "improving": 4 + 3}  # four 财神 unseen, three 东


def test_each_row_is_the_shanten_of_the_tiles_left():
    result = bazhi("111m222p333s456sC", "9m")
    concealed = [tile.notation for tile in parse_tiles("111m222p333s456sC9m")]
    assert sorted(row["tile"] for row in result["discards"]) == sorted(set(concealed))
    for row in result["discards"]:
        left = list(concealed)
        left.remove(row["tile"])
        assert score(hand_request("bazhi", {}, "".join(left), None))["shanten"] == row["shanten"]


def test_a_win_carries_no_discard_table():
    assert "discards" not in bazhi("123456789p123sC", "C")


def test_the_waits_scored_in_a_waits_answer_carry_no_discard_table():
    result = bazhi("123456789p123sC", None)
    for wait in result["waits"]:
        assert "discards" not in wait["self_draw"] and "discards" not in wait["discard"]
