"""What the trainer page shows, as plain data: a question (questions.py) and, once answered, its grade and the
engine's full answer as the calculator's result card (presentation/cards.py). Texts already translated; no
markup."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import NamedTuple
from urllib.parse import urlencode

from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import in_play_order
from calculator.engine.tiles import ALL_TILES
from calculator.presentation.cards import ResultCard, result_card
from calculator.presentation.claims.fields import claims_query
from calculator.presentation.entered import EnteredHand, entered_hand
from calculator.presentation.handquery import HandInput, query_string
from calculator.presentation.locale import Locale
from calculator.presentation.tiles import TileView, short_name, tile_view
from calculator.presentation.trainer.claims import claims_input
from calculator.presentation.trainer.questions import (
    ALL_LEVELS,
    LEVELS,
    Choice,
    Grade,
    Question,
    Situation,
    Spec,
    right_answer,
)
from calculator.presentation.words import gettext_noop, seat_labels, sign_class, signed


@dataclass(slots=True)
class Fact:
    """One line of the question's situation: a label and its value (text, or a tile picture)."""

    label: str
    text: str = ""
    tile: TileView | None = None


@dataclass(slots=True)
class Key:
    """A tile of the waits question's keyboard; once graded, `state` is "hit", "missed", "extra" or ""."""

    tile: TileView
    checked: bool
    state: str = ""


class Net(NamedTuple):
    """A seat's net in a table of nets: its label, the signed text, plus / minus / zero."""

    label: str
    text: str
    sign: str


@dataclass(slots=True)
class ChoiceView:
    """One table of nets to pick; once graded, whether it is the engine's, whether it was picked, and the
    situation the other tables would be right in."""

    number: str
    nets: list[Net]
    right: bool = False
    picked: bool = False
    situation: str = ""


@dataclass(slots=True)
class Claimant:
    """A claim of a "claims" question: its seat (the answer to tap), its hand; once graded, whether it takes the
    discard and whether it was tapped."""

    seat: str
    label: str
    hand: EnteredHand
    right: bool = False
    picked: bool = False


@dataclass(slots=True)
class Link:
    """A link of the page: a filter of the questions (`current` when it is the one chosen), or a pattern of the
    answer on the rules page (`code`: "<game>:<pattern>")."""

    label: str
    href: str
    current: bool = False
    code: str = ""


@dataclass(slots=True)
class TrainerPage:
    question_id: str
    game: str
    game_title: str
    kind: str
    prompt: str
    hint: str
    facts: list[Fact]
    hand: EnteredHand
    question_query: str  # the question's own link: its seed, game and kind (it deals this question again)
    spec: dict[str, str]  # the spec as the form's hidden fields (the learner's filters kept: answers go to it)
    next_query: str
    games: list[Link]
    levels: list[Link]
    level: str  # the level chosen in the link ("" when none is)
    review: str  # the patterns under review once this question is answered (practice.py), as the link writes it
    keys: list[Key] = field(default_factory=list)
    choices: list[ChoiceView] = field(default_factory=list)
    claimants: list[Claimant] = field(default_factory=list)  # a "claims" question: each claim, its seat to tap
    graded: bool = False
    correct: bool = False
    given: str = ""  # the answer chosen
    right: str = ""  # the engine's (the choice a win / not-a-win question should get)
    verdict: str = ""
    right_text: str = ""
    draws_text: str = ""  # not ready: the tiles that help
    result: ResultCard | None = None  # the engine's answer as the calculator's result card, once graded
    claims_query: str = ""  # a "claims" question: its claims as the page of who takes the discard shows them
    topics: list[Link] = field(default_factory=list)
    calculator_query: str = ""


