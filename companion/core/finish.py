"""The order of finish of one game, which a rating across evenings learns from.

The winner finishes first; the others follow by what they still held: the lower the rack, the
better (seed 000: each player "totals the value of the tiles remaining on the racks"). A
game's score already says it, since every loser scores minus their rack (or minus its
difference from the winner's when the pool ran out), so a game from paper scores is ordered
by its scores the same way. Equal racks share a place.

>>> from companion.core.scoring import Ending, GameResult
>>> game = GameResult(Ending.PAPER, "Ann", ("Bob", "Ann", "Cy", "Di"), (-5, 18, -10, -3),
...                   (None,) * 4)
>>> finish_places(game)
{'Bob': 3, 'Ann': 1, 'Cy': 4, 'Di': 2}
"""

from __future__ import annotations

from companion.core.scoring import GameResult
from companion.core.standings import ranked_places


def finish_places(result: GameResult) -> dict[str, int]:
    """Each player's place in the game (1 = the winner), equal scores sharing a place."""
    scores = result.scores_by_name()

    def key(name: str) -> tuple[int, ...]:
        return (0 if name == result.winner else 1, -scores[name])

    return dict(sorted(((name, place) for name, place in ranked_places(result.players, key)),
                       key=lambda item: result.players.index(item[0])))
