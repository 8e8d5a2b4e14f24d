"""The trainer's questions (issue 13 §3): each one a random hand dealt by a game's `deal` and answered by the
engine, never by a key written here.

A question is a `Spec` (a seed, and optionally the game, the kind of question and a focus pattern) and nothing
else: the same spec always makes the same question, so a question's URL shares it, and grading an answer deals
it again. Three kinds:
- "win": a 14-tile hand, a win or not (half of them with one tile changed: near misses);
- "waits": a 13-tile hand; its waits, or none;
- "pay": a win with seats, dealer and discarder; which of up to four tables of nets is the right one. The others
  are the engine's nets for the same hand in another situation (another dealer, a discard instead of a self-draw,
  another option or house rule), each named, so the explanation can say what each wrong choice would mean.
- "claims": two or three players claim one discard; which seat takes it (claims.py: the engine's claims decide).
With a focus ("<game>:<pattern code>") the deal is repeated until the engine's answer names that pattern (at most
`ATTEMPTS` deals), which is how the patterns a learner gets wrong come back (practice.py spaces them out: the
patterns under review that are not due yet are dealt around in the same way).
Four levels (issue 21 §9, issue 29) fix the kind: 1 win or not, 2 waits, 3 who pays under a rule card with house
rules dealt at random, on a hand where one of them changes the nets, 4 who takes a discard several players claim.
A question is dealt at a table of the game's default size, or now and then (`OTHER_TABLES`) at another size the
game plays (bazhi's table of three, RULES.md §1.8): its seats, nets and waits are that table's.
Plain Python over the engine: the trainer page (views.py, presenter.py) shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from random import Random

from calculator.engine import score
from calculator.engine.deal import change_one
from calculator.engine.rulesets import RULESETS, SERVED
from calculator.engine.seats import Seats, seats_of
from calculator.presentation.handquery import Query
from calculator.presentation.trainer.claims import deal_claims
from calculator.presentation.trainer.practice import Review

KINDS = ("win", "waits", "pay", "claims")
# The kinds a seed draws among, as it did before "claims" (issue 29): a seed deals the hand it dealt before, unless
# its own stream makes it a claims question (CLAIMS_SHARE of the questions whose kind is not fixed).
DRAWN_KINDS = KINDS[:3]
CLAIMS_SHARE = 0.2
LEVELS = {"1": "win", "2": "waits", "3": "pay", "4": "claims"}  # a level's kind; "all": any kind, as without a level
ALL_LEVELS = "all"
HOUSE_LEVEL = "3"  # the level whose questions are dealt under house rules
HOUSE_SHARE = 0.5  # at that level, the share of a game's scoring house rules dealt at another value
MAX_SEED = 2**31 - 1
ATTEMPTS = 30  # deals tried for a focus pattern before the first deal is taken instead
CHANGED_WIN = 0.45  # the share of "win" questions with one tile changed
CHANGED_WAITS = 0.3  # the share of "waits" questions with one tile changed
MOST_WAITS = 9  # a "waits" question asks for at most this many tiles (a hand with more is dealt again)
CHOICES = 4
OTHER_TABLES = 0.25  # the share of questions dealt at a table of another size than the game's default, if it has one


@dataclass(frozen=True, slots=True)
class Spec:
    """What makes a question: its seed, and the game, kind and focus pattern when they are fixed."""

    seed: int
    game: str | None = None
    kind: str | None = None
    focus: str | None = None  # "<game>:<code>", a pattern the learner got wrong
    level: str | None = None  # "1" "2" "3" or "all" (None: not chosen in the link)
    review: Review = Review()  # the patterns under review (practice.py)

    @property
    def asks(self) -> str | None:
        """The kind of question the spec fixes: its kind, or its level's."""
        return self.kind or LEVELS.get(self.level or "")

    def next(self, review: Review | None = None, **filters) -> Spec:
        """The next question: another seed, the review after this one (`review`; unchanged if None), the same
        filters but those given (`game`, `kind`, `level`), focused on the pattern under review that is due."""
        review = self.review if review is None else review
        moved = replace(self, seed=Random(f"next:{self.seed}").randrange(MAX_SEED), review=review, **filters)
        return replace(moved, focus=review.due(moved.game))

    def query(self) -> dict[str, str]:
        """The spec as query parameters (the question's link)."""
        fields = {
            "seed": str(self.seed),
            "game": self.game,
            "kind": self.kind,
            "level": self.level,
            "focus": self.focus,
            "review": self.review.text(),
        }
        return {key: value for key, value in fields.items() if value}


