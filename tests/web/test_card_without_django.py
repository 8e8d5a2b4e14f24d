"""The result card and the strip drawn without Django (calculator.presentation.render, issue 19): the same HTML as
the htmx partial for the same hand, in both languages, with the translations read by the standard library's
gettext from the compiled catalogue. The phone runs this same code under Pyodide (issue 22)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from tests.web.fields import B1, SHORT_OF_EIGHT, WILD_AS_NORTH, X1

ROOT = Path(__file__).resolve().parents[2]
OOB_STRIP = '<div id="strip" hx-swap-oob="innerHTML">'

HANDS = {
    "bazhi win": B1,
    "xinyu win, a 财神 standing in": WILD_AS_NORTH,
    "xinyu win, names": {**X1, "name_S": "<b>南</b>", "name_W": "W'x"},
    "waits": {**B1, "win_tile": ""},
    "not ready": SHORT_OF_EIGHT,
    "not a win, nearest": {**B1, "hand": "123m456p789s11m99p", "win_tile": "9p"},
    "not a win, its other readings": {**SHORT_OF_EIGHT, "win_tile": "1s"},
    "engine error": {**B1, "hand": "11111345789p79m"},
    "unreadable tile": {**B1, "hand": "111345789p79m5x"},
    "progress": {**B1, "hand": "111p", "win_tile": ""},
    "nothing yet": {**B1, "hand": "", "win_tile": ""},
}
LANGUAGES = {"zh": "zh-hans", "en": "en"}

# Run in a fresh interpreter: renders every hand in both languages and fails if anything imported Django.
WITHOUT_DJANGO = """
import json, sys
from pathlib import Path
from calculator.presentation.locale import Locale
from calculator.presentation.render import render_hand

root = Path(sys.argv[1])
pages = {"calculator": "/", "rules": "/rules/"}
catalogues = {"zh": root / "locale/zh_Hans/LC_MESSAGES/django.mo", "en": None}
queries = json.loads(sys.argv[2])
out = {}
for lang, catalogue in catalogues.items():
    locale = Locale.from_catalogue(lang, catalogue, lambda path: "/static/" + path, pages.__getitem__)
    out[lang] = {name: render_hand(query, locale, "http://testserver") for name, query in queries.items()}
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
print(json.dumps({"html": out, "django": loaded}))
"""


@pytest.fixture(scope="module")
def drawn_without_django() -> dict:
    queries = json.dumps({name: urlencode(fields) for name, fields in HANDS.items()})
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_DJANGO, str(ROOT), queries],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_card_and_the_strip_are_drawn_without_importing_django(drawn_without_django):
    assert drawn_without_django["django"] == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", HANDS)
def test_the_partial_is_what_the_django_free_path_draws(client, drawn_without_django, name, lang):
    html = client.get(
        reverse("calculator"), HANDS[name], headers={"HX-Request": "true", "Accept-Language": LANGUAGES[lang]}
    ).content.decode()
    card, strip = html.split(OOB_STRIP)
    strip_html, card_html = drawn_without_django["html"][lang][name]
    assert card == card_html
    assert strip.removesuffix("</div>") == strip_html
