"""Browser tests: one headless Debian Chromium per session, a fresh phone-sized page per test.

`page` is a 390×844 phone in Chinese; `phone` runs a test at both phone sizes of issue 14 (360×640 and 390×844);
`open_page` makes any other page (English, without JavaScript, with the service worker). No test evaluates a
string in the page as code (Playwright's `wait_for_function` with a string is `eval`, which the CSP forbids):
waits are locator assertions (`expect`).
"""

from __future__ import annotations

import os

import pytest

from tests.chromium import ARGS, CHROMIUM

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run beside it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

sync_api = pytest.importorskip("playwright.sync_api")

PHONE = {"width": 390, "height": 844}
SIZES = {"360x640": {"width": 360, "height": 640}, "390x844": PHONE}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Console:
    """Everything the page complained about: console errors, uncaught exceptions, failed requests. A result
    request that a newer tap replaced is cancelled on purpose (the form's hx-sync) and is not a complaint."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("requestfailed", self.failed)

    def failed(self, request) -> None:
        replaced = request.failure == "net::ERR_ABORTED" and request.headers.get("hx-request") == "true"
        if not replaced:
            self.errors.append(f"requestfailed: {request.url} {request.failure}")


def open_page(
    browser,
    live_server,
    size: dict = PHONE,
    *,
    lang: str = "zh",
    javascript: bool = True,
    service_workers: str = "block",
):
    """A new phone context and page: `lang` "en" sets the language cookie (the page's switch does the same); the
    service worker is blocked unless a test is about it (it would fetch pages beside the test's own requests)."""
    context = browser.new_context(
        viewport=size,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=javascript,
        locale="zh-CN",
        service_workers=service_workers,
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = Console(page)
    page.base = live_server.url
    return context, page


@pytest.fixture
def page(browser, live_server):
    context, page = open_page(browser, live_server)
    yield page
    context.close()


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def phone(request, browser, live_server):
    """The same test at 360×640 and at 390×844 (`phone.size` is the viewport)."""
    context, page = open_page(browser, live_server, SIZES[request.param])
    page.size = SIZES[request.param]
    yield page
    context.close()


@pytest.fixture(params=[(size, lang) for size in SIZES for lang in ("zh", "en")], ids=lambda p: f"{p[0]}-{p[1]}")
def phone_in(request, browser, live_server):
    """A phone at both sizes, in both languages (`page.lang`: "zh" or "en")."""
    size, lang = request.param
    context, page = open_page(browser, live_server, SIZES[size], lang=lang)
    page.lang = lang
    yield page
    context.close()


@pytest.fixture
def nojs_page(browser, live_server):
    context, page = open_page(browser, live_server, javascript=False)
    yield page
    context.close()


# The offline pack (issue 22): built and installed once per session (tests/browser/offline.py).
from tests.browser.offline import offline_pack, offline_phone  # noqa: E402, F401
