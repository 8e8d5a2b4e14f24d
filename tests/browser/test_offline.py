"""Issue 22: the calculator offline, the server's own Python running in the phone (Pyodide in a Web Worker).

The pack is built and installed once per session (tests/browser/offline.py); each test opens pages in that phone.
"""

from __future__ import annotations

import json
import os
import statistics

import pytest
from django.test import Client

from tests.browser.offline import open_ready
from tests.offline_requests import kinds_covered, requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCORE_ALL = """(pairs) => Promise.all(pairs.map(([request, lang]) => offlinePack.scoreText(request, lang)))"""


def report(what: str, value: str) -> None:
    print(f"\n{what}: {value} (load average {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


def server_json(request: dict, lang: str) -> str:
    response = Client().post(f"/api/score?lang={lang}", json.dumps(request), content_type="application/json")
    return json.dumps(response.json(), sort_keys=True, ensure_ascii=False)


def test_300_requests_scored_in_the_phone_offline_equal_the_servers_json(offline_phone):
    pairs = requests()
    assert len(pairs) == 300
    assert {"bazhi", "xinyu", "alternatives", "waits", "nearest", "error"} <= kinds_covered(pairs)
    page = open_ready(offline_phone)
    answers = page.evaluate(SCORE_ALL, [[request, lang] for request, lang in pairs])
    differ = [
        (request, lang)
        for (request, lang), mine in zip(pairs, answers, strict=True)
        if mine != server_json(request, lang)
    ]
    assert differ == []
    page.close()


def ready_at(page) -> int:
    return int(page.locator("html").get_attribute("data-offline-ready-at"))


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
