"""Browser tests: one headless Debian Chromium per test process (`browser`, tests/conftest.py), a fresh
phone-sized page (a new context) per test.

`page` is a 390×844 phone in Chinese; `phone` runs a test at both phone sizes of issue 14 (360×640 and 390×844);
`open_page` makes any other page (English, without JavaScript, with the service worker). No test evaluates a
string in the page as code (Playwright's `wait_for_function` with a string is `eval`, which the CSP forbids):
waits are locator assertions (`expect`).
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.core.signals import request_finished, request_started

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run beside it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

sync_api = pytest.importorskip("playwright.sync_api")

PHONE = {"width": 390, "height": 844}
SIZES = {"360x640": {"width": 360, "height": 640}, "390x844": PHONE}


class Console:
    """Everything the page complained about: console errors, uncaught exceptions, failed requests.

    Not complaints: a result request that a newer tap replaced, cancelled on purpose (the form's hx-sync), with
    the two errors htmx logs for it ("htmx:afterRequest, …" then "htmx:sendAbort, …"); it happens whenever the
    next tap comes before the answer, on a busy machine now and then. And a request that the browser cancelled
    because its document was replaced by the next one (a table page's live check, once a second, while the test
    goes to the next page): that page is gone, nothing of it failed. Chromium reports such a request failed
    before it reports the new document, so `errors` is read when asked for, not when the failure came in. Nor a
    poll answered 304 Not Modified (a table page names the live part it shows in If-None-Match): the page's script
    gets the 304, and Chromium then reports the request aborted, as it does every answer without a body that its
    cache did not ask for."""

    ABORTED = "htmx:sendAbort, "
    AFTER_ABORTED = "console: htmx:afterRequest, "

    def __init__(self, page):
        self.page = page
        self.complaints: list[str] = []
        self.documents = 0  # documents the page has shown: a main-frame navigation that loaded a new one
        self.navigating = False  # a main-frame navigation request is on its way, its document not shown yet
        self.sent_from: dict = {}  # request -> the document that sent it
        self.aborted: list = []  # (request, the document that sent it), judged in `errors`
        self.not_modified: set = set()  # requests answered 304
        page.on("console", self.console)
        page.on("pageerror", lambda exc: self.complaints.append(f"pageerror: {exc}"))
        page.on("request", self.sent)
        page.on("framenavigated", self.navigated)
        page.on("requestfailed", self.failed)
        page.on("response", lambda response: response.status == 304 and self.not_modified.add(response.request))

    @property
    def errors(self) -> list[str]:
        gone = [request for request, document in self.aborted if document < self.documents]
        return self.complaints + [
            f"requestfailed: {request.url} {request.failure}" for request, _ in self.aborted if request not in gone
        ]

    def console(self, message) -> None:
        if message.type != "error":
            return
        if message.text.startswith(self.ABORTED):
            if self.complaints and self.complaints[-1].startswith(self.AFTER_ABORTED):
                self.complaints.pop()
            return
        self.complaints.append(f"console: {message.text}")

    def sent(self, request) -> None:
        self.sent_from[request] = self.documents
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.navigating = True

    def navigated(self, frame) -> None:
        # a navigation within the document (history.replaceState, as htmx does) brings no new document
        if frame == self.page.main_frame and self.navigating:
            self.documents += 1
            self.navigating = False

    def failed(self, request) -> None:
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.navigating = False
        if request.failure == "net::ERR_ABORTED" and request in self.not_modified:
            return  # a 304 the page got (If-None-Match): nothing failed
        if request.failure != "net::ERR_ABORTED":
            self.complaints.append(f"requestfailed: {request.url} {request.failure}")
        elif request.headers.get("hx-request") != "true":  # a replaced result request is no complaint
            self.aborted.append((request, self.sent_from.get(request, self.documents)))


def open_page(
    browser,
    live_server,
    size: dict = PHONE,
    *,
    lang: str = "zh",
    javascript: bool = True,
    service_workers: str = "block",
    locale: str = "zh-CN",
):
    """A new phone context and page: `lang` "en" sets the language cookie (the page's switch does the same), `locale`
    is the phone's own language; the service worker is blocked unless a test is about it (it would fetch pages beside
    the test's own requests)."""
    context = browser.new_context(
        viewport=size,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=javascript,
        locale=locale,
        service_workers=service_workers,
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = Console(page)
    page.base = live_server.url
    return context, page


class Answering:
    """The live server's threads answering a request now: from Django's `request_started` to its
    `request_finished` (sent when the server closes the response, after Django's own clean-up). The test's own
    `Client` answers in the test's thread, and a streamed answer it does not read is never finished: not counted.
    A thread whose `request_finished` never came to us (a receiver before ours raised) counts until it ends."""

    def __init__(self) -> None:
        self.threads: set[threading.Thread] = set()
        self.lock = threading.Lock()
        request_started.connect(self.started, weak=False)
        request_finished.connect(self.finished, weak=False)

    def started(self, **_) -> None:
        thread = threading.current_thread()
        if thread is not threading.main_thread():
            with self.lock:
                self.threads.add(thread)

    def finished(self, **_) -> None:
        with self.lock:
            self.threads.discard(threading.current_thread())

    def wait_until_idle(self, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while True:
            with self.lock:
                self.threads = {thread for thread in self.threads if thread.is_alive()}
                busy = len(self.threads)
            if not busy:
                return
            assert time.monotonic() < deadline, f"the live server is still answering {busy} requests"
            time.sleep(0.005)


ANSWERING = Answering()


def close(context) -> None:
    """Close a test's pages, then wait until the live server has answered what they sent. A tap's request still
    on its way when the test ends (the test asserted what the page shows at once) would otherwise be answered
    after the test's database is closed to it (pytest-django's blocker: an error in the server's thread, and the
    next test's data within its reach). Closing first stops the page's timers (a typed hand's delayed request, a
    table's live check), so nothing new is sent."""
    context.close()
    ANSWERING.wait_until_idle()


@pytest.fixture
def page(browser, live_server):
    context, page = open_page(browser, live_server)
    yield page
    close(context)


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def phone(request, browser, live_server):
    """The same test at 360×640 and at 390×844 (`phone.size` is the viewport)."""
    context, page = open_page(browser, live_server, SIZES[request.param])
    page.size = SIZES[request.param]
    yield page
    close(context)


@pytest.fixture(params=[(size, lang) for size in SIZES for lang in ("zh", "en")], ids=lambda p: f"{p[0]}-{p[1]}")
def phone_in(request, browser, live_server):
    """A phone at both sizes, in both languages (`page.lang`: "zh" or "en")."""
    size, lang = request.param
    context, page = open_page(browser, live_server, SIZES[size], lang=lang)
    page.lang = lang
    yield page
    close(context)


@pytest.fixture
def nojs_page(browser, live_server):
    context, page = open_page(browser, live_server, javascript=False)
    yield page
    close(context)


# The offline pack (issue 22): built and installed once per test process, served only during the tests that use it
# (tests/browser/offline.py).
from tests.browser.offline import offline_pack, offline_pack_built, offline_phone, offline_phone_installed  # noqa: E402, F401