@dataclass(frozen=True, slots=True)
class Situation:
    """What a pay choice stands for: the question's own situation (`change` empty), or the same hand with one
    thing changed: "dealer", "discarder" (None: a self-draw), an `option` or a `house` rule, to `value`."""

    change: str = ""
    name: str = ""
    value: object = None


@dataclass(frozen=True, slots=True)
class Choice:
    net: Mapping[str, int]
    situation: Situation


@dataclass(slots=True)
class Question:
    spec: Spec
    game: str
    kind: str
    request: dict  # what the learner is shown: an API.md request (a "claims" question: an /api/priority body)
    answer: dict  # the engine's answer to it (its score, or who takes the discard)
    choices: list[Choice] = field(default_factory=list)  # "pay" only
    topics: tuple[str, ...] = ()  # "<game>:<code>": the patterns the answer names

    @property
    def link(self) -> Spec:
        """The question's own link: its spec with the game and the kind it was dealt named, so that the link deals
        it again whatever games are served or registered (with a focus, each deal draws its kind afresh: the kind
        stays as the spec had it)."""
        return replace(self.spec, game=self.game, kind=self.spec.kind if self.spec.focus else self.kind)

    @property
    def id(self) -> str:
        """One question's name (its own link), for the browser's count of what was answered."""
        return "-".join(self.link.query().values())


@dataclass(frozen=True, slots=True)
class Submission:
    """An answer as the form sends it: `choice` ("win" / "no"; "tiles" / "none"; a pay choice's number) and the
    tiles tapped for a waits question."""

    choice: str
    tiles: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Grade:
    correct: bool
    submission: Submission


# --------------------------------------------------------------------------------------- reading a link


def read_spec(query: Query, new_seed: Callable[[], int]) -> tuple[Spec, bool]:
    """The spec of a trainer link, and whether the link said it exactly so. False: a part was not understood
    (it is dropped) or the seed is missing (`new_seed()` gives one); the view sends the browser to the clean link."""
    game = query.get("game") or None
    kind = query.get("kind") or None
    level = query.get("level") or None
    focus = query.get("focus") or None
    clean = True
    if game not in (None, *RULESETS):
        game, clean = None, False
    if level not in (None, ALL_LEVELS, *LEVELS):
        level, clean = None, False
    if kind not in (None, *KINDS) or (kind and level):  # a level decides the kind
        kind, clean = None, False
    if focus is not None and not is_topic(focus, game):
        focus, clean = None, False
    review = Review.parse(query.get("review") or "", lambda topic: is_topic(topic, None))
    if review is None:
        review, clean = Review(), False
    seed_text = query.get("seed") or ""
    if seed_text.isascii() and seed_text.isdigit() and int(seed_text) <= MAX_SEED:
        seed = int(seed_text)
        clean = clean and seed_text == str(seed)
    else:
        seed, clean = new_seed(), False
    return Spec(seed, game, kind, focus, level, review), clean


def is_topic(focus: str, game: str | None) -> bool:
    """ "<game>:<code>" of a declared pattern, in the chosen game if one is chosen."""
    topic_game, _, code = focus.partition(":")
    ruleset = RULESETS.get(topic_game)
    return ruleset is not None and code in ruleset.pattern_by_code and game in (None, topic_game)


def read_submission(q: Question, query: Query) -> Submission | None:
    """The answer a link sends, if this kind of question takes it (else the question is shown unanswered)."""
    choice = query.get("answer") or ""
    if q.kind == "win" and choice in ("win", "no"):
        return Submission(choice)
    if q.kind == "waits" and choice in ("tiles", "none"):
        return Submission(choice, frozenset(query.getlist("tile")) if choice == "tiles" else frozenset())
    if q.kind == "pay" and choice in {str(n) for n in range(len(q.choices))}:
        return Submission(choice)
    if q.kind == "claims" and choice in {claim["winner"] for claim in q.request["claims"]}:
        return Submission(choice)
    return None


# --------------------------------------------------------------------------------------- making a question


