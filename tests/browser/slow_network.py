"""A network that delivers a page in two pieces: a server in front of the test's live server that passes every
request on, and sends one page's answer up to a given text, then waits, then sends the rest. What a phone on a slow
or busy connection meets: the browser parses and runs the page's scripts and events with half the page arrived."""

from __future__ import annotations

import http.client
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PASSED = ("Cookie", "Accept-Language", "Accept", "User-Agent", "HX-Request", "HX-Current-URL", "If-None-Match")


class PausingProxy:
    """`with PausingProxy(live_server.url, path_prefix, after, pause) as proxy:` — `proxy.url` serves what the live
    server serves; the answer to a GET of a path starting with `path_prefix` is sent up to just past the first
    `after` in its body, then, `pause` seconds later, the rest. `proxy.paused` counts the answers cut so."""

    def __init__(self, upstream: str, path_prefix: str, after: str, pause: float = 1.0) -> None:
        self.upstream = urlsplit(upstream)
        self.path_prefix, self.after, self.pause = path_prefix, after.encode(), pause
        self.paused = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                connection = http.client.HTTPConnection(proxy.upstream.hostname, proxy.upstream.port, timeout=30)
                headers = {name: self.headers[name] for name in PASSED if self.headers[name]}
                connection.request("GET", self.path, headers=headers)
                answer = connection.getresponse()
                body = answer.read()
                connection.close()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                cut = body.find(proxy.after) if self.path.startswith(proxy.path_prefix) else -1
                if cut >= 0:
                    cut += len(proxy.after)
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    proxy.paused += 1
                    time.sleep(proxy.pause)
                    body = body[cut:]
                self.wfile.write(body)
                self.wfile.flush()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> PausingProxy:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
