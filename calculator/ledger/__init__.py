"""The table ledger (RULES.md §3) as pure functions: no Django, no database, no game named.

A table is a configuration (players, first dealer, and its first rule card: ruleset, options with the house rules,
stake, multiplier) and an ordered log of entries. Its seats are its card's (`options.players`, docs/seats.md): fixed
when it is made, four for a table stored before the option existed; every map of seats it keeps holds exactly them.

    {"kind": "hand", "result": <an engine result of a win>, "card_version": 1}
    {"kind": "draw"}                      # 流局
    {"kind": "leave", "seat": "W"}        # a player leaves mid-game (a game with a leaving penalty)
    {"kind": "next"}                      # start the next 底 game / 局 with fresh stakes
    {"kind": "card", "card_version": 2}   # a new rule card, before the first hand of a 底 game / 局

Each game's table rules (the stake, caps, 通底, 全缴, the leaving penalty, the deal) live in its ruleset package
(`RULESETS[id].table`, calculator/engine/rulesets/<game>/table.py); this module keeps the books with them: `State`
is the account the rules change (`Book`), `apply` adds one entry, `replay(config, entries, cards)` folds a whole
log. The database stores the state after every entry (calculator/models.py); a replay only verifies it.

The readings this module relies on, beyond those RULES.md marks (each is repeated where it is used):
- [reading L1] Capped payments are applied row by row in the engine's order; each row pays
  min(amount, what the payer has left). With one winner the order changes nothing but who gets which row.
- [reading L2] A 底 game / 局 that has ended accepts no hand, draw or leave until the next one is started;
  `next` may also be used while a game is still playing (the players agree to start over; nothing is lost,
  totals keep every hand).
- [reading L3] The dealer and the streak carry on across 底 games / 局: the deal follows the hands.
- [reading L4] bazhi has no streak in its scoring; the ledger still shows one: 1 when a seat takes the deal,
  +1 each time the dealer keeps it on a win.
- [reading L5] xinyu: a player leaving a 冲击 room ends the 局 with ended_reason "bust" (the leaver is at 0);
  in an ordinary table the game goes on (a substitute takes the seat).
- [reading L6] A table's 底分 changes only the 底 (the stake); 交分 and the 通底 payment stay the tariff's.
- [reading L7] 通底 is reported instead of 脱底 when every loser is at 0 (it is the bigger event).
- [reading L8] xinyu ordinary tables (no room stake) have no caps, no bust and no 全缴 transfer; `next` is refused
  there (there is nothing to restart: balances are running totals).
- [reading L9] A drawn hand that keeps the deal (house rule draw_dealer) keeps the streak as it is: only a win
  adds to it.
- [reading L10] A new rule card starts the current 底 game / 局 afresh: balances are the new stake (nothing was
  played in it yet); card changes in a row are allowed (they do not lock the card).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from calculator.engine.errors import ScoreError
from calculator.engine.rulesets import RULESETS, Ruleset
from calculator.engine.rulesets.base import read_option
from calculator.engine.rulesets.table import TableRules, penalty_shares
from calculator.engine.seats import SEATS, Seats, next_seat, seat_list
from calculator.ledger import names
from calculator.ledger.settlement import settlement

MAX_MULTIPLIER = 1000
MAX_NAME = 40  # characters of a player's name
DEFAULT_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}  # what the ledger names an unnamed seat
TABLE_FIELDS = ("ruleset", "options", "players", "stake", "multiplier", "dealer")
CARD_FIELDS = ("ruleset", "options", "stake", "multiplier")

__all__ = [
    "SEATS",
    "Card",
    "LedgerError",
    "State",
    "TableConfig",
    "apply",
    "next_seat",
    "parse_config",
    "penalty_shares",
    "replay",
    "settlement",
]


def zero(seats: Seats) -> dict[str, int]:
    return dict.fromkeys(seats, 0)


class LedgerError(Exception):
    """A request the ledger refuses. `status` is the HTTP status the API answers with."""

    def __init__(
        self, code: str, zh: str, en: str, status: int = 400, field: str | None = None, retry_after: int | None = None
    ):
        super().__init__(f"{code}: {en}")
        self.code, self.zh, self.en, self.status, self.field = code, zh, en, status, field
        self.retry_after = retry_after  # seconds, for a 429

    def to_dict(self, lang: str = "zh") -> dict:
        body = {"code": self.code, "message": self.en if lang == "en" else self.zh}
        if self.field:
            body["field"] = self.field
        return {"error": body}

    @classmethod
    def of(cls, error: ScoreError) -> LedgerError:
        """An engine refusal (bad_option, bad_tile …) as the ledger answers it: 400, the same code and field."""
        return cls(error.code, error.zh, error.en, 400, error.field)


# ---------------------------------------------------------------------------------------------------------
# The rule card and the table's configuration


@dataclass(frozen=True)
class Card:
    """A table's rule card (API.md): ruleset, options (`house` with every house rule), stake, multiplier.

    A card stored before an option or a house rule existed holds it at its default (the reading the table was
    played under): a table of four, for one made before `players` (docs/seats.md)."""

    ruleset: str
    options: Mapping
    stake: int | None
    multiplier: int = 1
    version: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", complete_options(self.rules, self.options))

    @property
    def rules(self) -> Ruleset:
        return RULESETS[self.ruleset]

    @property
    def seats(self) -> Seats:
        """The table's seats, in play order: the first `players` of E S W N."""
        return self.rules.seats(self.options)

    @property
    def table(self) -> TableRules:
        return self.rules.table

    @property
    def is_room(self) -> bool:
        """Whether the table plays for stakes that run out (a 底 game, a 冲击 room) or keeps running totals."""
        return self.table.is_room(self.stake)

    @property
    def house(self) -> Mapping:
        return self.options["house"]

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "ruleset": self.ruleset,
            "options": _plain(self.options),
            "stake": self.stake,
            "multiplier": self.multiplier,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Card:
        """A stored card (validated on the way in)."""
        return cls(data["ruleset"], data["options"], data["stake"], data["multiplier"], data.get("version", 1))


