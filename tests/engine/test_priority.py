"""Who takes a discard several players can win on (docs/API-priority.md): xinyu's 拦胡 levels (RULES.md §2.5) and
bazhi's play order (§1.1), each game by its declared `[claims]`."""

from __future__ import annotations

import pytest

from calculator.engine import score
from calculator.engine.claims import priority, win_level
from calculator.engine.rulesets import RULESETS

TABLE = {"options": {"caishen": "5p"}, "dealer": "E"}
PLAIN = "123m456m789sEEE2s"  # ordinary win on 2s (level 0)
PLAIN_2 = "123p456p789mSSS2s"  # another ordinary win on 2s
QINGYISE = "11134567899s22s"  # 清一色 on 2s (level 1)
MISS = "147m258p369sSWNC"  # 十三不搭 waiting on honours: 2s sits next to 3s, so no win


def claim(seat: str, hand: str, **extra) -> dict:
    return {**TABLE, "hand": hand, "winner": seat, **extra}


def four_melds(pungs: tuple[str, str], fed_by: tuple[str, str], chows: tuple[str, str] = ("123m", "345m")) -> list:
    """Two chows (fed by the claimant's 上家) and two pungs: one concealed tile left, a 单吊 on its pair."""
    chow = [{"type": "chow", "tiles": tiles} for tiles in chows]
    return [chow[0], *({"type": "pung", "tiles": t, "from": s} for t, s in zip(pungs, fed_by, strict=True)), chow[1]]


def ask(discarder: str, tile: str, *claims: dict, lang: str = "zh", **body) -> dict:
    return priority({"discarder": discarder, "tile": tile, "claims": list(claims), **body}, lang)


def levels(result: dict) -> dict[str, int | None]:
    return {c["seat"]: c["level"] for c in result["claims"]}


def taker(result: dict) -> dict:
    return next(c for c in result["claims"] if c["takes_discard"])


# ----------------------------------------------------------------------------------------------- xinyu (§2.5)


def test_xinyu_a_higher_level_takes_the_discard_over_seat_order():
    """E discards 2s: S (下家) has an ordinary win, N 清一色 (level 1): 小的不能拦大的, N takes it and is paid 47."""
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE))
    assert (result["ruleset"], result["rule"]) == ("xinyu", "§2.5")
    assert (result["winner"], result["reason_code"]) == ("N", "higher_level")
    assert levels(result) == {"S": 0, "N": 1}
    assert taker(result)["result"]["net"] == {"E": -23, "S": -12, "W": -12, "N": 47}
    assert result["reason"] == "北家的清一色（级别 1）高于其他人（南家 0）：小的不能拦大的"


def test_xinyu_equal_levels_go_to_the_first_seat_after_the_discarder():
    """W discards: after W come N, E, S; S and N both win plainly, so N takes it (24), not S."""
    result = ask("W", "2s", claim("S", PLAIN), claim("N", PLAIN_2))
    assert result["order"] == ["N", "E", "S"]
    assert (result["winner"], result["reason_code"]) == ("N", "seat_order")
    assert [c["position"] for c in result["claims"]] == [1, 3]
    assert taker(result)["result"]["net"] == {"E": -6, "S": -6, "W": -12, "N": 24}
    assert result["reason"] == "同级别（0）按座位：北家是放铳家之后最近的一家"


def test_xinyu_a_nearer_player_who_passes_lets_the_next_one_win():
    """E discards; S (the 下家) passes and does not claim: of W and N, both ordinary, W is nearer and takes it."""
    result = ask("E", "2s", claim("N", PLAIN_2), claim("W", PLAIN))
    assert (result["winner"], result["reason_code"]) == ("W", "seat_order")
    assert [(c["seat"], c["position"]) for c in result["claims"]] == [("W", 2), ("N", 3)]
    assert taker(result)["result"]["net"] == {"E": -13, "S": -7, "W": 27, "N": -7}


