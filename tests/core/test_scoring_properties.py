"""Property: any sequence of games stays zero-sum in every game, every round and in total."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.presets import PRESSMAN
from companion.core.scoring import (
    GameResult,
    Rack,
    ScoringError,
    build_sheet,
    check_paper_scores,
    score_exhausted,
    score_went_out,
)

NAMES = ("Ann", "Bo", "Cyd", "Dee")


@st.composite
def games(draw: st.DrawFn, players: tuple[str, ...]) -> GameResult:
    ending = draw(st.sampled_from(["out", "exhausted", "paper"]))
    totals = {name: Rack.of_total(draw(st.integers(1, 150))) for name in players}
    if ending == "out":
        winner = draw(st.sampled_from(players))
        return score_went_out(players, winner,
                              {n: r for n, r in totals.items() if n != winner}, preset=PRESSMAN)
    if ending == "exhausted":
        least = min(rack.points for rack in totals.values())
        lowest = [n for n, rack in totals.items() if rack.points == least]
        return score_exhausted(players, totals, preset=PRESSMAN,
                               winner=draw(st.sampled_from(lowest)))
    winner = draw(st.sampled_from(players))
    losses = {n: -draw(st.integers(0, 150)) for n in players if n != winner}
    if not any(losses.values()):
        losses[next(iter(losses))] = -1
    return check_paper_scores(players, {**losses, winner: -sum(losses.values())})


@st.composite
def sessions(draw: st.DrawFn) -> tuple[tuple[str, ...], list[GameResult]]:
    players = NAMES[:draw(st.integers(2, 4))]
    return players, draw(st.lists(games(players), max_size=12))


@settings(max_examples=60, deadline=None)
@given(sessions())
def test_every_game_round_and_total_stays_zero_sum(
        session: tuple[tuple[str, ...], list[GameResult]]) -> None:
    players, results = session
    sheet = build_sheet(players, 3, results)
    assert all(sum(result.scores) == 0 for result in results)
    assert all(sum(round_sheet.subtotals) == 0 for round_sheet in sheet.rounds)
    assert sum(sheet.totals) == 0 and sheet.balanced
    assert sum(s.games_won for s in sheet.standings) == len(results)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES[:3]), st.integers(-60, 60), min_size=3))
def test_paper_scores_are_kept_only_when_they_balance_with_one_winner(
        scores: dict[str, int]) -> None:
    winners = [n for n, s in scores.items() if s > 0]
    try:
        result = check_paper_scores(NAMES[:3], scores)
    except ScoringError:
        assert sum(scores.values()) != 0 or len(winners) != 1
    else:
        assert sum(result.scores) == 0 and [result.winner] == winners
