"""The table ledger (RULES.md §1.7, §2.6, §3) as pure functions: no Django, no database.

A table is a configuration (ruleset, options, stake, multiplier, first dealer) and an ordered log of entries:

    {"kind": "hand", "result": <an engine result of a win>}
    {"kind": "draw"}                      # 流局
    {"kind": "leave", "seat": "W"}        # xinyu: a player leaves mid-game
    {"kind": "next"}                      # start the next 底 game / 局 with fresh stakes

`replay(config, entries)` folds the log into the table's state: balances, outside, totals, status, ended_reason,
dealer and streak, and for every entry what it actually moved (`applied`, after caps). Nothing is stored that
cannot be recomputed this way; the database keeps the log, this module keeps the arithmetic.

The readings this module relies on, beyond those RULES.md marks (each is repeated where it is used):
- [reading L1] Capped payments are applied row by row in the engine's order; each row pays
  min(amount, what the payer has left). With one winner the order changes nothing but who gets which row.
- [reading L2] A 底 game / 局 that has ended accepts no hand, draw or leave until the next one is started;
  `next` may also be used while a game is still playing (the players agree to start over; nothing is lost,
  totals keep every hand).
- [reading L3] The dealer and the streak carry on across 底 games / 局: the deal follows the hands.
- [reading L4] bazhi has no streak in its scoring; the ledger still shows one: 1 when a seat takes the deal,
  +1 each time the dealer keeps it.
- [reading L5] xinyu: a player leaving a 冲击 room ends the 局 with ended_reason "bust" (the leaver is at 0);
  in an ordinary table the game goes on (a substitute takes the seat).
- [reading L6] A table's 底分 changes only the 底 (the stake); 交分 and the 通底 payment stay the tariff's.
- [reading L7] 通底 is reported instead of 脱底 when all three losers are at 0 (it is the bigger event).
- [reading L8] xinyu ordinary tables (no room stake) have no caps, no bust and no 全缴 transfer; `next` is refused
  there (there is nothing to restart: balances are running totals).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SEATS = ("E", "S", "W", "N")
RULESETS = ("bazhi", "xinyu")
TARIFFS = ("315", "525")
DEFAULT_STAKE = {"315": 30, "525": 50}  # RULES.md §1.3 底分
ONE_ZUI_JIAO = {"315": 10, "525": 20}  # RULES.md §1.3 交分 for one extra 嘴 (the 通底 payment)
ROOM_STAKES = (100, 200, 500)  # RULES.md §2.6
LEAVE_PENALTY = 50  # RULES.md §2.6: −50 × the dealer's streak × the multiplier
MAX_STAKE = 1_000_000
MAX_MULTIPLIER = 1000


def next_seat(seat: str) -> str:
    """下家: E → S → W → N → E."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def zero() -> dict[str, int]:
    return dict.fromkeys(SEATS, 0)


class LedgerError(Exception):
    """A request the ledger refuses. `status` is the HTTP status the API answers with."""

    def __init__(self, code: str, zh: str, en: str, status: int = 400, field: str | None = None):
        super().__init__(f"{code}: {en}")
        self.code, self.zh, self.en, self.status, self.field = code, zh, en, status, field

    def to_dict(self, lang: str = "zh") -> dict:
        body = {"code": self.code, "message": self.en if lang == "en" else self.zh}
        if self.field:
            body["field"] = self.field
        return {"error": body}


# ---------------------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class TableConfig:
    ruleset: str
    options: dict
    players: dict
    stake: int | None
    multiplier: int
    dealer: str

    @property
    def is_room(self) -> bool:
        """bazhi always plays a 底 game; xinyu only when the table has a room stake (冲击)."""
        return self.ruleset == "bazhi" or self.stake is not None

    @property
    def tariff(self) -> str:
        return self.options.get("tariff", "315")

    def to_dict(self) -> dict:
        return {
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "players": dict(self.players),
            "stake": self.stake,
            "multiplier": self.multiplier,
            "dealer": self.dealer,
        }


