"""The xinyu ruleset: its declarations and the answer for a hand (RULES.md §2)."""

from __future__ import annotations

from random import Random
from typing import NamedTuple

from ...errors import ScoreError
from ...explain import not_a_win_answer
from ...hand import ScoreRequest
from ...payments import nets
from ...seats import Seats
from ...text import msg
from ...tiles import Tile
from ...ways import Way, way_request
from ..base import Ruleset
from . import deal as dealing
from . import declarations as facts
from . import shanten
from .explain import explain, groups_of, labels
from .payments import PARTS, Paying, paying_of, payment_reason, payments_for
from .reading import Reading, Won, best_reading, best_readings, shapes, won_of
from .table import TABLE
from .wilds import Waiting, Wilds, caishen_after, is_win, waiting_of, waits_of, wilds_of, won_on


class Xinyu(Ruleset):
    id = facts.ID
    rules_section = "§2"
    kinds = facts.KINDS
    allows_chow = True
    declared = facts.DECLARED
    table = TABLE
    distance = shanten

    def complete_options(self, values: dict[str, object]) -> dict[str, object]:
        """The 财神 is given as itself or by the turned indicator (both may be given if they agree)."""
        caishen, indicator = values["caishen"], values["indicator"]
        if caishen is None and indicator is None:
            raise ScoreError(
                "bad_option", msg("give the 财神 (caishen) or the turned indicator tile (indicator)"), "options"
            )
        if indicator is not None:
            derived = caishen_after(indicator)
            if caishen is not None and caishen != derived:
                disagree = msg(
                    "indicator {indicator} makes {derived} the 财神, not {caishen}",
                    indicator=indicator,
                    derived=derived,
                    caishen=caishen,
                )
                raise ScoreError("bad_option", disagree, "options.caishen")
            return {**values, "caishen": derived}
        return values

    def derive(self, option_id: str, value: object) -> object:
        """The turned indicator decides the 财神 (§2.1)."""
        return caishen_after(value) if option_id == "indicator" else None

    def check_meld(self, tiles: tuple[Tile, ...], options, number: int, field: str) -> None:
        if options.caishen in tiles:
            melded = msg(
                "the 财神 ({caishen}) cannot be in a chow, pung or kong (meld {number})",
                caishen=options.caishen,
                number=number,
            )
            raise ScoreError("caishen_in_meld", melded, field)

    def is_win(self, request: ScoreRequest) -> bool:
        return is_win(request)

    def waits_of(self, request: ScoreRequest) -> list[int]:
        return waits_of(request)

    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        return evaluate(request, lang, brief)

    def waiting(self, request: ScoreRequest, ways: tuple[Way, ...]) -> Ahead:
        """The 13 tiles as their waits read them (each wait changes one block: `won_on`) and each way's request
        with how it is paid."""
        return Ahead(tiles=waiting_of(request), ways={way.how: way_ahead(request, way) for way in ways})

    def evaluate_ways(
        self, request: ScoreRequest, tile: Tile, ways: list[Way], lang: str = "zh", waiting: Ahead | None = None
    ) -> list[dict]:
        """The ways share the tiles: the hand won on `tile` is read off the waiting hand's (`won_on`) and its shape
        classes are worked out once. Each way's answer reads the way's request (the waiting hand with the way's
        discarder and flags) only for the seats, the flags and the card (a brief answer echoes no tiles): the
        tiles are the wilds'; it is paid as the way's `Paying` says, and a wait that says what an earlier one said
        won the same way has its answer (`WayAhead.answer`)."""
        if not ways:
            return []
        ahead = waiting or self.waiting(request, tuple(ways))
        chosen = [ahead.ways[way.how] for way in ways]
        wilds, natural = won_on(ahead.tiles, tile.index)
        found = best_readings([one.request for one in chosen], wilds, shapes(request, wilds, natural))
        return [one.answer(wilds, best, lang) for one, best in zip(chosen, found, strict=True)]

    def deal(self, rng: Random, favour: str | None = None, seats: Seats | None = None) -> dict:
        return dealing.deal(rng, favour, seats or self.seats())

    def payment_reason(self, row, answer, lang, seat_word):
        return payment_reason(row, answer, lang, seat_word)

    def patterns_of(self, answer: dict) -> tuple[str, ...]:
        """A win: its 龙 bonuses, or 顺胡 when it has none; four 财神 by discard without a shape: 4龙."""
        if not answer.get("win"):
            return ("silong",) if answer.get("code") == "silong_discard" else ()
        return tuple(pattern["code"] for pattern in answer["patterns"]) or ("shunhu",)

    def headline(self, answer: dict, lang: str) -> list[str]:
        """The hand's 龙 and the unit P it is paid in."""
        said = facts.HEADLINE
        return [said["long"](lang).format(long=answer["long"]), said["unit"](lang).format(unit=answer["unit"])]

    def wild_kind(self, options) -> Tile:
        return options.caishen

    def wild_tile(self, answer: dict) -> str | None:
        """The 财神: a win names it, any other answer has it in its request echo."""
        return answer.get("caishen") or (answer.get("request") or {}).get("options", {}).get("caishen")

    def stands_for(self, group: dict) -> list[str]:
        return list(group.get("caishen") or ())

    def house_rules_at_stake(self, request: ScoreRequest):
        """The rules that cannot change this hand's answer are left out (RULES.md §5.2): qianggang without 抢杠胡,
        dilong unless another seat wins a streak, qingqidui and qifengqi_wild with melds (七对, 十三不搭 have
        none), qifengqi_wild without a 财神 or with an honour 财神, shapeless_colours without four 财神,
        wild_fifth_copy without a 财神, wulong with one, silong_discard without four 财神 won on a discard."""
        flags, options = request.flags, request.options
        wild = request.concealed_counts[options.caishen.index]
        skip = set()
        if "robbing_kong" not in flags:
            skip.add("qianggang")
        if options.dealer_streak == 1 or request.winner == request.dealer:
            skip.add("dilong")
        if request.melds:
            skip.update(("qifengqi_wild", "qingqidui"))  # 十三不搭 and 七对 have no melds
        if not wild or options.caishen.is_honour:
            skip.add("qifengqi_wild")
        if wild < 4:
            skip.add("shapeless_colours")
        if not wild:
            skip.add("wild_fifth_copy")
        else:
            skip.add("wulong")  # 无龙 is about a hand without 财神
        if wild < 4 or request.discarder is None:
            skip.add("silong_discard")  # four 财神 won on a discard
        return tuple(rule for rule in self.scoring_house if rule.id not in skip)


