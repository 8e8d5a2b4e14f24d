"""What the result card shows, as plain data: one engine answer (API.md) turned into the values the card's
template (jinja2/result.html) places, texts already translated, numbers already signed, tile pictures' URLs,
no markup.

The result card is one of: empty, progress, invalid (the page's form errors), error, failed, nowin, waits, win;
each is a dataclass whose `kind` names the template branch. `result_card` chooses it; the win card is built by
the functions below it, one per part of the card (the who-pays picture is who_pays.py). Everything here is
given a `Locale` (locale.py) and imports no Django: the same code runs in the phone's browser (issue 22).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import ClassVar

from calculator.engine import InvalidNotationError, parse_tiles, score
from calculator.engine.claims import win_level
from calculator.engine.hand import concealed_size
from calculator.engine.rulesets import RULESETS, Ruleset

from .handquery import HandInput, field_label, field_text, form_field, query_string
from .locale import Locale
from .readings import reading_arithmetic
from .tiles import TileView, group_tiles, tile_view, tile_views, wild_in
from .who_pays import Cell, PaymentRow, compass, payment_rows
from .words import card_words, claims_anchor, rule_anchor, signed, with_name

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------------ the values


class ResultCard:
    """What the result area shows: one of the cards below, chosen by `result_card`; `kind` names the template's
    branch. (Not the rule card: that is a table's or the page's house rules.)"""

    __slots__ = ()
    kind: ClassVar[str]


@dataclass(slots=True)
class GroupView:
    """One group of "how the hand was read": its tiles, label, who it came from, whether it holds the win."""

    label: str
    tiles: list[TileView]
    win: bool
    meld: bool
    source: str


@dataclass(slots=True)
class LineView:
    """One explanation line of "every number"; `anchor` is the rule's anchor on the rules page."""

    code: str
    label: str
    rule: str
    anchor: str
    detail: str
    value: int


@dataclass(slots=True)
class Note:
    label: str
    note: str


@dataclass(slots=True)
class FieldError:
    field: str
    message: str


@dataclass(slots=True)
class SeatNet:
    label: str
    text: str


@dataclass(slots=True)
class WaitRow:
    """One way of winning on a wait: `ok` with its label, the winner's gain, the others' nets and the query of
    its full result; or not a win, with the engine's message."""

    how: str
    ok: bool
    message: str = ""
    label: str = ""
    gain: str = ""
    nets: list[SeatNet] = field(default_factory=list)
    query: str = ""
    patterns: list[str] = field(default_factory=list)  # the names of the patterns it scores


@dataclass(slots=True)
class WaitView:
    tile: TileView
    rows: list[WaitRow]


@dataclass(slots=True)
class AltNet:
    """One seat under another reading: its net there, and whether it differs from today's."""

    seat: str
    label: str
    net: int
    text: str
    today: str
    differs: bool


@dataclass(slots=True)
class AltRow:
    """Another reading of the rule card (RULES.md §5.3): the rule and its other value, what the hand pays then
    (or why it is no win), and the query that switches the page's rule card to it."""

    key: str  # "<id>=<value>" (data-alt)
    option: str
    value: str
    win: bool
    nets: list[AltNet]
    message: str
    query: str
    arithmetic: str = ""  # how the reading comes to its numbers (readings.py)


@dataclass(slots=True)
class RuleEffect:
    """What one rule of the card, changed from its default reading, does to this hand: nothing (`unchanged`), or
    the nets it makes (`nets`: each seat's now, with what the default reading pays, AltNet.net)."""

    rule: str  # the house rule's id
    label: str
    unchanged: bool
    nets: list[AltNet] = field(default_factory=list)


@dataclass(slots=True)
class EmptyCard(ResultCard):
    """Nothing entered yet: how to begin."""

    kind: ClassVar[str] = "empty"


@dataclass(slots=True)
class ProgressCard(ResultCard):
    """Fewer tiles than the hand needs: how many are missing, and how many of how many are there."""

    kind: ClassVar[str] = "progress"
    to_go: str
    so_far: str


