"""The load scenarios of issue 31 against a running deployment, shared by the tests (small sizes, tests/deploy/) and
scripts/load.py (full sizes, PASS / FAIL lines): slow clients, a heavy reader beside a scoring client, a flood.

Every client speaks HTTP/1.1 over TLS to nginx (or plain HTTP to an app server without it), one request per
connection, from a loopback address of its own choosing (127.x.y.z: each address is a client of its own for
nginx's per-client limit and the app's rate limit). The clients that make the load run in processes of their own,
so that the client whose waits are measured never waits on their event loop. No Django here."""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import ssl
import time
from collections import Counter
from dataclasses import dataclass, field

SCORE_BODY = json.dumps(
    {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
)
PROBE_FROM, READER_FROM, SCORERS_FROM = "127.0.0.2", "127.0.0.4", "127.0.3."
_scores = itertools.count()  # every score this process sends: the scoring client's address changes every 200


@dataclass(frozen=True)
class Target:
    """Where the clients connect: nginx's HTTPS port (`tls`), or an app server's plain port."""

    port: int
    tls: bool = True
    host: str = "mahjong.example.org"

    def context(self) -> ssl.SSLContext | None:
        return ssl._create_unverified_context() if self.tls else None  # noqa: S323 (the test's own certificate)

    def get(self, path: str, **headers: str) -> bytes:
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def post(self, path: str, body: str, **headers: str) -> bytes:
        data = body.encode()
        lines = [f"POST {path} HTTP/1.1", f"Host: {self.host}", "Connection: close", "Content-Type: application/json"]
        lines += [f"Content-Length: {len(data)}", *(f"{name}: {value}" for name, value in headers.items())]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def address(n: int) -> str:
    """The n-th client address of a crowd: 127.1.0.1, 127.1.0.2, … (never a probe's)."""
    return f"127.{1 + n // 62500}.{n // 250 % 250}.{1 + n % 250}"


async def connect(target: Target, source: str, timeout: float):
    return await asyncio.wait_for(
        asyncio.open_connection(
            "127.0.0.1",
            target.port,
            ssl=target.context(),
            server_hostname=target.host if target.tls else None,
            local_addr=(source, 0),
        ),
        timeout,
    )


async def one(target: Target, raw: bytes, source: str, timeout: float = 30) -> int:
    """Send one request on a new connection; the answer's status (its whole body read)."""
    reader, writer = await connect(target, source, timeout)
    try:
        writer.write(raw)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    status_line = answer.split(b"\r\n", 1)[0].split()
    return int(status_line[1]) if len(status_line) > 1 else 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


# --------------------------------------------------------------------------------------------- slow clients


def slow_bytes(kind: str, target: Target) -> tuple[bytes, bytes]:
    """What a slow client sends: (sent at once, then trickled a byte a second). Neither ever completes a request
    within a scenario: the headers go on padding, the body is declared far longer than it gets."""
    if kind == "header":
        return b"", f"GET / HTTP/1.1\r\nHost: {target.host}\r\nX-Padding: ".encode() + b"x" * 4000
    head = (
        f"POST /api/score HTTP/1.1\r\nHost: {target.host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: 60000\r\n\r\n"
    )
    return head.encode(), b"{" + b" " * 59998


async def slow_client(target: Target, kind: str, source: str, deadline: float, tally: Counter) -> None:
    """One client sending a byte a second; when the server hangs up (or answers), it connects again a second later,
    so that it presses for the whole scenario."""
    first, trickle = slow_bytes(kind, target)
    while time.monotonic() < deadline:
        try:
            reader, writer = await connect(target, source, 10)
        except (OSError, TimeoutError):
            tally["refused"] += 1
            await asyncio.sleep(1)
            continue
        tally["connections"] += 1
        try:
            if first:
                writer.write(first)
            for byte in trickle:
                if time.monotonic() >= deadline:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    answer = await asyncio.wait_for(reader.read(65536), timeout=1.0)
                except TimeoutError:
                    continue
                status = answer.split(b"\r\n", 1)[0].split()[1:2]
                tally[f"answered {status[0].decode()}" if status else "cut"] += 1  # a 408, a 429; or hung up
                break
        except OSError:
            tally["cut"] += 1
        finally:
            writer.close()
        await asyncio.sleep(1)


def _slow_crowd(target: Target, kind: str, clients: int, seconds: float, results) -> None:
    async def crowd() -> Counter:
        tally: Counter = Counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(slow_client(target, kind, address(n), deadline, tally) for n in range(clients)))
        return tally

    results.put(dict(asyncio.run(crowd())))


