#!/usr/bin/env python3
"""HTTP load on loopback through the deployment of docs/deployment.md: nginx (deploy/nginx.conf, HTTPS) in front
of gunicorn (deploy/gunicorn.env), two workers; POST /api/score and the calculator's htmx result partial, and the
scenarios of issues 15, 20 and 31.

    .venv/bin/python scripts/load.py                 # 10 s per scenario: api, partial, ledger
    .venv/bin/python scripts/load.py --seconds 3     # shorter
    .venv/bin/python scripts/load.py --scenarios ledger          # only the ledger: one table to 1,000 hands
    .venv/bin/python scripts/load.py --scenarios slow-header,slow-body --slow-clients 3,50,1000 --slow-seconds 60
    .venv/bin/python scripts/load.py --scenarios poll            # a client polling a 1,000-hand table every 2 s
    .venv/bin/python scripts/load.py --scenarios starve          # 8 heavy readers at one address, 8.5 reads/s
    .venv/bin/python scripts/load.py --scenarios flood           # 1,000 fast connections from 50 addresses
    # today's (main's) server behind the same nginx, to compare: a checkout of main at /tmp/old
    .venv/bin/python scripts/load.py --server granian-bridge --root /tmp/old --scenarios api,partial

The app server is started from the checkout `--root` (this one by default) on a free port of 127.0.0.1; nginx is
this checkout's deploy/nginx.conf in front of it (`--proxy none`: the clients talk to the app server directly),
on free ports with a self-signed certificate (tests/deploy/deployment.py starts it as the tests do). The load
client is `wrk` when it is installed (`apt-get install -y wrk`: written in C, it leaves the two cores to the
server) and otherwise the standard library's asyncio (`--client python`; it takes a share of the CPU it measures,
so its figures are lower). Per endpoint:
- saturation: `--saturation-users` clients sending back to back → requests per second;
- 20 users: 20 clients sending back to back (no pause between requests: the harshest reading of "20 users")
  → p50 / p95 / p99 latency.
The ledger scenario ("one table with 1,000 hands") plays one table hand by hand through the JSON API, as one
referee does, and compares the write at hand 1,000 with the write at hand 10 (medians of the 20 writes around
each; issue 15's goal: within 1.5×, the same response size); it also measures what an open table page costs
while nothing changes (its poll, /tables/<id>/live/?v=…, answered 204) and a `GET` of the 1,000-hand table.
The slow-client, poll and flood scenarios are tests/deploy/scenarios.py's (the suite runs them small), each
with PASS / FAIL lines for issue 31's goals. The database is a fresh SQLite file in a temporary directory (the
embedded default), or DATABASE_URL. Every scenario stops at its deadline; the servers are stopped at the end. The
requests are winning hands of both rulesets (xinyu with 0–4 财神), dealt from a fixed seed by each game's own deal
(benchmarks/dealt.py; a waits question scores every wait twice and is a different, heavier request: see
docs/PERFORMANCE.md).

Settings: the production profile (DEBUG off) with the local differences a loopback run needs: no HTTPS redirect
and no secure cookies (nginx's certificate is the run's own), static files without the manifest, and the rate
limiter off for api, partial and ledger (it would answer most of this traffic 429: it is the limiter that would
be measured, not the app); the poll, starve and flood scenarios run with the production limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import shlex
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.deploy import scenarios  # noqa: E402  (the scenarios the suite runs small)
from tests.deploy.deployment import nginx_in_front, stop_process  # noqa: E402  (as the tests start them)

HOST = "127.0.0.1"
TLS: ssl.SSLContext | None = None  # set when the clients talk to nginx (HTTPS, its self-signed certificate)
TARGETS = {"api": (500, 50.0), "partial": (300, 50.0)}  # requests/s at saturation, p95 ms at 20 users


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# How each server is started on HOST:{port} with {workers} processes, from the checkout `root` (the default is
# this one; `--root` serves another, e.g. `git worktree add /tmp/old main`, to compare with today's).
# "production" is how docs/deployment.md runs the app (gunicorn, its settings from the checkout's
# deploy/gunicorn.env); "granian-bridge" how main ran it before issue 31 (granian and calculator/asgi.py's bridge);
# "gunicorn" how a checkout from before issue 20 ran it (its gunicorn.conf.py); the others are the candidates
# docs/PERFORMANCE.md § Slow clients compares.
SERVERS = {
    "production": "{bin}/gunicorn --bind {host}:{port} --workers {workers} calculator.wsgi:application",
    "granian-bridge": "{python} -m calculator.plumbing.server",
    "gunicorn": "{bin}/gunicorn -c gunicorn.conf.py --workers {workers} --bind {host}:{port}",
}
# Candidates that need packages the project does not install: measured with `PYTHONPATH=<a pip --target directory
# holding them>`. Django's ASGI handler is `get_asgi_application()`.
_GRANIAN = "{python} -m granian --workers {workers} --no-ws --host {host} --port {port}"
_GUNICORN = "{bin}/gunicorn --workers {workers} --bind {host}:{port} --worker-connections 1000"
CANDIDATES = {
    "granian-wsgi": f"{_GRANIAN} --interface wsgi --blocking-threads {{threads}} calculator.wsgi:application",
    "granian-django-asgi": f"{_GRANIAN} --interface asgi --factory django.core.asgi:get_asgi_application",
    "gunicorn-django-asgi": f"{_GUNICORN} --worker-class asgi 'django.core.asgi:get_asgi_application()'",
    "uvicorn-django-asgi": "{python} -m uvicorn --workers {workers} --host {host} --port {port} --no-access-log "
    "--http httptools --factory django.core.asgi:get_asgi_application",
    "gevent": f"{_GUNICORN} --worker-class gevent calculator.wsgi:application",
    "waitress": "{python} -m waitress --listen {host}:{port} --threads {threads} calculator.wsgi:application",
    "gthread": "{bin}/gunicorn --bind {host}:{port} --workers {workers} --threads {threads} calculator.wsgi:application",
}


def env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines (an EnvironmentFile of systemd's: deploy/gunicorn.env), comments and blank lines aside."""
    if not path.exists():
        return {}
    pairs = (line.partition("=") for line in path.read_text().splitlines() if line.strip() and line[0] != "#")
    return {name.strip(): value.strip() for name, _, value in pairs}


