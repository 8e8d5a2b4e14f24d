"""xinyu (seed 000) rule by rule, with the exact numbers RULES.md §2 gives."""

from __future__ import annotations

import pytest

from calculator.engine.request import parse_request
from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.xinyu.payments import di_long
from calculator.engine.rulesets.xinyu.wilds import caishen_after, waits_of
from calculator.engine.tiles import Tile
from calculator.engine.waits import wait_kinds
from tests.engine.helpers import xinyu


def pung(tiles: str, feeder: str) -> dict:
    return {"type": "pung", "tiles": tiles, "from": feeder}


def chow(tiles: str) -> dict:
    return {"type": "chow", "tiles": tiles}


def kong(tiles: str) -> dict:
    return {"type": "kong_concealed", "tiles": tiles}


def codes(result: dict) -> list[str]:
    return [p["code"] for p in result["patterns"]]


PLAIN = "123m456m789sEEE2s"  # a plain standard hand waiting on 2s, no 财神 (5p)


# ---------------------------------------------------------------- 财神 (§2.1)


@pytest.mark.parametrize(
    ("indicator", "caishen"),
    [("4p", "5p"), ("9m", "1m"), ("9s", "1s"), ("E", "S"), ("N", "E"), ("C", "F"), ("F", "P"), ("P", "C")],
)
def test_caishen_is_the_tile_after_the_indicator_with_wrap_around(indicator, caishen):
    assert caishen_after(Tile.from_str(indicator)) == Tile.from_str(caishen)


def test_no_caishen_counts_as_two_long():
    result = xinyu(PLAIN, "2s", discarder="W")
    assert (result["caishen_count"], result["long"], result["unit"]) == (0, 2, 13)


def test_each_caishen_is_one_long():
    result = xinyu("123m456m789sEEE5p", "2s", discarder="W")
    assert (result["caishen_count"], result["long"], result["unit"]) == (1, 1, 12)


def test_caishen_may_stand_for_its_own_kind():
    result = xinyu("123m456m789s34pEE", "5p", discarder="W")
    assert result["win"] and result["caishen_count"] == 1


def test_caishen_may_stand_for_a_fifth_copy():
    # 1111m plus a 财神 as a fifth 1m: 111m + 11m, so the hand is all triplets (大对对).
    result = xinyu("1111m999sEEESSS", "5p", discarder="W")
    assert result["win"] and codes(result) == ["daduidui"]
    assert result["long"] == 2  # 1 + 1
    wild = [g for g in result["decomposition"] if g["caishen"]]
    assert wild == [{"type": "pair", "tiles": "11m", "caishen": ["1m"], "concealed": True, "win": True}]


def test_caishen_in_a_meld_is_an_error():
    result = xinyu("123m456m789sE2s", "2s", melds=[pung("555p", "N")], discarder="W")
    assert result["error"]["code"] == "caishen_in_meld"


# ---------------------------------------------------------------- legal wins (§2.2)


def test_standard_win_with_chows_from_the_previous_player():
    result = xinyu("456m789sEEE2s", "2s", melds=[chow("123m")], discarder="W")
    assert result["win"] and result["long"] == 2


def test_incomplete_hand_is_not_a_win():
    result = xinyu(PLAIN, "9p", discarder="W")
    assert (result["win"], result["code"]) == (False, "incomplete")
    assert "不成和牌" in result["message"]
    english = xinyu(PLAIN, "9p", discarder="W", lang="en")["message"]
    assert english.startswith("Not a complete hand: ")  # as bazhi's; the pages say "Not a win" above it, not twice


def test_seven_pairs_count_four_alike_as_two_pairs():
    result = xinyu("1111m3344p5566s7s", "7s", discarder="W")
    assert codes(result) == ["qidui"]
    assert (result["long"], result["unit"]) == (3, 14)
    assert result["net"] == {"E": -7, "S": 28, "W": -14, "N": -7}


def test_seven_pairs_with_caishen_filling_odd_tiles():
    result = xinyu("1122m3344p5566s7s", "5p", discarder="W")  # case X8
    assert codes(result) == ["qidui"] and result["long"] == 2


def test_shisanbuda():
    result = xinyu("147m258p369sESWN", "C", caishen="5m", discarder="W")
    assert codes(result) == ["shisanbuda"]
    assert result["long"] == 3  # 2 + 1


