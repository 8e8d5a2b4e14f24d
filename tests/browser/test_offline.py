"""Issue 22: the calculator offline, the server's own Python running in the phone (Pyodide in a Web Worker).

The pack is built and installed once per test process (tests/browser/offline.py); each test opens pages in that phone.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client

from calculator.engine.rulesets import RULESETS, SERVED
from calculator.presentation.handquery import HandInput, query_string
from calculator.presentation.trainer.questions import Spec, question
from tests.browser.offline import READY_TIMEOUT, expect_settled, open_ready
from tests.browser.phone import B1, B1_NETS, B1_NETS_AT_THREE, B1_TAPS, expect, expect_nets, tap_seats, tap_tiles
from tests.browser.tracing import traced
from tests.offline_requests import kinds_covered, requests
from tests.pictures import decoded

# The pack is built and installed once per test process (20-25 s): under xdist one worker runs these tests. The
# two timed ones (seconds to be ready, milliseconds a tap) run in the serial pass, alone, and install it there.
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("offline-pack")]

# Both games, house rules with their other readings, waits of a ready hand, a hand not ready with its distance
# (shanten) and the draws that help, 14 tiles that are no win with the discards and the nearest win, errors.
KINDS = (
    "bazhi",
    "xinyu",
    "alternatives",
    "waits",
    "not ready",
    "shanten",
    "draws",
    "no win",
    "discards",
    "nearest",
    "error",
)
SCORE_ALL = """(pairs) => Promise.all(pairs.map(([request, lang]) => offlinePack.scoreText(request, lang)))"""


def report(what: str, value: str) -> None:
    print(f"\n{what}: {value} (load average {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


def server_json(request: dict, lang: str) -> str:
    response = Client().post(f"/api/score?lang={lang}", json.dumps(request), content_type="application/json")
    return json.dumps(response.json(), sort_keys=True, ensure_ascii=False)


def test_300_requests_scored_in_the_phone_offline_equal_the_servers_json(offline_phone):
    pairs = requests()
    assert len(pairs) == 300
    kinds = kinds_covered(pairs)
    for kind in KINDS:  # the list: each kind at least 20 times
        assert kinds[kind] >= 20, (kind, kinds)
    page = open_ready(offline_phone)
    answers = page.evaluate(SCORE_ALL, [[request, lang] for request, lang in pairs])
    differ = [
        (request, lang)
        for (request, lang), mine in zip(pairs, answers, strict=True)
        if mine != server_json(request, lang)
    ]
    assert differ == []
    page.close()


def test_a_second_start_restores_the_interpreter_from_the_snapshot_the_install_made(offline_phone):
    """The install warmed the interpreter and kept a snapshot of its memory; a later start restores it instead of
    loading afresh (seconds on a phone). Pyodide 314.0.8 restores a snapshot only within the first 30 MiB of its
    heap (pyodide/pyodide#6254): a warm-up that grows past it makes every start a fresh load, which the page
    would only show as a slower start."""
    page = open_ready(offline_phone, ready=False)
    html = page.locator("html")
    expect(html).to_have_attribute("data-offline-ready", re.compile("."), timeout=READY_TIMEOUT)
    expect(html).to_have_attribute("data-offline-ready", "snapshot")
    page.close()


def ready_at(page) -> int:
    return int(page.locator("html").get_attribute("data-offline-ready-at"))


@pytest.mark.serial  # a budget in time, measured with no other test beside it
def test_the_pack_answers_within_5_s_of_opening_offline_warm_and_cold(offline_phone):
    warm = []
    for _ in range(3):
        page = open_ready(offline_phone)
        warm.append(ready_at(page))
        assert page.console.errors == []
        page.close()
    offline_phone.restart()  # a new browser process: nothing of the pack in memory, only what the phone kept
    page = open_ready(offline_phone)
    cold = ready_at(page)
    page.close()
    report("ready after the page opened offline, ms", f"warm {warm}, cold {cold}, install {offline_phone.installed_ms}")
    assert statistics.median(warm) < 5000
    assert cold < 5000


TAP_TIMER = Path(__file__).with_name("tap_timer.js")
ROUNDS = 7
TAP_GOAL_MS = 30  # issue 22: the 14th tile's click to the four nets in the DOM, median


@pytest.mark.serial  # a budget in time, measured with no other test beside it
def test_offline_the_14th_tap_costs_the_page_and_the_engine_under_30_ms_of_cpu(offline_phone):
    """The issue's goal, a median under 30 ms from the click to the nets, is a wall time on a machine with a core
    for each of the tap's two threads (the page's and the engine's Web Worker). On this shared 2-core machine the
    wall time is mostly the two threads waiting for a core, so the test holds the goal's 30 ms against the time the
    two threads ran from the click to the nets (their CPU time in a trace of the renderer, tests/browser/
    tracing.py), which the load does not lengthen: it fails when the page or the engine does 30 ms of work for a
    tap, as it did while each tap painted every tile picture of the page again (docs/PERFORMANCE.md). The wall
    times are printed beside it (`-s`)."""
    offline_phone.context.add_init_script(path=str(TAP_TIMER))
    page = open_ready(offline_phone)
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS[:-1])
    expect(page.locator("#result [data-waits]")).to_be_visible()
    with traced(offline_phone.context, page) as trace:
        for _ in range(ROUNDS):
            page.click('button[data-tile="8m"]')  # the 14th tile
            expect_nets(page, B1_NETS)
            page.locator("#hand-win button").click()  # take it back
            expect(page.locator("#result [data-waits]")).to_be_visible()
    wins = page.evaluate("window.__offlineTapParts")[-ROUNDS:]  # the 14th tile's answers
    assert len(wins) == ROUNDS
    pid, tid = trace.page_thread("offline:ask")
    offset = trace.offset_us("offline:ask")
    workers = trace.worker_threads(pid)
    assert workers, "the engine's thread is in the trace"
    cpu = []
    for tap in wins:
        start, end = offset + tap["at"] * 1000, offset + tap["seen"] * 1000
        cpu.append(trace.cpu_ms((pid, tid), start, end) + sum(trace.cpu_ms(w, start, end) for w in workers))
    report(
        "offline tap to the four nets, ms",
        f"wall median {statistics.median(t['total'] for t in wins):.1f}, all {[round(t['total'], 1) for t in wins]}; "
        f"CPU of the page's and the engine's threads median {statistics.median(cpu):.1f}, all {[round(c, 1) for c in cpu]}",
    )
    assert statistics.median(cpu) < TAP_GOAL_MS
    assert statistics.median(t["python"] for t in wins) < TAP_GOAL_MS  # the engine's answer alone, wall time
    assert page.console.errors == []
    page.close()


# Calculator queries of the sameness requests (the share link's form of each), in both languages.
DRAWN = [
    (query_string(HandInput(request, {})), lang)
    for request, lang in requests(60)
    if request.get("ruleset") in ("bazhi", "xinyu")
]


def test_offline_the_strip_and_the_card_are_the_partials_html(offline_phone):
    """The phone draws what the server's partial draws (both languages; the share link's origin is the page's)."""
    page = open_ready(offline_phone)
    for query, lang in DRAWN:
        drawn = json.loads(
            page.evaluate(
                "([query, lang, context]) => offlinePack.draw(query, lang, context)",
                [query, lang, json.dumps({"page": "/", "origin": "http://testserver", "table": None})],
            )
        )
        partial = Client(HTTP_HX_REQUEST="true")
        partial.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
        html = partial.get("/?" + query).content.decode()
        card, strip = html.split('<div id="strip" hx-swap-oob="innerHTML">')
        assert drawn["card"] == card
        assert drawn["strip"] == strip.removesuffix("</div>")
    page.close()


# Phone A records these three hands offline while phone B records B's hand online (bazhi, the first dealer E).
A_HANDS = [("S", "W"), ("W", "N"), ("N", "E")]  # (winner, discarder), each on B1's tiles
B_HAND = ("S", "W")
PLAYERS = {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}


def booked_chain(table: dict, hands: list[tuple[str, str]]) -> list[tuple]:
    """Each hand's payments booked one after the other from `table` (the server's ledger, as the phone books)."""
    from calculator.offline.table import record

    payments = []
    for winner, discarder in hands:
        booked = record(
            table, {"hand": B1["hand"], "win_tile": B1["win_tile"], "winner": winner, "discarder": discarder}, "zh"
        )
        payments.append(booked["payments"])
        table = booked["table"]
    return payments


def enter_hand(page, winner: str, discarder: str) -> None:
    page.locator("#notation").evaluate("(box) => { box.open = true; }")
    page.check(f'input[name="winner"][value="{winner}"]')
    page.check(f'input[name="discarder"][value="{discarder}"]')
    page.fill('input[name="hand"]', B1["hand"])
    page.fill('input[name="win_tile"]', B1["win_tile"])


def test_two_phones_a_offline_records_three_b_online_one_the_table_holds_four_and_a_is_asked_about_the_changed(
    offline_phone, browser, live_server
):
    client = Client()
    created = client.post(
        "/api/tables", json.dumps({"ruleset": "bazhi", "players": PLAYERS}), content_type="application/json"
    ).json()
    table_id, token = created["id"], created["edit_token"]
    start = client.get(f"/api/tables/{table_id}?limit=1").json()
    # which of A's hands pay otherwise once B's hand is at the table first (the referee is asked about those)
    local = booked_chain(start, A_HANDS)
    after_b = booked_chain(start, [B_HAND, *A_HANDS])[1:]
    changed = [n for n in range(3) if local[n] != after_b[n]]
    assert 0 < len(changed) < 3  # the scenario asks about some hands and not others

    # A opens the table with its edit link (kept for offline), then loses the network and records three hands
    page = open_ready(offline_phone, f"/tables/{table_id}/edit/{token}/", offline=False, ready=False)
    expect(page.locator("#ledger")).to_have_attribute("data-offline-kept", str(start["version"]))
    page.close()
    a = open_ready(offline_phone, f"/?table={table_id}&token={token}&at={start['version']}")
    expect(a.locator("#offline-table")).to_be_visible()
    for n, (winner, discarder) in enumerate(A_HANDS, start=1):
        enter_hand(a, winner, discarder)
        a.click("#record-hand")
        expect(a.locator("#offline-queue li")).to_have_count(n)
        expect(a.locator("#offline-queue li").nth(n - 1)).to_have_attribute("data-queue-state", "waiting")

    # B records one hand online with the table's calculator
    context_b = browser.new_context(viewport={"width": 390, "height": 844})
    b = context_b.new_page()
    b.goto(
        f"{live_server.url}/?table={table_id}&token={token}&hand={B1['hand']}&win_tile={B1['win_tile']}&winner={B_HAND[0]}&discarder={B_HAND[1]}"
    )
    b.click("#record-hand")
    expect(b.locator("#ledger")).to_be_visible()
    context_b.close()

    # A is back online: the queue goes out in order; it stops at a hand that pays otherwise now, which the referee
    # confirms, and goes on. What it asks is read once it has settled (nothing left to send by itself).
    offline_phone.context.set_offline(False)
    asked = []
    for _ in range(len(A_HANDS) + 1):
        expect_settled(a)
        confirming = a.locator("#offline-queue li[data-queue-state='confirm']")
        if confirming.count() == 0:
            break
        states = a.locator("#offline-queue li").evaluate_all("(items) => items.map((li) => li.dataset.queueState)")
        asked.append(states.index("confirm"))
        expect(confirming.locator("[data-before]")).to_be_visible()
        expect(confirming.locator("[data-now]")).to_be_visible()
        key = confirming.get_attribute("data-queue-key")
        confirming.locator("[data-queue-confirm]").click()
        expect(a.locator(f"#offline-queue li[data-queue-key='{key}']")).not_to_have_attribute(
            "data-queue-state", "confirm"
        )
    expect(a.locator("#offline-queue li[data-queue-state='sent']")).to_have_count(3)
    assert asked == changed

    held = client.get(f"/api/tables/{table_id}").json()
    assert held["hands_total"] == 4
    winners = [hand["request"]["winner"] for hand in held["hands"]]
    assert winners == [B_HAND[0], *(w for w, _ in A_HANDS)]  # B's, then A's in A's order: none twice, none lost
    # the browser logs each write the table refused as stale (409): the protocol's, not a fault
    assert [e for e in a.console.errors if "409 (Conflict)" not in e] == []
    a.close()


@pytest.mark.parametrize(
    "players, nets",
    [(4, ["东 −7", "南 +19", "西 −7", "北 −5"]), (3, ["东 −7", "南 +14", "西 −7"])],
    ids=["players=4", "players=3"],
)
def test_a_hand_recorded_offline_is_queued_with_the_tables_seats_and_sent_once_back_online(
    offline_phone, players, nets
):
    """B1 recorded in the phone at a table of four and of three: the queue lists the nets of the table's seats (no
    North at three), and the hand goes out once the network is back, recorded once."""
    client = Client()
    names = dict(list(PLAYERS.items())[:players])
    body = {"ruleset": "bazhi", "options": {"players": players}, "players": names}
    created = client.post("/api/tables", json.dumps(body), content_type="application/json").json()
    table_id, token, version = created["id"], created["edit_token"], created["version"]
    page = open_ready(offline_phone, f"/tables/{table_id}/edit/{token}/", offline=False, ready=False)
    expect(page.locator("#ledger")).to_have_attribute("data-offline-kept", str(version))
    page.close()
    a = open_ready(offline_phone, f"/?table={table_id}&token={token}&at={version}")
    expect(a.locator("#offline-table")).to_be_visible()
    enter_hand(a, B1["winner"], B1["discarder"])
    a.click("#record-hand")
    queued = a.locator("#offline-queue li")
    expect(queued).to_have_count(1)
    expect(queued.locator(".queue-net")).to_have_text(nets)
    offline_phone.context.set_offline(False)
    expect(queued).to_have_attribute("data-queue-state", "sent", timeout=30_000)
    held = client.get(f"/api/tables/{table_id}").json()
    assert held["hands_total"] == 1 and held["hands"][0]["applied"] == dict(
        zip(names, (int(n.split()[1].replace("−", "-")) for n in nets), strict=True)
    )
    assert [e for e in a.console.errors if "409 (Conflict)" not in e] == []
    a.close()


def test_online_with_the_pack_the_phone_answers_first_and_the_servers_answer_agrees(offline_phone):
    page = open_ready(offline_phone, offline=False)
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS)
    expect_nets(page, B1_NETS)
    # the server's answer to the 14th tile came and agreed (its time is the server's: not what this test is about)
    expect(page.locator("html")).to_have_attribute("data-offline-checked", re.compile("win_tile=8m"), timeout=20_000)
    expect(page.locator("html")).not_to_have_attribute("data-offline-differs", re.compile(".*"))
    assert page.console.errors == []
    page.close()


