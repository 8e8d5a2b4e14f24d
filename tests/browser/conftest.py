"""Browser tests: one headless Debian Chromium per session, a fresh phone-sized page per test."""

from __future__ import annotations

import os

import pytest

from tests.chromium import ARGS, CHROMIUM

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run beside it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

sync_api = pytest.importorskip("playwright.sync_api")


PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Console:
    """Everything the page complained about: console errors, uncaught exceptions, failed requests."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("requestfailed", lambda req: self.errors.append(f"requestfailed: {req.url}"))


def _page(browser, live_server, javascript: bool = True):
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=javascript,
        locale="zh-CN",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = Console(page)
    page.base = live_server.url
    return context, page


@pytest.fixture
def page(browser, live_server):
    context, page = _page(browser, live_server)
    yield page
    context.close()


@pytest.fixture
def nojs_page(browser, live_server):
    context, page = _page(browser, live_server, javascript=False)
    yield page
    context.close()