PROMPTS = {  # a kind of question: its prompt and its hint (translated where shown)
    "win": (gettext_noop("Is this a win?"), gettext_noop("Tap Win or Not a win.")),
    "waits": (
        gettext_noop("Which tiles does it wait on?"),
        gettext_noop("Tap every tile that would win, then Check. If none would, tap Not ready."),
    ),
    "pay": (
        gettext_noop("How much does each seat win or pay?"),
        gettext_noop("Tap the right table of nets (+ wins, − pays)."),
    ),
    "claims": (
        gettext_noop("Who takes this discard?"),
        gettext_noop(
            "Several players claim the discarded tile, each with the hand shown above: tap the seat that takes it."
        ),
    ),
}
LEVEL_WORDS = {
    ALL_LEVELS: gettext_noop("All levels"),
    "1": gettext_noop("1 · Win or not"),
    "2": gettext_noop("2 · Waits"),
    "3": gettext_noop("3 · Who pays, house rules"),
    "4": gettext_noop("4 · Who takes the discard"),
}


def level_label(level: str, locale: Locale) -> str:
    return locale.gettext(LEVEL_WORDS[level])


def trainer_page(q: Question, graded: Grade | None, locale: Locale) -> TrainerPage:
    """The page of a question, answered (`graded`) or not."""
    _, lang = locale.gettext, locale.lang
    ruleset = RULESETS[q.game]
    prompt, hint = PROMPTS[q.kind]
    page = TrainerPage(
        question_id=q.id,
        game=q.game,
        game_title=ruleset.title(lang),
        kind=q.kind,
        prompt=_(prompt),
        hint=_(hint),
        facts=situation_facts(q, locale),
        hand=entered_hand(q.request, locale),
        question_query=urlencode(q.link.query()),
        spec=q.spec.query(),
        next_query="",
        games=game_filters(q.spec, locale),
        levels=level_filters(q.spec, locale),
        level=q.spec.level or "",
        review=q.spec.review.text(),
    )
    right = right_answer(q)
    given = graded.submission if graded else None
    if q.kind == "waits":
        page.keys = keys(
            q, given.tiles if given and given.choice == "tiles" else frozenset(), right.tiles, graded, locale
        )
    if q.kind == "pay":
        page.choices = [choice_view(q.game, n, c, given, graded, locale) for n, c in enumerate(q.choices)]
    if q.kind == "claims":
        page.claimants = claimants(q, given, graded, locale)
    if graded:
        page.graded, page.correct, page.given = True, graded.correct, graded.submission.choice
        page.right = right.choice
        page.verdict = _("Right!") if graded.correct else _("Not quite.")
        page.right_text = right_text(q, locale)
        page.draws_text = draws_text(q, locale)
        page.topics = topics(q, lang, locale.page("rules"))
        if q.kind == "claims":  # explained by the page of who takes the discard (its answer: trainer/render.py)
            page.claims_query = claims_query(claims_input(q.request))
        else:
            hand = HandInput(q.request, {})  # no names: the seats' words
            page.result = result_card(hand, q.answer, locale)
            page.calculator_query = query_string(hand)
        review = q.spec.review.after(q.topics, graded.correct, q.spec.focus, Random(f"gap:{q.spec.seed}"))
        page.review = review.text()
        page.next_query = urlencode(q.spec.next(review).query())
    return page


def situation_facts(q: Question, locale: Locale) -> list[Fact]:
    """The game's options, the seats (not for waits: they do not change them) and the special wins; for a
    "claims" question the discard (its tile, the discarder) and the dealer."""
    _, lang = locale.gettext, locale.lang
    ruleset = RULESETS[q.game]
    if q.kind == "claims":
        return claims_facts(q, locale)
    request = q.request
    options = q.answer["request"]["options"]  # the engine's echo: defaults filled in, the 财神 of an indicator
    facts = [Fact(_("Game"), ruleset.title(lang)), *option_facts(ruleset, options, locale)]
    card = options.get("house") or {}
    for rule in ruleset.scoring_house:  # the house rules this question reads another way than the default
        if rule.id in card and card[rule.id] != rule.default:
            facts.append(Fact(rule.label(lang), rule.choice(card[rule.id]).label(lang)))
    if q.kind != "waits":
        seats = seat_labels(lang)
        facts.append(Fact(_("Winner"), seats[request["winner"]]))
        facts.append(Fact(_("Dealer"), seats[request["dealer"]]))
        discarder = request["discarder"]
        facts.append(Fact(_("Discarder"), seats[discarder] if discarder else _("none: a self-draw")))
        for flag in request["flags"]:
            facts.append(Fact(_("Special win"), ruleset.flag_by_id[flag].label(lang)))
    return facts


