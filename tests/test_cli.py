"""`python manage.py score`: stdin, --file, the batch array mode and exit statuses (API.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score", *args], input=stdin, capture_output=True, text=True, cwd=ROOT
    )


def test_one_request_on_stdin_exits_0():
    done = run(stdin=json.dumps(B1))
    assert done.returncode == 0
    assert json.loads(done.stdout)["net"]["S"] == 19


def test_an_error_response_exits_2():
    done = run(stdin=json.dumps({**B1, "winner": "X"}))
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "bad_seat"


def test_invalid_json_exits_2_with_bad_json():
    done = run(stdin="{nope")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "bad_json"


def test_file_option(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(B1), encoding="utf-8")
    done = run("--file", str(path), "--lang", "en")
    assert done.returncode == 0
    assert json.loads(done.stdout)["explanation"][0]["label"] == "suit count"


def test_batch_mode_keeps_order_and_exits_0_with_errors_inside():
    done = run(stdin=json.dumps([B1, {**B1, "hand": "x"}, {**B1, "win_tile": "1m"}]))
    assert done.returncode == 0
    first, second, third = json.loads(done.stdout)
    assert first["net"]["S"] == 19
    assert second["error"]["code"] == "bad_tile"
    assert third["code"] == "incomplete"


def test_a_batch_answers_each_element_even_one_the_strict_decoder_refuses():
    # Issue 20: one lone surrogate in one element made the whole batch one error and exit 2. API.md: an array in
    # gives an array out, errors included; each element gets the answer it would get alone.
    deep: object = B1
    for _ in range(32):
        deep = {"x": deep}
    batch = [B1, {**B1, "hand": "\ud800"}, {**B1, "winner": "S\u0000"}, deep, {**B1, "discarder": None}]
    done = run("--lang", "en", stdin=json.dumps(batch))
    assert done.returncode == 0, done.stderr
    first, surrogate, nul, too_deep, last = json.loads(done.stdout)
    assert first["net"]["S"] == 19 and last["win"] is True
    assert surrogate["error"] == {
        "code": "bad_json",
        "message": "hand holds a lone surrogate (like \\ud800), not a character",
        "field": "hand",
    }
    assert (nul["error"]["code"], nul["error"]["field"]) == ("bad_json", "winner")
    assert too_deep["error"]["code"] == "bad_json" and too_deep["error"]["field"].startswith("x.x.")


def test_input_that_is_not_json_at_all_is_one_error_even_in_brackets():
    done = run(stdin='[{"ruleset": "bazhi"}, {nope]')
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "bad_json"


def test_the_draws_of_a_hand_not_ready_are_the_engines():
    """Issue 21 §3: a 13-tile hand not ready answers `draws` and `draws_left`, as the engine does."""
    from calculator.engine import score

    request = {**B1, "hand": "123456m123p1235s"}
    del request["win_tile"]
    done = run(stdin=json.dumps(request))
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert (answer["draws"], answer["draws_left"]) == (score(request)["draws"], 30)


def test_one_request_nested_too_deep_is_refused_as_post_api_score_refuses_it(client):
    """API.md: the CLI and HTTP give identical content. A single request nested 40 deep (33-64) reached the engine
    from the CLI (bad_option) where HTTP refuses its JSON (bad_json, naming where): a batch element already was."""
    body = json.dumps({**B1, "options": {"house": {"yadang_wait": json.loads("[" * 40 + "]" * 40)}}})
    done = run(stdin=body)
    over_http = client.post("/api/score", body, content_type="application/json")
    assert (done.returncode, over_http.status_code) == (2, 400)
    assert json.loads(done.stdout) == over_http.json()
    assert over_http.json()["error"]["code"] == "bad_json"