def test_xinyu_equal_level_one_claims_go_by_seat_order():
    """On E's 2s, S's 单吊 and N's 清一色 are both level 1: S, nearer, takes it."""
    melds = four_melds(("666p", "777m"), ("W", "N"))
    result = ask("E", "2s", claim("N", QINGYISE), claim("S", "2s", melds=melds))
    assert (result["winner"], result["reason_code"]) == ("S", "seat_order")
    assert levels(result) == {"S": 1, "N": 1}
    assert result["reason"] == "同级别（1）按座位：南家是放铳家之后最近的一家"


def test_xinyu_quanfeng_is_level_two_above_level_one():
    result = ask("E", "N", claim("W", "EEESSSWWWCCCN"), claim("S", "123456789p11pNN"))
    assert (result["winner"], result["reason_code"]) == ("W", "higher_level")
    assert levels(result) == {"S": 0, "W": 2}
    assert taker(result)["level_patterns"] == ["quanfeng"]


def test_xinyu_dandiao_is_level_one():
    melds = four_melds(("555s", "777s"), ("S", "N"), chows=("123m", "345s"))
    result = ask("W", "9p", claim("N", "123m456m789sEEE9p"), claim("E", "9p", melds=melds))
    assert result["winner"] == "E"
    assert (taker(result)["level"], taker(result)["level_patterns"]) == (1, ["dandiao"])


def test_xinyu_qingqidui_is_level_one():
    result = ask("E", "4s", claim("S", "1133557799s22s4s"))
    assert (result["winner"], result["reason_code"]) == ("S", "only_winner")
    assert (taker(result)["level"], taker(result)["level_patterns"], taker(result)["level_reason"]) == (
        1,
        ["qingqidui"],
        "清七对",
    )
    assert result["reason"] == "只有南家能胡：清七对（级别 1）"


def test_xinyu_a_claimant_whose_hand_does_not_win_is_listed_as_not_winning():
    result = ask("E", "2s", claim("S", MISS), claim("W", PLAIN))
    assert (result["winner"], result["reason_code"]) == ("W", "only_winner")
    loser = result["claims"][0]
    assert (loser["seat"], loser["win"], loser["level"], loser["takes_discard"]) == ("S", False, None, False)
    assert loser["result"]["code"] == "incomplete"


def test_nobody_wins():
    result = ask("E", "2s", claim("S", MISS))
    assert (result["winner"], result["reason_code"], result["reason"]) == (None, "no_winner", "没有人能胡这张牌")


def test_reason_in_english():
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE), lang="en")
    assert result["reason"] == (
        "North's Pure one suit (level 1) is above the others (South 0): a lower level cannot overtake a higher one"
    )


def test_a_xinyu_win_names_its_level_in_its_answer():
    """The result card's 拦胡 level: `priority_level` and the patterns that give it (`priority_patterns`)."""
    result = ask("E", "2s", claim("N", QINGYISE))
    answer = taker(result)["result"]
    assert (answer["priority_level"], answer["priority_patterns"]) == (1, ["qingyise"])
    assert RULESETS["xinyu"].claim_level(answer) == (1, ("qingyise",))


# ----------------------------------------------------------------------------------------------- bazhi (§1.1)

B1 = "111345789p79m55s"  # 压档 8m: 19 to the winner on W's discard
TONGTIAN = "123456789s79m22p"  # 通天 on 8m: 25 to the winner
NO_BAZHI = "123m456p789s79m22s"  # a shape on 8m without 八支


def bazhi(seat: str, hand: str, players: int = 4, **extra) -> dict:
    return {"hand": hand, "winner": seat, "dealer": "E", "options": {"players": players}, **extra}


