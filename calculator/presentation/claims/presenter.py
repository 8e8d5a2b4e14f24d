"""What the page "who takes the discard" shows, as plain data: the input (fields.py) asked of the engine's claims
(calculator.engine.claims: the game's `[claims]` ranks them), then who takes the discard and why, each claim in
play order after the discarder with its level (in a game with levels) or its place, and what the taking win pays
as the calculator's result card (cards.py). Texts already translated; no markup; nothing here names a game.

The answer is one of: the calculator's empty card (nothing claimed yet), progress (the discard or a claimant's tiles still missing),
the calculator's error card (the engine refused the input: its code and message, at the page's field it is
about), its failed card (the engine failed: logged), or the claims settled.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import ClassVar

from calculator.engine.claims import Claim, parse_claims, settle
from calculator.engine.errors import ScoreError
from calculator.engine.rulesets import RULESETS
from calculator.engine.score import alternatives
from calculator.engine.seats import SEATS

from ..cards import EmptyCard, ErrorCard, FailedCard, ProgressCard, ResultCard, progress_card, result_card
from ..handquery import HandInput, field_label, query_string
from ..locale import Locale
from ..tiles import TileView, tile_view
from ..words import card_words, claims_anchor, signed, with_name
from .fields import CLAIM_FIELD, TILE, ClaimsInput, page_field

log = logging.getLogger(__name__)


class ClaimsAnswer:
    """What the page's answer shows: one of the views below; `kind` names the template's branch."""

    __slots__ = ()
    kind: ClassVar[str]


@dataclass(slots=True)
class StillMissing(ClaimsAnswer):
    """The discard, or some claimant's tiles, are still to be entered: one line for each."""

    kind: ClassVar[str] = "progress"
    lines: list[str]


@dataclass(slots=True)
class ClaimRow:
    """One claim in play order after the discarder: its seat, its place, whether it wins and at which level (or why
    not), whether it takes the discard, and what it wins (or would have won)."""

    seat: str
    label: str
    place: str
    wins: bool
    level: int | None
    said: str  # "级别 1 · 清一色", "胡牌", or why it is no win
    takes: bool
    gain: str = ""
    query: str = ""  # its hand in the calculator (the whole breakdown)


@dataclass(slots=True)
class OtherClaim:
    """A claim that does not take the discard, folded under the answer: its result card (the page draws the
    calculator's strip of it: the verdict, the nets) and its hand in the calculator."""

    seat: str
    label: str
    card: ResultCard
    query: str


@dataclass(slots=True)
class Settled(ClaimsAnswer):
    """Who takes the discard and why: the verdict, the engine's reason, the game's rule (`[claims] how`), the
    claims in play order, the taking win's result card and hand, and the other claims."""

    kind: ClassVar[str] = "answer"
    winner: str  # the seat that takes it, or "" when no claim wins
    reason_code: str
    verdict: str
    tile: TileView
    discarded: str  # "西家打出"
    reason: str
    how: str
    rule: str
    anchor: str
    levels: bool  # the game ranks claims by levels (else by play order alone)
    order: str  # the seats after the discarder, in play order
    rows: list[ClaimRow]
    gain: str = ""  # what the taking win wins (its net)
    card: ResultCard | None = None  # the taking win's
    hand: HandInput | None = None  # the taking win's, as the calculator's hand (recorded at a table)
    others: list[OtherClaim] = field(default_factory=list)


def claims_answer(claims: ClaimsInput, locale: Locale) -> ClaimsAnswer | EmptyCard | ErrorCard | FailedCard:
    """What the page shows for its input, in the locale's language."""
    if not claims.claims:
        return EmptyCard()
    missing = missing_lines(claims, locale)
    if missing:
        return StillMissing(missing)
    try:
        parsed = parse_claims(claims.body())
    except ScoreError as error:
        return refused(claims, error.to_dict(locale.lang)["error"], locale)
    try:
        answer, scored = settle(parsed, locale.lang)
    except Exception:
        log.exception("engine failed on the claims %r", claims.body())
        return FailedCard()
    return settled(claims, answer, scored, locale)