async def probe(target: Target, seconds: float, source: str = PROBE_FROM, rate: float = 10) -> dict:
    """A patient client: `/healthz` and `POST /api/score` in turn, one at a time, `rate` a second; how long each took
    from connecting to the last byte of the answer, and every answer that was not 200."""
    raws = {"/healthz": target.get("/healthz"), "/api/score": target.post("/api/score", SCORE_BODY)}
    waits: dict = {"/healthz": [], "/api/score": [], "errors": Counter()}
    deadline, n = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        path = ("/healthz", "/api/score")[n % 2]
        n += 1
        started = time.perf_counter()
        try:
            status = await one(target, raws[path], source)
        except (TimeoutError, OSError) as error:
            status = type(error).__name__
        took = time.perf_counter() - started
        waits[path].append(took)
        if status != 200:
            waits["errors"][f"{path} {status}"] += 1
        await asyncio.sleep(max(0.0, 1 / rate - took))
    return waits


@dataclass
class SlowRun:
    kind: str
    clients: int
    seconds: float
    tally: dict = field(default_factory=dict)
    waits: dict = field(default_factory=dict)

    def p99(self, path: str) -> float:
        return percentile(self.waits[path], 0.99)

    def worst(self, path: str) -> float:
        return max(self.waits[path], default=float("nan"))


def slow_clients(target: Target, kind: str, clients: int, seconds: float) -> SlowRun:
    """`clients` slow clients (each from an address of its own) sending their headers, or their bodies, a byte a
    second for `seconds`, while a patient client asks /healthz and scores a hand ten times a second."""
    results = multiprocessing.get_context("spawn").Queue()
    crowd = multiprocessing.get_context("spawn").Process(
        target=_slow_crowd, args=(target, kind, clients, seconds + 2, results)
    )
    crowd.start()
    time.sleep(2 + clients / 500)  # every slow client has connected and started its request
    waits = asyncio.run(probe(target, seconds))
    tally = results.get(timeout=seconds + 120)
    crowd.join()
    return SlowRun(kind, clients, seconds, tally, waits)


# --------------------------------------------------------------------------------------------- a heavy reader


async def scorer(target: Target, seconds: float, rate: float = 20) -> list[float]:
    """Another client: POST /api/score `rate` times a second, one at a time; how long each took (an answer that
    is not 200 counts as 30 s, so that it cannot pass unseen). A new address every 200 scores: one address at 20 a
    second would spend its own write budget (600 a minute)."""
    took: list[float] = []
    raw = target.post("/api/score", SCORE_BODY)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            status = await one(target, raw, f"{SCORERS_FROM}{1 + next(_scores) // 200 % 250}")
        except (TimeoutError, OSError):
            status = 0
        elapsed = time.perf_counter() - started
        took.append(elapsed if status == 200 else 30.0)
        await asyncio.sleep(max(0.0, 1 / rate - elapsed))
    return took


def _reader(target: Target, paths: list[str | tuple[str, dict]], period: float, reading, stop, results) -> None:
    raws = [target.get(path) if isinstance(path, str) else target.get(path[0], **path[1]) for path in paths]

    async def read() -> dict:
        outcomes: Counter = Counter()
        n = 0
        while not stop.is_set():
            started = time.monotonic()
            if reading.is_set():
                try:
                    outcomes[await one(target, raws[n % len(raws)], READER_FROM)] += 1
                except (TimeoutError, OSError) as error:
                    outcomes[type(error).__name__] += 1
                n += 1
                await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))
            else:
                await asyncio.sleep(0.02)
        return dict(outcomes)

    results.put(asyncio.run(read()))


