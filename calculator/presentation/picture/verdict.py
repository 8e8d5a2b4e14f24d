"""The picture of one hand's answer (issue 32), made from the result card the page shows (cards.py, the same
presenter and answer): a win (the hand read into groups, who pays whom, every number with its rule), a hand that is
no win (why, and the nearest win) and the waits of a 13-tile hand; each under the game and its rule card, with the
QR code of the share link at the foot. Any other card (nothing entered, an error) has no picture."""

from __future__ import annotations

from calculator.engine.rulesets import RULESETS

from ..cards import NoWinCard, ResultCard, WaitsCard, WinCard
from ..entered import entered_hand
from ..handquery import HandInput
from ..locale import Locale
from ..tiles import TileView, short_name
from ..who_pays import ArrowCell, SeatCell
from ..words import card_words, with_name
from .art import TILE_RATIO
from .draw import GAP, INNER, MARGIN, Box, Column, Group, Picture, PlacedTile, Words
from .frame import band, close, picture, section
from .preview import preview
from .text import LEAST, fit
from .text import width as text_width

TILE = 64  # px: a tile's width when a row has room for it
SMALLEST_TILE = 48  # below this the tile's own numerals would be smaller than the picture's smallest text
GROUP_GAP = 20
LABEL_ROOM = 128  # px under a group for its label, however few its tiles
LABEL_MOST = 280  # px a group's label may take beside its tiles (it wraps past that)
CELL_GAP = 12
CELL_PAD = 16


PICTURED = (WinCard, NoWinCard, WaitsCard)  # the cards that have a picture


def has_picture(card: ResultCard) -> bool:
    return isinstance(card, PICTURED)


def hand_picture(
    hand: HandInput, answer: dict | None, card: ResultCard, link: str, home: str, locale: Locale
) -> Picture | None:
    """The picture of this card, or None for a card that has none; `link` is the share link (its QR code),
    `home` the calculator's absolute URL."""
    _ = locale.gettext
    request = (answer or {}).get("request") or hand.request
    lead = game_words(request, locale)
    if isinstance(card, WinCard):
        parts = [
            band(
                lead,
                card.verdict,
                [" · ".join([*card.summary, card.bao] if card.bao else card.summary)],
                card.winner_net,
            ),
            read_groups(card, answer or {}, locale),
            who_pays(card, locale),
            every_number(card, locale),
        ]
    elif isinstance(card, NoWinCard):
        parts = [band(lead, _("Not a win"), [card.message, card.distance]), entered(request, locale)]
        if card.nearest:
            parts.append(nearest(card, locale))
    elif isinstance(card, WaitsCard):
        said = _("What %(winner)s would win with each tile.") % {"winner": winner_words(hand, request, locale)}
        parts = [band(lead, card.title, [said if card.count else card.why]), entered(request, locale)]
        parts.append(waits(card, locale) if card.waits else helping(card, locale))
    else:
        return None
    title = preview(card, lead, locale).title
    return picture(parts, link, home, _("Scan to open this hand with every number"), title, locale)


def winner_words(hand: HandInput, request: dict, locale: Locale) -> str:
    """The winner's seat and name, as the card says them ("南 · 小王")."""
    winner = request.get("winner") or "E"
    return with_name(card_words(locale)["seats"][winner], hand.names.get(winner))


def game_words(request: dict, locale: Locale) -> list[str]:
    """The game and its rule card in a few words: the game, each option that is set (a choice's value, a yes, a
    number or a tile other than the default), and each house rule read otherwise than by default."""
    lang = locale.lang
    ruleset = RULESETS.get(request.get("ruleset") or "")
    if ruleset is None:
        return []
    options = request.get("options") or {}
    words = [ruleset.title(lang)]
    for option in ruleset.options:
        value = options.get(option.id, option.default)
        if option.choices:
            words += [c.label(lang) for c in option.choices if c.value == value]
        elif option.kind == "bool" and value:
            words.append(option.label(lang))
        elif option.kind == "tile" and value:
            words.append(f"{option.label(lang)} {short_name(value, locale)}")
        elif option.kind == "int" and value != option.default:
            words.append(f"{option.label(lang)} {value}")
    house = options.get("house") or {}
    for rule in ruleset.house:
        if rule.id in house and house[rule.id] != rule.default:
            words.append(f"{rule.label(lang)}: {rule.choice(house[rule.id]).label(lang)}")
    return words


