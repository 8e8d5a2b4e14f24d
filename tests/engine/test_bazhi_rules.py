"""bazhi (seed 002) rule by rule, with the exact numbers RULES.md §1 gives."""

from __future__ import annotations

from calculator.engine.payments import round_half_up
from tests.engine.helpers import bazhi, kong, pung

B1_HAND = "111345789p79m55s"


# ---------------------------------------------------------------- legal win (§1.1)


def test_bazhi_needs_a_suit_of_eight():
    result = bazhi("123456m123456p7s", "7s", discarder="W")
    assert (result["win"], result["code"]) == (False, "no_bazhi")
    assert result["message"] == "不够八支：万 6，筒 6，条 2"
    assert result["suit_counts"] == {"m": 6, "p": 6, "s": 2}


def test_incomplete_shape_is_reported_before_bazhi():
    result = bazhi("123456m123456p7s", "8s", discarder="W")
    assert result["code"] == "incomplete"


def test_kong_counts_four_toward_bazhi():
    # Two 万 kongs are eight 万: a win. The same hand with two 万 pungs has six: not 八支.
    kongs = bazhi("23455p99s", "5p", melds=[kong("1111m"), kong("9999m", "N")], discarder="W")
    assert (kongs["win"], kongs["zhi_count"]) == (True, 8)
    pungs = bazhi("23455p99s", "5p", melds=[pung("111m", "N"), pung("999m", "N")], discarder="W")
    assert (pungs["win"], pungs["code"]) == (False, "no_bazhi")


# ---------------------------------------------------------------- 压档 and 单吊 (§1.2)


def test_yadang_is_the_rank_of_a_unique_middle_wait():
    result = bazhi("111345789p46m55s", "5m", discarder="W")
    assert result["yadang"] == 5
    assert result["zhi_fan"] == 3  # (9 + 5) × 2 ÷ 10 = 2.8 → 3
    assert result["di_fan"] == 2


def test_edge_wait_is_not_yadang():
    result = bazhi("111345789p89m55s", "7m", discarder="W")
    assert result["yadang"] is None
    assert result["zhi_fan"] == 2  # 9 × 2 ÷ 10 = 1.8 → 2
    assert result["di_fan"] == 1
    assert result["fan"] == 3


def test_yadang_needs_unique_wait():
    # 3466p waits on 2p and 5p: the 5p is a middle tile but not the only wait (case B3).
    result = bazhi(
        "3466p", "5p", melds=[pung("111p", "W"), pung("999p", "W"), pung("555p", "W")], winner="N", discarder="S"
    )
    assert result["waits_before_win"] == ["2p", "5p"]
    assert result["yadang"] is None


def test_dandiao_needs_unique_wait():
    result = bazhi("111345789p789m5s", "5s", discarder="W")
    assert result["dandiao"] is True
    shared_wait = bazhi("111345789p6789m", "6m", discarder="W")  # waits 6m and 9m
    assert shared_wait["dandiao"] is False


# ---------------------------------------------------------------- 番 (§1.3, §1.4)


def test_zhi_fan_315_and_525_round_half_up():
    assert round_half_up(17 * 2, 10) == 3  # 3.4 → 3
    assert round_half_up(17, 2) == 9  # 8.5 → 9
    assert round_half_up(13, 2) == 7  # 6.5 → 7, never banker's 6


