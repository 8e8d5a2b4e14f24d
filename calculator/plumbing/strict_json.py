"""The one JSON decoder for every request body (API.md: a body that is not plain JSON is `bad_json`).

Python's `json` accepts more than is safe to pass on: lone surrogates ("\\ud800") that no UTF-8 encoder can write
back (a stored one made every later page of its table fail), NUL characters that PostgreSQL refuses to store,
NaN / Infinity and numbers that overflow to infinity, integer literals too long to convert (Python refuses
more than 4,300 digits with a ValueError), and nesting as deep as the body is long (the parser recurses). Each of
these is a 400 `bad_json` whose `field` is the JSON path of the offending value or key ("players.E",
"melds[0].tiles"); the body itself (the root) has no field.

No Django here: the CLI (`manage.py score`) reads its input with the same rules.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from calculator.engine.errors import ScoreError
from calculator.engine.text import Msg, Said, msg

MAX_DEPTH = 32  # a score request nests 3 deep (melds[0].tiles), a table 3 (options.house.*)
MAX_INT_DIGITS = 4300  # Python's own limit on converting a decimal string to int (sys.int_info)


@dataclass(frozen=True)
class _Problem:
    """Why a value is refused: its message, given where the value is (`where`: the body, a key or a path)."""

    said: Callable[[Said | str], Msg]

    def error(self, path: list, is_key: bool = False) -> ScoreError:
        field = json_path(path)
        if not field:
            where: Said | str = msg("the body")
        elif is_key:
            where = msg("the key {field}", field=field)
        else:
            where = field
        return ScoreError("bad_json", self.said(where), field or None)


LONE_SURROGATE = _Problem(
    lambda where: msg("{where} holds a lone surrogate (like \\ud800), not a character", where=where)
)
NUL = _Problem(lambda where: msg("{where} holds a NUL character (\\u0000)", where=where))
LONG_INTEGER = _Problem(
    lambda where: msg("{where} is an integer of more than {digits:,} digits", where=where, digits=MAX_INT_DIGITS)
)
NOT_FINITE = _Problem(lambda where: msg("{where} is not a finite number (too large, or NaN / Infinity)", where=where))
TOO_DEEP = _Problem(lambda where: msg("{where} is nested more than {depth} levels deep", where=where, depth=MAX_DEPTH))


class _Refused:
    """Stands in for a number the parser must not return; the walk reports it with its path."""

    __slots__ = ("problem",)

    def __init__(self, problem: _Problem):
        self.problem = problem


def _parse_int(literal: str) -> int | _Refused:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        return _Refused(LONG_INTEGER)
    return int(literal)


def _parse_float(literal: str) -> float | _Refused:
    value = float(literal)  # 1e999 is inf
    return value if math.isfinite(value) else _Refused(NOT_FINITE)


def _parse_constant(literal: str) -> _Refused:  # NaN, Infinity, -Infinity: not JSON (RFC 8259)
    return _Refused(NOT_FINITE)


def read_json(request) -> object:
    """The body of a Django request, decoded strictly."""
    return decode(request.body)


def decode(raw: bytes | str) -> object:
    """`raw` as a JSON value, or a ScoreError("bad_json") that says what is wrong and where."""
    value = _parse(raw, MAX_DEPTH)
    _check_values(value, [])
    return value


def decode_each(raw: bytes | str) -> object:
    """As `decode`, but the elements of a JSON array are judged one by one (the CLI's batch, API.md: an array in
    gives an array out, errors included): an element holding a refused value (a lone surrogate, a NUL, nesting
    deeper than MAX_DEPTH …) comes back as its ScoreError, its `field` the path inside the element, and the others
    as their values. Text that is not JSON at all is still one ScoreError, raised."""
    value = _parse(raw, 2 * MAX_DEPTH)  # deeper is beyond judging element by element: the input is refused whole
    if not isinstance(value, list):  # one request: refused as `decode` refuses it (HTTP's answer)
        _check_nesting(value, [], 1)
        _check_values(value, [])
        return value
    return [_judged(item) for item in value]


def _judged(item: object) -> object:
    try:
        _check_nesting(item, [], 1)
        _check_values(item, [])
    except ScoreError as error:
        return error
    return item


def _parse(raw: bytes | str, depth: int) -> object:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ScoreError("bad_json", msg("the body is not UTF-8")) from None
    _check_depth(raw, depth)
    try:
        return json.loads(raw, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = getattr(error, "msg", "too deeply nested")
        raise ScoreError("bad_json", msg("the body is not valid JSON: {detail}", detail=detail)) from None


# ---------------------------------------------------------------------------------------------------------
# The checks


def _string_problem(text: str) -> _Problem | None:
    if "\x00" in text:
        return NUL
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return LONE_SURROGATE
    return None


def _check_values(value: object, path: list) -> None:
    """Raise for the first refused string, key or number, depth first (depth is bounded by `_check_depth`)."""
    if isinstance(value, str):
        problem = _string_problem(value)
        if problem:
            raise problem.error(path)
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _string_problem(key)
            if problem:
                raise problem.error([*path, key], is_key=True)
            _check_values(item, [*path, key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_values(item, [*path, index])
    elif isinstance(value, _Refused):
        raise value.problem.error(path)


def _check_nesting(value: object, path: list, depth: int) -> None:
    """Raise for the first container nested deeper than MAX_DEPTH in a parsed value (`_check_depth` bounds the
    recursion: the text was refused before parsing past 2 × MAX_DEPTH)."""
    if isinstance(value, dict | list):
        if depth > MAX_DEPTH:
            raise TOO_DEEP.error(path)
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            _check_nesting(item, [*path, key], depth + 1)


# Strings (with their escapes) and the characters that open, close and separate containers.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.S)


def _check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than `limit` before the recursive parser sees it, naming where it happens.

    Most bodies have fewer brackets in all than the limit and are not scanned."""
    if text.count("[") + text.count("{") <= limit:
        return
    frames: list[list] = []  # per open container: [is_object, its current key or index]
    last_string = None
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            if len(frames) == limit:
                raise TOO_DEEP.error(["" if frame[1] is None else frame[1] for frame in frames])
            frames.append([token == "{", None if token == "{" else 0])
        elif token in "]}":
            if frames:
                frames.pop()
        elif token == ",":
            if frames and not frames[-1][0]:
                frames[-1][1] += 1
        elif token == ":":
            if frames and frames[-1][0]:
                frames[-1][1] = _key_text(last_string)
        else:
            last_string = token


def _key_text(token: str | None) -> str:
    try:
        return json.loads(token) if token else ""
    except json.JSONDecodeError:
        return token[1:-1]


# ---------------------------------------------------------------------------------------------------------
# Paths

_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
MAX_KEY_SHOWN = 40


def _shown(key: str) -> str:
    """A key as it can be written into an answer: control characters and surrogates as \\uXXXX, long keys cut."""
    if len(key) > MAX_KEY_SHOWN:
        key = key[:MAX_KEY_SHOWN] + "…"
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", key)


def json_path(parts: list) -> str:
    """["melds", 0, "tiles"] → "melds[0].tiles"; [] → ""."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{_shown(part)}" if text else _shown(part)
    return text
