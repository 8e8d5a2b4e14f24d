"""The phone screenshots of docs/ (issue 14): the calculator at 360×640 and 390×844, in Chinese and in English;
the English trainer's explanation and an English table's history at 360×640 (issue 21); the tiles that help a
hand not ready and an answered trainer question of level 2 at 360×640 in both languages (issue 21, learners); a
table's bound calculator with long names on its seats at 360×640 in both languages (issue 21 §1); a table of three
(issue 28): the new-table page, its account and its history, and the calculator with an answer, at 360×640 in both
languages; who takes the discard (issue 29) for each game at 360×640 in both languages.

    .venv/bin/python scripts/screenshots.py            # writes docs/phone-*.png, docs/screenshot-result.png, …
    .venv/bin/python scripts/screenshots.py screenshot-history-en.png   # only the files named
    (docs/offline-*.png, issue 22: the offline pack must be built, `manage.py build_offline_pack`; made only
    when named or when all are: the offer, an answer, the trainer, a table's queue and a changed hand to confirm)

Starts the app (runserver, a throwaway SQLite database) on a free port of 127.0.0.1, drives Debian's Chromium as
a phone (device scale 2) and saves what the screen shows, not the whole page: what a player sees.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.chromium import ARGS, CHROMIUM  # noqa: E402

DOCS = ROOT / "docs"
SIZES = {"360": {"width": 360, "height": 640}, "390": {"width": 390, "height": 844}}
B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
ENTERING = ["1p", "1p", "1p", "3p", "4p", "5p", "7p", "8p", "9p"]
WANTED: set[str] = set()  # the files to write (empty: all)
OFFLINE_SHOTS = {
    f"offline-{what}-360{suffix}.png"
    for what in ("offer", "answer", "queue", "confirm", "trainer")
    for suffix in ("", "-en")
}
PLAYERS = {"E": "Alice", "S": "Bob", "W": "Carol", "N": "Dave"}
# An evening's first hands at a bazhi table: B1, a dealer's self-draw with 交, and a 包牌 win on a discard.
HANDS = [
    {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"},
    {
        "hand": "5558889m",
        "win_tile": "9m",
        "winner": "E",
        "melds": [{"type": "pung", "tiles": "CCC", "from": "S"}, {"type": "pung", "tiles": "222m", "from": "W"}],
    },
    {
        "hand": "5558889m",
        "win_tile": "9m",
        "winner": "S",
        "discarder": "N",
        "melds": [{"type": "pung", "tiles": "CCC", "from": "W"}, {"type": "pung", "tiles": "222m", "from": "E"}],
    },
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "DEBUG": "1", "DJANGO_ENV": "development", "DATABASE_URL": f"sqlite:///{database}"}
    python = str(ROOT / ".venv/bin/python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz")
            return server, base
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the app did not start")


def phone(browser, base: str, size: str, lang: str):
    context = browser.new_context(
        viewport=SIZES[size],
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
        service_workers="block",
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    return context, context.new_page()


def shoot(browser, base: str) -> list[Path]:
    written = []
    for size in SIZES:
        for lang in ("zh", "en"):
            context, page = phone(browser, base, size, lang)
            # a share link: the answer in view, the strip on top, the keyboard folded to its bar
            page.goto(f"{base}/?{urlencode(B1)}")
            expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
            written.append(save(page, f"phone-{size}-{lang}.png"))
            # entering a hand: the keyboard docked, the hand above it, the strip counting
            page.goto(base + "/")
            page.check('input[name="winner"][value="S"]')
            page.check('input[name="discarder"][value="W"]')
            for tile in ENTERING:
                page.click(f'button[data-tile="{tile}"]')
            expect(page.locator("#strip .strip-verdict")).to_contain_text("4")
            written.append(save(page, f"phone-entering-{size}-{lang}.png"))
            context.close()
    context, page = phone(browser, base, "390", "zh")
    page.goto(f"{base}/?{urlencode(B1)}")
    expect(page.locator('#result [data-win="true"]')).to_be_visible()
    written.append(save(page, "screenshot-result.png"))
    page.goto(f"{base}/?{urlencode({**B1, 'win_tile': ''})}")
    expect(page.locator("#result [data-waits]")).to_be_visible()
    written.append(save(page, "screenshot-waits.png"))
    context.close()
    return written


NOT_READY = {"ruleset": "xinyu", "caishen": "5p", "hand": "1199m2288p3sECFW", "winner": "S", "dealer": "E"}
LEVELS_QUESTION = "/trainer/?seed=20&level=2&answer=none"  # a bazhi waits question, not ready: its tiles that help


def shoot_learners(browser, base: str) -> list[Path]:
    """Issue 21 at 360×640 in both languages: the waits card of a hand not ready with its tiles that help, and an
    answered trainer question of level 2 (the verdict above the choices, the levels above it)."""
    written = []
    for lang, suffix in (("zh", ""), ("en", "-en")):
        context, page = phone(browser, base, "360", lang)
        page.goto(f"{base}/?{urlencode(NOT_READY)}")
        draws = page.locator("#result [data-draws]")
        expect(draws).to_be_visible()
        if page.get_attribute("#key-toggle", "aria-expanded") == "true":
            page.click("#key-toggle")  # 13 tiles: the keyboard stays open for a 14th; fold it to see the card
        expect(page.locator("#key-toggle")).to_have_attribute("aria-expanded", "false")
        page.locator("#result [data-waits]").scroll_into_view_if_needed()
        written.append(save(page, f"screenshot-draws{suffix}.png"))
        page.goto(base + LEVELS_QUESTION)
        expect(page.locator("#trainer-verdict")).to_be_visible()
        written.append(save(page, f"screenshot-trainer-levels{suffix}.png"))
        context.close()
    return written


SEATED = {"E": "Alexandrina", "S": "欧阳娜娜", "W": "Bartholomew", "N": "李雷"}


def shoot_seats(browser, base: str) -> list[Path]:
    """Issue 21 §1 at 360×640 in both languages: a table's bound calculator with long Latin and Chinese names on
    the seat buttons (the seat's word on one line, the name under it, cut short), B1 entered: 南 wins."""
    written = []
    table = post(base, "/api/tables", {"ruleset": "bazhi", "players": SEATED})
    hand = {k: v for k, v in B1.items() if k not in ("ruleset", "dealer")}
    for lang, suffix in (("zh", ""), ("en", "-en")):
        context, page = phone(browser, base, "360", lang)
        page.goto(f"{base}/?{urlencode({'table': table['id'], 'token': table['edit_token'], **hand})}")
        expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
        page.locator('[data-seat-row="winner"]').evaluate("(e) => e.scrollIntoView({ block: 'center' })")
        written.append(save(page, f"screenshot-seats-360{suffix}.png"))
        context.close()
    return written


# B1 at a table of three (RULES.md §1.8, case T1): E −7, S +14, W −7
B1_THREE = {"ruleset": "bazhi", "tariff": "315", "players": "3", **{k: v for k, v in B1.items() if k != "ruleset"}}


def shoot_calculator_at_three(browser, base: str) -> list[Path]:
    """Issue 28 at 360×640 in both languages: the calculator at a table of three with an answer (a share link): the
    strip's three nets and the who-pays picture drawn for three."""
    written = []
    for lang in ("zh", "en"):
        context, page = phone(browser, base, "360", lang)
        page.goto(f"{base}/?{urlencode(B1_THREE)}")
        expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "14")
        expect(page.locator("#strip [data-strip-seat]")).to_have_count(3)
        written.append(save(page, f"phone-three-360-{lang}.png"))
        context.close()
    return written