def complete_options(rules: Ruleset, options: Mapping) -> Mapping:
    """A card's options with every table option and house rule of the game, the ones it lacks at their default
    (the same mapping when it lacks none: a card read from a request is whole)."""
    house = options.get("house") or {}
    if all(option.id in options for option in rules.table_options) and all(rule.id in house for rule in rules.house):
        return options
    whole = {option.id: options.get(option.id, option.default) for option in rules.table_options}
    whole["house"] = {rule.id: house.get(rule.id, rule.default) for rule in rules.house}
    return {**options, **whole}


def _plain(options: Mapping) -> dict:
    return {key: dict(value) if isinstance(value, Mapping) else value for key, value in options.items()}


@dataclass(frozen=True)
class TableConfig:
    """What a table starts with: its first rule card, the players and the first dealer."""

    card: Card
    players: Mapping
    dealer: str

    seats = property(lambda self: self.card.seats)  # fixed at creation: a card change cannot alter `players`
    ruleset = property(lambda self: self.card.ruleset)
    options = property(lambda self: self.card.options)
    stake = property(lambda self: self.card.stake)
    multiplier = property(lambda self: self.card.multiplier)
    is_room = property(lambda self: self.card.is_room)


def _bad(field: str, zh: str, en: str, code: str = "bad_table") -> LedgerError:
    return LedgerError(code, zh, en, 400, field)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def refuse_unknown(data: Mapping, known: tuple[str, ...], prefix: str = "") -> None:
    """API.md: a field the body may not have is a 400 bad_json naming it (nothing unknown is ever stored)."""
    for key in data:
        if key not in known:
            name = f"{prefix}{key}" if isinstance(key, str) else prefix.rstrip(".") or "body"
            raise _bad(name, f"不认识的字段 {name}", f"unknown field {name}", "bad_json")


def ruleset_of(data: Mapping) -> Ruleset:
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise LedgerError("unknown_ruleset", f"没有规则 {ruleset!r}", f"no ruleset {ruleset!r}", 400, "ruleset")
    return RULESETS[ruleset]


