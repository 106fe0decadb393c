"""The score sheet: zero-sum checks, rounds, totals and the standings.

"As an aid to checking the figures, the winner's score should equal the total of the other
players' scores in each game and at end of each round" (seed 000); "the player who has won the
most games in all rounds combined is the winner. In the case of a tie, the player with the
highest score is the winner" (seed 000).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core.scoring import GameResult


def signed(number: int) -> str:
    """A score as written on the sheet: +18, −5, 0 (with a real minus sign)."""
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"−{-number}")


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


def ranked_places(players: Sequence[str], key: Callable[[str], tuple[int, ...]]
                  ) -> tuple[tuple[str, int], ...]:
    """Players best first by ``key`` (lowest first) with their places: equal keys share the
    place and the next place skips (1, 1, 3); equal players keep the order given."""
    keys = {name: key(name) for name in players}
    order = sorted(players, key=lambda name: (keys[name], players.index(name)))
    return tuple((name, 1 + sum(1 for other in players if keys[other] < keys[name]))
                 for name in order)


def ranked_standings(players: Sequence[str], won: Mapping[str, int],
                     totals: Mapping[str, int]) -> tuple[Standing, ...]:
    """The standings of games won and totals already counted (a league adds up sessions'
    counts): most games won first, then the highest total; equal on both share the place;
    equal players keep the order given."""

    return tuple(Standing(name, won[name], totals[name], place) for name, place
                 in ranked_places(players, lambda name: (-won[name], -totals[name])))


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
    finished_early: bool = False
    """The table ended the session before its last planned game ("finish now"): the standings
    as they stand are the final ones, and the league counts the session as played."""

    @property
    def games_planned(self) -> int:
        return self.rounds_planned * len(self.players)

    @property
    def complete(self) -> bool:
        return self.finished_early or self.games_played >= self.games_planned

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
                results: Sequence[GameResult], *, finished_early: bool = False) -> ScoreSheet:
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
                      standings(players, results), len(results),
                      finished_early=finished_early and 0 < len(results) < rounds * len(players))
