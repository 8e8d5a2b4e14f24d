"""The guard: the engine's answers to a fixed set of requests, compared byte for byte before and after a change.

    python -m benchmarks.guard write OUT                 # build the set, score it, write requests and answers
    python -m benchmarks.guard write OUT --from FILE     # score the requests stored in FILE (not built again)
    python -m benchmarks.guard compare A B               # name each request whose answer differs
    python -m benchmarks.guard check REFERENCE           # score REFERENCE's requests now and compare (the usual)

A file holds one JSON line per request: its `name` (the set it comes from and its place), `lang`, `kind` ("score":
`calculator.engine.score`; "priority": `calculator.engine.claims.priority`), the `request` and the `answer`, each
line written canonically (`json.dumps(..., ensure_ascii=False, sort_keys=True)`). The requests are stored with the
answers, so a later change to the deal or to the engine's verdicts (which pick the dealt wins) cannot change the set.

The set (`build`, from a fixed seed): every case of the case files (tests/cases, and ../shared/cases when it is
there), with and without `alternatives`; bazhi's dealt wins in every (winner, dealer, discarder) at four and at a
table of three; xinyu's dealt wins with 0-4 财神; wins under random house cards; near misses (the discard table and
a nearest win); the 13-tile waits of wins and of hands that are not ready; claims on one discard; errors of every
code, written by hand and made by spoiling good requests. Every request in Chinese, a third of them in English too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random

from calculator.engine import score
from calculator.engine.claims import priority
from calculator.engine.deal import change_one, held
from calculator.engine.rulesets import RULESETS, SERVED

from .dealt import dealt_wins, near_misses, waiting, wins_in_every_seat_way

SEED = 30  # issue 30
ROOT = Path(__file__).resolve().parent.parent
CASE_DIRS = (ROOT / "tests" / "cases", ROOT.parent / "shared" / "cases")  # the copy, then ../shared when it is there
ENGLISH_EVERY = 3  # every third request is asked in English too

Entry = tuple[str, str, object]  # (name, kind, request)
KINDS: dict[str, Callable[[object, str], dict]] = {"score": score, "priority": priority}


# --------------------------------------------------------------------------- the set


def build(seed: int = SEED) -> list[dict]:
    """Every request of the guard, each as {name, kind, lang, request}: the Chinese ones, then English copies."""
    rng = Random(seed)
    entries: list[Entry] = [
        *case_requests(),
        *bazhi_requests(rng),
        *xinyu_requests(rng),
        *house_requests(rng),
        *miss_requests(rng),
        *waits_requests(rng),
        *claim_requests(rng),
        *error_requests(rng),
    ]
    lines = [{"name": name, "kind": kind, "lang": "zh", "request": body} for name, kind, body in entries]
    english = [
        {"name": name, "kind": kind, "lang": "en", "request": body}
        for i, (name, kind, body) in enumerate(entries)
        if i % ENGLISH_EVERY == 0 or name.startswith(("case", "error"))
    ]
    return lines + english


def numbered(prefix: str, bodies: list) -> Iterator[Entry]:
    for i, body in enumerate(bodies):
        yield f"{prefix}:{i}", "score", body


def case_requests() -> Iterator[Entry]:
    """Every case of every case file found, as it is and with `alternatives` (RULES.md §5.3)."""
    seen = set()
    for folder in CASE_DIRS:
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
            for case in json.loads(path.read_text(encoding="utf-8")):
                key = json.dumps(case["request"], sort_keys=True)
                if key in seen:
                    continue  # tests/cases is a copy of ../shared/cases
                seen.add(key)
                yield f"case:{path.name}:{case['name']}", "score", case["request"]
                yield (
                    f"case-alternatives:{path.name}:{case['name']}",
                    "score",
                    {**case["request"], "alternatives": True},
                )


def bazhi_requests(rng: Random) -> Iterator[Entry]:
    """bazhi's dealt wins: 40 in each of the 64 seat ways at four, 30 in each of the 27 at a table of three; every
    fourth with `alternatives`."""
    four = wins_in_every_seat_way("bazhi", 40, rng)
    three = wins_in_every_seat_way("bazhi", 30, rng, ("E", "S", "W"))
    for prefix, wins in (("bazhi-dealt", four), ("bazhi-three", three)):
        yield from numbered(prefix, [with_alternatives(body, i) for i, body in enumerate(wins)])


def xinyu_requests(rng: Random) -> Iterator[Entry]:
    """xinyu's dealt wins: 500 with each number of 财神 from 0 to 4; every fourth with `alternatives`."""
    dealt = dealt_wins("xinyu", 2500, rng)
    bodies = [with_alternatives(body, i) for i, body in enumerate(dealt.requests)]
    for i, (body, wild) in enumerate(zip(bodies, dealt.wild, strict=True)):
        yield f"xinyu-dealt:{wild}-caishen:{i}", "score", body


