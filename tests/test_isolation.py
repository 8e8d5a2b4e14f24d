"""No test depends on what another test left behind: what a test changes in its process is undone before the next
one (tests/conftest.py), whichever worker runs it and in whatever order (scripts/test runs the suite in parallel)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

# the two tests in this order on one worker: the second runs right after the first in the same process
pytestmark = pytest.mark.xdist_group("isolation-language")


def test_an_english_request_leaves_english_active_in_the_tests_thread(client):
    client.cookies["django_language"] = "en"
    assert client.get("/rules/").status_code == 200
    assert translation.get_language() == "en"


def test_the_next_test_starts_in_the_default_language():
    assert translation.get_language() == settings.LANGUAGE_CODE == "zh-hans"
    assert gettext("Rules") == "规则"


@pytest.mark.django_db(transaction=True)
def test_the_live_servers_threads_answer_two_writes_at_once_each_on_its_own_connection(live_server):
    """The test database is a file, not Django's shared in-memory one (tests/conftest.py): two tables made at the
    same moment through the live server both answer 201, where one connection shared by the server's threads
    answered one of them 503 `busy` now and then."""
    import json
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    if connection.vendor == "sqlite":
        assert not connection.is_in_memory_db()

    def create(_: int) -> int:
        body = json.dumps({"ruleset": "bazhi"}).encode()
        request = urllib.request.Request(
            live_server.url + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(create, range(40))) == [201] * 40
