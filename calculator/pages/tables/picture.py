"""A table's evening as a picture (issue 32): the standings and who pays whom, at
`/tables/<id>/picture/<app version>/<table version>/<lang>.<svg|png>`, drawn by the same template as the verdict's
(calculator.presentation.picture.evening); and the preview tags of the table's pages, which name its read-only
link only (an edit page's preview carries no token). The serving is calculator/plumbing/pictures.py's."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from calculator import ledger
from calculator.pages.tables import presenter as pages
from calculator.plumbing import pictures
from calculator.plumbing.django_locale import page_locale, page_path
from calculator.presentation.picture.evening import Evening, Standing, Transfer, evening_picture
from calculator.presentation.render import picture_svg
from calculator.presentation.words import player_names, seat_labels, signed, with_name
from calculator.tables import snapshot as snapshots
from calculator.tables import store
from calculator.tables.paths import view_path

LANGUAGES = {"zh": "zh-hans", "en": "en"}  # a picture's language in its URL: the site's language code


def picture_path(table_id: str, at: int, lang: str, kind: str) -> str:
    kwargs = {"table_id": table_id, "version": pictures.app_version(), "at": at, "lang": lang, "kind": kind}
    return reverse("ledger_picture", kwargs=kwargs)


def evening_of(snapshot: snapshots.Snapshot, lang: str) -> Evening:
    """The table at its snapshot's version, as its picture shows it, in the active language."""
    table, state = snapshot.table, snapshot.state
    card = state.card
    names, words = player_names(table.players, lang), seat_labels(lang)
    seats = list(state.seats)
    named = {seat: with_name(words[seat], names[seat] if names[seat] != words[seat] else "") for seat in seats}
    status = [card.table.game_number(lang).format(n=state.game)] if card.is_room else []
    status.append(
        ngettext("%(counter)s hand played", "%(counter)s hands played", state.hands) % {"counter": state.hands}
    )
    if state.status == "ended":
        status.append(card.table.ended_text(state.ended_reason, lang))
    return Evening(
        title=card.table.title(card.options, card.stake)(lang),
        card=[f"{line.label} {line.value}" for line in pages.rule_card_lines(card, lang)[1:]],
        status=status,
        standings=[Standing(s, words[s], names[s] if names[s] != words[s] else "", state.totals[s]) for s in seats],
        transfers=[
            Transfer(t["from"], t["to"], named[t["from"]], named[t["to"]], t["amount"])
            for t in ledger.settlement(state.totals, seats)
        ],
    )


def current(table_id: str) -> snapshots.Snapshot:
    read = snapshots.current(table_id, lambda snapshot: store.Page(1, 0))
    if read is None:
        raise Http404("no such table")
    return read[0]


@require_http_methods(["GET", "HEAD"])
def table_picture(request: HttpRequest, table_id: str, version: str, at: str, lang: str, kind: str) -> HttpResponse:
    """The picture of the table at version `at`: only its current version is drawn (a picture's URL never
    changes what it shows); an older version, or another app version, is sent on to the current picture."""
    snapshot = current(table_id)
    if version != pictures.app_version() or int(at) != snapshot.version:
        return pictures.moved(picture_path(table_id, snapshot.version, lang, kind))
    with translation.override(LANGUAGES[lang]):
        locale = page_locale()
        drawn = evening_picture(
            evening_of(snapshot, lang),
            request.build_absolute_uri(view_path(snapshot.table)),
            request.build_absolute_uri(page_path("calculator")),
            locale,
        )
        svg = picture_svg(drawn, locale)
    return pictures.picture_response(request, svg, kind)


def table_links(request: HttpRequest, snapshot: snapshots.Snapshot, lang: str) -> dict:
    """For the table's page (read-only or edit): its picture's SVG (the share button's) and the preview tags,
    which name the read-only link and its picture only."""
    evening = evening_of(snapshot, lang)
    standings = " · ".join(
        f"{with_name(s.label, s.name)} {signed(s.total)}" for s in sorted(evening.standings, key=lambda s: -s.total)
    )
    return {
        "picture_url": picture_path(snapshot.table.id, snapshot.version, lang, "svg"),
        "preview": {
            "title": f"{evening.title} · {standings}",
            "description": " · ".join([*evening.status, *evening.card]),
            "url": request.build_absolute_uri(view_path(snapshot.table)),
            "image": request.build_absolute_uri(picture_path(snapshot.table.id, snapshot.version, lang, "png")),
        },
    }
