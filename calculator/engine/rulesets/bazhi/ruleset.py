"""The bazhi ruleset: its declarations and the answer for a hand (RULES.md §1)."""

from __future__ import annotations

from random import Random

from ...decompose import decompositions_of, is_complete
from ...explain import decomposition_groups, not_a_win_answer
from ...hand import ScoreRequest
from ...seats import Seats
from ...text import msg
from ...tiles import Tile
from ..base import Ruleset
from . import deal as dealing
from . import declarations as facts
from . import shanten
from .bao import liable_seat
from .explain import explain, labels
from .payments import payment_reason, payments_and_nets
from .reading import Reading, best_reading, hand_facts, read_hand, waits_before_win, waits_from_counts, win_roles
from .table import TABLE


class Bazhi(Ruleset):
    id = facts.ID
    rules_section = "§1"
    kinds = facts.KINDS
    allows_chow = False
    declared = facts.DECLARED
    table = TABLE
    distance = shanten
    tariffs = facts.TARIFFS

    def check_meld(self, tiles: tuple[Tile, ...], options, number: int, field: str) -> None:
        return None  # every bazhi meld shape is checked by the common rules

    def is_win(self, request: ScoreRequest) -> bool:
        return request.largest_suit >= 8 and is_complete(request.concealed_counts)

    def waits_of(self, request: ScoreRequest) -> list[int]:
        """The winning kinds of a 13-tile hand, from its counts."""
        return waits_from_counts(request.concealed_counts, request.all_counts, list(request.suit_counts.values()))

    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        return evaluate(request, lang, brief)

    def deal(self, rng: Random, favour: str | None = None, seats: Seats | None = None) -> dict:
        return dealing.deal(rng, favour, seats or self.seats())

    def payment_reason(self, row, answer, lang, seat_word):
        return payment_reason(row, answer, lang, seat_word)

    def patterns_of(self, answer: dict) -> tuple[str, ...]:
        """A win: 压档 or 单吊, each 嘴子 once (四核 once however many), the 交 triggers; 不够八支: 八支."""
        if not answer.get("win"):
            return ("bazhi",) if answer.get("code") == "no_bazhi" else ()
        found = [code for code in ("yadang", "dandiao") if answer.get(code)]
        found += dict.fromkeys(answer["zui"])
        found += answer["jiao"]["triggers"]
        return tuple(found)

    def headline(self, answer: dict, lang: str) -> list[str]:
        """The fan each loser pays, and the jiao each pays (or none)."""
        said = facts.HEADLINE
        jiao = answer["jiao"]
        return [
            said["fan"](lang).format(fan=answer["fan"]),
            said["jiao"](lang).format(amount=jiao["per_loser"]) if jiao["is_jiao"] else said["no_jiao"](lang),
        ]

    def house_rules_at_stake(self, request: ScoreRequest):
        """haidi matters only with 海底捞月, qianggang only with 抢杠胡 (RULES.md §5.1)."""
        flags = request.flags
        return tuple(
            rule
            for rule in self.scoring_house
            if (rule.id != "haidi" or "last_tile" in flags) and (rule.id != "qianggang" or "robbing_kong" in flags)
        )


def evaluate(request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
    """The answer for a 14-tile hand.

    `brief` leaves out what only a full result page shows (the normalised request, the hand as groups, the
    explanation): a waits answer scores every wait both ways briefly and links each to its full result.
    """
    tariff = facts.TARIFFS[request.options.tariff]
    win = request.win_tile.index
    splits = (
        decompositions_of(request.concealed_counts, request.concealed_keys) if len(request.concealed) % 3 == 2 else []
    )
    if not splits:
        return not_a_win(request, "incomplete", lang, brief)
    if request.largest_suit < 8:
        return not_a_win(request, "no_bazhi", lang, brief)
    waits = waits_before_win(request)
    hand = hand_facts(request, tariff, len(waits) == 1 and waits[0].index == win)
    reading = best_reading([read_hand(request, tariff, hand, d, role) for d in splits for role in win_roles(d, win)])
    return win_result(request, tariff, reading, waits, lang, brief)


def not_a_win(request: ScoreRequest, code: str, lang: str, brief: bool = False) -> dict:
    if code == "no_bazhi":
        m, p, s = request.suit_counts.values()  # in the order m p s
        message = msg("No suit reaches eight tiles (八支): m {m}, p {p}, s {s}", m=m, p=p, s=s)
    else:
        message = msg("Not a complete hand: it cannot be split into one pair and four sets")
    answer = not_a_win_answer(facts.ID, request, code, message(lang), brief)
    answer["suit_counts"] = dict(request.suit_counts)
    return answer


def win_result(
    request: ScoreRequest, tariff: facts.Tariff, reading: Reading, waits: list[Tile], lang: str, brief: bool = False
) -> dict:
    triggers = reading.triggers
    bao = liable_seat(request, bool(triggers))
    payments, net, net_by_part = payments_and_nets(
        request.seats,
        request.winner,
        request.dealer,
        request.discarder,
        reading.fan,
        reading.di_fan,
        reading.jiao_per_loser if reading.jiao_count else None,
        tariff,
        bao[0] if bao else None,
        lang,
    )
    answer = {
        "ruleset": facts.ID,
        "win": True,
        "request": None if brief else request.to_dict(),  # in its place in the answer; a brief one drops it below
        "payments": payments,
        "net": net,
        "net_by_part": net_by_part,
        "bao": bao[0] if bao else None,
        "bao_reason": bao[1] if bao else None,
        "zhi_count": request.largest_suit,
        "suit_counts": dict(request.suit_counts),
        "yadang": reading.yadang,
        "dandiao": reading.dandiao,
        "zhi_fan": reading.zhi_fan,
        "zui": reading.zui,
        "di_fan": reading.di_fan,
        "kong_points": reading.kong_points,
        "fan": reading.fan,
        "jiao": {
            "is_jiao": bool(triggers),
            "count": reading.jiao_count,
            "extra_zui": reading.extra_zui,
            "per_loser": reading.jiao_per_loser,
            "triggers": triggers,
        },
        "self_draw": request.discarder is None,
        "labels": labels(request, lang) if request.flags else [],  # labels name flags
        "waits_before_win": [t.notation for t in waits],
    }
    if brief:
        del answer["request"]
    else:
        answer["decomposition"] = decomposition_groups(request, reading.decomposition, reading.win_role)
        answer["explanation"] = explain(request, tariff, reading, bao, waits, lang)
    return answer


RULESET = Bazhi()
