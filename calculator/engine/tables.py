"""Everything the engine keeps between requests, in one list: each table keyed on one small named thing (a block's
counts, a meld's text, a pattern of ranks), bounded, built once per key, and owned by the module named here.

Nothing else is kept: no answer, request, hand, amount or text is remembered (`tests/engine/test_no_memory.py`
reads the engine's and the ledger's code and fails on any other cache: `functools.cache` / `lru_cache`, or a
module-level dict, set or array written to at run time). Each table is a plain value a reader can print:

    >>> from calculator.engine.suits import COMPLETE, counts_of_key, keys_of
    >>> [counts_of_key(key) for key in keys_of(COMPLETE)[:3]]
    [(0, 0, 0, 0, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0, 0, 0, 0)]

What one question works out more than once (the blocks of a discard table) lives in that question's
`distance.Memo` and is dropped with it: it is not kept between requests, so it is not listed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Table:
    """One table: where it lives, what it is keyed on, how many entries it can hold, and when they are made."""

    module: str
    name: str
    key: str
    bound: int  # entries at most
    built: str  # "at import", or "on first use of each key" (then the bound is the number of keys)
    holds: str


TABLES: tuple[Table, ...] = (
    Table(
        "calculator.engine.suits",
        "COMPLETE",
        "a suit's key (its counts, base 5): one bit a key, 244 KB",
        2_869 + 18_874,
        "at import",
        "the suits that are sets only (2,869) or sets and one pair (18,874; their number of tiles says which); a "
        "block without sequences is read off its key",
    ),
    Table(
        "calculator.engine.wildcards",
        "NEEDS",
        "a suit's key",
        5**9,
        "on first use of each key",
        "the 财神 a suit needs for sets only and for sets and the pair (a small int a key, `DECODED` reads it); the "
        "keys hands reach: the blocks of their natural tiles and what those leave",
    ),
    Table(
        "calculator.engine.notation",
        "GROUP_TEXTS",
        "a group's sorted tile kinds (a pair, a triplet, a kong, a sequence)",
        123,
        "at import",
        "the group's notation",
    ),
    Table(
        "calculator.engine.request",
        "MELD_TEXTS",
        "a meld's text as usually written (555m, EEEE, 123s)",
        89,
        "at import",
        "the meld's tiles and shape",
    ),
    Table(
        "calculator.engine.rulesets.xinyu.reading",
        "COLOUR_CHOICES",
        "which of the four blocks hold a natural or meld tile",
        16,
        "at import",
        "the colour patterns a hand's tiles leave open",
    ),
    Table(
        "calculator.engine.rulesets.xinyu.shanten",
        "ROOM",
        "a 十三不搭 pattern of a suit's ranks and the 财神's rank in it",
        41 * 10,
        "at import",
        "the most ranks of a 十三不搭 pattern holding it",
    ),
    Table(
        "calculator.engine.text",
        "_CATALOGUES",
        "a language with a catalogue of the engine's texts (zh: English is the texts' own)",
        1,
        "on first use of each key",
        "the compiled catalogue (answers.mo) the engine's texts are read from: data, read once",
    ),
    Table(
        "calculator.engine.rulesets",
        "RULESETS",
        "a game's id",
        4,
        "when a game registers (at import; the test suite adds its own game)",
        "the registry: every game the engine scores",
    ),
)