def _bad(field: str, zh: str, en: str) -> LedgerError:
    return LedgerError("bad_table", zh, en, 400, field)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_config(data: object) -> TableConfig:
    """Validate a create-table body (API.md): defaults filled, anything odd refused with the field named."""
    if not isinstance(data, dict):
        raise LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    ruleset = data.get("ruleset")
    if ruleset not in RULESETS:
        raise LedgerError("unknown_ruleset", f"没有规则 {ruleset!r}", f"no ruleset {ruleset!r}", 400, "ruleset")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise _bad("options", "options 必须是对象", "options must be an object")
    if ruleset == "bazhi":
        unknown = sorted(set(options) - {"tariff", "multi_jiao"})
        if unknown:
            raise _bad("options", f"八支没有选项 {unknown[0]!r}", f"bazhi has no option {unknown[0]!r}")
        tariff = options.get("tariff", "315")
        if tariff not in TARIFFS:
            raise _bad("options.tariff", "tariff 只能是 315 或 525", "tariff must be 315 or 525")
        multi = options.get("multi_jiao", False)
        if not isinstance(multi, bool):
            raise _bad("options.multi_jiao", "multi_jiao 必须是 true 或 false", "multi_jiao must be true or false")
        options = {"tariff": tariff, "multi_jiao": multi}
        stake = data.get("stake")
        if stake is None:
            stake = DEFAULT_STAKE[tariff]
        if not _whole(stake) or not 1 <= stake <= MAX_STAKE:
            raise _bad(
                "stake",
                f"底分必须是 1 到 {MAX_STAKE} 的整数",
                f"stake (底分) must be a whole number from 1 to {MAX_STAKE}",
            )
    else:
        # The 财神 changes every hand, so a xinyu table has no options of its own.
        if options:
            raise _bad(
                "options",
                "新余的牌桌没有选项（财神每手单独给）",
                "a xinyu table has no options (the 财神 is given with each hand)",
            )
        stake = data.get("stake")
        if stake is not None and stake not in ROOM_STAKES:
            raise _bad(
                "stake",
                "冲击房间的底只能是 100、200 或 500（普通牌桌为 null）",
                "the room stake must be 100, 200 or 500 (null for an ordinary table)",
            )
    multiplier = data.get("multiplier", 1)
    if multiplier is None:
        multiplier = 1
    if not _whole(multiplier) or not 1 <= multiplier <= MAX_MULTIPLIER:
        raise _bad(
            "multiplier",
            f"倍数必须是 1 到 {MAX_MULTIPLIER} 的整数",
            f"multiplier must be a whole number from 1 to {MAX_MULTIPLIER}",
        )
    dealer = data.get("dealer", "E")
    if dealer not in SEATS:
        raise LedgerError("bad_seat", "庄家必须是 E、S、W 或 N", "the dealer must be E, S, W or N", 400, "dealer")
    raw_players = data.get("players") or {}
    if not isinstance(raw_players, dict) or set(raw_players) - set(SEATS):
        raise _bad("players", "players 必须是以 E S W N 为键的对象", "players must be an object keyed by E S W N")
    players = {}
    for seat in SEATS:
        name = raw_players.get(seat) or ""
        if not isinstance(name, str):
            raise _bad(f"players.{seat}", "玩家名字必须是文字", "a player's name must be text")
        name = " ".join(name.split())
        if len(name) > 24:
            raise _bad(f"players.{seat}", "名字最多 24 个字", "a name has at most 24 characters")
        players[seat] = name or {"E": "东", "S": "南", "W": "西", "N": "北"}[seat]
    return TableConfig(ruleset, options, players, stake, multiplier, dealer)


