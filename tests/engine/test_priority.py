"""拦胡 (RULES.md §2.5): which claimant takes one discard, and why."""

from __future__ import annotations

from calculator.engine.rulesets.xinyu.priority import priority

TABLE = {"options": {"caishen": "5p"}, "dealer": "E"}
PLAIN = "123m456m789sEEE2s"  # ordinary win on 2s (level 0)
QINGYISE = "11134567899s22s"  # 清一色 on 2s (level 1)
MISS = "147m258p369sSWNC"  # 十三不搭 waiting on honours: 2s sits next to 3s, so no win


def claim(seat: str, hand: str, **extra) -> dict:
    return {**TABLE, "hand": hand, "winner": seat, **extra}


def ask(discarder: str, tile: str, *claims: dict, lang: str = "zh") -> dict:
    return priority({"discarder": discarder, "tile": tile, "claims": list(claims)}, lang)


def test_a_higher_level_wins_over_seat_order():
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE))
    assert (result["winner"], result["reason_code"]) == ("N", "higher_level")
    levels = {c["seat"]: c["level"] for c in result["claims"]}
    assert levels == {"S": 0, "N": 1}
    assert "清一色" in result["reason"]


def test_equal_levels_go_to_the_first_seat_after_the_discarder():
    result = ask("W", "2s", claim("S", PLAIN), claim("N", "123p456p789mSSS2s"))
    # after W comes N, then E, then S
    assert result["order"] == ["N", "E", "S"]
    assert (result["winner"], result["reason_code"]) == ("N", "seat_order")
    assert [c["position"] for c in result["claims"]] == [1, 3]


def test_quanfeng_beats_level_one():
    honours = "EEESSSWWWCCCN"
    result = ask("E", "N", claim("W", honours), claim("S", "123456789p11pNN"))
    assert result["winner"] == "W"
    assert {c["seat"]: c["level"] for c in result["claims"]} == {"S": 0, "W": 2}


def test_dandiao_is_level_one():
    melds = [
        {"type": "chow", "tiles": "123m"},
        {"type": "pung", "tiles": "555s", "from": "S"},
        {"type": "pung", "tiles": "777s", "from": "N"},
        {"type": "chow", "tiles": "345s"},
    ]
    result = ask("W", "9p", claim("N", "123m456m789sEEE9p"), claim("E", "9p", melds=melds))
    assert result["winner"] == "E"
    dandiao = next(c for c in result["claims"] if c["seat"] == "E")
    assert (dandiao["level"], dandiao["level_patterns"]) == (1, ["dandiao"])


def test_a_claimant_whose_hand_does_not_win_is_listed_as_not_winning():
    result = ask("E", "2s", claim("S", MISS), claim("W", PLAIN))
    assert (result["winner"], result["reason_code"]) == ("W", "only_winner")
    loser = result["claims"][0]
    assert (loser["seat"], loser["win"], loser["level"], loser["takes_discard"]) == ("S", False, None, False)
    assert loser["result"]["code"] == "incomplete"


def test_nobody_wins():
    result = ask("E", "2s", claim("S", MISS))
    assert (result["winner"], result["reason_code"]) == (None, "no_winner")


def test_claims_must_be_on_the_same_tile():
    result = priority(
        {"discarder": "E", "claims": [claim("S", PLAIN, win_tile="2s"), claim("N", PLAIN, win_tile="3s")]}
    )
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


def test_priority_is_a_xinyu_rule():
    result = ask("E", "2s", {**claim("S", PLAIN), "ruleset": "bazhi"})
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


def test_reason_in_english():
    result = ask("E", "2s", claim("S", PLAIN), claim("N", QINGYISE), lang="en")
    assert "Pure one suit" in result["reason"]


def test_claims_must_be_on_the_tile_named():
    result = ask("E", "3s", claim("S", PLAIN, win_tile="2s"))
    assert result["error"]["code"] == "bad_claim"
