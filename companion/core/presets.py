"""The rule sets the app offers, with where each number comes from.

A session stores the preset it was played under; every field can be overridden with
``dataclasses.replace``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from companion.core.tiles import JOKER_RACK_PENALTY, JokerKind

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # "For 2 to 4 players" (seed 000)
SHORTEST_TURN_SECONDS, LONGEST_TURN_SECONDS = 10, 600
"""The turn times a session may choose: the rule books say 1 minute (seed 000) or 2 (seed 004);
10 s to 10 minutes covers every table's house rule."""


class ExhaustedPoolRule(Enum):
    """Who wins, and how it is scored, when the pool is empty and nobody can play."""

    LOWEST_VALUE_RELATIVE = "lowest_value"
    """Seeds 000, 003, 004: lowest rack value wins; others score −(own − winner's)."""
    FEWEST_TILES = "fewest_tiles"
    """Seed 002 (game wiki): fewest tiles wins, scored as a normal win."""


@dataclass(frozen=True, slots=True)
class Preset:
    key: str
    name: str
    initial_meld: int
    turn_seconds: int
    jokers: dict[JokerKind, int] = field(hash=False)
    sabra_joker_rules: bool = False
    exhausted_pool: ExhaustedPoolRule = ExhaustedPoolRule.LOWEST_VALUE_RELATIVE
    joker_penalty: int = JOKER_RACK_PENALTY
    failed_turn_draw: int = 3  # "draw three tiles from the pool as a penalty" (seed 000)
    over_time_draw: int = 1  # "must draw a tile from the pool, ending their turns" (seed 000)
    tournament_joker_rule: bool = False
    """Seed 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    replaced with both missing tiles". Off in every preset; a session may turn it on."""

    @property
    def has_bonus_jokers(self) -> bool:
        return any(n for kind, n in self.jokers.items() if kind is not JokerKind.REGULAR)


PRESSMAN = Preset(
    key="pressman",
    name="Pressman (2018)",
    initial_meld=30,  # "sets that total at least 30 points" (seed 000)
    turn_seconds=60,  # "a time limit of 1 minute per player, per turn" (seed 000)
    jokers={JokerKind.REGULAR: 2},  # "106 tiles ... 2 jokers" (seed 001)
)

SABRA = Preset(
    key="sabra",
    name="Sabra Way",
    initial_meld=50,  # "an initial meld of 50 points" (seed 004)
    turn_seconds=120,  # "Two minutes per turn - per player" (seed 004)
    jokers={JokerKind.REGULAR: 2},
    sabra_joker_rules=True,  # "A meld containing a Joker may not be manipulated" (seed 004)
)

TWIST = Preset(
    key="twist",
    name="Twist",
    initial_meld=30,  # seed 003
    turn_seconds=60,  # "a time limit of 1 minute per player, per turn" (seed 003)
    jokers={  # "2 Regular Jokers, 2 Mirror Jokers, 2 Double Jokers, 2 Color Change Jokers"
        JokerKind.REGULAR: 2,
        JokerKind.DOUBLE: 2,
        JokerKind.MIRROR: 2,
        JokerKind.COLOUR_CHANGE: 2,
    },
)

PRESETS: dict[str, Preset] = {p.key: p for p in (PRESSMAN, SABRA, TWIST)}
DEFAULT_PRESET = PRESSMAN
BONUS_JOKER_PRESETS: frozenset[str] = frozenset(
    p.key for p in PRESETS.values() if p.has_bonus_jokers)
"""The presets whose box holds bonus jokers: pages show the D, M and C tiles only for these."""


MOST_JOKERS_IN_A_BOX = max(sum(p.jokers.values()) for p in PRESETS.values())
"""The most jokers any edition holds (8, Twist): no rack can hold more, whatever the preset."""

RULE_RANGES: dict[str, tuple[int, int]] = {
    "initial_meld": (0, 200),
    "turn_seconds": (SHORTEST_TURN_SECONDS, LONGEST_TURN_SECONDS),
    "joker_penalty": (0, 200),
    "failed_turn_draw": (0, 10),
    "over_time_draw": (0, 10),
}
"""The numbers of a preset a session may override, with the range allowed for each."""
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "exhausted_pool": tuple(rule.value for rule in ExhaustedPoolRule)}
"""The rules a session may override by picking one of a few values."""
RULE_SWITCHES: tuple[str, ...] = ("sabra_joker_rules", "tournament_joker_rule")
"""The rules a session may turn on or off."""
OVERRIDABLE_RULES: tuple[str, ...] = (*RULE_RANGES, *RULE_CHOICES, *RULE_SWITCHES)
"""Every rule a session may override: the one list forms, API and storage read."""


def with_tournament_rule(preset: Preset, on: bool) -> Preset:
    """The preset with seed 004's tournament joker rule turned on or off."""
    return replace(preset, tournament_joker_rule=on)


class UnknownPresetError(ValueError):
    pass


def get_preset(key: str | None) -> Preset:
    """Look a preset up by key (case-insensitive; ``sabra-way`` and ``sabra_way`` too)."""
    if key is None or not key.strip():
        return DEFAULT_PRESET
    normal = key.strip().lower().replace("-", "_").replace(" ", "_")
    aliases = {"sabra_way": "sabra", "pressman_2018": "pressman", "standard": "pressman"}
    normal = aliases.get(normal, normal)
    if normal not in PRESETS:
        raise UnknownPresetError(
            f"unknown preset `{key}`: choose one of {', '.join(PRESETS)}")
    return PRESETS[normal]
