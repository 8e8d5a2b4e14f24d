#!/usr/bin/env python3
"""The phone's heap after its warm-up (the offline pack's first start), measured in Node:

    .venv/bin/python scripts/offline_heap.py            # ~10 s

Builds the pack of this checkout (`manage.py build_offline_pack` into a temporary folder) and runs
scripts/offline_heap.mjs on it with the pinned Pyodide from node_modules: the heap's top before and after the
warm-up, the WebAssembly memory's size, the snapshot's, and whether a second start restores it. Pyodide 314.0.8
restores a snapshot only while the memory is the 30 MiB it starts with (pyodide/pyodide#6254): the heap's top after
the warm-up must stay under 30 MiB, with room for what the app grows (docs/PERFORMANCE.md, "the phone's memory").
PASS / FAIL for the goal (≤ 29 MiB) and the restore; exits 1 on a FAIL.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    env = dict(os.environ, DJANGO_ENV="development")
    python = str(ROOT / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory(prefix="offline-heap-") as folder:
        subprocess.run([python, "manage.py", "compilemessages", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [python, "manage.py", "build_offline_pack", "--out", folder, "-v0"], cwd=ROOT, env=env, check=True
        )
        (app,) = Path(folder).glob("app-*.zip")
        runtime = f"{ROOT / 'node_modules' / 'pyodide'}/"
        print(f"the pack {app.name}, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        return subprocess.run(
            ["node", str(ROOT / "scripts" / "offline_heap.mjs"), runtime, str(app)], check=False
        ).returncode


if __name__ == "__main__":
    sys.exit(main())
