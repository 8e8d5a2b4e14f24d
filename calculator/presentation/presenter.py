"""What the result card shows, as plain data: one engine answer (API.md) turned into the values the card's
template places (texts already translated, numbers already signed, tile pictures' URLs), with no markup.

The card is one of: empty, progress, invalid (the page's form errors), error, failed, nowin, waits, win; each is a
dataclass whose `kind` names the template branch. `result_card` chooses it; the win card is built by the functions
below it, one per part of the card (the who-pays picture, the payments, the groups, the explanation lines).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import ClassVar

from django.templatetags.static import static
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

from calculator.engine import InvalidNotationError, parse_tiles, score
from calculator.engine.rulesets import RULESETS
from calculator.engine.tiles import SEATS, Tile, next_seat
from calculator.pages.calculator.forms import MELD_LABELS, SEAT_LABELS, HandForm, tile_name
from calculator.presentation.handquery import HandInput, form_field, house_text, query_string
from calculator.presentation.texts import local

log = logging.getLogger(__name__)

# Where each seat sits in the 3 × 3 payment picture: the table seen from above, play order counter-clockwise.
SEAT_POS = {"W": (0, -1), "N": (-1, 0), "S": (1, 0), "E": (0, 1)}
CELL_NAMES = {
    (-1, -1): "tl",
    (0, -1): "t",
    (1, -1): "tr",
    (-1, 0): "l",
    (0, 0): "c",
    (1, 0): "r",
    (-1, 1): "bl",
    (0, 1): "b",
    (1, 1): "br",
}
CELL_ORDER = ("tl", "t", "tr", "l", "c", "r", "bl", "b", "br")
ARROWS = {(0, -2): "↑", (0, 2): "↓", (2, 0): "→", (-2, 0): "←", (1, -1): "↗", (1, 1): "↘", (-1, 1): "↙", (-1, -1): "↖"}
GROUP_LABELS = {"pair": gettext_lazy("Pair"), "sequence": gettext_lazy("Sequence"), "triplet": gettext_lazy("Triplet")}


# ------------------------------------------------------------------------------------------ the values


class Kinded:
    """A value the card's template tells apart by its `kind` (a card, or a cell of the who-pays picture)."""

    __slots__ = ()
    kind: ClassVar[str]

    def __init_subclass__(cls, kind: str = "", **options) -> None:
        super().__init_subclass__(**options)
        if kind:
            cls.kind = kind


class Card(Kinded):
    """What the result area shows: one of the cards below, chosen by `result_card`."""

    __slots__ = ()


class Cell(Kinded):
    """One of the nine cells of the who-pays picture."""

    __slots__ = ()


@dataclass(slots=True)
class TileView:
    """One tile picture: notation, name (the alt text), picture URL; `wild` for a 财神 standing in, with
    `caption` saying for what ("当北", written under it); `state` in a nearest win (issue 13): "missing" (a tile
    still to draw) or "misfit" (a held tile that does not fit)."""

    n: str
    name: str
    src: str
    wild: bool = False
    caption: str = ""
    state: str = ""


@dataclass(slots=True)
class Role:
    code: str
    label: str


@dataclass(slots=True)
class SeatCell(Cell, kind="seat"):
    """A seat in the who-pays picture: its label, the player's name, the net (signed text and number), its
    roles and, where the game splits nets into parts (Ruleset.parts), the net part by part."""

    pos: str
    seat: str
    label: str
    name: str
    roles: list[Role]
    net: int
    net_text: str
    sign: str
    parts: str


@dataclass(slots=True)
class ArrowCell(Cell, kind="arrow"):
    """A payer's arrow towards the winner: the amount, what it carries of each part when it carries more than one
    (Ruleset.parts), and the sentence a screen reader says instead of the arrow."""

    pos: str
    arrow: str
    amount: int
    parts: list[str]
    says: str


