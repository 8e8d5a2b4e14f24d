"""The table's one-tap actions cannot surprise (issue 21 §5): a drawn hand (流局) and the next 底 game / 局 ask first
and say what they will do, the undo question opens in view, and nothing is recorded until the answer.

The table: bazhi, 阿东 deals, 小南 wins hand 1 on 老西's discard (tests/ledger/client.py's players), so 小南 deals
now; a drawn hand passes the deal to 老西 (bazhi's default reading, RULES.md §5); xinyu's keeps it.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import close, open_page
from tests.browser.phone import assert_on_screen, expect
from tests.ledger.client import PLAYERS, Api, post

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W"}


def edit_page(page, api: Api) -> None:
    page.goto(page.base + f"/tables/{api.id}/edit/{api.token}/")


def tap_at_the_bottom(page, selector: str) -> None:
    """Tap a question's button where a thumb finds it after scrolling down to it: at the screen's bottom edge."""
    button = page.locator(selector)
    button.scroll_into_view_if_needed()
    found = button.bounding_box()
    height = page.viewport_size["height"]
    page.mouse.wheel(0, found["y"] + found["height"] - height + 2)
    for _ in range(20):  # until the scroll is over
        page.wait_for_timeout(50)
        moved, found = found, button.bounding_box()
        if moved == found:
            break
    expect(button).to_be_in_viewport()
    button.click()


def complaints(page) -> list[str]:
    """The page's errors, less the table's once-a-second poll (its live part, or the edit page it reloads) cut short
    by the page's own navigation: the form just sent."""
    return [e for e in page.console.errors if not ("/tables/" in e and "ERR_ABORTED" in e)]


def entries(page) -> int:
    return page.locator("#history > li").count()


def test_a_drawn_hand_asks_first_and_says_who_deals_next(phone_in, client):
    page = phone_in
    api = Api(client, {"ruleset": "bazhi"})
    api.ok("hands", HAND)
    edit_page(page, api)
    tap_at_the_bottom(page, "#draw")
    said = {
        "zh": "流局：谁都不付，下一手 老西 坐庄。 记下以后也可以撤销。",
        "en": "A drawn hand (流局): nobody pays, and 老西 deals next. You can undo it afterwards.",
    }
    expect(page.locator("#draw-what")).to_have_text(said[page.lang])
    assert_on_screen(page, "#draw-confirm")  # the answer in view
    assert entries(page) == 1 and api.get()["dealer"] == "S"  # nothing recorded yet
    page.click("#draw-confirm")
    expect(page.locator("#history > li")).to_have_count(2)
    assert api.get()["dealer"] == "W"  # as the question said
    expect(page.locator("#status .who")).to_have_text("老西")
    assert complaints(page) == []


def test_xinyus_drawn_hand_says_the_dealer_keeps_the_deal(phone_in, client):
    page = phone_in
    api = Api(client, {"ruleset": "xinyu", "stake": 100})
    edit_page(page, api)
    tap_at_the_bottom(page, "#draw")
    said = {"zh": "流局：谁都不付，阿东 连庄。", "en": "A drawn hand (流局): nobody pays, and 阿东 keeps the deal."}
    expect(page.locator("#draw-what")).to_contain_text(said[page.lang])
    page.click("#draw-confirm")
    expect(page.locator("#history > li")).to_have_count(1)
    assert api.get()["dealer"] == "E"
    assert complaints(page) == []


def test_the_next_game_asks_first_and_says_what_starts_again(phone_in, client):
    page = phone_in
    api = Api(client, {"ruleset": "bazhi"})  # a 底 of 30 (315)
    api.ok("hands", HAND)
    edit_page(page, api)
    tap_at_the_bottom(page, "#next")
    said = {
        "zh": "第 2 底开始：每家重新从 30 算起，总计照旧。 这一底还没打完。 记下以后也可以撤销。",
        "en": "底 game 2 begins: every player starts again at 30; the totals carry on. The 底 game being played is "
        "not over yet. You can undo it afterwards.",
    }
    expect(page.locator("#next-what")).to_have_text(said[page.lang])
    expect(page.locator("#next-confirm")).to_have_text(
        {"zh": "好，开始第 2 底", "en": "Yes, start 底 game 2"}[page.lang]
    )
    assert_on_screen(page, "#next-confirm")
    assert api.get()["balances"] == {"E": 23, "S": 49, "W": 23, "N": 25}  # nothing recorded yet
    page.click("#next-confirm")
    expect(page.locator("#history > li")).to_have_count(2)
    assert api.get()["balances"] == {"E": 30, "S": 30, "W": 30, "N": 30}
    assert api.get()["totals"] == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert complaints(page) == []


