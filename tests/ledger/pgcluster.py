"""A throwaway PostgreSQL cluster of a test's own, made as scripts/test's start_postgres makes one (loopback, a free
port, fsync off, trust); a test may restart it. Root runs the server as the postgres user, as there."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def binaries() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: [int(p) for p in Path(path).parent.name.split(".")]
    )
    return Path(found[-1]) if found and Path(found[-1], "initdb").exists() else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        # In the system's temp dir, not the test's tmp_path: the postgres user must reach it (pytest's dirs are 0700).
        self.dir = Path(tempfile.mkdtemp(prefix="pgfaults."))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / tool), *args], check=True, capture_output=True, timeout=60)

    def start(self) -> Cluster:
        data = str(self.dir / "data")
        self.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        self.pg_ctl("start")
        return self

    def pg_ctl(self, action: str, *args: str) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self.run(
            "pg_ctl",
            "-D",
            str(self.dir / "data"),
            "-l",
            str(self.dir / "log"),
            "-w",
            "-s",
            action,
            "-o",
            options,
            *args,
        )

    def restart(self) -> None:
        """A fast shutdown (every session ends, open transactions roll back), then up again."""
        self.pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # never started, or gone already
            self.run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-s", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
