"""How a test runs the app as an operator does: the production environment and `manage.py` in a subprocess
(settings are read once, at import). No Django here: scripts/load.py starts deployments with it too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def production_env(**extra: str) -> dict:
    """The environment of a production process: no DEBUG, no trace of the test run, the given variables."""
    # (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE for Playwright; production never does)
    ignored = ("PYTEST_CURRENT_TEST", "DEBUG", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in ignored}
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "STATIC_MANIFEST", "SECURE_SSL_REDIRECT"):
        env.pop(name, None)
    env.update(extra)
    return env


def manage(*args: str, env: dict, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


SECRETS = {"SECRET_KEY": "k" * 20 + "-a-long-random-production-key-0123456789", "ALLOWED_HOSTS": "mahjong.example.org"}