@dataclass(slots=True)
class EmptyCell(Cell, kind="empty"):
    """A corner of the who-pays picture with nothing in it."""

    pos: str


@dataclass(slots=True)
class PaymentRow:
    """One row of "every payment"; `part` is empty where no part tag is shown (a game without parts)."""

    payer: str
    payee: str
    amount: int
    reason: str
    part: str
    part_label: str


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
class EmptyCard(Card, kind="empty"):
    """Nothing entered yet: how to begin."""


@dataclass(slots=True)
class ProgressCard(Card, kind="progress"):
    """Fewer tiles than the hand needs: how many are missing, and how many of how many are there."""

    to_go: str
    so_far: str


@dataclass(slots=True)
class InvalidCard(Card, kind="invalid"):
    """The whole page's form refused the input (field label, message per error)."""

    errors: list[FieldError]


@dataclass(slots=True)
class ErrorCard(Card, kind="error"):
    """The engine refused the hand (API.md's error object: its stable code and message), and the page's field
    the error is about (`field`, its `label`), where the page shows the message too."""

    code: str
    message: str
    field: str = ""
    label: str = ""


@dataclass(slots=True)
class FailedCard(Card, kind="failed"):
    """The engine failed (a bug, logged): the card says so and asks for the share link."""


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
    (or why it is no win), and the query that switches the card to it."""

    key: str  # "<id>=<value>" (data-alt)
    option: str
    value: str
    win: bool
    nets: list[AltNet]
    message: str
    query: str


@dataclass(slots=True)
class NoWinCard(Card, kind="nowin"):
    """A complete hand that does not win, with the engine's code and reason, and the readings under which it
    would win."""

    code: str
    message: str
    alternatives: list[AltRow] = field(default_factory=list)
    distance: str = ""  # "2 exchanges from a win"
    nearest: list[GroupView] = field(default_factory=list)  # one nearest win, its missing tiles marked
    open_places: str = ""  # what fills a nearest win's places open to any fitting tile
    misfits: list[TileView] = field(default_factory=list)  # the held tiles that do not fit it


@dataclass(slots=True)
class WaitsCard(Card, kind="waits"):
    """The waits of a 13-tile hand (`title` and `hint` say how many, and whose); none: not ready."""

    count: int
    title: str
    hint: str
    waits: list[WaitView]
    why: str = ""  # no waits: how far from ready, or why no wait wins (八支)


@dataclass(slots=True)
class WinCard(Card, kind="win"):
    """A win: the verdict sentence and the winner's gain, the summary numbers, who pays whom (the nine cells and
    every payment), how the hand was read, and every number with its rule."""

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


# ------------------------------------------------------------------------------------------ small helpers


def signed(n: int) -> str:
    """+19, −7 (a real minus sign), 0."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def with_name(label: str, name: str | None) -> str:
    """ "南 · 小王": a seat's label and the player's name, when one is given."""
    return f"{label} · {name}" if name else label


@cache
def tile_src(notation: str) -> str:
    """The URL of a tile's picture, asked of the static files storage once per tile and process."""
    return static("tiles/tiles.svg") + f"#{notation}"


@cache
def rule_anchor(rule: str) -> str:
    """`rule-12` for `§1.2`: the rules page's anchor for a rule reference."""
    return f"rule-{slugify(rule)}"


def tile_views(notation: str, lang: str) -> list[TileView]:
    """The tiles of a notation as pictures, in its order; none when it cannot be read (the engine says why)."""
    try:
        tiles = parse_tiles(notation)
    except InvalidNotationError:
        return []
    return [TileView(t.notation, tile_name(t, lang), tile_src(t.notation)) for t in tiles]


@lru_cache(maxsize=2048)
def group_tiles(notation: str, lang: str) -> tuple[TileView, ...]:
    """The pictures of one group or meld of the engine's answer (at most four tiles: a few hundred of them)."""
    return tuple(tile_views(notation, lang))