def with_alternatives(body: dict, i: int) -> dict:
    return {**body, "alternatives": True} if i % 4 == 0 else body


def house_requests(rng: Random) -> Iterator[Entry]:
    """Dealt wins of each served game under a random house card (every scoring rule at a random value), half of them
    with `alternatives`: 750 a game."""
    for game in SERVED:
        house = RULESETS[game].house
        bodies = []
        for i, body in enumerate(dealt_wins(game, 750, rng).requests):
            card = {rule.id: rng.choice(rule.choices).value for rule in house if rng.random() < 0.7}
            options = {**body["options"], "house": card}
            bodies.append({**body, "options": options, **({"alternatives": True} if i % 2 else {})})
        yield from numbered(f"house-{game}", bodies)


def miss_requests(rng: Random) -> Iterator[Entry]:
    """Near misses (one tile changed, no win): 750 a game, the discard table and a nearest win."""
    for game in SERVED:
        yield from numbered(f"miss-{game}", near_misses(game, 750, rng))


def waits_requests(rng: Random) -> Iterator[Entry]:
    """13-tile hands: the waits of dealt wins (bazhi at four (1,000) and three, xinyu with 0-4 财神 (1,000)), 九莲宝灯 (nine waits),
    and hands that are not ready (a tile of a dealt win changed: shanten, draws, a blocked 八支)."""
    bazhi = [waiting(body) for body in dealt_wins("bazhi", 1000, rng).requests]
    three = [waiting(body) for body in wins_in_every_seat_way("bazhi", 8, rng, ("E", "S", "W"))]
    xinyu = dealt_wins("xinyu", 1000, rng)
    yield from numbered("waits-bazhi", bazhi)
    yield from numbered("waits-bazhi-three", three)
    for i, (body, wild) in enumerate(zip(xinyu.requests, xinyu.wild, strict=True)):
        yield f"waits-xinyu:{wild}-caishen:{i}", "score", waiting(body)
    nine = [{**body, "hand": "1112345678999" + rng.choice("mps"), "melds": [], "flags": []} for body in bazhi[:60]]
    yield from numbered("waits-nine", nine)
    for game in SERVED:
        kinds = sorted(RULESETS[game].kinds)
        far = []
        for body in dealt_wins(game, 400, rng).requests:
            far.append(waiting(change_one(body, rng, kinds)))
        yield from numbered(f"waits-far-{game}", far)


def claim_requests(rng: Random) -> Iterator[Entry]:
    """Claims on one discard (`priority`), 150 a game: a dealt win by discard, and up to two other seats claiming
    its tile with the hands of other dealt wins (under the same card and dealer: often no win, now and then too
    many copies of a tile); every tenth body with a claim that cannot be read (its error is the answer)."""
    for game in SERVED:
        wins = [body for body in dealt_wins(game, 600, rng).requests if body["discarder"] is not None]
        for i in range(150):
            first = wins[i]
            seats = [seat for seat in "ESWN" if seat not in (first["winner"], first["discarder"])]
            claims = [_claim(first, first["winner"], rng)]
            copies = held(first)
            for seat in rng.sample(seats, rng.choice((0, 1, 2))):
                other = _fitting(wins, copies, rng)  # no kind more than four times in all the claims
                claims.append(_claim({**other, "options": first["options"], "dealer": first["dealer"]}, seat, rng))
            if i % 10 == 0:
                claims.append({"winner": "Q"})
            body = {"ruleset": game, "discarder": first["discarder"], "tile": first["win_tile"], "claims": claims}
            yield f"claims-{game}:{i}", "priority", body