def test_bazhi_the_first_winning_claim_after_the_discarder_takes_it():
    """W discards 8m: after W come N, E, S. N (压档, 19) takes it before S, whose 通天 would pay more: no levels."""
    result = ask("W", "8m", bazhi("S", TONGTIAN), bazhi("N", B1), ruleset="bazhi")
    assert (result["ruleset"], result["rule"]) == ("bazhi", "§1.1")
    assert (result["winner"], result["reason_code"]) == ("N", "seat_order")
    assert levels(result) == {"N": 0, "S": 0}
    assert [c["level_patterns"] for c in result["claims"]] == [[], []]
    assert taker(result)["result"]["net"] == {"E": -7, "S": -5, "W": -7, "N": 19}
    assert result["reason"] == "无一炮多响：北家是放铳家之后按出牌顺序第一个能胡的"


def test_bazhi_claimants_need_not_sit_next_to_each_other():
    """W discards, N (the 下家) passes: E and S claim; E comes first after W and N."""
    result = ask("W", "8m", bazhi("S", B1), bazhi("E", TONGTIAN), ruleset="bazhi")
    assert (result["winner"], [c["position"] for c in result["claims"]]) == ("E", [2, 3])


def test_bazhi_a_claim_without_bazhi_does_not_win():
    result = ask("W", "8m", bazhi("N", NO_BAZHI), bazhi("S", B1), ruleset="bazhi", lang="en")
    assert (result["winner"], result["reason_code"], result["reason"]) == ("S", "only_winner", "only South can win")
    assert result["claims"][0]["result"]["code"] == "no_bazhi"


@pytest.mark.parametrize(
    ("players", "order", "net"),
    [(4, ["W", "N", "E"], {"E": -9, "S": -9, "W": 25, "N": -7}), (3, ["W", "E"], {"E": -9, "S": -9, "W": 18})],
)
def test_bazhi_robbing_a_kong_counts_from_the_robbed_seat(players, order, net):
    """S adds a kong of 8m; E and W rob it. After S come W (N at four), E: W takes it, paid as at its table."""
    robbing = {"flags": ["robbing_kong"], "players": players}
    result = ask("S", "8m", bazhi("E", B1, **robbing), bazhi("W", TONGTIAN, **robbing), ruleset="bazhi")
    assert result["order"] == order
    assert (result["winner"], result["reason_code"]) == ("W", "seat_order")
    assert taker(result)["result"]["net"] == net


@pytest.mark.parametrize(("players", "order", "positions"), [(4, ["N", "E", "S"], [2, 3]), (3, ["E", "S"], [1, 2])])
def test_bazhi_play_order_wraps_round_the_table(players, order, positions):
    """W discards: the order goes on to E (after N at four; at once at three, the 下家 of W being E), then S."""
    result = ask("W", "8m", bazhi("S", B1, players), bazhi("E", TONGTIAN, players), ruleset="bazhi")
    assert (result["order"], result["winner"]) == (order, "E")
    assert [(c["seat"], c["position"]) for c in result["claims"]] == list(zip("ES", positions, strict=True))


def test_bazhi_at_a_table_of_three_the_taking_win_pays_as_at_three():
    """S discards 8m at three: W (the 下家) takes it, 14 from E (dealer) and S; E's 通天 would have paid 20."""
    result = ask("S", "8m", bazhi("E", TONGTIAN, 3), bazhi("W", B1, 3), ruleset="bazhi")
    assert (result["order"], result["winner"], result["reason_code"]) == (["W", "E"], "W", "seat_order")
    assert taker(result)["result"]["net"] == {"E": -7, "S": -7, "W": 14}
    assert result["claims"][1]["result"]["net"] == {"E": 20, "S": -11, "W": -9}


