"""tuidaohu's rules (§T of declarations.toml), one function each: the shape, the doubles, the value and who pays."""

from __future__ import annotations

from dataclasses import dataclass

from calculator.engine.decompose import Decomposition, decompositions, is_complete
from calculator.engine.explain import Line, decomposition_groups, line
from calculator.engine.hand import ScoreRequest
from calculator.engine.notation import format_tiles
from calculator.engine.payments import PaymentRow, row
from calculator.engine.tiles import ALL_TILES, FIRST_HONOUR, NUM_KINDS

from .declarations import DOUBLES, FLAG_DOUBLES, LINES, PART, REASONS

PAIRS = 7


def is_seven_pairs(request: ScoreRequest) -> bool:
    """§T.1: seven pairs, no melds; four alike are two pairs."""
    counts = request.concealed_counts
    return not request.melds and sum(counts) == 2 * PAIRS and all(c % 2 == 0 for c in counts)


def is_win(request: ScoreRequest) -> bool:
    return is_seven_pairs(request) or is_complete(request.concealed_counts)


def waits_of(request: ScoreRequest) -> list[int]:
    """The kinds that win a 13-tile hand (a kind held four times, melds included, never does)."""
    counts = list(request.concealed_counts)
    found = []
    for kind in range(NUM_KINDS):
        if request.all_counts[kind] >= 4:
            continue
        counts[kind] += 1
        if is_complete(counts) or (not request.melds and all(c % 2 == 0 for c in counts)):
            found.append(kind)
        counts[kind] -= 1
    return found


def is_pure(request: ScoreRequest) -> bool:
    """§T.2 清一色: every tile of one suit, no honours, melds included."""
    counts = request.all_counts
    if any(counts[FIRST_HONOUR:]):
        return False
    return sum(1 for suit in range(3) if any(counts[suit * 9 : suit * 9 + 9])) == 1


@dataclass(frozen=True, slots=True)
class Reading:
    """A way to read the hand: its shape, the decomposition of a standard one, and the doubles it earns."""

    shape: str  # "standard" or "qidui"
    decomposition: Decomposition | None
    doubles: tuple[str, ...]  # codes of §T.2, in the declared order


def readings(request: ScoreRequest) -> list[Reading]:
    """Every legal reading: each standard decomposition, and seven pairs."""
    shared = [code for code in ("qingyise",) if is_pure(request)]
    shared += [double for flag, double in FLAG_DOUBLES.items() if flag in request.flags]
    found = [Reading("standard", d, _ordered(shared)) for d in decompositions(request.concealed_counts)]
    if is_seven_pairs(request):
        found.append(Reading("qidui", None, _ordered([*shared, "qidui"])))
    return found


def _ordered(codes: list[str]) -> tuple[str, ...]:
    return tuple(code for code in DOUBLES if code in codes)


def value_of(request: ScoreRequest, reading: Reading) -> int:
    """§T.3: the base, times 2 for each double (and for a self-draw under the house rule zimo_double)."""
    times = len(reading.doubles) + self_draw_doubles(request)
    return request.options.base * 2**times


def self_draw_doubles(request: ScoreRequest) -> bool:
    return request.discarder is None and request.options.house["zimo_double"]


def best(request: ScoreRequest, found: list[Reading]) -> Reading:
    """The reading that pays the most; then the one with more doubles; then the first (RULES.md §0)."""
    return max(found, key=lambda reading: (value_of(request, reading), len(reading.doubles)))


def payments(request: ScoreRequest, value: int, lang: str) -> list[PaymentRow]:
    """§T.3: a discard is paid by the discarder alone, a self-draw by each of the others (three, or one at two)."""
    winner, discarder = request.winner, request.discarder
    if discarder is not None:
        return [row(discarder, winner, value, PART, "discard", REASONS["discard"](lang))]
    return [
        row(seat, winner, value, PART, "self_draw", REASONS["self_draw"](lang))
        for seat in request.seats
        if seat != winner
    ]


def groups(request: ScoreRequest, reading: Reading) -> list[dict]:
    """The hand as groups for display: a standard decomposition, or the seven pairs (the winning tile marked)."""
    win = request.win_tile.index
    if reading.decomposition is not None:
        return decomposition_groups(request, reading.decomposition, _win_role(reading.decomposition, win))
    counts = request.concealed_counts
    pairs = [kind for kind in range(NUM_KINDS) for _ in range(counts[kind] // 2)]
    marked = pairs.index(win)
    return [
        {"type": "pair", "tiles": format_tiles((ALL_TILES[k],) * 2), "concealed": True, "win": n == marked}
        for n, k in enumerate(pairs)
    ]


def _win_role(decomposition: Decomposition, win: int) -> str | None:
    """The role of the first group that holds the winning tile: the one the card marks."""
    if decomposition.pair == win:
        return "pair"
    for kind, first in decomposition.sets:
        if kind == "tri" and first == win:
            return "triplet"
        if kind == "seq" and first <= win <= first + 2:
            return "middle" if win == first + 1 else "side"
    return None


def explain(request: ScoreRequest, reading: Reading, value: int, lang: str) -> list[Line]:
    """Every number: the base, each double, the value."""
    base = request.options.base
    lines = [line(lang, "base", LINES["base"], LINES["base_detail"](lang).format(base=base), base, "§T.3")]
    for code in reading.doubles:
        lines.append(line(lang, "double", LINES["double"], DOUBLES[code].name, 2, "§T.2"))
    if self_draw_doubles(request):
        lines.append(line(lang, "double", LINES["double"], LINES["zimo_double"], 2, "§T.3"))
    doubled = len(reading.doubles) + self_draw_doubles(request)
    detail = " × ".join([str(base)] + ["2"] * doubled) + f" = {value}" if doubled else str(value)
    lines.append(line(lang, "value", LINES["value"], detail, value, "§T.3"))
    return lines