@dataclass(slots=True)
class InvalidCard(ResultCard):
    """The whole page's form refused the input (field label, message per error)."""

    kind: ClassVar[str] = "invalid"
    errors: list[FieldError]


@dataclass(slots=True)
class ErrorCard(ResultCard):
    """The engine refused the hand (API.md's error object: its stable code and message), and the page's field
    the error is about (`field`, its `label`), where the page shows the message too."""

    kind: ClassVar[str] = "error"
    code: str
    message: str
    field: str = ""
    label: str = ""


@dataclass(slots=True)
class FailedCard(ResultCard):
    """The engine failed (a bug, logged): the card says so and asks for the share link."""

    kind: ClassVar[str] = "failed"


@dataclass(slots=True)
class NoWinCard(ResultCard):
    """A complete hand that does not win, with the engine's code and reason, and the readings under which it
    would win."""

    kind: ClassVar[str] = "nowin"
    code: str
    message: str
    alternatives: list[AltRow] = field(default_factory=list)
    distance: str = ""  # "2 exchanges from a win"
    nearest: list[GroupView] = field(default_factory=list)  # one nearest win, its missing tiles marked
    open_places: str = ""  # what fills a nearest win's places open to any fitting tile
    misfits: list[TileView] = field(default_factory=list)  # the held tiles that do not fit it
    discards: list[DiscardView] = field(default_factory=list)  # the best tiles to throw (issue 21)


@dataclass(slots=True)
class DiscardView:
    """One of the best tiles to throw from 14 that do not win (the engine's `discards`): what the 13 left are."""

    tile: TileView
    then: str  # "then 1 exchange from ready"
    helps: str  # "12 tiles help" (unseen tiles that bring the 13 nearer)


@dataclass(slots=True)
class DrawView:
    """A tile whose draw brings a hand that is not ready nearer (the engine's `draws`): its copies still unseen,
    and the query of the 14 tiles with it drawn (the calculator then shows what to throw)."""

    tile: TileView
    left: int
    label: str  # the link's accessible name
    query: str


@dataclass(slots=True)
class WaitsCard(ResultCard):
    """The waits of a 13-tile hand (`title` and `hint` say how many, and whose); none: not ready."""

    kind: ClassVar[str] = "waits"
    count: int
    title: str
    hint: str
    waits: list[WaitView]
    why: str = ""  # no waits: how far from ready, or why no wait wins (八支)
    draws: list[DrawView] = field(default_factory=list)  # not ready: the tiles that help (issue 21)
    draws_total: str = ""  # "7 tiles in all"


@dataclass(slots=True)
class WinCard(ResultCard):
    """A win: the verdict sentence and the winner's gain, the summary numbers, who pays whom (the nine cells and
    every payment), how the hand was read, and every number with its rule."""

    kind: ClassVar[str] = "win"
    verdict: str
    winner_net: str
    summary: list[str]
    bao: str  # "… pays for everyone", or empty
    cells: list[Cell]
    payments: list[PaymentRow]
    groups: list[GroupView]
    lines: list[LineView]
    notes: list[Note]
    alternatives: list[AltRow] = field(default_factory=list)
    readings: bool = False  # the other readings of the rule card were looked at (none may change the hand)
    rule_effects: list[RuleEffect] = field(default_factory=list)  # the card's changed rules and what they do
    level: LineView | None = (
        None  # the level at which it claims a discard others claim too (拦胡), in a game with levels
    )


# ------------------------------------------------------------------------------------------ the card


def ask_engine(hand: HandInput, lang: str) -> dict | None:
    """The engine's answer for this hand, with the other readings of the card when a winning tile is given; None
    when the engine failed (the page must answer, never 500: the log keeps the engine's bug)."""
    request = {**hand.request, "alternatives": True} if hand.request.get("win_tile") else hand.request
    try:
        return score(request, lang)
    except Exception:
        log.exception("engine failed on %r", hand.request)
        return None