def test_shisanbuda_needs_ranks_three_apart():
    result = xinyu("257m258p369sESWN", "C", caishen="5s", discarder="W")
    assert result["code"] == "incomplete"


def test_shisanbuda_caishen_fill_any_gap_and_may_repeat():
    # 5p is the 财神: two of them stand in for the missing tiles of a 十三不搭.
    result = xinyu("147m28p369sESWN5p", "5p", discarder="W")
    assert "shisanbuda" in codes(result) and result["caishen_count"] == 2


def test_qifengqi_with_all_seven_natural_honours():
    result = xinyu("ESWNCFP147p258s", "3m", caishen="1m", winner="N", discarder="E")  # case X4
    assert codes(result) == ["shisanbuda", "qifengqi"] and result["long"] == 4


def test_qifengqi_is_impossible_when_the_caishen_is_an_honour():
    # P is the 财神: the 白 in hand is wild, so the seven honours are not all natural.
    result = xinyu("147m258pESWNCFP", "3s", caishen="P", discarder="W")
    assert codes(result) == ["shisanbuda"]
    assert result["long"] == 2  # 1 财神 + 1


def test_silong_self_draw_needs_no_shape():
    result = xinyu("EEEE159m26p379sC", "S", caishen="E")  # case X5
    assert codes(result) == ["silong"] and result["long"] == 14 and result["unit"] == 25


def test_silong_by_discard_without_shape_is_not_a_win():
    result = xinyu("EEEE159m26p379sC", "S", caishen="E", discarder="W")
    assert (result["win"], result["code"]) == (False, "silong_discard")
    assert "4龙只能自摸" in result["message"]


def test_silong_by_discard_with_a_shape_is_an_ordinary_win():
    result = xinyu("123m456m789s1s555p", "5p", discarder="W")
    assert result["win"] and codes(result) == [] and result["long"] == 4


def test_silong_with_a_shape_is_one_entry_worth_twenty():
    result = xinyu("123m456m789s1s555p", "5p")  # case X11
    assert result["patterns"] == [{"code": "silong", "long": 20, "label": "4龙"}]
    assert result["long"] == 24


def test_quanfeng_needs_no_shape():
    result = xinyu("ESWNCFPESWNCF", "E", discarder="W")
    assert codes(result) == ["quanfeng"] and result["long"] == 52
    assert result["quanjiao"] is False
    assert result["net"] == {"E": -32, "S": 127, "W": -63, "N": -32}


def test_quanfeng_with_a_shape_is_quanjiao():
    result = xinyu("EEESSSWWWCCCN", "N", caishen="5m", winner="N", discarder="W")  # case X6
    assert codes(result) == ["daduidui", "quanfeng"] and result["long"] == 53
    assert result["quanjiao"] is True
    assert "quanjiao" in [label["code"] for label in result["labels"]]


def test_quanfeng_caishen_stands_for_an_honour():
    result = xinyu("EEESSSWWWCCC5m", "N", caishen="5m", discarder="W")
    assert codes(result) == ["daduidui", "quanfeng"] and result["long"] == 52  # 1 + 1 + 50


# ---------------------------------------------------------------- 龙 bonuses (§2.3)


def test_hunyise():
    result = xinyu("123m456m789mEEES", "S")
    assert codes(result) == ["hunyise"]
    assert (result["long"], result["unit"]) == (3, 14)
    assert result["net"] == {"E": -14, "S": 42, "W": -14, "N": -14}


def test_hunyise_counts_the_melds():
    result = xinyu("456m789mEEES", "S", melds=[pung("111p", "N")])
    assert "hunyise" not in codes(result)


def test_daduidui():
    result = xinyu("111m444p777sEEES", "S", discarder="W")
    assert codes(result) == ["daduidui"] and result["long"] == 3


def test_daduidui_is_chosen_over_a_sequence_reading():
    result = xinyu("111222333mEEES", "S", discarder="W")
    assert codes(result) == ["hunyise", "daduidui"] and result["long"] == 4


def test_qingyise():
    result = xinyu("1112345678999m", "5m", discarder="W")
    assert codes(result) == ["qingyise"]
    assert (result["long"], result["unit"]) == (12, 23)
    assert result["net"] == {"E": -12, "S": 47, "W": -23, "N": -12}