def test_the_undo_question_opens_in_view(phone_in, client):
    page = phone_in
    api = Api(client, {"ruleset": "bazhi"})
    for _ in range(3):
        api.ok("hands", HAND)
    edit_page(page, api)
    tap_at_the_bottom(page, "#undo")
    expect(page.locator("#undo-what")).to_contain_text("#3")
    assert_on_screen(page, "#undo-confirm")
    assert entries(page) == 3
    page.click("#undo-confirm")
    expect(page.locator("#history > li")).to_have_count(2)
    assert complaints(page) == []


def test_without_javascript_the_questions_still_ask(browser, live_server, client):
    context, page = open_page(browser, live_server, javascript=False)
    try:
        api = Api(client, {"ruleset": "bazhi"})
        api.ok("hands", HAND)
        edit_page(page, api)
        tap_at_the_bottom(page, "#draw")
        page.click("#draw-confirm")
        expect(page.locator("#history > li")).to_have_count(2)
        tap_at_the_bottom(page, "#next")
        page.click("#next-confirm")
        expect(page.locator("#history > li")).to_have_count(3)
    finally:
        close(context)


B1_NETS = {"E": -7, "S": 19, "W": -7, "N": -5}, {"E": -7, "S": 14, "W": -7}  # at four, at three


def balances(page) -> dict[str, int]:
    rows = page.locator("#balances tbody tr")
    return {
        row.get_attribute("data-seat"): int(row.locator("td.balance").inner_text().replace("−", "-"))
        for row in rows.all()
    }


@pytest.mark.parametrize("players", [4, 3], ids=["players=4", "players=3"])
def test_a_table_made_at_its_size_on_the_new_table_page_undoes_and_redoes_its_seats(page, client, players):
    """Four names typed, then the size chosen: at three North's name and first-dealer choice go away and are not
    sent. B1 recorded (小南 wins on 老西's discard), undone and redone with the table's buttons."""
    seats = list(PLAYERS)[:players]
    nets = B1_NETS[4 - players]
    page.goto(page.base + "/tables/new/")
    for seat, name in PLAYERS.items():
        page.fill(f'input[name="name_{seat}"]', name)
    page.check(f'input[name="bazhi-players"][value="{players}"]')
    for seat in PLAYERS:
        name = page.locator(f'.names [data-seat="{seat}"]')
        expect(name).to_be_visible() if seat in seats else expect(name).to_be_hidden()
    expect(page.locator("select[name=dealer] option:enabled")).to_have_count(players)
    page.click("#new-table button[type=submit]")
    expect(page.locator("#balances tbody tr")).to_have_count(players)
    edit = page.url.split("?")[0]
    table_id, token = edit.split("/")[4], edit.rstrip("/").rsplit("/", 1)[1]
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["players"] == {seat: PLAYERS[seat] for seat in seats}  # no name for a seat the table lacks
    assert post(client, f"/api/tables/{table_id}/hands", HAND, token).status_code == 201
    page.goto(edit)
    assert balances(page) == {seat: 30 + nets[seat] for seat in seats}
    tap_at_the_bottom(page, "#undo")
    page.click("#undo-confirm")
    expect(page.locator("#redo")).to_be_visible()
    assert balances(page) == dict.fromkeys(seats, 30)
    page.click("#redo")
    expect(page.locator("#history > li")).to_have_count(1)
    assert balances(page) == {seat: 30 + nets[seat] for seat in seats}
    assert complaints(page) == []


# a table of three's seats and words, as its pages say them in each language (issue 28)
SEAT_WORDS = {"zh": ["东", "南", "西"], "en": ["East", "South", "West"]}
THREE_PLAYERS = {"zh": ("人数", "三人（东南西）"), "en": ("Players", "three (East, South, West)")}  # the card's line
WHO_PAYS_WHOM = {"zh": "谁付给谁", "en": "Who pays whom"}
NORTH = {"zh": "北", "en": "North"}
RECORD_A_HAND = {"zh": "记一手牌", "en": "Record a hand"}
SELF_DRAW = {"zh": "自摸", "en": "Self-draw"}


