"""A hand for the table: the score request the table scores (the card's options and the dealer's streak filled in,
what contradicts the table refused) and the engine's answer it can record (a win)."""

from __future__ import annotations

from collections.abc import Mapping

from calculator.engine.errors import ScoreError
from calculator.engine.rulesets import RULESETS
from calculator.engine.rulesets.base import read_option
from calculator.engine.text import msg
from calculator.ledger.entries import streak_mismatch
from calculator.ledger.errors import LedgerError
from calculator.ledger.state import State


def prepare_request(state: State, body: object) -> dict:
    """The score request the table will score: ruleset, dealer, the card's options (house rules included) and
    the dealer's streak filled in. A value that contradicts the table is refused (ruleset_mismatch,
    dealer_mismatch, option_mismatch), never silently replaced; a value the engine would refuse is left for the
    engine."""
    if not isinstance(body, Mapping):
        raise LedgerError("bad_json", msg("the request must be a JSON object"))
    card = state.card
    request = dict(body)
    # left out (or null): the table's; another game or seat: refused; no game or seat at all: the engine's 400
    if request.get("ruleset") is None:
        request["ruleset"] = card.ruleset
    elif request["ruleset"] != card.ruleset and isinstance(request["ruleset"], str) and request["ruleset"] in RULESETS:
        raise LedgerError("ruleset_mismatch", msg("this table plays {game}", game=card.ruleset), "ruleset")
    if request.get("dealer") is None:
        request["dealer"] = state.dealer
    elif request["dealer"] != state.dealer and request["dealer"] in state.seats:
        raise LedgerError("dealer_mismatch", msg("the dealer now is {seat}", seat=state.dealer), "dealer")
    request["options"] = card_options(state, request.get("options"))
    refuse_past_streak(state)
    # API.md: the ledger ignores `alternatives` (a disputed card is settled when the table is made, not per hand);
    # a value that is not a boolean is still the engine's bad_json.
    if "alternatives" in request and not isinstance(request.pop("alternatives"), bool):
        raise LedgerError("bad_json", msg("alternatives must be true or false"), "alternatives")
    return request


def refuse_past_streak(state: State) -> None:
    """A table fills the dealer's streak itself, so it must never fill one the engine refuses (the option's
    maximum, API.md: 1,000): after that many dealer wins in a row no hand can be scored at this table."""
    streak = state.card.table.streak_option
    if not streak:
        return
    most = next(option.maximum for option in state.card.rules.options if option.id == streak)
    if state.dealer_streak > most:
        longest = msg(
            "the dealer has won {most} hands in a row, the longest streak a hand can be scored with: "
            "start a new table to go on",
            most=most,
        )
        raise LedgerError("table_full", longest)


def card_options(state: State, raw: object) -> dict:
    """A hand's options with the card's filled in: what the hand gives must agree with the card
    (option_mismatch) and with the table's streak (dealer_mismatch); per-hand options pass through."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise LedgerError("bad_option", msg("options must be an object"), "options")
    card, rules = state.card, state.card.rules
    options = dict(raw)
    try:
        for option in rules.table_options:
            if option.id in raw and read_option(option, raw[option.id]) != card.options[option.id]:
                raise _mismatch(f"options.{option.id}", card.options[option.id])
            options[option.id] = card.options[option.id]
        if "house" in raw:
            rules.read_card(raw["house"])  # an unknown rule or value is the engine's refusal, before a mismatch
            for key, value in raw["house"].items():
                if value != card.house[key]:
                    raise _mismatch(f"options.house.{key}", card.house[key])
    except ScoreError as error:
        raise LedgerError.of(error) from None
    options["house"] = dict(card.house)
    streak = state.card.table.streak_option
    if streak:
        if options.get(streak) is not None and streak_given(state, options[streak]) != state.dealer_streak:
            raise streak_mismatch(state)
        options[streak] = state.dealer_streak
    return options


def streak_given(state: State, value: object) -> int:
    """The dealer's streak a hand gives, or the engine's `bad_option` for one that is no streak (0, "2")."""
    option = next(option for option in state.card.rules.options if option.id == state.card.table.streak_option)
    try:
        return read_option(option, value)
    except ScoreError as error:
        raise LedgerError.of(error) from None


def _mismatch(field_name: str, value: object) -> LedgerError:
    return LedgerError(
        "option_mismatch", msg("this table's {field} is {value!r}", field=field_name, value=value), field_name
    )


def check_win(result: dict, lang: str = "zh") -> None:
    """An engine answer the table can record: a win. Errors keep the engine's code; a non-win keeps its code."""
    if "error" in result:
        error = result["error"]
        raise LedgerError(error["code"], error.get("message", ""), error.get("field"))  # in the answer's language
    if result.get("win") is True:
        return
    if "waits" in result:
        raise LedgerError("no_win_tile", msg("to record a hand, give the winning tile (win_tile)"), "win_tile")
    raise LedgerError(result.get("code", "not_a_win"), result.get("message", ""))