def test_caishen_counts_as_the_suit_it_stands_for_in_qingyise():
    result = xinyu("123m456m789m111m5p", "5p", discarder="W")
    assert codes(result) == ["qingyise"] and result["long"] == 12  # 2 财神 + 10


def test_qingyise_with_two_caishen_for_dealer_streak_two():
    result = xinyu("12345678921p99m", "1p", caishen="9m", winner="E", streak=2)  # case X3
    assert (result["long"], result["di_long"], result["unit"]) == (12, 21, 33)
    assert result["net"] == {"E": 99, "S": -33, "W": -33, "N": -33}


def test_qingqidui_replaces_qidui_and_qingyise():
    result = xinyu("1122334455779m", "9m", discarder="W")  # not a standard shape: only seven pairs
    assert codes(result) == ["qingqidui"]
    assert result["long"] == 12


def test_tianhu():
    result = xinyu(PLAIN, "2s", winner="E", flags=["heavenly"])
    assert codes(result) == ["tianhu"] and result["long"] == 12
    assert result["net"] == {"E": 69, "S": -23, "W": -23, "N": -23}


def test_dihu():
    result = xinyu(PLAIN, "2s", discarder="E", flags=["earthly"])
    assert codes(result) == ["dihu"] and result["long"] == 12
    assert result["net"] == {"E": -23, "S": 47, "W": -12, "N": -12}


def test_dihu_needs_the_dealer_as_discarder():
    result = xinyu(PLAIN, "2s", discarder="W", flags=["earthly"])
    assert result["error"]["code"] == "flag_conflict"


@pytest.mark.parametrize("win_tile", ["2s", None])
def test_tianhu_with_paolong_cannot_happen(win_tile):
    # RULES.md §4: 抛龙 passes an earlier self-drawn win, so the hand is no longer the dealt one: no 天胡 (a 13-tile
    # hand's waits too: the conflict does not depend on the discarder).
    result = xinyu(PLAIN, win_tile, winner="E", flags=["heavenly", "pao_long"], lang="en")
    assert result["error"] == {
        "code": "flag_conflict",
        "message": "Heavenly hand: not together with a passed self-draw",
        "field": "flags",
    }


def test_gangbao_counts_once_even_for_double_kong_bloom():
    result = xinyu("123m456m2s", "2s", melds=[kong("7777s"), kong("9999p")], flags=["kong_bloom", "double_kong_bloom"])
    assert codes(result) == ["gangbao"] and result["long"] == 12


def test_haidi():
    result = xinyu(PLAIN, "2s", flags=["last_tile"])
    assert codes(result) == ["haidi"] and result["long"] == 12


def test_paolong():
    result = xinyu(PLAIN, "2s", flags=["pao_long"])
    assert codes(result) == ["paolong"] and result["long"] == 12


def test_dandiao_after_four_melds():
    melds = [chow("123m"), pung("555s", "S"), pung("777s", "N"), chow("345s")]
    result = xinyu("9p", "9p", melds=melds, winner="E", discarder="W")  # case X10
    assert codes(result) == ["dandiao"] and result["long"] == 12
    assert result["net"] == {"E": 47, "S": -12, "W": -23, "N": -12}


def test_dandiao_on_a_caishen():
    melds = [chow("123m"), pung("666s", "S"), pung("777s", "N"), chow("345s")]
    result = xinyu("5p", "9p", melds=melds, winner="E", discarder="W")
    assert codes(result) == ["dandiao"] and result["long"] == 11  # 1 财神 + 10


def test_dandiao_needs_four_melds():
    result = xinyu("456m789sEEE2s", "2s", melds=[chow("123m")], discarder="W")
    assert "dandiao" not in codes(result)


def test_bonuses_add_up():
    # 清一色 + 大对对 + 天胡 on a hand without 财神: 2 + 10 + 1 + 10.
    result = xinyu("111222333444m5m", "5m", winner="E", flags=["heavenly"])
    assert set(codes(result)) == {"qingyise", "daduidui", "tianhu"}
    assert result["long"] == 23


def test_shunhu_is_a_label_not_a_pattern():
    result = xinyu(PLAIN, "2s", discarder="W")
    assert result["patterns"] == []
    assert [label["code"] for label in result["labels"]] == ["shunhu"]


# ---------------------------------------------------------------- payments (§2.4)


