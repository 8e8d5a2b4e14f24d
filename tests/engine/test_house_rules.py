"""House rules (RULES.md §5): the card in a request, each rule's other value with its exact numbers, and the
alternatives a referee shows when a table argues (§5.3). house.json (tests/cases) holds the worked cases."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from tests.engine.helpers import error_code, hand_request, pung
from tests.engine.test_properties import bazhi_requests
from tests.engine.test_xinyu_properties import xinyu_requests


def bazhi(hand: str, win: str, house: dict | None = None, **context) -> dict:
    return score({**hand_request("bazhi", {"tariff": "315", "house": house or {}}, hand, win, **context)})


def xinyu(hand: str, win: str, caishen: str, house: dict | None = None, **context) -> dict:
    options = {"caishen": caishen, "dealer_streak": context.pop("streak", 1), "house": house or {}}
    return score(hand_request("xinyu", options, hand, win, **context))


def with_alternatives(result_request: dict) -> dict:
    return score({**result_request, "alternatives": True})


# ----------------------------------------------------------------------------------------------- the card


def test_the_echo_holds_the_whole_card_with_the_defaults_filled_in():
    result = bazhi("111345789p79m55s", "8m", {"haidi": "zui"}, discarder="W")
    assert result["request"]["options"]["house"] == {
        "yadang_wait": "unique",
        "tongtian_sihe": True,
        "haidi": "zui",
        "qianggang": "as_discard",
        "bao_on": "jiao",
        "draw_dealer": "pass",
    }


def test_a_card_of_defaults_scores_as_no_card():
    for ruleset in RULESETS.values():
        card = {rule.id: rule.default for rule in ruleset.house}
        options = {"tariff": "315"} if ruleset.id == "bazhi" else {"caishen": "5p"}
        plain = hand_request(ruleset.id, options, "111345789p79m55s", "8m", discarder="W")
        carded = hand_request(ruleset.id, {**options, "house": card}, "111345789p79m55s", "8m", discarder="W")
        assert score(plain) == score(carded)


def test_an_unknown_house_rule_is_a_bad_option_naming_the_field():
    result = bazhi("111345789p79m55s", "8m", {"no_such_rule": True}, discarder="W")
    assert result["error"]["code"] == "bad_option" and result["error"]["field"] == "options.house.no_such_rule"


def test_a_house_rule_of_the_other_game_is_a_bad_option():
    result = bazhi("111345789p79m55s", "8m", {"dilong": "dealer_only"}, discarder="W")
    assert error_code(result) == "bad_option"


def test_a_boolean_house_rule_written_as_a_string_is_a_bad_option():
    result = xinyu("123m456m789sEEE2s", "2s", "5p", {"wild_fifth_copy": "false"}, discarder="W")
    assert result["error"]["field"] == "options.house.wild_fifth_copy"


def test_alternatives_must_be_a_boolean():
    request = hand_request("bazhi", {}, "111345789p79m55s", "8m", discarder="W")
    assert error_code(score({**request, "alternatives": "yes"})) == "bad_json"


def test_waits_mode_ignores_alternatives():
    request = hand_request("bazhi", {}, "111345789p79m55s", None, discarder="W")
    assert "alternatives" not in score({**request, "alternatives": True})


# ----------------------------------------------------------------------------------------------- bazhi (§5.1)


def test_dandiao_still_needs_a_unique_wait_when_yadang_does_not():
    """123456789p 2345m waits on 2m and 5m: won on 5m the pair is completed, but the wait is not unique."""
    for card in ({}, {"yadang_wait": "any"}):
        result = bazhi("123456789p2345m", "5m", card, discarder="W")
        assert result["dandiao"] is False and result["yadang"] is None
    assert with_alternatives(hand_request("bazhi", {}, "123456789p2345m", "5m", discarder="W"))["alternatives"] == []


def test_haidi_as_a_zui_is_no_label_any_more():
    default = bazhi("111345789p79m55s", "8m", flags=["last_tile"])
    zui = bazhi("111345789p79m55s", "8m", {"haidi": "zui"}, flags=["last_tile"])
    assert [label["code"] for label in default["labels"]] == ["haidi"]
    assert zui["labels"] == [] and zui["zui"] == ["haidi"]


def test_haidi_as_a_zui_makes_no_special_jiao_with_yadang():
    """压档 8 + 海底: one 嘴, no 交 (海底 is no partner of a special 交)."""
    result = bazhi("111345789p79m55s", "8m", {"haidi": "zui"}, flags=["last_tile"])
    assert result["yadang"] == 8 and result["jiao"]["is_jiao"] is False
    assert result["net"] == {"E": -18, "S": 46, "W": -14, "N": -14}


SANDUI = [pung("111p", "W"), pung("555p", "W"), pung("999p", "W")]


def test_robbed_pays_all_on_a_plain_robbed_kong():
    """Three p pungs fed by W, 23m + 77s, robbing N's kong of 4m: no 交, so the robbed seat pays all (11)."""
    card = {"qianggang": "robbed_pays_all"}
    result = bazhi("23m77s", "4m", card, melds=SANDUI, discarder="N", flags=["robbing_kong"])
    assert result["bao"] == "N" and result["bao_reason"] == "qianggang"
    assert result["net"] == {"E": 0, "S": 11, "W": 0, "N": -11}


