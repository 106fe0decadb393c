"""Benchmark of groups: five years of weekly evenings (250 sessions of 16 games, 4 players).

    .venv/bin/python -m benchmarks.groups [--sessions 250]

The group is generated (seeded) and stored straight into a fresh SQLite file, every game
scored by the core first. Then each page is fetched through the real app (test client, no
network) and timed: the median of repeated fetches, in milliseconds. The yardstick, measured
in the same run, is the score sheet of one 16-game session: a page the app already serves.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select

from companion.core.presets import PRESSMAN
from companion.core.scoring import Rack, check_paper_scores, score_went_out
from companion.core.tiles import format_tiles, parse_rack
from companion.web import create_app
from companion.web.extensions import db
from companion.web.groups import service
from companion.web.models import Game, GameEntry, GroupMember, Player, ScoreSession
from tests.generated_group import generate_evenings


def store_group(count: int) -> tuple[str, str, str]:
    """The generated group in the database: (group id, a player's id, a session's id)."""
    group, _key = service.create_group("Five years of Thursdays")
    members = {}
    for name in ("Ann", "Bob", "Chloé", "Dov", "Eve"):
        member = GroupMember(public_id=service.new_public_id(), name=name, group=group)
        db.session.add(member)
        members[name] = member
    db.session.flush()
    today = datetime(2026, 11, 19, 20, 0)
    session_id = ""
    for evening in generate_evenings(seed=250, count=count, full=True):
        score_session = ScoreSession(preset_key="pressman", rule_overrides={}, rounds=4,
                                     edit_key_hash="0" * 64, group_id=group.id,
                                     created_at=today - timedelta(days=evening.days_ago))
        score_session.players = [Player(seat=seat, name=name, member_id=members[name].id)
                                 for seat, name in enumerate(evening.players, start=1)]
        db.session.add(score_session)
        db.session.flush()
        session_id = score_session.public_id
        seats = {p.name: p.id for p in score_session.players}
        entries = []
        for number, body in enumerate(evening.games, start=1):
            players = tuple(evening.players)
            if body["ending"] == "paper":
                result = check_paper_scores(players, body["scores"])
            else:
                racks = {name: Rack.of_tiles(parse_rack(v)) if isinstance(v, str)
                         else Rack.of_total(v) for name, v in body["racks"].items()}
                result = score_went_out(players, body["winner"], racks, preset=PRESSMAN)
            game_id = db.session.execute(insert(Game).values(
                session_id=score_session.id, number=number, ending=result.ending.value,
                winner_id=seats[result.winner]).returning(Game.id)).scalar_one()
            for name, points, rack in zip(players, result.scores, result.racks, strict=True):
                tiles = rack.tiles if rack is not None else None
                entries.append({"game_id": game_id, "player_id": seats[name], "score": points,
                                "rack": format_tiles(tiles) if tiles is not None else None,
                                "rack_points": rack.points if rack and tiles is None else None})
        db.session.execute(insert(GameEntry), entries)
    db.session.commit()
    player = db.session.scalar(select(GroupMember.public_id).where(GroupMember.name == "Ann"))
    assert player is not None
    return group.public_id, player, session_id


def median_ms(fetch: Callable[[], object], repeat: int = 15) -> float:
    fetch()  # warm the caches once, as a running server would be
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fetch()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=250)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'b.sqlite'}"})
        with app.app_context():
            db.create_all()
            started = time.perf_counter()
            group_id, player_id, session_id = store_group(args.sessions)
            built = time.perf_counter() - started
        client = app.test_client()

        def get(url: str) -> Callable[[], object]:
            def fetch() -> object:
                answer = client.get(url)
                assert answer.status_code == 200, (url, answer.status_code)
                return answer.data
            return fetch

        # The sheet page is served from a view kept per session version; its CSV is built
        # from the stored games on every request, as the group pages are.
        yardstick = median_ms(get(f"/scores/{session_id}/sheet.csv"))
        cases = {
            "group page (league + sessions)": f"/groups/{group_id}/",
            "player page, all time": f"/groups/{group_id}/players/{player_id}?period=all",
            "player page, this year": f"/groups/{group_id}/players/{player_id}?period=year",
            "player chart (SVG), all time":
                f"/groups/{group_id}/players/{player_id}/chart.svg?period=all",
            "API group": f"/api/v1/groups/{group_id}",
            "API player, all time": f"/api/v1/players/{player_id}?period=all",
            "standings picture (PNG)": f"/groups/{group_id}/standings.png",
        }
        print(f"{args.sessions} sessions of 16 games stored in {built:.1f} s")
        print(f"{'page':38} {'ms':>8} {'× sheet':>8}")
        print(f"{'yardstick: one 16-game sheet as CSV':38} {yardstick:8.1f} {1:8.2f}")
        for name, url in cases.items():
            took = median_ms(get(url))
            print(f"{name:38} {took:8.1f} {took / yardstick:8.2f}")


if __name__ == "__main__":
    main()
