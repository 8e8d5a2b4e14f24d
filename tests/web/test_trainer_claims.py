"""The trainer's question "who takes this discard?" (issue 29), for both games: two or three claimants' hands on
one discard, the learner taps a seat, graded by the engine's claims (calculator.engine.claims.priority), and
explained as the page of who takes the discard answers it (each claim's level or place, the taking win's card)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from calculator.engine.claims import priority
from calculator.presentation.trainer.questions import Spec, question

LANGS = {"zh": "zh-hans", "en": "en"}


def first_question(game: str, wanted) -> tuple[int, object]:
    """The first seed whose claims question of this game the engine answers as `wanted` says."""
    for seed in range(100):
        q = question(Spec(seed, game, "claims"))
        if wanted(q.answer):
            return seed, q
    raise AssertionError("no such question in 100 seeds")


def trainer(client, lang: str = "zh", **query) -> str:
    response = client.get(reverse("trainer"), query, headers={"Accept-Language": LANGS[lang]})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("game", "reason"), [("xinyu", "higher_level"), ("xinyu", "seat_order"), ("bazhi", "seat_order")]
)
def test_a_claims_question_is_graded_by_the_engines_claims(client, game, reason):
    seed, q = first_question(game, lambda answer: answer["reason_code"] == reason)
    right = priority(q.request)["winner"]
    seats = re.findall(r'data-claimant="([ESWN])"', trainer(client, seed=seed, game=game, kind="claims"))
    assert seats == [claim["seat"] for claim in q.answer["claims"]] and right in seats  # play order
    html = trainer(client, seed=seed, game=game, kind="claims", answer=right)
    assert re.search(r'id="trainer"[^>]*data-correct="true"', html, re.S)
    wrong = next(seat for seat in seats if seat != right)
    assert re.search(
        r'id="trainer"[^>]*data-correct="false"',
        trainer(client, seed=seed, game=game, kind="claims", answer=wrong),
        re.S,
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_answer_is_explained_as_the_page_of_who_takes_the_discard_answers_it(client, lang):
    seed, q = first_question("xinyu", lambda answer: answer["reason_code"] == "higher_level")
    winner = q.answer["winner"]
    html = trainer(client, lang, seed=seed, game="xinyu", kind="claims", answer=winner)
    explained = html[html.index('id="trainer-explain"') :]
    assert f'data-claims="answer" data-claims-winner="{winner}" data-reason="higher_level"' in explained
    assert re.search(r'<span class="verdict-level" data-level="[12]">', explained)  # the taking win's level
    said = {"zh": "小的不能拦大的", "en": "a lower level cannot overtake a higher one"}[lang]
    verdict = re.search(r'id="trainer-verdict".*?</div>', html, re.S).group(0)
    assert said in verdict
    assert 'href="/claims/?ruleset=xinyu' in html  # the claims on their own page
    topics = re.search(r'data-topics="([^"]*)"', html).group(1).split()
    assert topics and all(topic.startswith("xinyu:") for topic in topics)  # the patterns that gave the levels


def test_level_four_deals_who_takes_the_discard(client):
    html = trainer(client, seed=5, level="4")
    assert re.search(r'id="trainer"[^>]*data-kind="claims"', html, re.S)
    assert "4 · 谁胡这张牌" in html


def test_a_claims_question_at_a_table_of_three_has_two_claimants(client):
    for seed in range(200):
        q = question(Spec(seed, "bazhi", "claims"))
        if q.request["claims"][0]["options"]["players"] == 3:
            break
    else:
        raise AssertionError("no bazhi claims question at three in 200 seeds")
    assert len(q.request["claims"]) == 2 and "N" not in {
        q.request["discarder"],
        *(c["winner"] for c in q.request["claims"]),
    }
    html = trainer(client, seed=seed, game="bazhi", kind="claims", answer=q.answer["winner"])
    assert re.search(r'id="trainer"[^>]*data-correct="true"', html, re.S)
