"""Polls cost only what they need (issue 31): the table's live parts and its JSON answer 304 with no body while
`If-None-Match` names what the client holds, as RFC 9110 § 13.1.2 reads it: a weak tag matches (weak comparison),
so does any tag of a list, and `*` while the table exists; a stale tag gets the table. The edit page's live part
holds its controls, so a change reaches an edit page in one answer."""

from __future__ import annotations

import gzip

import pytest

from calculator.models import Table
from tests.ledger.client import Api

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client):
    return Api(client, {"ruleset": "xinyu"})


def urls(api) -> dict[str, str]:
    return {
        "json": api.url,
        "live part": f"/tables/{api.id}/live/",
        "edit page's live part": f"/tables/{api.id}/edit/{api.token}/live/",
    }


KINDS = ["json", "live part", "edit page's live part"]


def tag_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200 and response["ETag"]
    return response["ETag"]


def weak(tag: str) -> str:
    return tag if tag.startswith("W/") else "W/" + tag


def strong(tag: str) -> str:
    return tag.removeprefix("W/")


def not_modified(client, url: str, if_none_match: str) -> bool:
    response = client.get(url, headers={"If-None-Match": if_none_match})
    assert response.status_code in (200, 304), response.status_code
    if response.status_code == 304:
        assert response.content == b"" and response["ETag"]
    return response.status_code == 304


@pytest.mark.parametrize("kind", KINDS)
def test_the_tag_it_sent_answers_304_with_no_body(client, api, kind):
    url = urls(api)[kind]
    assert not_modified(client, url, tag_of(client, url))


@pytest.mark.parametrize("kind", KINDS)
def test_a_weak_tag_matches_by_weak_comparison(client, api, kind):
    """A tag sent back as W/"…" (GZipMiddleware weakens a strong tag it compresses) names the same table."""
    url = urls(api)[kind]
    tag = tag_of(client, url)
    assert not_modified(client, url, weak(tag))
    assert not_modified(client, url, strong(tag))


@pytest.mark.parametrize("kind", KINDS)
def test_any_tag_of_a_list_matches(client, api, kind):
    url = urls(api)[kind]
    tag = tag_of(client, url)
    assert not_modified(client, url, f'"something-else", {weak(tag)}, W/"another"')
    assert not not_modified(client, url, '"something-else", W/"another"')


@pytest.mark.parametrize("kind", KINDS)
def test_a_star_matches_a_table_that_exists(client, api, kind):
    assert not_modified(client, urls(api)[kind], "*")


@pytest.mark.parametrize("kind", KINDS)
def test_a_star_or_a_tag_for_a_table_that_does_not_exist_is_404(client, api, kind):
    url = urls(api)[kind]
    tag = tag_of(client, url)
    Table.objects.all().delete()
    for header in ("*", tag):
        response = client.get(url, headers={"If-None-Match": header})
        assert response.status_code == 404 and not response.has_header("ETag")


@pytest.mark.parametrize("kind", KINDS)
def test_a_stale_tag_gets_the_table_as_it_is_now(client, api, kind):
    url = urls(api)[kind]
    tag = tag_of(client, url)
    api.ok("draw")
    response = client.get(url, headers={"If-None-Match": f"{tag}, {weak(tag)}"})
    assert response.status_code == 200 and response["ETag"] != tag
    assert not_modified(client, url, response["ETag"])


def test_the_tag_names_the_page_of_history_and_the_language(client, api):
    api.ok("draw")
    live = urls(api)["live part"]
    tag = tag_of(client, live)
    assert not not_modified(client, f"{live}?from=1", tag)
    assert not not_modified(client, f"{live}?lang=en", tag)
    json_tag = tag_of(client, api.url)
    assert not not_modified(client, f"{api.url}?limit=1", json_tag)


def test_a_wrong_edit_link_is_404_whatever_if_none_match_says(client, api):
    tag = tag_of(client, urls(api)["edit page's live part"])
    for header in ("*", tag):
        response = client.get(f"/tables/{api.id}/edit/wrong-token/live/", headers={"If-None-Match": header})
        assert response.status_code == 404 and not response.has_header("ETag")


def test_a_bad_page_is_400_and_carries_no_tag(client, api):
    response = client.get(f"{api.url}?from=0", headers={"If-None-Match": "*"})
    assert response.status_code == 400 and not response.has_header("ETag")


def test_the_json_tag_survives_compression(client, api):
    """Sent gzipped, the answer's tag is weak (Django's GZipMiddleware); sent back, it matches."""
    api.ok("draw")
    response = client.get(api.url, headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip" and response["ETag"].startswith("W/")
    assert gzip.decompress(response.content).startswith(b"{")
    assert client.get(api.url, headers={"If-None-Match": response["ETag"]}).status_code == 304


def test_the_edit_pages_live_part_holds_its_controls_and_stays_private(client, api):
    response = client.get(urls(api)["edit page's live part"])
    html = response.content.decode()
    assert html.startswith('<div id="live" ')
    assert f"/tables/{api.id}/edit/{api.token}/draw/" in html and 'id="draw-form"' in html
    assert "no-store" in response["Cache-Control"]
    read_only = client.get(urls(api)["live part"]).content.decode()
    assert "/edit/" not in read_only and 'id="draw-form"' not in read_only


def test_the_page_names_the_live_part_it_shows(client, api):
    """The page's own live part carries the tag the live part is served with: the first poll is a 304."""
    page = client.get(f"/tables/{api.id}/edit/{api.token}/").content.decode()
    tag = tag_of(client, urls(api)["edit page's live part"])
    assert f'data-etag="{tag.replace(chr(34), "&quot;")}"' in page
    assert f'data-live-url="/tables/{api.id}/edit/{api.token}/live/"' in page
