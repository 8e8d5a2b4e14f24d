"""What every test shares: the serial pass, and one headless Chromium per test process.

`scripts/test` runs the suite in parallel (pytest-xdist workers, `-n`), then the tests marked `serial` alone, in a
pytest of their own (a database of its own, nothing else running beside them): fault tests that hold the database,
and speed budgets that would measure the other workers rather than the page. Under xdist the serial tests are left
out of the parallel run; `--serial-only` runs them and nothing else. A plain `pytest` (no `-n`) runs everything in
one process, serial tests included.

And the test suite's own game (issue 19): registered beside the games a deployment serves before any test is
collected, so that every suite that loops over the registry runs over it too. Nothing outside its package names it
but the one line below; no deployment registers it (the engine reads no settings).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from django.conf import settings
from django.utils import translation

from calculator.engine.rulesets import register
from tests.chromium import ARGS, CHROMIUM, FULL
from tests.games.tuidaohu import RULESET as TEST_GAME

register(TEST_GAME)


def pytest_configure(config):
    if config.getoption("--serial-only") and running_in_parallel(config):
        raise pytest.UsageError("--serial-only runs the serial tests alone: without -n (or with -n 0)")
    if config.pluginmanager.hasplugin("xdist"):
        from tests import xdist_groups

        xdist_groups.register(config)


def pytest_addoption(parser):
    parser.addoption(
        "--serial-only",
        action="store_true",
        help="run only the tests marked serial (scripts/test's second pass, after the parallel run)",
    )


def running_in_parallel(config) -> bool:
    """True in the xdist controller and in its workers (a worker gets `-n` through its copied options)."""
    return bool(getattr(config.option, "numprocesses", None)) or "PYTEST_XDIST_WORKER" in os.environ


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (
            item.get_closest_marker("serial")
            and "tests/ledger/" in item.nodeid
            and not item.get_closest_marker("own_database")
        ):
            # scripts/test runs the serial tests on SQLite only: a serial ledger test must bring both databases
            raise pytest.UsageError(f"{item.nodeid}: a serial ledger test makes its own databases (own_database)")
    serial_only = config.getoption("--serial-only")
    if not serial_only and not running_in_parallel(config):
        return
    keep, leave = [], []
    for item in items:
        is_serial = item.get_closest_marker("serial") is not None
        (keep if is_serial == serial_only else leave).append(item)
    if leave:
        config.hook.pytest_deselected(items=leave)
        items[:] = keep


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """SQLite's test database in a file of this test process's own (in memory under /dev/shm where there is one),
    not in Django's default shared in-memory database. The live server answers each request in a thread of its own;
    with an in-memory database Django hands every thread the test's one connection, so two requests at once (a
    table page's live check beside a tap) met on it and one answered 503 `busy` ("database table is locked"). With
    a file, each thread opens its own connection, as in production (write-ahead log, busy timeout). PostgreSQL keeps
    pytest-django's per-worker database name (the fixture this one extends)."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    folder = tempfile.mkdtemp(prefix="test-db-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    database.setdefault("TEST", {})["NAME"] = os.path.join(folder, "test.sqlite3")
    yield
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the default language. A request through Django's test client activates the request's
    language in the test's thread and leaves it there (LocaleMiddleware has no undo), so after an English request
    gettext would answer in English in whatever test the worker runs next: which one depends on how xdist split
    the suite (tests/test_isolation.py)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, one per test process."""
    # Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run beside it.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        yield playwright


def launch(playwright, executable: str):
    if not os.path.exists(executable):
        pytest.skip(f"no Chromium at {executable}")
    return playwright.chromium.launch(executable_path=executable, args=ARGS)


@pytest.fixture(scope="session")
def browser(playwright):
    """One Chromium for the whole test process (each xdist worker has its own); tests open contexts in it. The
    headless shell where it is installed (tests/chromium.py)."""
    browser = launch(playwright, CHROMIUM)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def full_browser(playwright):
    """The full Chromium, for a test that counts what a phone's browser fetches (its page icon included)."""
    browser = launch(playwright, FULL)
    yield browser
    browser.close()