def option_facts(ruleset, options: dict, locale: Locale) -> list[Fact]:
    """The game's options of a question, each a fact (a wild tile as its picture)."""
    _, lang = locale.gettext, locale.lang
    facts = []
    for option in ruleset.options:
        value = options.get(option.id)
        if value is None or (option.kind == "choice" and len(option.choices) == 1):
            continue  # not there, or no choice (xinyu's players: four only)
        if option.kind == "tile":
            facts.append(Fact(option.label(lang), tile=tile_view(value, locale)))
        elif option.kind == "bool":
            facts.append(Fact(option.label(lang), _("yes") if value else _("no")))
        else:
            facts.append(Fact(option.label(lang), option_value(option, value, lang)))
    return facts


def claims_facts(q: Question, locale: Locale) -> list[Fact]:
    """A "claims" question's situation: the game and its card, the discarded tile, who discarded it, the dealer."""
    _, lang = locale.gettext, locale.lang
    ruleset = RULESETS[q.game]
    first = q.request["claims"][0]
    seats = seat_labels(lang)
    return [
        Fact(_("Game"), ruleset.title(lang)),
        *option_facts(ruleset, first["options"], locale),
        Fact(_("The discarded tile"), tile=tile_view(q.request["tile"], locale)),
        Fact(_("Discarder"), seats[q.request["discarder"]]),
        Fact(_("Dealer"), seats[first["dealer"]]),
    ]


def claimants(q: Question, given, graded: Grade | None, locale: Locale) -> list[Claimant]:
    """The claims of a "claims" question in play order after the discarder (as the engine lists them): each
    claimant's seat and hand; once graded, the one that takes the discard and the one tapped."""
    seats = seat_labels(locale.lang)
    requests = {claim["winner"]: claim for claim in q.request["claims"]}
    out = []
    for entry in q.answer["claims"]:
        seat = entry["seat"]
        hand = entered_hand({"ruleset": q.game, **requests[seat]}, locale)
        view = Claimant(seat, seats[seat], hand)
        if graded:
            view.right, view.picked = entry["takes_discard"], given is not None and given.choice == seat
        out.append(view)
    return out


def option_value(option, value: object, lang: str) -> str:
    for choice in option.choices:
        if choice.value == value:
            return choice.label(lang)
    return str(value)


def keys(q: Question, given: frozenset[str], right: frozenset[str], graded: Grade | None, locale: Locale) -> list[Key]:
    """The game's tiles to tap, each marked once graded: a wait tapped (hit), missed, or tapped wrongly (extra)."""
    out = []
    for index in sorted(RULESETS[q.game].kinds):
        n = ALL_TILES[index].notation
        state = ""
        if graded:
            state = {(True, True): "hit", (False, True): "missed", (True, False): "extra"}.get(
                (n in given, n in right), ""
            )
        out.append(Key(tile_view(n, locale), n in given, state))
    return out


def nets_of(net: dict[str, int], lang: str) -> list[Net]:
    """A table of nets: the answer's seats (the table's), in play order."""
    seats = seat_labels(lang)
    return [Net(seats[s], signed(net[s]), sign_class(net[s])) for s in in_play_order(net)]


def choice_view(game: str, number: int, choice: Choice, given, graded: Grade | None, locale: Locale) -> ChoiceView:
    view = ChoiceView(str(number), nets_of(choice.net, locale.lang))
    if graded:
        view.right = not choice.situation.change
        view.picked = given is not None and given.choice == str(number)
        view.situation = "" if view.right else situation_text(game, choice.situation, locale)
    return view


