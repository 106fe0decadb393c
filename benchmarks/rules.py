"""Benchmark of the rules core: how long a set, a full table and a turn take to judge.

    .venv/bin/python -m benchmarks.rules

The cases are fixed (no randomness), so runs compare. Times are the median of repeated runs,
in microseconds, on whatever machine runs it (the README records a 2-core figure).
"""

from __future__ import annotations

import functools
import itertools
import statistics
import time
import timeit

from companion.core.melds import check_meld, check_table
from companion.core.presets import PRESSMAN, TWIST
from companion.core.referee import referee_turn
from companion.core.tiles import JokerKind, Meld, Tile, parse_table, parse_tiles

SETS = {
    "run of 3": ("R5 R6 R7", PRESSMAN),
    "run of 13": ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", PRESSMAN),
    "group of 4": ("K9 B9 O9 R9", PRESSMAN),
    "run with 2 jokers, reordered": ("J R12 J R10", PRESSMAN),
    "illegal run (gap)": ("R5 R6 R9 J", PRESSMAN),
    "double joker group": ("B3 R3 D", TWIST),
    "mirror run": ("R3 R4 R5 M R5 R4 R3", TWIST),
    "colour-change run": ("R5 R6 C B8 B9", TWIST),
    "all jokers": ("J J D D", TWIST),
    "issue 8's slow Twist set": ("R6 C D R5 R7 J C M J D", TWIST),
}
FULL_TABLE = parse_table(
    "K1 K2 K3 K4 K5 | R1 R2 R3 | B1 B2 B3 B4 | O1 O2 O3 | K6 R6 B6 O6 | K7 R7 B7 | "
    "K8 K9 K10 K11 K12 K13 | R8 R9 R10 R11 | B8 B9 B10 | O8 O9 O10 O11 O12 O13 | "
    "R12 B12 K12 | R13 B13 J | O4 O5 O6 O7 | B5 J B7")
TURN_BEFORE = parse_table("R4 R5 R6 R7 R8 | K9 B9 O9 | B3 B4 J | O10 O11 O12")
TURN_AFTER = parse_table("R4 R5 R6 | R6 R7 R8 | K9 B9 O9 R9 | B3 B4 B5 | R11 K11 J | O10 O11 O12")


def yardstick() -> None:
    """A fixed pure-Python workload: the unit the cases are also given in, so that runs on a
    busy or a different machine compare (ratio = case time / yardstick time)."""
    sorted(str(n * 7919 % 1009) for n in range(500))


def median_microseconds(function: object, *, repeat: int = 7) -> float:
    timer = timeit.Timer(function)  # type: ignore[arg-type]
    loops, _ = timer.autorange()
    return statistics.median(timer.repeat(repeat, loops)) / loops * 1e6


NUMBERED_PARTS = ("", "R5", "R5 R6", "R5 B5", "R6 R5 R7", "R1 R13", "R5 R6 R7 R8")


def joker_mix_sets() -> list[Meld]:
    """Every mix of the Twist box's jokers (0–2 of each kind) with a few numbered fragments,
    laid in three orders: jokers after, jokers before, and interleaved."""
    sets: list[Meld] = []
    for counts in itertools.product(range(3), repeat=len(JokerKind)):
        jokers = [Tile.of_joker(kind) for kind, n in zip(JokerKind, counts) for _ in range(n)]
        for part in NUMBERED_PARTS:
            numbered = list(parse_tiles(part))
            if len(jokers) + len(numbered) < 3:
                continue
            interleaved = [tile for pair in itertools.zip_longest(numbered, jokers)
                           for tile in pair if tile is not None]
            for laid in (numbered + jokers, jokers + numbered, interleaved):
                sets.append(tuple(laid))
    return sets


def worst_joker_mix(*, top: int = 5) -> list[tuple[float, Meld]]:
    """The slowest sets among ``joker_mix_sets`` (best of three runs each, in ms)."""
    timings = []
    for meld in joker_mix_sets():
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            check_meld(meld, preset=TWIST)
            best = min(best, time.perf_counter() - start)
        timings.append((best * 1e3, meld))
    timings.sort(key=lambda timing: -timing[0])
    return timings[:top]


def main() -> None:
    unit = median_microseconds(yardstick)
    print(f"yardstick (sort 500 short strings): {unit:.1f} µs\n")
    print(f"{'case':40} {'µs':>10} {'× yardstick':>12}")

    def row(name: str, microseconds: float) -> None:
        print(f"{name:40} {microseconds:10.1f} {microseconds / unit:12.2f}")

    for name, (text, preset) in SETS.items():
        row("set: " + name, median_microseconds(
            functools.partial(check_meld, parse_tiles(text), preset=preset)))
    row("table: 14 sets, 56 tiles", median_microseconds(lambda: check_table(FULL_TABLE)))
    row("turn: split, retrieve a joker, 6 sets", median_microseconds(functools.partial(
        referee_turn, TURN_BEFORE, TURN_AFTER, opened=True, preset=PRESSMAN)))
    searched = len(joker_mix_sets())
    print(f"\nslowest sets among {searched} joker mixes (Twist box, best of 3):")
    for milliseconds, meld in worst_joker_mix():
        print(f"  {' '.join(map(str, meld)):36} {milliseconds:8.2f} ms "
              f"{milliseconds * 1e3 / unit:8.1f} × yardstick")


if __name__ == "__main__":
    main()
