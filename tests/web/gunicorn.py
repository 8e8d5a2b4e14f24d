"""A real server for the deployment tests: the production settings on a temporary SQLite file, the server as an
operator runs it (`python -m calculator.plumbing.server`, README § Deployment), its log in a file the test reads
back. (The module keeps its old name, from when the server was gunicorn, so that other tests' imports stay.)"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from .test_security import ROOT, SECRETS, manage, production_env


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def outside_address() -> str | None:
    """An IPv4 address of this machine that is not loopback (a client connecting to it is not a trusted proxy)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent, the kernel only picks a route
        except OSError:
            return None
        address = s.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


class Server:
    def __init__(self, port: int, tmp: Path):
        self.port = port
        self.tmp = tmp
        self.log_path = tmp / "server.log"
        self.static_root = tmp / "static"
        self.database = tmp / "db.sqlite3"

    def request(
        self,
        method: str,
        path: str,
        body: str | bytes | None = None,
        headers: dict | None = None,
        https: bool = True,
        host: str = "127.0.0.1",
        port: int | None = None,
        timeout: float = 30,
    ):
        conn = http.client.HTTPConnection(host, port or self.port, timeout=timeout)
        all_headers = {"Host": "mahjong.example.org", "X-Forwarded-For": "198.51.100.20"}
        if https:
            all_headers["X-Forwarded-Proto"] = "https"
        all_headers.update(headers or {})
        conn.request(method, path, body=body, headers=all_headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response, data

    def log(self) -> str:
        time.sleep(0.3)  # the workers write their access lines after answering
        return self.log_path.read_text(encoding="utf-8")

    def wait_for_workers(self, count: int, seconds: float = 30) -> None:
        """Until `count` workers have each answered a health check (read from the JSON access log).

        The server answers as soon as its first worker is up, while the others may still be warming up; a test that
        needs every worker (a burst spread over them) waits here. The checks go in bursts of two per worker, on
        connections of their own, which the kernel spreads over the workers."""
        deadline = time.monotonic() + seconds
        while True:
            with ThreadPoolExecutor(2 * count) as pool:
                list(pool.map(lambda _: self.request("GET", "/healthz", https=False), range(2 * count)))
            lines = [json.loads(line) for line in self.log().splitlines() if line.startswith("{")]
            workers = {line["worker"] for line in lines if line.get("path") == "/healthz" and "worker" in line}
            if len(workers) >= count:
                return
            assert time.monotonic() < deadline, f"only {len(workers)} of {count} workers answered in {seconds} s"


@contextmanager
def running(tmp: Path, host: str = "127.0.0.1", **settings: str) -> Iterator[Server]:
    """The production server on `host`:<free port> (0.0.0.0: every address of this machine), the production
    profile, `settings` (environment variables)."""
    env = production_env(
        **{
            **SECRETS,
            "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
            "STATIC_ROOT": str(tmp / "static"),
            **settings,
        }
    )
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        done = manage(*command, env=env)
        assert done.returncode == 0, done.stderr
    port = free_port(host)
    server = Server(port, tmp)
    env["SERVER_BIND"] = f"{host}:{port}"
    with open(server.log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "calculator.plumbing.server"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        server.process = process
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if server.request("GET", "/healthz", https=False, timeout=5)[0].status == 200:
                        break
                except OSError:
                    pass
                assert process.poll() is None and time.monotonic() < deadline, server.log_path.read_text()
                time.sleep(0.2)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=45)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
