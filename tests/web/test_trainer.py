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
from calculator.engine.claims import priority
from calculator.engine.rulesets import RULESETS, SERVED
from calculator.presentation.trainer.questions import KINDS, MAX_SEED, Situation, Spec, question
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
    """The answer the page should take, read from the engine's answer to the question's hand (a claims question:
    to its claims)."""
    if q.kind == "claims":
        return {"answer": priority(q.request)["winner"]}
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
    if q.kind == "claims":
        return {"answer": next(c["winner"] for c in q.request["claims"] if c["winner"] != right["answer"])}
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


def verdict_of(q) -> bool:
    """A win or not; a hand ready or not; a discard someone takes or not."""
    if q.kind == "waits":
        return bool(q.answer["waits"])
    return bool(q.answer["winner"]) if q.kind == "claims" else q.answer["win"]


def verdicts_seen(specs) -> Counter:
    seen = Counter()
    for spec in specs:
        q = question(spec)
        verdict = verdict_of(q)
        seen[(q.game, q.kind, verdict)] += 1
    return seen


def test_a_seed_alone_deals_every_served_game_every_kind_and_both_verdicts():
    seen = verdicts_seen(Spec(seed) for seed in range(PLAYED))
    assert {game for game, _, _ in seen} == set(SERVED)  # never a game only the tests register
    for game in SERVED:
        assert seen[(game, "win", True)] and seen[(game, "win", False)]
        assert seen[(game, "waits", True)] and seen[(game, "waits", False)]
        assert seen[(game, "pay", True)]
        assert seen[(game, "claims", True)]  # who takes a discard (issue 29), now and then


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


# --------------------------------------------------------------------------- spaced practice (issue 21 §9)


def spec_of(link: str) -> Spec:
    """The spec of a trainer link (its query)."""
    from django.http import QueryDict

    from calculator.presentation.trainer.questions import read_spec

    spec, clean = read_spec(QueryDict(link.partition("?")[2]), lambda: 0)
    assert clean, link
    return spec


def next_link(html: str) -> str:
    return re.search(r'id="trainer-next" href="([^"]+)"', html).group(1).replace("&amp;", "&")


def review_of(html: str) -> dict[str, tuple[int, int]]:
    """The page's patterns under review once answered: topic -> (questions to wait, right answers in a row)."""
    text = re.search(r'data-review="([^"]*)"', html).group(1)
    found = {}
    for part in filter(None, text.split(",")):
        topic, wait, right = part.split(".")
        found[topic] = (int(wait), int(right))
    return found


def answer_query(q, correct: bool) -> dict:
    right = engine_answer(q)
    return right if correct else (another_answer(q, right) or right)


def test_two_hundred_questions_space_out_a_missed_pattern_and_retire_it_after_three_right_in_a_row(client):
    """A learner who answers a question wrong now and then, followed through 200 questions by their links: a
    missed pattern comes back after 2 to 4 other questions (never sooner; the questions between are dealt
    without it), again after each right answer, and leaves the review after three right answers in a row; a
    wrong answer starts its count again."""
    from random import Random

    from calculator.presentation.trainer.practice import MOST as MOST_UNDER_REVIEW

    rng = Random(909)
    link = "?seed=4242"
    last: dict[str, int] = {}  # topic -> the question that set its gap
    gaps, retired, incidental, resting_questions = [], 0, 0, 0
    for n in range(PLAYED):
        spec = spec_of(link)
        q = question(spec)
        before = {e.topic: (e.wait, e.right) for e in spec.review.entries}
        resting = {t for t, (wait, _) in before.items() if wait > 0 and t != spec.focus}
        resting_questions += bool(resting)
        incidental += bool(resting & set(q.topics))  # a resting pattern that came with the one asked for
        correct = not q.topics or rng.random() > 0.2
        html = trainer(client, **{**spec.query(), **answer_query(q, correct)})
        wrong = graded(html) == "false"
        after = review_of(html)
        for topic in before:
            if topic not in after and topic not in q.topics:  # the oldest, beyond what the review keeps
                assert len(after) == MOST_UNDER_REVIEW, (n, topic)
                last.pop(topic)
            elif topic in resting or (topic not in q.topics and topic != spec.focus):
                assert after[topic] == (max(0, before[topic][0] - 1), before[topic][1]), (n, topic)  # one nearer
            elif topic not in q.topics:  # asked for, but no deal made it: it waits again, its count kept
                assert 2 <= after[topic][0] <= 4 and after[topic][1] == before[topic][1], (n, topic)
                last[topic] = n
            else:  # seen when due
                gaps.append(n - last[topic] - 1)  # the other questions in between
                assert n - last[topic] - 1 >= 2, (n, topic, "came back too soon")
                if len(before) <= 3:
                    assert n - last[topic] - 1 <= 4, (n, topic, "came back too late")
                right = 0 if wrong else before[topic][1] + 1
                if right == 3:
                    assert topic not in after, (n, topic, "three right in a row and still under review")
                    retired += 1
                    last.pop(topic)
                else:
                    assert after[topic] == (after[topic][0], right) and 2 <= after[topic][0] <= 4, (n, topic)
                    last[topic] = n
        for topic in set(q.topics) - set(before):
            if wrong:
                assert after[topic][1] == 0 and 2 <= after[topic][0] <= 4  # a new miss: under review
                last[topic] = n
            else:
                assert topic not in after
        link = next_link(html)
    assert len(gaps) > 30 and retired > 5
    assert {2, 3, 4} <= set(gaps)
    assert incidental <= resting_questions // 10  # the deal keeps the resting patterns out


