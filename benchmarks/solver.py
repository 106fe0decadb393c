"""The solver side by side with ``rummikub-solver`` (PyPI), on the same random instances.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python -m benchmarks.solver [--seed 7] [--per-kind 40] [--per-size 15]

The peer is Martijn Pieters' integer-programming solver (after Den Hertog and Hulshof,
"Solving Rummikub Problems by Integer Linear Programming"), the one the field uses. Both run
in this process, one after the other, on each instance, each timed as the best of three
runs; the peer's one-off set-up (building the model, about 2 s) is not timed.

Instances (fixed by the seed, Pressman rules, the 106-tile box):

* arrange: legal tables of 30 to 106 tiles (random runs and groups, some tiles replaced by
  jokers), the same tables with one tile removed, and with one tile swapped for another from
  the box;
* best play: a legal table of 20, 40, 60 or 80 tiles and a rack of 14 tiles from the rest of
  the box, the player having made the initial meld; the most rack tiles laid. Ours twice:
  with the referee's rules (the default: only a play ``companion turn`` allows) and with
  ``any_table=True`` (any legal table after, what the peer answers).

The answers must agree: possible or not (arrange), the same number of rack tiles (best play,
any table); with the referee's rules never more tiles than the peer, and the referee must call
every such play legal.
The peer leaves a joker "free" (outside every set) when the other tiles can be laid without
it; this benchmark counts such an answer as possible only when each free joker can join one of
the peer's sets (``check_meld`` decides), which is what a player would do with it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from companion.core.melds import check_meld
from companion.core.presets import PRESSMAN
from companion.core.referee import referee_turn
from companion.core.solver import _verdict, arrange, best_play
from companion.core.tiles import Colour, JokerKind, Tile, all_numbered_tiles

JOKER = Tile.of_joker(JokerKind.REGULAR)
BOX = list(all_numbered_tiles()) * 2 + [JOKER, JOKER]
TIME_LIMIT = 60.0  # generous: the benchmark measures, it does not cut off


# --- instances -------------------------------------------------------------------------------

def random_legal_table(rng: random.Random, size: int) -> list[tuple[Tile, ...]]:
    """Random runs and groups drawn from the box until about ``size`` tiles are laid."""
    left = Counter(BOX)
    table: list[tuple[Tile, ...]] = []
    laid = 0
    failures = 0
    while laid < size - 2 and failures < 2000:
        meld = _random_meld(rng, left)
        if meld is None or laid + len(meld) > size:
            failures += 1
            continue
        left.subtract(meld)
        table.append(meld)
        laid += len(meld)
    return table


def _random_meld(rng: random.Random, left: Counter[Tile]) -> tuple[Tile, ...] | None:
    if rng.random() < 0.55:
        colour = rng.choice(list(Colour))
        length = rng.choice((3, 3, 4, 5, 6))
        start = rng.randint(1, 14 - length)
        meld = [Tile.numbered(colour, n) for n in range(start, start + length)]
    else:
        number = rng.randint(1, 13)
        meld = [Tile.numbered(c, number) for c in rng.sample(list(Colour), rng.choice((3, 4)))]
    if rng.random() < 0.15 and left[JOKER]:
        meld[rng.randrange(len(meld))] = JOKER
    needed = Counter(meld)
    if any(left[tile] < count for tile, count in needed.items()):
        return None
    return tuple(meld)


def arrange_instances(rng: random.Random, per_kind: int) -> list[tuple[str, list[Tile]]]:
    instances = []
    for _ in range(per_kind):
        size = rng.randint(30, 106)
        table = random_legal_table(rng, size)
        tiles = [tile for meld in table for tile in meld]
        instances.append(("legal", tiles))
        removed = list(tiles)
        removed.pop(rng.randrange(len(removed)))
        instances.append(("one removed", removed))
        spare = list((Counter(BOX) - Counter(tiles)).elements())
        if spare:
            swapped = list(tiles)
            swapped[rng.randrange(len(swapped))] = rng.choice(spare)
            instances.append(("one swapped", swapped))
    return instances


def play_instances(rng: random.Random, per_size: int) -> list[tuple[int, Any, list[Tile]]]:
    instances = []
    for size in (20, 40, 60, 80):
        for _ in range(per_size):
            table = random_legal_table(rng, size)
            spare = list((Counter(BOX) - Counter(t for m in table for t in m)).elements())
            rack = rng.sample(spare, 14)
            instances.append((size, table, rack))
    return instances


# --- the peer ---------------------------------------------------------------------------------

class Peer:
    def __init__(self) -> None:
        from rummikub_solver import RuleSet

        self.rules = RuleSet(min_initial_value=PRESSMAN.initial_meld)
        peer_colours = ("BLACK", "BLUE", "ORANGE", "RED")
        self.index: dict[Tile, Any] = {}
        for peer_tile in self.rules.tiles:
            if hasattr(peer_tile, "colour"):
                colour = Colour[peer_colours[list(peer_colours).index(peer_tile.colour.name)]]
                self.index[Tile.numbered(colour, peer_tile.value)] = peer_tile
            else:
                self.index[JOKER] = peer_tile
        self.back = {peer: tile for tile, peer in self.index.items()}

    def arrange(self, tiles: list[Tile]) -> bool:
        state = self.rules.new_game()
        state.add_table(*(self.index[t] for t in tiles))
        found = self.rules.arrange_table(state)
        if found is None:
            return False
        sets = [tuple(self.back[t] for t in peer_set) for peer_set in found.sets]
        return _attach_free_jokers(sets, found.free_jokers)

    def best_play(self, table: list[tuple[Tile, ...]], rack: list[Tile]) -> int:
        from rummikub_solver import SolverMode

        state = self.rules.new_game()
        state.add_table(*(self.index[t] for meld in table for t in meld))
        state.add_rack(*(self.index[t] for t in rack))
        state.initial = False
        found = self.rules.solve(state, SolverMode.TILE_COUNT)
        return 0 if found is None else len(found.tiles)


def _attach_free_jokers(sets: list[tuple[Tile, ...]], free: int) -> bool:
    for _ in range(free):
        for i, meld in enumerate(sets):
            if check_meld(meld + (JOKER,)).legal:
                sets[i] = meld + (JOKER,)
                break
        else:
            return False
    return True


# --- running ----------------------------------------------------------------------------------

REPEAT = 3


def timed(call: Callable[[], Any], *, forget: Callable[[], None] = lambda: None
          ) -> tuple[Any, float]:
    """The answer and the best of ``REPEAT`` timings: on a shared machine the other runs are
    the ones another process interrupted (the same for both solvers). ``forget`` runs before
    each: our solver forgets the verdicts it remembered, so a repeat is not a cache hit."""
    best = float("inf")
    for _ in range(REPEAT):
        forget()
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    return result, best


def summary(name: str, ours: list[float], theirs: list[float]) -> str:
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    return (f"{name:<28} n={len(ours):<4} ours median {ours_median * 1e3:8.2f} ms, worst "
            f"{max(ours) * 1e3:8.1f} ms | peer median {theirs_median * 1e3:8.2f} ms, worst "
            f"{max(theirs) * 1e3:8.1f} ms | median ratio {theirs_median / ours_median:6.1f}x, "
            f"worst-case ratio {max(theirs) / max(ours):6.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--per-size", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    peer = Peer()
    disagreements: list[str] = []
    fewer: list[int] = []  # the referee refused the peer's best table: tiles fewer

    times: dict[str, tuple[list[float], list[float]]] = {}
    for kind, tiles in arrange_instances(rng, args.per_kind):
        mine, ours = timed(partial(arrange, tiles, preset=PRESSMAN, time_limit=TIME_LIMIT),
                           forget=_verdict.cache_clear)
        theirs_possible, theirs = timed(partial(peer.arrange, tiles))
        for key in (kind, "arrange (all)"):
            times.setdefault(key, ([], []))
            times[key][0].append(ours)
            times[key][1].append(theirs)
        if not mine.complete:
            disagreements.append(f"arrange hit the time limit: {' '.join(map(str, tiles))}")
        elif mine.possible != theirs_possible:
            disagreements.append(f"arrange {kind} ({len(tiles)} tiles): ours {mine.possible}, "
                                 f"peer {theirs_possible}: {' '.join(map(str, tiles))}")
    for size, table, rack in play_instances(rng, args.per_size):
        theirs_count, theirs = timed(partial(peer.best_play, table, rack))
        for label, any_table in (("referee", False), ("any table", True)):
            mine, ours = timed(partial(best_play, table, rack, preset=PRESSMAN, opened=True,
                                       time_limit=TIME_LIMIT, any_table=any_table),
                               forget=_verdict.cache_clear)
            key = f"best play ({label}), table {size}"
            times.setdefault(key, ([], []))
            times[key][0].append(ours)
            times[key][1].append(theirs)
            wrong = (len(mine.played) != theirs_count if any_table
                     else len(mine.played) > theirs_count or (mine.possible and not referee_turn(
                         tuple(table), mine.table, opened=True, preset=PRESSMAN,
                         rack=tuple(rack)).legal))
            if label == "referee" and len(mine.played) < theirs_count:
                fewer.append(theirs_count - len(mine.played))
            if wrong or not mine.complete:
                disagreements.append(
                    f"best play ({label}) {size}: ours {len(mine.played)} (complete "
                    f"{mine.complete}), peer {theirs_count}: table "
                    f"{' | '.join(' '.join(map(str, m)) for m in table)}; "
                    f"rack {' '.join(map(str, rack))}")

    for name, (ours_times, theirs_times) in times.items():
        print(summary(name, ours_times, theirs_times))
    print(f"with the referee's rules, {len(fewer)} plays lay fewer tiles than the peer's "
          f"table (the referee refuses those tables), {sum(fewer)} tiles in all")
    total = sum(len(o) for name, (o, _t) in times.items()
                if name != "arrange (all)" and "any table" not in name)
    print(f"{total} instances, {len(disagreements)} different answers: same answer on every "
          f"instance: {'yes' if not disagreements else 'NO'}")
    for line in disagreements:
        print("  " + line)


if __name__ == "__main__":
    main()
