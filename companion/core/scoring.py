"""Score keeping: rack values, the score of each game, zero-sum checks and the standings.

The three ways a game reaches the score sheet:

* someone went out (``score_went_out``): each other player scores minus the value of the
  rack, the winner the sum of those (seeds 000, 002, 003, 004);
* the pool ran out and nobody can play (``score_exhausted``): lowest rack value wins, each
  other player scores −(own − winner's), the winner the sum (seeds 000, 003, 004); or, under
  the game-wiki variant, fewest tiles wins and it is scored as a normal win (seed 002);
* copied from a paper sheet (``check_paper_scores``): signed scores that must sum to zero with
  exactly one plus score.

A tie for the lowest rack is never resolved silently (the rule books are silent):
``TiedLowestRackError`` names the tied players and, where the tile counts are known, who
fewest tiles would pick; the caller must name the winner.

>>> from companion.core.presets import PRESSMAN
>>> from companion.core.tiles import parse_rack
>>> result = score_went_out(("A", "B", "C", "D"), "A", {
...     "B": Rack.of_tiles(parse_rack("R5")), "C": Rack.of_total(10), "D": Rack.of_total(3)},
...     preset=PRESSMAN)
>>> result.scores_by_name()
{'A': 18, 'B': -5, 'C': -10, 'D': -3}
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from companion.core.presets import ExhaustedPoolRule, Preset
from companion.core.tiles import (
    COPIES_OF_EACH_TILE,
    ImpossibleTilesError,
    Meld,
    Tile,
    all_numbered_tiles,
    check_inventory,
    format_tiles,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # "For 2 to 4 players" (seed 000)
MAX_NAME_LENGTH = 30
MAX_ROUNDS = 50
# Every numbered tile in the box, added up: the most any collection of racks can hold in points.
BOX_POINTS = COPIES_OF_EACH_TILE * sum(t.number or 0 for t in all_numbered_tiles())


class Ending(Enum):
    """How a game ended, as the score sheet records it."""

    WENT_OUT = "out"
    POOL_EXHAUSTED = "exhausted"
    PAPER = "paper"


class ScoringError(ValueError):
    """Input the score keeper refuses, naming the player or field it is about."""

    def __init__(self, message: str, *, player: str | None = None,
                 field: str | None = None) -> None:
        self.player = player
        self.field = field
        super().__init__(message)

    @property
    def where(self) -> dict[str, str]:
        location: dict[str, str] = {}
        if self.player is not None:
            location["player"] = self.player
        if self.field is not None:
            location["field"] = self.field
        return location


class TiedLowestRackError(ScoringError):
    """Two or more players tie for the win and nobody named the winner."""

    def __init__(self, message: str, *, tied: tuple[str, ...],
                 fewest_tiles: str | None) -> None:
        self.tied = tied
        self.fewest_tiles = fewest_tiles
        super().__init__(message, field="winner")


class UnbalancedScoresError(ScoringError):
    """Paper scores that do not sum to zero, with what the winner's score should be."""

    def __init__(self, message: str, *, difference: int, winner: str | None,
                 expected_winner_score: int | None) -> None:
        self.difference = difference
        self.winner = winner
        self.expected_winner_score = expected_winner_score
        super().__init__(message, field="scores")


def signed(number: int) -> str:
    """A score as written on the sheet: +18, −5, 0 (with a real minus sign)."""
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"−{-number}")


