"""The calculator's query string and the engine request it stands for (calculator.presentation.handquery)."""

from __future__ import annotations

import copy
from urllib.parse import urlencode

from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from calculator.pages.forms import HandForm
from calculator.presentation.handquery import HandInput, parse_query, query_string
from tests.casefiles import load_cases
from tests.web.fields import B1


def query(fields: dict | list) -> QueryDict:
    return QueryDict(urlencode(fields, doseq=True))


def test_b1_query_is_the_b1_request():
    hand = parse_query(query(B1))
    assert hand.request == {
        "ruleset": "bazhi",
        "options": {"tariff": "315", "multi_jiao": False, "players": 4},
        "hand": "111345789p79m55s",
        "win_tile": "8m",
        "melds": [],
        "winner": "S",
        "dealer": "E",
        "discarder": "W",
        "flags": [],
    }
    assert hand.names == {"E": "", "S": "", "W": "", "N": ""}
    assert score(hand.request)["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_share_query_keeps_the_fields_in_a_fixed_order_and_leaves_defaults_out():
    hand = parse_query(query({**B1, "name_S": "小南", "discarder": "", "multi_jiao": "on", "flags": "kong_bloom"}))
    assert query_string(hand) == (
        "ruleset=bazhi&tariff=315&multi_jiao=on&players=4&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder="
        "&flags=kong_bloom&name_S=%E5%B0%8F%E5%8D%97"
    )
    xinyu = parse_query(query({"ruleset": "xinyu", "indicator": "4p", "dealer_streak": "1", "hand": "", "winner": "E"}))
    assert query_string(xinyu) == "ruleset=xinyu&indicator=4p&hand=&winner=E&dealer=&discarder="


def test_spaces_in_tile_fields_are_dropped_and_empty_meld_slots_skipped():
    hand = parse_query(
        query(
            {**B1, "hand": " 111 345 789p ", "meld1": "", "meld1_tiles": " ", "meld2": "pung", "meld2_tiles": "C C C"}
        )
    )
    assert hand.request["hand"] == "111345789p"
    assert hand.request["melds"] == [{"type": "pung", "tiles": "CCC"}]


def test_a_concealed_kong_comes_from_no_one():
    hand = parse_query(query({**B1, "meld1": "kong_concealed", "meld1_tiles": "2222s", "meld1_from": "N"}))
    assert hand.request["melds"] == [{"type": "kong_concealed", "tiles": "2222s"}]


def test_the_engine_judges_what_the_query_says():
    """parse_query checks nothing: a half-filled meld slot, an unknown game or a streak of 0 reach the engine,
    which answers with its own error codes."""
    cases = {
        "bad_meld": {**B1, "meld1": "pung"},
        "unknown_ruleset": {**B1, "ruleset": "mahjong"},
        "bad_seat": {**B1, "discarder": "S"},
        "chow_not_allowed": {**B1, "meld1": "chow", "meld1_tiles": "123p"},
    }
    for code, fields in cases.items():
        assert score(parse_query(query(fields)).request)["error"]["code"] == code, code
    streak = {"ruleset": "xinyu", "caishen": "5p", "dealer_streak": "0", "hand": "123m456m789sEEE2s", "winner": "S"}
    assert score(parse_query(query({**streak, "dealer": "E", "win_tile": "2s"})).request)["error"]["code"] == (
        "bad_option"
    )


def test_a_checkbox_is_off_when_absent_empty_false_or_0():
    for value in ("", "false", "0", "False"):
        assert parse_query(query({**B1, "multi_jiao": value})).request["options"]["multi_jiao"] is False
    for value in ("on", "true", "1"):
        assert parse_query(query({**B1, "multi_jiao": value})).request["options"]["multi_jiao"] is True


def test_house_fields_are_the_card_and_a_default_value_is_left_out():
    hand = parse_query(
        query({**B1, "house_yadang_wait": "any", "house_tongtian_sihe": "false", "house_haidi": "label"})
    )
    assert hand.request["options"]["house"] == {"yadang_wait": "any", "tongtian_sihe": False}
    assert "house_yadang_wait=any&house_tongtian_sihe=false&hand=" in query_string(hand)
    assert score(hand.request)["request"]["options"]["house"]["yadang_wait"] == "any"


def test_a_house_rule_of_the_other_game_is_not_read():
    hand = parse_query(query({**B1, "house_wild_fifth_copy": "false", "house_qianggang": "triple"}))
    assert hand.request["options"]["house"] == {"qianggang": "triple"}  # xinyu's value: bazhi's engine refuses it
    assert score(hand.request)["error"]["field"] == "options.house.qianggang"


# ------------------------------------------------------------------------------------------ round trip

junk = st.text(max_size=8)
tiles = st.text(alphabet="123456789mpsz ESWNCFP", max_size=16) | junk
seat = st.sampled_from(["", "E", "S", "W", "N"]) | junk
fields = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": st.sampled_from(["bazhi", "xinyu", ""]) | junk,
        "tariff": st.sampled_from(["315", "525", ""]) | junk,
        "multi_jiao": st.sampled_from(["on", "", "false", "0"]) | junk,
        "indicator": st.sampled_from(["", "4p", "N"]) | junk,
        "caishen": st.sampled_from(["", "5p", "C"]) | junk,
        "dealer_streak": st.integers(-5, 200).map(str) | junk,
        "hand": tiles,
        "win_tile": tiles,
        "meld1": st.sampled_from(["", "pung", "chow", "kong_concealed", "kong_exposed"]) | junk,
        "meld1_tiles": tiles,
        "meld1_from": seat,
        "meld3": st.sampled_from(["", "pung", "kong_added"]),
        "meld3_tiles": tiles,
        "meld3_from": seat,
        "winner": seat,
        "dealer": seat,
        "discarder": seat,
        "flags": st.lists(st.sampled_from(["kong_bloom", "last_tile", "pao_long"]) | junk, max_size=3),
        "name_E": junk,
        "name_N": junk,
        "house_yadang_wait": st.sampled_from(["", "unique", "any"]) | junk,
        "house_tongtian_sihe": st.sampled_from(["", "true", "false"]) | junk,
        "house_qianggang": st.sampled_from(["", "as_discard", "robbed_pays_all", "halves", "triple"]) | junk,
        "house_wild_fifth_copy": st.sampled_from(["", "true", "false"]) | junk,
        "house_draw_dealer": st.sampled_from(["", "keep", "pass"]),
    },
)