def _fitting(wins: list[dict], copies: list[int], rng: Random) -> dict:
    """A dealt win whose hand and melds fit beside `copies` (no kind beyond four), added to them; after 50 tries any
    (the claims then hold too many copies: an error answer)."""
    for _ in range(50):
        other = rng.choice(wins)
        more = held({**other, "win_tile": ""})
        if all(a + b <= 4 for a, b in zip(copies, more, strict=True)):
            break
    for kind, count in enumerate(more):
        copies[kind] += count
    return other


def _claim(body: dict, seat: str, rng: Random) -> dict:
    """A dealt request as one claimant's claim: no discarder, tile or flags of its own (the body's), its exposed
    melds fed by seats other than the claimant's (a chow by its 上家)."""
    melds = []
    for meld in body["melds"]:
        if meld["type"] == "chow":
            melds.append({**meld, "from": "NESW"["ESWN".index(seat)]})
        elif "from" in meld:
            melds.append({**meld, "from": rng.choice([s for s in "ESWN" if s != seat])})
        else:
            melds.append(meld)
    return {
        "options": body["options"],
        "hand": body["hand"],
        "melds": melds,
        "winner": seat,
        "dealer": body["dealer"],
        "flags": [],
    }


# case B1 (the cases' one place for the hand): the base the error requests spoil
BAZHI = next(
    case["request"]
    for case in json.loads((CASE_DIRS[0] / "bazhi.json").read_text(encoding="utf-8"))
    if case["name"].startswith("B1 ")
)
XINYU = {
    "ruleset": "xinyu",
    "options": {"caishen": "5p"},
    "hand": "123m456m789sEEE5p",
    "win_tile": "2s",
    "melds": [],
    "winner": "S",
    "dealer": "E",
    "discarder": "W",
    "flags": [],
}


def _with(base: dict, **changes) -> dict:
    return {**base, **changes}