def situation_text(game: str, situation: Situation, locale: Locale) -> str:
    """What a wrong table of nets would be right for."""
    _, lang = locale.gettext, locale.lang
    seats = seat_labels(lang)
    change, value = situation.change, situation.value
    if change == "dealer":
        return _("Right if %(seat)s were the dealer") % {"seat": seats[value]}
    if change == "discarder":
        if value is None:
            return _("Right on a self-draw")
        return _("Right on a discard by %(seat)s") % {"seat": seats[value]}
    ruleset = RULESETS[game]
    if change == "house":
        rule = ruleset.house_by_id[situation.name]
        return _("Right under the house rule %(rule)s: %(value)s") % {
            "rule": rule.label(lang),
            "value": rule.choice(value).label(lang),
        }
    option = next(o for o in ruleset.options if o.id == situation.name)
    return _("Right with %(option)s %(value)s") % {
        "option": option.label(lang),
        "value": option_value(option, value, lang),
    }


def right_text(q: Question, locale: Locale) -> str:
    """The engine's answer in one line."""
    _ = locale.gettext
    if q.kind == "claims":
        return _("The engine says: %(reason)s.") % {"reason": q.answer["reason"]}
    if q.kind == "win":
        return _("The engine says: a win.") if q.answer["win"] else _("The engine says: not a win.")
    if q.kind == "waits":
        tiles = [w["tile"] for w in q.answer["waits"]]
        if not tiles:
            return _("The engine says: not ready, no tile wins.")
        names = locale.pgettext("between the items of a list", ", ").join(tile_view(t, locale).name for t in tiles)
        return _("The engine says: it waits on %(tiles)s.") % {"tiles": names}
    return _("The engine's nets are marked below.")


SHOWN_DRAWS = 6  # the verdict names at most this many of the tiles that help (the card below lists them all)


def draws_text(q: Question, locale: Locale) -> str:
    """A hand not ready: the tiles that help (the engine's `draws`), in one line under the verdict."""
    draws = q.answer.get("draws") or []
    if not draws:
        return ""
    shown = locale.pgettext("between the items of a list", ", ").join(
        f"{short_name(d['tile'], locale)} ×{d['left']}" for d in draws[:SHOWN_DRAWS]
    )
    if len(draws) > SHOWN_DRAWS:
        shown += " …"
    total = q.answer["draws_left"]
    return locale.ngettext(
        "Tiles that help: %(tiles)s, %(counter)s in all.", "Tiles that help: %(tiles)s, %(counter)s in all.", total
    ) % {"tiles": shown, "counter": total}


def topics(q: Question, lang: str, rules_path: str) -> list[Link]:
    """The patterns the answer names, each linked to its entry on the rules page."""
    ruleset = RULESETS[q.game]
    out = []
    for topic in q.topics:
        code = topic.partition(":")[2]
        name = ruleset.pattern_by_code[code].name(lang)
        out.append(Link(name, f"{rules_path}#pattern-{q.game}-{code}", code=topic))
    return out


def filter_link(label: str, spec: Spec, current: bool) -> Link:
    return Link(label, "?" + urlencode(spec.query()), current)


def game_filters(spec: Spec, locale: Locale) -> list[Link]:
    """A new question of either game, or of one (the level or kind and the review kept)."""
    _, lang = locale.gettext, locale.lang
    out = [filter_link(_("Both games"), spec.next(game=None), spec.game is None)]
    for game, ruleset in RULESETS.items():
        out.append(filter_link(ruleset.title(lang), spec.next(game=game), spec.game == game))
    return out


def level_filters(spec: Spec, locale: Locale) -> list[Link]:
    """A new question of every level, or of one (the game and the review kept)."""
    current = spec.level or (ALL_LEVELS if not spec.kind else "")
    return [
        filter_link(level_label(level, locale), spec.next(kind=None, level=level), current == level)
        for level in LEVEL_CHOICES
    ]


LEVEL_CHOICES = (ALL_LEVELS, *LEVELS)


def topic_names(locale: Locale) -> dict[str, str]:
    """Every pattern a question can name, "<game>:<code>" → its name and game (for the browser's list of what to
    practise)."""
    _, lang = locale.gettext, locale.lang
    return {
        f"{game}:{code}": _("%(pattern)s (%(game)s)") % {"pattern": pattern.name(lang), "game": ruleset.title(lang)}
        for game, ruleset in RULESETS.items()
        for code, pattern in ruleset.pattern_by_code.items()
    }
