"""The production deployment, started for real on free loopback ports (docs/deployment.md): nginx with
deploy/nginx.conf in front of gunicorn (`gunicorn calculator.wsgi:application` with deploy/gunicorn.env), on an
SQLite file or a PostgreSQL database of its own, the production profile, every log in a file the test reads back.

Of deploy/nginx.conf only the ports, the certificate (a self-signed one made here), the log directory and the
pictures' cache directory are replaced; of deploy/gunicorn.env only the address and the number of workers. `app_server` starts gunicorn alone, for
what the app server does by itself (a client reaching it directly, its workers)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.builds import built
from tests.deploy.production import ROOT, SECRETS, manage, production_env

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HOST = "mahjong.example.org"
GUNICORN = Path(sys.executable).with_name("gunicorn")


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


def more_open_files(wanted: int = 8192) -> None:
    """Raise this process's limit on open files (a test with a thousand connections), up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def gunicorn_env() -> dict[str, str]:
    """deploy/gunicorn.env, as systemd's EnvironmentFile reads it."""
    env = {}
    for line in (ROOT / "deploy" / "gunicorn.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    return env


def collected_static() -> Path:
    """STATIC_ROOT after `collectstatic`, once per test run (tests/builds.py: it takes seconds, and every deployment
    serves the same files)."""
    return built("deploy-static", _collect_static)


def migrate(deployment: Deployment, env: dict) -> None:
    """`manage.py migrate` on the deployment's database. A new SQLite file gets a copy of the one migrate made for
    the run (`migrated_sqlite`): the same file, made once."""
    sqlite = deployment.sqlite_file
    if sqlite is not None and not sqlite.exists():
        shutil.copyfile(migrated_sqlite(), sqlite)
        return
    done = manage("migrate", "--noinput", env=env)
    assert done.returncode == 0, done.stderr


def migrated_sqlite() -> Path:
    """A new SQLite database after `manage.py migrate` in the production environment (the schema, the migrations'
    rows), once per test run (tests/builds.py)."""
    return built("deploy-sqlite", _migrate_sqlite) / "db.sqlite3"


def _migrate_sqlite(folder: Path) -> None:
    env = production_env(**SECRETS, DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}")
    done = manage("migrate", "--noinput", env=env)
    assert done.returncode == 0, done.stderr


def _collect_static(root: Path) -> None:
    done = manage("collectstatic", "--noinput", env=production_env(**SECRETS, STATIC_ROOT=str(root)))
    assert done.returncode == 0, done.stderr


class Logs:
    def __init__(self, folder: Path):
        self.folder = folder
        self.app = folder / "app.log"
        self.access = folder / "mahjong.access.log"
        self.errors = folder / "mahjong.error.log"
        self.nginx_main = folder / "nginx.error.log"

    def text(self) -> str:
        """Every log of the deployment, one after the other (the app's and gunicorn's, nginx's access and error
        logs)."""
        time.sleep(0.3)  # the workers write their access lines after answering; nginx after sending
        return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(self.folder.glob("*.log")))

    def app_lines(self) -> list[dict]:
        time.sleep(0.3)
        text = self.app.read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

    def nginx_lines(self) -> list[dict]:
        time.sleep(0.3)
        return [json.loads(line) for line in self.access.read_text().splitlines() if line.strip()]