def test_the_bao_table_names_its_payer_before_the_robbed_seat():
    """The same hand under bao_on=any_win: three pungs fed by W make W pay, not the robbed N."""
    card = {"qianggang": "robbed_pays_all", "bao_on": "any_win"}
    result = bazhi("23m77s", "4m", card, melds=SANDUI, discarder="N", flags=["robbing_kong"])
    assert result["bao"] == "W" and result["bao_reason"] == "sandui_same_feeder"
    assert result["net"] == {"E": 0, "S": 11, "W": -11, "N": 0}


def test_robbing_a_kong_of_a_tile_the_winner_holds_is_a_conflict():
    """RULES.md §4: the robbed player held the other three copies and the fourth."""
    result = bazhi("111345789p79m88s", "8s", discarder="N", flags=["robbing_kong"])
    assert error_code(result) == "flag_conflict"


# ----------------------------------------------------------------------------------------------- xinyu (§5.2)


def test_no_fifth_copy_counts_the_winners_melds():
    """A pung of 1m, a natural 1m and a 财神 (C) standing for 1m: five copies, not a win under false."""
    hand = "1m234p567p78sC"
    default = xinyu(hand, "9s", "C", melds=[pung("111m", "W")], discarder="N")
    capped = xinyu(hand, "9s", "C", {"wild_fifth_copy": False}, melds=[pung("111m", "W")], discarder="N")
    assert default["win"] is True and default["net"] == {"E": -6, "S": 24, "W": -6, "N": -12}
    assert capped["win"] is False and capped["code"] == "incomplete"


def test_the_capped_card_keeps_a_win_whose_caishen_makes_no_fifth_copy():
    """111m 23m + 财神 (C) as 1m (a fourth copy) or 4m: a win under false too."""
    result = xinyu("111m23m234p567pEC", "E", "C", {"wild_fifth_copy": False}, discarder="N")
    assert result["win"] is True


def test_qifengqi_never_uses_a_caishen_that_is_an_honour():
    """十三不搭 with six natural honours and the 财神 (F) an honour: no 七风齐, whatever the card."""
    result = xinyu("ESWNCP147p258s3m", "F", "F", {"qifengqi_wild": True}, discarder="E", winner="N")
    assert [p["code"] for p in result["patterns"]] == ["shisanbuda"]


def test_dilong_dealer_only_keeps_the_streak_when_the_dealer_wins():
    """二老庄 E wins: 底龙 21 on either card."""
    for card in ({}, {"dilong": "dealer_only"}):
        result = xinyu("123m456m789sEEE2s", "2s", "5p", card, streak=2, winner="E", discarder="W")
        assert result["di_long"] == 21


HUNYISE_WITHOUT_CAISHEN = "123m456m789m11mEE"  # won on E by W's discard, 财神 P (none held): HX9
PLAIN_WITHOUT_CAISHEN = "123m456p789s11mEE"  # the same, no pattern: HX10


def test_wulong_tiles_counts_two_long_for_a_hand_without_caishen():
    """RULES.md §2.1: 无龙算2龙 read as "no 财神": 2 + 混一色 1 = 3 龙, P 14 (14 / 7 / 7)."""
    result = xinyu(HUNYISE_WITHOUT_CAISHEN, "E", "P", discarder="W")
    assert (result["long_from_tiles"], result["long"], result["unit"]) == (2, 3, 14)
    assert result["net"] == {"E": -7, "S": 28, "W": -14, "N": -7}


