"""What every ruleset is: its declarations (data) and the few functions the engine calls.

A game's package subclasses `Ruleset`, fills in the declarations, hangs on its distance to ready (`distance`)
and implements the abstract methods (the deal for learners among them); the registry (`rulesets/__init__.py`)
lists the instances. Reading options and the house card is the same for every game, so it is done here from the
declarations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import field as dataclass_field
from dataclasses import make_dataclass, replace
from functools import cached_property
from random import Random
from typing import TYPE_CHECKING, Protocol

from ..card import HouseCard
from ..errors import ScoreError
from ..flags import only_when
from ..hand import ScoreRequest, concealed_sizes
from ..notation import TILE_BY_NOTATION, InvalidNotationError, parse_tiles
from ..seats import PLAYERS, Seats, seats_of
from ..text import OR, Joined, Text, msg, pmsg
from ..tiles import ALL_TILES, NUM_KINDS, Tile
from .declarations import (
    ClaimRules,
    Declared,
    Flag,
    HouseRule,
    Note,
    Option,
    Part,
    Pattern,
    PatternGroup,
    ReadingNote,
)
from .table import TableRules

if TYPE_CHECKING:
    from ..ways import Way  # ways.py reads a ruleset's flags


class Distance(Protocol):
    """How far a hand is from ready under a game's own wins (issue 13): each game's `shanten` module."""

    def shanten(self, request: ScoreRequest) -> int | None: ...

    def blocked_by(self, request: ScoreRequest, waits: list[Tile], shanten: int | None) -> str | None: ...

    def blocked_message(self, request: ScoreRequest, blocked_by: str, shanten: int | None, lang: str) -> str: ...

    def discards(self, request: ScoreRequest) -> list[dict]: ...

    def draws(self, request: ScoreRequest) -> dict: ...

    def nearest(self, request: ScoreRequest) -> dict | None: ...


class Ruleset(ABC):
    """One game. Subclasses set the class attributes (their declarations) and implement the methods."""

    id: str
    rules_section: str  # the section of RULES.md that reads this game ("§1")
    kinds: frozenset[int]  # the tile indices that exist in this game
    allows_chow: bool
    declared: Declared  # the game's declarations.toml
    table: TableRules  # the game at a table: the ledger's rules (RULES.md §3)
    distance: Distance  # how far a hand is from ready: the game's `shanten` module (issue 13)

    # ------------------------------------------------------------------------------ the declarations

    @property
    def title(self) -> Text:
        return self.declared.title

    @property
    def summary(self) -> Text:
        """One line for the rules page."""
        return self.declared.summary

    @property
    def options(self) -> tuple[Option, ...]:
        return self.declared.options

    @property
    def flags(self) -> tuple[Flag, ...]:
        return self.declared.flags

    @property
    def house(self) -> tuple[HouseRule, ...]:
        return self.declared.house

    @property
    def pattern_groups(self) -> tuple[PatternGroup, ...]:
        return self.declared.pattern_groups

    @property
    def readings(self) -> tuple[ReadingNote, ...]:
        return self.declared.readings

    @property
    def notes(self) -> tuple[Note, ...]:
        """Paragraphs of the rules page that are no pattern (a game's shape, its table-play rules …)."""
        return self.declared.notes

    @cached_property
    def flag_ids(self) -> frozenset[str]:
        return frozenset(flag.id for flag in self.flags)

    @cached_property
    def flag_by_id(self) -> dict[str, Flag]:
        return {flag.id: flag for flag in self.flags}

    @cached_property
    def self_draw_flags(self) -> frozenset[str]:
        """The flags that need a self-draw (their conditions say so): a waits answer drops them on a discard."""
        return frozenset(flag.id for flag in self.flags if only_when(flag, discarder_present=False))

    @cached_property
    def discard_flags(self) -> frozenset[str]:
        """The flags that need a discarder: a waits answer drops them on a self-draw."""
        return frozenset(flag.id for flag in self.flags if only_when(flag, discarder_present=True))

    @cached_property
    def lacked_kinds(self) -> tuple[int, ...]:
        """The tile kinds this game has no tiles of (bazhi's six honours other than 红中; none in xinyu)."""
        return tuple(kind for kind in range(NUM_KINDS) if kind not in self.kinds)

    @cached_property
    def house_by_id(self) -> dict[str, HouseRule]:
        return {rule.id: rule for rule in self.house}

    @property
    def default_card(self) -> HouseCard:
        """Every house rule at its default (a new card each time)."""
        return HouseCard(self.defaults)

    @cached_property
    def defaults(self) -> tuple[tuple[str, object], ...]:
        """(house rule, its default value), in the game's order."""
        return tuple((rule.id, rule.default) for rule in self.house)

    @cached_property
    def table_options(self) -> tuple[Option, ...]:
        """The options a table's rule card holds (the others change from hand to hand: xinyu's 财神)."""
        return tuple(option for option in self.options if not option.per_hand)

    @cached_property
    def players_option(self) -> Option | None:
        """The option `players`: the table sizes the game plays, the first the default (docs/seats.md)."""
        return next((option for option in self.options if option.id == PLAYERS), None)

    @cached_property
    def table_sizes(self) -> tuple[int, ...]:
        """How many players the game seats at a table, the default first (RULES.md §1.8: bazhi 4 or 3)."""
        return tuple(choice.value for choice in self.players_option.choices)

    def seats(self, options: Mapping | None = None) -> Seats:
        """The seats of a card (a request's or a table's `options`, `players` left out: the default), in play
        order: what a page draws seat buttons from before there is an answer. A `players` the game does not play
        is `bad_option`."""
        return seats_of(read_option(self.players_option, (options or {}).get(PLAYERS)))

    @cached_property
    def scoring_house(self) -> tuple[HouseRule, ...]:
        """The house rules that can change a scored hand (not the ledger-only ones)."""
        return tuple(rule for rule in self.house if rule.scoring)

    # ------------------------------------------------------------------------------ reading a request's options

    @cached_property
    def options_type(self) -> type:
        """The game's options value (a request's `options`, its card included): a dataclass made once from the
        declared options, one field per option in the declared order, then `house`."""
        return options_class(self.id, self.options)

    @cached_property
    def option_keys(self) -> frozenset[str]:
        """The keys a request's `options` may have: the declared options and `house`."""
        return frozenset([*(option.id for option in self.options), "house"])

    def parse_options(self, raw: object):
        """The request's `options`, validated against the declarations, as the game's options value."""
        if raw is None:
            raw = {}
        elif type(raw) is not dict and not isinstance(raw, Mapping):  # a dict without the abstract-class check
            raise ScoreError("bad_option", msg("options must be an object"), "options")
        if not self.option_keys.issuperset(raw):
            self._unknown_option(raw)  # raises
        values = {option.id: read_option(option, raw.get(option.id)) for option in self.options}
        return self.options_type(**self.complete_options(values), house=self.read_card(raw.get("house")))

    def _unknown_option(self, raw: Mapping) -> None:
        for key in raw:
            if key not in self.option_keys:
                unknown = msg("{game} has no option {key!r}", game=self.id, title=self.title, key=key)
                raise ScoreError("bad_option", unknown, f"options.{key}" if isinstance(key, str) else "options")

    def complete_options(self, values: dict[str, object]) -> dict[str, object]:
        """A game's own rule between its options, once each is read (xinyu: the turned indicator gives the 财神):
        the values to build the options from, or `ScoreError`. By default the values as they were read."""
        return values

    def read_card(self, raw: object) -> HouseCard:
        """`options.house`: every house rule of this game, the ones not given at their default (RULES.md §5)."""
        if raw is None or raw == {}:
            return self.default_card
        if not isinstance(raw, Mapping):
            raise ScoreError("bad_option", msg("options.house must be an object"), "options.house")
        for key, value in raw.items():
            rule = self.house_by_id.get(key) if isinstance(key, str) else None
            if rule is None:
                unknown = msg("{game} has no house rule {key!r}", game=self.id, title=self.title, key=key)
                raise ScoreError(
                    "bad_option", unknown, f"options.house.{key}" if isinstance(key, str) else "options.house"
                )
            if not rule.allows(value):
                allowed = " / ".join(_json(choice.value) for choice in rule.choices)
                refused = msg(
                    "house rule {key} must be {allowed}, got {value}", key=key, allowed=allowed, value=_json(value)
                )
                raise ScoreError("bad_option", refused, f"options.house.{key}")
        return HouseCard([(rule.id, raw.get(rule.id, rule.default)) for rule in self.house])

    # ------------------------------------------------------------------------------ the game's own

    @abstractmethod
    def check_meld(self, tiles: tuple[Tile, ...], options, number: int, field: str) -> None:
        """A game's own rule about one meld's tiles (xinyu: no 财神 in a meld): raise `ScoreError`."""

    @abstractmethod
    def is_win(self, request: ScoreRequest) -> bool: ...

    @abstractmethod
    def waits_of(self, request: ScoreRequest) -> list[int]:
        """The kinds that win a 13-tile request, by self-draw or by discard."""

    @abstractmethod
    def evaluate(self, request: ScoreRequest, lang: str = "zh", brief: bool = False) -> dict:
        """The answer for a 14-tile request: a scored win or a not-a-win answer (API.md)."""

    def waiting(self, request: ScoreRequest, ways: tuple[Way, ...]) -> object:
        """What every wait of the 13-tile `request`, won in each of `ways`, shares: worked out once per waits
        answer and handed to `evaluate_ways` with each wait. None by default: a game that works out nothing
        ahead."""
        return None

    def evaluate_ways(
        self, request: ScoreRequest, tile: Tile, ways: list[Way], lang: str = "zh", waiting: object = None
    ) -> list[dict]:
        """The brief answers of the 13-tile `request` won on `tile` in each of `ways` (a wait of a waits answer,
        by self-draw and by a discard: the same tiles, another discarder and flags); `waiting` is what the game
        worked out of the hand ahead (`waiting`). By default each way is evaluated alone; a game may work out
        once what the ways share."""
        return [self.evaluate(request.with_win(tile, way.discarder, way.flags), lang, brief=True) for way in ways]

    @abstractmethod
    def deal(self, rng: Random, favour: str | None = None, seats: Seats | None = None) -> dict:
        """A random hand for learners (issue 13 §3): a request meant to be a win, more often in a shape that makes
        the pattern `favour` (a code of the game's patterns, or None), at a table of `seats` (one of the sizes the
        game plays; None: its default table), its option `players` saying so. The trainer asks the engine what it
        is."""

    @abstractmethod
    def patterns_of(self, answer: dict) -> tuple[str, ...]:
        """The codes of the declared patterns (the rules page's `data-pattern`) an answer of `evaluate` names: for a
        win the patterns it scores, for a not-a-win the pattern it misses, if any. For learners: the names on a
        wait line, the topics of a trainer question."""

    @cached_property
    def pattern_by_code(self) -> dict[str, Pattern]:
        """Every declared pattern by its code (the first one of a code, if groups repeat it)."""
        found: dict[str, Pattern] = {}
        for group in self.pattern_groups:
            for pattern in group.patterns:
                found.setdefault(pattern.code, pattern)
        return found

    # ------------------------------------------------------------------------------ showing an answer (the card)
    # What the result card needs to show any game's answer without reading one game's fields: the web layer calls
    # these and nothing else of an answer's game-specific keys.

    @property
    def parts(self) -> tuple[Part, ...]:
        """The parts a win's nets are split into and shown as, in order (declarations.toml `[parts]`): each seat's
        net part by part, each payment tagged with its part. None (the default): the card shows each net whole."""
        return self.declared.parts

    @abstractmethod
    def headline(self, answer: dict, lang: str) -> list[str]:
        """The numbers and units a player reads first on a scored win (an answer of `evaluate` with `win` true),
        in `lang` ("zh" / "en"), from the game's `[texts.headline]`: bazhi "5 fan per loser", "no jiao"."""

    @property
    def headline_lines(self) -> tuple[str, ...]:
        """The codes of the explanation lines whose arithmetic gives the headline's numbers (`[headline] lines`:
        xinyu's 龙 and P): how the card tells another reading of the rule card ("P 11 + 1 = 12")."""
        return self.declared.headline_lines

    def wild_kind(self, options) -> Tile | None:
        """The tile that is wild under these options (xinyu: the 财神), or None (the default) in a game without
        wild tiles: the flag conditions count it (`wild_copies`)."""
        return None

    def wild_tile(self, answer: dict) -> str | None:
        """The tile (notation) that stands in for others in this answer (xinyu: its 财神); None (the default) in a
        game without wild tiles."""
        return None

    def stands_for(self, group: dict) -> list[str]:
        """What each wild tile of one group stands for (a group of the answer's `decomposition`, or of a nearest
        win's `groups`), as notations, one per wild tile; none (the default) in a game without wild tiles."""
        return []

    # ------------------------------------------------------------------------------ several claims on one discard

    @property
    def claims(self) -> ClaimRules:
        """How several claims on one discard are settled (`[claims]`; the registry refuses a game without it)."""
        return self.declared.claims

    def claim_level(self, answer: dict) -> tuple[int, tuple[str, ...]] | None:
        """The level at which an answer of `evaluate` claims a discard, with the codes of the patterns that give it
        (RULES.md §2.5: 0 and none for an ordinary win, and for every win in a game without levels); None for an
        answer that does not win. What claims.py ranks by, and what a result card names."""
        if not answer.get("win"):
            return None
        return self.claims.level_of(self.patterns_of(answer))

    # ------------------------------------------------------------------------------ a stored row, said again

    def payment_reason(self, row: Mapping, answer: Mapping, lang: str, seat_word: Callable[[str], str]) -> str | None:
        """The reason of one payment row of `answer` (this game's engine answer), said again from the row's
        `code` in `lang`: how a table's history shows a stored row in the page's language, whatever language it
        was scored in. `seat_word` names a seat the reason mentions (a liable seat's "for West"; a table passes
        its players' names). None when the game has no such code (a table's own row: 通底, a leaving penalty)."""
        return None

    def house_rules_at_stake(self, request: ScoreRequest) -> tuple[HouseRule, ...]:
        """The scoring house rules whose other values could change this request's answer (RULES.md §5.3).

        Every scoring rule by default; a game may leave out the ones that cannot apply to the request (a rule
        about 抢杠胡 on a hand without the flag), so that `alternatives` scores only what can differ.
        """
        return self.scoring_house

    def derive(self, option_id: str, value: object) -> object:
        """The value an option with `gives` decides for the option it names (None: it decides nothing)."""
        return None

    def to_dict(self) -> dict:
        """The declarations as JSON: what the page's JavaScript reads (via `json_script`) instead of a copy. An
        option that decides another carries the whole table of what it decides (`derived`)."""
        options = []
        for option in self.options:
            body = option.to_dict()
            if option.gives:
                body["derived"] = {
                    tile.notation: str(self.derive(option.id, tile)) for tile in ALL_TILES if tile.index in self.kinds
                }
            options.append(body)
        return {
            "id": self.id,
            "title": self.title.to_dict(),
            "kinds": [tile.notation for tile in ALL_TILES if tile.index in self.kinds],
            "allows_chow": self.allows_chow,
            "concealed_sizes": list(concealed_sizes()),  # the hand before the win, by the number of melds
            "options": options,
            "flags": [flag.to_dict() for flag in self.flags],
            "house": [rule.to_dict() for rule in self.house],
        }

    def __repr__(self) -> str:
        return f"RULESETS[{self.id!r}]"


# The Python type of each kind of option (a tile option may be absent: None).
OPTION_TYPES: dict[str, object] = {"bool": bool, "int": int, "choice": str | int, "tile": Tile | None}


def options_class(game: str, options: tuple[Option, ...]) -> type:
    """The options value of a game with these declared options: a dataclass with one slot per option and `house`,
    its `to_dict` the request echo's `options` (API.md: tiles in notation, an absent tile left out, then the card)
    and `with_card` (RULES.md §5.3). `seats` are the table's (docs/seats.md): the first `players` of E S W N. A value
    all the same: nothing assigns to it once it is built (another card is another value, `with_card`)."""
    fields = [(option.id, OPTION_TYPES[option.kind], dataclass_field(default=option.default)) for option in options]
    fields.append(("house", HouseCard, dataclass_field(default_factory=HouseCard)))
    fields.append(("seats", tuple, dataclass_field(init=False, repr=False, compare=False)))
    names = tuple(option.id for option in options)

    def __post_init__(self) -> None:
        self.seats = seats_of(getattr(self, PLAYERS))  # every game declares it (registry)

    def to_dict(self) -> dict:
        """The request echo's `options`: new dicts each time, the caller's to change."""
        body: dict = {}
        for name in names:
            value = getattr(self, name)
            if value is not None:
                body[name] = value.notation if isinstance(value, Tile) else value
        body["house"] = dict(self.house)
        return body

    def with_card(self, card: HouseCard):
        return replace(self, house=card)

    return make_dataclass(
        f"{game.title()}Options",
        fields,
        namespace={"__post_init__": __post_init__, "to_dict": to_dict, "with_card": with_card, "__module__": __name__},
        slots=True,
    )


def _json(value: object) -> str:
    """A value as JSON writes it: true / false, "text", 3, null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    return repr(value)


def read_option(option: Option, value: object):
    """One declared option's value (its default when absent), or `bad_option` naming `options.<id>`."""
    if value is None:
        return option.default
    kind = option.kind
    if type(value) is str:  # the usual cases first, without building a message or a list
        if kind == "tile" and value in TILE_BY_NOTATION:
            return TILE_BY_NOTATION[value]  # "5p", without the general reader
        if kind == "choice":
            for choice in option.choices:
                if choice.value == value:
                    return value
    field = f"options.{option.id}"
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise ScoreError(
            "bad_option", msg("{option} must be true or false", option=option.id, label=option.label), field
        )
    if kind == "choice":
        allowed = [choice.value for choice in option.choices]
        if any(type(choice) is int for choice in allowed):
            # a choice of JSON integers (players: 4 or 3) takes exactly one of them: 3.0, "3" and true are no size
            if type(value) is int and value in allowed:
                return value
            refused = msg(
                "{option} must be the whole number {choices}, got {value}",
                option=option.id,
                label=option.label,
                choices=Joined(OR, map(_json, allowed)),
                value=_json(value),
            )
            raise ScoreError("bad_option", refused, field)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a numeric choice of texts ("315") may be written as a number
        if isinstance(value, str) and value in allowed:
            return value
        choices = Joined(OR, [pmsg("a choice of texts", "'{choice}'", choice=choice) for choice in allowed])
        refused = msg(
            "{option} must be {choices}, got {value!r}",
            option=option.id,
            label=option.label,
            choices=choices,
            value=value,
        )
        raise ScoreError("bad_option", refused, field)
    if kind == "int":
        if isinstance(value, int) and not isinstance(value, bool) and option.minimum <= value <= option.maximum:
            return value
        refused = msg(
            "{option} must be a whole number from {minimum} to {maximum}, got {value!r}",
            option=option.id,
            label=option.label,
            minimum=option.minimum,
            maximum=option.maximum,
            value=value,
        )
        raise ScoreError("bad_option", refused, field)
    try:  # a tile
        tiles = parse_tiles(value) if isinstance(value, str) else ()
    except InvalidNotationError:
        tiles = ()
    if len(tiles) != 1:
        raise ScoreError(
            "bad_option", msg("{option} must be exactly one tile, got {value!r}", option=option.id, value=value), field
        )
    return tiles[0]