@dataclass
class ReaderRun:
    idle: list[float]
    busy: list[float]
    outcomes: dict

    @property
    def ratio(self) -> float:
        return percentile(self.busy, 0.99) / percentile(self.idle, 0.99)


def beside_a_heavy_reader(
    target: Target, paths: list[str | tuple[str, dict]], period: float, seconds: float, rounds: int = 3
) -> ReaderRun:
    """Another client's scores (20 a second) for `seconds` with nobody else, and as long while one client reads
    `paths` (a path, or a path and its headers) in turn, one every `period` seconds (an open table page polling a
    big table: every 2 s). The two
    kinds of window alternate (`rounds` of each), so that whatever else the machine does falls on both alike."""
    context = multiprocessing.get_context("spawn")
    results, reading, stop = context.Queue(), context.Event(), context.Event()
    window = seconds / rounds
    reader = context.Process(target=_reader, args=(target, paths, period, reading, stop, results))
    reader.start()
    idle: list[float] = []
    busy: list[float] = []
    for _ in range(rounds):
        reading.clear()
        idle += asyncio.run(scorer(target, window))
        reading.set()
        busy += asyncio.run(scorer(target, window))
    reading.clear()
    stop.set()
    outcomes = results.get(timeout=120)
    reader.join()
    return ReaderRun(idle, busy, outcomes)


# --------------------------------------------------------------------------------------------- a flood


def _flood(target: Target, connections: int, clients: int, seconds: float, results) -> None:
    """`connections` connections from `clients` addresses, each sending its next request as soon as the last is
    answered: the calculator's page, its result partial, a score, a table's JSON, in turn."""
    raws = [
        target.get("/"),
        target.get("/?ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S", **{"HX-Request": "true"}),
        target.post("/api/score", SCORE_BODY),
        target.get("/api/tables/nosuchtable"),
    ]

    async def one_connection(n: int, deadline: float, statuses: Counter) -> None:
        i = n
        while time.monotonic() < deadline:
            try:
                statuses[await one(target, raws[i % len(raws)], address(n % clients), timeout=30)] += 1
            except (TimeoutError, OSError) as error:
                statuses[type(error).__name__] += 1
                await asyncio.sleep(0.1)
            i += 1

    async def flood() -> dict:
        statuses: Counter = Counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(one_connection(n, deadline, statuses) for n in range(connections)))
        return dict(statuses)

    results.put(asyncio.run(flood()))


@dataclass
class FloodRun:
    statuses: dict
    probes: list[int | str]
    waits: list[float]

    @property
    def unexpected(self) -> dict:
        """Answers a flood may not get: anything but 200, 404 (the missing table), 429 and 503."""
        return {status: n for status, n in self.statuses.items() if status not in (200, 404, 429, 503)}


def flood(target: Target, connections: int, clients: int, seconds: float) -> FloodRun:
    """A flood of fast clients while a load balancer's probe asks /healthz five times a second."""
    results = multiprocessing.get_context("spawn").Queue()
    crowd = multiprocessing.get_context("spawn").Process(
        target=_flood, args=(target, connections, clients, seconds, results)
    )
    crowd.start()
    time.sleep(1)

    async def health() -> tuple[list, list]:
        statuses, waits = [], []
        deadline = time.monotonic() + seconds - 1
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                statuses.append(await one(target, target.get("/healthz"), PROBE_FROM))
            except (TimeoutError, OSError) as error:
                statuses.append(type(error).__name__)
            waits.append(time.perf_counter() - started)
            await asyncio.sleep(0.2)
        return statuses, waits

    probes, waits = asyncio.run(health())
    statuses = results.get(timeout=seconds + 120)
    crowd.join()
    return FloodRun(statuses, probes, waits)