def result_card(hand: HandInput, answer: dict | None, locale: Locale) -> ResultCard:
    """What the result area shows for this hand and the engine's answer (in the locale's language)."""
    if answer is None:
        return FailedCard()
    if "error" in answer:
        # a hand still being tapped in is refused by the engine like a wrong one: tell them apart (a character
        # that is no tile is an error however many tiles are there)
        unreadable = answer["error"]["code"] == "bad_tile"
        return (not unreadable and progress_card(hand.request, locale)) or error_card(
            hand.request, answer["error"], locale
        )
    if "waits" in answer:
        return waits_card(hand, answer, locale)
    if not answer.get("win"):
        card = NoWinCard(answer.get("code") or "", answer.get("message", ""), alternative_rows(hand, answer, locale))
        return with_nearest(card, answer, locale)
    card = win_card(answer, hand.names, locale)
    card.alternatives = alternative_rows(hand, answer, locale)
    ruleset = RULESETS[answer["ruleset"]]
    card.readings = "alternatives" in answer and any(rule.scoring for rule in ruleset.house)
    card.rule_effects = rule_effects(hand, card.alternatives, locale)
    level = win_level(ruleset, answer, locale.lang)
    if level is not None and answer["request"]["discarder"] is not None:  # a self-draw takes no discard
        label = locale.gettext("Claim level")
        card.level = LineView("level", label, level["rule"], claims_anchor(ruleset.id), level["name"], level["level"])
    return card


def rule_effects(hand: HandInput, rows: list[AltRow], locale: Locale) -> list[RuleEffect]:
    """Each rule the card changes from its default reading, and whether that changes this hand: the engine's other
    readings hold one back to the default only where it pays otherwise (its nets there are the default's)."""
    ruleset = RULESETS[hand.request["ruleset"]]
    changed = (hand.request.get("options") or {}).get("house") or {}
    by_key = {row.key: row for row in rows}
    effects = []
    for rule in ruleset.house:
        if rule.id not in changed or not rule.scoring:
            continue
        back = by_key.get(f"{rule.id}={field_text(rule.default)}")
        effects.append(RuleEffect(rule.id, rule.label(locale.lang), back is None, back.nets if back else []))
    return effects


def alternative_rows(hand: HandInput, answer: dict, locale: Locale) -> list[AltRow]:
    """The engine's `alternatives` as rows: each seat's net under the other reading beside today's, and the
    share query of the same hand with that one rule changed."""
    entries = answer.get("alternatives") or []
    if not entries:
        return []
    _, lang = locale.gettext, locale.lang
    request = answer["request"]
    ruleset = RULESETS[request["ruleset"]]
    seat_words = card_words(locale)["seats"]
    seats = ruleset.seats(request["options"])  # the table's: E S W at a table of three
    today = answer["net"] if answer.get("win") else dict.fromkeys(seats, 0)
    rows = []
    for entry in entries:
        rule = ruleset.house_by_id[entry["option"]]
        net = entry["net"] if entry["win"] else dict.fromkeys(seats, 0)
        card = {**(hand.request["options"].get("house") or {}), rule.id: entry["value"]}
        if entry["value"] == rule.default:
            del card[rule.id]
        options = {**hand.request["options"], "house": card}
        changed = {**hand.request, "options": options}
        rows.append(
            AltRow(
                key=f"{rule.id}={field_text(entry['value'])}",
                option=rule.label(lang),
                value=rule.choice(entry["value"]).label(lang),
                win=entry["win"],
                nets=[
                    AltNet(s, seat_words[s], net[s], signed(net[s]), signed(today[s]), net[s] != today[s])
                    for s in seats
                ],
                message="" if entry["win"] else _("Not a win") + f" ({entry['code']})",
                query=query_string(HandInput(changed, hand.names)),
                arithmetic=reading_arithmetic(changed, lang) if entry["win"] else "",
            )
        )
    return rows


def progress_card(request: dict, locale: Locale) -> EmptyCard | ProgressCard | None:
    """Nothing entered yet, or fewer concealed tiles than the melds leave room for; None otherwise (a hand
    that cannot be read or has too many tiles is the engine's error to show)."""
    try:
        have = len(parse_tiles(request["hand"]))
    except InvalidNotationError:
        return None
    melds = request["melds"]
    need = concealed_size(len(melds))
    if have == 0 and not melds and not request.get("win_tile"):
        return EmptyCard()
    if have >= need:
        return None
    _, ngettext = locale.gettext, locale.ngettext
    return ProgressCard(
        ngettext("%(counter)s more tile to go", "%(counter)s more tiles to go", need - have) % {"counter": need - have},
        _("%(have)s of %(need)s tiles before the winning tile.") % {"have": have, "need": need},
    )


