"""The engine's speed on hands it has never seen, beside `mahjong` 2.1.0 on riichi hands it has never seen.

    python -m benchmarks.figure            # 9 rounds (a few minutes on 2 shared cores)
    python -m benchmarks.figure --quick    # a tiny sample: checks that it runs (the figures mean nothing)

What a player meets is a hand the server has not scored before, so that is what is timed:
- the requests are dealt in a process of their own (`--deal`, which scores them to keep the wins) and read from a
  file by the timing process, which has scored none of them: every request is distinct, and each is scored once;
- before the rounds, a warm-up on other hands (`--warm` of each set), as a running server is warm;
- each round times, call by call, a bazhi win, a fresh riichi hand for `mahjong`'s `estimate_hand_value`, a xinyu
  win with 3-4 财神, a riichi hand, a 13-tile waits question, a riichi hand …: a busy machine slows both alike;
- every call is timed alone on the thread's CPU time (`time.thread_time_ns`: what other programs take is left
  out), the garbage collector paused within a round and run between rounds.

The sets: bazhi's dealt wins (each game's own deal, `benchmarks/dealt.py`: melds, flags, and every one of the 64
(winner, dealer, discarder) ways in every round); xinyu's dealt wins with 3 or 4 财神; the waits answer of 13-tile
hands (a dealt win without its winning tile, both games, xinyu with 0-4 财神): the whole `score()` a phone asks
for, every wait scored both ways. Each round gives one ratio per goal; a figure is the median of the rounds'.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

SEED = 30
ROUNDS = 9
PER_ROUND = 640  # requests of each set in a round: bazhi 10 in each of the 64 seat ways
WARM = 1000  # other requests of each set scored before the rounds
WAYS = 64

BAZHI_GOAL = 1.0  # bazhi median ≤ 1.0 × mahjong's median
CROWDED_GOAL = 4.0  # xinyu 3-4 财神 p99 ≤ 4 × mahjong's median
WAITS_GOAL_MS = 2.0  # waits of a 13-tile hand, p99


# --------------------------------------------------------------------------- dealing (in a process of its own)


def deal(seed: int, per_round: int, rounds: int, warm: int) -> dict:
    """The requests of the warm-up and of every round, all distinct: {"warm": sets, "rounds": [sets, …]}, the sets
    being {"bazhi": [...], "xinyu": [...], "waits bazhi": [...], "waits xinyu": [...]} (the waits half as many)."""
    from .dealt import dealt_wins, waiting, wins_in_every_seat_way

    rng = Random(seed)
    seen: set[str] = set()

    def distinct(requests: list[dict], count: int) -> list[dict]:
        found = []
        for request in requests:
            text = json.dumps(request, sort_keys=True)
            if text not in seen and len(found) < count:
                seen.add(text)
                found.append(request)
        return found

    def sets(count: int) -> dict[str, list[dict]]:
        each = max(1, -(-count // WAYS))
        bazhi = distinct(wins_in_every_seat_way("bazhi", each, rng), count)
        xinyu = distinct(dealt_wins("xinyu", count, rng, wild=(3, 4)).requests, count)
        half = count // 2
        waits_bazhi = distinct([waiting(r) for r in dealt_wins("bazhi", half, rng).requests], half)
        waits_xinyu = distinct([waiting(r) for r in dealt_wins("xinyu", half, rng).requests], half)
        for requests in (bazhi, waits_bazhi, waits_xinyu):
            rng.shuffle(requests)
        return {"bazhi": bazhi, "xinyu": xinyu, "waits bazhi": waits_bazhi, "waits xinyu": waits_xinyu}

    return {"warm": sets(warm), "rounds": [sets(per_round) for _ in range(rounds)]}


def dealt_in_a_child(seed: int, per_round: int, rounds: int, warm: int) -> dict:
    """`deal` run by another Python process: this one never scores a request before it times it."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "requests.json"
        command = [sys.executable, "-m", "benchmarks.figure", "--deal", str(out), "--seed", str(seed)]
        command += ["--per-round", str(per_round), "--rounds", str(rounds), "--warm", str(warm)]
        subprocess.run(command, check=True, cwd=Path(__file__).resolve().parent.parent)
        return json.loads(out.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- mahjong's side


def riichi_hands(rng: Random, count: int, seen: set) -> list[tuple]:
    """Distinct closed winning riichi hands with riichi declared (so every one reaches the full yaku, fu and points
    path): (136-format tiles, the winning tile, config)."""
    from mahjong.hand_calculating.hand_config import HandConfig

    hands = []
    while len(hands) < count:
        counts = [0] * 34
        counts[rng.randrange(34)] += 2
        for _ in range(4):
            first = rng.randrange(34)
            if first < 27 and first % 9 <= 6 and rng.random() < 0.55:
                for step in range(3):
                    counts[first + step] += 1
            else:
                counts[first] += 3
        if max(counts) > 4:
            continue
        tiles = [4 * kind + copy for kind in range(34) for copy in range(counts[kind])]
        win = rng.choice(tiles)
        tsumo = rng.random() < 0.4
        key = (tuple(counts), win // 4, tsumo)
        if key in seen:
            continue
        seen.add(key)
        hands.append((tiles, win, HandConfig(is_riichi=True, is_tsumo=tsumo)))
    return hands


# --------------------------------------------------------------------------- timing


@dataclass
class Round:
    """One round's CPU times (ns), call by call: ours per set, and `mahjong`'s."""

    ours: dict[str, list[int]]
    theirs: list[int]

    def ratio(self, name: str, share: float) -> float:
        """Our `share` quantile of set `name` to `mahjong`'s median in this round."""
        return quantile(self.ours[name], share) / quantile(self.theirs, 0.5)

    def p99_ms(self, name: str) -> float:
        """The p99 of set `name`, in ms."""
        return quantile(self.ours[name], 0.99) / 1e6


def quantile(samples: Sequence[int], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def timed_round(sets: dict[str, list], ours: Callable, theirs: Callable, their_hands: list) -> Round:
    """Every request of `sets` once (`ours`), each call alternating with `mahjong`'s (`theirs`) on its own hands."""
    clock = time.thread_time_ns
    times: dict[str, list[int]] = {name: [] for name in sets}
    mine: list[int] = []
    hands = iter(their_hands)
    longest = max(len(requests) for requests in sets.values())
    gc.collect()
    gc.disable()
    try:
        for i in range(longest):
            for name, requests in sets.items():
                if i >= len(requests):
                    continue
                start = clock()
                ours(requests[i])
                middle = clock()
                theirs(next(hands))
                end = clock()
                times[name].append(middle - start)
                mine.append(end - middle)
    finally:
        gc.enable()
    return Round(times, mine)


# --------------------------------------------------------------------------- the run


@dataclass
class Goal:
    text: str
    figure: str
    met: bool


def run(seed: int, per_round: int, rounds: int, warm: int, out=sys.stdout) -> tuple[list[Round], list[Goal]]:
    say = out.write
    say(f"dealing {warm} + {rounds} × {per_round} requests of each set in another process (seed {seed}) …\n")
    dealt = dealt_in_a_child(seed, per_round, rounds, warm)
    from mahjong.hand_calculating.hand import HandCalculator

    from calculator.engine import score  # only now: nothing was scored in this process before the rounds

    estimate = HandCalculator.estimate_hand_value

    def theirs(hand: tuple) -> None:
        estimate(hand[0], hand[1], config=hand[2])

    rng, seen = Random(seed + 1), set()
    say("warming up on other hands …\n")
    warm_sets = dealt["warm"]
    timed_round(warm_sets, score, theirs, riichi_hands(rng, sum(len(v) for v in warm_sets.values()), seen))
    found = []
    for number, sets in enumerate(dealt["rounds"], start=1):
        hands = riichi_hands(rng, sum(len(v) for v in sets.values()), seen)
        found.append(timed_round(sets, score, theirs, hands))
        one = found[-1]
        say(
            f"round {number}: bazhi {one.ratio('bazhi', 0.5):.2f}×, xinyu 3-4 财神 p99 {one.ratio('xinyu', 0.99):.2f}×, "
            f"waits p99 bazhi {one.p99_ms('waits bazhi'):.2f} ms, xinyu {one.p99_ms('waits xinyu'):.2f} ms\n"
        )
    return found, goals(found)


def goals(found: list[Round]) -> list[Goal]:
    bazhi = statistics.median(one.ratio("bazhi", 0.5) for one in found)
    crowded = statistics.median(one.ratio("xinyu", 0.99) for one in found)
    waits = {game: statistics.median(one.p99_ms(f"waits {game}") for one in found) for game in ("bazhi", "xinyu")}
    return [
        Goal(f"bazhi fresh-hand median ≤ {BAZHI_GOAL}× mahjong's fresh median", f"{bazhi:.2f}×", bazhi <= BAZHI_GOAL),
        Goal(
            f"xinyu 3-4 财神 fresh p99 ≤ {CROWDED_GOAL:.0f}× mahjong's median",
            f"{crowded:.2f}×",
            crowded <= CROWDED_GOAL,
        ),
        *(
            Goal(f"waits of a 13-tile {game} hand p99 ≤ {WAITS_GOAL_MS} ms", f"{ms:.2f} ms", ms <= WAITS_GOAL_MS)
            for game, ms in waits.items()
        ),
    ]


def table(found: list[Round]) -> str:
    """Medians and p99 of every set over all rounds (µs), and mahjong's."""
    rows = [("set", "n", "median µs", "p99 µs")]
    for name in found[0].ours:
        samples = [ns for one in found for ns in one.ours[name]]
        rows.append(
            (name, str(len(samples)), f"{quantile(samples, 0.5) / 1e3:.1f}", f"{quantile(samples, 0.99) / 1e3:.1f}")
        )
    theirs = [ns for one in found for ns in one.theirs]
    rows.append(
        ("mahjong", str(len(theirs)), f"{quantile(theirs, 0.5) / 1e3:.1f}", f"{quantile(theirs, 0.99) / 1e3:.1f}")
    )
    return "\n".join(f"{a:<12} {b:>7} {c:>11} {d:>10}" for a, b, c, d in rows)


def machine() -> str:
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"Python {platform.python_version()} · {os.cpu_count()} CPUs · load average {load}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--per-round", type=int, default=PER_ROUND, help="requests of each set in a round")
    parser.add_argument("--warm", type=int, default=WARM, help="other requests of each set scored first")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="a tiny sample that only checks the run works")
    parser.add_argument("--deal", type=Path, help=argparse.SUPPRESS)  # the child's part: write the requests here
    args = parser.parse_args(argv)
    if args.deal:
        args.deal.write_text(json.dumps(deal(args.seed, args.per_round, args.rounds, args.warm)), encoding="utf-8")
        return 0
    if args.quick:
        args.rounds, args.per_round, args.warm = 2, 16, 8
    before = machine()
    found, judged = run(args.seed, args.per_round, args.rounds, args.warm)
    print()
    print(table(found))
    print()
    for goal in judged:
        print(f"  {'PASS' if goal.met else 'FAIL'}  {goal.text}: {goal.figure}")
    print(f"\nbefore: {before}\nafter:  {machine()}")
    return 0 if all(goal.met for goal in judged) else 1


if __name__ == "__main__":
    sys.exit(main())