def test_a_missed_pattern_is_not_asked_again_at_once_but_after_two_to_four_other_questions(client):
    q = next(question(Spec(s, "xinyu", "pay")) for s in range(100) if question(Spec(s, "xinyu", "pay")).topics)
    html = trainer(client, **{**q.spec.query(), **answer_query(q, False)})
    assert graded(html) == "false"
    review = review_of(html)
    assert set(q.topics) <= set(review) and all(2 <= wait <= 4 and right == 0 for wait, right in review.values())
    follow = spec_of(next_link(html))
    assert follow.focus is None  # not at once
    assert set(q.topics).isdisjoint(question(follow).topics)  # and not by chance either


def test_a_pattern_under_review_is_asked_for_when_it_is_due():
    from calculator.presentation.trainer.practice import Entry, Review

    spec = Spec(77, "xinyu", review=Review((Entry("xinyu:qidui", 0, 1), Entry("xinyu:hunyise", 3, 0))))
    assert spec.next().focus == "xinyu:qidui"
    assert "xinyu:qidui" in question(spec.next()).topics
    assert "xinyu:hunyise" not in question(spec.next()).topics  # resting


def test_a_review_the_link_cannot_read_is_dropped(client):
    response = client.get(reverse("trainer"), {"seed": "12", "review": "xinyu:qidui.9.0"})
    assert response.status_code == 302 and response["Location"] == "/trainer/?seed=12"


# --------------------------------------------------------------------------- levels (issue 21 §9)


@pytest.mark.parametrize("level, kind", [("1", "win"), ("2", "waits"), ("3", "pay")])
def test_a_level_asks_its_kind_of_question(level, kind):
    for seed in range(6):
        q = question(Spec(seed, level=level))
        assert q.kind == kind, (level, seed)


def test_the_house_rules_level_deals_a_rule_card_that_changes_the_nets():
    for seed in range(8):
        q = question(Spec(seed, level="3"))
        card = q.request["options"].get("house") or {}
        assert card, seed  # some house rule read another way than the default
        assert score({**q.request, "alternatives": True})["alternatives"], seed
        assert any(c.situation.change == "house" for c in q.choices), seed


def test_the_house_rules_of_a_question_are_among_its_facts(client):
    q = question(Spec(3, level="3"))
    html = trainer(client, seed=3, level="3")
    ruleset = RULESETS[q.game]
    for rule_id, value in q.request["options"]["house"].items():
        rule = ruleset.house_by_id[rule_id]
        assert f"<dt>{rule.label('zh')}</dt><dd>{rule.choice(value).label('zh')}</dd>" in html


def test_the_level_is_kept_by_the_next_question_and_the_game_filters(client):
    q = question(Spec(5, level="2"))
    html = trainer(client, seed=5, level="2", **engine_answer(q))
    assert "level=2" in next_link(html)
    for href in re.findall(r'<a class="chip[^"]*" href="([^"]+)"', html):
        spec = spec_of(href.replace("&amp;", "&"))
        assert spec.level is not None
    assert 'aria-current="true">2 · 听什么</a>' in html


def test_a_level_decides_the_kind_of_a_link_that_names_both(client):
    response = client.get(reverse("trainer"), {"seed": "5", "kind": "pay", "level": "1"})
    assert response.status_code == 302 and response["Location"] == "/trainer/?seed=5&level=1"


def test_once_answered_the_verdict_comes_before_the_choices(client):
    for kind in ("win", "waits", "pay"):
        q = question(Spec(8, kind=kind))
        html = trainer(client, seed=8, kind=kind, **engine_answer(q))
        assert html.index('id="trainer-verdict"') < html.index('id="trainer-answer"'), kind


def test_a_waits_question_not_ready_names_the_tiles_that_help(client):
    seed = next(s for s in range(300) if question(Spec(s, "bazhi", "waits")).answer.get("draws"))
    q = question(Spec(seed, "bazhi", "waits"))
    html = trainer(client, seed=seed, game="bazhi", kind="waits", answer="none")
    text = re.search(r"data-draws-text>([^<]*)<", html).group(1)
    assert text.startswith("有用的牌：") and f"共 {q.answer['draws_left']} 张。" in text
    assert "data-draws=" in html  # and the result card lists every one, linked


def test_a_question_shows_who_fed_each_meld_as_its_answer_depends_on_it(client):
    """Who pays in bazhi turns on who fed the melds (包牌: three pungs from one seat, RULES.md §1.6), and a pay
    question offers the 包牌 reading among its choices: the melds were shown without their feeder, as the answer
    page showed them ("Added kong ← East"). Each fed meld shows "← seat", in the page's language."""
    q = next(
        q
        for q in (question(Spec(seed, kind="pay")) for seed in range(200))
        if any(m.get("from") for m in q.request.get("melds", []))
    )
    words = {
        "zh": {"E": "东", "S": "南", "W": "西", "N": "北"},
        "en": {"E": "East", "S": "South", "W": "West", "N": "North"},
    }
    for lang in ("zh", "en"):
        client.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
        html = trainer(client, **q.link.query())
        chips = re.findall(r'<span class="meld-chip">(.*?)</span></span>', html)
        fed = [m["from"] for m in q.request["melds"] if m.get("from")]
        shown = [re.search(r"← ([^<]+)", chip).group(1) for chip in chips if "←" in chip]
        assert shown[: len(fed)] == [words[lang][seat] for seat in fed], (chips, fed)