class WayAhead(NamedTuple):
    """One way of winning a waiting hand, as each of its waits is won that way: the way's request (the waiting
    hand with the way's discarder and flags, `way_request`), how its wins are paid, and the brief answers of its
    waits so far by what they say (`Won`). The waits of a hand mostly read alike (a hand of 3-4 财神 waits on ~33
    kinds and says a handful of things), and wins that say the same, won the same way, have the same brief answer:
    it is worked out for the first of them, and the others list that dict again (a waits answer is read, never
    changed). They go with the waits answer: nothing is kept from one request to the next."""

    request: ScoreRequest
    paying: Paying
    answers: dict[Won, dict]

    def answer(self, wilds: Wilds, best: Reading | None, lang: str) -> dict:
        """The brief answer of a wait won this way (`best`: its best reading, None when it does not win)."""
        if best is None:
            return answer(self.request, wilds, None, lang, brief=True)
        won = won_of(best, wilds)
        said = self.answers.get(won)
        if said is None:
            said = self.answers[won] = {
                "ruleset": facts.ID,
                "win": True,
                **what_it_says(self.request, won, lang, self.paying),
            }
        return said


def way_ahead(request: ScoreRequest, way: Way) -> WayAhead:
    won = way_request(request, way)
    return WayAhead(request=won, paying=paying_of(won), answers={})


class Ahead(NamedTuple):
    """What every wait of a waits answer shares (`Xinyu.waiting`): the 13 tiles, and each way of winning them,
    worked out once for all the waits."""

    tiles: Waiting
    ways: dict[str, WayAhead]  # by how the way wins ("self_draw", "discard")


def evaluate(request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
    """The answer for a 14-tile hand.

    `brief` leaves out what only a full result page shows (the normalised request, the hand as groups, the
    explanation): a waits answer scores every wait both ways briefly and links each to its full result.
    """
    wilds = wilds_of(request)
    return answer(request, wilds, best_reading(request, wilds), lang, brief)


def answer(
    request: ScoreRequest, wilds: Wilds, best: Reading | None, lang: str, brief: bool, paying: Paying | None = None
) -> dict:
    """The answer from the hand's best reading, or not a win when it has none. `paying`: the request's
    `paying_of`, when the caller has it (a waits answer's way)."""
    if best is None:
        code = "silong_discard" if wilds.count == 4 else "incomplete"
        return not_a_win(request, code, lang, brief)
    return win_result(request, wilds, best, lang, brief, paying or paying_of(request))


NOT_A_WIN = {
    "silong_discard": msg("4龙 wins only by self-draw: on a discard the hand needs a legal shape too"),
    "incomplete": msg(
        "Not a complete hand: no standard shape (pair + four sets), seven pairs, thirteen unrelated, self-drawn 4龙 or "
        "all honours"
    ),
}


def not_a_win(request: ScoreRequest, code: str, lang: str, brief: bool = False) -> dict:
    return not_a_win_answer(facts.ID, request, code, NOT_A_WIN[code](lang), brief)


def win_result(request: ScoreRequest, wilds: Wilds, reading: Reading, lang: str, brief: bool, paying: Paying) -> dict:
    answer: dict = {"ruleset": facts.ID, "win": True}
    if not brief:
        answer["request"] = request.to_dict()
    answer.update(what_it_says(request, won_of(reading, wilds), lang, paying))
    if not brief:
        answer["decomposition"] = groups_of(request, wilds, reading)
        answer["explanation"] = explain(request, wilds, reading, answer["unit"], answer["payments"], lang)
    return answer


def what_it_says(request: ScoreRequest, won: Won, lang: str, paying: Paying) -> dict:
    """What every answer of a win says, the brief one all of it: from what the win says (`won`) and how it is
    paid (`paying`, from `request`: its seats and flags)."""
    dl = paying.di_long
    unit = dl + won.long
    payments = payments_for(paying, unit, lang)
    rule = paying.liable
    level, giving = facts.DECLARED.claims.level_of(won.codes)  # 拦胡 (§2.5), as [claims] declares it
    net, by_part = nets(payments, PARTS, request.seats)
    return {
        "payments": payments,
        "net": net,
        "net_by_part": by_part,
        "bao": request.discarder if rule else None,
        "bao_reason": rule,
        "long": won.long,
        "caishen": won.caishen,
        "caishen_count": won.caishen_count,
        "long_from_tiles": won.from_tiles,
        "patterns": [
            {"code": code, "long": value, "label": facts.BONUS_BY_CODE[code].name(lang)} for code, value in won.patterns
        ],
        "shape": won.shape,
        "di_long": dl,
        "unit": unit,
        "quanjiao": won.quanjiao,
        "priority_level": level,
        "priority_patterns": list(giving),
        "self_draw": request.discarder is None,
        "labels": labels(request, won, lang),
    }


RULESET = Xinyu()
