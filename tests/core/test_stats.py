"""A player's statistics and the group's league, against a recomputation written apart.

The recomputation walks the games as a flat list with plain loops and counters; the code under
test goes session by session through the core's values.
"""

from __future__ import annotations

import doctest
from collections import Counter
from datetime import datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.league import PlayedSession, league
from companion.core.scoring import (
    GameResult,
    build_sheet,
    check_paper_scores,
    standings,
)
from companion.core.stats import (
    Period,
    PlayerStats,
    games_of,
    player_stats,
    rounded_average,
    running_totals,
    session_totals,
)

NAMES = ("Ann", "Bob", "Cy", "Dee")
START = datetime(2026, 1, 1, 19, 30)


@st.composite
def evenings(draw: st.DrawFn) -> list[PlayedSession]:
    sessions = []
    for index in range(draw(st.integers(0, 8))):
        players = tuple(draw(st.permutations(NAMES))[:draw(st.integers(2, 4))])
        rounds = draw(st.integers(1, 3))
        played = draw(st.integers(0, rounds * len(players)))
        results = []
        for _ in range(played):
            winner = draw(st.sampled_from(players))
            scores = {name: -draw(st.integers(1, 40)) for name in players if name != winner}
            scores[winner] = -sum(scores.values())
            results.append(check_paper_scores(players, scores))
        moment = START + timedelta(days=7 * draw(st.integers(0, 60)))
        sessions.append(PlayedSession(f"s{index}", moment, players, rounds, tuple(results)))
    return sessions


def recomputed(name: str, sessions: list[PlayedSession]) -> dict[str, object]:
    ordered = sorted(sessions, key=lambda s: s.played_at)
    flat = [(s, r) for s in ordered for r in s.results if name in r.players]
    scores = [r.scores_by_name()[name] for _, r in flat]
    wins = [r.winner == name for _, r in flat]
    longest = run = 0
    for won in wins:
        run = run + 1 if won else 0
        longest = max(longest, run)
    beaten = Counter(r.winner for _, r in flat if r.winner != name)
    top = max(beaten.values(), default=0)
    tied = {other for other, count in beaten.items() if count == top}
    last = None
    for _, r in flat:
        if r.winner in tied:
            last = r.winner
    played_sessions = {s.key for s, _ in flat}
    won_sessions = 0
    for s in ordered:
        if s.key not in played_sessions:
            continue
        sheet = build_sheet(s.players, s.rounds, s.results)
        if sheet.complete and any(st.name == name and st.place == 1 for st in sheet.standings):
            won_sessions += 1
    average = Fraction(sum(scores), len(scores)) if scores else Fraction(0)
    rounded = int(abs(average) + Fraction(1, 2)) * (1 if average >= 0 else -1)
    return {"sessions_played": len(played_sessions), "sessions_won": won_sessions,
            "games_played": len(scores), "games_won": sum(wins),
            "win_rate": sum(wins) / len(scores) if scores else 0.0,
            "total_score": sum(scores), "average_score": rounded,
            "best_game": max(scores, default=None), "worst_game": min(scores, default=None),
            "longest_streak": longest, "nemesis": last}


def stats_of(name: str, sessions: list[PlayedSession]) -> PlayerStats:
    return player_stats(name, games_of(name, sessions), [s.tally() for s in sessions])


@settings(max_examples=150, deadline=None)
@given(evenings())
def test_every_statistic_matches_a_recomputation_over_the_flat_list_of_games(
        sessions: list[PlayedSession]) -> None:
    for name in NAMES:
        stats = stats_of(name, sessions)
        assert {key: getattr(stats, key) for key in recomputed(name, sessions)} == \
            recomputed(name, sessions)


