"""The trainer (issue 13 §3): questions dealt from a seed in the link, graded by the engine's own answer.

The test of the issue plays 200 questions: for each it asks the engine itself what the hand is, answers the page
with that (and with something else), and checks the page grades both right. Nothing here reads the trainer's own
idea of the answer.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse

from calculator.engine import score
from calculator.engine.rulesets import RULESETS, SERVED
from calculator.pages.trainer.questions import KINDS, MAX_SEED, Situation, Spec, question
from tests.games.examples import examples

PLAYED = 200


def trainer(client, **query) -> str:
    response = client.get(reverse("trainer"), query)
    assert response.status_code == 200
    return response.content.decode()


def graded(html: str) -> str | None:
    """The page's verdict: "true" or "false" (data-correct), None when the question is not answered."""
    found = re.search(r'id="trainer"[^>]*data-correct="(true|false)"', html, re.S)
    return found.group(1) if found else None


def engine_answer(q) -> dict:
    """The answer the page should take, read from the engine's answer to the question's hand."""
    answer = score(q.request)
    if q.kind == "win":
        return {"answer": "win" if answer["win"] else "no"}
    if q.kind == "waits":
        tiles = [wait["tile"] for wait in answer["waits"]]
        return {"answer": "tiles", "tile": tiles} if tiles else {"answer": "none"}
    assert answer["win"], "a pay question is a win"
    right = [n for n, choice in enumerate(q.choices) if dict(choice.net) == answer["net"]]
    assert len(right) == 1, "exactly one choice holds the engine's nets"
    return {"answer": str(right[0])}


def another_answer(q, right: dict) -> dict | None:
    """An answer other than the engine's (None: a pay question with a single choice has none)."""
    if q.kind == "win":
        return {"answer": "no" if right["answer"] == "win" else "win"}
    if q.kind == "waits":
        if right["answer"] == "none":
            return {"answer": "tiles", "tile": ["1s"]}
        return {"answer": "tiles", "tile": right["tile"][1:]}  # one wait missed (or none tapped)
    others = [str(n) for n in range(len(q.choices)) if str(n) != right["answer"]]
    return {"answer": others[0]} if others else None


