"""The production app's bridge from ASGI to Django's WSGI app (calculator/plumbing/wsgi_bridge.py): the body is whole
before the app runs, the app runs on one thread (a slow read on a second one, never in the way of the first), a
one-piece answer is sent in one message, a streamed one piece by piece, and every answer is closed once."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from calculator.plumbing.wsgi_bridge import WsgiBridge, environ

SCOPE = {
    "type": "http",
    "http_version": "1.1",
    "method": "POST",
    "path": "/api/score",
    "query_string": b"lang=en",
    "root_path": "",
    "scheme": "http",
    "server": ("127.0.0.1", 8000),
    "client": ("10.0.0.7", 51000),
    "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", b"11"),
        (b"accept", b"text/html"),
        (b"accept", b"application/json"),
    ],
}


def run(coroutine) -> None:
    """`asyncio.run` in a thread of its own: a worker that ran a browser test first has Playwright's event loop
    running in this thread."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coroutine).result()


def serve(app, scope: dict, pieces: list[bytes]) -> list[dict]:
    """Run the bridge over `app` for one request whose body arrives in `pieces`; the messages it sent."""
    incoming = [
        {"type": "http.request", "body": piece, "more_body": i < len(pieces) - 1} for i, piece in enumerate(pieces)
    ]
    sent: list[dict] = []

    async def receive() -> dict:
        await asyncio.sleep(0)  # the next piece arrives later, as from a slow client
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    run(WsgiBridge(app)(scope, receive, send))
    return sent


class Streamed:
    """A WSGI answer in several pieces that records when it is closed."""

    def __init__(self, pieces: list[bytes]):
        self.pieces = pieces
        self.closed = 0

    def __iter__(self):
        return iter(self.pieces)

    def close(self) -> None:
        self.closed += 1


def test_the_app_reads_the_whole_body_that_arrived_in_pieces():
    seen = {}

    def app(env, start_response):
        seen["body"] = env["wsgi.input"].read()
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    serve(app, SCOPE, [b'{"ruleset"', b": 1}"])
    assert seen["body"] == b'{"ruleset": 1}'


def test_a_one_piece_answer_is_sent_as_a_start_and_one_body_message():
    def app(env, start_response):
        start_response("201 Created", [("Content-Type", "application/json"), ("X-Frame-Options", "DENY")])
        return [b'{"version": 2}']

    assert serve(app, SCOPE, [b"{}"]) == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"application/json"), (b"x-frame-options", b"DENY")],
        },
        {"type": "http.response.body", "body": b'{"version": 2}'},
    ]


def test_a_streamed_answer_is_sent_piece_by_piece_and_closed_once():
    answer = Streamed([b"a", b"bb", b"ccc"])

    def app(env, start_response):
        start_response("200 OK", [("Content-Length", "6")])
        return answer

    bodies = [m for m in serve(app, SCOPE, [b""]) if m["type"] == "http.response.body"]
    assert [m["body"] for m in bodies] == [b"a", b"bb", b"ccc", b""]
    assert [m.get("more_body", False) for m in bodies] == [True, True, True, False]
    assert answer.closed == 1


def test_a_one_piece_answer_is_closed_once_too():
    answer = Streamed([b"whole"])

    def app(env, start_response):
        start_response("200 OK", [])
        return answer

    serve(app, SCOPE, [b""])
    assert answer.closed == 1


def test_the_app_runs_off_the_event_loop_on_one_thread():
    threads = set()

    def app(env, start_response):
        threads.add(threading.current_thread().name)
        start_response("200 OK", [])
        return Streamed([b"1", b"2", b"3"])

    bridge = WsgiBridge(app)

    loop_thread = []

    async def two_requests():
        loop_thread.append(threading.current_thread().name)

        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(message):
            pass

        await asyncio.gather(bridge(SCOPE, receive, send), bridge(SCOPE, receive, send))

    run(two_requests())
    assert len(threads) == 1
    assert threads.isdisjoint({threading.current_thread().name, loop_thread[0]})


def test_a_score_is_answered_while_a_slow_read_of_the_same_worker_is_still_being_drawn():
    """Issue 20 §3: the slow read is held in the app until the score has been sent; with one lane the score would
    wait behind it and the read would never be released (the test would fail at its timeout)."""
    score_sent = threading.Event()
    threads = {}

    def app(env, start_response):
        threads[env["PATH_INFO"]] = threading.current_thread().name
        if env["PATH_INFO"] == "/tables/big/live/":
            assert score_sent.wait(5), "the score waited behind the slow read"
        start_response("200 OK", [])
        return [env["PATH_INFO"].encode()]

    bridge = WsgiBridge(app, slow=lambda scope: scope["path"] == "/tables/big/live/")
    finished = []

    async def receive():
        return {"type": "http.request", "body": b""}

    def sender(name):
        async def send(message):
            if message["type"] == "http.response.body":
                finished.append(name)
                if name == "score":
                    score_sent.set()

        return send

    async def both():
        read = asyncio.create_task(
            bridge({**SCOPE, "method": "GET", "path": "/tables/big/live/"}, receive, sender("read"))
        )
        await asyncio.sleep(0.05)  # the read is in the app, held there
        await bridge(SCOPE, receive, sender("score"))
        await read

    run(both())
    assert finished == ["score", "read"]
    assert threads["/tables/big/live/"] != threads["/api/score"]


def test_a_client_gone_before_its_body_was_whole_never_reaches_the_app():
    called = []

    def app(env, start_response):
        called.append(env)
        return []

    sent: list[dict] = []

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    run(WsgiBridge(app)(SCOPE, receive, send))
    assert called == [] and sent == []


def test_the_environ_is_pep_3333_with_repeated_headers_joined():
    env = environ({**SCOPE, "path": "/tables/规则/"}, b"")
    assert env["REQUEST_METHOD"] == "POST"
    assert env["PATH_INFO"] == "/tables/规则/".encode().decode("latin1")
    assert env["QUERY_STRING"] == "lang=en"
    assert env["CONTENT_TYPE"] == "application/json" and env["CONTENT_LENGTH"] == "11"
    assert env["HTTP_ACCEPT"] == "text/html,application/json"
    assert env["REMOTE_ADDR"] == "10.0.0.7"
    assert (env["SERVER_NAME"], env["SERVER_PORT"], env["SERVER_PROTOCOL"]) == ("127.0.0.1", "8000", "HTTP/1.1")