# ------------------------------------------------------------------------------------------ tiles


def span_of(tiles: list[TileView], label: str, width: float) -> float:
    """How wide a group of tiles is in its row: its tiles, or the room its label needs to be said in a line or two
    (at least LABEL_ROOM, at most LABEL_MOST) where that is more."""
    if not label:
        return len(tiles) * width
    said = text_width(label, LEAST + 2)
    two_lines = said / 2 + 2 * (LEAST + 2)  # a line may break a word or two short of the half
    return max(len(tiles) * width, min(LABEL_MOST, max(LABEL_ROOM, said if said <= LABEL_ROOM else two_lines)))


def tile_width(groups: list[tuple[list[TileView], str, str, str]], room: float) -> int:
    """The widest tile, at most TILE, at which the groups fit side by side in `room`; SMALLEST_TILE when they do not
    fit even then (the row then wraps, groups whole)."""
    for width in range(TILE, SMALLEST_TILE - 1, -2):
        if sum(span_of(g[0], g[1], width) for g in groups) + GROUP_GAP * (len(groups) - 1) <= room:
            return width
    return SMALLEST_TILE


def tile_rows(
    groups: list[tuple[list[TileView], str, str, str]], locale: Locale, room: float = INNER, x0: float = MARGIN
) -> Group:
    """Groups of tiles side by side, each with its label under it, wrapping to a new row where they do not fit.
    A group is (tiles, label, box tone or "", the notation of the winning tile in it or ""); a wild tile has
    the tile it stands for drawn under it, dashed."""
    width = tile_width(groups, room)
    holder = Group()
    x, y, row_height = x0, 0.0, 0.0
    for tiles, label, tone, win in groups:
        span = span_of(tiles, label, width)
        if x > x0 and x + span > x0 + room:
            x, y, row_height = x0, round(y + row_height + GAP, 1), 0.0
        group = Group(x=x, y=y, hooks={"tiles": "".join(t.n for t in tiles)})
        winning = max((i for i, t in enumerate(tiles) if t.n == win), default=-1)
        tall = round(width * TILE_RATIO, 1)
        stands = any(t.wild and t.stands for t in tiles)
        for i, tile in enumerate(tiles):
            mark = "win" if i == winning else (tile.state or ("wild" if tile.wild else ""))
            group.tiles.append(PlacedTile(i * width, 0, width, tile.n, mark))
            if tile.wild and tile.stands:
                group.tiles.append(PlacedTile(i * width, tall + 8, width, tile.stands, "stands"))
        if tone:
            group.boxes.append(Box(-6, -6, len(tiles) * width + 12, tall + 12, tone))
        under = round(tall + (tall + 8 if stands else 0) + 10, 1)
        if label:
            said = Words(0, under, fit(label, span, LEAST + 2, lines=2), "muted")
            group.words.append(said)
            under = round(under + said.height, 1)
        group.height = under
        holder.groups.append(group)
        row_height = max(row_height, under)
        x += span + GROUP_GAP
    holder.height = round(y + row_height, 1)
    return holder


def place(column: Column, inner: Group, gap: float = 16) -> None:
    """`inner` (placed from its own top) under what the column holds."""
    inner.y = column.y
    column.group.groups.append(inner)
    column.skip(inner.height + gap)


def read_groups(card: WinCard, answer: dict, locale: Locale) -> Group:
    """How the hand was read: each group or meld of the engine's reading, its label, where a meld came from, and
    the winning tile marked."""
    _ = locale.gettext
    seats = card_words(locale)["seats"]
    win = answer["request"].get("win_tile") or ""
    decomposition = answer.get("decomposition", [])
    groups = []
    for view, raw in zip(card.groups, decomposition, strict=True):
        words = [view.label + (f" ← {seats[raw['from']]}" if raw.get("from") else "")]
        words += [t.caption for t in view.tiles if t.caption]
        if view.win:
            words.append(_("winning tile"))
        groups.append((view.tiles, " · ".join(words), "meld" if view.meld else "", win if view.win else ""))
    group, column = section(_("How the hand was read"), {"part": "hand"})
    place(column, tile_rows(groups, locale))
    return close(group, column)


