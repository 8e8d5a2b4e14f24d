"""Reading one bazhi hand (RULES.md §1.1-1.4): 八支, the waits, and each reading's 支番, 嘴子, 底番 and 番.

A reading is a decomposition together with the place of the winning tile in it; every reading is worked out and
the one that pays the winner most is chosen (`best_reading`).
"""

from __future__ import annotations

from typing import NamedTuple

from ...decompose import Decomposition, completing_kinds
from ...hand import ScoreRequest
from ...payments import round_half_up
from ...tiles import ALL_TILES, FIRST_HONOUR, RED_DRAGON, SUITS, Tile, kinds_held
from .declarations import KINDS, Tariff
from .jiao import jiao_count, jiao_triggers


def waits_from_counts(concealed: list[int], all_counts: list[int], suit_totals: list[int] | None = None) -> list[int]:
    """Kinds that win before the last tile: they complete the shape, keep 八支, and are not a fifth copy.

    `suit_totals` (m p s, melds included) are summed from `all_counts` unless the caller has them.
    Whether the tile comes by self-draw or discard changes nothing here (`is_win` ignores it).
    """
    if suit_totals is None:
        suit_totals = [sum(all_counts[base : base + 9]) for base in (0, 9, 18)]
    return _waits_among(completing_kinds(concealed), all_counts, suit_totals)


def _waits_among(completing: list[int], all_counts: list[int], suit_totals: list[int]) -> list[int]:
    """The kinds of `completing` (they complete the shape) that keep 八支 and are not a fifth copy."""
    eight_already = max(suit_totals) >= 8
    return [
        kind
        for kind in completing
        if kind in KINDS and all_counts[kind] < 4 and (eight_already or _makes_eight(suit_totals, kind))
    ]


