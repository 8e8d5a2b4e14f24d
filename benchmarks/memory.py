"""One process's memory while it scores distinct requests: it must stay flat (the engine remembers no hand).

    python -m benchmarks.memory            # 100,000 distinct requests (several minutes on 2 shared cores)
    python -m benchmarks.memory --quick    # 3,000: checks that it runs

The requests are dealt by each game's own deal in another process and streamed from a file, one line at a time,
so that the measuring process holds nothing but the engine: scores (wins, near misses, a table of three now and
then), the same with `alternatives`, and the waits of 13-tile hands, both games, every request distinct. The
resident set size (RSS, /proc/self/statm) is read after a garbage collection once 2,000 requests are scored,
then at every checkpoint up to 100,000 (30,000 and 100,000 among them). Goals: at most 10 MB above the first reading after 30,000, 20 MB after 100,000.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random

SEED = 30
FIRST = 2_000
CHECKPOINTS = (FIRST, 5_000, 10_000, 20_000, 30_000, 50_000, 75_000, 100_000)  # RSS read at each
GOALS_MB = {30_000: 10.0, 100_000: 20.0}  # above the reading after FIRST


def requests(seed: int) -> Iterator[dict]:
    """Distinct requests without end, in a fixed mix: of every ten, five scores (one a near miss, one at a table of
    three now and then), two with `alternatives`, three waits questions; the games in turn."""
    from calculator.engine.deal import change_one
    from calculator.engine.rulesets import RULESETS, SERVED

    from .dealt import waiting

    rng = Random(seed)
    seen: set[str] = set()
    number = 0
    while True:
        game = SERVED[number % len(SERVED)]
        ruleset = RULESETS[game]
        request = ruleset.deal(rng, None)
        slot = number % 10
        if slot == 0:
            request = change_one(request, rng, sorted(ruleset.kinds))
        elif slot == 1 and 3 in ruleset.table_sizes:
            request = ruleset.deal(rng, None, ruleset.seats({"players": 3}))
        elif slot in (5, 6):
            request = {**request, "alternatives": True}
        elif slot >= 7:
            request = waiting(request)
        text = json.dumps(request, sort_keys=True, ensure_ascii=False)
        if text in seen:
            continue
        seen.add(text)
        number += 1
        yield request


def write_requests(path: Path, count: int, seed: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for _, request in zip(range(count), requests(seed), strict=False):
            out.write(json.dumps(request, ensure_ascii=False) + "\n")


def rss_mb() -> float:
    """This process's resident set size now, in MB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        resident = int(statm.read().split()[1])
    return resident * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(lines: Iterator[str], checkpoints: tuple[int, ...], say=print) -> dict[int, float]:
    """Score each request of `lines` (JSON) once; the RSS (MB) after each checkpoint, a collection first."""
    from calculator.engine import score

    found: dict[int, float] = {}
    started = time.perf_counter()
    for number, line in enumerate(lines, start=1):
        score(json.loads(line))
        if number in checkpoints:
            gc.collect()
            found[number] = rss_mb()
            say(f"{number:>7} requests: RSS {found[number]:.1f} MB ({time.perf_counter() - started:.0f} s)")
            if number == checkpoints[-1]:
                break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="3,000 requests: checks that it runs")
    parser.add_argument("--write", type=Path, help=argparse.SUPPRESS)  # the child's part
    parser.add_argument("--count", type=int, default=CHECKPOINTS[-1], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write:
        write_requests(args.write, args.count, args.seed)
        return 0
    checkpoints = (500, 3_000) if args.quick else CHECKPOINTS
    goals = {} if args.quick else GOALS_MB
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "requests.jsonl"
        print(f"dealing {checkpoints[-1]:,} distinct requests in another process (seed {args.seed}) …")
        command = [sys.executable, "-m", "benchmarks.memory", "--write", str(path), "--count", str(checkpoints[-1])]
        subprocess.run(command + ["--seed", str(args.seed)], check=True, cwd=Path(__file__).resolve().parent.parent)
        with path.open(encoding="utf-8") as lines:
            found = measure(lines, checkpoints)
    first = found[checkpoints[0]]
    met = True
    for count, most in goals.items():
        grown = found[count] - first
        ok = grown <= most
        met = met and ok
        print(
            f"  {'PASS' if ok else 'FAIL'}  RSS after {count:,} ≤ {most:.0f} MB above after {FIRST:,}: +{grown:.1f} MB"
        )
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
