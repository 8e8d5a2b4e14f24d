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
(`RULESETS[id].table`, calculator/engine/rulesets/<game>/table.py); this package keeps the books with them:
- errors.py: `LedgerError`, what the ledger refuses (a code, a message, a field; its HTTP status is the web's);
- card.py: the rule card (`Card`) and how a body's card is read and changed;
- config.py: what a table starts with (`TableConfig`: card, players' names, first dealer);
- state.py: `State`, the account the rules change (`Book`), and `start`;
- entries.py: `apply_hand`, `apply_draw`, `apply_leave`, `apply_next`, `apply_card`: one entry each;
- replay.py: `apply` (one stored entry) and `replay(config, entries, cards)`, a whole log;
- hand.py: the request a table scores for a hand, and the answer it can record;
- names.py, settlement.py: what a player's name may hold; who pays whom at the end.
The database stores the state after every entry (calculator/models.py); a replay only verifies it.

The readings the ledger relies on, beyond those RULES.md marks (each is repeated where it is used):
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

from calculator.engine.rulesets.table import penalty_shares
from calculator.engine.seats import SEATS, next_seat
from calculator.ledger.card import MAX_MULTIPLIER, Card, change_card, parse_options
from calculator.ledger.config import DEFAULT_NAMES, MAX_NAME, TableConfig, parse_config
from calculator.ledger.entries import apply_card, apply_draw, apply_hand, apply_leave, apply_next, refuse_if_ended
from calculator.ledger.errors import LedgerError
from calculator.ledger.hand import check_win, prepare_request
from calculator.ledger.replay import apply, replay
from calculator.ledger.settlement import settlement
from calculator.ledger.state import State, start, zero

__all__ = [
    "DEFAULT_NAMES",
    "MAX_MULTIPLIER",
    "MAX_NAME",
    "SEATS",
    "Card",
    "LedgerError",
    "State",
    "TableConfig",
    "apply",
    "apply_card",
    "apply_draw",
    "apply_hand",
    "apply_leave",
    "apply_next",
    "change_card",
    "check_win",
    "next_seat",
    "parse_config",
    "parse_options",
    "penalty_shares",
    "prepare_request",
    "refuse_if_ended",
    "replay",
    "settlement",
    "start",
    "zero",
]