# Requests that each fail one check: every error code of the score endpoint, most of them several ways.
WRITTEN_ERRORS: dict[str, list[object]] = {
    "bad_json": [
        [],
        "bazhi",
        7,
        None,
        _with(BAZHI, extra=1),
        _with(BAZHI, alternatives="yes"),
        _with(BAZHI, hand=123),
        _with(BAZHI, melds="555m"),
        _with(BAZHI, hand="111345789p55s", melds=[{"type": "pung", "tiles": "777m", "from": "E", "x": 1}]),
        _with(BAZHI, win_tile=["8m"]),
    ],
    "unknown_ruleset": [_with(BAZHI, ruleset="riichi"), _with(BAZHI, ruleset=None), _with(BAZHI, ruleset=5)],
    "bad_tile": [
        _with(BAZHI, hand="111345789p79x55s"),
        _with(BAZHI, hand="0m11345789p79m55s"),
        _with(BAZHI, hand="m111345789p79m55s"),
        _with(XINYU, hand="123m456m789s8zEE5p"),
        _with(BAZHI, hand="1" * 250 + "m"),
        _with(BAZHI, win_tile="8x"),
        _with(BAZHI, hand="111345789p79m5 5s 1"),
    ],
    "tile_not_in_ruleset": [
        _with(BAZHI, hand="111345789p79mEE"),
        _with(BAZHI, hand="111345789p79m55s", win_tile="F"),
        _with(BAZHI, hand="1345789p79m55s", melds=[{"type": "pung", "tiles": "EEE", "from": "E"}]),
    ],
    "too_many_copies": [
        _with(BAZHI, hand="11111345789p9m55s"),
        _with(XINYU, hand="1111m456m789sEEE", win_tile="1m"),
        _with(BAZHI, hand="1345789p79m55s", melds=[{"type": "kong_concealed", "tiles": "1111p"}], win_tile="1p"),
    ],
    "wrong_tile_count": [
        _with(BAZHI, hand="111345789p79m5s"),
        _with(BAZHI, win_tile="12m"),
        _with(XINYU, hand="123m456m789sEEE5p5p"),
        _with(BAZHI, hand="111345789p79m55s", melds=[{"type": "pung", "tiles": "777s", "from": "E"}]),
    ],
    "bad_meld": [
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "triple", "tiles": "111p", "from": "E"}]),
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "pung", "tiles": "123p", "from": "E"}]),
        _with(BAZHI, hand="345789p79m55s", melds=["111p"]),
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "kong_concealed", "tiles": "1111p", "from": "E"}]),
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "pung", "tiles": "111p"}]),
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "pung", "tiles": "111p", "from": "S"}]),
        _with(XINYU, hand="456m789sEEE5p", melds=[{"type": "chow", "tiles": "123m", "from": "W"}]),
        _with(BAZHI, hand="5s", melds=[{"type": "pung", "tiles": "111p", "from": "E"}] * 5),
        _with(XINYU, hand="456m789sEEE5p", melds=[{"type": "chow", "tiles": "89s1m", "from": "E"}]),
    ],
    "chow_not_allowed": [_with(BAZHI, hand="111345p79m55s", melds=[{"type": "chow", "tiles": "789p", "from": "E"}])],
    "caishen_in_meld": [_with(XINYU, hand="123m456m789sE", melds=[{"type": "pung", "tiles": "5p5p5p", "from": "E"}])],
    "bad_seat": [
        _with(BAZHI, winner="X"),
        _with(BAZHI, dealer=None),
        _with(BAZHI, discarder="S"),
        _with(BAZHI, discarder=["W"]),
        _with(BAZHI, options={"tariff": "315", "players": 3}, discarder="N"),
        _with(BAZHI, options={"tariff": "315", "players": 3}, winner="N"),
        _with(BAZHI, hand="345789p79m55s", melds=[{"type": "pung", "tiles": "111p", "from": "Q"}]),
    ],
    "bad_flag": [
        _with(BAZHI, flags=["foo"]),
        _with(BAZHI, flags="kong_bloom"),
        _with(BAZHI, flags=["pao_long"]),
        _with(XINYU, flags=[["heavenly"]]),
    ],
    "flag_conflict": [
        _with(BAZHI, flags=["heavenly"]),
        _with(BAZHI, flags=["kong_bloom"], discarder=None),
        _with(XINYU, flags=["robbing_kong"], discarder=None),
        _with(XINYU, flags=["earthly"]),
        _with(XINYU, flags=["pao_long"]),
        _with(BAZHI, flags=["kong_bloom", "robbing_kong"]),
    ],
    "bad_option": [
        _with(BAZHI, options={"tariff": "999"}),
        _with(BAZHI, options=[1]),
        _with(BAZHI, options={"tariff": "315", "speed": 1}),
        _with(BAZHI, options={"tariff": "315", "house": {"nothing": 1}}),
        _with(BAZHI, options={"tariff": "315", "house": {"haidi": "maybe"}}),
        _with(BAZHI, options={"tariff": "315", "house": []}),
        _with(BAZHI, options={"tariff": "315", "players": 3.0}),
        _with(BAZHI, options={"tariff": "315", "players": "3"}),
        _with(BAZHI, options={"tariff": "315", "players": 5}),
        _with(BAZHI, options={"tariff": "315", "multi_jiao": "yes"}),
        _with(XINYU, options={}),
        _with(XINYU, options={"caishen": "5p", "indicator": "5p"}),
        _with(XINYU, options={"caishen": "5p", "dealer_streak": 0}),
        _with(XINYU, options={"caishen": "55p"}),
        _with(XINYU, options={"caishen": "5p", "players": 3}),
    ],
}

