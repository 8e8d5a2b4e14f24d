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
