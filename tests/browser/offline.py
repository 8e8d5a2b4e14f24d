"""The offline pack in the browser tests (issue 22): built once per test run (tests/builds.py), and
installed once per process in one phone (a browser context that keeps its service worker and caches), which every
offline test opens pages in. Installing costs seconds (the runtime loads and the phone makes its snapshot); a page
opened after that is ready from the snapshot. The live server serves the pack (OFFLINE_PACK_DIR) only while a test
that asks for it runs: the other tests see a site without a pack, whatever ran before them on their worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from calculator.offline import served
from calculator.offline.pack import read_manifest
from tests.browser.conftest import ANSWERING, PHONE, Console
from tests.builds import built
from tests.chromium import ARGS, CHROMIUM

expect = pytest.importorskip("playwright.sync_api").expect

INSTALL_TIMEOUT = 120_000  # a fresh load on a busy 2-core machine, with the snapshot made: 10-25 s
READY_TIMEOUT = 20_000

# Resolves when the service worker controls the page (so that the page opens with the network cut).
CONTROLLED = """() => navigator.serviceWorker.ready.then(() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) return resolve(true);
  navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
}))"""


@pytest.fixture(scope="session")
def offline_pack_built():
    """The pack built from this checkout (the test settings' static URLs), once per test run (tests/builds.py): its
    folder and manifest."""
    runtime = Path(settings.OFFLINE_RUNTIME_DIR)
    if not (runtime / "package.json").exists():
        pytest.skip("Pyodide is not installed (npm ci: scripts/test runs it)")
    folder = built("offline-pack", served.build)
    return folder, read_manifest(folder)


@pytest.fixture
def offline_pack(offline_pack_built):
    """The built pack, served by the live server during the test and only then: the tests after it see the pages
    of a site without a pack (no offer), whichever worker runs them."""
    folder, built = offline_pack_built
    with override_settings(OFFLINE_PACK_DIR=folder):
        yield built


class Phone:
    """One phone's browser with a profile on disk (its service worker, caches and localStorage survive a restart:
    `restart()` is a cold start, a new browser process)."""

    def __init__(self, browser_type, profile: Path, base: str) -> None:
        self.browser_type, self.profile, self.base = browser_type, profile, base
        self.context = None
        self.start()

    def start(self) -> None:
        self.context = self.browser_type.launch_persistent_context(
            str(self.profile),
            executable_path=CHROMIUM,
            args=ARGS,
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="zh-CN",
            service_workers="allow",
        )

    def restart(self) -> None:
        self.context.close()
        self.start()

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="session")
def offline_phone_installed(
    browser, live_server, offline_pack_built, django_db_setup, django_db_blocker, tmp_path_factory
):
    """A phone that installed the pack through the calculator's offer (the service worker in control), once per
    test process; its `installed_ms` is the install's first load (the snapshot made)."""
    folder, built = offline_pack_built
    with django_db_blocker.unblock(), override_settings(OFFLINE_PACK_DIR=folder):
        phone = installed_phone(browser, live_server.url, tmp_path_factory.mktemp("phone-profile"))
        phone.manifest = built
    yield phone
    phone.close()


@pytest.fixture
def offline_phone(offline_phone_installed, offline_pack):
    """The phone with the pack installed, the pack served while the test runs. The phone outlives the test, its
    pages do not: what they still send (a queued hand, a poll) is answered before the test's database closes."""
    phone = offline_phone_installed
    yield phone
    for page in phone.context.pages:
        page.close()
    ANSWERING.wait_until_idle()


def installed_phone(browser, base: str, profile: Path) -> Phone:
    """A new phone (its own profile) that installed the pack the server offers now, through the calculator's offer."""
    phone = Phone(browser.browser_type, profile, base)
    page = phone.context.new_page()
    page.goto(phone.base + "/")
    page.evaluate(CONTROLLED)
    page.click("[data-offline-install]")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "fresh", timeout=INSTALL_TIMEOUT)
    phone.installed_ms = int(page.locator("html").get_attribute("data-offline-ready-ms"))
    page.close()
    return phone


def open_ready(phone: Phone, path: str = "/", *, offline: bool = True, lang: str = "zh", ready: bool = True):
    """A new page of the phone at `path`, the network cut (or not), once the pack answers there (`ready`)."""
    context = phone.context
    context.set_offline(offline)
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": phone.base}])
    else:
        context.clear_cookies()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = Console(page)
    page.base = phone.base
    page.goto(phone.base + path)
    if ready:
        expect(page.locator("html")).to_have_attribute("data-offline-ready", "snapshot", timeout=READY_TIMEOUT)
    return page


# A table's queue on the phone's page with a hand it sends by itself: on its way, or waiting (for the server, or
# for the next try after a refusal that passes) with no hand before it that waits for the referee (the queue stops
# there, in order).
UNSETTLED = (
    "#offline-queue li[data-queue-state='sending'], #offline-queue li[data-queue-state='waiting']"
    ":not(li[data-queue-state='confirm'] ~ li, li[data-queue-state='refused'] ~ li)"
)


def expect_settled(page, timeout: float = 30_000) -> None:
    """The page's table queue has settled: each hand sent or dropped, or waiting for the referee (to confirm or
    drop it) or behind one that does. Not a count of rounds: a round stopped by a refusal that passes is followed
    by another, after the server's Retry-After."""
    expect(page.locator(UNSETTLED)).to_have_count(0, timeout=timeout)