def names_in_words(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# Racks -------------------------------------------------------------------------------------

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


def check_racks(racks: Mapping[str, Rack], *, preset: Preset) -> None:
    """Refuse racks no real box could produce: a third copy of a tile, too many jokers,
    a negative total, or more than all the tiles in the box add up to.

    A total given without a joker count may include jokers, so it is held to the value of
    the whole box; with a joker count, its points are numbered tiles only.
    """
    most = box_value(preset)
    for name, rack in racks.items():
        if rack.tiles is None:
            if rack.points < 0:
                raise ScoringError(f"{name}'s rack total cannot be negative ({rack.points})",
                                   player=name, field="total")
            if rack.jokers < 0:
                raise ScoringError(f"{name}'s number of jokers cannot be negative",
                                   player=name, field="jokers")
            limit = BOX_POINTS if rack.jokers else most
            if rack.points > limit:
                raise ScoringError(
                    f"{name}'s rack total {rack.points} is more than all the tiles in the box "
                    f"add up to ({limit})", player=name, field="total")
    known = [tile for rack in racks.values() if rack.tiles is not None for tile in rack.tiles]
    try:
        check_inventory(known, preset.jokers)
    except ImpossibleTilesError as error:
        holders = [name for name, rack in racks.items()
                   if rack.tiles is not None and error.tile in rack.tiles]
        raise ScoringError(f"{error} (held by {names_in_words(holders)})",
                           player=holders[0] if len(holders) == 1 else None,
                           field="racks") from error
    jokers_in_box = sum(preset.jokers.values())
    jokers_on_racks = sum(rack.joker_count for rack in racks.values())
    if jokers_on_racks > jokers_in_box:
        raise ScoringError(f"the racks hold {jokers_on_racks} jokers, but this game has only "
                           f"{jokers_in_box}", field="jokers")
    numbered = sum(rack.numbered_points for rack in racks.values()
                   if rack.tiles is not None or rack.jokers)
    total = sum(rack.value(joker_penalty=preset.joker_penalty) for rack in racks.values())
    if numbered > BOX_POINTS or total > most:
        raise ScoringError(f"the racks add up to {total} points, more than all the tiles in "
                           f"the box ({most})", field="racks")


# Games -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GameResult:
    """One game on the score sheet: every player's score, in seating order."""

    ending: Ending
    winner: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    racks: tuple[Rack | None, ...]

    def scores_by_name(self) -> dict[str, int]:
        return dict(zip(self.players, self.scores, strict=True))

    def racks_by_name(self) -> dict[str, Rack | None]:
        return dict(zip(self.players, self.racks, strict=True))

    @property
    def check(self) -> ZeroSumCheck:
        return ZeroSumCheck.of(self.scores)


def _resolve_name(players: Sequence[str], given: str, field: str) -> str:
    """A name as typed, matched exactly after trimming, then ignoring case."""
    wanted = given.strip()
    if wanted in players:
        return wanted
    folded = [name for name in players if name.casefold() == wanted.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ScoringError(f"`{given}` is not a player in this session "
                       f"(players: {', '.join(players)})", player=given, field=field)


def _racks_of(players: Sequence[str], racks: Mapping[str, Rack | None]) -> dict[str, Rack | None]:
    by_name: dict[str, Rack | None] = {}
    for given, rack in racks.items():
        name = _resolve_name(players, given, "racks")
        if name in by_name:
            raise ScoringError(f"{name}'s rack is given twice", player=name, field="racks")
        by_name[name] = rack
    return by_name


def _loser_racks(players: Sequence[str], racks: dict[str, Rack | None], winner: str | None,
                 *, ending_words: str) -> dict[str, Rack]:
    losers: dict[str, Rack] = {}
    for name in players:
        if name == winner:
            continue
        rack = racks.get(name)
        if rack is None:
            raise ScoringError(f"{name}'s rack is missing: {ending_words}", player=name,
                               field="racks")
        if rack.is_empty:
            raise ScoringError(
                f"{name}'s rack is empty, but only the player who went out holds nothing",
                player=name, field="racks")
        losers[name] = rack
    return losers


def score_went_out(players: Sequence[str], winner: str, racks: Mapping[str, Rack | None], *,
                   preset: Preset) -> GameResult:
    """``winner`` laid the last tile; ``racks`` holds every other player's rack."""
    players = tuple(players)
    winner = _resolve_name(players, winner, "winner")
    by_name = _racks_of(players, racks)
    winner_rack = by_name.get(winner)
    if winner_rack is not None and not winner_rack.is_empty:
        raise ScoringError(f"{winner} went out, so {winner}'s rack must be empty, not "
                           f"{winner_rack.describe()}", player=winner, field="racks")
    losers = _loser_racks(players, by_name, winner,
                          ending_words="give every other player's rack")
    check_racks(losers, preset=preset)
    values = {name: rack.value(joker_penalty=preset.joker_penalty)
              for name, rack in losers.items()}
    scores = tuple(sum(values.values()) if name == winner else -values[name]
                   for name in players)
    return GameResult(Ending.WENT_OUT, winner, players, scores,
                      tuple(losers.get(name, Rack.of_tiles(())) for name in players))


def _fewest_tiles(names: Sequence[str], racks: Mapping[str, Rack]) -> tuple[str, ...] | None:
    """The players among ``names`` holding the fewest tiles; None when a count is unknown."""
    counts = {name: racks[name].tile_count for name in names}
    known = {name: count for name, count in counts.items() if count is not None}
    if len(known) < len(counts):
        return None
    least = min(known.values())
    return tuple(name for name in names if known[name] == least)


def score_exhausted(players: Sequence[str], racks: Mapping[str, Rack | None], *,
                    preset: Preset, winner: str | None = None) -> GameResult:
    """The pool ran out and nobody can play: every player's rack decides.

    ``winner`` is only for breaking a tie; naming anyone the rules do not allow is refused.
    """
    players = tuple(players)
    by_name = _racks_of(players, racks)
    all_racks = _loser_racks(players, by_name, None,
                             ending_words="when the pool runs out, give every player's rack")
    check_racks(all_racks, preset=preset)
    penalty = preset.joker_penalty
    values = {name: rack.value(joker_penalty=penalty) for name, rack in all_racks.items()}
    named = None if winner is None or not winner.strip() else _resolve_name(players, winner,
                                                                            "winner")
    fewest_rule = preset.exhausted_pool is ExhaustedPoolRule.FEWEST_TILES
    if fewest_rule:
        candidates = _fewest_tiles(players, all_racks)
        if candidates is None and named is None:
            raise ScoringError("the fewest-tiles rule needs every rack as tiles, or the "
                               "winner named", field="winner")
        what = "the fewest tiles"
    else:
        least = min(values.values())
        candidates = tuple(name for name in players if values[name] == least)
        what = f"the lowest rack ({least})"
    if named is not None:
        if candidates is not None and named not in candidates:
            raise ScoringError(f"{named} cannot win: {names_in_words(candidates)} "
                               f"{'has' if len(candidates) == 1 else 'have'} {what}",
                               player=named, field="winner")
        chosen = named
    else:
        assert candidates is not None
        if len(candidates) > 1:
            raise _tie_error(candidates, all_racks, what)
        chosen = candidates[0]
    if fewest_rule:
        scores = tuple(sum(v for n, v in values.items() if n != chosen) if name == chosen
                       else -values[name] for name in players)
    else:
        base = values[chosen]
        scores = tuple(sum(v - base for v in values.values()) if name == chosen
                       else -(values[name] - base) for name in players)
    return GameResult(Ending.POOL_EXHAUSTED, chosen, players, scores,
                      tuple(all_racks[name] for name in players))


def _tie_error(tied: tuple[str, ...], racks: Mapping[str, Rack], what: str) -> ScoringError:
    fewest = _fewest_tiles(tied, racks)
    message = (f"{names_in_words(tied)} tie for {what}; the rules do not say who wins, "
               "so the table names the winner.")
    suggestion = None
    if fewest is not None and len(fewest) == 1 and len(tied) > 1:
        suggestion = fewest[0]
        counts = ", ".join(f"{name} {racks[name].tile_count}" for name in tied)
        message += f" Fewest tiles would pick {suggestion} (tiles: {counts})."
    return TiedLowestRackError(message, tied=tied, fewest_tiles=suggestion)


def check_paper_scores(players: Sequence[str], scores: Mapping[str, int], *,
                       winner: str | None = None) -> GameResult:
    """Scores copied from a paper sheet: every player's, summing to zero, one plus score.

    ``winner``, when given, must be the player with the plus score.
    """
    players = tuple(players)
    by_name: dict[str, int] = {}
    for given, score in scores.items():
        name = _resolve_name(players, given, "scores")
        if name in by_name:
            raise ScoringError(f"{name}'s score is given twice", player=name, field="scores")
        by_name[name] = score
    for name in players:
        if name not in by_name:
            raise ScoringError(f"{name}'s score is missing: give every player's score",
                               player=name, field="scores")
    total = sum(by_name.values())
    winners = [name for name in players if by_name[name] > 0]
    unbalanced = (f"the scores add up to {signed(total)}, not 0 (a difference of "
                  f"{signed(total)})")
    if len(winners) != 1:
        problem = ("nobody has a plus score: the winner scores the sum of the others' minus"
                   if not winners else
                   f"{names_in_words(winners)} all have plus scores: only the game's winner "
                   "scores plus")
        if total:
            problem += f"; and {unbalanced}"
        raise UnbalancedScoresError(problem, difference=total, winner=None,
                                    expected_winner_score=None)
    named = None if winner is None or not winner.strip() else _resolve_name(players, winner,
                                                                            "winner")
    winner = winners[0]
    if named is not None and named != winner:
        raise ScoringError(f"{named} is named the winner, but {winner} has the plus score",
                           player=named, field="winner")
    if total:
        expected = -sum(score for name, score in by_name.items() if name != winner)
        raise UnbalancedScoresError(
            f"{unbalanced}: the others score {signed(-expected)} in all, so {winner}, the "
            f"winner, should score {signed(expected)}, not {signed(by_name[winner])}",
            difference=total, winner=winner, expected_winner_score=expected)
    return GameResult(Ending.PAPER, winner, players,
                      tuple(by_name[name] for name in players),
                      tuple(None for _ in players))


# Zero sum, the sheet and the standings -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class ZeroSumCheck:
    """The winner's plus against the others' minus (seed 000: "an aid to checking")."""

    plus: int
    minus: int

    @classmethod
    def of(cls, scores: Iterable[int]) -> ZeroSumCheck:
        values = tuple(scores)
        return cls(plus=sum(s for s in values if s > 0), minus=sum(s for s in values if s < 0))

    @property
    def difference(self) -> int:
        return self.plus + self.minus

    @property
    def balanced(self) -> bool:
        return self.difference == 0

    def describe(self) -> str:
        mark = "✓" if self.balanced else f"✗ off by {signed(self.difference)}"
        return f"{signed(self.plus)} / {signed(self.minus)} {mark}"


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    games_won: int
    score: int
    place: int


def standings(players: Sequence[str], results: Iterable[GameResult]) -> tuple[Standing, ...]:
    """Most games won first, then the highest total; equal on both share the place (1, 1, 3)."""
    won = dict.fromkeys(players, 0)
    totals = dict.fromkeys(players, 0)
    for result in results:
        won[result.winner] += 1
        for name, score in zip(result.players, result.scores, strict=True):
            totals[name] += score
    return ranked_standings(players, won, totals)


def ranked_standings(players: Sequence[str], won: Mapping[str, int],
                     totals: Mapping[str, int]) -> tuple[Standing, ...]:
    """The standings of games won and totals already counted (a league adds up sessions'
    counts): most games won first, then the highest total; equal on both share the place;
    equal players keep the order given."""

    def rank(name: str) -> tuple[int, int]:
        return (-won[name], -totals[name])

    order = sorted(players, key=lambda name: (rank(name), players.index(name)))
    return tuple(Standing(name, won[name], totals[name],
                          1 + sum(1 for other in players if rank(other) < rank(name)))
                 for name in order)


def round_of(game_number: int, player_count: int) -> int:
    """Games run 1.. across the session; a round has one game per player (seed 000)."""
    return (game_number - 1) // player_count + 1


@dataclass(frozen=True, slots=True)
class RoundSheet:
    number: int
    games: tuple[tuple[int, GameResult], ...]
    subtotals: tuple[int, ...]
    check: ZeroSumCheck


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Games grouped by round, with subtotals, totals, games won, standings and checks."""

    players: tuple[str, ...]
    rounds_planned: int
    rounds: tuple[RoundSheet, ...]
    totals: tuple[int, ...]
    games_won: tuple[int, ...]
    check: ZeroSumCheck
    standings: tuple[Standing, ...]
    games_played: int

    @property
    def games_planned(self) -> int:
        return self.rounds_planned * len(self.players)

    @property
    def complete(self) -> bool:
        return self.games_played >= self.games_planned

    @property
    def balanced(self) -> bool:
        return self.check.balanced and all(
            r.check.balanced and all(g.check.balanced for _, g in r.games) for r in self.rounds)

    @property
    def next_game(self) -> tuple[int, int] | None:
        """(game number, round) of the next game, or None when the session is complete."""
        if self.complete:
            return None
        number = self.games_played + 1
        return number, round_of(number, len(self.players))


def build_sheet(players: Sequence[str], rounds: int,
                results: Sequence[GameResult]) -> ScoreSheet:
    players = tuple(players)
    grouped: dict[int, list[tuple[int, GameResult]]] = {}
    for number, result in enumerate(results, start=1):
        grouped.setdefault(round_of(number, len(players)), []).append((number, result))
    round_sheets = []
    for round_number, games in sorted(grouped.items()):
        subtotals = tuple(sum(result.scores[i] for _, result in games)
                          for i in range(len(players)))
        round_sheets.append(RoundSheet(round_number, tuple(games), subtotals,
                                       ZeroSumCheck.of(subtotals)))
    totals = tuple(sum(result.scores[i] for result in results) for i in range(len(players)))
    won = tuple(sum(1 for result in results if result.winner == name) for name in players)
    return ScoreSheet(players, rounds, tuple(round_sheets), totals, won, ZeroSumCheck.of(totals),
                      standings(players, results), len(results))


# A session's players, rounds and rules -----------------------------------------------------

def check_players(names: Iterable[str]) -> tuple[str, ...]:
    """Trimmed, non-blank, unique (ignoring case) names, 2–4 of them, in any script."""
    players: list[str] = []
    for position, raw in enumerate(names, start=1):
        name = unicodedata.normalize("NFC", " ".join(raw.split()))
        if not name:
            continue
        field = f"player {position}"
        if len(name) > MAX_NAME_LENGTH:
            raise ScoringError(f"{field}: a name has at most {MAX_NAME_LENGTH} characters",
                               player=name, field=field)
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            raise ScoringError(f"{field}: the name holds a control character",
                               player=name, field=field)
        if any(name.casefold() == other.casefold() for other in players):
            raise ScoringError(f"{field}: {name} is already playing: names must differ",
                               player=name, field=field)
        players.append(name)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ScoringError(f"a session has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                           f"not {len(players)}", field="players")
    return tuple(players)


def check_rounds(rounds: int) -> int:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ScoringError(f"the number of rounds must be 1 to {MAX_ROUNDS}, not {rounds}",
                           field="rounds")
    return rounds


# What a session may override, with the allowed range of each number.
RULE_RANGES: dict[str, tuple[int, int]] = {
    "initial_meld": (0, 200),
    "turn_seconds": (10, 600),
    "joker_penalty": (0, 200),
    "failed_turn_draw": (0, 10),
    "over_time_draw": (0, 10),
}


def apply_rule_overrides(preset: Preset, overrides: Mapping[str, object]) -> Preset:
    """The preset with the session's own choices; an unknown or out-of-range choice is refused."""
    changes: dict[str, object] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        if key == "exhausted_pool":
            rules = {rule.value: rule for rule in ExhaustedPoolRule}
            if not isinstance(value, str) or value not in rules:
                raise ScoringError(f"exhausted_pool must be one of {', '.join(rules)}",
                                   field=key)
            changes[key] = rules[value]
        elif key == "sabra_joker_rules":
            if not isinstance(value, bool):
                raise ScoringError("sabra_joker_rules must be true or false", field=key)
            changes[key] = value
        elif key in RULE_RANGES:
            low, high = RULE_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ScoringError(f"{key} must be a whole number from {low} to {high}",
                                   field=key)
            changes[key] = value
        else:
            allowed = ", ".join([*RULE_RANGES, "exhausted_pool", "sabra_joker_rules"])
            raise ScoringError(f"`{key}` is not a rule a session can change ({allowed})",
                               field=key)
    return replace(preset, **changes)  # type: ignore[arg-type]


def rule_overrides(preset: Preset, base: Preset) -> dict[str, object]:
    """The choices where ``preset`` differs from ``base``, as plain JSON values."""
    differences: dict[str, object] = {}
    for key in (*RULE_RANGES, "exhausted_pool", "sabra_joker_rules"):
        mine, theirs = getattr(preset, key), getattr(base, key)
        if mine != theirs:
            differences[key] = mine.value if isinstance(mine, Enum) else mine
    return differences