JUNK: tuple[object, ...] = (None, "", "x", "8m", "ESWN", 0, 3, -1, 2.5, True, [], ["E"], {}, {"a": 1}, "1z", "9z")
FIELDS = ("ruleset", "options", "hand", "win_tile", "melds", "winner", "dealer", "discarder", "flags", "alternatives")


def error_requests(rng: Random) -> Iterator[Entry]:
    """Every error code, as written above, then good requests with one field spoiled at random (300)."""
    for code, bodies in WRITTEN_ERRORS.items():
        for i, body in enumerate(bodies):
            yield f"error-{code}:{i}", "score", body
    good = dealt_wins("bazhi", 150, rng).requests + dealt_wins("xinyu", 150, rng).requests
    for i, body in enumerate(good):
        spoiled = dict(body)
        spoiled[rng.choice(FIELDS)] = rng.choice(JUNK)
        yield f"error-spoiled:{i}", "score", spoiled


# --------------------------------------------------------------------------- writing and comparing


def canonical(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def answered(entry: dict) -> dict:
    """The entry with its answer, the request read back from JSON first (as a later run reads it from the file)."""
    request = json.loads(canonical(entry["request"]))
    return {**entry, "request": request, "answer": KINDS[entry["kind"]](request, entry["lang"])}


def write(path: Path, entries: list[dict]) -> int:
    with path.open("w", encoding="utf-8") as out:
        for entry in entries:
            out.write(canonical(answered(entry)) + "\n")
    return len(entries)


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def stored_requests(path: Path) -> list[dict]:
    return [{key: entry[key] for key in ("name", "kind", "lang", "request")} for entry in read(path)]


def key_of(entry: dict) -> tuple[str, str]:
    return entry["name"], entry["lang"]


def first_difference(a: object, b: object, path: str = "") -> str:
    """Where two answers first differ, as a path ("payments[2].amount"), with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: {'missing' if key not in a else 'present'} before, {'missing' if key not in b else 'present'} now"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'answer'}: {canonical(a)[:200]} before, {canonical(b)[:200]} now"


def differences(before: list[dict], now: list[dict]) -> list[str]:
    """One line per request whose answer differs (or that only one side has)."""
    theirs = {key_of(entry): entry for entry in now}
    lines = []
    for entry in before:
        other = theirs.pop(key_of(entry), None)
        name = f"{entry['name']} ({entry['lang']})"
        if other is None:
            lines.append(f"{name}: missing now")
        elif canonical(entry["answer"]) != canonical(other["answer"]):
            lines.append(f"{name}: {first_difference(entry['answer'], other['answer'])}")
    lines += [f"{name} ({lang}): new" for name, lang in theirs]
    return lines


def report(before: list[dict], now: list[dict], out=sys.stdout) -> int:
    found = differences(before, now)
    for line in found:
        out.write(line + "\n")
    if found:
        out.write(f"guard: {len(found)} of {len(before)} answers differ\n")
        return 1
    out.write(f"guard: identical ({len(before)} requests)\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    written = commands.add_parser("write", help="score the set and write requests with answers")
    written.add_argument("out", type=Path)
    written.add_argument("--from", dest="source", type=Path, help="score the requests stored in this file")
    written.add_argument("--seed", type=int, default=SEED)
    compared = commands.add_parser("compare", help="name each request whose answer differs")
    compared.add_argument("before", type=Path)
    compared.add_argument("now", type=Path)
    checked = commands.add_parser("check", help="score a reference's requests now and compare")
    checked.add_argument("reference", type=Path)
    args = parser.parse_args(argv)
    if args.command == "write":
        entries = stored_requests(args.source) if args.source else build(args.seed)
        print(f"guard: {write(args.out, entries)} requests written to {args.out}")
        return 0
    if args.command == "compare":
        return report(read(args.before), read(args.now))
    reference = read(args.reference)
    return report(reference, [answered(entry) for entry in reference])


if __name__ == "__main__":
    sys.exit(main())
