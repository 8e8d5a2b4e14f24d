#!/usr/bin/env python3
"""Tap to answer, timed inside the page (issue 21 §14): from the click on the 14th tile to the four nets of the
result card and of the strip in the DOM, in Debian's Chromium at phone size, on loopback.

    .venv/bin/python scripts/tap_speed.py                      # 40 rounds at 390×844, this checkout
    .venv/bin/python scripts/tap_speed.py --rounds 60 --size 360x640
    .venv/bin/python scripts/tap_speed.py --compare /tmp/before   # another checkout (a `git worktree` of an
                                                                  # older commit): rounds interleaved
    .venv/bin/python scripts/tap_speed.py --profile            # where the page's time goes (see below)

Each checkout is served as scripts/load.py serves it (the production profile: gunicorn, DEBUG off, one worker,
a fresh SQLite database; an older checkout by its gunicorn.conf.py), the page is the calculator with B1's 13 tiles entered (bazhi, 南 wins on 西's discard;
tests/browser/phone.py) and a round is: tap 8m (the 14th tile), wait for the nets, take it back, wait for the
waits. With --compare the checkouts take turns round by round (the first of each round alternating), so the load
of a shared machine falls on both alike; the medians are the figures to compare.

Each tap is split by tests/browser/answer_timer.js (installed in the page, a MutationObserver):
`send` the click's own work until htmx sends the request, `server` the request (network and server),
`swap` the page's work from the answer to the nets in the DOM; `total` is the three. `ttfb` is the server's part
of `server` as the browser's network timing saw it (request sent to the answer's first byte).

--profile adds Chromium's sampling profiler (CDP `Profiler`, 100 µs) and its timeline (tracing) around each
tap of this checkout and prints where the page's time went: the main thread's events by kind (script, style,
layout, HTML parsing …) and the functions with the most self time, per tap.

The load average before and after is printed: on a shared machine the figures move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import load as served  # noqa: E402  (scripts/load.py: how a checkout is served)
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.browser.phone import B1_TAPS  # noqa: E402
from tests.chromium import ARGS, CHROMIUM  # noqa: E402

HOST = "127.0.0.1"
TIMER = ROOT / "tests" / "browser" / "answer_timer.js"
SIZES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}
PARTS = ("total", "send", "server", "swap")  # the timer's (tests/browser/answer_timer.js)


def start(tree: Path, scratch: Path) -> tuple[subprocess.Popen, str]:
    """The checkout `tree` served as scripts/load.py serves it (the production profile, one worker; a checkout from
    before issue 20 by its gunicorn.conf.py), its catalogues compiled, with this project's virtualenv."""
    port = served.free_port()
    python = str(ROOT / ".venv" / "bin" / "python")
    env = dict(os.environ, DJANGO_ENV="production", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))
    subprocess.run([python, "manage.py", "compilemessages", "-v0"], cwd=tree, env=env, check=True)
    kind = "gunicorn" if (tree / "gunicorn.conf.py").exists() else "production"
    database = f"sqlite:///{scratch / f'{port}.sqlite3'}"
    server = served.start_server(port, database, workers=1, rate_limit=False, kind=kind, root=tree)
    served.wait_until_up(port, server, seconds=60)
    return server, f"http://{HOST}:{port}"


stop = served.stop


class Phone:
    """One phone-sized page on one server, with the 13 tiles entered, ready to tap the 14th."""

    def __init__(self, browser, base: str, size: dict):
        self.context = browser.new_context(
            viewport=size,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="zh-CN",
            service_workers="block",
        )
        self.context.add_init_script(path=str(TIMER))
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.page.goto(base + "/")
        for name, seat in (("winner", "S"), ("dealer", "E"), ("discarder", "W")):
            self.page.check(f'input[name="{name}"][value="{seat}"]')
        for tile in B1_TAPS[:-1]:
            self.page.click(f'button[data-tile="{tile}"]')
        expect(self.page.locator("#result [data-waits]")).to_be_visible()

    def tap(self) -> dict:
        """Tap the 14th tile, wait for the answer, take the tile back; the timer's figures of the tap, and the
        server's time to the first byte of its answer as the browser's network timing saw it (`ttfb`).

        While the answer is on its way nothing polls the page (a locator assertion would run Playwright's own
        script in the page's main thread, the thread being timed): the wait is for the response event, then
        for the timer's entry."""
        page = self.page
        page.wait_for_timeout(150)  # the take-back's answer settled, nothing left running
        count = len(page.evaluate("window.__answers"))
        with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true") as answer:
            page.click(f'button[data-tile="{B1_TAPS[-1]}"]')
        timing = answer.value.request.timing
        answers = page.evaluate("window.__answers")
        while len(answers) == count:
            page.wait_for_timeout(20)
            answers = page.evaluate("window.__answers")
        expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
        expect(page.locator('#result [data-seat="S"]')).to_have_attribute("data-net", "19")
        page.locator("#hand-win button").click()
        expect(page.locator("#result [data-waits]")).to_be_visible()
        return {**answers[-1], "ttfb": timing["responseStart"] - timing["requestStart"]}

    def close(self) -> None:
        self.context.close()