def test_wulong_total_counts_no_tiles_long_beside_a_bonus():
    """§5.2 wulong=total: no 龙 at all; 混一色 gives one, so L = 0: 1 龙, P 12 (the seed's 1龙打胡 12 / 6 / 6)."""
    result = xinyu(HUNYISE_WITHOUT_CAISHEN, "E", "P", {"wulong": "total"}, discarder="W")
    assert (result["long_from_tiles"], result["long"], result["unit"]) == (0, 1, 12)
    assert result["net"] == {"E": -6, "S": 24, "W": -12, "N": -6}


def test_wulong_total_keeps_two_long_for_a_plain_win():
    """No 财神 and no bonus: 无龙 under either reading, 2 龙, P 13 (13 / 7 / 7)."""
    result = xinyu(PLAIN_WITHOUT_CAISHEN, "E", "P", {"wulong": "total"}, discarder="W")
    assert (result["long_from_tiles"], result["long"], result["unit"]) == (2, 2, 13)
    assert result["net"] == {"E": -7, "S": 27, "W": -13, "N": -7}


def test_wulong_total_counts_a_flag_bonus_as_long():
    """海底捞月 (+10) is an entry worth more than 0: by self-draw 10 龙, P 21 (63), not 12 龙, P 23 (69)."""
    default = xinyu(PLAIN_WITHOUT_CAISHEN, "E", "P", flags=["last_tile"])
    total = xinyu(PLAIN_WITHOUT_CAISHEN, "E", "P", {"wulong": "total"}, flags=["last_tile"])
    assert (default["long"], default["net"]["S"]) == (12, 69)
    assert (total["long"], total["unit"], total["net"]) == (10, 21, {"E": -21, "S": 63, "W": -21, "N": -21})


def test_wulong_total_still_takes_the_best_paying_reading():
    """HX12: 111222333m as 大对对 is 1 龙 under total, as three 123m 2 龙: the sequences pay more (P 13)."""
    default = xinyu("111222333m444p9s", "9s", "P", discarder="W")
    total = xinyu("111222333m444p9s", "9s", "P", {"wulong": "total"}, discarder="W")
    assert ([p["code"] for p in default["patterns"]], default["unit"]) == (["daduidui"], 14)
    assert (total["patterns"], total["long"], total["unit"]) == ([], 2, 13)
    assert total["net"] == {"E": -7, "S": 27, "W": -13, "N": -7}


def test_wulong_does_not_touch_a_hand_with_a_caishen():
    """One 财神 (5p) standing for E: L = 1 + 混一色 1 on either card; no alternative is listed."""
    result = with_alternatives(
        hand_request("xinyu", {"caishen": "5p", "house": {"wulong": "total"}}, "123m456m789m11mE5p", "E", discarder="W")
    )
    assert (result["long_from_tiles"], result["long"], result["unit"]) == (1, 2, 13)
    assert result["alternatives"] == []


def test_wulong_total_says_why_the_tiles_give_no_long():
    result = xinyu(HUNYISE_WITHOUT_CAISHEN, "E", "P", {"wulong": "total"}, discarder="W")
    tiles_line = result["explanation"][0]
    assert (tiles_line["code"], tiles_line["value"], tiles_line["rule"]) == ("long_tiles", 0, "§5.2")
    assert "无龙指没有任何龙" in tiles_line["detail"]


FOUR_CAISHEN_WITH_SHAPE = "5555p123m456s78s9m"  # 财神 5p, won on 9m: 123m 456s 78s+财神 99m+财神 and 财神 × 2: HX11


def test_silong_discard_none_scores_four_caishen_by_discard_as_an_ordinary_win():
    """§2.2 (4): by discard with a legal shape, no 4龙 bonus: 4 龙 from tiles, P 15 (15 / 8 / 8)."""
    result = xinyu(FOUR_CAISHEN_WITH_SHAPE, "9m", "5p", discarder="W")
    assert (result["patterns"], result["long"], result["unit"]) == ([], 4, 15)
    assert result["net"] == {"E": -8, "S": 31, "W": -15, "N": -8}