def start_server(
    port: int,
    database: str,
    workers: int,
    rate_limit: bool,
    kind: str = "production",
    root: Path = ROOT,
    threads: int = 2,
    extra_env: dict | None = None,
    limits: str = "unreached",
    log: Path | None = None,
) -> subprocess.Popen:
    env = dict(
        os.environ,
        DJANGO_ENV="production",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        STATIC_MANIFEST="0",
        RATE_LIMIT_ENABLED="1" if rate_limit else "0",
        LOG_FORMAT="json",  # the production default: one JSON access line per request (to /dev/null here)
        WEB_CONCURRENCY=str(workers),
        GUNICORN_BIND=f"{HOST}:{port}",
        SERVER_BIND=f"{HOST}:{port}",
        SERVER_THREADS=str(threads),
        GUNICORN_THREADS=str(threads),
        DATABASE_URL=database,
        DJANGO_SETTINGS_MODULE="calculator.settings",
    )
    if kind in ("production", "gthread"):  # gunicorn's settings as the checkout deploys them, address and workers aside
        env.update(env_file(root / "deploy" / "gunicorn.env"), WEB_CONCURRENCY=str(workers))
    env.update(extra_env or {})
    if limits != "production":
        # budgets this traffic never reaches: with --rate-limit the limiter's cost is measured, not its 429s
        env.update(RATE_LIMIT_READ="100000000/60", RATE_LIMIT_WRITE="100000000/60")
    # The health check (and the rate limiter) need the tables: a fresh database for this run.
    python = root / ".venv" / "bin" / "python"
    python = str(python) if python.exists() else sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, env=env, check=True)
    template = {**SERVERS, **CANDIDATES}[kind]
    fields = {
        "python": python,
        "bin": str(Path(python).parent),
        "workers": workers,
        "threads": threads,
        "host": HOST,
        "port": port,
    }
    command = [part.format(**fields) for part in shlex.split(template)]
    # a session of its own: stop() can end the server with every worker it started
    output = open(log, "w", encoding="utf-8") if log else subprocess.DEVNULL  # noqa: SIM115 (the server's to close)
    return subprocess.Popen(
        command, cwd=root, env=env, stdout=output, stderr=subprocess.STDOUT if log else output, start_new_session=True
    )