def missing_lines(claims: ClaimsInput, locale: Locale) -> list[str]:
    """What is still to be entered: the discard (its tile, who threw it), and each claim short of tiles (the
    calculator's own progress card: how many more)."""
    _ = locale.gettext
    lines = [] if claims.tile else [_("Tap the discarded tile.")]
    if not claims.shared.request.get("discarder"):
        lines.append(_("Choose the discarder."))
    seats = card_words(locale)["seats"]
    for seat, hand in claims.claims:
        short = progress_card({**hand.request, "win_tile": ""}, locale)
        to_go = short.to_go if isinstance(short, ProgressCard) else _("Tap its tiles.") if short else ""
        if to_go:
            lines.append(f"{with_name(seats[seat], claims.names.get(seat))}: {to_go}")
    return lines


def refused(claims: ClaimsInput, error: dict, locale: Locale) -> ErrorCard:
    """The engine's error, at the page's field it is about ("南 · 手牌")."""
    name = page_field(error.get("field"), claims)
    seat = seat_of_field(name)
    if seat:
        label = f"{card_words(locale)['seats'][seat]} · {field_label(name.partition('_')[2], locale)}"
    elif name == TILE:
        label = locale.gettext("The discarded tile")
    else:
        label = field_label(name, locale)
    return ErrorCard(error["code"], error["message"], name, label)


def settled(claims: ClaimsInput, answer: dict, scored: list[Claim], locale: Locale) -> Settled:
    _, lang = locale.gettext, locale.lang
    ruleset = RULESETS[answer["ruleset"]]
    seats = card_words(locale)["seats"]
    names = claims.names

    def label(seat: str) -> str:
        return with_name(seats[seat], names.get(seat))

    winner = answer["winner"] or ""
    levels = bool(ruleset.claims.levels)
    rows = [claim_row(entry, claims, levels, label, locale) for entry in answer["claims"]]
    view = Settled(
        winner=winner,
        reason_code=answer["reason_code"],
        verdict=_("%(seat)s takes the discard") % {"seat": label(winner)} if winner else _("Nobody wins on it"),
        tile=tile_view(answer["tile"], locale),
        discarded=_("%(seat)s discarded") % {"seat": label(answer["discarder"])},
        reason=answer["reason"][:1].upper() + answer["reason"][1:],  # a sentence of its own here
        how=ruleset.claims.how(lang),
        rule=answer["rule"],
        anchor=claims_anchor(ruleset.id),
        levels=levels,
        order=" → ".join(seats[seat] for seat in answer["order"]),
        rows=rows,
        gain=next((row.gain for row in rows if row.takes), ""),
    )
    for claim in scored:
        hand = claims.hand_of(claim.seat)
        if claim.seat == winner:
            taken = {**claim.result, "alternatives": alternatives(ruleset, claim.request, claim.result)}
            view.card, view.hand = result_card(hand, taken, locale), hand
        else:
            card = result_card(hand, claim.result, locale)
            view.others.append(OtherClaim(claim.seat, label(claim.seat), card, query_of(hand)))
    return view


def claim_row(entry: dict, claims: ClaimsInput, levels: bool, label, locale: Locale) -> ClaimRow:
    """One claim of the engine's answer as a row: its place after the discarder, its level and patterns (in a game
    with levels) or what a win is called, or why it does not win."""
    _ = locale.gettext
    seat, wins = entry["seat"], entry["win"]
    if not wins:
        said = _("Not a win: %(why)s") % {"why": entry["level_reason"]}
    elif levels:
        said = _("Level %(n)s") % {"n": entry["level"]} + f" · {entry['level_reason']}"
    else:
        said = entry["level_reason"]
    net = entry["result"].get("net") or {}
    return ClaimRow(
        seat=seat,
        label=label(seat),
        place=_("No. %(n)s after the discarder") % {"n": entry["position"]},
        wins=wins,
        level=entry["level"],
        said=said,
        takes=entry["takes_discard"],
        gain=signed(net[seat]) if wins else "",
        query=query_of(claims.hand_of(seat)),
    )


def query_of(hand: HandInput | None) -> str:
    """A claim's hand as the calculator's link (its whole breakdown there)."""
    return query_string(hand) if hand else ""


def seat_of_field(name: str) -> str:
    """The seat a claimant's field belongs to (`W_hand` → W), or empty for a shared field."""
    seat, _sep, own = name.partition("_")
    return seat if seat in SEATS and CLAIM_FIELD.fullmatch(own) else ""