def config_from_dict(data: dict) -> TableConfig:
    """A stored configuration back into a TableConfig (no validation: it was validated on the way in)."""
    return TableConfig(
        data["ruleset"], dict(data["options"]), dict(data["players"]), data["stake"], data["multiplier"], data["dealer"]
    )


# ---------------------------------------------------------------------------------------------------------
# State


@dataclass
class State:
    config: TableConfig
    game: int = 1
    balances: dict = field(default_factory=zero)
    outside: dict = field(default_factory=zero)
    totals: dict = field(default_factory=zero)
    status: str = "playing"
    ended_reason: str | None = None
    dealer: str = "E"
    dealer_streak: int = 1
    hands: int = 0  # scored hands over the whole table (a hand's n)
    log: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "balances": dict(self.balances),
            "outside": dict(self.outside),
            "totals": dict(self.totals),
            "status": self.status,
            "ended_reason": self.ended_reason,
            "dealer": self.dealer,
            "dealer_streak": self.dealer_streak,
        }


def start(config: TableConfig) -> State:
    state = State(config=config, dealer=config.dealer)
    _fresh_stakes(state)
    return state


def _fresh_stakes(state: State) -> None:
    stake = state.config.stake if state.config.is_room else 0
    state.balances = dict.fromkeys(SEATS, stake)
    state.status, state.ended_reason = "playing", None


def refuse_if_ended(state: State) -> None:
    if state.status == "ended":
        raise LedgerError(
            "game_over",
            "这一底 / 局已经结束，请先开始下一底 / 局",
            "this 底 game / 局 is over: start the next one first",
            409,
        )


def _move(state: State, payer: str, payee: str, amount: int, column: str) -> None:
    book = state.balances if column == "balance" else state.outside
    book[payer] -= amount
    book[payee] += amount
    state.totals[payer] -= amount
    state.totals[payee] += amount


def _row(payer: str, payee: str, amount: int, owed: int, column: str, code: str, reason: str) -> dict:
    return {
        "from": payer,
        "to": payee,
        "amount": amount,
        "owed": owed,
        "column": column,
        "code": code,
        "reason": reason,
    }


def _net(rows: list[dict]) -> dict[str, int]:
    net = zero()
    for row in rows:
        net[row["from"]] -= row["amount"]
        net[row["to"]] += row["amount"]
    return net


def _pay_capped(state: State, rows: list[dict], capped: bool) -> list[dict]:
    """Apply the engine's payment rows to the balances; [reading L1] each row capped at what the payer has left."""
    applied = []
    for row in rows:
        payer, payee, owed = row["from"], row["to"], row["amount"]
        if row.get("part") == "jiao":  # bazhi 交: outside the 底, never capped (RULES.md §1.5)
            _move(state, payer, payee, owed, "outside")
            applied.append(_row(payer, payee, owed, owed, "outside", row.get("code", "jiao"), row.get("reason", "")))
            continue
        amount = min(owed, max(state.balances[payer], 0)) if capped else owed
        _move(state, payer, payee, amount, "balance")
        applied.append(_row(payer, payee, amount, owed, "balance", row.get("code", ""), row.get("reason", "")))
    return applied


# ---------------------------------------------------------------------------------------------------------
# Entries


def streak_mismatch(state) -> LedgerError:
    """A request whose dealer streak is not the table's (the table keeps the streak, RULES.md §2.6)."""
    return LedgerError(
        "dealer_mismatch",
        f"庄家连庄数是 {state.dealer_streak}",
        f"the dealer's streak is {state.dealer_streak}",
        409,
        "options.dealer_streak",
    )


