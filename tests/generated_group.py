"""A generated group of evenings for the group tests and the benchmark: random but seeded.

Each session has 2 to 4 of the group's players, 1 to 4 rounds, and games of every kind the API
records (someone went out with racks as tiles or totals, copied from paper); some sessions stop
before their last round. The numbers are made up here, never taken from the code under test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

NAMES = ("Ann", "Bob", "Chloé", "Dov", "Eve")
RACKS_AS_TILES = ("R5", "K7 K8", "J", "B13 O1", "O9 O10 O11")


@dataclass
class Evening:
    players: list[str]
    rounds: int
    days_ago: int
    games: list[dict[str, Any]] = field(default_factory=list)


def game_body(rng: random.Random, players: list[str]) -> dict[str, Any]:
    winner = rng.choice(players)
    losers = [name for name in players if name != winner]
    if rng.random() < 0.5:
        racks: dict[str, Any] = {}
        for seat, name in enumerate(losers):
            # Tiles for at most one loser, so racks never hold a third copy of a tile.
            racks[name] = rng.choice(RACKS_AS_TILES) if seat == 0 else rng.randint(1, 60)
        return {"ending": "out", "winner": winner, "racks": racks}
    minus = {name: -rng.randint(0, 50) for name in losers}
    minus[losers[0]] -= 1  # the winner's plus is never 0
    return {"ending": "paper", "scores": {winner: -sum(minus.values()), **minus}}


def generate_evenings(seed: int, count: int, *, names: tuple[str, ...] = NAMES,
                      days_apart: int = 7, max_rounds: int = 4,
                      full: bool = False) -> list[Evening]:
    """``count`` evenings, the last one today and each earlier one ``days_apart`` before."""
    rng = random.Random(seed)
    evenings = []
    for index in range(count):
        players = rng.sample(names, 4 if full else rng.randint(2, min(4, len(names))))
        rounds = max_rounds if full else rng.randint(1, max_rounds)
        planned = rounds * len(players)
        played = planned if full or rng.random() < 0.8 else rng.randint(0, planned - 1)
        evening = Evening(players, rounds, (count - 1 - index) * days_apart)
        evening.games = [game_body(rng, players) for _ in range(played)]
        evenings.append(evening)
    return evenings