def question(spec: Spec, lang: str = "zh") -> Question:
    """The question of a spec: the game and kind drawn from the seed unless fixed, then deals until one makes a
    question that names the focus pattern, if any, and none of the patterns under review that are resting (at
    most `ATTEMPTS` deals, then the first question made with the focus pattern, else the first one). With a focus
    each deal draws its kind afresh, as some patterns come up in one kind of question only (不够八支 never in a
    pay question). The engine's answer is in `lang`, the page's language (it explains the question); the
    question itself is the same in every language.

    A seed alone picks among the games the deployment serves (never a game only the tests register). The game
    (unless a focus names it) and the kind are drawn even when the spec fixes them, so that a question's own
    link, which names both (`Question.link`), deals the question its seed alone deals."""
    rng = Random(spec.seed)
    focus_game = spec.focus.partition(":")[0] if spec.focus else None
    drawn_game = None if focus_game else rng.choice(sorted(SERVED))
    drawn_kind = rng.choice(DRAWN_KINDS)
    if Random(f"claims:{spec.seed}").random() < CLAIMS_SHARE:
        drawn_kind = "claims"
    game = spec.game or focus_game or drawn_game
    kind = spec.asks or drawn_kind
    resting = spec.review.resting() - {spec.focus}
    first = focused = None
    attempts = 0
    while first is None or attempts < ATTEMPTS:
        attempts += 1
        found = candidate(rng, spec, game, kind, lang, demanding=attempts <= ATTEMPTS)
        if spec.focus and not spec.asks:
            kind = rng.choice(DRAWN_KINDS)
        if found is None:
            continue
        on_focus = not spec.focus or spec.focus in found.topics
        if on_focus and resting.isdisjoint(found.topics):
            return with_choices(rng, found)
        first = first or found
        focused = focused or (found if on_focus else None)
    return with_choices(rng, focused or first)  # the pattern asked for, even with one that comes with it


def table_of(game: str, seed: int) -> Seats:
    """The seats a question is dealt at: the game's default table, or now and then (`OTHER_TABLES`) one of the other
    sizes it plays. Drawn from a stream of the seed's own, apart from the deal: a seed deals the same hand it dealt
    before the game had another size, at that table."""
    ruleset = RULESETS[game]
    rng = Random(f"table:{seed}")
    others = ruleset.table_sizes[1:]
    if others and rng.random() < OTHER_TABLES:
        return seats_of(rng.choice(others))
    return ruleset.seats()


def with_choices(rng: Random, q: Question) -> Question:
    """A pay question with its choices (made for the question chosen only: each costs a few scores)."""
    if q.kind == "pay":
        q.choices = pay_choices(rng, q.game, q.request, q.answer, house_first=q.spec.level == HOUSE_LEVEL)
    return q


def candidate(
    rng: Random, spec: Spec, game: str, kind: str, lang: str = "zh", demanding: bool = True
) -> Question | None:
    """One deal at the question's table (`table_of`) made into a question of this kind, or None when it does not
    make one (the engine refuses it, a pay question that is no win, a waits question with too many waits; at the
    house-rules level, while `demanding`, a hand no house rule changes)."""
    ruleset = RULESETS[game]
    favour = spec.focus.partition(":")[2] if spec.focus else None
    if kind == "claims":
        claimed = deal_claims(rng, game, favour, table_of(game, spec.seed), lang)
        return (
            Question(spec, game, kind, *claimed[:2], [], tuple(f"{game}:{c}" for c in claimed[2])) if claimed else None
        )
    dealt = ruleset.deal(rng, favour, table_of(game, spec.seed))
    if spec.level == HOUSE_LEVEL:
        dealt = {**dealt, "options": {**dealt["options"], "house": house_card(rng, game)}}
    kinds = sorted(ruleset.kinds)
    if kind == "waits":
        request = {**dealt, "discarder": None, "flags": []}
        del request["win_tile"]
        if rng.random() < CHANGED_WAITS:
            request = change_one(request, rng, kinds)
    elif kind == "win" and rng.random() < CHANGED_WIN:
        request = change_one(dealt, rng, kinds)
    else:
        request = dealt
    answer = score(request, lang)
    if "error" in answer:
        return None
    if kind == "waits":
        if len(answer["waits"]) > MOST_WAITS:
            return None
        names = waits_patterns(game, answer)
    elif kind == "pay" and (not answer["win"] or (demanding and not house_rules_at_stake(spec, request))):
        return None
    else:
        names = ruleset.patterns_of(answer)
    topics = tuple(f"{game}:{code}" for code in dict.fromkeys(names))
    return Question(spec, game, kind, request, answer, [], topics)