@pytest.mark.parametrize(("players", "nets"), [("4", B1_NETS), ("3", B1_NETS_AT_THREE)], ids=["four", "three"])
def test_offline_the_phone_scores_a_tapped_hand_at_the_table_size_chosen(offline_phone, players, nets):
    """The network cut, bazhi at four or at three (RULES.md §1.8): the phone's answer holds the table's seats."""
    page = open_ready(offline_phone)
    page.check(f'input[name="players"][value="{players}"]', force=True)
    tap_seats(page, "S", "E", "W")
    tap_tiles(page, B1_TAPS)
    expect_nets(page, nets)
    expect(page.locator("#result [data-seat]")).to_have_count(len(nets))
    expect(page.locator("#share-url")).to_have_value(re.compile(rf"players={players}&"))
    assert page.console.errors == []
    page.close()


def server_trainer_page(link: str, lang: str) -> str:
    """The server's trainer page for `link` as a deployment draws it: with the games it serves, which the pack
    carries (not the test-only game tests/conftest.py registers beside them, which the page's filters would list)."""
    client = Client()
    client.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
    with mock.patch.dict(RULESETS, {game: RULESETS[game] for game in SERVED}, clear=True):
        return client.get(f"/trainer/?{link}").content.decode()


TRAINER_WORDS = {"zh": ("答对了", "下一题"), "en": ("Right!", "Next question")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_offline_the_trainer_deals_grades_and_explains_a_question_as_the_server_does(offline_phone, lang):
    """The network cut, the trainer's page comes from the pack's cache; the phone deals a question for a link
    without a seed (as the server sends it on to a fresh one), grades the answer tapped, explains it with the
    calculator's card, and deals the next: each drawn as the server's page draws the same link. The trainer's
    page is kept in the language it was last seen in (opened online first)."""
    online = open_ready(offline_phone, "/trainer/?seed=1", offline=False, lang=lang)
    expect(online.locator("html")).to_have_attribute(
        "data-offline-trainer-kept", online.locator("html").get_attribute("lang")
    )
    online.close()
    page = open_ready(offline_phone, "/trainer/?level=3", lang=lang)
    trainer = page.locator("#trainer")
    # drawn by the phone (the kept page shows the question it was kept with until then)
    expect(page.locator("html")).to_have_attribute("data-offline-trainer", re.compile(r"^seed=\d+&level=3$"))
    link = page.locator("html").get_attribute("data-offline-trainer")
    expect(trainer).to_have_attribute("data-link", link)
    expect(trainer).to_have_attribute("data-kind", "pay")
    expect(page).to_have_url(re.compile(re.escape(f"/trainer/?{link}") + "$"))  # the address is the question's
    spec = Spec(int(link.split("&")[0].removeprefix("seed=")), level="3")
    right = next(n for n, choice in enumerate(question(spec).choices) if not choice.situation.change)

    page.click(f'button[name="answer"][value="{right}"]')  # the engine's nets: graded right
    expect(trainer).to_have_attribute("data-graded", "true")
    expect(trainer).to_have_attribute("data-correct", "true")
    expect(page.locator("#trainer-verdict")).to_contain_text(TRAINER_WORDS[lang][0])
    expect(page.locator("#trainer-explain [data-win]")).to_have_count(1)  # explained by the calculator's card
    expect(page.locator("#trainer-progress")).not_to_be_empty()  # trainer.js counted it
    answered = link_of(page.url)
    assert trainer.get_attribute("data-link") == answered and f"answer={right}" in answered

    page.click("#trainer-next")  # the next question, dealt in the phone too
    expect(trainer).not_to_have_attribute("data-graded", "true")
    following = link_of(page.url)
    expect(trainer).to_have_attribute("data-link", following)

    # what the phone drew for each of these links is the server's page for the same link, byte for byte
    for shown in (link, answered, following):
        drawn = json.loads(page.evaluate("([link, lang]) => offlinePack.trainer(link, lang)", [shown, lang]))
        assert drawn["link"] == shown
        assert drawn["html"] in server_trainer_page(shown, lang)
    assert page.console.errors == []
    page.close()


def link_of(url: str) -> str:
    return url.partition("?")[2]


def test_a_test_that_does_not_ask_for_the_pack_is_not_served_it(offline_pack_built):
    """The pack is served only during the tests that ask for it: test_language's Chinese pages, which may run on this
    worker after the tests above, would otherwise show the pack's offer."""
    folder, _manifest = offline_pack_built
    assert folder != settings.OFFLINE_PACK_DIR


def test_offline_share_as_picture_gives_the_picture_the_phone_drew(offline_phone):
    """Issue 32: with the network cut, the picture is drawn by the pack's Python in the phone and downloaded (no
    share sheet for files here), its QR code the share link."""
    page = open_ready(offline_phone, "/?" + "&".join(f"{key}={value}" for key, value in B1.items()))
    expect(page.locator('#result [data-win="true"]')).to_be_visible()
    with page.expect_download() as waiting:
        page.click("#share-picture")
    assert decoded(Path(waiting.value.path()).read_bytes()) == page.locator("#share-url").input_value()
    page.close()
