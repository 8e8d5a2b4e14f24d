"""Issue 22: a phone keeping an older offline pack replaces it with the server's newer one when it is online. Its own
phone (profile): it installs the session's pack (v1), then the server offers a newer one (v2: the app changed, the
runtime and the worker did not)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from calculator.offline import pack, served
from tests.browser.offline import INSTALL_TIMEOUT, installed_phone, open_ready
from tests.browser.phone import B1_NETS, B1_TAPS, expect, expect_nets, tap_seats, tap_tiles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every cache of the page's origin and the URLs it holds.
CACHES = """async () => Object.fromEntries(await Promise.all((await caches.keys()).map(async (name) =>
  [name, (await (await caches.open(name)).keys()).map((request) => request.url)])))"""


def test_a_phone_keeping_an_older_pack_downloads_only_the_parts_that_changed_answers_with_the_new_one_and_drops_the_old(
    browser, live_server, offline_pack, tmp_path, monkeypatch
):
    v1 = offline_pack
    phone = installed_phone(browser, live_server.url, tmp_path / "profile")
    try:
        monkeypatch.setattr(pack, "APP_FILES", (*pack.APP_FILES, "calculator/urls.py"))  # the app changed
        v2 = served.build(tmp_path / "v2")
        assert v2.version != v1.version and v2.app.sha256 != v1.app.sha256
        assert v2.runtime == v1.runtime and v2.worker.sha256 == v1.worker.sha256
        from_network = []
        phone.context.on("response", lambda r: None if r.from_service_worker else from_network.append(r.url))
        with override_settings(OFFLINE_PACK_DIR=tmp_path / "v2"):
            parts = [live_server.url + part["url"] for part in Client().get("/offline/pack.json").json()["parts"]]
            page = open_ready(phone, "/", offline=False, ready=False)  # online: the page offers v2
            html = page.locator("html")
            expect(html).to_have_attribute("data-offline-version", v2.version, timeout=INSTALL_TIMEOUT)
            expect(html).to_have_attribute("data-offline-ready", "fresh")  # v2's own first start, its snapshot made
            assert [url for url in from_network if url in parts] == [parts[-2]]  # v2's app.zip, and nothing else
            kept = page.evaluate(CACHES)
            page.close()

            assert [name for name in kept if v1.version in name] == []  # v1's cache is gone ...
            urls = [url for held in kept.values() for url in held]
            assert [url for url in urls if v1.version in url] == []  # ... and each of its parts (and its snapshot)
            assert set(parts) <= set(urls)  # v2's parts are kept, the runtime's copied over

            # offline, the phone answers with v2
            page = open_ready(phone, "/")
            expect(page.locator("html")).to_have_attribute("data-offline-version", v2.version)
            tap_seats(page, "S", "E", "W")
            tap_tiles(page, B1_TAPS)
            expect_nets(page, B1_NETS)
            assert page.console.errors == []
            page.close()
    finally:
        phone.close()