def waits_patterns(game: str, answer: dict) -> list[str]:
    """The patterns a waits answer names: those of every way to win on each wait, or the one the hand lacks."""
    ruleset = RULESETS[game]
    names = [
        code
        for wait in answer["waits"]
        for variant in (wait["self_draw"], wait["discard"])
        if variant
        for code in ruleset.patterns_of(variant)
    ]
    if answer.get("blocked_by"):
        names += ruleset.patterns_of({"win": False, "code": answer["blocked_by"]})
    return names


def house_card(rng: Random, game: str) -> dict:
    """A rule card for the house-rules level: each scoring house rule of the game at another of its values, one
    time in two (the others at their default, left out)."""
    card = {}
    for rule in RULESETS[game].scoring_house:
        others = [choice.value for choice in rule.choices if choice.value != rule.default]
        if others and rng.random() < HOUSE_SHARE:
            card[rule.id] = rng.choice(others)
    return card


def house_rules_at_stake(spec: Spec, request: dict) -> bool:
    """At the house-rules level: does some house rule read the other way change who pays what in this hand
    (RULES.md §5.3)? Always, at the other levels."""
    if spec.level != HOUSE_LEVEL:
        return True
    return bool(score({**request, "alternatives": True}).get("alternatives"))


def pay_choices(rng: Random, game: str, request: dict, answer: dict, house_first: bool = False) -> list[Choice]:
    """The right nets and up to three others: the same hand in other situations, scored by the engine. The ones
    that keep the way of winning come first (another dealer or option, then another house rule; the house rules
    first of all with `house_first`), then another discarder or a self-draw."""
    close, far = situations(game, request)
    rng.shuffle(close)
    rng.shuffle(far)
    house = [
        (Situation("house", entry["option"], entry["value"]), entry)
        for entry in score({**request, "alternatives": True}).get("alternatives", [])
    ]
    right = Choice(answer["net"], Situation())
    choices = [right]
    for situation, changed in [*house, *close, *far] if house_first else [*close, *house, *far]:
        if len(choices) == CHOICES:
            break
        other = changed if situation.change == "house" else score(changed)
        if other.get("win") and all(other["net"] != c.net for c in choices):
            choices.append(Choice(other["net"], situation))
    rng.shuffle(choices)
    return choices


def situations(game: str, request: dict) -> tuple[list[tuple[Situation, dict]], list[tuple[Situation, dict]]]:
    """The request with one thing changed at the same table: (the same way of winning, another way of winning). An
    option that would seat another table (players) is no other situation of this hand."""
    ruleset = RULESETS[game]
    winner, dealer, discarder = request["winner"], request["dealer"], request["discarder"]
    options = request["options"]
    seats = ruleset.seats(options)
    close = [(Situation("dealer", "", s), {**request, "dealer": s}) for s in seats if s != dealer]
    for option in ruleset.options:
        if option.id not in options:
            continue
        for value in other_values(option, options[option.id]):
            changed = {**options, option.id: value}
            if ruleset.seats(changed) == seats:
                close.append((Situation("option", option.id, value), {**request, "options": changed}))
    far = [
        (Situation("discarder", "", s), {**request, "discarder": s})
        for s in (None, *seats)
        if s not in (winner, discarder)
    ]
    return close, far


def other_values(option, value: object) -> list:
    """The values near an option's value: its other choices, the other boolean, the whole numbers up to 2 away."""
    if option.kind == "choice":
        return [choice.value for choice in option.choices if choice.value != value]
    if option.kind == "bool":
        return [not value]
    if option.kind == "int" and isinstance(value, int):
        return [v for v in (value + 1, value - 1, value + 2, value - 2) if option.minimum <= v <= option.maximum]
    return []


# --------------------------------------------------------------------------------------- grading


def right_answer(q: Question) -> Submission:
    """What the engine's answer says the learner should answer."""
    if q.kind == "win":
        return Submission("win" if q.answer["win"] else "no")
    if q.kind == "waits":
        tiles = frozenset(w["tile"] for w in q.answer["waits"])
        return Submission("tiles" if tiles else "none", tiles)
    if q.kind == "claims":
        return Submission(q.answer["winner"])
    return Submission(str(next(i for i, c in enumerate(q.choices) if not c.situation.change)))


def grade(q: Question, given: Submission) -> Grade:
    right = right_answer(q)
    if q.kind == "waits":
        tiles = given.tiles if given.choice == "tiles" else frozenset()
        return Grade(tiles == right.tiles, given)
    return Grade(given.choice == right.choice, given)
