"""Issue 22: the offline pack as the server builds and serves it, and its Python as the phone runs it (here under
CPython: the same modules, read from the built zip)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.test import Client, override_settings

from calculator import ledger
from calculator.engine import score
from calculator.offline import pack
from calculator.offline import served as serving
from calculator.offline.phone import COMPILED_TEMPLATES, Phone
from calculator.offline.table import fixed_fields, record
from calculator.plumbing.pictures import app_version
from calculator.presentation.render import environment
from jinja2 import ModuleLoader
from tests.builds import built as shared_build
from tests.offline_requests import requests

# the tests share the run's pack and one copy of it unpacked (a module fixture): under xdist one worker unpacks it
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("offline-pack-built")]

RUNTIME = Path(settings.OFFLINE_RUNTIME_DIR)
needs_runtime = pytest.mark.skipif(not (RUNTIME / "package.json").exists(), reason="npm ci has not run")
B1_QUERY = "ruleset=bazhi&tariff=315&players=4&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"
B1_HAND = {"hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "discarder": "W", "melds": [], "flags": []}


def build(folder: Path) -> pack.Manifest:
    return serving.build(folder)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The pack as the run built it (tests/builds.py: the offline tests' pack), its manifest, and a copy unpacked."""
    if not (RUNTIME / "package.json").exists():
        pytest.skip("npm ci has not run")
    folder = shared_build("offline-pack", serving.build)
    manifest = pack.read_manifest(folder)
    unpacked = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(folder / manifest.app.name) as archive:
        archive.extractall(unpacked)
    return folder, manifest, unpacked


@pytest.fixture
def served(built):
    folder, manifest, _ = built
    with override_settings(OFFLINE_PACK_DIR=folder):
        yield manifest


def test_the_pack_is_the_same_for_the_same_sources(built, tmp_path):
    assert build(tmp_path).version == built[1].version


def test_a_change_to_what_the_pack_holds_is_a_new_version(built, tmp_path, monkeypatch):
    """The page compares versions to replace an old pack: any file more or changed changes it."""
    monkeypatch.setattr(pack, "APP_FILES", (*pack.APP_FILES, "calculator/urls.py"))
    assert build(tmp_path).version != built[1].version


def test_the_pack_holds_the_engine_presenter_ledger_templates_catalogues_and_jinja2_but_no_django(built):
    folder, manifest, _ = built
    # the zip's names, not the unpacked copy's: the phones these tests run in CPython write bytecode into that
    with zipfile.ZipFile(folder / manifest.app.name) as archive:
        names = set(archive.namelist())
    for needed in (
        "calculator/engine/score.py",
        "calculator/engine/rulesets/bazhi/declarations.toml",
        "calculator/ledger/__init__.py",
        "calculator/presentation/handquery.py",
        "calculator/offline/phone.py",
        *(f"templates/{ModuleLoader.get_module_filename(name)}" for name in pack.TEMPLATES),
        "calculator/presentation/trainer/questions.py",
        "locale/zh_Hans/LC_MESSAGES/django.mo",
        "locale/zh_Hans/LC_MESSAGES/answers.mo",
        "jinja2/__init__.py",
        "markupsafe/__init__.py",
        "urls.json",
    ):
        assert needed in names
    assert not [n for n in names if n.startswith("django/") or n.endswith(".so") or "__pycache__" in n]
    assert [p.name for p in manifest.runtime] == list(pack.RUNTIME_FILES)


def test_the_phone_draws_with_the_templates_compiled_when_the_pack_was_built_never_with_jinja2s_compiler(built):
    """The card's templates are compiled to Python modules when the pack is built: the phone imports them (Jinja2's
    ModuleLoader), so its heap never holds the template compiler's passing peak (pyodide#6254); the sources are
    not in the pack."""
    _, _, unpacked = built
    phone = Phone(unpacked)
    for locale in phone.locales.values():
        assert isinstance(environment(locale).loader, ModuleLoader)
        assert locale.templates == unpacked / COMPILED_TEMPLATES
    assert not list(unpacked.glob("jinja2/*.html"))
    assert json.loads(phone.answer(B1_QUERY, "zh", json.dumps({"origin": "", "table": None})))["card"]


def test_the_first_start_imports_every_module_of_the_pack_from_bytecode_compiled_before_it(built, tmp_path):
    """Pyodide writes no bytecode as it imports (here: -B): the first start compiles the pack first (start.py), so
    that no module is compiled from its source once the heap holds the others (pyodide#6254)."""
    unpacked = tmp_path / "app"
    shutil.copytree(built[2], unpacked)
    program = (
        "import sys; sys.path[:0] = [sys.argv[1]]; sys.modules['django'] = None\n"
        "from calculator.offline.start import started\n"
        "started(sys.argv[1])\n"
        "print('\\n'.join(m.__spec__.cached or m.__file__ for m in list(sys.modules.values())\n"
        "                 if (getattr(m, '__file__', None) or '').startswith(sys.argv[1])))"
    )
    run = [sys.executable, "-I", "-S", "-B", "-c", program, str(unpacked)]
    loaded = subprocess.run(run, capture_output=True, text=True, check=True).stdout.split()
    assert len(loaded) > 50 and all(Path(path).exists() for path in loaded)  # each module's bytecode was there
    assert len(list((unpacked / COMPILED_TEMPLATES / "__pycache__").glob("*.pyc"))) == len(pack.TEMPLATES)


