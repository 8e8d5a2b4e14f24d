"""A table's export (`/tables/<id>/export.csv`): one row per entry, headers in the page's language, and the
settlement.

A row depends only on its entry and the account before it, and a table is written one entry at a time: so the
export of a new version is the rows this process wrote of an earlier one, as far as the table still holds the same
entries (`Snapshot.shared_with`, calculator/tables/snapshot.py), and the rows of the entries written since
(`entry_lines`, kept by (table, language)). Only the header and the settlement are written again each time.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

from calculator import ledger
from calculator.engine.hand import MELD_NAMES
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import Seats
from calculator.models import Hand, Table
from calculator.pages.tables import spreadsheet
from calculator.tables import snapshot as snapshots
from calculator.tables import store

TABLES = 16  # (table, language) pairs whose rows are kept per process

CSV_HEADERS = {
    "zh": {
        "seq": "序号",
        "game": "第几底/局",
        "kind": "类别",
        "card": "规则卡版本",
        "n": "第几手",
        "winner": "胡牌",
        "discarder": "放铳",
        "dealer": "庄家（之前）",
        "streak": "连庄（之前）",
        "hand": "手牌",
        "win_tile": "胡的牌",
        "melds": "副露",
        "flags": "特殊",
        "options": "本手选项",
        "facts": "计分",
        "bao": "包牌",
        "change": "变动",
        "paid_for": "替人付",
        "capped": "封顶少付",
        "balance": "余",
        "outside": "底外",
        "total": "总计",
        "settlement": "结算",
        "from": "付",
        "to": "收",
        "amount": "金额",
    },
    "en": {
        "seq": "entry",
        "game": "game",
        "kind": "kind",
        "card": "card version",
        "n": "hand no.",
        "winner": "winner",
        "discarder": "discarder",
        "dealer": "dealer before",
        "streak": "streak before",
        "hand": "tiles",
        "win_tile": "win tile",
        "melds": "melds",
        "flags": "flags",
        "options": "hand options",
        "facts": "scoring",
        "bao": "liable (pays for all)",
        "change": "change",
        "paid_for": "paid for others",
        "capped": "not paid (cap)",
        "balance": "left",
        "outside": "outside",
        "total": "total",
        "settlement": "settlement",
        "from": "from",
        "to": "to",
        "amount": "amount",
    },
}
KIND_WORDS = {
    "zh": {"hand": "胡牌", "draw": "流局", "leave": "离场", "next": "下一底/局", "card": "改规则"},
    "en": {"hand": "hand", "draw": "drawn", "leave": "left", "next": "next game", "card": "new card"},
}


@lru_cache(maxsize=16)
def csv_text(table_id: str, version: int, lang: str) -> str:
    """The export of a table at `version`, in `lang`: written once per version and language and process, then a
    lookup (it holds no token and no key; a write makes a new version). Moved if the table moved meanwhile."""
    snapshot = snapshots.at(table_id, version)
    table, state = snapshot.table, snapshot.state
    words = CSV_HEADERS[lang]
    table_rules = RULESETS[table.ruleset].table
    parts = list(table_rules.parts.items())
    names = [table.players[s] for s in state.seats]  # the table's seats, in play order
    response = io.StringIO()
    response.write("\ufeff")  # a BOM, so that spreadsheet programs read the Chinese names as UTF-8
    writer = spreadsheet.SafeWriter(response)  # no cell a spreadsheet would run as a formula
    part_label = {f"part:{p}": label(lang) for p, label in parts}
    writer.writerow(
        [words[k] for k in ("seq", "game", "kind", "card", "n", "winner", "discarder", "dealer", "streak")]
        + [words[k] for k in ("hand", "win_tile", "melds", "flags", "options", "facts", "bao")]
        + [f"{part_label.get(column) or words[column]} {name}" for name in names for column in per_seat(table)]
    )
    response.writelines(entry_lines(snapshot, lang))
    writer.writerow([])
    writer.writerow([words["settlement"], words["from"], words["to"], words["amount"]])
    for t in ledger.settlement(state.totals, state.seats):
        writer.writerow(["", table.players[t["from"]], table.players[t["to"]], t["amount"]])
    return response.getvalue()


def per_seat(table: Table) -> list[str]:
    """The columns each seat has in a row of the export: its change, the game's parts of it, and the account."""
    table_rules = RULESETS[table.ruleset].table
    return (
        ["change"]
        + [f"part:{p}" for p in table_rules.parts]
        + ["paid_for", "capped", "balance"]
        + (["outside"] if table_rules.outside_label else [])
        + ["total"]
    )


@dataclass(frozen=True)
class Lines:
    """The export's rows of a table's entries as CSV lines, and the marks of those entries (Snapshot.marks)."""

    marks: list[int | None]
    lines: list[str]


_lines: OrderedDict[tuple[str, str], Lines] = OrderedDict()  # by (table id, language), least recent first
_lock = threading.Lock()