def error_card(request: dict, error: dict, locale: Locale) -> ErrorCard:
    """The engine's error, placed at the page's field it is about. An unreadable tile is told in the page's own
    words ("第 15 个字符 'x' 无法识别"): the engine's message names the request's field for API clients."""
    _ = locale.gettext
    field = form_field(error.get("field"))
    message = error["message"]
    text = typed(request, error.get("field") or "")
    position = error.get("position")
    if error["code"] == "bad_tile" and isinstance(position, int) and position < len(text):
        message = _("Character %(n)d, “%(char)s”, is not part of a tile.") % {"n": position + 1, "char": text[position]}
    return ErrorCard(error["code"], message, field, field_label(field, locale))


def typed(request: dict, path: str) -> str:
    """The text of the request at an error's path (`hand`, `win_tile`, `melds[0].tiles`), or empty."""
    if path in ("hand", "win_tile"):
        return request.get(path) or ""
    melds = request.get("melds") or []
    for n, meld in enumerate(melds):
        if path == f"melds[{n}].tiles" and isinstance(meld, dict):
            return meld.get("tiles") or ""
    return ""


def invalid_card(errors: list[tuple[str, str]]) -> InvalidCard:
    """The page's form errors: (field label, message) pairs."""
    return InvalidCard([FieldError(label, message) for label, message in errors])


def waits_card(hand: HandInput, answer: dict, locale: Locale) -> WaitsCard:
    """The waits of a 13-tile hand: per wait, what the winner gains by self-draw and by a discard (from the
    下家, or whoever the engine's way of winning names), each linked to its full result with that way's flags."""
    _, ngettext = locale.gettext, locale.ngettext
    winner = answer["request"]["winner"]
    seat_words = card_words(locale)["seats"]

    def way_label(way: dict) -> str:
        feeder = way["discarder"]
        if feeder is None:
            return _("Self-draw")
        return _("Discard by %(seat)s") % {"seat": with_name(seat_words[feeder], hand.names.get(feeder))}

    # each way of winning as the engine scored it: its discarder and the flags that apply to it
    ways = [(way["how"], way["discarder"], way["flags"], way_label(way)) for way in answer["ways"]]
    waits = []
    for wait in answer["waits"]:
        rows = []
        for how, discarder, flags, label in ways:
            variant = wait[how]
            if variant is None:  # that way is not a win: the engine says why
                rows.append(WaitRow(how, False, wait["why_not"][how]["message"]))
                continue
            net = variant["net"]
            rows.append(
                WaitRow(
                    how,
                    True,
                    label=label,
                    gain=signed(net[winner]),
                    nets=[SeatNet(seat_words[s], signed(net[s])) for s in net if s != winner],  # the answer's seats
                    query=query_string(hand.with_win(wait["tile"], discarder, flags)),
                    patterns=pattern_names(answer["ruleset"], variant, locale.lang),
                )
            )
        waits.append(WaitView(tile_view(wait["tile"], locale), rows))
    count = len(waits)
    return WaitsCard(
        count,
        ngettext("Waiting on %(counter)s tile", "Waiting on %(counter)s tiles", count) % {"counter": count}
        if count
        else _("Not ready: no tile completes this hand"),
        _("What %(winner)s would win with each tile. Tap a line for the full breakdown.")
        % {"winner": with_name(seat_words[winner], hand.names.get(winner))},
        waits,
        "" if count else not_ready(answer, locale),
        *helping_draws(hand, answer, locale),
    )