@pytest.mark.parametrize(("streak", "expected"), [(1, 11), (2, 21), (3, 31), (10, 101), (100, 1001), (1000, 10001)])
def test_di_long_grows_ten_per_dealer_streak(streak, expected):
    assert di_long(streak) == expected
    assert xinyu(PLAIN, "2s", streak=streak)["di_long"] == expected


@pytest.mark.parametrize("streak", [0, 1001, True, "2"])
def test_a_dealer_streak_is_a_whole_number_from_1_to_1000(streak):
    # API.md: a table of 1,000 hands can hold a streak that long; outside, bad_option on the field.
    assert xinyu(PLAIN, "2s", streak=streak)["error"]["field"] == "options.dealer_streak"


def test_self_draw_each_of_three_pays_p():
    result = xinyu(PLAIN, "2s")
    assert [(p["from"], p["amount"], p["code"]) for p in result["payments"]] == [
        ("W", 13, "zimo"),
        ("N", 13, "zimo"),
        ("E", 13, "zimo"),
    ]
    assert result["net_by_part"] == {"long": {"E": -13, "S": 39, "W": -13, "N": -13}}


def test_discard_others_pay_half_rounded_half_up():
    result = xinyu(PLAIN, "2s", discarder="W")  # P = 13: 13 / 7 / 7
    assert [(p["from"], p["amount"], p["code"]) for p in result["payments"]] == [
        ("W", 13, "fangchong"),
        ("N", 7, "half"),
        ("E", 7, "half"),
    ]


def test_discard_even_unit_halves_exactly():
    result = xinyu("123m456m789sEEE5p", "2s", discarder="W")  # P = 12: 12 / 6 / 6
    assert result["net"] == {"E": -6, "S": 24, "W": -12, "N": -6}


def test_robbing_kong_the_robbed_player_pays_for_all():
    result = xinyu("123m456m789sEEE5p", "2s", winner="W", discarder="S", flags=["robbing_kong"])  # case X7
    assert result["net"] == {"E": 0, "S": -24, "W": 24, "N": 0}
    assert result["bao"] == "S" and result["bao_reason"] == "qianggang"
    assert [(p["from"], p["amount"], p["code"], p.get("on_behalf_of")) for p in result["payments"]] == [
        ("S", 12, "fangchong", None),
        ("S", 6, "duijiao", "N"),
        ("S", 6, "duijiao", "E"),
    ]


def test_robbing_a_kong_of_the_caishen_kind_cannot_happen():
    """RULES.md §2.1: no meld holds the 财神 kind, so nobody adds a fourth 财神 to a pung (补杠) and no 抢杠胡 is won
    on one; §4: a situation that cannot happen at a table is flag_conflict."""
    result = xinyu("123m456m789sEE13s", "5p", winner="S", discarder="W", flags=["robbing_kong"], lang="en")
    assert result["error"] == {
        "code": "flag_conflict",
        "message": "Robbing a kong: a 财神 is never melded, so there is no kong of it to rob",
        "field": "flags",
    }
    assert xinyu("123m456m789sEE13s", "5p", winner="S", discarder="W")["win"] is True  # the same win by a discard


def test_a_waits_answer_robbing_a_kong_has_no_discard_way_on_the_caishen():
    """抢杠胡 set on 13 tiles: each wait's discard way robs a kong, and the 财神's cannot (the self-draw drops the
    flag: API.md); the other waits are robbed kongs as before."""
    result = xinyu("123m456m789sEE13s", None, winner="S", flags=["robbing_kong"])
    by_tile = {wait["tile"]: wait for wait in result["waits"]}
    assert by_tile["5p"]["discard"] is None and by_tile["5p"]["self_draw"]["win"] is True
    assert by_tile["5p"]["why_not"]["discard"]["code"] == "flag_conflict"
    assert by_tile["2s"]["discard"]["bao_reason"] == "qianggang"


def test_liable_caishen_discarder_pays_p_plus_two_halves():
    result = xinyu(PLAIN, "2s", discarder="W", flags=["liable_caishen"])  # 13 + 7 + 7
    assert result["net"] == {"E": 0, "S": 27, "W": -27, "N": 0}
    assert result["bao"] == "W" and result["bao_reason"] == "baopai"
    assert {p["code"] for p in result["payments"]} == {"fangchong", "baopai"}


