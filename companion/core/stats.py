"""A player's statistics across sessions, for this month, this year or all time.

Everything is counted from the stored scores of the games the player sat in, in the order
they were played (session by session, game by game):

* a game is won by its winner (the one plus score); ``win_rate`` is games won / played;
* ``average_score`` is the total over the games played, rounded to the nearest whole point
  (halves away from zero), as a score sheet never shows fractions;
* ``longest_streak`` is the most games won one after the other, across sessions;
* the ``nemesis`` is the player who won most of the games this one lost; when several won
  as many, the one who did it last.

>>> from companion.core.scoring import Ending, GameResult
>>> def game(winner: str, ann: int) -> GameResult:
...     return GameResult(Ending.PAPER, winner, ("Ann", "Bob"), (ann, -ann), (None, None))
>>> evening = PlayedSession("s1", datetime(2026, 1, 8), ("Ann", "Bob"), 1,
...                         (game("Ann", 12), game("Bob", -7)))
>>> stats = player_stats("Ann", games_of("Ann", [evening]), [evening.tally()])
>>> (stats.games_won, stats.win_rate, stats.average_score, stats.best_game, stats.nemesis)
(1, 0.5, 3, 12, 'Bob')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from companion.core.league import PlayedSession, SessionTally
from companion.core.scoring import GameResult


class Period(Enum):
    """How far back the statistics look: the calendar month, the calendar year, or ever."""

    MONTH = "month"
    YEAR = "year"
    ALL = "all"

    def start(self, now: datetime) -> datetime | None:
        """The first moment inside the period, or None for all time."""
        if self is Period.MONTH:
            return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        if self is Period.YEAR:
            return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        return None

    @classmethod
    def parse(cls, text: str | None) -> Period:
        """``month``, ``year`` or ``all`` (absent means all); anything else is refused."""
        if text is None or text == "":
            return cls.ALL
        try:
            return cls(text)
        except ValueError:
            choices = ", ".join(period.value for period in cls)
            raise ValueError(f"period must be one of {choices}, not {text!r}") from None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    sessions_played: int
    sessions_won: int
    games_played: int
    games_won: int
    win_rate: float
    total_score: int
    average_score: int
    best_game: int | None
    worst_game: int | None
    longest_streak: int
    nemesis: str | None


def rounded_average(total: int, count: int) -> int:
    """``total / count`` to the nearest whole number, halves away from zero (0 when no count)."""
    if count == 0:
        return 0
    magnitude = (2 * abs(total) + count) // (2 * count)
    return magnitude if total >= 0 else -magnitude


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game a player sat in: when (the session's start), the player's score, the winner."""

    session: str
    played_at: datetime
    score: int
    winner: str


def games_of(name: str, sessions: Iterable[PlayedSession]) -> tuple[PlayerGame, ...]:
    """The player's games of whole sessions, in the order they were played."""
    return tuple(PlayerGame(session.key, session.played_at, result.scores_by_name()[name],
                            result.winner)
                 for session in sorted(sessions, key=lambda s: s.played_at)
                 for result in session.results if name in result.players)


def player_stats(name: str, games: Sequence[PlayerGame],
                 tallies: Iterable[SessionTally]) -> PlayerStats:
    """``name``'s statistics from the games the player sat in, oldest first, and the tallies
    of the sessions of the period (those without the player are passed over)."""
    played = [t for t in tallies if name in t.players and t.games_played]
    games_won = streak = longest = 0
    beaten_by: dict[str, int] = {}
    last_beaten: dict[str, int] = {}
    for index, game in enumerate(games):
        if game.winner == name:
            games_won += 1
            streak += 1
            longest = max(longest, streak)
        else:
            streak = 0
            beaten_by[game.winner] = beaten_by.get(game.winner, 0) + 1
            last_beaten[game.winner] = index
    scores = [game.score for game in games]
    total = sum(scores)
    nemesis = max(beaten_by, key=lambda other: (beaten_by[other], last_beaten[other]),
                  default=None)
    return PlayerStats(
        name=name, sessions_played=len(played),
        sessions_won=sum(1 for t in played if name in t.winners()),
        games_played=len(scores), games_won=games_won,
        win_rate=games_won / len(scores) if scores else 0.0,
        total_score=total, average_score=rounded_average(total, len(scores)),
        best_game=max(scores, default=None), worst_game=min(scores, default=None),
        longest_streak=longest, nemesis=nemesis)


def session_totals(games: Sequence[PlayerGame]) -> tuple[tuple[datetime, int], ...]:
    """The player's total in each session, in order: the chart on the player page."""
    points: list[tuple[str, datetime, int]] = []
    for game in games:
        if points and points[-1][0] == game.session:
            key, moment, total = points[-1]
            points[-1] = (key, moment, total + game.score)
        else:
            points.append((game.session, game.played_at, game.score))
    return tuple((moment, total) for _, moment, total in points)


def running_totals(players: Sequence[str],
                   results: Sequence[GameResult]) -> tuple[tuple[int, ...], ...]:
    """Each player's total after each game of a sheet (one tuple per player, in seat order)."""
    lines = []
    for name in players:
        total, line = 0, []
        for result in results:
            total += result.scores_by_name().get(name, 0)
            line.append(total)
        lines.append(tuple(line))
    return tuple(lines)