def parse_options(rules: Ruleset, raw: object) -> dict:
    """A table's options: the ruleset's table options (defaults filled) and `house`, the whole card of house
    rules. Anything else, a per-hand option (xinyu's 财神) included, is a bad_option naming it."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise _bad("options", "options 必须是对象", "options must be an object", "bad_option")
    known = {option.id: option for option in rules.table_options}
    for key in raw:
        if key not in known and key != "house":
            name = f"options.{key}" if isinstance(key, str) else "options"
            raise _bad(
                name,
                f"牌桌没有选项 {key!r}（每手不同的选项随那手牌给）",
                f"a table has no option {key!r} (options that change per hand come with each hand)",
                "bad_option",
            )
    try:
        options = {key: read_option(option, raw.get(key)) for key, option in known.items()}
        options["house"] = rules.read_card(raw.get("house")).to_dict()
    except ScoreError as error:
        raise LedgerError.of(error) from None
    return options


def parse_stake(table: TableRules, value: object, options: Mapping) -> int | None:
    rule = table.stake
    if value is None and rule.none is None:
        return table.default_stake(options)
    if rule.allows(value):
        return value
    if rule.choices:
        listed = [str(choice) for choice in rule.choices]
        zh = f"{rule.label.zh}的底只能是 {'、'.join(listed[:-1])} 或 {listed[-1]}（{rule.none.zh}为 null）"
        en = f"the {rule.label.en} stake must be {', '.join(listed[:-1])} or {listed[-1]} (null: {rule.none.en})"
    else:
        zh = f"{rule.label.zh}必须是 {rule.minimum} 到 {rule.maximum} 的整数"
        en = f"{rule.label.en} must be a whole number from {rule.minimum} to {rule.maximum}"
    raise _bad("stake", zh, en)


def parse_multiplier(value: object) -> int:
    if value is None:
        return 1
    if not _whole(value) or not 1 <= value <= MAX_MULTIPLIER:
        raise _bad(
            "multiplier",
            f"倍数必须是 1 到 {MAX_MULTIPLIER} 的整数",
            f"multiplier must be a whole number from 1 to {MAX_MULTIPLIER}",
        )
    return value


def parse_card(data: Mapping, version: int = 1) -> Card:
    """A rule card from a create-table body (its card fields), every value checked."""
    rules = ruleset_of(data)
    options = parse_options(rules, data.get("options"))
    stake = parse_stake(rules.table, data.get("stake"), options)
    return Card(rules.id, options, stake, parse_multiplier(data.get("multiplier")), version)


def change_card(card: Card, data: object) -> Card:
    """`POST /api/tables/<id>/card` (API.md): the next version of the card. `options` replaces the options (house
    rules included); `stake` and `multiplier` replace theirs when given (a null stake: the game's default, or no
    stake where the game allows it); what is left out stays. The ruleset and the table's size (`players`: left out
    of `options`, it is the table's) cannot change."""
    if not isinstance(data, Mapping):
        raise LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    refuse_unknown(data, (*CARD_FIELDS, "version"))
    if "ruleset" in data and data["ruleset"] != card.ruleset:
        raise _bad("ruleset", "牌桌的规则不能改", "a table's ruleset cannot change")
    rules = card.rules
    options = (
        parse_options(rules, _with_size(rules, card, data["options"])) if "options" in data else dict(card.options)
    )
    if rules.seats(options) != card.seats:  # API.md: a table's seats are fixed when it is made
        raise _bad(
            f"options.{rules.players_option.id}",
            f"牌桌的人数不能改（这张牌桌是 {len(card.seats)} 人）",
            f"a table's number of players cannot change (this table seats {len(card.seats)})",
        )
    stake = parse_stake(rules.table, data["stake"], options) if "stake" in data else card.stake
    multiplier = parse_multiplier(data["multiplier"]) if "multiplier" in data else card.multiplier
    return Card(card.ruleset, options, stake, multiplier, card.version + 1)


def _with_size(rules: Ruleset, card: Card, raw: object) -> object:
    """A card change's options: `players` left out is the table's (it cannot change), not the game's default."""
    size = rules.players_option.id
    if raw is None:
        raw = {}
    if isinstance(raw, Mapping) and size not in raw:
        return {**raw, size: card.options[size]}
    return raw


def clean_name(value: object, seat: str) -> str:
    """A player's name: text of at most MAX_NAME characters, spaces collapsed, nothing that cannot be shown as
    itself (API.md: control, format, surrogate, unassigned, private-use characters: NUL, a tab, a lone surrogate, a
    right-to-left override that reverses the text around it, a zero-width space that makes two names look alike),
    at least one visible character and at most a few marks on a character (calculator/ledger/names.py);
    empty → the seat's name."""
    field_name = f"players.{seat}"
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _bad(field_name, "玩家名字必须是文字", "a player's name must be text")
    if names.hidden_character(value):  # before spaces are collapsed: a tab or a CR is refused, not made a space
        raise _bad(field_name, "名字里有不能显示的字符", "the name holds a character that cannot be shown")
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise _bad(field_name, f"名字最多 {MAX_NAME} 个字", f"a name has at most {MAX_NAME} characters")
    if name and not any(names.visible(ch) for ch in name):
        raise _bad(field_name, "名字里没有看得见的字", "the name has no character that can be seen")
    if names.most_marks(name) > names.MAX_MARKS:
        raise _bad(
            field_name,
            f"一个字上最多 {names.MAX_MARKS} 个附加符号",
            f"a character carries at most {names.MAX_MARKS} combining marks",
        )
    return name or DEFAULT_NAMES[seat]