def test_a_table_of_threes_pages_show_east_south_west_and_no_north_in_the_pages_language(phone_in, client):
    """At both phone sizes, in both languages: after B1 at three (小南 wins on 老西's discard, E −7 / S +14 / W −7,
    RULES.md §1.8) the edit and read-only pages list three seats, settle among them and say the card's three
    players; the record page offers those three as winner, discarder and a meld's source. No North anywhere."""
    page, lang = phone_in, phone_in.lang
    api = Api(client, {"ruleset": "bazhi", "options": {"players": 3}, "players": {s: PLAYERS[s] for s in "ESW"}})
    api.ok("hands", HAND)
    edit = f"/tables/{api.id}/edit/{api.token}/"
    for path in (edit, f"/tables/{api.id}/"):
        page.goto(page.base + path)
        rows = page.locator("#balances tbody tr")
        expect(rows.locator(".who")).to_have_text(["阿东", "小南", "老西"])
        expect(rows.locator("th small")).to_have_text(SEAT_WORDS[lang])
        expect(rows.locator("td.total")).to_have_text(["−7", "+14", "−7"])
        expect(page.locator("#h-settlement")).to_have_text(WHO_PAYS_WHOM[lang])
        expect(page.locator("#settlement li")).to_have_text(["阿东 → 小南 7", "老西 → 小南 7"])
        option, value = THREE_PLAYERS[lang]
        expect(
            page.locator("#card .card-lines div", has=page.get_by_text(option, exact=True)).locator("dd")
        ).to_have_text(value)
        expect(page.locator('[data-seat="N"]')).to_have_count(0)
        expect(page.locator("body")).not_to_contain_text(NORTH[lang])
        expect(page.locator("body")).not_to_contain_text("北北")
    page.goto(page.base + edit + "record/")
    expect(page.locator("h1")).to_have_text(RECORD_A_HAND[lang])
    expect(page.locator("fieldset:has(input[name=winner]) label")).to_have_text(["阿东", "小南", "老西"])
    expect(page.locator("fieldset:has(input[name=discarder]) label")).to_have_text(
        [SELF_DRAW[lang], "阿东", "小南", "老西"]
    )
    expect(page.locator('select[name="meld1_from"] option:not([hidden])')).to_have_text(["—", *SEAT_WORDS[lang]])
    expect(page.locator('select[name="meld1_from"] option[value="N"]')).to_be_disabled()
    assert complaints(page) == []


def test_a_refusal_on_the_record_page_reads_as_a_sentence(browser, live_server, client):
    """The ledger's messages begin in lower case (the API's style); shown alone on the page, the first begins as a
    sentence: a 底 game / 局 that is over, in English."""
    api = Api(client, {"ruleset": "bazhi"})
    wide = {"hand": "1112333345677p", "win_tile": "4p", "winner": "E", "discarder": None}
    api.ok("hands", wide)
    api.ok("hands", wide)  # 小南 (the dealer) pays the last of their 底: the game is over (脱底)
    context, page = open_page(browser, live_server, lang="en")
    try:
        page.goto(page.base + f"/tables/{api.id}/edit/{api.token}/record/?" + urlencode(HAND))
        expect(page.locator("#record-error")).to_contain_text("is over: start the next one first")
        assert page.locator("#record-error").inner_text().startswith("This 底")
    finally:
        close(context)


@pytest.mark.parametrize(
    ("lang", "phone", "seen"),
    [
        ("zh", "en-US", r"^\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}$"),
        ("en", "zh-CN", r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$"),
    ],
    ids=["a Chinese page on an English phone", "an English page on a Chinese phone"],
)
def test_my_tables_says_when_in_the_pages_language_not_the_phones(browser, live_server, lang, phone, seen):
    """A Chinese page on a phone set to English said "12/5/2026, 4:46:54 PM": the date is the page's, to the minute."""
    context, page = open_page(browser, live_server, lang=lang, locale=phone)
    # the page's language switch chose Chinese (a phone set to English is otherwise answered in English)
    context.add_cookies([{"name": "django_language", "value": "zh-hans" if lang == "zh" else "en", "url": page.base}])
    try:
        page.goto(page.base + "/tables/new/")
        page.locator("#new-table button[type=submit]").click()
        expect(page.locator("#ledger")).to_be_visible()
        page.goto(page.base + "/tables/")
        said = page.locator("#mine-list li > span").first
        expect(said).to_have_count(1)
        when = said.inner_text().rsplit(" · ", 1)[1].strip()
        assert re.match(seen, when), when
    finally:
        close(context)
