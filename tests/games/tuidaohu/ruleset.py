"""The tuidaohu ruleset: its declarations, the answer for a hand and what the card shows of it."""

from __future__ import annotations

from random import Random

from calculator.engine.explain import not_a_win_answer
from calculator.engine.hand import ScoreRequest
from calculator.engine.payments import nets
from calculator.engine.rulesets.base import Ruleset
from calculator.engine.seats import Seats
from calculator.engine.tiles import Tile

from . import deal as dealing
from . import declarations as facts
from . import scoring, shanten
from .table import TABLE


class Tuidaohu(Ruleset):
    id = facts.ID
    rules_section = "§T"
    kinds = facts.KINDS
    allows_chow = True
    declared = facts.DECLARED
    table = TABLE
    distance = shanten

    def check_meld(self, tiles: tuple[Tile, ...], options, number: int, field: str) -> None:
        return None  # every meld shape is checked by the common rules

    def is_win(self, request: ScoreRequest) -> bool:
        return scoring.is_win(request)

    def waits_of(self, request: ScoreRequest) -> list[int]:
        return scoring.waits_of(request)

    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        found = scoring.readings(request)
        if not found:
            message = facts.NOT_A_WIN["incomplete"](lang)
            return not_a_win_answer(facts.ID, request, "incomplete", message, brief)
        reading = scoring.best(request, found)
        value = scoring.value_of(request, reading)
        payments = scoring.payments(request, value, lang)
        net, by_part = nets(payments, (facts.PART,), request.seats)
        answer: dict = {"ruleset": facts.ID, "win": True}
        if not brief:
            answer["request"] = request.to_dict()
        answer.update(
            {
                "payments": payments,
                "net": net,
                "net_by_part": by_part,
                "bao": None,
                "bao_reason": None,
                "win_shape": reading.shape,
                "doubles": list(reading.doubles),
                "base": request.options.base,
                "each_pays": value,
                "self_draw": request.discarder is None,
                "labels": [],
            }
        )
        if not brief:
            answer["decomposition"] = scoring.groups(request, reading)
            answer["explanation"] = scoring.explain(request, reading, value, lang)
        return answer

    def deal(self, rng: Random, favour: str | None = None, seats: Seats | None = None) -> dict:
        return dealing.deal(rng, favour, seats or self.seats())

    def patterns_of(self, answer: dict) -> tuple[str, ...]:
        """A win: its doubles, or 平胡 when it has none; a hand that is no win names none."""
        if not answer.get("win"):
            return ()
        return tuple(answer["doubles"]) or ("pinghu",)

    def payment_reason(self, row, answer, lang, seat_word) -> str | None:
        """A stored row said again in the page's language, by its code (a discard, a self-draw)."""
        said = facts.REASONS.get(row.get("code"))
        return said(lang) if said else None

    def headline(self, answer: dict, lang: str) -> list[str]:
        """What each payer pays."""
        said = facts.HEADLINE["self_draw" if answer["self_draw"] else "discard"]
        return [said(lang).format(value=answer["each_pays"])]


RULESET = Tuidaohu()