def test_at_a_table_of_three_at_most_two_claim():
    claims = [bazhi("S", B1, 3), bazhi("E", TONGTIAN, 3), bazhi("E", TONGTIAN, 3)]
    result = ask("W", "8m", *claims, ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims")


def test_north_is_no_discarder_at_a_table_of_three():
    result = ask("N", "8m", bazhi("S", B1, 3), bazhi("E", TONGTIAN, 3), ruleset="bazhi", lang="en")
    assert result["error"] == {
        "code": "bad_seat",
        "message": "discarder must be one of E S W, got 'N'",
        "field": "discarder",
    }


def test_north_is_no_claimant_at_a_table_of_three():
    result = ask("W", "8m", bazhi("S", B1, 3), bazhi("N", TONGTIAN, 3), ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_seat", "claims[1].winner")


def test_claims_at_tables_of_different_sizes_are_a_bad_claim():
    result = ask("W", "8m", bazhi("S", B1, 3), bazhi("E", TONGTIAN, 4), ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1].options")


def test_xinyu_has_no_table_of_three():
    result = ask("E", "2s", claim("S", PLAIN, options={"caishen": "5p", "players": 3}))
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_option", "claims[0].options.players")


def test_the_claims_own_ruleset_is_the_default():
    result = ask("W", "8m", bazhi("N", B1, ruleset="bazhi"), bazhi("S", TONGTIAN))
    assert (result["ruleset"], result["winner"]) == ("bazhi", "N")


def test_without_any_ruleset_the_claims_are_xinyu():
    assert ask("E", "2s", claim("S", PLAIN))["ruleset"] == "xinyu"


# ----------------------------------------------------------------------------------------------- one discard, one card


def test_claims_under_different_tariffs_are_a_bad_claim():
    result = ask("W", "8m", bazhi("N", B1), bazhi("S", TONGTIAN, options={"tariff": "525"}), ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1].options")


def test_claims_under_different_house_rules_are_a_bad_claim():
    other = claim("N", QINGYISE, options={"caishen": "5p", "house": {"dilong": "dealer_only"}})
    result = ask("E", "2s", claim("S", PLAIN), other)
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1].options")


def test_claims_with_another_caishen_are_a_bad_claim():
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE, options={"caishen": "6p"}))
    assert result["error"]["code"] == "bad_claim"


def test_the_caishen_may_be_given_by_its_indicator():
    """4p turned makes 5p the 财神: the same card as a claim that names 5p."""
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE, options={"indicator": "4p"}))
    assert result["winner"] == "N"


def test_claims_with_another_dealer_are_a_bad_claim():
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE, dealer="S"))
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1]")


def test_claims_under_different_rulesets_are_a_bad_claim():
    result = ask("W", "8m", bazhi("N", B1, ruleset="bazhi"), claim("S", PLAIN, ruleset="xinyu"))
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1].ruleset")


def test_a_claim_against_the_bodys_ruleset_is_a_bad_claim():
    result = ask("E", "2s", claim("S", PLAIN, ruleset="xinyu"), ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[0].ruleset")


def test_an_unknown_ruleset_is_refused():
    result = ask("E", "2s", claim("S", PLAIN), ruleset="mahjong")
    assert (result["error"]["code"], result["error"]["field"]) == ("unknown_ruleset", "ruleset")


def test_robbing_a_kong_is_the_discards_for_every_claim():
    result = ask("S", "8m", bazhi("E", B1, flags=["robbing_kong"]), bazhi("W", TONGTIAN), ruleset="bazhi")
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "claims[1].flags")


def test_at_a_table_of_four_at_most_three_claim():
    claims = [claim(seat, PLAIN) for seat in "SWN"] + [claim("S", PLAIN_2)]
    assert ask("E", "2s", *claims)["error"]["code"] == "bad_claim"


def test_claims_must_be_on_the_same_tile():
    result = priority(
        {"discarder": "E", "claims": [claim("S", PLAIN, win_tile="2s"), claim("N", PLAIN, win_tile="3s")]}
    )
    assert result["error"]["code"] == "bad_claim"


def test_claims_must_be_on_the_tile_named():
    result = ask("E", "3s", claim("S", PLAIN, win_tile="2s"))
    assert result["error"]["code"] == "bad_claim"


def test_claims_must_name_the_same_discarder():
    result = ask("E", "2s", claim("S", PLAIN, discarder="W"))
    assert result["error"]["code"] == "bad_claim"


def test_one_claim_per_seat():
    result = ask("E", "2s", claim("S", PLAIN), claim("S", QINGYISE))
    assert result["error"]["code"] == "bad_claim"


