"""The result card and the strip as HTML: jinja2/result.html and jinja2/strip.html rendered by a Jinja2
environment of their own, given a `Locale` (its translations, static and page URLs), with no Django.

The server's pages and htmx partial render them here with the locale Django's translations make
(calculator/plumbing/django_locale.py); the phone renders the same templates with the same code under Pyodide
(issue 22), with a locale read from the compiled catalogue: `draw_hand` is its one call.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from jinja2 import BaseLoader, Environment, FileSystemLoader, ModuleLoader, Template

from .cards import ResultCard, ask_engine, result_card
from .handquery import Fields, HandInput, Query, parse_query, query_string
from .locale import Locale
from .picture.art import tile_art
from .picture.draw import Picture
from .picture.verdict import hand_picture, has_picture
from .strip import strip

TEMPLATES = Path(__file__).resolve().parents[2] / "jinja2"


@dataclass(frozen=True, slots=True)
class CardLinks:
    """What the card links to besides the site's pages: the hand's share query and absolute share link, and, on
    a calculator bound to a ledger table, the binding (`table`, its `query`, version, whether it is playing) and
    the idempotency key of "record this hand"."""

    share_query: str = ""
    share_url: str = ""
    table: dict | None = None
    record_key: str = ""


@lru_cache(maxsize=8)
def environment(locale: Locale) -> Environment:
    """One Jinja2 environment per locale: its `_()` is the locale's gettext (Jinja2's new-style gettext, as
    Django's Jinja2 backend installs it), output escaped, templates never reloaded: compiled once from jinja2/,
    or, for a locale with compiled templates (the offline pack's), imported from their modules."""
    loader = FileSystemLoader(TEMPLATES) if locale.templates is None else ModuleLoader(locale.templates)
    return configured(loader, locale)


def configured(loader: BaseLoader, locale: Locale) -> Environment:
    env = Environment(loader=loader, autoescape=True, auto_reload=False, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(locale.gettext, locale.ngettext, newstyle=True, pgettext=locale.pgettext)
    return env


def compile_templates(names: Collection[str], folder: Path) -> None:
    """The templates `names` of jinja2/ compiled into `folder` as Python modules (Jinja2's
    `Environment.compile_templates`), by an environment set up as `environment` sets one up: what a locale whose
    `templates` is that folder draws with. The words are not compiled in (`_()` is called as the page is drawn),
    so one compilation serves every language."""
    source = Locale.from_catalogue("en", None, str, str)
    env = configured(FileSystemLoader(TEMPLATES), source)
    env.compile_templates(folder, filter_func=frozenset(names).__contains__, zip=None, ignore_errors=False)


def template(name: str, locale: Locale) -> Template:
    return environment(locale).get_template(name)


def card_html(card: ResultCard, locale: Locale, links: CardLinks = CardLinks()) -> str:
    """The result card (jinja2/result.html), and the share box under it when there is a share link."""
    return template("result.html", locale).render(
        result=card,
        share_query=links.share_query,
        share_url=links.share_url,
        table=links.table,
        record_key=links.record_key,
        rules_page=locale.page("rules"),
        calculator_page=locale.page("calculator"),
        pictured=has_picture(card),
    )


def strip_html(card: ResultCard, locale: Locale, oob: bool = False) -> str:
    """The strip (jinja2/strip.html) of whatever the card shows; `oob` wraps it for htmx, which swaps it into the
    page's #strip beside the card."""
    return template("strip.html", locale).render(strip=strip(card, locale), oob=oob)


@dataclass(frozen=True, slots=True)
class DrawnHand:
    """One hand drawn: the inside of #strip, the inside of #result (the card and its share box), the share query."""

    strip: str
    card: str
    share_query: str


def draw_hand(fields: Query | str, locale: Locale, origin: str = "", table: dict | None = None) -> DrawnHand:
    """The strip and the result card (HTML) of one hand given as the calculator's fields, a `Query` or a query
    string (a share link's): scored by the engine and drawn as the htmx partial draws them. `origin`
    ("https://example.org") makes the share link absolute, as the server writes it; `table` is the binding of a
    calculator bound to a ledger table (CardLinks), if any. The hand is read and its share query written once."""
    hand = parse_query(Fields.of(fields) if isinstance(fields, str) else fields)
    share_query = query_string(hand)
    card = result_card(hand, ask_engine(hand, locale.lang), locale)
    share_url = f"{origin}{locale.page('calculator')}?{share_query}"
    links = CardLinks(share_query, share_url, table)
    return DrawnHand(strip_html(card, locale), card_html(card, locale, links), share_query)


def render_hand(fields: Query | str, locale: Locale, origin: str = "") -> tuple[str, str]:
    """The strip (without its out-of-band wrapper) and the card of one hand, as `draw_hand` draws them."""
    drawn = draw_hand(fields, locale, origin)
    return drawn.strip, drawn.card


def picture_svg(picture: Picture, locale: Locale) -> str:
    """A picture (calculator.presentation.picture) as SVG: jinja2/picture.svg."""
    return template("picture.svg", locale).render(picture=picture, art=tile_art)


def draw_picture(fields: Query | str, locale: Locale, origin: str) -> str | None:
    """The picture (SVG) of one hand's answer, as its share link gives it (a `Query` or a query string): scored and
    laid out as the card is, its QR code the share link at `origin` ("https://example.org"); None for an answer
    that has no picture (nothing entered, an error). The phone's one call, the server's too."""
    return hand_svg(parse_query(Fields.of(fields) if isinstance(fields, str) else fields), locale, origin)


def hand_svg(hand: HandInput, locale: Locale, origin: str) -> str | None:
    """`draw_picture` of a hand already read."""
    answer = ask_engine(hand, locale.lang)
    card = result_card(hand, answer, locale)
    home = f"{origin}{locale.page('calculator')}"
    drawn = hand_picture(hand, answer, card, f"{home}?{query_string(hand)}", home, locale)
    return None if drawn is None else picture_svg(drawn, locale)