def helping_draws(hand: HandInput, answer: dict, locale: Locale) -> tuple[list[DrawView], str]:
    """The engine's `draws` of a hand that is not ready, each linked to the 14 tiles with it drawn, and their
    total ("7 tiles in all")."""
    _ = locale.gettext
    wild = RULESETS[answer["ruleset"]].wild_tile(answer)
    draws = []
    for draw in answer.get("draws", []):
        tile = tile_view(draw["tile"], locale)
        if draw["tile"] == wild:
            tile = replace(tile, wild=True)
        label = _("%(tile)s, %(left)s left: see the 14 tiles and what to throw") % {
            "tile": tile.name,
            "left": draw["left"],
        }
        draws.append(DrawView(tile, draw["left"], label, query_string(hand.with_win(draw["tile"], None, []))))
    if not draws:
        return [], ""
    total = answer["draws_left"]
    return draws, locale.ngettext("%(counter)s tile in all", "%(counter)s tiles in all", total) % {"counter": total}


def win_card(answer: dict, names: dict[str, str], locale: Locale) -> WinCard:
    _ = locale.gettext
    request = answer["request"]
    winner, discarder = request["winner"], request["discarder"]
    said = card_words(locale)
    labels = {seat: with_name(said["seats"][seat], names.get(seat)) for seat in answer["net"]}  # the table's seats
    if discarder:
        verdict = _("%(winner)s wins on %(discarder)s's discard") % {
            "winner": labels[winner],
            "discarder": labels[discarder],
        }
    else:
        verdict = _("%(winner)s wins by self-draw") % {"winner": labels[winner]}
    return WinCard(
        verdict=verdict,
        winner_net=signed(answer["net"][winner]),
        summary=RULESETS[answer["ruleset"]].headline(answer, locale.lang),
        bao=_("%(seat)s pays for everyone") % {"seat": labels[answer["bao"]]} if answer.get("bao") else "",
        cells=compass(answer, names, labels, said, locale),
        payments=payment_rows(answer, labels, locale.lang),
        groups=groups(answer, labels, locale, said),
        lines=explanation_lines(answer),
        notes=[Note(label["label"], label["note"]) for label in answer.get("labels", [])],
    )


def groups(answer: dict, labels: dict, locale: Locale, said: dict) -> list[GroupView]:
    """How the hand was read: the engine's groups, with each wild tile shown where it stands in."""
    ruleset = RULESETS[answer["ruleset"]]
    wild = ruleset.wild_tile(answer)
    out = []
    for g in answer.get("decomposition", []):
        tiles = list(group_tiles(g["tiles"], locale))
        if wild:
            for stands_for in ruleset.stands_for(g):
                tiles = wild_in(tiles, stands_for, wild, locale)
        out.append(
            GroupView(
                label=group_label(g, ruleset, locale, said["groups"]),
                tiles=tiles,
                win=g.get("win", False),
                meld=g["type"] in said["melds"],
                source=labels[g["from"]] if g.get("from") else "",
            )
        )
    return out


def group_label(group: dict, ruleset: Ruleset, locale: Locale, words: dict[str, str]) -> str:
    """A group's name: a pair, a set or a meld by its word; a hand read without sets (十三不搭, 全风向, 4龙) by its
    pattern's name; anything else (an answer stored before groups were typed so) as any tiles."""
    pattern = ruleset.pattern_by_code.get(group["type"])
    return words.get(group["type"]) or (pattern.name(locale.lang) if pattern else locale.gettext("Any tiles"))


def explanation_lines(answer: dict) -> list[LineView]:
    """Every number of the answer, each with its rule's anchor on the rules page."""
    return [
        LineView(line["code"], line["label"], line["rule"], rule_anchor(line["rule"]), line["detail"], line["value"])
        for line in answer.get("explanation", [])
    ]


# ------------------------------------------------------------------------------------------ for learners (issue 13)


def pattern_names(game: str, answer: dict, lang: str) -> list[str]:
    """The names of the patterns a scored way of winning names (the game's declared patterns)."""
    ruleset = RULESETS[game]
    return [ruleset.pattern_by_code[code].name(lang) for code in ruleset.patterns_of(answer)]