def tile_view(notation: str, lang: str) -> TileView:
    return group_tiles(notation, lang)[0]


def forget_static_urls() -> None:
    """After STATIC_URL or the storage changes (tests): the remembered picture URLs are stale."""
    tile_src.cache_clear()
    group_tiles.cache_clear()


@lru_cache(maxsize=8)
def words(language: str) -> dict:
    """The card's recurring words (seats, roles, groups) in one language, translated once per
    language (call it with the active language, `get_language()`)."""
    return {
        "seats": {seat: str(SEAT_LABELS[seat]) for seat in SEATS},
        "roles": {
            "win": pgettext("role", "Winner"),
            "dealer": pgettext("role", "Dealer"),
            "discarder": pgettext("role", "Discarder"),
            "bao": pgettext("role", "Pays for all"),
        },
        # the strip's short marks beside a seat's name
        "marks": {
            "win": pgettext("seat mark: the winner", "win"),
            "dealer": pgettext("seat mark: the dealer", "dealer"),
            "discarder": pgettext("seat mark: the discarder", "discard"),
            "bao": pgettext("seat mark: pays for everyone", "pays all"),
        },
        "groups": {kind: str(GROUP_LABELS.get(kind) or MELD_LABELS[kind]) for kind in (*GROUP_LABELS, *MELD_LABELS)},
    }


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


def result_card(hand: HandInput, answer: dict | None, lang: str) -> Card:
    """What the result area shows for this hand and the engine's answer (`lang`: the engine's "zh" / "en", for
    the tiles' names; the card's words are in the active language)."""
    if answer is None:
        return FailedCard()
    if "error" in answer:
        # a hand still being tapped in is refused by the engine like a wrong one: tell them apart (a character
        # that is no tile is an error however many tiles are there)
        unreadable = answer["error"]["code"] == "bad_tile"
        return (not unreadable and progress_card(hand.request)) or error_card(hand.request, answer["error"])
    if "waits" in answer:
        return waits_card(hand, answer, lang)
    if not answer.get("win"):
        card = NoWinCard(answer.get("code") or "", answer.get("message", ""), alternative_rows(hand, answer))
        return with_nearest(card, answer, lang)
    card = win_card(answer, hand.names, lang)
    card.alternatives = alternative_rows(hand, answer)
    return card


def alternative_rows(hand: HandInput, answer: dict) -> list[AltRow]:
    """The engine's `alternatives` as rows: each seat's net under the other reading beside today's, and the
    share query of the same hand with that one rule changed."""
    entries = answer.get("alternatives") or []
    if not entries:
        return []
    request = answer["request"]
    ruleset = RULESETS[request["ruleset"]]
    seat_words = words(get_language())["seats"]
    today = answer["net"] if answer.get("win") else dict.fromkeys(SEATS, 0)
    rows = []
    for entry in entries:
        rule = ruleset.house_by_id[entry["option"]]
        net = entry["net"] if entry["win"] else dict.fromkeys(SEATS, 0)
        card = {**(hand.request["options"].get("house") or {}), rule.id: entry["value"]}
        if entry["value"] == rule.default:
            del card[rule.id]
        options = {**hand.request["options"], "house": card}
        rows.append(
            AltRow(
                key=f"{rule.id}={house_text(entry['value'])}",
                option=local(rule.label),
                value=local(rule.choice(entry["value"]).label),
                win=entry["win"],
                nets=[
                    AltNet(s, seat_words[s], net[s], signed(net[s]), signed(today[s]), net[s] != today[s])
                    for s in SEATS
                ],
                message="" if entry["win"] else _("Not a win") + f" ({entry['code']})",
                query=query_string(HandInput({**hand.request, "options": options}, hand.names)),
            )
        )
    return rows