def refuse_no_seat(value: object, seats: Seats, field_name: str, what_zh: str, what_en: str) -> None:
    """400 bad_seat unless `value` is one of the table's seats (N at a table of three is none), listing them."""
    if type(value) is not str or value not in seats:
        raise LedgerError(
            "bad_seat",
            f"{what_zh}必须是 {'、'.join(seats)} 之一（{len(seats)} 人牌桌）",
            f"{what_en} must be one of {seat_list(seats)} (a table of {len(seats)})",
            400,
            field_name,
        )


def parse_config(data: object) -> TableConfig:
    """Validate a create-table body (API.md): defaults filled, anything odd refused with the field named. The
    table's seats are its card's (`options.players`); the first dealer is one of them, and a `players` names map
    names every one of them and no other seat (no seat is ever filled in: a table never gets a player nobody
    named). Left out, every seat gets its seat's word."""
    if not isinstance(data, Mapping):
        raise LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    refuse_unknown(data, TABLE_FIELDS)
    card = parse_card(data)
    seats = card.seats
    dealer = data.get("dealer", seats[0])
    refuse_no_seat(dealer, seats, "dealer", "庄家", "the dealer")
    raw_players = data.get("players")
    if raw_players is None:
        return TableConfig(card, {seat: DEFAULT_NAMES[seat] for seat in seats}, dealer)
    if not isinstance(raw_players, Mapping):
        raise _bad(
            "players",
            f"players 必须是以 {seat_list(seats)} 为键的对象",
            f"players must be an object keyed by {seat_list(seats)}",
        )
    refuse_unknown(raw_players, SEATS, "players.")  # a key that is no seat at all is no field
    extra = next((seat for seat in raw_players if seat not in seats), None)
    if extra is not None:
        raise _names_refused(extra, seats, f"没有 {extra} 这个座位", f"it has no seat {extra}")
    named = {seat: clean_name(raw_players[seat], seat) for seat in seats if seat in raw_players}
    missing = next((seat for seat in seats if seat not in named), None)
    if missing is not None:
        raise _names_refused(missing, seats, f"缺 {missing}", f"{missing} is missing")
    return TableConfig(card, named, dealer)


def _names_refused(seat: str, seats: Seats, zh: str, en: str) -> LedgerError:
    """A `players` map that does not name exactly the table's seats (API.md), the field naming the seat."""
    return _bad(
        f"players.{seat}",
        f"{len(seats)} 人牌桌要给每个座位（{seat_list(seats)}）一个名字（可以空着），不多不少：{zh}",
        f"a table of {len(seats)} names exactly its seats ({seat_list(seats)}; a name may be empty): {en}",
    )


# ---------------------------------------------------------------------------------------------------------
# State: the account a table's rules change


