"""A group's league: its sessions side by side, ranked the way a session's sheet ranks.

A session is won by whoever holds first place on its finished sheet (``build_sheet``'s
standings: most games won, then the highest total; equal on both share first place, so a
shared first place is a session won for each of them). A session still in progress has no
winner yet.

The league's places are the core's ``standings`` over every game of the group: most games
won, then the highest total, equal on both sharing the place. No second ranking is written
here; the league adds the sessions played and won beside them.

>>> from companion.core.scoring import Ending, GameResult
>>> game = GameResult(Ending.PAPER, "Ann", ("Ann", "Bob"), (5, -5), (None, None))
>>> evening = PlayedSession("s1", datetime(2026, 1, 8), ("Ann", "Bob"), 1, (game, game))
>>> evening.winners()
('Ann',)
>>> [(row.name, row.sessions_won, row.games_won, row.total_score, row.place)
...  for row in league(("Ann", "Bob"), [evening])]
[('Ann', 1, 2, 10, 1), ('Bob', 0, 0, -10, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from companion.core.scoring import GameResult, ScoreSheet, build_sheet, standings


@dataclass(frozen=True, slots=True)
class PlayedSession:
    """One session as the statistics see it: who sat where, the rounds planned, the games."""

    key: str
    played_at: datetime
    players: tuple[str, ...]
    rounds: int
    results: tuple[GameResult, ...]

    def sheet(self) -> ScoreSheet:
        return build_sheet(self.players, self.rounds, self.results)

    def winners(self) -> tuple[str, ...]:
        """First place on the finished sheet (shared when equal); nobody while in progress."""
        sheet = self.sheet()
        if not sheet.complete or not sheet.games_played:
            return ()
        return tuple(standing.name for standing in sheet.standings if standing.place == 1)


@dataclass(frozen=True, slots=True)
class LeagueRow:
    name: str
    sessions_played: int
    sessions_won: int
    games_played: int
    games_won: int
    total_score: int
    place: int


def league(members: Sequence[str], sessions: Iterable[PlayedSession]) -> tuple[LeagueRow, ...]:
    """Every member who played a game, best first; places from the core's standings."""
    played_sessions = dict.fromkeys(members, 0)
    won_sessions = dict.fromkeys(members, 0)
    games_played = dict.fromkeys(members, 0)
    results: list[GameResult] = []
    for session in sessions:
        if not session.results:
            continue
        for name in session.players:
            played_sessions[name] += 1
        for name in session.winners():
            won_sessions[name] += 1
        for result in session.results:
            for name in result.players:
                games_played[name] += 1
        results.extend(session.results)
    playing = tuple(name for name in members if games_played[name])
    return tuple(LeagueRow(standing.name, played_sessions[standing.name],
                           won_sessions[standing.name], games_played[standing.name],
                           standing.games_won, standing.score, standing.place)
                 for standing in standings(playing, results))