def shoot_offline(browser, base: str) -> list[Path]:
    """Issue 22 at 360×640: the offer of the offline pack, and an answer drawn in the phone with the network cut
    (`-en`: the same in English). One phone installs the pack once; the page it keeps is the one last seen."""
    written = []
    context = browser.new_context(
        viewport=SIZES["360"],
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
        service_workers="allow",
    )
    page = context.new_page()
    for lang in ("zh", "en"):
        suffix = "" if lang == "zh" else "-en"
        context.set_offline(False)
        context.add_cookies([{"name": "django_language", "value": "en" if lang == "en" else "zh-hans", "url": base}])
        page.goto(base + "/")
        offer = page.locator("[data-offline-pack]")
        if lang == "zh":
            offer.scroll_into_view_if_needed()
            written.append(save(page, "offline-offer-360.png"))
            page.click("[data-offline-install]")
            expect(page.locator("html")).to_have_attribute("data-offline-ready", "fresh", timeout=180_000)
        else:
            expect(page.locator("html")).to_have_attribute("data-offline-ready", "snapshot", timeout=60_000)
            offer.scroll_into_view_if_needed()
            written.append(save(page, "offline-offer-360-en.png"))  # installed: how to remove it
        context.set_offline(True)
        page.goto(base + "/")
        expect(page.locator("html")).to_have_attribute(
            "data-offline-ready", re.compile("snapshot|fresh"), timeout=180_000
        )
        page.check('input[name="winner"][value="S"]')
        page.check('input[name="discarder"][value="W"]')
        for tile in [*ENTERING, "7m", "9m", "5s", "5s", "8m"]:
            page.click(f'button[data-tile="{tile}"]')
        expect(page.locator('#strip [data-strip-seat="S"]')).to_have_attribute("data-strip-net", "19")
        page.evaluate("window.scrollTo(0, 0)")
        written.append(save(page, f"offline-answer-360{suffix}.png"))
        written += shoot_offline_trainer(context, page, base, suffix)
        written += shoot_offline_table(context, page, base, lang, suffix)
    context.close()
    return written


