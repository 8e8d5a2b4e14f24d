"""The verdict's picture on the server (issue 32): `/picture/<app version>/<lang>.<svg|png>?<canonical query>`,
the SVG the phone draws into a PNG (static/js/picture.js) and the PNG a shared link's preview shows; and the
preview's tags on the calculator's page (templates/preview.html). The same presenter and template as the
phone's (calculator.presentation.render.hand_svg); the serving is calculator/plumbing/pictures.py's."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_http_methods

from calculator.plumbing import pictures
from calculator.plumbing.django_locale import page_locale, page_path
from calculator.presentation.cards import ResultCard
from calculator.presentation.handquery import HandInput, parse_query, query_string
from calculator.presentation.locale import Locale
from calculator.presentation.picture.preview import preview
from calculator.presentation.picture.verdict import game_words, has_picture
from calculator.presentation.render import hand_svg

LANGUAGES = {"zh": "zh-hans", "en": "en"}  # a picture's language in its URL: the site's language code


def picture_path(query: str, lang: str, kind: str) -> str:
    """The picture's path for a canonical query, in a language ("zh", "en") and a kind ("svg", "png")."""
    return reverse("picture", kwargs={"version": pictures.app_version(), "lang": lang, "kind": kind}) + f"?{query}"


def origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


@require_http_methods(["GET", "HEAD"])
def hand_picture(request: HttpRequest, version: str, lang: str, kind: str) -> HttpResponse:
    """The picture of the answer to the hand its query gives (404 for one without a picture: nothing entered, an
    error); a URL not written as its picture's own (another app version, a query not canonical) is sent on."""
    hand = parse_query(request.GET)
    canonical = query_string(hand)
    if version != pictures.app_version() or request.META.get("QUERY_STRING", "") != canonical:
        return pictures.moved(picture_path(canonical, lang, kind))
    with translation.override(LANGUAGES[lang]):
        svg = hand_svg(hand, page_locale(), origin(request))
    if svg is None:
        raise Http404("this answer has no picture")
    return pictures.picture_response(request, svg, kind)


def page_preview(request: HttpRequest, hand: HandInput, answer: dict | None, card: ResultCard, locale: Locale):
    """What the calculator's page says of itself where its link is pasted (Open Graph, Twitter card): the verdict
    in words and the picture's PNG; built from the hand alone (a calculator bound to a table keeps its edit link
    out of it). None for an answer without a picture."""
    if not has_picture(card):
        return None
    query = query_string(hand)
    said = preview(card, game_words((answer or {}).get("request") or hand.request, locale), locale)
    return {
        "title": said.title,
        "description": said.description,
        "url": request.build_absolute_uri(f"{page_path('calculator')}?{query}"),
        "image": request.build_absolute_uri(picture_path(query, locale.lang, "png")),
    }