def test_liable_caishen_while_the_winner_holds_all_four_caishen_cannot_happen():
    """RULES.md §4: four 财神 (5p) in the concealed part, one of them the claimed tile: the discarder kept none."""
    result = xinyu("555p123m456s78s99m", "5p", discarder="W", flags=["liable_caishen"], lang="en")
    assert result["error"] == {
        "code": "flag_conflict",
        "message": "Liable discard (bao pai): the winner holds all four 财神: the discarder held none, so it is no "
        "liable discard",
        "field": "flags",
    }


def test_liable_caishen_with_three_caishen_held_is_paid_by_the_discarder():
    """Three 财神 (5p) and the win on 9m: 3 龙, P 14, the discarder pays 14 + 7 + 7 = 28."""
    result = xinyu("555p123m456s78s99m", "9m", discarder="W", flags=["liable_caishen"])
    assert (result["long"], result["unit"], result["bao"]) == (3, 14, "W")
    assert result["net"] == {"E": 0, "S": 28, "W": -28, "N": 0}


def test_four_caishen_in_a_waiting_hand_leave_no_liable_discard():
    """13 tiles holding all four 财神 with liable_caishen: every discard win would hold them (the waits too)."""
    result = xinyu("5555p123m456s78s9m", None, discarder="W", flags=["liable_caishen"])
    assert result["error"]["code"] == "flag_conflict"


def test_no_dealer_extra_in_xinyu():
    result = xinyu(PLAIN, "2s", winner="E", dealer="E", discarder="W")
    assert result["net"] == {"E": 27, "S": -7, "W": -13, "N": -7}


def test_explanation_shows_l_bonuses_di_long_and_p():
    result = xinyu("1112345678999m", "5m", discarder="W")
    lines = {line["code"]: line for line in result["explanation"]}
    assert lines["long_tiles"]["value"] == 2 and "无龙算2龙" in lines["long_tiles"]["detail"]
    assert lines["long_bonus"]["value"] == 10
    assert lines["di_long"]["detail"] == "11 + 10 × (1 − 1) = 11"
    assert lines["unit"]["detail"] == "11 + 12 = 23"


def test_english_labels():
    result = xinyu("1112345678999m", "5m", discarder="W", lang="en")
    assert result["patterns"][0]["label"] == "Pure one suit"
    assert result["payments"][0]["reason"].startswith("discarder")


# ---------------------------------------------------------------- waits


def _search(request):
    ruleset = RULESETS["xinyu"]
    exhausted = request.kinds_exhausted()
    return [
        i
        for i in range(34)
        if i not in exhausted
        and (ruleset.is_win(request.with_win(Tile(i), None)) or ruleset.is_win(request.with_win(Tile(i), "_")))
    ]


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("123m456m789sEEE2s", []),
        ("1122m3344p5566s7s", []),
        ("147m258p369sESWN", []),
        ("1112345678999m", []),
        ("555p123m456m78s99s", []),
        ("ESWNCFPESWNCF", []),
        ("456m789sEEE2s", [chow("123m")]),
        ("9p", [chow("123m"), pung("555s", "S"), pung("777s", "N"), chow("345s")]),
        ("5p", [chow("123m"), pung("666s", "S"), pung("777s", "N"), chow("345s")]),
    ],
)
def test_fast_waits_agree_with_the_definition(hand, melds):
    data = {
        "ruleset": "xinyu",
        "options": {"caishen": "5p"},
        "hand": hand,
        "melds": melds,
        "winner": "E",
        "dealer": "E",
    }
    request = parse_request(data)
    assert waits_of(request) == _search(request)
    assert [t.index for t in wait_kinds(RULESETS["xinyu"], request)] == _search(request)


def test_four_caishen_wait_on_every_kind_left():
    request = parse_request(
        {"ruleset": "xinyu", "options": {"caishen": "5p"}, "hand": "5555p1234m1234s9s", "winner": "E", "dealer": "E"}
    )
    assert len(waits_of(request)) == 33  # every kind but the 财神 kind, held four times


def test_waits_mode_scores_each_wait():
    result = xinyu("123m456m789sEEE3s", None)
    assert [w["tile"] for w in result["waits"]] == ["5p", "3s"]  # the 财神, and 3s for the pair
    assert result["waits"][0]["discard"]["unit"] == 12  # won on the 财神: 1 龙
    assert result["waits"][1]["self_draw"]["net"]["E"] == -13  # won on 3s: 无龙算2龙