def test_discard_win_dealer_and_discarder_each_pay_one_more_di_fan():
    result = bazhi(B1_HAND, "8m", discarder="W")
    assert result["fan"] == 5
    assert result["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_dealer_who_discards_pays_both_extras():
    result = bazhi(B1_HAND, "8m", discarder="E")
    assert result["net"] == {"E": -9, "S": 19, "W": -5, "N": -5}


def test_self_draw_doubles_zhi_and_zui_and_uses_zimo_di_fan():
    result = bazhi(B1_HAND, "8m")
    assert result["di_fan"] == 4  # 自摸压档
    assert result["fan"] == 10  # (3 + 0) × 2 + 4
    assert result["net"] == {"E": -14, "S": 34, "W": -10, "N": -10}


def test_kong_points_are_the_winners_own_kongs_525():
    result = bazhi(
        "2345678p", "8p", melds=[kong("1111m"), kong("9999m", "S")], winner="E", dealer="E", discarder="W", tariff="525"
    )
    assert result["kong_points"] == 6  # 暗杠 4 + 明杠 2


def test_last_tile_is_a_label_only():
    plain = bazhi(B1_HAND, "8m")
    haidi = bazhi(B1_HAND, "8m", flags=["last_tile"])
    assert haidi["net"] == plain["net"]
    assert [label["code"] for label in haidi["labels"]] == ["haidi"]


def test_robbing_a_kong_is_paid_as_a_discard_by_the_robbed_player():
    result = bazhi(B1_HAND, "8m", discarder="W", flags=["robbing_kong"])
    assert result["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


# ---------------------------------------------------------------- 交 (§1.5)


def test_ganghua_dandiao_is_a_special_jiao():
    result = bazhi("234567p999p5s", "5s", melds=[kong("1111p")], flags=["kong_bloom"])
    assert result["dandiao"] is True
    assert result["zui"] == ["ganghua"]
    assert result["fan"] == 15  # (3 + 1 × 2) × 2 + 3 + 2
    assert result["jiao"]["triggers"] == ["ganghua_dandiao"]
    assert (result["jiao"]["extra_zui"], result["jiao"]["per_loser"]) == (0, 30)
    assert result["net"] == {"E": -48, "S": 138, "W": -45, "N": -45}


def test_gangshang_ganghua_is_a_special_jiao():
    result = bazhi("23456p55s", "7p", melds=[kong("1111p"), kong("9999p")], flags=["double_kong_bloom"])
    assert result["zui"] == ["ganghua"]
    assert result["fan"] == 17  # (3 + 2) × 2 + 3 + 2 + 2
    assert result["jiao"]["triggers"] == ["gangshang_ganghua"]
    assert result["net"] == {"E": -50, "S": 144, "W": -47, "N": -47}


def test_hunyise_with_self_draw_is_a_special_jiao():
    result = bazhi("12334567m999mCC", "8m")
    assert result["zui"] == ["hunyise"]
    assert result["fan"] == 11  # (2 + 2) × 2 + 3
    assert result["jiao"]["triggers"] == ["hunyise_zimo"]
    assert (result["jiao"]["extra_zui"], result["jiao"]["per_loser"]) == (0, 30)
    assert result["net"] == {"E": -44, "S": 126, "W": -41, "N": -41}


def test_shuangsihe_is_a_direct_jiao_that_uses_its_two_zui():
    result = bazhi("11112379999p55s", "8p", discarder="W")
    assert result["yadang"] == 8
    assert sorted(result["zui"]) == ["sihe", "sihe"]
    assert result["fan"] == 10  # 4 + 2 × 2 + 2
    assert sorted(result["jiao"]["triggers"]) == ["shuangsihe", "two_zui"]
    assert result["jiao"]["per_loser"] == 30
    assert result["net"] == {"E": -42, "S": 134, "W": -52, "N": -40}


def test_dihu_is_a_direct_jiao():
    result = bazhi(B1_HAND, "8m", discarder="W", flags=["earthly"])
    assert result["jiao"]["triggers"] == ["dihu"]
    assert result["net"] == {"E": -37, "S": 119, "W": -47, "N": -35}


def test_multi_jiao_counts_the_ganghua_special_once():
    # Case B7 with 可多交: 通天 + 杠后开花 with 压档: one 交 for the special, the 通天 嘴 left over.
    result = bazhi("12345679p88s", "8p", melds=[kong("2222s")], flags=["kong_bloom"], tariff="525", multi=True)
    assert (result["jiao"]["count"], result["jiao"]["extra_zui"], result["jiao"]["per_loser"]) == (1, 1, 70)


def test_jiao_is_kept_apart_from_fan():
    result = bazhi("2225558p", "8p", melds=[pung("111p", "E"), pung("999p", "W")])
    assert result["net_by_part"]["fan"] == {"E": -16, "S": 42, "W": -13, "N": -13}
    assert result["net_by_part"]["jiao"] == {"E": -50, "S": 150, "W": -50, "N": -50}


# ---------------------------------------------------------------- 包牌 (§1.6)


def test_bao_three_melds_same_feeder_pays_even_on_self_draw():
    result = bazhi(
        "3466p", "5p", melds=[pung("111p", "W"), pung("999p", "W"), pung("555p", "W")], winner="N", tariff="525"
    )
    assert result["bao"] == "W"
    assert result["fan"] == 30  # (7 + 5) × 2 + 6
    assert result["jiao"]["per_loser"] == 90  # 50 + 2 × 20
    assert result["net"] == {"E": 0, "S": 0, "W": -366, "N": 366}


def test_bao_three_melds_several_feeders_the_discarder_pays():
    result = bazhi(
        "6799s",
        "8s",
        melds=[pung("222s", "N"), pung("444s", "E"), pung("888s", "N")],
        winner="W",
        dealer="N",
        discarder="S",
    )
    assert result["bao"] == "S"
    assert result["bao_reason"] == "sandui_several_feeders"
    assert result["net"] == {"E": 0, "S": -150, "W": 150, "N": 0}


def test_bao_three_melds_several_feeders_none_on_self_draw():
    result = bazhi(
        "6799s", "8s", melds=[pung("222s", "N"), pung("444s", "E"), pung("888s", "N")], winner="W", dealer="N"
    )
    assert result["bao"] is None


def test_bao_shuangbazhi_alarm_the_discarder_pays():
    result = bazhi(
        "4555p",
        "6p",
        melds=[kong("1111m"), kong("9999m", "S"), pung("222p", "N")],
        winner="E",
        dealer="E",
        discarder="W",
    )
    assert result["jiao"]["triggers"] == ["shuangbazhi"]
    assert result["bao"] == "W"
    assert result["net"] == {"E": 122, "S": 0, "W": -122, "N": 0}


def test_bao_shuangsihe_alarm_needs_pungs_one_or_two_apart():
    result = bazhi(
        "1234678p", "4p", melds=[pung("333p", "N"), pung("555p", "E")], winner="W", dealer="E", discarder="S"
    )
    assert result["bao"] == "S"
    assert result["bao_reason"] == "shuangsihe"
    assert result["net"] == {"E": 0, "S": -150, "W": 150, "N": 0}


def test_bao_red_dragon_alarm_the_discarder_pays():
    result = bazhi("5558889m", "9m", melds=[pung("CCC", "N"), pung("222m", "W")], winner="E", dealer="E", discarder="S")
    assert result["bao"] == "S"
    assert result["bao_reason"] == "hunyise_dingzui"
    assert result["net"] == {"E": 125, "S": -125, "W": 0, "N": 0}


def test_no_bao_without_jiao():
    # 红中 pung + 万 pung is the 顶嘴子 alarm, but 混一色 alone by discard is not 交.
    result = bazhi("5558879m", "8m", melds=[pung("CCC", "N"), pung("222m", "E")], discarder="W")
    assert result["jiao"]["is_jiao"] is False
    assert result["bao"] is None


# ---------------------------------------------------------------- readings and explanations


def test_the_reading_that_pays_most_is_chosen_and_named():
    # 123456789p + 345p + 55p: 通天 + 四核 (通天四核) beats the plain reading (case B10).
    result = bazhi("12345678934p55p", "5p", discarder="W")
    assert sorted(result["zui"]) == ["sihe", "tongtian"]
    groups = [g["tiles"] for g in result["decomposition"]]
    assert {"123p", "456p", "789p"} <= set(groups)


def test_explanation_shows_the_zhi_fan_arithmetic():
    result = bazhi(B1_HAND, "8m", discarder="W")
    lines = {line["code"]: line for line in result["explanation"]}
    assert lines["zhi_fan"]["detail"].startswith("(9 + 压8) × 2 ÷ 10 = 3.4 → 3")
    assert lines["zhi_fan"]["value"] == 3
    assert lines["fan"]["detail"] == "(3 + 0 × 2) + 2 = 5"


def test_english_explanation():
    from calculator.engine import score

    result = score(
        {"ruleset": "bazhi", "hand": B1_HAND, "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}, "en"
    )
    lines = {line["code"]: line for line in result["explanation"]}
    assert lines["zhi_fan"]["label"] == "suit fan"
    assert "(9 + mid 8) × 2 ÷ 10 = 3.4 → 3" in lines["zhi_fan"]["detail"]


def test_a_middle_tile_with_more_than_one_wait_names_the_waits_as_the_line_names_tiles():
    """RULES.md §1.2: 压档 needs the middle tile to be the only wait. 555 46 789p CC + 2222p won on 5p waits on 5p
    and 红中: the Chinese line names them 五筒、红中 (as its other lines name a tile), not 5p C."""
    result = bazhi("55546789pCC", "5p", melds=[kong("2222p")], winner="N", dealer="N", discarder="S")
    (yadang,) = [line for line in result["explanation"] if line["code"] == "yadang"]
    assert (yadang["detail"], yadang["value"], result["yadang"]) == (
        "坎张，但听的不止一张（五筒、红中），不算压档",
        0,
        None,
    )


def test_a_sihe_names_its_tile_kind_by_name_in_chinese():
    """B3: the 嘴子 line named the 四核's kind in notation (四核 5p) where every Chinese line names a tile."""
    melds = [pung("111p", "W"), pung("999p", "W"), pung("555p", "W")]
    result = bazhi("3466p", "5p", tariff="525", melds=melds, winner="N", dealer="E", discarder="S")
    (zui,) = [line for line in result["explanation"] if line["code"] == "zui"]
    assert "四核（五筒）" in zui["detail"] and "5p" not in zui["detail"]
