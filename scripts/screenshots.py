"""The phone screenshots of docs/ (issue 14): the calculator at 360×640 and 390×844, in Chinese and in English.

    .venv/bin/python scripts/screenshots.py            # writes docs/phone-*.png, docs/screenshot-result.png, …
    .venv/bin/python scripts/screenshots.py --offline  # only docs/offline-*.png (issue 22; the pack must be built)

Starts the app (runserver, a throwaway SQLite database) on a free port of 127.0.0.1, drives Debian's Chromium as
a phone (device scale 2) and saves what the screen shows, not the whole page: what a player sees.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.chromium import ARGS, CHROMIUM  # noqa: E402

DOCS = ROOT / "docs"
SIZES = {"360": {"width": 360, "height": 640}, "390": {"width": 390, "height": 844}}
B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
ENTERING = ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "DEBUG": "1", "DJANGO_ENV": "development", "DATABASE_URL": f"sqlite:///{database}"}
    python = str(ROOT / ".venv/bin/python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz")
            return server, base
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the app did not start")


def phone(browser, base: str, size: str, lang: str):
    context = browser.new_context(
        viewport=SIZES[size],
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
        service_workers="block",
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    return context, context.new_page()


def shoot(browser, base: str) -> list[Path]:
    written = []
    for size in SIZES:
        for lang in ("zh", "en"):
            context, page = phone(browser, base, size, lang)
            # a share link: the answer in view, the strip on top, the keyboard folded to its bar
            page.goto(f"{base}/?{urlencode(B1)}")
            expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
            written.append(save(page, f"phone-{size}-{lang}.png"))
            # entering a hand: the keyboard docked, the hand above it, the strip counting
            page.goto(base + "/")
            page.check('input[name="winner"][value="S"]')
            page.check('input[name="discarder"][value="W"]')
            for tile in ENTERING:
                page.click(f'button[data-tile="{tile}"]')
            expect(page.locator("#strip .strip-verdict")).to_contain_text("4")
            written.append(save(page, f"phone-entering-{size}-{lang}.png"))
            context.close()
    context, page = phone(browser, base, "390", "zh")
    page.goto(f"{base}/?{urlencode(B1)}")
    expect(page.locator('#result [data-win="true"]')).to_be_visible()
    written.append(save(page, "screenshot-result.png"))
    page.goto(f"{base}/?{urlencode({**B1, 'win_tile': ''})}")
    expect(page.locator("#result [data-waits]")).to_be_visible()
    written.append(save(page, "screenshot-waits.png"))
    context.close()
    return written


def shoot_offline(browser, base: str) -> list[Path]:
    """Issue 22 at 360×640: the offer of the offline pack, and an answer drawn in the phone with the network cut
    (`-en`: the same in English). One phone installs the pack once; the page it keeps is the one last seen."""
    written = []
    context = browser.new_context(
        viewport=SIZES["360"],
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
        service_workers="allow",
    )
    page = context.new_page()
    for lang in ("zh", "en"):
        suffix = "" if lang == "zh" else "-en"
        context.set_offline(False)
        context.add_cookies([{"name": "django_language", "value": "en" if lang == "en" else "zh-hans", "url": base}])
        page.goto(base + "/")
        offer = page.locator("[data-offline-pack]")
        if lang == "zh":
            offer.scroll_into_view_if_needed()
            written.append(save(page, "offline-offer-360.png"))
            page.click("[data-offline-install]")
            expect(page.locator("html")).to_have_attribute("data-offline-ready", "fresh", timeout=180_000)
        else:
            expect(page.locator("html")).to_have_attribute("data-offline-ready", "snapshot", timeout=60_000)
            offer.scroll_into_view_if_needed()
            written.append(save(page, "offline-offer-360-en.png"))  # installed: how to remove it
        context.set_offline(True)
        page.goto(base + "/")
        expect(page.locator("html")).to_have_attribute(
            "data-offline-ready", re.compile("snapshot|fresh"), timeout=180_000
        )
        page.check('input[name="winner"][value="S"]')
        page.check('input[name="discarder"][value="W"]')
        for tile in [*ENTERING, "7m", "9m", "5s", "5s", "8m"]:
            page.click(f'button[data-tile="{tile}"]')
        expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
        page.evaluate("window.scrollTo(0, 0)")
        written.append(save(page, f"offline-answer-360{suffix}.png"))
    context.close()
    return written


def save(page, name: str) -> Path:
    page.wait_for_timeout(300)  # the htmx indicator's fade
    path = DOCS / name
    page.screenshot(path=path)
    return path


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        server, base = start_server(str(Path(scratch) / "db.sqlite3"))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for path in shoot_offline(browser, base) if "--offline" in sys.argv else shoot(browser, base):
                    print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
