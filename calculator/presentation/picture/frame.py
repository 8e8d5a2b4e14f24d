"""What every picture has around its content: the band at the top (what game, what was decided) and the foot (the
QR code of the link, the app's address), and the sections between them, each with its heading; and how the
parts become one picture."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..locale import Locale
from .art import qr_code
from .draw import GAP, INNER, MARGIN, WIDTH, Box, Column, Group, Picture, PlacedCode, Words, parts_stacked, tiles_used
from .text import fit

PAD = 36  # inside the band and the foot


def band(lead: list[str], title: str, subtitle: list[str], figure: str = "", hooks: dict | None = None) -> Group:
    """The band at the top: the game and its rule card (`lead`), the verdict (`title`, with the winner's
    `figure` large at the right) and what follows it (`subtitle`, each a paragraph)."""
    group = Group(hooks=hooks or {"part": "verdict"})
    column = Column(group, INNER, MARGIN, PAD)
    if lead:
        column.words(" · ".join(lead), 28, lines=3, tone="head-muted", gap=14)
    room = INNER
    if figure:
        gain = Words(WIDTH - MARGIN, column.y - 6, fit(figure, 300, 80, bold=True), "head-plus", "end")
        group.words.append(gain)
        room = INNER - gain.fitted.widest - GAP
    top = column.y
    placed = Words(MARGIN, top, fit(title, room, 52, lines=2, least=32, bold=True), "head-ink")
    group.words.append(placed)
    column.y = round(top + max(placed.height, figure and 80 * 1.1 or 0) + 10, 1)
    for paragraph in subtitle:
        if paragraph:
            column.words(paragraph, 32, lines=3, tone="head-ink", gap=10)
    group.height = round(column.y - 10 + PAD, 1)
    group.boxes.insert(0, Box(0, 0, WIDTH, group.height, "head"))
    return group


def section(heading: str, hooks: dict | None = None) -> tuple[Group, Column]:
    """A part of the picture under a heading; the caller places its content with the column and sets the
    group's height (`close`)."""
    group = Group(hooks=hooks or {})
    column = Column(group, INNER, MARGIN, 0)
    column.words(heading, 34, lines=2, bold=True, tone="heading", gap=16)
    return group, column


def close(group: Group, column: Column) -> Group:
    group.height = round(column.y, 1)
    return group


def foot(link: str, home: str, invite: str, locale: Locale) -> tuple[Group, PlacedCode]:
    """The QR code of `link` at the left and, beside it, what it opens (`invite`) and the app's address (`home`,
    the calculator's absolute URL)."""
    _ = locale.gettext
    code = qr_code(link)
    group = Group(hooks={"part": "link"})
    text_x = MARGIN + code.size + GAP
    column = Column(group, WIDTH - MARGIN - text_x, text_x, PAD)
    column.words(invite, 32, lines=3, bold=True, gap=16)
    column.words(_("Mahjong calculator"), 28, tone="muted", gap=6)
    column.words(address(home), 30, lines=3, tone="link", gap=6)
    group.height = round(max(code.size, column.y) + 2 * PAD, 1)
    group.boxes.append(Box(0, 0, WIDTH, group.height, "foot"))
    return group, PlacedCode(MARGIN, PAD, code)


def address(home: str) -> str:
    """The app's address as a person types it: its host and path, without the scheme."""
    parts = urlsplit(home)
    return parts.netloc + parts.path.rstrip("/")


def picture(parts: list[Group], link: str, home: str, invite: str, title: str, locale: Locale) -> Picture:
    """The parts one under the other, the foot with the QR code of `link` last."""
    last, placed = foot(link, home, invite, locale)
    parts_stacked([*parts, last])
    placed.y += last.y
    return Picture(WIDTH, round(last.y + last.height), locale.lang, title, [*parts, last], tiles_used(parts), placed)