class Profile:
    """Chromium's sampling profiler and timeline around the taps of one page, summed over the taps and split at
    the timer's marks (tap, tap:sent, tap:answered, tap:nets) into the timer's three parts."""

    CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
    MARKS = ("tap", "tap:sent", "tap:answered", "tap:nets")

    def __init__(self, phone: Phone):
        self.phone = phone
        self.cdp = phone.context.new_cdp_session(phone.page)
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        self.functions = {part: Counter() for part in PARTS[1:]}
        self.events = {part: Counter() for part in PARTS[1:]}
        self.images: Counter = Counter()
        self.taps = 0

    def tap(self, browser) -> dict:
        browser.start_tracing(page=self.phone.page, categories=self.CATEGORIES)
        self.cdp.send("Profiler.start")
        figures = self.phone.tap()
        profile = self.cdp.send("Profiler.stop")["profile"]
        trace = json.loads(browser.stop_tracing())
        marks = self.marks(trace)
        if marks:
            self.add_trace(trace, marks)
            self.add_profile(profile, marks)
            self.taps += 1
        return figures

    def marks(self, trace: dict) -> list[float] | None:
        """The timer's four moments in the trace's clock (µs), or None when one is missing."""
        found = {e["name"]: e["ts"] for e in trace["traceEvents"] if e.get("cat") == "blink.user_timing"}
        return [found[name] for name in self.MARKS] if all(name in found for name in self.MARKS) else None

    @staticmethod
    def part(at: float, marks: list[float]) -> str | None:
        for name, start, end in zip(PARTS[1:], marks, marks[1:], strict=False):
            if start <= at < end:
                return name
        return None

    def add_trace(self, trace: dict, marks: list[float]) -> None:
        """The renderer main thread's events by name in each part (an event's time includes its children's)."""
        events = trace["traceEvents"]
        main = {
            e["tid"] for e in events if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
        }
        for event in events:
            if event.get("tid") not in main or event.get("ph") != "X" or "dur" not in event:
                continue
            part = self.part(event["ts"], marks)
            if part:
                self.events[part][event["name"]] += event["dur"] / 1000
                if event["name"] == "PaintImage":
                    url = event.get("args", {}).get("data", {}).get("url", "")
                    self.images[url.rsplit("/", 1)[-1]] += 1

    def add_profile(self, profile: dict, marks: list[float]) -> None:
        """Self time per function (name, file, line) in each part, from the profiler's samples."""
        nodes = {node["id"]: node for node in profile["nodes"]}
        at = profile["startTime"]
        for sample, delta in zip(profile.get("samples", []), profile.get("timeDeltas", []), strict=False):
            at += delta
            part = self.part(at, marks)
            if not part:
                continue
            frame = nodes[sample]["callFrame"]
            where = urlparse(frame["url"]).path.rsplit("/", 1)[-1] if frame["url"] else ""
            name = frame["functionName"] or "(anonymous)"
            self.functions[part][f"{name} {where}:{frame['lineNumber'] + 1}" if where else name] += delta / 1000

    def report(self) -> None:
        if not self.taps:
            print("\nno tap was profiled (the timer's marks were not in the trace)")
            return
        for part in PARTS[1:]:
            print(f"\n{part}: the main thread's events per tap (ms; nested events counted in each), {self.taps} taps")
            for name, total in self.events[part].most_common(14):
                print(f"  {total / self.taps:8.2f}  {name}")
            print(f"{part}: self time per tap (ms), sampling profiler")
            for name, total in self.functions[part].most_common(14):
                print(f"  {total / self.taps:8.2f}  {name}")
        print("\nimages painted per tap")
        for url, count in self.images.most_common(10):
            print(f"  {count / self.taps:6.1f}  {url}")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def summary(rows: list[dict]) -> str:
    return ", ".join(f"{part} {statistics.median(r[part] for r in rows):.1f}" for part in (*PARTS, "ttfb"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--size", choices=SIZES, default="390x844")
    parser.add_argument("--compare", type=Path, help="another checkout, timed in turn with this one")
    parser.add_argument("--profile", action="store_true", help="Chromium's profiler and timeline (this checkout)")
    args = parser.parse_args()
    trees = {"this": ROOT}
    if args.compare:
        trees["compare"] = args.compare.resolve()
    print(f"load average before: {load()}")
    with tempfile.TemporaryDirectory() as scratch:
        servers = {name: start(tree, Path(scratch)) for name, tree in trees.items()}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                phones = {name: Phone(browser, base, SIZES[args.size]) for name, (_, base) in servers.items()}
                profile = Profile(phones["this"]) if args.profile else None
                figures: dict[str, list[dict]] = {name: [] for name in trees}
                for n in range(args.rounds):
                    order = list(trees) if n % 2 == 0 else list(reversed(trees))
                    for name in order:
                        if profile and name == "this":
                            figures[name].append(profile.tap(browser))
                        else:
                            figures[name].append(phones[name].tap())
                for phone in phones.values():
                    phone.close()
                browser.close()
        finally:
            for server, _ in servers.values():
                stop(server)
    print(f"load average after: {load()}")
    for name, tree in trees.items():
        rows = figures[name]
        print(f"\n{name} ({tree}, {args.size}, {len(rows)} taps): median ms {summary(rows)}")
        totals = sorted(r["total"] for r in rows)
        print(f"  total: min {totals[0]:.1f}, quartiles {statistics.quantiles(totals, n=4)}, max {totals[-1]:.1f}")
    if profile:
        profile.report()


if __name__ == "__main__":
    main()