def wait_until_up(port: int, server: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer /healthz in time")


def stop(server: subprocess.Popen) -> None:
    """SIGTERM to the server (its workers finish what they answer, up to 30 s), then to what is left of its
    process group: no worker outlives a run."""
    stop_process(server)


# --------------------------------------------------------------------------- what is asked


def engine_requests(count: int, seed: int) -> list[dict]:
    """Winning hands of both rulesets, 0–4 财神 in xinyu (each game's own deal: benchmarks/dealt.py, fixed seed)."""
    from benchmarks.dealt import dealt_wins

    rng = random.Random(seed)
    return dealt_wins("bazhi", count // 2, rng).requests + dealt_wins("xinyu", count - count // 2, rng).requests


def api_request(body: dict, port: int) -> bytes:
    payload = json.dumps(body, ensure_ascii=False).encode()
    head = (
        f"POST /api/score HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + payload


def form_query(body: dict) -> str:
    """The calculator form's fields for an engine request: its share link's query (calculator/presentation/handquery.py)."""
    from calculator.presentation.handquery import HandInput, query_string

    return query_string(HandInput(body, {}))


def partial_request(body: dict, port: int) -> bytes:
    head = (
        f"GET /?{form_query(body)} HTTP/1.1\r\nHost: {HOST}:{port}\r\nHX-Request: true\r\n"
        f"HX-Target: result\r\nConnection: close\r\n\r\n"
    )
    return head.encode()


# --------------------------------------------------------------------------- the clients


def url(port: int, path: str) -> str:
    return f"{'https' if TLS else 'http'}://{HOST}:{port}{path}"


def target(port: int) -> scenarios.Target:
    """Where tests/deploy/scenarios.py's clients connect: nginx over HTTPS, or the app server."""
    return scenarios.Target(port, tls=TLS is not None, host=HOST)


def fetch(call: urllib.request.Request | str, timeout: float):
    """urllib's urlopen, over TLS to nginx when the run has it."""
    return urllib.request.urlopen(call, timeout=timeout, context=TLS)


async def one(raw: bytes, port: int, timeout: float) -> int:
    """Send one request on a fresh connection (as nginx does towards gunicorn's sync workers); its status."""
    return await scenarios.one(target(port), raw, "127.0.0.1", timeout)


async def scenario(requests: list[bytes], port: int, users: int, seconds: float) -> dict:
    """`users` clients, each sending its next request as soon as the last is answered, until the deadline."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    deadline = time.perf_counter() + seconds

    async def user(n: int) -> None:
        i = n
        while time.perf_counter() < deadline:
            raw = requests[i % len(requests)]
            i += users
            start = time.perf_counter()
            try:
                status = await one(raw, port, timeout=10)
            except (TimeoutError, OSError) as error:
                errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                continue
            latencies.append(time.perf_counter() - start)
            if not 200 <= status < 300:
                errors[str(status)] = errors.get(str(status), 0) + 1

    began = time.perf_counter()
    await asyncio.gather(*(user(n) for n in range(users)))
    elapsed = time.perf_counter() - began
    latencies.sort()

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")

    return {
        "users": users,
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "errors": errors,
    }


# --------------------------------------------------------------------------- the wrk client

WRK_SCRIPT = """
local raw = {%s}
local requests = {}
local i = 0
init = function(args)
  for n, r in ipairs(raw) do requests[n] = wrk.format(r[1], r[2], r[3], r[4]) end
end
request = function()
  i = i %% #requests + 1
  return requests[i]
end
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format("RESULT %%d %%d %%d %%d %%f %%f %%f\\n", summary.requests, summary.duration,
    e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


def lua_string(text: str) -> str:
    """A Lua long string, in parentheses: a bare `[==[` right after `{` or `[` would read as a key or `[[`."""
    return "([==[" + text + "]==])"


def wrk_script(calls: list[tuple[str, str, dict, str | None]]) -> str:
    """A wrk script that sends `calls` (method, path, headers, body) in turn, and prints one RESULT line."""
    items = []
    for method, path, headers, body in calls:
        header_table = "{" + ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items()) + "}"
        items.append(f"{{{lua_string(method)}, {lua_string(path)}, {header_table}, {lua_string(body or '')}}}")
    return WRK_SCRIPT % ",\n".join(items)


def wrk_scenario(calls: list, port: int, users: int, seconds: float) -> dict:
    """`users` connections kept busy by wrk (two threads) until the deadline; the same figures as `scenario`."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False, encoding="utf-8") as script:
        script.write(wrk_script(calls))
    try:
        command = ["wrk", "-t2", f"-c{users}", f"-d{max(1, round(seconds))}s", "--timeout", "10s", "-s", script.name]
        run = subprocess.run(
            [*command, url(port, "/")], capture_output=True, text=True, timeout=seconds + 30, check=False
        )
    finally:
        os.unlink(script.name)
    line = next((x for x in run.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"wrk gave no result:\n{run.stdout}\n{run.stderr}")
    requests, duration, socket_errors, bad_status, p50, p95, p99 = line.split()[1:]
    errors = {k: int(v) for k, v in (("socket", socket_errors), ("non-2xx", bad_status)) if int(v)}
    return {
        "users": users,
        "requests": int(requests),
        "rps": int(requests) / (int(duration) / 1e6),
        "p50": float(p50) / 1000,
        "p95": float(p95) / 1000,
        "p99": float(p99) / 1000,
        "errors": errors,
    }


def api_call(body: dict, close: bool = False) -> tuple[str, str, dict, str]:
    headers = {"Content-Type": "application/json", **({"Connection": "close"} if close else {})}
    return "POST", "/api/score", headers, json.dumps(body, ensure_ascii=False)


def partial_call(body: dict, close: bool = False) -> tuple[str, str, dict, None]:
    headers = {"HX-Request": "true", "HX-Target": "result", **({"Connection": "close"} if close else {})}
    return "GET", f"/?{form_query(body)}", headers, None


def check_answers(port: int, bodies: list[dict]) -> None:
    """Before measuring: the API answers every request with a result, and the partial renders one."""
    for body in bodies[:20]:
        data = json.dumps(body).encode()
        call = urllib.request.Request(url(port, "/api/score"), data=data, headers={"Content-Type": "application/json"})
        with fetch(call, timeout=10) as response:
            answer = json.load(response)
        assert "error" not in answer, answer
    call = urllib.request.Request(url(port, f"/?{form_query(bodies[0])}"), headers={"HX-Request": "true"})
    with fetch(call, timeout=10) as response:
        html = response.read().decode()
    assert "<html" not in html and "data-win" in html, html[:300]


# --------------------------------------------------------------------------- the ledger: one table, 1,000 hands

LEDGER_HAND = {"hand": "111345789p79m55s", "win_tile": "8m", "melds": [], "flags": []}  # case B1, any two seats
LEDGER_SEATS = [(w, d) for w in "ESWN" for d in "ESWN" if w != d]
LEDGER_GOAL = 1.5  # issue 15: the write at hand 1,000 within 1.5× of the write at hand 10


def call_json(port: int, method: str, path: str, body: dict | None = None, token: str | None = None, **extra: str):
    """One request; the answer's status, its parsed body (or None) and its size in bytes, and the seconds taken."""
    headers = {"Content-Type": "application/json", **extra}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    call = urllib.request.Request(url(port, path), data=data, headers=headers, method=method)
    start = time.perf_counter()
    try:
        with fetch(call, timeout=30) as response:
            raw, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    took = time.perf_counter() - start
    return status, (json.loads(raw) if raw else None), len(raw), took


def ledger_table(port: int) -> tuple[str, str]:
    status, table, _, _ = call_json(port, "POST", "/api/tables", {"ruleset": "bazhi", "stake": 1_000_000})
    assert status == 201, table
    return f"/api/tables/{table['id']}", table["edit_token"]


def ledger_write(port: int, path: str, token: str, n: int) -> tuple[int, float]:
    """Hand `n` of a table: case B1 with the seats taking turns; its response size and the seconds it took."""
    winner, discarder = LEDGER_SEATS[n % len(LEDGER_SEATS)]
    body = {**LEDGER_HAND, "winner": winner, "discarder": discarder, "idempotency_key": f"hand-{n}"}
    status, answer, size, took = call_json(port, "POST", f"{path}/hands", body, token)
    assert status == 201 and answer["hands_total"] == n, (status, answer)
    return size, took


def ledger_scenario(port: int, hands: int, seconds: float, measure_polls) -> list[str]:
    """A big table is written to `hands - 20` hands; then the last 20 of its writes alternate with the first 20 of
    a fresh table, so that both meet the same machine (the ratio is the robust figure on a shared machine)."""
    big, big_token = ledger_table(port)
    for n in range(1, hands - 19):
        ledger_write(port, big, big_token, n)
    small, small_token = ledger_table(port)
    early, late, sizes = [], [], {}
    for i in range(1, 21):
        size, took = ledger_write(port, small, small_token, i)
        early.append(took)
        sizes[i] = size
        size, took = ledger_write(port, big, big_token, hands - 20 + i)
        late.append(took)
        sizes[hands - 20 + i] = size
    early_ms, late_ms = 1000 * statistics.median(early), 1000 * statistics.median(late)
    got = [call_json(port, "GET", big)[3] for _ in range(20)]
    _, page, page_size, _ = call_json(port, "GET", big)
    live = f"/tables/{page['id']}/live/?v={page['version']}"
    assert call_json(port, "GET", live)[0] == 204
    polls = measure_polls("GET", live, seconds)
    per_poll_ms = 1000 * 2 / polls["rps"] if polls["rps"] else float("nan")  # two workers: two cores' time
    ratio = late_ms / early_ms
    same_size = abs(sizes[hands] - sizes[10]) <= sizes[10] / 100
    return [
        f"ledger   a fresh table and one of {hands} hands, their writes alternating (one client, no keep-alive):",
        f"ledger   write at hands 1-20: median {early_ms:.1f} ms; at hand 10 the response is {sizes[10]} bytes",
        f"ledger   write at hands {hands - 19}-{hands}: median {late_ms:.1f} ms; at hand {hands}, {sizes[hands]} bytes",
        f"ledger   GET of the {hands}-hand table (last 100 entries): {1000 * statistics.median(got):.1f} ms, "
        f"{page_size} bytes",
        f"ledger   idle poll (204): {polls['rps']:.0f} req/s at {polls['users']} users, p95 {polls['p95']:.1f} ms: "
        f"~{per_poll_ms:.2f} ms of CPU per poll, so one open page (a poll a second) costs "
        f"~{per_poll_ms / 10:.2f}% of a core",
        f"  {'PASS' if ratio <= LEDGER_GOAL else 'FAIL'}  ledger: write at hand {hands} within {LEDGER_GOAL}× of "
        f"hand 10: {ratio:.2f}×",
        f"  {'PASS' if same_size else 'FAIL'}  ledger: the same response size (within 1%: only the numbers' digits "
        f"and the seats' rows differ): {sizes[10]} → {sizes[hands]} bytes",
        f"  {'PASS' if not polls['errors'] else 'FAIL'}  ledger: polls without errors: {polls['errors'] or 0}",
    ]


# --------------------------------------------------------------------------- slow clients (issues 20, 31)

SLOW_GOAL = 1.0  # seconds: another client's /healthz and /api/score p99, whatever the slow clients do
SCORE_BODY = scenarios.SCORE_BODY


def slow_scenario(port: int, kind: str, clients: int, seconds: float) -> list[str]:
    """`clients` slow clients, each from an address of its own, sending their headers (or their bodies) a byte a
    second for `seconds`, while a patient client asks /healthz and /api/score ten times a second: the goal is its
    p99 under 1 s, and every answer 200 (tests/deploy/scenarios.py)."""
    run = scenarios.slow_clients(target(port), kind, clients, seconds)
    lines = [
        f"slow     {clients} slow-{kind} clients, {seconds:g} s, load {os.getloadavg()[0]:.2f}: "
        f"what they met {dict(sorted(run.tally.items()))}"
    ]
    for path in ("/healthz", "/api/score"):
        waits = run.waits[path]
        p99, worst = run.p99(path), run.worst(path)
        median = 1000 * statistics.median(waits) if waits else float("nan")
        lines.append(
            f"  {'PASS' if p99 < SLOW_GOAL else 'FAIL'}  slow-{kind} ×{clients}: {path} p99 under {SLOW_GOAL:g} s: "
            f"{p99:.3f} s (worst {worst:.3f} s, median {median:.1f} ms, {len(waits)} requests)"
        )
    errors = dict(run.waits["errors"])
    lines.append(
        f"  {'PASS' if not errors else 'FAIL'}  slow-{kind} ×{clients}: every probe answered 200: {errors or 'yes'}"
    )
    return lines


# --------------------------------------------------------------------------- one client reading heavy answers (issue 20)

STARVE_GOAL = 2.0  # another client's /api/score p99 while the heavy reader runs, at most this × its idle p99
STARVE_RATE = 8.5  # heavy reads a second, from 8 clients at one address (issue 20, finding 3: 8.3-8.9)
HEAVY_READER, BUILDERS = "198.51.100.7", "198.51.100.{}"


def raw_get(path: str, port: int, forwarded_for: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Forwarded-For: {forwarded_for}\r\nConnection: close\r\n\r\n"
    ).encode()


def big_table(port: int, hands: int) -> str:
    """A table of `hands` hands, written through the API by clients at addresses of their own (each within the
    write budget); its id."""
    headers = {"X-Forwarded-For": BUILDERS.format(1)}
    status, table, _, _ = call_json(port, "POST", "/api/tables", {"ruleset": "bazhi", "stake": 1_000_000}, **headers)
    assert status == 201, table
    path, token = f"/api/tables/{table['id']}", table["edit_token"]
    for n in range(1, hands + 1):
        winner, discarder = LEDGER_SEATS[n % len(LEDGER_SEATS)]
        body = {**LEDGER_HAND, "winner": winner, "discarder": discarder, "idempotency_key": f"hand-{n}"}
        headers = {"X-Forwarded-For": BUILDERS.format(2 + n // 500)}
        status, answer, _, _ = call_json(port, "POST", f"{path}/hands", body, token, **headers)
        assert status == 201, (status, answer)
    return table["id"]


async def heavy_reader(paths: list[str], port: int, deadline: float, n: int, outcomes: dict) -> None:
    """One of 8 clients at one address, each asking for a heavy answer every 8 / STARVE_RATE seconds."""
    period = 8 / STARVE_RATE
    await asyncio.sleep(n * period / 8)  # spread the eight over the period
    i = n
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            status = await one(raw_get(paths[i % len(paths)], port, HEAVY_READER), port, timeout=30)
        except (TimeoutError, OSError) as error:
            status = type(error).__name__
        outcomes[status] = outcomes.get(status, 0) + 1
        i += 1
        await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))


async def heavy_readers(paths: list[str], port: int, seconds: float) -> dict:
    outcomes: dict = {}
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(heavy_reader(paths, port, deadline, n, outcomes) for n in range(8)))
    return outcomes


def heavy_process(paths: list[str], port: int, seconds: float, results) -> None:
    """The heavy reader in a process of its own, so that reading its big answers never delays the scorer's
    measurement (one event loop would serve both)."""
    results.put(asyncio.run(heavy_readers(paths, port, seconds)))


def starve_run(paths: list[str], port: int, seconds: float) -> tuple[list[float], list[float], dict]:
    idle = asyncio.run(scenarios.scorer(target(port), seconds))
    results = multiprocessing.Queue()
    reader = multiprocessing.Process(target=heavy_process, args=(paths, port, seconds, results))
    reader.start()
    busy = asyncio.run(scenarios.scorer(target(port), seconds))
    outcomes = results.get(timeout=seconds + 60)
    reader.join()
    return idle, busy, outcomes


def starvation_scenario(port: int, hands: int, seconds: float) -> list[str]:
    """Issue 20, finding 3: one client (8 connections at one address) reads the heavy answers of a 1,000-entry
    table, ~8.5 a second (the live part, a page of 500 entries, the CSV in turn), while another client scores a
    hand 20 times a second. Its p99 must stay under STARVE_GOAL × its p99 with the heavy reader away."""
    table = big_table(port, hands)
    paths = [f"/tables/{table}/live/?v=0", f"/api/tables/{table}?from=1&limit=500", f"/tables/{table}/export.csv"]
    for path in paths:  # what each answer is
        with fetch(url(port, path), timeout=30) as response:
            assert response.status == 200, path
    idle, busy, outcomes = starve_run(paths, port, seconds)

    def pct(values: list[float], p: float) -> float:
        return 1000 * sorted(values)[min(len(values) - 1, int(len(values) * p))]

    ratio = pct(busy, 0.99) / pct(idle, 0.99)
    return [
        f"starve   another client's /api/score, idle: p50 {pct(idle, 0.5):.1f} ms, p99 {pct(idle, 0.99):.1f} ms "
        f"({len(idle)} requests)",
        f"starve   the same beside 8 heavy readers at one address ({STARVE_RATE:g}/s asked; answers "
        f"{dict(sorted(outcomes.items(), key=str))}): p50 {pct(busy, 0.5):.1f} ms, p99 {pct(busy, 0.99):.1f} ms "
        f"({len(busy)} requests)",
        f"  {'PASS' if ratio < STARVE_GOAL else 'FAIL'}  starve: the score's p99 under {STARVE_GOAL:g}× idle: "
        f"{ratio:.2f}×",
        f"  {'PASS' if max(busy) < 30 else 'FAIL'}  starve: every score answered 200",
    ]


# --------------------------------------------------------------------------- a client polling a big table (issue 31)

POLL_PERIOD = 2.0  # seconds between two polls of an open table page


def poll_scenario(port: int, hands: int, seconds: float) -> list[str]:
    """Issue 31: another client scores a hand 20 times a second for `seconds` alone, then as long again while one
    client polls a `hands`-hand table every 2 s; its p99 must stay under STARVE_GOAL × its idle p99. Twice: each poll
    answered in full (`live/?v=0`, as a page whose table has just changed), then as an open page polls while nothing
    changes (`If-None-Match` with the part's entity tag: 304)."""
    table = big_table(port, hands)
    live = f"/tables/{table}/live/"
    with fetch(url(port, live), timeout=30) as response:
        size, tag = len(response.read()), response.headers["ETag"]
    lines = []
    for what, paths in (
        (f"its live part in full ({size} bytes)", [f"{live}?v=0"]),
        ("If-None-Match: 304", [(live, {"If-None-Match": tag})]),
    ):
        run = scenarios.beside_a_heavy_reader(target(port), paths, POLL_PERIOD, seconds)
        idle, busy = run.idle, run.busy

        def ms(values: list[float], p: float) -> float:
            return 1000 * scenarios.percentile(values, p)

        lines += [
            f"poll     another client's /api/score, idle: p50 {ms(idle, 0.5):.1f} ms, p99 {ms(idle, 0.99):.1f} ms "
            f"({len(idle)} requests; load {os.getloadavg()[0]:.2f})",
            f"poll     the same beside a client polling the {hands}-hand table every {POLL_PERIOD:g} s, {what} "
            f"(answers {run.outcomes}): p50 {ms(busy, 0.5):.1f} ms, p99 {ms(busy, 0.99):.1f} ms ({len(busy)} requests)",
            f"  {'PASS' if run.ratio < STARVE_GOAL else 'FAIL'}  poll, {what}: the score's p99 under "
            f"{STARVE_GOAL:g}× idle: {run.ratio:.2f}×",
            f"  {'PASS' if max(busy) < 30 else 'FAIL'}  poll, {what}: every score answered 200",
        ]
    return lines


# --------------------------------------------------------------------------- a flood (issue 31)


def flood_scenario(port: int, connections: int, clients: int, seconds: float) -> list[str]:
    """Issue 31: `connections` connections from `clients` addresses sending back to back (pages, partials, scores,
    a missing table), with the production rate limits, while a load balancer's probe asks /healthz five times a
    second: only 200, 404, 429 and 503 answers, and every probe answered 200."""
    run = scenarios.flood(target(port), connections, clients, seconds)
    probes = {str(status): run.probes.count(status) for status in set(run.probes)}
    p99 = scenarios.percentile(run.waits, 0.99)
    return [
        f"flood    {connections} connections from {clients} addresses, {seconds:g} s (load "
        f"{os.getloadavg()[0]:.2f}): answers {dict(sorted(run.statuses.items(), key=str))}",
        f"flood    /healthz beside it: {probes}, p99 {p99:.3f} s, worst {max(run.waits, default=float('nan')):.3f} s",
        f"  {'PASS' if not run.unexpected else 'FAIL'}  flood: only 200 / 404 / 429 / 503: {run.unexpected or 'yes'}",
        f"  {'PASS' if run.probes and set(run.probes) == {200} else 'FAIL'}  flood: /healthz answered 200 every time",
    ]


def report(name: str, saturation: dict, twenty: dict) -> list[str]:
    rps_target, p95_target = TARGETS[name]
    errors = sum(saturation["errors"].values()) + sum(twenty["errors"].values())
    lines = [
        f"{name:8} saturation ({saturation['users']} users): {saturation['rps']:7.0f} req/s "
        f"({saturation['requests']} requests, p95 {saturation['p95']:.1f} ms, errors {saturation['errors'] or 0})",
        f"{name:8} 20 users: {twenty['rps']:7.0f} req/s, p50 {twenty['p50']:.1f} ms, p95 {twenty['p95']:.1f} ms, "
        f"p99 {twenty['p99']:.1f} ms ({twenty['requests']} requests, errors {twenty['errors'] or 0})",
    ]
    checks = [
        (saturation["rps"] >= rps_target, f"{name}: ≥ {rps_target} req/s at saturation", f"{saturation['rps']:.0f}"),
        (twenty["p95"] < p95_target, f"{name}: p95 < {p95_target:.0f} ms at 20 users", f"{twenty['p95']:.1f} ms"),
        (errors == 0, f"{name}: 0 errors", str(errors)),
    ]
    lines += [f"  {'PASS' if ok else 'FAIL'}  {text}: {figure}" for ok, text, figure in checks]
    return lines


def main(argv: list[str] | None = None) -> int:
    global TLS
    parser = argparse.ArgumentParser(description="HTTP load on loopback through nginx and the app server")
    parser.add_argument("--seconds", type=float, default=10, help="length of each scenario (default 10)")
    parser.add_argument("--saturation-users", type=int, default=8, help="clients for the saturation run")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2, help="app server worker processes (default 2)")
    parser.add_argument(
        "--rate-limit", action="store_true", help="run with the rate limiter on (budgets no scenario reaches)"
    )
    parser.add_argument(
        "--scenarios",
        default="api,partial,ledger",
        help="comma-separated: api, partial, ledger, starve, poll, flood, slow-header, slow-body "
        "(default: api,partial,ledger)",
    )
    parser.add_argument(
        "--slow-clients",
        default="3,50,1000",
        help="slow-client counts, each a run of --slow-seconds (default 3,50,1000)",
    )
    parser.add_argument("--slow-seconds", type=float, default=60, help="length of each slow-client run (default 60)")
    parser.add_argument(
        "--starve-seconds", type=float, default=30, help="length of each half of the starve and poll runs (default 30)"
    )
    parser.add_argument("--flood-connections", type=int, default=1000, help="connections in the flood (default 1000)")
    parser.add_argument("--flood-clients", type=int, default=50, help="addresses they come from (default 50)")
    parser.add_argument(
        "--server",
        choices=[*SERVERS, *CANDIDATES],
        default="production",
        help="how the app is served (default: as in production, docs/deployment.md)",
    )
    parser.add_argument(
        "--proxy",
        choices=["nginx", "none"],
        default="nginx",
        help="nginx (deploy/nginx.conf) in front, the clients speaking HTTPS to it (default), or none",
    )
    parser.add_argument("--threads", type=int, default=2, help="threads per worker process, where a server has them")
    parser.add_argument(
        "--close",
        action="store_true",
        help="wrk asks for a new connection per request (Connection: close)",
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="serve this checkout instead (an older commit, to compare)"
    )
    parser.add_argument(
        "--server-log", type=Path, help="write the server's log here (one JSON line per request, with its duration)"
    )
    parser.add_argument("--ledger-hands", type=int, default=1000, help="hands in the ledger scenario (default 1000)")
    parser.add_argument(
        "--client", choices=["wrk", "python"], default="wrk" if shutil.which("wrk") else "python", help="load client"
    )
    args = parser.parse_args(argv)
    args.seconds = min(args.seconds, 60)  # bounded: never an open-ended run
    args.slow_seconds = min(args.slow_seconds, 60)
    args.starve_seconds = min(args.starve_seconds, 60)

    bodies = engine_requests(200, args.seed)
    chosen = set(args.scenarios.split(","))
    app_port = free_port()
    scratch = Path(tempfile.mkdtemp(prefix="load-"))
    database = os.environ.get("DATABASE_URL") or f"sqlite:///{scratch}/load.sqlite3"
    with_limits = {"starve", "poll", "flood"}
    if chosen & with_limits and chosen - with_limits:
        parser.error("run the starve, poll and flood scenarios apart: they run with the production rate limits")
    limits = "production" if chosen & with_limits else "unreached"
    rate_limit = args.rate_limit or limits == "production"
    server = start_server(
        app_port,
        database,
        args.workers,
        rate_limit,
        args.server,
        args.root,
        args.threads,
        limits=limits,
        log=args.server_log,
    )
    lines = [
        f"{args.server} server from {args.root}, {args.workers} workers, {HOST}:{app_port}; "
        f"{'nginx (deploy/nginx.conf, HTTPS) in front' if args.proxy == 'nginx' else 'no proxy'}; "
        f"load {os.getloadavg()[0]:.2f}; client {args.client}{' (a connection per request)' if args.close else ''}; "
        f"{args.seconds:g} s per scenario; {len(bodies)} distinct requests; "
        f"rate limiter {'off' if not rate_limit else 'on, production budgets' if limits == 'production' else 'on'}"
    ]
    try:
        wait_until_up(app_port, server)
        with contextlib.ExitStack() as stack:
            port = app_port
            if args.proxy == "nginx":
                logs = scratch / "nginx-logs"
                logs.mkdir()
                port, _, _ = stack.enter_context(nginx_in_front(app_port, logs))
                TLS = ssl._create_unverified_context()  # noqa: S323 (the run's own certificate)
            lines += measure_all(args, chosen, bodies, port)
    finally:
        stop(server)
        TLS = None
        shutil.rmtree(scratch, ignore_errors=True)
    lines.append(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n".join(lines))
    return 0 if all("FAIL" not in line for line in lines) else 1


def measure_all(args, chosen: set[str], bodies: list[dict], port: int) -> list[str]:
    lines: list[str] = []
    check_answers(port, bodies)
    for name, build, call in (("api", api_request, api_call), ("partial", partial_request, partial_call)):
        if name not in chosen:
            continue
        if args.client == "wrk":
            calls = [call(body, args.close) for body in bodies]

            def measure(users: int, seconds: float, calls=calls) -> dict:
                return wrk_scenario(calls, port, users, seconds)
        else:
            raws = [build(body, port) for body in bodies]

            def measure(users: int, seconds: float, raws=raws) -> dict:
                return asyncio.run(scenario(raws, port, users, seconds))

        measure(4, 1)  # warm the workers (imports, caches)
        saturation = measure(args.saturation_users, args.seconds)
        twenty = measure(20, args.seconds)
        lines += report(name, saturation, twenty)
    if "ledger" in chosen:

        def polls(method: str, path: str, seconds: float) -> dict:
            if args.client == "wrk":
                return wrk_scenario([(method, path, {}, None)], port, args.saturation_users, seconds)
            raw = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode()
            return asyncio.run(scenario([raw], port, args.saturation_users, seconds))

        lines += ledger_scenario(port, args.ledger_hands, args.seconds, polls)
    if "starve" in chosen:
        lines += starvation_scenario(port, args.ledger_hands, args.starve_seconds)
    if "poll" in chosen:
        lines += poll_scenario(port, args.ledger_hands, args.starve_seconds)
    if "flood" in chosen:
        lines += flood_scenario(port, args.flood_connections, args.flood_clients, args.seconds)
    for kind in ("header", "body"):
        if f"slow-{kind}" in chosen:
            for clients in (int(n) for n in args.slow_clients.split(",")):
                lines += slow_scenario(port, kind, clients, args.slow_seconds)
    return lines


if __name__ == "__main__":
    sys.exit(main())