def progress_card(request: dict) -> EmptyCard | ProgressCard | None:
    """Nothing entered yet, or fewer concealed tiles than the melds leave room for; None otherwise (a hand
    that cannot be read or has too many tiles is the engine's error to show)."""
    try:
        have = len(parse_tiles(request["hand"]))
    except InvalidNotationError:
        return None
    melds = request["melds"]
    need = 13 - 3 * len(melds)
    if have == 0 and not melds and not request.get("win_tile"):
        return EmptyCard()
    if have >= need:
        return None
    return ProgressCard(
        ngettext("%(counter)s more tile to go", "%(counter)s more tiles to go", need - have) % {"counter": need - have},
        _("%(have)s of %(need)s tiles before the winning tile.") % {"have": have, "need": need},
    )


def error_card(request: dict, error: dict) -> ErrorCard:
    """The engine's error, placed at the page's field it is about. An unreadable tile is told in the page's own
    words ("第 15 个字符 'x' 无法识别"): the engine's message names the request's field for API clients."""
    field = form_field(error.get("field"))
    message = error["message"]
    text = typed(request, error.get("field") or "")
    position = error.get("position")
    if error["code"] == "bad_tile" and isinstance(position, int) and position < len(text):
        message = _("Character %(n)d, “%(char)s”, is not part of a tile.") % {"n": position + 1, "char": text[position]}
    label = HandForm.base_fields[field].label if field in HandForm.base_fields else ""
    return ErrorCard(error["code"], message, field, str(label or ""))


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


def waits_card(hand: HandInput, answer: dict, lang: str) -> WaitsCard:
    """The waits of a 13-tile hand: per wait, what the winner gains by self-draw and by a discard from the
    下家, each linked to its full result."""
    winner = answer["request"]["winner"]
    feeder = next_seat(winner)
    seat_words = words(get_language())["seats"]
    ways = (
        ("self_draw", None, _("Self-draw")),
        ("discard", feeder, _("Discard by %(seat)s") % {"seat": with_name(seat_words[feeder], hand.names[feeder])}),
    )
    waits = []
    for wait in answer["waits"]:
        rows = []
        for how, discarder, label in ways:
            variant = wait.get(how) or {}
            if not variant.get("win"):
                message = variant.get("message") or variant.get("error", {}).get("message", "")
                rows.append(WaitRow(how, False, message))
                continue
            net = variant["net"]
            flags = hand.request["flags"] if discarder is None else []
            rows.append(
                WaitRow(
                    how,
                    True,
                    label=label,
                    gain=signed(net[winner]),
                    nets=[SeatNet(seat_words[s], signed(net[s])) for s in SEATS if s != winner],
                    query=query_string(hand.with_win(wait["tile"], discarder, flags)),
                    patterns=pattern_names(answer["ruleset"], variant, lang),
                )
            )
        waits.append(WaitView(tile_view(wait["tile"], lang), rows))
    count = len(waits)
    return WaitsCard(
        count,
        ngettext("Waiting on %(counter)s tile", "Waiting on %(counter)s tiles", count) % {"counter": count}
        if count
        else _("Not ready: no tile completes this hand"),
        _("What %(winner)s would win with each tile. Tap a line for the full breakdown.")
        % {"winner": with_name(seat_words[winner], hand.names[winner])},
        waits,
        "" if count else not_ready(answer),
    )


def win_card(answer: dict, names: dict[str, str], lang: str) -> WinCard:
    request = answer["request"]
    winner, discarder = request["winner"], request["discarder"]
    said = words(get_language())
    labels = {seat: with_name(said["seats"][seat], names.get(seat)) for seat in SEATS}
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
        summary=RULESETS[answer["ruleset"]].headline(answer, lang),
        bao=_("%(seat)s pays for everyone") % {"seat": labels[answer["bao"]]} if answer.get("bao") else "",
        cells=compass(answer, names, labels, said, lang),
        payments=payment_rows(answer, labels, lang),
        groups=groups(answer, labels, lang, said),
        lines=explanation_lines(answer),
        notes=[Note(label["label"], label["note"]) for label in answer.get("labels", [])],
    )