def entered(request: dict, locale: Locale) -> Group:
    """The hand as entered: its tiles, each meld, the winning tile apart."""
    _ = locale.gettext
    hand = entered_hand(request, locale)
    groups: list[tuple[list[TileView], str, str, str]] = [(hand.tiles, "", "", "")]
    for meld in hand.melds:
        groups.append((meld.tiles, meld.label + (f" ← {meld.source_label}" if meld.source else ""), "meld", ""))
    if hand.win:
        groups.append(([hand.win], _("winning tile"), "", hand.win.n))
    group, column = section(_("Hand"), {"part": "hand"})
    place(column, tile_rows(groups, locale))
    return close(group, column)


# ------------------------------------------------------------------------------------------ who pays whom


def who_pays(card: WinCard, locale: Locale) -> Group:
    """The who-pays picture of the card: its cells, three a row (a seat, a payer's arrow, or nothing);
    each seat with its name, roles and net; each arrow with its amount."""
    _ = locale.gettext
    group, column = section(_("Who pays whom"), {"part": "who-pays"})
    cell_width = (INNER - 2 * CELL_GAP) / 3
    grid = Group(y=column.y)
    y = 0.0
    for row in range(0, len(card.cells), 3):  # three columns; as many rows as the table's shape has
        cells = [cell_group(c, cell_width) for c in card.cells[row : row + 3]]
        height = max(c.height for c in cells)
        for n, cell in enumerate(cells):
            cell.x = round(MARGIN + n * (cell_width + CELL_GAP), 1)
            cell.y = round(y + (height - cell.height) / 2 if cell.hooks.get("arrow") else y, 1)
            if cell.hooks.get("seat"):
                cell.boxes[0].h = height  # the seats of a row as tall as each other
            grid.groups.append(cell)
        y += height + CELL_GAP
    grid.height = round(y - CELL_GAP, 1)
    column.group.groups.append(grid)
    column.skip(grid.height + 16)
    return close(group, column)


def cell_group(cell, width: float) -> Group:
    """One cell of the who-pays picture, placed from its own top left."""
    group = Group()
    if isinstance(cell, SeatCell):
        group.hooks = {"seat": cell.seat, "net": str(cell.net)}
        tone = "winner" if any(r.code == "win" for r in cell.roles) else "card"
        group.boxes.append(Box(0, 0, width, 0, tone, "line"))
        column = Column(group, width - 2 * CELL_PAD, CELL_PAD, CELL_PAD)
        column.words(" · ".join([cell.label, *(r.label for r in cell.roles)]), 30, lines=2, bold=True, gap=4)
        if cell.name:
            column.words(cell.name, 30, lines=2, gap=4)
        column.words(cell.net_text, 64, bold=True, tone=cell.sign, gap=4)
        if cell.parts:
            column.words(cell.parts, LEAST + 2, lines=3, tone="muted", gap=4)
        group.height = round(column.y + CELL_PAD, 1)
    elif isinstance(cell, ArrowCell):
        group.hooks = {"arrow": cell.arrow, "amount": str(cell.amount)}
        column = Column(group, width, 0, 0)
        for text, size, tone in ((cell.arrow, 64, "muted"), (str(cell.amount), 44, "ink")):
            placed = Words(width / 2, column.y, fit(text, width, size, bold=True), tone, "middle")
            group.words.append(placed)
            column.skip(placed.height)
        for part in cell.parts:
            placed = Words(width / 2, column.y, fit(part, width, LEAST + 2), "muted", "middle")
            group.words.append(placed)
            column.skip(placed.height)
        group.height = column.y
    return group


# ------------------------------------------------------------------------------------------ every number


