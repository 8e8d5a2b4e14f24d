"""How every browser test starts Debian's Chromium (Playwright cannot download its own browser here).

Debian's headless shell (`chromium-headless-shell`, the same Chromium's old headless mode, which Playwright itself
runs for headless tests) where it is installed: the same Blink and V8 without the full browser around them, it
takes about half the CPU of `/usr/bin/chromium` for the same tests, and the suite is bound by CPU
(docs/PERFORMANCE.md § The suite). `CHROMIUM` names another binary; without the shell the full browser runs. A test
that counts what a phone fetches drives the full browser (`FULL`).
"""

from __future__ import annotations

import os

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
# The full browser: what a test that counts a page's requests drives (tests/conftest.py `full_browser`), as the
# headless shell never asks for the page's icon, which a phone's browser does.
FULL = os.environ.get("CHROMIUM_FULL") or "/usr/bin/chromium"
CHROMIUM = os.environ.get("CHROMIUM") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL)
# Without the background-networking flags Chromium keeps trying to reach Google's hosts on a closed network.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
