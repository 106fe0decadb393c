"""How close the solver's default answer (the best play the referee allows) comes to an
exhaustive search, on small random tables of Pressman and the Sabra Way.

    .venv/bin/python -m benchmarks.solver_rules [--seed 1] [--cases 300]

The exhaustive search knows nothing of the solver: it tries every part of the rack, largest
first, and every split of the table's and those tiles into legal sets (``check_meld``), each
judged as a turn by ``referee_turn``. It prints every instance where the two differ, and how
many plays the referee refuses (must be none).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from functools import cache
from itertools import combinations

from companion.core.melds import check_meld
from companion.core.presets import PRESSMAN, SABRA, Preset
from companion.core.referee import referee_turn
from companion.core.solver import best_play
from companion.core.tiles import Colour, JokerKind, Meld, Tile

JOKER = Tile.of_joker(JokerKind.REGULAR)
MOST_SPLITS = 2000  # per multiset of tiles: far more than these sizes have


def _key(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=Tile.sort_key))


def splits_of(tiles: tuple[Tile, ...], preset: Preset) -> tuple[tuple[Meld, ...], ...]:
    @cache
    def splits(rest: tuple[Tile, ...]) -> tuple[tuple[Meld, ...], ...]:
        if not rest:
            return ((),)
        first, others = rest[0], rest[1:]
        found: list[tuple[Meld, ...]] = []
        for size in range(2, len(others) + 1):
            for combo in set(combinations(others, size)):
                meld = (first, *combo)
                if check_meld(meld, preset=preset).legal:
                    left = Counter(others)
                    left.subtract(combo)
                    found.extend((meld, *tail) for tail in splits(_key(tuple(left.elements()))))
                    if len(found) > MOST_SPLITS:
                        return tuple(found)
        return tuple(found)

    return splits(_key(tiles))


def exhaustive_best(table: tuple[Meld, ...], rack: tuple[Tile, ...], preset: Preset) -> int:
    table_tiles = tuple(t for meld in table for t in meld)
    for size in range(len(rack), 0, -1):
        for part in set(combinations(_key(rack), size)):
            if any(referee_turn(table, split, opened=True, preset=preset, rack=rack).legal
                   for split in splits_of(table_tiles + part, preset)):
                return size
    return 0


def instance(rng: random.Random) -> tuple[tuple[Meld, ...], tuple[Tile, ...]]:
    used: Counter[Tile] = Counter()
    melds: list[Meld] = []
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.5:
            colour = list(Colour)[rng.randrange(3)]
            length = rng.choice((3, 3, 4, 5))
            start = rng.randint(3, 9 - length)
            meld = [Tile.numbered(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(3, 6)
            meld = [Tile.numbered(c, number) for c in rng.sample(list(Colour), rng.choice((3, 4)))]
        if rng.random() < 0.5 and used[JOKER] < 2:
            meld[rng.randrange(len(meld))] = JOKER
        if any(used[t] + n > 2 for t, n in Counter(meld).items()):
            continue
        used.update(meld)
        melds.append(tuple(meld))
    rack: list[Tile] = []
    for _ in range(rng.randint(1, 4)):
        tile = Tile.numbered(list(Colour)[rng.randrange(3)], rng.randint(3, 6))
        if used[tile] < 2:
            used[tile] += 1
            rack.append(tile)
    for _ in range(rng.randint(0, 2 - used[JOKER])):
        used[JOKER] += 1
        rack.append(JOKER)
    return tuple(melds), tuple(rack)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    checked = refused = 0
    fewer: list[int] = []
    for _ in range(args.cases):
        preset = rng.choice((PRESSMAN, SABRA))
        table, rack = instance(rng)
        if not table or not rack:
            continue
        checked += 1
        play = best_play(table, rack, opened=True, preset=preset)
        if play.possible and not referee_turn(table, play.table, opened=True, preset=preset,
                                              rack=rack).legal:
            refused += 1
            print(f"REFUSED {preset.key}: {table} + {rack}")
        best = exhaustive_best(table, rack, preset)
        if len(play.played) != best:
            fewer.append(best - len(play.played))
            print(f"{preset.key}: {' | '.join(' '.join(map(str, m)) for m in table)} + "
                  f"{' '.join(map(str, rack))}: solver {len(play.played)}, exhaustive {best}")
    print(f"{checked} instances: {refused} plays refused by the referee; {len(fewer)} lay fewer "
          f"tiles than the exhaustive search ({sum(fewer)} tiles in all)")


if __name__ == "__main__":
    main()