def compass(answer: dict, names: dict[str, str], labels: dict, said: dict, lang: str) -> list[Cell]:
    """The nine cells of the who-pays picture, row by row: the four seats, each payer's arrow towards the
    winner (in the cell between them), the empty corners. Where the game splits nets into parts (bazhi's fan and
    jiao) each seat shows its net part by part, and an arrow what it carries of each part when it carries more
    than one."""
    request = answer["request"]
    winner = request["winner"]
    parts = RULESETS[answer["ruleset"]].parts
    net = answer["net"]
    by_part = answer.get("net_by_part") or {}
    seat_roles = {
        "win": winner,
        "dealer": request["dealer"],
        "discarder": request["discarder"],
        "bao": answer.get("bao"),
    }
    cells: dict[str, Cell] = {}
    for seat, position in SEAT_POS.items():
        pos = CELL_NAMES[position]
        # a narrow cell breaks at the dot only
        shown = " · ".join(f"{part.label(lang)}\u00a0{signed(by_part.get(part.id, {}).get(seat, 0))}" for part in parts)
        sign = "plus" if net[seat] > 0 else ("minus" if net[seat] < 0 else "zero")
        roles = [Role(code, said["roles"][code]) for code, holder in seat_roles.items() if holder == seat]
        label = said["seats"][seat]
        cells[pos] = SeatCell(pos, seat, label, names.get(seat, ""), roles, net[seat], signed(net[seat]), sign, shown)

    totals: dict[str, int] = {}  # what each payer pays the winner, in all and per part
    paid: dict[str, dict[str, int]] = {}
    ids = [part.id for part in parts]
    for p in answer["payments"]:
        totals[p["from"]] = totals.get(p["from"], 0) + p["amount"]
        if ids:
            of_payer = paid.setdefault(p["from"], dict.fromkeys(ids, 0))
            of_payer[p["part"] if p["part"] in of_payer else ids[0]] += p["amount"]
    wx, wy = SEAT_POS[winner]
    for payer, total in totals.items():
        px, py = SEAT_POS[payer]
        pos = CELL_NAMES[(px + wx, py + wy)]
        of_payer = paid.get(payer, {})
        several = sum(1 for amount in of_payer.values() if amount) > 1
        carried = [f"{part.label(lang)} {of_payer[part.id]}" for part in parts] if several else []
        says = _("%(payer)s pays %(winner)s %(amount)d") % {
            "payer": labels[payer],
            "winner": labels[winner],
            "amount": total,
        }
        cells[pos] = ArrowCell(pos, ARROWS[(wx - px, wy - py)], total, carried, says)
    return [cells.get(pos) or EmptyCell(pos) for pos in CELL_ORDER]


def payment_rows(answer: dict, labels: dict, lang: str) -> list[PaymentRow]:
    """Every transfer: from, to, amount, why, and the part it is paid in where the game splits nets in parts."""
    part_labels = {part.id: part.label(lang) for part in RULESETS[answer["ruleset"]].parts}
    return [
        PaymentRow(
            labels[p["from"]],
            labels[p["to"]],
            p["amount"],
            p["reason"],
            p["part"] if p["part"] in part_labels else "",
            part_labels.get(p["part"], ""),
        )
        for p in answer["payments"]
    ]


def groups(answer: dict, labels: dict, lang: str, said: dict) -> list[GroupView]:
    """How the hand was read: the engine's groups, with each wild tile shown where it stands in."""
    ruleset = RULESETS[answer["ruleset"]]
    wild = ruleset.wild_tile(answer)
    out = []
    for g in answer.get("decomposition", []):
        tiles = list(group_tiles(g["tiles"], lang))
        if wild:
            for stands_for in ruleset.stands_for(g):
                tiles = wild_in(tiles, stands_for, wild, lang)
        out.append(
            GroupView(
                label=said["groups"].get(g["type"]) or g["type"],
                tiles=tiles,
                win=g.get("win", False),
                meld=g["type"] in MELD_LABELS,
                source=labels[g["from"]] if g.get("from") else "",
            )
        )
    return out