def _makes_eight(suit_totals: list[int], kind: int) -> bool:
    """八支 reached by adding `kind`: its suit had seven (红中 belongs to no suit)."""
    return kind < 27 and suit_totals[kind // 9] + 1 >= 8


def waits_before_win(request: ScoreRequest) -> list[Tile]:
    """The waits of the hand before its last tile: 压档 and 单吊 need the win tile to be the only one."""
    if len(request.hand) % 3 != 1:
        return []  # no hand of this size is one tile short of complete
    win = request.win_tile.index
    all_counts = list(request.all_counts)
    all_counts[win] -= 1
    suit_totals = list(request.suit_counts.values())
    if win < 27:
        suit_totals[win // 9] -= 1
    completing = completing_kinds(request.hand_counts, request.hand_keys)  # the concealed tiles before the win
    return [ALL_TILES[kind] for kind in _waits_among(completing, all_counts, suit_totals)]


# --------------------------------------------------------------------------- what every reading shares


class HandFacts(NamedTuple):
    """What every reading of one hand shares (the card's choices included), worked out once per hand."""

    self_draw: bool  # 自摸, 杠后开花, 杠上杠后开花, 天胡 and 海底捞月 are all self-draws: no discarder
    ganghua: bool
    colour: str | None
    shuangbazhi: bool
    zhi_count: int  # the largest suit, melds included
    kong_points: int
    four_held: tuple[int, ...]  # suited kinds held four times, not as a kong: the 四核 candidates
    pung_kinds: frozenset[int]
    unique_wait: bool  # the 13 tiles waited on the win tile alone
    yadang_any_wait: bool  # house rule yadang_wait=any: 压档 needs no unique wait
    tongtian_sihe: bool  # house rule tongtian_sihe
    haidi_zui: bool  # 海底捞月 under the house rule haidi=zui: one more 嘴


def hand_facts(request: ScoreRequest, tariff: Tariff, unique_wait: bool) -> HandFacts:
    four_held: tuple[int, ...] = ()
    pung_kinds: frozenset[int] = frozenset()
    held_four = kinds_held(request.all_counts, 4, FIRST_HONOUR)  # 四核 needs a suited kind held four times
    if held_four:
        kong_kinds = {m.kind.index for m in request.kongs}
        four_held = tuple([k for k in held_four if k not in kong_kinds])
        pung_kinds = frozenset([m.kind.index for m in request.melds if m.type == "pung"])
    kongs = request.kongs
    flags = request.flags
    card = request.options.house
    return HandFacts(
        self_draw=request.discarder is None,
        ganghua="kong_bloom" in flags or "double_kong_bloom" in flags,
        colour=colour(request),
        shuangbazhi=len(kongs) >= 2 and is_shuangbazhi(request),  # needs two kongs: most hands have none
        zhi_count=request.largest_suit,
        kong_points=kong_points(tariff, request) if kongs else 0,
        four_held=four_held,
        pung_kinds=pung_kinds,  # only 四核 asks for them
        unique_wait=unique_wait,
        yadang_any_wait=card["yadang_wait"] == "any",
        tongtian_sihe=card["tongtian_sihe"],
        haidi_zui=card["haidi"] == "zui" and "last_tile" in flags,
    )


def colour(request: ScoreRequest) -> str | None:
    """'qingyise' (one suit, no 红中), 'hunyise' (one suit + 红中), or None."""
    m, p, s = request.suit_counts.values()
    if (m > 0) + (p > 0) + (s > 0) != 1:
        return None
    return "hunyise" if request.all_counts[RED_DRAGON] else "qingyise"


def is_shuangbazhi(request: ScoreRequest) -> bool:
    """双八支 [reading]: a suit with 8 or more tiles and another suit with two kongs."""
    kongs_by_suit = dict.fromkeys(SUITS, 0)
    for meld in request.kongs:
        if meld.suit in kongs_by_suit:
            kongs_by_suit[meld.suit] += 1
    counts = request.suit_counts
    return any([counts[a] >= 8 and kongs_by_suit[b] >= 2 for a in SUITS for b in SUITS if a != b])


def kong_points(tariff: Tariff, request: ScoreRequest) -> int:
    """杠分: the winner's own kongs only."""
    return sum([tariff.kong[m.type] for m in request.kongs])


# --------------------------------------------------------------------------- one reading


class Reading(NamedTuple):
    """One way to read the hand: a decomposition and the place of the winning tile in it.

    Readings are compared by `total` alone (what the winner receives), so no payment row is built until one
    reading is chosen.
    """

    decomposition: Decomposition
    win_role: str  # "pair" | "middle" | "side" | "triplet"
    yadang: int | None
    dandiao: bool
    zui: list[str]
    sihe_kinds: list[int]
    triggers: list[str]
    zhi_fan: int
    di_fan: int
    kong_points: int
    fan: int
    jiao_count: int
    extra_zui: int
    jiao_per_loser: int
    total: int  # what the winner receives in all, fan and jiao (`winner_total`)

    @property
    def pattern_count(self) -> int:
        return len(self.zui) + len(self.triggers) + (self.yadang is not None) + self.dandiao


def win_roles(decomposition: Decomposition, win: int) -> list[str]:
    """Where the winning tile can sit in this decomposition (one reading per distinct place)."""
    roles = []
    if decomposition.pair == win:
        roles.append("pair")
    for first in decomposition.sequences:
        if first <= win <= first + 2:
            role = "middle" if win == first + 1 else "side"
            if role not in roles:
                roles.append(role)
    if win in decomposition.triplets:
        roles.append("triplet")
    return roles


def tongtian_suits(decomposition: Decomposition) -> set[str]:
    """通天: the sequences 123, 456 and 789 of one suit."""
    if len(decomposition.sequences) < 3:
        return set()  # 通天 needs three sequences
    starts = set(decomposition.sequences)
    return {suit for suit, needed in TONGTIAN_STARTS if needed <= starts}


# Per suit, the first tiles of its 123, 456 and 789 (written once, not per reading).
TONGTIAN_STARTS = tuple((suit, frozenset([i * 9, i * 9 + 3, i * 9 + 6])) for i, suit in enumerate(SUITS))


def sihe_kinds(facts: HandFacts, decomposition: Decomposition, tongtian: set[str]) -> list[int]:
    """四核: all four copies held (not as a kong) as a triplet plus one in a sequence.

    With 通天 in a suit, every kind of that suit held four times counts (通天四核 [reading]), unless the card
    says otherwise (house rule tongtian_sihe).
    """
    found = []
    for kind in facts.four_held:
        in_sequence = any([first <= kind <= first + 2 for first in decomposition.sequences])
        in_triplet = kind in decomposition.triplets or kind in facts.pung_kinds
        if (in_triplet and in_sequence) or (facts.tongtian_sihe and SUITS[kind // 9] in tongtian):
            found.append(kind)
    return found


def zui_of(facts: HandFacts, decomposition: Decomposition, tongtian: set[str], sihe: list[int]) -> list[str]:
    """The 嘴子 of §1.4 (each once, 四核 once per kind), and 海底捞月 under the house rule haidi=zui."""
    zui: list[str] = []
    if not decomposition.sequences:
        zui.append("duidui")
    if tongtian:
        zui.extend(["tongtian"] * len(tongtian))
    if sihe:
        zui.extend(["sihe"] * len(sihe))
    if facts.colour == "hunyise":
        zui.append("hunyise")
    if facts.ganghua:
        zui.append("ganghua")
    if facts.haidi_zui:
        zui.append("haidi")
    return zui


def zhi_fan(tariff: Tariff, total: int) -> int:
    """支番 = T × 2 ÷ 10 (315) or T ÷ 2 (525), rounded half up."""
    return round_half_up(total * tariff.zhi_numerator, tariff.zhi_denominator)


def di_fan(tariff: Tariff, self_draw: bool, yadang: bool) -> int:
    """底番: 和牌 / 压档 / 自摸 / 自摸压档."""
    return tariff.di_fan[2 * self_draw + yadang]


def winner_total(request: ScoreRequest, tariff: Tariff, fan: int, di_fan: int, jiao_count: int, jiao: int) -> int:
    """The sum of the payment rows (`payments.plain_rows`) without building them: readings are ranked on it.

    Each loser (the table's seats but the winner: three, or two at a table of three) pays the fan; the dealer
    one more 底番 (each loser when the dealer wins); the discarder one more 底番; with 交 each loser pays `jiao`
    and the discarder one more 嘴. 包牌 changes who pays, never how much, so it does not enter.
    `tests/engine/test_properties.py` checks this against the rows.
    """
    discard = request.discarder is not None
    losers = len(request.seats) - 1
    total = losers * fan + (losers if request.winner == request.dealer else 1) * di_fan + (di_fan if discard else 0)
    if jiao_count:
        total += losers * jiao + (tariff.jiao_zui if discard else 0)
    return total


def read_hand(
    request: ScoreRequest, tariff: Tariff, facts: HandFacts, decomposition: Decomposition, role: str
) -> Reading:
    """The numbers of one reading (§1.2-1.5)."""
    win = request.win_tile
    yadang = win.rank if role == "middle" and (facts.unique_wait or facts.yadang_any_wait) else None
    dandiao = role == "pair" and facts.unique_wait  # 单吊 always needs the unique wait (RULES.md §5.1)
    tongtian = tongtian_suits(decomposition) if len(decomposition.sequences) >= 3 else set()  # 通天 needs three
    sihe = sihe_kinds(facts, decomposition, tongtian) if facts.four_held else []
    zui = zui_of(facts, decomposition, tongtian, sihe)
    self_draw = facts.self_draw
    zf = zhi_fan(tariff, facts.zhi_count + (yadang or 0))
    df = di_fan(tariff, self_draw, yadang is not None)
    fan = (zf + len(zui) * tariff.zui) * (2 if self_draw else 1) + df + facts.kong_points
    triggers = jiao_triggers(request, facts, zui, sihe, yadang, dandiao)
    count, extra = jiao_count(request, facts, triggers, zui) if triggers else (0, 0)
    jiao = count * tariff.jiao + extra * tariff.jiao_zui if triggers else 0
    return Reading(
        decomposition=decomposition,
        win_role=role,
        yadang=yadang,
        dandiao=dandiao,
        zui=zui,
        sihe_kinds=sihe,
        triggers=triggers,
        zhi_fan=zf,
        di_fan=df,
        kong_points=facts.kong_points,
        fan=fan,
        jiao_count=count,
        extra_zui=extra,
        jiao_per_loser=jiao,
        total=winner_total(request, tariff, fan, df, count, jiao),
    )


def best_reading(readings: list[Reading]) -> Reading:
    """The reading that pays the winner most; ties go to more patterns, then the first found (RULES.md §0)."""
    best = readings[0]
    for reading in readings[1:]:
        if (reading.total, reading.pattern_count) > (best.total, best.pattern_count):
            best = reading
    return best
