"""Sets on the table: groups, runs, jokers and their readings, meld values. (In progress.)"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.core.presets import PRESSMAN, Preset
from companion.core.tiles import JokerKind, Meld, Table


class MeldKind(Enum):
    RUN = "run"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class JokerReading:
    position: int
    joker: JokerKind
    stands_for: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    tiles: Meld
    legal: bool
    kind: MeldKind | None
    reason: str | None
    value: int | None
    jokers: tuple[JokerReading, ...]
    order: Meld
    reordered: bool

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class TableVerdict:
    sets: tuple[MeldVerdict, ...]
    preset: Preset

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


def check_meld(tiles: Meld, *, preset: Preset = PRESSMAN) -> MeldVerdict:
    raise NotImplementedError


def check_table(table: Table, *, preset: Preset = PRESSMAN) -> TableVerdict:
    raise NotImplementedError
