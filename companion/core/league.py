"""A group's league: its sessions side by side, ranked the way a session's sheet ranks.

The statistics work from each session's tally (games played, and each player's games won
and total), which a database adds up in one query; they never re-score a game. The ranking
is the core's (``ranked_standings``, the function behind every sheet's standings), so a
league shares places exactly as a session does:

* a session is won by whoever holds first place on its finished sheet (most games won, then
  the highest total; equal on both share first place, so a shared first place is a session
  won for each of them); a session still in progress has no winner yet;
* the league's places rank every game of the group the same way: most games won, then the
  highest total, equal on both sharing the place. Sessions played and won stand beside them.

>>> from companion.core.scoring import Ending, GameResult
>>> game = GameResult(Ending.PAPER, "Ann", ("Ann", "Bob"), (5, -5), (None, None))
>>> evening = PlayedSession("s1", datetime(2026, 1, 8), ("Ann", "Bob"), 1, (game, game))
>>> evening.tally().winners()
('Ann',)
>>> [(row.name, row.sessions_won, row.games_won, row.total_score, row.place)
...  for row in league(("Ann", "Bob"), [evening.tally()])]
[('Ann', 1, 2, 10, 1), ('Bob', 0, 0, -10, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from companion.core.scoring import GameResult
from companion.core.standings import Standing, ranked_standings


@dataclass(frozen=True, slots=True)
class SessionTally:
    """A session counted up: seats, rounds planned, games played, each seat's wins and total."""

    key: str
    played_at: datetime
    players: tuple[str, ...]
    rounds: int
    games_played: int
    games_won: tuple[int, ...]
    totals: tuple[int, ...]
    finished_early: bool = False
    """Ended by the table before its last planned game: it counts as finished (a sheet's
    ``finished_early``)."""

    @property
    def complete(self) -> bool:
        return self.finished_early or self.games_played >= self.rounds * len(self.players)

    def standings(self) -> tuple[Standing, ...]:
        return ranked_standings(self.players, dict(zip(self.players, self.games_won, strict=True)),
                                dict(zip(self.players, self.totals, strict=True)))

    def winners(self) -> tuple[str, ...]:
        """First place on the finished sheet (shared when equal); nobody while in progress."""
        if not self.complete or not self.games_played:
            return ()
        return tuple(standing.name for standing in self.standings() if standing.place == 1)


@dataclass(frozen=True, slots=True)
class PlayedSession:
    """A session with its games, as a sheet holds it: the source a tally is counted from."""

    key: str
    played_at: datetime
    players: tuple[str, ...]
    rounds: int
    results: tuple[GameResult, ...]
    finished_early: bool = False

    def tally(self) -> SessionTally:
        return SessionTally(
            self.key, self.played_at, self.players, self.rounds, len(self.results),
            tuple(sum(1 for r in self.results if r.winner == name) for name in self.players),
            tuple(sum(r.scores_by_name().get(name, 0) for r in self.results)
                  for name in self.players),
            finished_early=self.finished_early)


@dataclass(frozen=True, slots=True)
class LeagueRow:
    name: str
    sessions_played: int
    sessions_won: int
    games_played: int
    games_won: int
    total_score: int
    place: int


def league(members: Sequence[str], tallies: Iterable[SessionTally]) -> tuple[LeagueRow, ...]:
    """Every member who played a game, best first; places from the core's standings."""
    sessions_played = dict.fromkeys(members, 0)
    sessions_won = dict.fromkeys(members, 0)
    games_played = dict.fromkeys(members, 0)
    games_won = dict.fromkeys(members, 0)
    totals = dict.fromkeys(members, 0)
    for tally in tallies:
        if not tally.games_played:
            continue
        for name, won, total in zip(tally.players, tally.games_won, tally.totals, strict=True):
            sessions_played[name] += 1
            games_played[name] += tally.games_played
            games_won[name] += won
            totals[name] += total
        for name in tally.winners():
            sessions_won[name] += 1
    playing = tuple(name for name in members if games_played[name])
    return tuple(LeagueRow(standing.name, sessions_played[standing.name],
                           sessions_won[standing.name], games_played[standing.name],
                           standing.games_won, standing.score, standing.place)
                 for standing in ranked_standings(playing, games_won, totals))