def apply_hand(state: State, result: dict) -> dict:
    """Record one scored win; returns the log entry (what moved, after caps, and the state after)."""
    refuse_if_ended(state)
    if not isinstance(result, dict) or result.get("win") is not True:
        raise LedgerError("not_a_win", "只能记录胡牌", "only a win can be recorded")
    request = result["request"]
    winner, dealer = request["winner"], request["dealer"]
    if dealer != state.dealer:
        raise LedgerError("dealer_mismatch", f"庄家是 {state.dealer}", f"the dealer is {state.dealer}", 409, "dealer")
    losers = [s for s in SEATS if s != winner]
    config = state.config
    before = dict(state.balances)
    if config.ruleset == "bazhi":
        # RULES.md §1.7: 番 comes out of the 底, a payer (包牌 too) pays at most what is left; 交 is outside.
        rows = _pay_capped(state, result["payments"], capped=True)
        if all(state.balances[s] == 0 for s in losers):
            # 通底: each of the three losers pays the winner one more 嘴's 交分, outside [reading L6, L7].
            extra = ONE_ZUI_JIAO[config.tariff]
            for seat in losers:
                _move(state, seat, winner, extra, "outside")
                rows.append(_row(seat, winner, extra, extra, "outside", "tongdi", "通底"))
            state.status, state.ended_reason = "ended", "tongdi"
        elif any(state.balances[s] == 0 for s in SEATS):
            state.status, state.ended_reason = "ended", "tuodi"
        # Dealer (§1.7): keeps the deal on a win without 交; passes it to the 下家 on a 交 win or anyone else's win.
        if winner == state.dealer and not result["jiao"]["is_jiao"]:
            state.dealer_streak += 1
        else:
            state.dealer, state.dealer_streak = next_seat(state.dealer), 1
    else:
        streak = request["options"].get("dealer_streak", 1)
        if streak != state.dealer_streak:
            raise streak_mismatch(state)
        if config.stake is not None and result.get("quanjiao"):
            # 全缴 (§2.6): in a 冲击 room every other player pays all they have left, instead of the hand's payments.
            rows = []
            for seat in losers:
                left = state.balances[seat]
                _move(state, seat, winner, left, "balance")
                rows.append(_row(seat, winner, left, left, "balance", "quanjiao", "全缴"))
            state.status, state.ended_reason = "ended", "quanjiao"
        else:
            # §2.6: payments come out of the room stake, capped at what is left; an ordinary table has no cap [L8].
            rows = _pay_capped(state, result["payments"], capped=config.stake is not None)
            if config.stake is not None and any(state.balances[s] == 0 for s in SEATS):
                state.status, state.ended_reason = "ended", "bust"
        # Dealer (§2.6): a dealer win → streak + 1; another player's win → the 下家 deals, streak 1.
        if winner == state.dealer:
            state.dealer_streak += 1
        else:
            state.dealer, state.dealer_streak = next_seat(state.dealer), 1
    state.hands += 1
    return _log(state, "hand", rows, before, n=state.hands, winner=winner)


def apply_draw(state: State) -> dict:
    """流局: no payments. bazhi: the deal passes to the 下家 (§1.7); xinyu: same dealer, same streak (§2.6)."""
    refuse_if_ended(state)
    before = dict(state.balances)
    if state.config.ruleset == "bazhi":
        state.dealer, state.dealer_streak = next_seat(state.dealer), 1
    return _log(state, "draw", [], before)