@dataclass
class State:
    """A table's account after some entries. It is the `Book` the game's table rules write to."""

    config: TableConfig
    card: Card
    game: int = 1
    balances: dict = field(default_factory=dict)  # each of the table's seats (`start` fills them)
    outside: dict = field(default_factory=dict)
    totals: dict = field(default_factory=dict)
    status: str = "playing"
    ended_reason: str | None = None
    dealer: str = "E"
    dealer_streak: int = 1
    hands: int = 0  # scored hands over the whole table (a hand's n)
    events: int = 0  # draws, leaves, next and card changes
    played: int = 0  # hands, draws and leaves in the current 底 game / 局: the card is locked while > 0
    log: list = field(default_factory=list)  # the entries applied to this state object (a replay's record)
    rows: list = field(default_factory=list)  # what the entry being applied moved

    @property
    def entries(self) -> int:
        return self.hands + self.events

    @property
    def seats(self) -> Seats:
        """The table's seats, in play order (its card's)."""
        return self.config.seats

    def to_dict(self) -> dict:
        """The state as stored after every entry (and on the table row)."""
        return {
            "game": self.game,
            "balances": dict(self.balances),
            "outside": dict(self.outside),
            "totals": dict(self.totals),
            "status": self.status,
            "ended_reason": self.ended_reason,
            "dealer": self.dealer,
            "dealer_streak": self.dealer_streak,
            "hands_total": self.hands,
            "events_total": self.events,
            "played": self.played,
            "card_version": self.card.version,
        }

    @classmethod
    def from_dict(cls, config: TableConfig, card: Card, data: Mapping) -> State:
        return cls(
            config=config,
            card=card,
            game=data["game"],
            balances=dict(data["balances"]),
            outside=dict(data["outside"]),
            totals=dict(data["totals"]),
            status=data["status"],
            ended_reason=data["ended_reason"],
            dealer=data["dealer"],
            dealer_streak=data["dealer_streak"],
            hands=data["hands_total"],
            events=data["events_total"],
            played=data["played"],
        )

    # ------------------------------------------------------------------------------ Book

    def pay_rows(self, rows: list[dict], capped: bool) -> None:
        """Apply the engine's payment rows; [reading L1] each row capped at what the payer has left. Rows of the
        game's outside parts (bazhi 交, RULES.md §1.5) are kept outside and never capped."""
        outside_parts = self.card.table.outside_parts
        for row in rows:
            payer, payee, owed, part = row["from"], row["to"], row["amount"], row.get("part")
            outside = part in outside_parts
            amount = owed if outside or not capped else min(owed, max(self.balances[payer], 0))
            self._move(payer, payee, amount, owed, outside, row.get("code", ""), row.get("reason", ""), part)
            if "on_behalf_of" in row:
                self.rows[-1]["on_behalf_of"] = row["on_behalf_of"]

    def transfer(self, payer: str, payee: str, amount: int, code: str, reason: str, outside: bool = False) -> None:
        self._move(payer, payee, amount, amount, outside, code, reason, code)

    def end(self, reason: str) -> None:
        self.status, self.ended_reason = "ended", reason

    def _move(self, payer, payee, amount, owed, outside, code, reason, part) -> None:
        book = self.outside if outside else self.balances
        book[payer] -= amount
        book[payee] += amount
        self.totals[payer] -= amount
        self.totals[payee] += amount
        self.rows.append(
            {
                "from": payer,
                "to": payee,
                "amount": amount,
                "owed": owed,
                "column": "outside" if outside else "balance",
                "code": code,
                "reason": reason,
                "part": part,
            }
        )


def start(config: TableConfig) -> State:
    seats = config.seats
    state = State(config=config, card=config.card, dealer=config.dealer, outside=zero(seats), totals=zero(seats))
    _fresh_stakes(state)
    return state


def _fresh_stakes(state: State) -> None:
    stake = state.card.stake if state.card.is_room else 0
    state.balances = dict.fromkeys(state.seats, stake)
    state.status, state.ended_reason = "playing", None


def refuse_if_ended(state: State) -> None:
    if state.status == "ended":
        raise LedgerError(
            "game_over",
            "这一底 / 局已经结束，请先开始下一底 / 局",
            "this 底 game / 局 is over: start the next one first",
            409,
        )


def _net(rows: list[dict], seats: Seats) -> dict[str, int]:
    net = zero(seats)
    for row in rows:
        net[row["from"]] -= row["amount"]
        net[row["to"]] += row["amount"]
    return net


# ---------------------------------------------------------------------------------------------------------
# Entries


def streak_mismatch(state) -> LedgerError:
    """A request whose dealer streak is not the table's (the table keeps the streak, RULES.md §2.6)."""
    return LedgerError(
        "dealer_mismatch",
        f"庄家连庄数是 {state.dealer_streak}",
        f"the dealer's streak is {state.dealer_streak}",
        409,
        f"options.{state.card.table.streak_option}",
    )


def _pass_deal(state: State) -> None:
    """The deal passes to the dealer's 下家 among the table's seats (E → S → W → E at a table of three)."""
    state.dealer, state.dealer_streak = next_seat(state.dealer, state.seats), 1