@settings(max_examples=100, deadline=None)
@given(evenings())
def test_the_league_adds_up_the_sessions_standings_and_ranks_like_a_sheet(
        sessions: list[PlayedSession]) -> None:
    tallies = [s.tally() for s in sessions]
    rows = {row.name: row for row in league(NAMES, tallies)}
    games = [r for s in sessions for r in s.results]
    for name in NAMES:
        per_session = [next(x for x in standings(s.players, s.results) if x.name == name)
                       for s in sessions if s.results and name in s.players]
        if not any(name in r.players for r in games):
            assert name not in rows
            continue
        assert rows[name].games_won == sum(x.games_won for x in per_session)
        assert rows[name].total_score == sum(x.score for x in per_session)
        assert rows[name].sessions_won == sum(
            1 for s in sessions if s.results and name in s.players
            and (sheet := build_sheet(s.players, s.rounds, s.results)).complete
            and any(x.name == name and x.place == 1 for x in sheet.standings))
    everyone = tuple(name for name in NAMES if name in rows)
    assert [(x.name, x.place) for x in standings(everyone, games)] == \
        [(row.name, row.place) for row in league(NAMES, tallies)]


def paper(winner: str, scores: dict[str, int]) -> GameResult:
    return check_paper_scores(tuple(scores), scores, winner=winner)


def test_a_shared_first_place_is_a_session_won_for_each_and_a_shared_league_place():
    games = (paper("Ann", {"Ann": 10, "Bob": -10}), paper("Bob", {"Ann": -10, "Bob": 10}))
    evening = PlayedSession("s1", START, ("Ann", "Bob"), 1, games)
    assert evening.tally().winners() == ("Ann", "Bob")
    assert [(row.name, row.sessions_won, row.place) for row in league(("Ann", "Bob"),
                                                                       [evening.tally()])] == \
        [("Ann", 1, 1), ("Bob", 1, 1)]


def test_a_session_still_in_progress_has_no_winner_yet():
    evening = PlayedSession("s1", START, ("Ann", "Bob"), 2,
                            (paper("Ann", {"Ann": 10, "Bob": -10}),))
    assert evening.tally().winners() == ()
    assert stats_of("Ann", [evening]).sessions_won == 0


def test_the_nemesis_is_who_won_most_when_the_player_lost_the_latest_on_a_tie():
    games = (paper("Bob", {"Ann": -5, "Bob": 9, "Cy": -4}),
             paper("Cy", {"Ann": -5, "Bob": -4, "Cy": 9}),
             paper("Ann", {"Ann": 9, "Bob": -5, "Cy": -4}))
    evening = PlayedSession("s1", START, ("Ann", "Bob", "Cy"), 1, games)
    assert stats_of("Ann", [evening]).nemesis == "Cy"
    assert stats_of("Dee", [evening]).nemesis is None


@pytest.mark.parametrize(("total", "count", "average"), [
    (7, 2, 4), (-7, 2, -4), (5, 3, 2), (-5, 3, -2), (0, 0, 0), (1, 3, 0), (-2, 3, -1)])
def test_the_average_is_rounded_to_the_nearest_point_halves_away_from_zero(
        total: int, count: int, average: int) -> None:
    assert rounded_average(total, count) == average


def test_a_period_starts_at_the_first_of_the_month_or_of_the_year():
    moment = datetime(2026, 11, 23, 12, 51, 7)
    assert Period.MONTH.start(moment) == datetime(2026, 11, 1)
    assert Period.YEAR.start(moment) == datetime(2026, 1, 1)
    assert Period.ALL.start(moment) is None
    assert Period.parse(None) is Period.ALL
    with pytest.raises(ValueError, match="period must be one of month, year, all"):
        Period.parse("week")


def test_running_totals_and_session_totals_follow_the_sheet():
    games = (paper("Ann", {"Ann": 10, "Bob": -10}), paper("Bob", {"Ann": -3, "Bob": 3}))
    assert running_totals(("Ann", "Bob"), games) == ((10, 7), (-10, -7))
    early = PlayedSession("a", START, ("Ann", "Bob"), 1, games)
    later = PlayedSession("b", START + timedelta(days=7), ("Ann", "Bob"), 1, games[:1])
    assert session_totals(games_of("Ann", [later, early])) == (
        (START, 7), (START + timedelta(days=7), 10))


def test_the_examples_in_the_league_and_stats_docstrings_hold() -> None:
    from companion.core import league as league_module
    from companion.core import stats as stats_module

    for module in (league_module, stats_module):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0 and outcome.failed == 0