def wild_in(tiles: list[TileView], stands_for: str, wild: str, lang: str) -> list[TileView]:
    """The group's tiles with the last natural `stands_for` shown as the 财神 standing in for it."""
    for i in range(len(tiles) - 1, -1, -1):
        tile = tiles[i]
        if tile.n == stands_for and not tile.wild:
            name = _("wild tile as %(tile)s") % {"tile": tile.name}
            caption = stands_as(tile.n, lang) if tile.n != wild else ""
            return [*tiles[:i], TileView(wild, name, tile_src(wild), True, caption), *tiles[i + 1 :]]
    return tiles


# ------------------------------------------------------------------------------------------ for learners (issue 13)


def stands_as(notation: str, lang: str) -> str:
    """What a 财神 stands for, short enough to write under the tile: 当北, as N."""
    tile = Tile.from_str(notation)
    return _("as %(tile)s") % {"tile": tile.notation if lang == "en" else tile.name_zh}


def pattern_names(game: str, answer: dict, lang: str) -> list[str]:
    """The names of the patterns a scored way of winning names (the game's declared patterns)."""
    ruleset = RULESETS[game]
    return [ruleset.pattern_by_code[code].name(lang) for code in ruleset.patterns_of(answer)]


def not_ready(answer: dict) -> str:
    """Why a 13-tile hand waits on nothing: the engine's reason when the shape is there but the game's own
    condition is not (八支), else how many exchanges it is from ready."""
    if answer.get("blocked_message"):
        return answer["blocked_message"]
    shanten = answer.get("shanten")
    if shanten is None:
        return ""
    return ngettext(
        "%(counter)s exchange from ready: one tile out, one in.",
        "%(counter)s exchanges from ready: each one tile out, one in.",
        shanten,
    ) % {"counter": shanten}


def with_nearest(card: NoWinCard, answer: dict, lang: str) -> NoWinCard:
    """A 14-tile hand that is no win, with how far it is from one and one nearest win (the engine's `nearest`):
    its groups, each tile held, a 财神 standing in, or missing, and the held tiles that do not fit."""
    nearest = answer.get("nearest")
    if not nearest:
        return card
    card.distance = ngettext(
        "%(counter)s exchange from a win", "%(counter)s exchanges from a win", nearest["distance"]
    ) % {"counter": nearest["distance"]}
    said = words(get_language())["groups"]
    ruleset = RULESETS[answer["ruleset"]]
    wild = ruleset.wild_tile(answer)
    open_places = 0
    for g in nearest["groups"]:
        pattern = ruleset.pattern_by_code.get(g["type"])
        label = said.get(g["type"]) or (pattern.name(lang) if pattern else _("Any tiles"))
        wilds = ruleset.stands_for(g) if wild else []
        card.nearest.append(GroupView(label, near_tiles(g, wild, wilds, lang), False, False, ""))
        open_places += g["open"]
    if open_places:
        card.open_places = ngettext(
            "and %(counter)s more tile that fits", "and %(counter)s more tiles that fit", open_places
        ) % {"counter": open_places}
    card.misfits = [replace(t, state="misfit") for t in tile_views(nearest["misfits"], lang)]
    return card


def near_tiles(group: dict, wild: str | None, wilds: list[str], lang: str) -> list[TileView]:
    """A nearest win's group: its held tiles, the wild tile standing in for each of `wilds` (captioned) and the
    missing ones (marked)."""
    tiles = list(group_tiles(group["tiles"], lang))
    for stands_for in wilds:
        tiles = wild_in(tiles, stands_for, wild, lang)
    missing = list(parse_tiles(group["missing"])) if group["missing"] else []
    for i in range(len(tiles) - 1, -1, -1):
        tile = tiles[i]
        if not tile.wild and any(m.notation == tile.n for m in missing):
            missing.remove(next(m for m in missing if m.notation == tile.n))
            tiles[i] = replace(tile, state="missing", name=_("missing %(tile)s") % {"tile": tile.name})
    return tiles