def penalty_shares(seat: str, amount: int) -> dict[str, int]:
    """[reading §2.6] The penalty goes to the other three: amount ÷ 3 rounded down each, the remainder to the
    first of them in play order after the leaver."""
    others = [next_seat(seat), next_seat(next_seat(seat)), next_seat(next_seat(next_seat(seat)))]
    shares = dict.fromkeys(others, amount // 3)
    shares[others[0]] += amount % 3
    return shares


def apply_leave(state: State, seat: str) -> dict:
    """xinyu §2.6: leaving mid-game. Ordinary table: −50 × the dealer's streak × the multiplier.
    冲击 room: the leaver loses all that is left and the 局 ends [reading L5: ended_reason "bust"]."""
    if state.config.ruleset != "xinyu":
        raise LedgerError("not_available", "八支没有中途离场的罚分", "bazhi has no penalty for leaving", 409)
    if seat not in SEATS:
        raise LedgerError("bad_seat", "座位必须是 E、S、W 或 N", "the seat must be E, S, W or N", 400, "seat")
    refuse_if_ended(state)
    before = dict(state.balances)
    room = state.config.stake is not None
    amount = state.balances[seat] if room else LEAVE_PENALTY * state.dealer_streak * state.config.multiplier
    rows = []
    for other, share in penalty_shares(seat, amount).items():
        _move(state, seat, other, share, "balance")
        rows.append(_row(seat, other, share, share, "balance", "leave", "中途离场"))
    if room:
        state.status, state.ended_reason = "ended", "bust"
    return _log(state, "leave", rows, before, seat=seat)


def apply_next(state: State) -> dict:
    """Start the next 底 game / 局 with fresh stakes; outside and totals carry on [readings L2, L3, L8]."""
    if not state.config.is_room:
        raise LedgerError(
            "not_available",
            "普通牌桌没有底可以重开（余额是累计的）",
            "an ordinary table has no stake to restart (balances are running totals)",
            409,
        )
    before = dict(state.balances)
    state.game += 1
    _fresh_stakes(state)
    return _log(state, "next", [], before)


def _log(state: State, kind: str, rows: list[dict], before: dict, **extra) -> dict:
    entry = {
        "kind": kind,
        **extra,
        "applied": _net(rows),
        "rows": rows,
        "balances_before": before,
        **state.to_dict(),
    }
    state.log.append(entry)
    return entry


def apply(state: State, entry: dict) -> dict:
    kind = entry.get("kind")
    if kind == "hand":
        return apply_hand(state, entry["result"])
    if kind == "draw":
        return apply_draw(state)
    if kind == "leave":
        return apply_leave(state, entry.get("seat"))
    if kind == "next":
        return apply_next(state)
    raise ValueError(f"unknown ledger entry {kind!r}")


def replay(config: TableConfig, entries: list[dict]) -> State:
    """The table's state after its log, every number recomputed from the stored results."""
    state = start(config)
    for entry in entries:
        apply(state, entry)
    return state


# ---------------------------------------------------------------------------------------------------------
# A hand for the table


def prepare_request(state: State, body: object) -> dict:
    """The score request the table will score: ruleset, dealer, the table's options and (xinyu) the dealer's
    streak filled in. A value that contradicts the table is refused (409), never silently replaced."""
    if not isinstance(body, dict):
        raise LedgerError("bad_json", "请求必须是一个 JSON 对象", "the request must be a JSON object")
    config = state.config
    request = {k: v for k, v in body.items() if k != "n"}
    ruleset = request.get("ruleset") or config.ruleset
    if ruleset != config.ruleset:
        raise LedgerError(
            "ruleset_mismatch", f"这张牌桌打的是 {config.ruleset}", f"this table plays {config.ruleset}", 409, "ruleset"
        )
    request["ruleset"] = ruleset
    dealer = request.get("dealer") or state.dealer
    if dealer != state.dealer:
        raise LedgerError(
            "dealer_mismatch", f"现在的庄家是 {state.dealer}", f"the dealer now is {state.dealer}", 409, "dealer"
        )
    request["dealer"] = dealer
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise LedgerError("bad_option", "options 必须是对象", "options must be an object", 400, "options")
    options = dict(options)
    if ruleset == "bazhi":
        for key, value in config.options.items():
            if key in options and options[key] != value:
                raise LedgerError(
                    "option_mismatch",
                    f"这张牌桌的 {key} 是 {value!r}",
                    f"this table's {key} is {value!r}",
                    409,
                    f"options.{key}",
                )
            options[key] = value
    else:
        streak = options.get("dealer_streak", state.dealer_streak)
        if streak != state.dealer_streak:
            raise streak_mismatch(state)
        options["dealer_streak"] = state.dealer_streak
    request["options"] = options
    return request


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
