"""What runs before a bazhi score decides much of its time: the same fresh bazhi wins timed after one call of
something else each (docs/PERFORMANCE.md § Today's figures).

    python -m benchmarks.before            # 7 kinds of "before", 640 fresh wins each (~1 min)
    python -m benchmarks.before --quick    # a tiny sample: checks that it runs

The wins are dealt as the figure deals them (`figure.dealt_in_a_child`: a process of its own), scored after a
warm-up, each once, on the thread's CPU time, the garbage collector paused; each kind of "before" gets wins of its
own (every win new to the process). No goal: it explains the figure, it does not judge anything.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from random import Random

from . import figure


def sweep(size: int) -> Callable[[], None]:
    """Write one byte in every 64 (a cache line) of `size` bytes: what a score reads leaves the processor's caches."""
    memory = bytearray(size)

    def write() -> None:
        for at in range(0, size, 64):
            memory[at] = 1

    return write


def befores(dealt: dict, score: Callable, riichi: Callable[[], None]) -> dict[str, Callable[[], None]]:
    """Each kind of work done before a score: nothing, other programs' work, and our own other answers."""
    others = {name: iter([r for one in dealt["rounds"] for r in one[name]]) for name in ("xinyu", "waits xinyu")}
    numbers = list(range(3000))

    def ours(name: str) -> Callable[[], None]:
        return lambda: score(next(others[name]))

    def figure_order() -> None:  # what precedes a bazhi win in the figure's rounds
        score(next(others["xinyu"]))
        riichi()
        score(next(others["waits xinyu"]))
        riichi()

    return {
        "nothing": lambda: None,
        "a riichi hand of mahjong": riichi,
        "sorting 3,000 numbers by a Python key": lambda: sorted(numbers, key=lambda n: n * 7 % 13),
        "writing over 1 MiB": sweep(1 << 20),
        "writing over 4 MiB": sweep(4 << 20),
        "a xinyu waits answer of ours": ours("waits xinyu"),
        "the figure's order": figure_order,
    }


def timed(wins: list[dict], before: Callable[[], None], score: Callable) -> float:
    """The median µs of scoring each of `wins` right after `before`."""
    clock, times = time.thread_time_ns, []
    gc.collect()
    gc.disable()
    try:
        for request in wins:
            before()
            start = clock()
            score(request)
            times.append(clock() - start)
    finally:
        gc.enable()
    return statistics.median(times) / 1e3


KINDS = 7  # the entries of `befores`


def run(per_kind: int, warm: int, seed: int = figure.SEED) -> dict[str, float]:
    """The median µs of a fresh bazhi win after each kind of `befores`."""
    per_round = min(figure.PER_ROUND, per_kind * KINDS)
    rounds = -(-per_kind * KINDS // per_round)  # enough bazhi wins; a round's xinyu waits are half its size
    dealt = figure.dealt_in_a_child(seed, per_round, rounds, warm)
    from mahjong.hand_calculating.hand import HandCalculator

    from calculator.engine import score

    hands: Iterator[tuple] = iter(figure.riichi_hands(Random(seed + 1), warm + 3 * per_kind, set()))
    estimate = HandCalculator.estimate_hand_value

    def riichi() -> None:
        tiles, win, config = next(hands)
        estimate(tiles, win, config=config)

    for request in dealt["warm"]["bazhi"]:
        score(request)
        riichi()
    wins = [r for one in dealt["rounds"] for r in one["bazhi"]]
    return {
        name: timed(wins[number * per_kind : (number + 1) * per_kind], before, score)
        for number, (name, before) in enumerate(befores(dealt, score, riichi).items())
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=640, help="fresh bazhi wins timed after each kind")
    parser.add_argument("--warm", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="a tiny sample that only checks the run works")
    args = parser.parse_args(argv)
    if args.quick:
        args.per_kind, args.warm = 8, 8
    print(f"{figure.machine()}\n")
    for name, median in run(args.per_kind, args.warm).items():
        print(f"{name:<38} {median:8.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
