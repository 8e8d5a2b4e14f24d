"""What the checkout builds for the tests, made once per run and read by every test process of it: the static files
as `collectstatic` writes them for a production deployment (tests/deploy/), and the offline pack (issue 22).

scripts/test names a folder for the whole run (TEST_BUILDS_DIR, removed when the run ends): its parallel workers,
the ledger tests on PostgreSQL beside them and the serial pass after them. The first process that needs a build
makes it there; one that asks while it is being made waits for it (a lock), then reads it. Without the folder (a
plain `pytest`), each test process makes its own, in a temporary folder of its own.

Only build artifacts are shared, never test state: each is what this checkout builds, the same whichever process
makes it (the offline pack's version is a hash of its bytes; tests/web/test_offline_pack.py builds it again and
finds the same), and no test writes into one (a test that changes a pack copies it or builds its own).
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

FOLDER = "TEST_BUILDS_DIR"  # the environment variable that names the run's folder (scripts/test)

_made: dict[str, Path] = {}  # this process's builds, by name


def built(name: str, make: Callable[[Path], object]) -> Path:
    """The folder of the build `name`, filled by `make(folder)` the first time a process of this run asks for it."""
    if name not in _made:
        run = os.environ.get(FOLDER)
        _made[name] = _shared(Path(run), name, make) if run else _own(name, make)
    return _made[name]


def _shared(run: Path, name: str, make: Callable[[Path], object]) -> Path:
    done = run / name
    with open(run / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one process makes it; the others wait here, then find it made
        if not done.exists():
            making = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=run))
            make(making)
            making.rename(done)  # whole or absent
    return done


def _own(name: str, make: Callable[[Path], object]) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # when the test process ends
    make(folder)
    return folder