def entry_lines(snapshot: snapshots.Snapshot, lang: str) -> list[str]:
    """One CSV line per entry of the table at the snapshot's version, in `lang`: the lines this process wrote of an
    earlier version as far as the table still holds the same entries, and the entries after those read and written.
    Moved if the table moved while they were read."""
    table = snapshot.table
    key = (table.id, lang)
    with _lock:
        known = _lines.get(key)
    shared = snapshot.shared_with(known.marks) if known else 0
    lines = known.lines[:shared] if known else []
    if shared < snapshot.state.entries:
        # from the last entry both hold: its account is the account before the first entry to write
        entries = store.exported_entries(table, RULESETS[table.ruleset].table.fact_fields, first=max(1, shared))
        if snapshots.version_of(table.id) != snapshot.version:
            raise snapshots.Moved(table.id)
        before = entries.pop(0).after if shared else ledger.start(snapshot.state.config).to_dict()
        writer = spreadsheet.SafeWriter(SimpleNamespace(write=lines.append))  # csv writes a row in one call
        columns, seats = per_seat(table), snapshot.state.seats
        for entry in entries:
            writer.writerow(_csv_row(entry, before, snapshot.cards, table, lang, columns, seats))
            before = entry.after
    with _lock:
        _lines[key] = Lines(snapshot.marks, lines)
        _lines.move_to_end(key)
        while len(_lines) > TABLES:
            _lines.popitem(last=False)
    return lines


def forget() -> None:
    """Drop every table's rows (what a worker that never exported a table holds)."""
    with _lock:
        _lines.clear()
    csv_text.cache_clear()


def _csv_row(entry, before: dict, cards: dict, table: Table, lang: str, per_seat: list[str], seats: Seats) -> list:
    players = table.players
    card = cards[entry.card_version]
    hand = [""] * 7
    kind = "hand"
    if isinstance(entry, Hand):
        request = entry.result["request"]
        table_options = {o.id for o in card.rules.table_options} | {"house"}
        hand_options = {k: v for k, v in request.get("options", {}).items() if k not in table_options}
        # in the page's language: 碰 CCC ← 小南; 杠后开花; 财神 5p (the notation stays notation)
        melds = "; ".join(
            f"{MELD_NAMES[m['type']](lang)} {m['tiles']}" + (f" ← {players[m['from']]}" if m.get("from") else "")
            for m in request.get("melds", [])
        )
        rules = card.rules
        options = {o.id: o for o in rules.options}
        bao = entry.result.get("bao")
        hand = [
            request.get("hand", ""),
            request.get("win_tile", ""),
            melds,
            " ".join(rules.flag_by_id[f].label(lang) for f in request.get("flags", [])),
            " ".join(f"{options[k].label(lang)} {v}" if k in options else f"{k}={v}" for k, v in hand_options.items()),
            " · ".join(fact(lang) for fact in card.table.hand_facts(entry.result)),
            f"{players[bao]} ({bao_reason(rules, entry.result.get('bao_reason'), lang)})" if bao else "",
        ]
        winner, discarder = players[request["winner"]], players.get(request.get("discarder") or "", "")
    else:
        kind, winner, discarder = entry.kind, "", players.get(entry.seat, "") if entry.seat else ""
    head = [
        entry.seq,
        entry.after["game"],
        KIND_WORDS[lang][kind],
        entry.card_version,
        entry.n if isinstance(entry, Hand) else "",
        winner,
        discarder,
        players[before["dealer"]],
        before["dealer_streak"],
    ]
    return head + hand + _seat_values(entry, per_seat, seats)


def bao_reason(rules, code: str | None, lang: str) -> str:
    """Why one seat paid for everyone, in words (the game's declared texts), or the answer's code."""
    text = rules.declared.texts.get("bao_reasons", {}).get(code or "")
    return text(lang) if text else code or ""


def _seat_values(entry, per_seat: list[str], seats: Seats) -> list[int]:
    """The per-seat columns of an entry, for each of the table's `seats` in play order (one pass over its
    transfers)."""
    after = entry.after
    values = {
        seat: {
            "change": entry.applied[seat],
            "paid_for": 0,
            "capped": 0,
            "balance": after["balances"][seat],
            "outside": after["outside"][seat],
            "total": after["totals"][seat],
            **{column: 0 for column in per_seat if column.startswith("part:")},
        }
        for seat in seats
    }
    for r in entry.rows:
        payer, payee, part = values[r["from"]], values[r["to"]], f"part:{r.get('part')}"
        payer["capped"] += r["owed"] - r["amount"]
        if r.get("on_behalf_of"):
            payer["paid_for"] += r["amount"]
        if part in payer:
            payer[part] -= r["amount"]
            payee[part] += r["amount"]
    return [values[seat][column] for seat in seats for column in per_seat]