@settings(max_examples=400, deadline=None)
@given(fields)
def test_parse_query_reads_back_what_query_string_writes(data):
    hand = parse_query(query(data))
    again = parse_query(QueryDict(query_string(hand)))
    assert again == hand
    assert query_string(again) == query_string(hand)


def test_with_win_is_the_same_hand_won_on_a_tile():
    hand = parse_query(query({**B1, "win_tile": "", "name_S": "小南"}))
    won = hand.with_win("8m", None, [])
    assert won == HandInput({**hand.request, "win_tile": "8m", "discarder": None}, hand.names)
    assert hand.request.get("win_tile") is None  # the hand itself is unchanged


# ------------------------------------------------------------------------------------------ one input path


@settings(max_examples=300, deadline=None)
@given(fields)
def test_the_hand_form_reads_its_fields_as_the_query_does(data):
    """The whole page validates with HandForm and scores `form.hand()`, its cleaned values; the htmx card reads
    the raw query. Both are the one reader, handquery: whatever the form accepts, it reads the same hand."""
    form = HandForm(query(data))
    if form.is_valid():
        assert form.hand() == parse_query(query(data))


def test_the_hand_form_reads_every_acceptance_case_as_its_share_link_says():
    for case in load_cases():
        if "error" in case["expect"]:
            continue
        link = QueryDict(query_string(HandInput(case["request"], {})))
        form = HandForm(link)
        assert form.is_valid(), (case["name"], form.errors)
        assert form.hand() == parse_query(link)


def test_the_hand_form_is_built_from_the_registry_for_each_form(monkeypatch):
    """No field is bolted onto the class at import: a game registered later is on the next form."""
    assert set(HandForm.base_fields) == set()
    later = copy.copy(RULESETS["bazhi"])
    later.id = "later"
    monkeypatch.setitem(RULESETS, "later", later)
    assert "later" in dict(HandForm().fields["ruleset"].choices)
    form = HandForm(query({**B1, "ruleset": "later"}))
    assert form.is_valid(), form.errors
    assert form.hand().request["ruleset"] == "later"


def test_spaces_are_dropped_once_by_the_one_reader():
    typed = {**B1, "hand": " 111 345 789p 79m 55s", "meld1": "", "meld1_tiles": " "}
    form = HandForm(query(typed))
    assert form.is_valid(), form.errors
    assert form.hand().request["hand"] == "111345789p79m55s" == parse_query(query(typed)).request["hand"]