def test_the_discarder_cannot_claim():
    result = ask("E", "2s", claim("E", PLAIN))
    assert (result["error"]["code"], result["error"]["field"]) == ("bad_seat", "claims[0].discarder")


def test_a_bad_hand_names_its_claim():
    result = ask("E", "2s", claim("S", PLAIN), claim("W", "123m"))
    assert (result["error"]["code"], result["error"]["field"]) == ("wrong_tile_count", "claims[1].hand")


def test_claims_together_cannot_hold_a_fifth_copy():
    result = ask("E", "2s", claim("S", "123m456m789sEEE2s"), claim("W", "123m456m789pEEE2s"))
    assert result["error"]["code"] == "bad_claim"


def test_malformed_bodies():
    assert priority([])["error"]["code"] == "bad_json"
    assert priority({"discarder": "X", "claims": []})["error"]["code"] == "bad_seat"
    assert priority({"discarder": "E", "claims": []})["error"]["code"] == "bad_claim"
    assert priority({"discarder": "E", "claims": ["x"]})["error"]["code"] == "bad_json"


def test_an_unknown_key_of_the_body_is_refused_by_name():
    # Issue 20: it used to be ignored (200); every other endpoint refuses an unknown key (API.md).
    body = {"discarder": "E", "tile": "2s", "claims": [claim("S", PLAIN)], "claimz": []}
    assert priority(body, "en")["error"] == {
        "code": "bad_json",
        "message": "unknown field 'claimz' in the request",
        "field": "claimz",
    }


# ----------------------------------------------------------------------------------------------- the result card


def test_the_card_names_a_xinyu_wins_level():
    answer = score({**claim("N", QINGYISE), "ruleset": "xinyu", "win_tile": "2s", "discarder": "E"}, "en")
    assert win_level(RULESETS["xinyu"], answer, "en") == {
        "level": 1,
        "patterns": ["qingyise"],
        "name": "Pure one suit",
        "rule": "§2.5",
    }


def test_the_card_names_an_ordinary_xinyu_win_level_zero():
    answer = score({**claim("S", PLAIN), "ruleset": "xinyu", "win_tile": "2s", "discarder": "E"})
    assert win_level(RULESETS["xinyu"], answer, "zh") == {
        "level": 0,
        "patterns": [],
        "name": "普通胡牌",
        "rule": "§2.5",
    }


def test_a_game_without_levels_names_none_on_the_card():
    answer = score({**bazhi("S", B1), "ruleset": "bazhi", "win_tile": "8m", "discarder": "W"})
    assert answer["win"] is True and win_level(RULESETS["bazhi"], answer, "zh") is None


def test_a_claim_without_its_tile_is_told_the_tile_is_missing():
    """No body tile and none in the claim: the answer named the discarder ("the discarder is not E"), which was E."""
    body = {"ruleset": "bazhi", "discarder": "E", "claims": [{"hand": B1, "winner": "N", "dealer": "E"}]}
    for claimed in ({}, {"win_tile": None}):
        body["claims"][0].update(claimed)
        assert priority(body, "en")["error"] == {
            "code": "bad_claim",
            "message": "claims[0]: the claimed tile (win_tile) is missing",
            "field": "claims[0].win_tile",
        }


def test_a_body_tile_that_is_not_the_claimed_one_is_named():
    """The body's tile 9m, the claim's 8m: the answer read "every claim is on the same discard: 8m vs 8m"."""
    claimed = {"hand": B1, "winner": "N", "dealer": "E", "win_tile": "8m"}
    for tile in ("9m", "8x", 8):
        result = priority({"ruleset": "bazhi", "discarder": "E", "tile": tile, "claims": [claimed]}, "en")
        assert (result["error"]["code"], result["error"]["field"]) == ("bad_claim", "tile")
        assert result["error"]["message"] == f"the discard (tile) is {tile!r}, but claims[0] claims 8m"