def every_number(card: WinCard, locale: Locale) -> Group:
    """Every line of the arithmetic: what it is and its rule's section, how it was worked out, its value."""
    _ = locale.gettext
    group, column = section(_("Every number"), {"part": "lines"})
    value_room = 180
    for line in card.lines:
        top = column.y
        row = Column(group, INNER - value_room - GAP, MARGIN, top)
        row.words(f"{line.label} {line.rule}", 30, lines=2, bold=True, gap=2)
        if line.detail:
            row.words(line.detail, LEAST + 2, lines=3, tone="muted", gap=2)
        value = Words(MARGIN + INNER, top, fit(str(line.value), value_room, 34, bold=True), "ink", "end")
        group.words.append(value)
        column.y = round(max(row.y, top + value.height) + 10, 1)
        group.boxes.append(Box(MARGIN, column.y - 6, INNER, 2, "rule"))
        column.skip(8)
    for note in card.notes:
        column.words(f"{note.label}: {note.note}", LEAST + 2, lines=4, tone="muted", gap=6)
    return close(group, column)


# ------------------------------------------------------------------------------------------ no win, waits


def nearest(card: NoWinCard, locale: Locale) -> Group:
    """One nearest win: its groups with the missing tiles dashed and the held tiles that do not fit crossed out;
    the best tiles to throw."""
    _ = locale.gettext
    group, column = section(_("The nearest win"), {"part": "nearest"})
    column.words(_("Dashed tiles are still missing; the tiles marked × do not fit and go out."), LEAST + 2, lines=3)
    place(column, tile_rows([(g.tiles, g.label, "", "") for g in card.nearest], locale))
    if card.open_places:
        column.words(card.open_places, LEAST + 2, lines=2)
    if card.misfits:
        place(column, tile_rows([(card.misfits, _("Do not fit"), "", "")], locale))
    if card.discards:
        column.words(_("Best to throw"), 30, bold=True)
        for discard in card.discards:
            row = tile_rows([([discard.tile], "", "", "")], locale)
            line = Column(row, INNER - SMALLEST_TILE * 2, MARGIN + TILE + GAP, 8)
            line.words(f"{discard.then} · {discard.helps}", 28, lines=2)
            row.height = max(row.height, line.y)
            place(column, row, 10)
    return close(group, column)


def waits(card: WaitsCard, locale: Locale) -> Group:
    """Each tile the hand waits on, and what each way of winning on it pays: the winner's gain, the others' nets."""
    _ = locale.gettext
    group, column = section(_("What each wait pays"), {"part": "waits"})
    for wait in card.waits:
        row = Group(y=column.y, hooks={"wait": wait.tile.n})
        row.tiles.append(PlacedTile(MARGIN, 0, TILE, wait.tile.n))
        text = Column(row, INNER - TILE - GAP, MARGIN + TILE + GAP, 0)
        for way in wait.rows:
            if not way.ok:
                text.words(way.message, LEAST + 2, lines=3, tone="muted", gap=10)
                continue
            text.words(f"{way.label} {way.gain}", 32, lines=2, bold=True, tone="plus", gap=2)
            text.words(" · ".join(f"{n.label}\u00a0{n.text}" for n in way.nets), 30, lines=2, gap=2)
            if way.patterns:
                text.words(" · ".join(way.patterns), LEAST + 2, lines=2, tone="muted", gap=2)
            text.skip(10)
        row.height = round(max(text.y, TILE * TILE_RATIO), 1)
        group.groups.append(row)
        column.skip(row.height + 12)
        group.boxes.append(Box(MARGIN, column.y - 8, INNER, 2, "rule"))
    return close(group, column)


def helping(card: WaitsCard, locale: Locale) -> Group:
    """A hand that is not ready: the tiles whose draw brings it nearer, with how many of each are left."""
    _ = locale.gettext
    group, column = section(_("Tiles that help:"), {"part": "draws"})
    if card.draws:
        place(column, tile_rows([([d.tile], f"×{d.left}", "", "") for d in card.draws], locale))
        column.words(card.draws_total, 28)
    return close(group, column)