def apply_hand(state: State, result: dict) -> dict:
    """Record one scored win; returns the log entry (what moved, after caps, and the state after)."""
    refuse_if_ended(state)
    if not isinstance(result, dict) or result.get("win") is not True:
        raise LedgerError("not_a_win", "只能记录胡牌", "only a win can be recorded")
    request = result["request"]
    if request["dealer"] != state.dealer:
        raise LedgerError("dealer_mismatch", f"庄家是 {state.dealer}", f"the dealer is {state.dealer}", 409, "dealer")
    table = state.card.table
    if table.streak_option and request["options"].get(table.streak_option, 1) != state.dealer_streak:
        raise streak_mismatch(state)
    before = _begin(state)
    table.settle(state, result, state.card)
    if table.keeps_deal(result):
        state.dealer_streak += 1
    else:
        _pass_deal(state)
    state.hands += 1
    state.played += 1
    return _log(state, "hand", before, n=state.hands, winner=request["winner"], card_version=state.card.version)


def apply_draw(state: State) -> dict:
    """流局: no payments; the deal as the card's draw_dealer says (RULES.md §5) [reading L9]."""
    refuse_if_ended(state)
    before = _begin(state)
    if not state.card.table.keeps_deal_on_draw(state.card):
        _pass_deal(state)
    state.events += 1
    state.played += 1
    return _log(state, "draw", before)


def apply_leave(state: State, seat: object) -> dict:
    """A player leaves mid-game: the game's penalty (RULES.md §2.6), where it has one."""
    table = state.card.table
    if table.leave_label is None:
        title = state.card.rules.title
        raise LedgerError(
            "not_available", f"{title.zh}没有中途离场的罚分", f"{title.en} has no penalty for leaving", 409
        )
    refuse_no_seat(seat, state.seats, "seat", "座位", "the seat")
    refuse_if_ended(state)
    before = _begin(state)
    table.leave(state, seat, state.dealer_streak, state.card)
    state.events += 1
    state.played += 1
    return _log(state, "leave", before, seat=seat)


def apply_next(state: State) -> dict:
    """Start the next 底 game / 局 with fresh stakes; outside and totals carry on [readings L2, L3, L8]."""
    if not state.card.is_room:
        raise LedgerError(
            "not_available",
            "普通牌桌没有底可以重开（余额是累计的）",
            "an ordinary table has no stake to restart (balances are running totals)",
            409,
        )
    before = _begin(state)
    state.game += 1
    _fresh_stakes(state)
    state.events += 1
    state.played = 0
    return _log(state, "next", before)


def card_locked() -> LedgerError:
    return LedgerError(
        "card_locked",
        "这一底 / 局已经记过牌了：规则只能在开局前或“下一底 / 局”之后修改",
        "this 底 game / 局 has entries already: the rules can change only before its first hand or after “next”",
        409,
    )


def apply_card(state: State, card: Card) -> dict:
    """A new rule card (API.md), only while the current 底 game / 局 has no hand, draw or leave [reading L10]."""
    if state.played:
        raise card_locked()
    before = _begin(state)
    state.card = card
    _fresh_stakes(state)
    state.events += 1
    return _log(state, "card", before, card_version=card.version)


def _begin(state: State) -> dict:
    state.rows = []
    return dict(state.balances)


def _log(state: State, kind: str, before: dict, **extra) -> dict:
    rows = state.rows
    state.rows = []
    entry = {
        "kind": kind,
        **extra,
        "applied": _net(rows, state.seats),
        "rows": rows,
        "balances_before": before,
        **state.to_dict(),
    }
    state.log.append(entry)
    return entry


def apply(state: State, entry: Mapping, cards: Mapping[int, Card] | None = None) -> dict:
    """One stored entry applied to the state (a replay). A hand must have been scored under the card in force."""
    kind = entry.get("kind")
    if kind == "hand":
        version = entry.get("card_version", state.card.version)
        if version != state.card.version:
            raise ValueError(f"hand scored under card {version}, but card {state.card.version} is in force")
        return apply_hand(state, entry["result"])
    if kind == "draw":
        return apply_draw(state)
    if kind == "leave":
        return apply_leave(state, entry.get("seat"))
    if kind == "next":
        return apply_next(state)
    if kind == "card":
        return apply_card(state, (cards or {})[entry["card_version"]])
    raise ValueError(f"unknown ledger entry {kind!r}")


def replay(config: TableConfig, entries: list[Mapping], cards: Mapping[int, Card] | None = None) -> State:
    """The table's state after its log, every number recomputed from the stored results and cards."""
    state = start(config)
    for entry in entries:
        apply(state, entry, cards)
    return state


