"""How every browser test starts Debian's Chromium (Playwright cannot download its own browser here).

Debian's headless shell (`chromium-headless-shell`, the same Chromium's old headless mode, which Playwright itself
runs for headless tests) where it is installed: the same Blink and V8 without the full browser around them, it
takes about half the CPU of `/usr/bin/chromium` for the same tests, and the suite is bound by CPU
(docs/PERFORMANCE.md § The suite). `CHROMIUM` names another binary; without the shell the full browser runs.
"""

from __future__ import annotations

import os

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying to reach Google's hosts on a closed network.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
