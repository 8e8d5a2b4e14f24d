"""Issue 22: the calculator offline, the server's own Python running in the phone (Pyodide in a Web Worker).

The pack is built and installed once per session (tests/browser/offline.py); each test opens pages in that phone.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.browser.offline import open_ready
from tests.offline_requests import kinds_covered, requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCORE_ALL = """(pairs) => Promise.all(pairs.map(([request, lang]) => offlinePack.scoreText(request, lang)))"""


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