def shoot_offline_trainer(context, page, base: str, suffix: str) -> list[Path]:
    """The trainer with the network cut: a question dealt, answered and explained in the phone."""
    context.set_offline(False)
    page.goto(base + "/trainer/?seed=20&level=2")  # seen online: the page is kept in this language
    expect(page.locator("html")).to_have_attribute("data-offline-trainer-kept", re.compile("."), timeout=60_000)
    context.set_offline(True)
    page.goto(base + "/trainer/?seed=20&level=2")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "snapshot", timeout=60_000)
    page.click('button[name="answer"][value="none"]')
    expect(page.locator("#trainer-verdict")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    return [save(page, f"offline-trainer-360{suffix}.png")]


# A table's two hands recorded offline while another phone records one: the first pays otherwise after it (the
# dealer moved), the second does not (tests/browser/test_offline.py proves which).
OFFLINE_HANDS = [("S", "W"), ("W", "N")]
OTHER_PHONE_HAND = ("S", "W")
NAMES = {"zh": {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}, "en": PLAYERS}


def shoot_offline_table(context, page, base: str, lang: str, suffix: str) -> list[Path]:
    """A table opened with its edit link, then scored offline: its hands waiting to send; back online after
    another phone recorded a hand, the hand that pays otherwise now, both payments shown for the referee."""
    written = []
    table = post(base, "/api/tables", {"ruleset": "bazhi", "players": NAMES[lang]})
    context.set_offline(False)
    page.goto(f"{base}/tables/{table['id']}/edit/{table['edit_token']}/")  # kept for scoring without network
    expect(page.locator("#ledger")).to_have_attribute("data-offline-kept", re.compile("."))
    context.set_offline(True)
    with urllib.request.urlopen(f"{base}/api/tables/{table['id']}?limit=1") as answer:
        version = json.loads(answer.read())["version"]
    page.goto(f"{base}/?table={table['id']}&token={table['edit_token']}&at={version}")
    expect(page.locator("#offline-table")).to_be_visible(timeout=60_000)
    for n, (winner, discarder) in enumerate(OFFLINE_HANDS, start=1):
        page.locator("#notation").evaluate("(box) => { box.open = true; }")
        page.check(f'input[name="winner"][value="{winner}"]')
        page.check(f'input[name="discarder"][value="{discarder}"]')
        page.fill('input[name="hand"]', B1["hand"])
        page.fill('input[name="win_tile"]', B1["win_tile"])
        page.click("#record-hand")
        expect(page.locator("#offline-queue li")).to_have_count(n)
    page.locator("#offline-table").scroll_into_view_if_needed()
    written.append(save(page, f"offline-queue-360{suffix}.png"))
    winner, discarder = OTHER_PHONE_HAND
    hand = {"hand": B1["hand"], "win_tile": B1["win_tile"], "winner": winner, "discarder": discarder}
    post(base, f"/api/tables/{table['id']}/hands", hand, table["edit_token"])
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    confirm = page.locator("#offline-queue li[data-queue-state='confirm']")
    expect(confirm).to_be_visible(timeout=60_000)
    page.locator("#offline-table").scroll_into_view_if_needed()
    written.append(save(page, f"offline-confirm-360{suffix}.png"))
    return written


def post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def shoot_english(browser, base: str) -> list[Path]:
    """What an English reader learns from: the trainer's explanation of issue 21's pay question, and a table's
    history with its newest hand opened (every reason in English), at 360×640."""
    written = []
    context, page = phone(browser, base, "360", "en")
    page.goto(f"{base}/trainer/?seed=12345&kind=pay&answer=0")
    lines = page.locator("#trainer-explain .lines-card")
    expect(lines).to_contain_text("self-draw: each pays 13")
    lines.scroll_into_view_if_needed()
    written.append(save(page, "screenshot-trainer-explained-en.png"))
    table = post(base, "/api/tables", {"ruleset": "bazhi", "players": PLAYERS})
    for hand in HANDS:
        post(base, f"/api/tables/{table['id']}/hands", hand, table["edit_token"])
    page.goto(f"{base}/tables/{table['id']}/")
    newest = page.locator("#history details").first
    newest.locator("summary").click()
    expect(newest.locator("tr[data-code]").first).to_be_visible()
    page.locator("#history").scroll_into_view_if_needed()
    written.append(save(page, "screenshot-history-en.png"))
    context.close()
    return written


# A 底 game of three (tests/ledger/test_table_of_three.py works its numbers out): B1 on West's discard, South's
# self-draw of the same hand, then South's self-drawn 交 hand that leaves East and West at 0: 通底.
THREE_HANDS = [
    {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"},
    {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S"},
    {
        "hand": "5558889m",
        "win_tile": "9m",
        "winner": "S",
        "melds": [{"type": "pung", "tiles": "CCC", "from": "E"}, {"type": "pung", "tiles": "222m", "from": "W"}],
    },
]


def shoot_table_of_three(browser, base: str) -> list[Path]:
    """Issue 28 at 360×640 in both languages: the new-table page asking how many players (three chosen: East,
    South and West named), and the whole page of a table of three after its 底 game ended in 通底: the balances,
    outside payments and totals of its three seats, who pays whom, the chart and the history (the newest hand
    opened)."""
    written = []
    for lang, suffix in (("zh", "zh"), ("en", "en")):
        names = {seat: NAMES[lang][seat] for seat in ("E", "S", "W")}
        context, page = phone(browser, base, "360", lang)
        page.goto(f"{base}/tables/new/")
        page.check('input[name="bazhi-players"][value="3"]')
        for seat, name in names.items():
            page.fill(f'input[name="name_{seat}"]', name)
        expect(page.locator('.names [data-seat="N"]')).to_be_hidden()
        page.locator("#players").scroll_into_view_if_needed()
        written.append(save(page, f"table-three-new-360-{suffix}.png"))
        table = post(base, "/api/tables", {"ruleset": "bazhi", "options": {"players": 3}, "players": names})
        for hand in THREE_HANDS:
            post(base, f"/api/tables/{table['id']}/hands", hand, table["edit_token"])
        page.goto(f"{base}/tables/{table['id']}/")
        expect(page.locator("#ended")).to_be_visible()
        newest = page.locator("#history details").first
        newest.locator("summary").click()
        expect(newest.locator("tr[data-code]").first).to_be_visible()
        written.append(save(page, f"table-three-360-{suffix}.png", full_page=True))
        context.close()
    return written


def save(page, name: str, full_page: bool = False) -> Path:
    path = DOCS / name
    if WANTED and name not in WANTED:
        return path
    page.wait_for_timeout(300)  # the htmx indicator's fade
    page.screenshot(path=path, full_page=full_page)
    return path


# Who takes the discard (issue 29): xinyu, E discards 2s: S (the 下家) wins plainly, N with 清一色 (level 1) takes it
# over S (小的不能拦大的), +47; bazhi, W discards 8m: N (压档) comes first after W and takes it before S's bigger 通天, +19.
CLAIMS = {
    "xinyu": {
        "ruleset": "xinyu",
        "caishen": "5p",
        "tile": "2s",
        "dealer": "E",
        "discarder": "E",
        "S_hand": "123m456m789sEEE2s",
        "N_hand": "11134567899s22s",
    },
    "bazhi": {
        "ruleset": "bazhi",
        "tariff": "315",
        "tile": "8m",
        "dealer": "E",
        "discarder": "W",
        "S_hand": "123456789s79m22p",
        "N_hand": "111345789p79m55s",
    },
}


def shoot_claims(browser, base: str) -> list[Path]:
    """Issue 29 at 360×640 in both languages: the answer of who takes the discard for each game, as a share link
    opens it (the answer in view, the keyboard folded to its bar): who takes it, why, what it pays."""
    written = []
    for game, fields in CLAIMS.items():
        for lang in ("zh", "en"):
            context, page = phone(browser, base, "360", lang)
            page.goto(f"{base}/claims/?{urlencode(fields)}")
            expect(page.locator('#claims-answer [data-claims="answer"]')).to_have_attribute("data-claims-winner", "N")
            expect(page.locator("#keyboard")).to_have_class(re.compile("is-folded"))
            written.append(save(page, f"claims-{game}-360-{lang}.png"))
            context.close()
    return written


def main() -> None:
    WANTED.update(sys.argv[1:])
    with tempfile.TemporaryDirectory() as scratch:
        server, base = start_server(str(Path(scratch) / "db.sqlite3"))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                shots = [*shoot(browser, base), *shoot_english(browser, base), *shoot_learners(browser, base)]
                shots += shoot_seats(browser, base)
                shots += shoot_table_of_three(browser, base)
                shots += shoot_calculator_at_three(browser, base)
                shots += shoot_claims(browser, base)
                if not WANTED or WANTED & OFFLINE_SHOTS:  # the phone installs the pack first: only when asked
                    shots += shoot_offline(browser, base)
                for path in shots:
                    if not WANTED or path.name in WANTED:
                        print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