class Deployment:
    """What a test holds: the ports, the logs, the processes, and a client."""

    def __init__(self, folder: Path, database: str):
        self.folder = folder
        self.database = database
        self.logs = Logs(folder / "logs")
        self.app_port = free_port()
        self.https_port: int | None = None
        self.http_port: int | None = None
        self.gunicorn: subprocess.Popen | None = None
        self.nginx: subprocess.Popen | None = None

    @property
    def sqlite_file(self) -> Path | None:
        return (
            Path(self.database.removeprefix("sqlite:///").split("?")[0]) if self.database.startswith("sqlite") else None
        )

    def connection(self, source: str = "127.0.0.1", timeout: float = 30, direct: bool = False):
        """A connection to nginx over HTTPS (the certificate is not checked: it is the test's own), or with
        `direct` to gunicorn itself; from the loopback address `source` (each is a client of its own for
        nginx's per-client limit and the app's rate limit)."""
        if direct:
            return http.client.HTTPConnection("127.0.0.1", self.app_port, timeout=timeout, source_address=(source, 0))
        context = ssl._create_unverified_context()  # noqa: S323 (the deployment's own self-signed certificate)
        return http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, timeout=timeout, context=context, source_address=(source, 0)
        )

    def request(
        self,
        method: str,
        path: str,
        body: str | bytes | None = None,
        headers: dict | None = None,
        source: str = "127.0.0.1",
        timeout: float = 30,
        direct: bool = False,
    ) -> tuple[http.client.HTTPResponse, bytes]:
        conn = self.connection(source, timeout, direct)
        try:
            all_headers = {"Host": HOST, **(headers or {})}
            if direct:  # as nginx would send it
                all_headers.setdefault("X-Forwarded-Proto", "https")
                all_headers.setdefault("X-Forwarded-For", "198.51.100.20")
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            return response, response.read()
        finally:
            conn.close()

    def raw(self, data: bytes, timeout: float = 15) -> tuple[int, dict, bytes]:
        """Send `data` (a whole request, written exactly as given) to nginx over TLS; the answer's status (0: the
        connection was closed without one), headers (lower-case names) and body."""
        context = ssl._create_unverified_context()  # noqa: S323 (the deployment's own certificate)
        with (
            socket.create_connection(("127.0.0.1", self.https_port), timeout=timeout) as plain,
            context.wrap_socket(plain, server_hostname=HOST) as sock,
        ):
            sock.sendall(data)
            response = http.client.HTTPResponse(sock)
            try:
                response.begin()
            except (http.client.HTTPException, OSError):
                return 0, {}, b""
            content = response.read()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, content

    def post_json(self, path: str, body: dict, token: str | None = None, headers: dict | None = None, **kwargs):
        headers = {
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
            **(headers or {}),
        }
        return self.request("POST", path, json.dumps(body), headers, **kwargs)

    def big_table(self, hands: int) -> str:
        """A table of `hands` hands (the seats taking turns), written by the app's own store in a process of its own
        on this deployment's database (as a referee's phone would, hand after hand, only faster); its id."""
        script = (
            "import json, sys\n"
            "from calculator.tables import store\n"
            "table, _ = store.create_table({'ruleset': 'bazhi', 'stake': 1_000_000})\n"
            "seats = [(w, d) for w in 'ESWN' for d in 'ESWN' if w != d]\n"
            f"for n in range({hands}):\n"
            "    winner, discarder = seats[n % len(seats)]\n"
            "    store.record_hand(table.id, {'hand': '111345789p79m55s', 'win_tile': '8m', 'winner': winner,"
            " 'discarder': discarder})\n"
            "print(table.id)\n"
        )
        done = manage("shell", "-c", script, env=self.env)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.strip().splitlines()[-1]

    def workers(self) -> set[int]:
        """The process ids of gunicorn's workers now (the master's children)."""
        children = Path(f"/proc/{self.gunicorn.pid}/task/{self.gunicorn.pid}/children")
        return {int(pid) for pid in children.read_text().split()} if children.exists() else set()

    def wait_until_healthy(self, seconds: float = 30, direct: bool = False) -> float:
        """Until /healthz answers 200 (through nginx, or `direct`); how long it took."""
        started = time.monotonic()
        while True:
            with contextlib.suppress(OSError):
                if self.request("GET", "/healthz", timeout=5, direct=direct)[0].status == 200:
                    return time.monotonic() - started
            for process in (self.gunicorn, self.nginx):
                assert process is None or process.poll() is None, self.logs.text()[-5000:]
            assert time.monotonic() - started < seconds, self.logs.text()[-5000:]
            time.sleep(0.1)


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"),
            *("-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={HOST}"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _replace(text: str, old: str, new: str, count: int) -> str:
    """`text` with `old` replaced by `new`, which must occur exactly `count` times (deploy/nginx.conf changed shape:
    this file must learn it)."""
    assert text.count(old) == count, (old, text.count(old))
    return text.replace(old, new)


def nginx_site(app_port: int, https_port: int, http_port: int, logs: Path, cert: Path, key: Path, cache: Path) -> str:
    """deploy/nginx.conf with these ports, this certificate, this log directory and the pictures' cache in `cache`
    (a folder nginx's workers may write to)."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = _replace(site, "listen [::]:80;\n", "", 1)
    site = _replace(site, "listen [::]:443 ssl http2;\n", "", 1)
    site = _replace(site, "listen 80;", f"listen 127.0.0.1:{http_port};", 1)
    site = _replace(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;", 1)
    site = _replace(site, "server 127.0.0.1:8000", f"server 127.0.0.1:{app_port}", 2)
    site = _replace(site, "/var/log/nginx/", f"{logs}/", 4)
    site = _replace(site, "/var/lib/nginx/", f"{cache}/", 1)
    site = re.sub(r"ssl_certificate /\S+;", f"ssl_certificate {cert};", site)
    return re.sub(r"ssl_certificate_key /\S+;", f"ssl_certificate_key {key};", site)


def nginx_main(folder: Path, site: Path, logs: Path) -> str:
    """The main configuration around the site (Debian's /etc/nginx/nginx.conf plays this part in production), with
    room for thousands of connections."""
    return f"""
worker_processes 2;
worker_rlimit_nofile 16384;
pid {folder}/nginx.pid;
error_log {logs}/nginx.error.log crit;
events {{ worker_connections 8192; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {site};
}}
"""


@contextmanager
def nginx_in_front(app_port: int, logs: Path) -> Iterator[tuple[int, int, subprocess.Popen]]:
    """nginx with deploy/nginx.conf in front of the app server on `app_port`, its logs in `logs`: (the HTTPS port,
    the plain HTTP port, the master process). Waits until it listens."""
    if not Path(NGINX).exists():
        import pytest

        pytest.skip("no nginx (scripts/test installs Debian's)")
    more_open_files()
    folder = Path(tempfile.mkdtemp(prefix="deploy-nginx-"))  # nginx's workers (user nobody) write temp files here
    folder.chmod(0o755)
    process = None
    try:
        https_port, http_port = free_port(), free_port()
        cert, key = _self_signed(folder)
        site = folder / "mahjong.conf"
        site.write_text(nginx_site(app_port, https_port, http_port, logs, cert, key, folder))
        main = folder / "nginx.conf"
        main.write_text(nginx_main(folder, site, logs))
        with open(logs / "nginx.stderr.log", "w") as stderr:
            process = subprocess.Popen(
                [NGINX, "-p", str(folder), "-c", str(main), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", https_port), timeout=1):
                break
            assert process.poll() is None, (logs / "nginx.stderr.log").read_text()
            assert time.monotonic() < deadline, "nginx did not listen within 10 s"
            time.sleep(0.05)
        yield https_port, http_port, process
    finally:
        stop_process(process, signal.SIGQUIT)
        shutil.rmtree(folder, ignore_errors=True)


def stop_process(process: subprocess.Popen | None, sig: int = signal.SIGTERM) -> None:
    """`sig` to `process`, then SIGKILL to whatever of its process group is left (a worker)."""
    if process is None:
        return
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # whatever of its group is left (a worker)


def _database(folder: Path, database: str) -> Iterator[str]:
    if database == "sqlite":
        yield f"sqlite:///{folder / 'db.sqlite3'}"
    elif database == "postgresql":
        from tests.ledger.scratch import postgres_database

        with postgres_database("deploy") as url:
            yield url
    else:
        yield database


@contextmanager
def app_server(folder: Path, database: str = "sqlite", workers: int = 2, host: str = "127.0.0.1", **settings: str):
    """gunicorn as deploy/gunicorn.env runs it, on `host`:<a free port>, without nginx; `settings` are environment
    variables (of the app or of gunicorn)."""
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(contextmanager(_database)(folder, database))
        deployment = Deployment(folder, url)
        deployment.logs.folder.mkdir(exist_ok=True)
        deployment.app_port = free_port(host)
        env = production_env(
            **{
                **SECRETS,
                **gunicorn_env(),
                "DATABASE_URL": url,
                "STATIC_ROOT": str(collected_static()),
                "WEB_CONCURRENCY": str(workers),
                **settings,
            }
        )
        migrate(deployment, env)
        command = [str(GUNICORN), "--bind", f"{host}:{deployment.app_port}", "calculator.wsgi:application"]
        with open(deployment.logs.app, "w") as log:
            deployment.gunicorn = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deployment.env = env
        try:
            deployment.wait_until_healthy(direct=True)
            yield deployment
        finally:
            stop_process(deployment.gunicorn)


@contextmanager
def deployed(folder: Path, database: str = "sqlite", workers: int = 2, **settings: str) -> Iterator[Deployment]:
    """nginx (deploy/nginx.conf) in front of gunicorn (`app_server`) on `database`: "sqlite" (a file of its own),
    "postgresql" (a database of its own on TEST_POSTGRES_URL's server: skipped without it) or a URL."""
    with (
        app_server(folder, database, workers, **settings) as deployment,
        nginx_in_front(deployment.app_port, deployment.logs.folder) as (https, http, nginx),
    ):
        deployment.https_port, deployment.http_port, deployment.nginx = https, http, nginx
        deployment.wait_until_healthy()
        yield deployment