def not_ready(answer: dict, locale: Locale) -> str:
    """Why a 13-tile hand waits on nothing: the engine's reason when the shape is there but the game's own
    condition is not (八支), else how many exchanges it is from ready."""
    if answer.get("blocked_message"):
        return answer["blocked_message"]
    shanten = answer.get("shanten")
    if shanten is None:
        return ""
    return locale.ngettext(
        "%(counter)s exchange from ready: one tile out, one in.",
        "%(counter)s exchanges from ready: each one tile out, one in.",
        shanten,
    ) % {"counter": shanten}


def with_nearest(card: NoWinCard, answer: dict, locale: Locale) -> NoWinCard:
    """A 14-tile hand that is no win, with how far it is from one and one nearest win (the engine's `nearest`):
    its groups, each tile held, a wild tile standing in, or missing, and the held tiles that do not fit."""
    nearest = answer.get("nearest")
    if not nearest:
        return card
    ngettext = locale.ngettext
    card.distance = ngettext(
        "%(counter)s exchange from a win", "%(counter)s exchanges from a win", nearest["distance"]
    ) % {"counter": nearest["distance"]}
    said = card_words(locale)["groups"]
    ruleset = RULESETS[answer["ruleset"]]
    wild = ruleset.wild_tile(answer)
    open_places = 0
    for g in nearest["groups"]:
        wilds = ruleset.stands_for(g) if wild else []
        label = group_label(g, ruleset, locale, said)
        card.nearest.append(GroupView(label, near_tiles(g, wild, wilds, locale), False, False, ""))
        open_places += g["open"]
    if open_places:
        card.open_places = ngettext(
            "and %(counter)s more tile that fits", "and %(counter)s more tiles that fit", open_places
        ) % {"counter": open_places}
    card.misfits = [replace(t, state="misfit") for t in tile_views(nearest["misfits"], locale)]
    card.discards = best_discards(answer, {t.n for t in card.misfits}, locale)
    return card


BEST_DISCARDS = 3  # the card lists at most this many of the tiles that leave the nearest 13


def best_discards(answer: dict, misfits: set[str], locale: Locale) -> list[DiscardView]:
    """The engine's best discards: those leaving the lowest shanten (it lists them with the most helping tiles
    first); among equals, the tiles the nearest win shown does not use (`misfits`) first."""
    _, ngettext = locale.gettext, locale.ngettext
    rows = [row for row in answer.get("discards", []) if row["shanten"] is not None]
    best = [row for row in rows if row["shanten"] == rows[0]["shanten"]] if rows else []
    best.sort(key=lambda row: (-row["improving"], row["tile"] not in misfits))  # stable: the engine's order after
    views = []
    for row in best[:BEST_DISCARDS]:
        shanten, improving = row["shanten"], row["improving"]
        if shanten == 0:
            then = _("then ready")
            helps = ngettext("%(counter)s tile wins", "%(counter)s tiles win", improving)
        else:
            then = ngettext(
                "then %(counter)s exchange from ready", "then %(counter)s exchanges from ready", shanten
            ) % {"counter": shanten}
            helps = ngettext("%(counter)s tile helps", "%(counter)s tiles help", improving)
        views.append(DiscardView(tile_view(row["tile"], locale), then, helps % {"counter": improving}))
    return views


def near_tiles(group: dict, wild: str | None, wilds: list[str], locale: Locale) -> list[TileView]:
    """A nearest win's group: its held tiles, the wild tile standing in for each of `wilds` (captioned) and the
    missing ones (marked)."""
    _ = locale.gettext
    tiles = list(group_tiles(group["tiles"], locale))
    for stands_for in wilds:
        tiles = wild_in(tiles, stands_for, wild, locale)
    missing = [m.notation for m in parse_tiles(group["missing"])] if group["missing"] else []
    # a missing tile is a plain one of its kind; else a wild tile still to draw, standing in (where a natural tile
    # would be a fifth copy)
    for wild_pass in (False, True):
        for i in range(len(tiles) - 1, -1, -1):
            tile = tiles[i]
            if tile.wild == wild_pass and tile.n in missing and not tile.state:
                missing.remove(tile.n)
                tiles[i] = replace(tile, state="missing", name=_("missing %(tile)s") % {"tile": tile.name})
    return tiles
