"""The referee's answer for a turn: violation codes, the penalty, the verdict value.

How each code is decided is written in ``companion.core.referee``; the sentences are in
``companion.core.english``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.core.melds import MeldVerdict
from companion.core.presets import Preset
from companion.core.reasons import Param, Reason
from companion.core.tiles import Meld, format_tiles


class ViolationCode(Enum):
    """The stable codes, in the order violations are reported."""

    TILE_REMOVED = "tile_removed"
    NOTHING_PLAYED = "nothing_played"
    NOT_FROM_RACK = "not_from_rack"
    ILLEGAL_SET = "illegal_set"
    MELD_TOO_LOW = "meld_too_low"
    MELD_TOUCHES_TABLE = "meld_touches_table"
    JOKER_BEFORE_MELD = "joker_before_meld"
    JOKER_NOT_REUSED = "joker_not_reused"
    JOKER_SET_MANIPULATED = "joker_set_manipulated"
    JOKER_NEEDS_TWO_RACK_TILES = "joker_needs_two_rack_tiles"
    JOKER_NOT_EXCHANGED = "joker_not_exchanged"
    JOKER_NEEDS_BOTH_MISSING_TILES = "joker_needs_both_missing_tiles"
    BONUS_JOKER_REPLACED_JOKER = "bonus_joker_replaced_joker"
    OVER_TIME = "over_time"


class NoteCode(Enum):
    TABLE_BEFORE_ILLEGAL = "table_before_illegal"


class Penalty(Enum):
    """What the player draws after the turn."""

    NONE = "none"
    DRAW_ONE = "draw_one"
    DRAW_THREE = "draw_three"




@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: its stable code and the parameters of its sentence."""

    code: ViolationCode | NoteCode
    params: dict[str, Param]

    @property
    def reason(self) -> Reason:
        return Reason(self.code.value, self.params)

    @property
    def message(self) -> str:
        return str(self.reason)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "message": self.message,
                "params": self.reason.params_json()}


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """The referee's answer for one turn.

    ``played`` is after − before as a multiset of tiles (sorted: colours, numbers, jokers).
    ``value``: before the initial meld, the value of the legal new sets made only of tiles
    from the rack (what ``meld_too_low`` compares with the preset's minimum); after it, the
    value of the legal sets after the turn that hold a tile from the rack (0 on a draw).
    ``set_verdicts`` are the set validator's verdicts on the table after the turn.
    """

    legal: bool
    violations: tuple[Violation, ...]
    played: Meld
    removed: Meld
    value: int
    opened: bool
    preset: Preset
    set_verdicts: tuple[MeldVerdict, ...]
    penalty: Penalty = Penalty.NONE
    notes: tuple[Violation, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(violation.code.value for violation in self.violations)

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "penalty": self.penalty.value,
            "violations": [violation.to_json() for violation in self.violations],
            "notes": [note.to_json() for note in self.notes],
            "played": [str(tile) for tile in self.played],
            "removed": [str(tile) for tile in self.removed],
            "value": self.value,
            "opened": self.opened,
            "preset": self.preset.key,
            "sets": [verdict.to_json() for verdict in self.set_verdicts],
        }

    @property
    def penalty_words(self) -> str:
        return penalty_words(self.penalty, self.preset)

    def describe(self) -> str:
        """A plain-text report for the command line."""
        if self.legal:
            lines = ["Legal turn."]
        elif self.penalty is Penalty.DRAW_ONE:
            lines = ["No play: a draw."]
        else:
            lines = ["Illegal turn."]
        lines.extend(f"Note: {note.message}" for note in self.notes)
        lines.append(f"Played: {format_tiles(self.played) or 'nothing'}")
        label = "Meld value" if not self.opened else "Value of the sets played into"
        lines.append(f"{label}: {self.value}")
        lines.extend(f"- [{v.code.value}] {v.message}" for v in self.violations)
        lines.append(f"Penalty: {self.penalty_words}")
        return "\n".join(lines)


def penalty_words(penalty: Penalty, preset: Preset) -> str:
    if penalty is Penalty.NONE:
        return "none."
    if penalty is Penalty.DRAW_ONE:
        return f"draw {preset.over_time_draw} tile from the pool; the turn is over."
    return (f"put the table back as it was, take back your tiles and draw "
            f"{preset.failed_turn_draw} tiles.")