def test_the_pack_is_at_most_7_mb_compressed(built):
    assert built[1].gzip_size <= 7_000_000


NOT_READY = {"ruleset": "bazhi", "hand": "2345678999p233s", "winner": "S", "dealer": "W", "discarder": "N"}  # not ready


def test_the_pack_holds_every_module_it_runs_and_no_django(built):
    """The pack's Python, run from the unpacked zip alone (no project, no site-packages, Django made unimportable):
    every module in it imports, and it answers a win (and draws its picture, issue 32), and a hand not ready with its distance and the draws that help
    (engine/distance.py, nearest.py, ways.py and each game's shanten.py)."""
    _, _, unpacked = built
    program = (
        "import sys, json, pkgutil, importlib; sys.path[:0] = [sys.argv[1]]; sys.modules['django'] = None\n"
        "import calculator\n"
        "for module in pkgutil.walk_packages(calculator.__path__, 'calculator.'):\n"
        "    importlib.import_module(module.name)\n"
        "from calculator.offline.phone import Phone\n"
        "phone = Phone(sys.argv[1])\n"
        "answers = [json.loads(phone.score(json.dumps(r), 'zh')) for r in json.loads(sys.argv[2])]\n"
        "print(json.dumps([*answers, phone.picture(sys.argv[3], 'zh', 'https://example.org')]))"
    )
    hands = [{"ruleset": "bazhi", **B1_HAND, "dealer": "E"}, NOT_READY]
    isolated = [sys.executable, "-I", "-S", "-c", program, str(unpacked), json.dumps(hands), B1_QUERY]
    win, not_ready, drawn = json.loads(subprocess.run(isolated, capture_output=True, text=True, check=True).stdout)
    assert win["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}
    assert '<symbol id="t-8m"' in drawn and 'data-seat="S" data-net="19"' in drawn  # the picture: tiles, QR, nets
    assert not_ready == score(NOT_READY, "zh")
    assert not_ready["waits"] == [] and not_ready["shanten"] >= 1 and not_ready["draws"]


def test_a_phone_without_the_engines_catalogue_says_which_file_is_missing_instead_of_answering(built, tmp_path):
    """The engine's Chinese comes from answers.mo in the pack: a pack without it fails loudly at the first Chinese
    answer (the phone warms up in both languages before it is kept), never answering in English msgids."""
    unpacked = shutil.copytree(built[2], tmp_path / "unpacked")
    (unpacked / "locale" / "zh_Hans" / "LC_MESSAGES" / "answers.mo").unlink()
    program = (
        "import sys, json; sys.path[:0] = [sys.argv[1]]; sys.modules['django'] = None\n"
        "from calculator.offline.phone import Phone\n"
        "print(Phone(sys.argv[1]).score(sys.argv[2], sys.argv[3]))"
    )
    hand = json.dumps({"ruleset": "bazhi", **B1_HAND, "dealer": "E"})
    isolated = [sys.executable, "-I", "-S", "-c", program, str(unpacked), hand]
    english = subprocess.run([*isolated, "en"], capture_output=True, text=True, check=True)
    assert json.loads(english.stdout)["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}  # the source language
    chinese = subprocess.run([*isolated, "zh"], capture_output=True, text=True)
    assert chinese.returncode != 0 and not chinese.stdout
    assert "locale/zh_Hans/LC_MESSAGES/answers.mo is missing" in chinese.stderr


def test_the_phones_json_is_the_engines_with_sorted_keys(built):
    phone = Phone(built[2])
    for request, lang in requests(40):
        assert phone.score(json.dumps(request), lang) == json.dumps(
            score(request, lang), sort_keys=True, ensure_ascii=False
        )


# Trainer links of each kind and level, answered and not (a pay answer, waits tapped, a house-rules question).
TRAINER_LINKS = [
    "seed=5&kind=pay&answer=1",
    "seed=7",
    "seed=9&level=2&answer=tiles&tile=1m&tile=4m",
    "seed=11&level=3&answer=0",
    "seed=12&game=bazhi&kind=win&answer=win",
    "seed=13&game=xinyu&level=2&answer=none",
    "seed=14&focus=xinyu:qidui&review=xinyu:qidui.0.1,bazhi:duidui.2.0&answer=no",
]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_phone_deals_grades_and_draws_the_trainers_question_as_the_servers_page(built, lang):
    phone = Phone(built[2])
    client = Client()
    client.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
    for link in TRAINER_LINKS:
        drawn = json.loads(phone.trainer(link, lang))
        assert drawn["link"] == link
        assert drawn["html"] in client.get(f"/trainer/?{link}").content.decode()


def test_a_trainer_link_the_server_would_send_on_is_drawn_for_a_clean_link_with_a_fresh_seed(built):
    phone = Phone(built[2])
    drawn = json.loads(phone.trainer("level=2&game=nosuchgame", "zh"))
    seed, level = drawn["link"].split("&")
    assert seed.startswith("seed=") and seed.removeprefix("seed=").isdigit() and level == "level=2"
    assert f'data-link="{seed}&amp;level=2"' in drawn["html"] and 'data-kind="waits"' in drawn["html"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_phone_draws_the_verdicts_picture_as_the_server_does(built, lang):
    """Issue 32: offline the phone draws the picture with the server's presenter and template, the same SVG."""
    server = Client().get(f"/picture/{app_version()}/{lang}.svg?{B1_QUERY}")
    assert server.status_code == 200
    assert Phone(built[2]).picture(B1_QUERY, lang, "http://testserver") == server.content.decode()


def test_the_phone_reads_the_catalogue_and_the_static_urls(built):
    phone = Phone(built[2])
    assert phone.locales["zh"].gettext("Not a win") != "Not a win"
    assert phone.locales["en"].gettext("Not a win") == "Not a win"
    assert phone.locales["zh"].static("tiles/1m.svg") == static("tiles/1m.svg")


def test_the_offer_and_the_manifest_are_served_once_a_pack_is_built(served):
    client = Client()
    page = client.get("/").content.decode()
    assert "data-offline-pack" in page and f'data-version="{served.version}"' in page
    assert "data-offline-pack" in client.get("/trainer/?seed=1", follow=True).content.decode()
    body = client.get("/offline/pack.json").json()
    assert body["version"] == served.version
    assert [part["sha256"] for part in body["parts"][:-1]] == [p.sha256 for p in (*served.runtime, served.app)]


@override_settings(OFFLINE_PACK_DIR="/nonexistent/offline-pack")
def test_without_a_pack_nothing_is_offered():
    client = Client()
    assert "data-offline-pack" not in client.get("/").content.decode()
    assert client.get("/offline/pack.json").status_code == 404


def test_only_the_worker_may_compile_webassembly_and_nothing_may_eval(served):
    client = Client()
    page = client.get("/")["Content-Security-Policy"]
    worker = client.get(f"/offline/{served.version}/worker.js")
    assert worker.status_code == 200
    policy = worker["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'wasm-unsafe-eval'" not in page
    assert "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "") and "'unsafe-eval'" not in page


def test_the_app_zip_is_served_for_its_version_only(served):
    client = Client()
    zipped = client.get(f"/offline/{served.version}/app.zip")
    assert zipped.status_code == 200 and "immutable" in zipped["Cache-Control"]
    assert client.get("/offline/0000000000000000/app.zip").status_code == 404
    assert client.get(f"/offline/{served.version}/settings.py").status_code == 404


@pytest.mark.parametrize(
    "players, net, balances",
    [
        (4, {"E": -7, "S": 19, "W": -7, "N": -5}, {"E": 23, "S": 49, "W": 23, "N": 25}),
        (3, {"E": -7, "S": 14, "W": -7}, {"E": 23, "S": 44, "W": 23}),
    ],
    ids=["players=4", "players=3"],
)
def test_a_table_in_the_phone_fixes_the_servers_fields_and_books_with_the_servers_ledger(players, net, balances):
    """B1 booked in the phone at a table of four and of three: the nets and the seats the queue lists them by are
    the table's, in play order, though the kept table's maps come in the order PostgreSQL keeps them (E N S W)."""
    names = dict(list({"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}.items())[:players])
    config = ledger.parse_config({"ruleset": "bazhi", "options": {"players": players}, "players": names})
    state = ledger.start(config)
    table = {"card": state.card.to_dict(), "players": dict(config.players), "first_dealer": "E", **state.to_dict()}
    table = json.loads(json.dumps(table, sort_keys=True))
    fixed = fixed_fields(table)
    assert fixed["dealer"] == "E" and fixed["players"] == players and fixed["name_S"] == "小南"
    assert [key for key in fixed if key.startswith("name_")] == [f"name_{seat}" for seat in names]
    booked = record(table, B1_HAND, "zh")
    assert booked["seats"] == list(names) and booked["net"] == net
    assert booked["table"]["dealer"] == "S"  # a win by another seat passes the deal
    assert booked["table"]["balances"] == balances


def test_a_hand_the_table_would_refuse_is_refused_in_the_phone_too():
    config = ledger.parse_config({"ruleset": "bazhi"})
    state = ledger.start(config)
    table = {"card": state.card.to_dict(), "players": dict(config.players), "first_dealer": "E", **state.to_dict()}
    assert record(table, {**B1_HAND, "win_tile": "1s"}, "en")["error"]["code"] in (
        "not_a_win",
        "incomplete",
        "no_bazhi",
    )