def test_silong_discard_with_shape_adds_the_silong_entry_worth_twenty():
    """§5.2 silong_discard=with_shape: 4 + 4龙 20 = 24 龙, P 35, paid as a discard win (35 / 18 / 18)."""
    result = xinyu(FOUR_CAISHEN_WITH_SHAPE, "9m", "5p", {"silong_discard": "with_shape"}, discarder="W")
    assert ([(p["code"], p["long"]) for p in result["patterns"]], result["long"], result["unit"]) == (
        [("silong", 20)],
        24,
        35,
    )
    assert result["net"] == {"E": -18, "S": 71, "W": -35, "N": -18}
    line = next(line for line in result["explanation"] if line["code"] == "long_bonus")
    assert (line["value"], line["rule"]) == (20, "§5.2") and "放铳" in line["detail"]


def test_silong_discard_with_shape_leaves_a_shapeless_four_caishen_a_self_draw_win():
    """Four 财神 and 12m 7m 2p 8p 3s 9s E S W: no shape; on N's discard not a win under either value."""
    for card in ({}, {"silong_discard": "with_shape"}):
        result = xinyu("5555p12m7m2p8p3s9sES", "W", "5p", card, discarder="N")
        assert (result["win"], result["code"]) == (False, "silong_discard")


def test_silong_discard_does_not_change_a_self_draw():
    """By self-draw the shapeless 4龙 is +10 (14 龙, P 25) on either card: no alternative is listed."""
    request = hand_request("xinyu", {"caishen": "5p"}, "5555p12m7m2p8p3s9sES", "W")
    result = with_alternatives(request)
    assert (result["long"], result["unit"], result["net"]["S"]) == (14, 25, 75)
    assert result["alternatives"] == []


# ----------------------------------------------------------------------------------------------- alternatives


def _card(draw, ruleset_id: str) -> dict:
    return {rule.id: draw(st.sampled_from([c.value for c in rule.choices])) for rule in RULESETS[ruleset_id].house}


@st.composite
def carded_requests(draw) -> dict:
    request = draw(st.one_of(bazhi_requests(), xinyu_requests(complete=True)))
    options = {**request["options"], "house": _card(draw, request["ruleset"])}
    return {**request, "options": options, "alternatives": True}


def _same(a: dict, b: dict) -> bool:
    if a["win"] != b["win"]:
        return False
    return a["net"] == b["net"] if a["win"] else a["code"] == b["code"]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(carded_requests())
def test_alternatives_are_exactly_the_readings_that_differ(request):
    """Every other value of every scoring house rule, scored on its own: it is listed exactly when its verdict,
    code or a net differs from the card's, and the listed numbers are that score's (§5.3)."""
    answer = score(request)
    if "error" in answer:
        return
    listed = {(entry["option"], repr(entry["value"])): entry for entry in answer["alternatives"]}
    ruleset = RULESETS[request["ruleset"]]
    card = request["options"]["house"]
    for rule in ruleset.scoring_house:
        for choice in rule.choices:
            if choice.value == card[rule.id]:
                continue
            other = score(
                {
                    **request,
                    "alternatives": False,
                    "options": {**request["options"], "house": {**card, rule.id: choice.value}},
                }
            )
            entry = listed.pop((rule.id, repr(choice.value)), None)
            if _same(answer, other):
                assert entry is None, (rule.id, choice.value)
            else:
                assert entry is not None, (rule.id, choice.value)
                assert entry["win"] == other["win"]
                assert entry.get("net") == (other["net"] if other["win"] else None)
                assert entry.get("code") == (None if other["win"] else other["code"])
    assert listed == {}


def test_every_scoring_house_rule_has_an_example_that_its_values_score_apart():
    """The rules page shows each rule's example under each value: every value must give another answer."""
    for ruleset in RULESETS.values():
        for rule in ruleset.scoring_house:
            answers = []
            for choice in rule.choices:
                options = {**rule.example["options"], "house": {rule.id: choice.value}}
                answer = score({**rule.example, "ruleset": ruleset.id, "options": options})
                answers.append(answer["net"] if answer["win"] else answer["code"])
            assert len({repr(a) for a in answers}) == len(answers), (ruleset.id, rule.id)