# ---------------------------------------------------------------------------------------------------------
# A hand for the table


def prepare_request(state: State, body: object) -> dict:
    """The score request the table will score: ruleset, dealer, the card's options (house rules included) and
    the dealer's streak filled in. A value that contradicts the table is refused (409), never silently
    replaced; a value the engine would refuse is left for the engine (400)."""
    if not isinstance(body, Mapping):
        raise LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    card = state.card
    request = dict(body)
    ruleset = request.get("ruleset") or card.ruleset
    if ruleset != card.ruleset:
        raise LedgerError(
            "ruleset_mismatch", f"这张牌桌打的是 {card.ruleset}", f"this table plays {card.ruleset}", 409, "ruleset"
        )
    request["ruleset"] = ruleset
    dealer = request.get("dealer") or state.dealer
    if dealer != state.dealer:
        raise LedgerError(
            "dealer_mismatch", f"现在的庄家是 {state.dealer}", f"the dealer now is {state.dealer}", 409, "dealer"
        )
    request["dealer"] = dealer
    request["options"] = card_options(state, request.get("options"))
    refuse_past_streak(state)
    # API.md: the ledger ignores `alternatives` (a disputed card is settled when the table is made, not per hand);
    # a value that is not a boolean is still the engine's bad_json.
    if "alternatives" in request and not isinstance(request.pop("alternatives"), bool):
        raise LedgerError(
            "bad_json", "alternatives 必须是 true 或 false", "alternatives must be true or false", 400, "alternatives"
        )
    return request


def refuse_past_streak(state: State) -> None:
    """A table fills the dealer's streak itself, so it must never fill one the engine refuses (the option's
    maximum, API.md: 1,000): after that many dealer wins in a row no hand can be scored at this table."""
    streak = state.card.table.streak_option
    if not streak:
        return
    most = next(option.maximum for option in state.card.rules.options if option.id == streak)
    if state.dealer_streak > most:
        raise LedgerError(
            "table_full",
            f"庄家已经连庄 {most} 次，再多就无法计分了：请开一张新牌桌接着记",
            f"the dealer has won {most} hands in a row, the longest streak a hand can be scored with: "
            "start a new table to go on",
            409,
        )


def card_options(state: State, raw: object) -> dict:
    """A hand's options with the card's filled in: what the hand gives must agree with the card (409
    option_mismatch) and with the table's streak (409 dealer_mismatch); per-hand options pass through."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise LedgerError("bad_option", "options 必须是对象", "options must be an object", 400, "options")
    card, rules = state.card, state.card.rules
    options = dict(raw)
    try:
        for option in rules.table_options:
            if option.id in raw and read_option(option, raw[option.id]) != card.options[option.id]:
                raise _mismatch(f"options.{option.id}", card.options[option.id])
            options[option.id] = card.options[option.id]
        if "house" in raw:
            rules.read_card(raw["house"])  # an unknown rule or value is the engine's 400, before any 409
            for key, value in raw["house"].items():
                if value != card.house[key]:
                    raise _mismatch(f"options.house.{key}", card.house[key])
    except ScoreError as error:
        raise LedgerError.of(error) from None
    options["house"] = dict(card.house)
    streak = state.card.table.streak_option
    if streak:
        if options.get(streak, state.dealer_streak) != state.dealer_streak:
            raise streak_mismatch(state)
        options[streak] = state.dealer_streak
    return options


def _mismatch(field_name: str, value: object) -> LedgerError:
    return LedgerError(
        "option_mismatch",
        f"这张牌桌的 {field_name} 是 {value!r}",
        f"this table's {field_name} is {value!r}",
        409,
        field_name,
    )


def check_win(result: dict, lang: str = "zh") -> None:
    """An engine answer the table can record: a win. Errors keep the engine's code; a non-win keeps its code."""
    if "error" in result:
        error = result["error"]
        raise LedgerError(error["code"], error.get("message", ""), error.get("message", ""), 400, error.get("field"))
    if result.get("win") is True:
        return
    if "waits" in result:
        raise LedgerError(
            "no_win_tile",
            "要记录一手牌，请给出胡的那张牌（win_tile）",
            "to record a hand, give the winning tile (win_tile)",
            400,
            "win_tile",
        )
    raise LedgerError(result.get("code", "not_a_win"), result.get("message", ""), result.get("message", ""), 400)
