"""Racks: what a player holds when a game ends, and what it costs.

"the other players add up the value of the tiles they are holding on their racks" and "the
penalty for having a joker on a rack is 30 points" (seed 000); "any joker, including the Mirror
Joker" (seed 003). The joker penalty is the session's (a preset field a session may override).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.core.presets import Preset
from companion.core.tiles import (
    COPIES_OF_EACH_TILE,
    Meld,
    Tile,
    all_numbered_tiles,
    format_tiles,
)

# Every numbered tile in the box, added up: the most any collection of racks can hold in points.
BOX_POINTS = COPIES_OF_EACH_TILE * sum(t.number or 0 for t in all_numbered_tiles())


@dataclass(frozen=True, slots=True)
class Rack:
    """What a player held when the game ended: the tiles, or only their points and jokers.

    ``points`` and ``jokers`` are used only when ``tiles`` is None (a rack given as a total).
    """

    tiles: Meld | None = None
    points: int = 0
    jokers: int = 0

    @classmethod
    def of_tiles(cls, tiles: Iterable[Tile]) -> Rack:
        return cls(tiles=tuple(tiles))

    @classmethod
    def of_total(cls, points: int, jokers: int = 0) -> Rack:
        return cls(tiles=None, points=points, jokers=jokers)

    @property
    def is_empty(self) -> bool:
        if self.tiles is not None:
            return not self.tiles
        return self.points == 0 and self.jokers == 0

    @property
    def tile_count(self) -> int | None:
        return None if self.tiles is None else len(self.tiles)

    @property
    def joker_count(self) -> int:
        if self.tiles is None:
            return self.jokers
        return sum(1 for tile in self.tiles if tile.is_joker)

    @property
    def numbered_points(self) -> int:
        if self.tiles is None:
            return self.points
        return sum(tile.number or 0 for tile in self.tiles)

    def value(self, *, joker_penalty: int) -> int:
        """Face value of the numbered tiles, plus the penalty for each joker (any kind)."""
        return self.numbered_points + self.joker_count * joker_penalty

    def describe(self) -> str:
        if self.tiles is not None:
            return format_tiles(self.tiles) or "nothing"
        if self.jokers:
            return f"{self.points} points and {self.jokers} joker{'s' * (self.jokers != 1)}"
        return f"{self.points} points"


def rack_value(tiles: Meld, *, joker_penalty: int) -> int:
    """Face value; any joker on a rack costs the penalty, the mirror joker too (seed 003)."""
    return Rack.of_tiles(tiles).value(joker_penalty=joker_penalty)


def box_value(preset: Preset) -> int:
    """What every tile in the box would cost on racks: the most all racks together can hold."""
    return BOX_POINTS + sum(preset.jokers.values()) * preset.joker_penalty