def explanation_lines(answer: dict) -> list[LineView]:
    """Every number of the answer, each with its rule's anchor on the rules page."""
    return [
        LineView(line["code"], line["label"], line["rule"], rule_anchor(line["rule"]), line["detail"], line["value"])
        for line in answer.get("explanation", [])
    ]


# ------------------------------------------------------------------------------------------ the entered hand


@dataclass(slots=True)
class MeldView:
    type: str
    label: str
    tiles: list[TileView]
    source: str


@dataclass(slots=True)
class EnteredHand:
    """The hand as entered, for the whole page's first paint (htmx and JavaScript keep it up to date)."""

    tiles: list[TileView]
    win: TileView | None
    melds: list[MeldView]


def entered_hand(request: dict, lang: str) -> EnteredHand:
    """From the engine's normalised request echo when it answered (sorted, canonical notation), else from the
    input as typed (sorted here; tiles that cannot be read are left out)."""
    hand = sorted(tile_views(request.get("hand") or "", lang), key=lambda t: Tile.from_str(t.n).index)
    win = tile_views(request.get("win_tile") or "", lang)
    melds = [
        MeldView(m["type"], str(MELD_LABELS[m["type"]]), tile_views(m["tiles"], lang), m.get("from") or "")
        for m in request.get("melds", [])
        if m["type"] in MELD_LABELS and m["tiles"]
    ]
    return EnteredHand(hand, win[0] if len(win) == 1 else None, melds)


# ------------------------------------------------------------------------------------------ the strip


@dataclass(slots=True)
class StripSeat:
    """One seat in the strip: its label, its short marks (庄, 胡, 铳, 包) and its net."""

    seat: str
    label: str
    marks: list[Role]
    net: int
    text: str
    sign: str


@dataclass(slots=True)
class Strip:
    """The answer in a few words, kept in view at the top of the page while the hand changes (issue 14 §1): the
    verdict and, for a win, the four nets with the seats' marks; otherwise one line of detail."""

    kind: str
    verdict: str
    detail: str
    seats: list[StripSeat]


def strip(card: Card) -> Strip:
    """The strip for whatever the result card shows."""
    if isinstance(card, WinCard):
        marks = words(get_language())["marks"]
        seats = sorted((c for c in card.cells if isinstance(c, SeatCell)), key=lambda c: SEATS.index(c.seat))
        return Strip(
            card.kind,
            card.verdict,
            " · ".join(card.summary),
            [
                StripSeat(c.seat, c.label, [Role(r.code, marks[r.code]) for r in c.roles], c.net, c.net_text, c.sign)
                for c in seats
            ],
        )
    verdict, detail = strip_words(card)
    return Strip(card.kind, verdict, detail, [])


def strip_words(card: Card) -> tuple[str, str]:
    """The verdict and the detail line of a card that is not a win."""
    if isinstance(card, WaitsCard):
        return card.title, " ".join(w.tile.name for w in card.waits)
    if isinstance(card, NoWinCard):
        return _("Not a win"), card.message
    if isinstance(card, ProgressCard):
        return card.to_go, card.so_far
    if isinstance(card, InvalidCard):
        return _("Please check the input"), card.errors[0].message if card.errors else ""
    if isinstance(card, ErrorCard):
        return _("This hand cannot be scored"), card.message
    if isinstance(card, FailedCard):
        return _("The calculator could not score this hand"), ""
    return _("Enter a hand to see who pays whom."), _(
        "Choose the game and the seats, then tap the 13 or 14 tiles. With 13 tiles and no winning tile you see the "
        "waits."
    )
