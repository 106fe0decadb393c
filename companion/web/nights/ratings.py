"""A group's ratings across evenings: openskill's Plackett–Luce model over every game's order
of finish (``core.finish``: the winner first, then by what was left on the racks; paper
scores by score), game after game in the order they were played.

Ratings are never stored or edited: they are recomputed from the stored games whenever a
page asks, so an edited or undone game changes them as it changes the league. Each player
starts at openskill's prior (μ 25, σ 25/3); the page shows μ ± σ and ranks by openskill's
conservative ordinal (μ − 3σ), so a player who has played little is not ranked above a
player known to be good.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, Response, abort
from flask_babel import format_date, gettext
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from companion.core.finish import finish_places
from companion.web.groups import charts
from companion.web.groups import service as groups
from companion.web.models import Game, Group, ScoreSession, db

bp = Blueprint("ratings", __name__)


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingHistory:
    ratings: tuple[Rating, ...]
    """Best first (by the ordinal)."""
    lines: dict[str, tuple[tuple[datetime, float, float], ...]]
    """Each player's μ and σ after each session they played."""


def group_games(group: Group) -> list[tuple[datetime, ScoreSession]]:
    sessions = db.session.scalars(
        select(ScoreSession).where(ScoreSession.group_id == group.id)
        .options(selectinload(ScoreSession.players),
                 selectinload(ScoreSession.games).selectinload(Game.entries))
        .order_by(ScoreSession.created_at, ScoreSession.id)).all()
    return [(session.created_at, session) for session in sessions]


def group_ratings(group: Group) -> RatingHistory:
    model = PlackettLuce()
    current = {}
    games = dict.fromkeys([m.name for m in group.members], 0)
    lines: dict[str, list[tuple[datetime, float, float]]] = {}
    for played_at, session in group_games(group):
        for result in session.results():
            places = finish_places(result)
            names = list(result.players)
            teams = [[current.get(name) or model.rating(name=name)] for name in names]
            rated = model.rate(teams, ranks=[places[name] for name in names])
            for name, (rating,) in zip(names, rated, strict=True):
                current[name] = rating
                games[name] = games.get(name, 0) + 1
        for name in session.player_names:
            if name in current:
                lines.setdefault(name, []).append((played_at, current[name].mu,
                                                   current[name].sigma))
    ratings = sorted((Rating(name, r.mu, r.sigma, games.get(name, 0))
                      for name, r in current.items()),
                     key=lambda rating: (-rating.ordinal, rating.name))
    return RatingHistory(tuple(ratings), {name: tuple(line) for name, line in lines.items()})


@bp.app_template_global()
def ratings_of(group: Group) -> tuple[Rating, ...]:
    return group_ratings(group).ratings


def rating_chart(name: str, line: tuple[tuple[datetime, float, float], ...]) -> bytes:
    import pygal

    chart = pygal.DateLine(**charts._common(
        title=gettext("%(name)s: rating after each session", name=name), show_legend=True,
        legend_at_bottom=True, show_dots=len(line) <= 60, x_label_rotation=0,
        x_value_formatter=lambda moment: format_date(moment, "d MMM y"),
        no_data_text=gettext("No rated games yet")))
    chart.add(gettext("rating (μ)"), [(moment, round(mu, 2)) for moment, mu, _sigma in line])
    chart.add(gettext("μ − 3σ"), [(moment, round(mu - 3 * sigma, 2))
                                   for moment, mu, sigma in line])
    return charts.without_scripts(chart.render())


@bp.get("/groups/<group_id>/players/<player_id>/rating.svg")
def player_rating_chart(group_id: str, player_id: str) -> Response:
    group = groups.find_group(group_id)
    member = groups.find_member(player_id)
    if group is None or member is None or member.group_id != group.id:
        abort(404, description=gettext("This group has no such player."))
    line = group_ratings(group).lines.get(member.name, ())
    return Response(rating_chart(member.name, line), mimetype="image/svg+xml",
                    headers=charts.CHART_HEADERS)