@pytest.mark.parametrize("block", range(4))
def test_two_hundred_questions_are_graded_by_the_engines_answer(client, block):
    for seed in range(block * PLAYED // 4, (block + 1) * PLAYED // 4):
        q = question(Spec(seed))
        right = engine_answer(q)
        assert graded(trainer(client, seed=seed, **right)) == "true", (seed, q.kind, q.request, right)
        wrong = another_answer(q, right)
        if wrong is not None:
            assert graded(trainer(client, seed=seed, **wrong)) == "false", (seed, q.kind, q.request, wrong)


def verdicts_seen(specs) -> Counter:
    seen = Counter()
    for spec in specs:
        q = question(spec)
        verdict = q.answer["win"] if q.kind != "waits" else bool(q.answer["waits"])
        seen[(q.game, q.kind, verdict)] += 1
    return seen


def test_a_seed_alone_deals_every_served_game_every_kind_and_both_verdicts():
    seen = verdicts_seen(Spec(seed) for seed in range(PLAYED))
    assert {game for game, _, _ in seen} == set(SERVED)  # never a game only the tests register
    for game in SERVED:
        assert seen[(game, "win", True)] and seen[(game, "win", False)]
        assert seen[(game, "waits", True)] and seen[(game, "waits", False)]
        assert seen[(game, "pay", True)]


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_game_deals_every_kind_and_both_verdicts(game):
    seen = verdicts_seen(Spec(seed, game) for seed in range(PLAYED // 2))
    assert seen[(game, "win", True)] and seen[(game, "win", False)]
    assert seen[(game, "waits", True)] and seen[(game, "waits", False)]
    assert seen[(game, "pay", True)]


def test_a_link_deals_the_same_question_every_time():
    for seed in (0, 7, 123456, MAX_SEED):
        first, second = question(Spec(seed)), question(Spec(seed))
        assert (first.game, first.kind, first.request) == (second.game, second.kind, second.request)
        assert first.choices == second.choices


def test_a_questions_own_link_names_its_game_and_kind_and_deals_it_again():
    for spec in [Spec(seed) for seed in range(40)] + [Spec(7, kind="pay"), Spec(8, game=SERVED[-1])]:
        q = question(spec)
        assert (q.link.game, q.link.kind) == (q.game, q.kind)
        again = question(q.link)
        assert (again.game, again.kind, again.request, again.choices) == (q.game, q.kind, q.request, q.choices)
        assert again.id == q.id


def test_a_focused_questions_own_link_keeps_the_focus_and_deals_it_again():
    focus = f"{SERVED[0]}:{examples(SERVED[0])['trainer']['focus'][0]}"
    q = question(Spec(3, focus=focus))
    assert q.link == Spec(3, SERVED[0], None, focus)
    assert question(q.link).request == q.request


def test_registering_a_game_changes_no_seed_link(monkeypatch):
    """A seed alone picks among the served games: with only them registered, the first 40 seeds deal the same."""
    now = [question(Spec(seed)) for seed in range(1, 41)]
    for game in set(RULESETS) - set(SERVED):
        monkeypatch.delitem(RULESETS, game)
    served_only = [question(Spec(seed)) for seed in range(1, 41)]
    assert [(q.game, q.kind, q.request) for q in served_only] == [(q.game, q.kind, q.request) for q in now]


def test_the_game_and_kind_of_a_link_are_kept():
    for game in RULESETS:
        for kind in KINDS:
            q = question(Spec(99, game, kind))
            assert (q.game, q.kind, q.request["ruleset"]) == (game, kind, game)


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_a_focus_pattern_is_dealt_when_the_deal_can_make_it(game):
    for code in examples(game)["trainer"]["focus"]:
        focus = f"{game}:{code}"
        for seed in range(5):
            assert focus in question(Spec(seed, focus=focus)).topics, (focus, seed)


def test_every_other_pay_choice_is_the_engines_nets_in_the_situation_it_names():
    checked = 0
    for seed in range(60):
        q = question(Spec(seed, kind="pay"))
        for choice in q.choices:
            situation = choice.situation
            if situation.change in ("", "house"):
                request = q.request
                if situation.change == "house":
                    options = {**request["options"], "house": {situation.name: situation.value}}
                    request = {**request, "options": options}
            elif situation.change == "option":
                request = {**q.request, "options": {**q.request["options"], situation.name: situation.value}}
            else:
                request = {**q.request, situation.change: situation.value}
            assert score(request)["net"] == dict(choice.net), (seed, situation)
            checked += 1
    assert checked > 150


def test_the_right_pay_choice_is_the_only_one_without_a_situation():
    q = question(Spec(3, "bazhi", "pay"))
    assert [c.situation for c in q.choices].count(Situation()) == 1


def test_a_link_without_a_seed_is_sent_on_to_a_fresh_question(client):
    response = client.get(reverse("trainer"), {"game": "xinyu"})
    assert response.status_code == 302
    assert re.fullmatch(r"/trainer/\?seed=\d+&game=xinyu", response["Location"])


@pytest.mark.parametrize(
    "query, clean",
    [
        ({"seed": "12", "game": "mahjong"}, "seed=12"),
        ({"seed": "12", "kind": "guess"}, "seed=12"),
        ({"seed": "12", "game": "bazhi", "focus": "xinyu:qidui"}, "seed=12&game=bazhi"),
        ({"seed": "012"}, "seed=12"),
    ],
)
def test_a_part_of_the_link_that_is_not_understood_is_dropped(client, query, clean):
    response = client.get(reverse("trainer"), query)
    assert response.status_code == 302
    assert response["Location"] == f"/trainer/?{clean}"


def test_an_answer_the_question_does_not_take_shows_it_unanswered(client):
    q = question(Spec(5))
    html = trainer(client, seed=5, answer="maybe")
    assert graded(html) is None
    assert f'data-kind="{q.kind}"' in html


def test_an_answered_question_links_its_patterns_to_the_rules_page(client):
    seed = next(s for s in range(100) if question(Spec(s, "xinyu", "pay")).topics)
    q = question(Spec(seed, "xinyu", "pay"))
    html = trainer(client, seed=seed, game="xinyu", kind="pay", **engine_answer(q))
    rules = trainer_rules(client)
    for topic in q.topics:
        code = topic.partition(":")[2]
        assert f'href="/rules/#pattern-xinyu-{code}" data-topic="{topic}"' in html
        assert f'id="pattern-xinyu-{code}"' in rules


def trainer_rules(client) -> str:
    return client.get(reverse("rules")).content.decode()


def test_the_explanation_is_the_calculators_result_card_and_links_to_it(client):
    q = question(Spec(1, "bazhi", "waits"))
    html = trainer(client, seed=1, game="bazhi", kind="waits", **engine_answer(q))
    assert 'id="trainer-explain"' in html
    assert "data-waits=" in html
    assert 'href="/?ruleset=bazhi' in html  # "open in the calculator", and each wait's full result


def test_the_page_is_in_chinese_by_default_and_in_english_on_request(client):
    assert "这手牌胡了吗？" in trainer(client, seed=2, kind="win")
    client.cookies["django_language"] = "en"
    assert "Is this a win?" in trainer(client, seed=2, kind="win")
