"""What the pages and the JSON API share: load and store sessions and games around the core.

No scoring rule lives here: every score, winner, check and standing comes from
``companion.core.scoring``. This module turns stored rows into core values and back, keeps
the history of changes, and guards writes with the session's edit key.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from companion.core.presets import UnknownPresetError, get_preset
from companion.core.scoring import (
    Ending,
    GameResult,
    Rack,
    ScoreSheet,
    ScoringError,
    apply_rule_overrides,
    build_sheet,
    check_paper_scores,
    check_players,
    check_rounds,
    round_of,
    rule_overrides,
    score_exhausted,
    score_went_out,
    signed,
)
from companion.core.tiles import NotationError, format_tiles, parse_rack
from companion.web.models import Game, GameChange, GameEntry, Player, ScoreSession, db, utc_now

ENDING_WORDS = {Ending.WENT_OUT: "went out", Ending.POOL_EXHAUSTED: "the pool ran out",
                Ending.PAPER: "copied from paper"}


class SessionStateError(Exception):
    """A write that the session's state does not allow (complete, not the last game)."""


@dataclass(frozen=True)
class GameInput:
    """A game as the table reports it, before scoring."""

    ending: Ending
    winner: str | None = None
    racks: Mapping[str, Rack | None] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)


def parse_rack_text(player: str, text: str) -> Rack:
    """A rack typed in tile notation; a bad token is refused naming the player and the tile."""
    try:
        return Rack.of_tiles(parse_rack(text))
    except NotationError as error:
        raise ScoringError(f"{player}'s rack: {error}", player=player, field="racks") from error


# Sessions ----------------------------------------------------------------------------------

def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_opens(session: ScoreSession, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(hash_key(key or ""), session.edit_key_hash)


def create_session(names: list[str], rounds: int, preset_key: str | None,
                   overrides: Mapping[str, object]) -> tuple[ScoreSession, str]:
    """A new session and its edit key (only the hash is stored)."""
    players = check_players(names)
    check_rounds(rounds)
    try:
        base = get_preset(preset_key)
    except UnknownPresetError as error:
        raise ScoringError(str(error), field="preset") from error
    rules = apply_rule_overrides(base, overrides)
    key = secrets.token_urlsafe(24)
    session = ScoreSession(preset_key=base.key, rule_overrides=rule_overrides(rules, base),
                           rounds=rounds, edit_key_hash=hash_key(key))
    session.players = [Player(seat=seat, name=name) for seat, name in enumerate(players, 1)]
    db.session.add(session)
    db.session.commit()
    return session, key


def all_sessions() -> list[ScoreSession]:
    return list(db.session.scalars(select(ScoreSession).order_by(ScoreSession.updated_at.desc(),
                                                                 ScoreSession.id.desc())))


def sheet_of(session: ScoreSession) -> ScoreSheet:
    return build_sheet(session.player_names, session.rounds, session.results())


# Games -------------------------------------------------------------------------------------

def score(session: ScoreSession, entry: GameInput) -> GameResult:
    """One core call per ending, under the session's rules."""
    players, rules = session.player_names, session.rules
    if entry.ending is Ending.WENT_OUT:
        if not entry.winner or not entry.winner.strip():
            raise ScoringError("say who went out (the winner)", field="winner")
        return score_went_out(players, entry.winner, entry.racks, preset=rules)
    if entry.ending is Ending.POOL_EXHAUSTED:
        return score_exhausted(players, entry.racks, preset=rules, winner=entry.winner)
    return check_paper_scores(players, entry.scores, winner=entry.winner)


def record_game(session: ScoreSession, entry: GameInput) -> Game:
    sheet = sheet_of(session)
    if sheet.complete:
        raise SessionStateError(f"the session is complete: all {sheet.games_planned} games "
                                f"({session.rounds} round{'s' * (session.rounds != 1)}) are recorded")
    result = score(session, entry)
    game = Game(number=sheet.games_played + 1)
    _fill(session, game, result)
    session.games.append(game)
    _log(session, game.number, "recorded", None, result)
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise SessionStateError(f"game {game.number} was recorded from another phone at the "
                                "same moment: reload the sheet and check it") from error
    return game


def find_game(session: ScoreSession, game_number: int) -> Game | None:
    return next((game for game in session.games if game.number == game_number), None)


def edit_game(session: ScoreSession, game: Game, entry: GameInput) -> Game:
    before = game.to_result(session.player_names)
    result = score(session, entry)
    for old in list(game.entries):
        game.entries.remove(old)
    db.session.flush()
    _fill(session, game, result)
    game.edited_at = utc_now()
    _log(session, game.number, "edited", before, result)
    db.session.commit()
    return game


def delete_last_game(session: ScoreSession, game: Game) -> GameResult:
    last = session.games[-1]
    if game.number != last.number:
        raise SessionStateError(f"only the last game (game {last.number}) can be undone; "
                                f"edit game {game.number} instead")
    result = game.to_result(session.player_names)
    session.games.remove(game)
    _log(session, game.number, "undone", result, None)
    db.session.commit()
    return result


def delete_session(session: ScoreSession) -> None:
    db.session.delete(session)
    db.session.commit()


def _fill(session: ScoreSession, game: Game, result: GameResult) -> None:
    game.ending = result.ending.value
    game.winner = session.player_named(result.winner)
    game.entries = []
    for name, points, rack in zip(result.players, result.scores, result.racks, strict=True):
        entry = GameEntry(player=session.player_named(name), score=points)
        if rack is not None and rack.tiles is not None:
            entry.rack = format_tiles(rack.tiles)
        elif rack is not None:
            entry.rack_points, entry.rack_jokers = rack.points, rack.jokers
        game.entries.append(entry)
    session.updated_at = utc_now()


def _log(session: ScoreSession, number: int, action: str, before: GameResult | None,
         after: GameResult | None) -> None:
    session.changes.append(GameChange(
        game_number=number, action=action, summary=describe_change(number, before, after),
        before=None if before is None else result_json(before),
        after=None if after is None else result_json(after)))


def describe_change(number: int, before: GameResult | None, after: GameResult | None) -> str:
    def line(result: GameResult) -> str:
        scores = ", ".join(f"{n} {signed(s)}" for n, s in zip(result.players, result.scores,
                                                               strict=True))
        return f"{result.winner} won ({ENDING_WORDS[result.ending]}): {scores}"

    if before is None and after is not None:
        return f"Game {number} recorded: {line(after)}"
    if after is None and before is not None:
        return f"Game {number} undone (was: {line(before)})"
    assert before is not None and after is not None
    changed = [f"{name} {signed(old)} → {signed(new)}" for name, old, new
               in zip(after.players, before.scores, after.scores, strict=True) if old != new]
    if before.winner != after.winner:
        changed.insert(0, f"winner {before.winner} → {after.winner}")
    if before.ending != after.ending:
        changed.insert(0, f"{ENDING_WORDS[before.ending]} → {ENDING_WORDS[after.ending]}")
    for name, old_rack, new_rack in zip(after.players, before.racks, after.racks, strict=True):
        if old_rack != new_rack:
            changed.append(f"{name}'s rack {_rack_words(old_rack)} → {_rack_words(new_rack)}")
    return f"Game {number} edited: " + ("; ".join(changed) or "nothing changed")


def _rack_words(rack: Rack | None) -> str:
    return "not given" if rack is None else rack.describe()


# JSON and CSV ------------------------------------------------------------------------------

def rack_json(rack: Rack | None) -> object:
    if rack is None:
        return None
    if rack.tiles is not None:
        return format_tiles(rack.tiles)
    return {"points": rack.points, "jokers": rack.jokers} if rack.jokers else rack.points


def result_json(result: GameResult) -> dict[str, Any]:
    return {"ending": result.ending.value, "winner": result.winner,
            "scores": result.scores_by_name(),
            "racks": {n: rack_json(r) for n, r in result.racks_by_name().items()}}


def game_json(session: ScoreSession, game: Game) -> dict[str, Any]:
    result = game.to_result(session.player_names)
    return {"number": game.number, "round": round_of(game.number, len(session.players)),
            **result_json(result), "balanced": result.check.balanced,
            "recorded_at": game.recorded_at.isoformat() + "Z",
            "edited_at": None if game.edited_at is None else game.edited_at.isoformat() + "Z"}


def session_json(session: ScoreSession) -> dict[str, Any]:
    sheet = sheet_of(session)
    rules = session.rules
    names = sheet.players
    return {
        "id": session.id,
        "players": list(names),
        "rounds": session.rounds,
        "preset": session.preset_key,
        "rules": {"joker_penalty": rules.joker_penalty,
                  "exhausted_pool": rules.exhausted_pool.value,
                  "initial_meld": rules.initial_meld, "turn_seconds": rules.turn_seconds,
                  "overrides": session.rule_overrides or {}},
        "games": [game_json(session, game) for game in session.games],
        "round_totals": [{"round": r.number, "scores": dict(zip(names, r.subtotals, strict=True)),
                          "balanced": r.check.balanced} for r in sheet.rounds],
        "totals": dict(zip(names, sheet.totals, strict=True)),
        "standings": [{"name": s.name, "games_won": s.games_won, "score": s.score,
                       "place": s.place} for s in sheet.standings],
        "balanced": sheet.balanced,
        "games_played": sheet.games_played,
        "games_planned": sheet.games_planned,
        "complete": sheet.complete,
        "next_game": None if sheet.next_game is None else
        {"number": sheet.next_game[0], "round": sheet.next_game[1]},
    }


def sheet_csv(session: ScoreSession) -> str:
    """The score sheet as CSV: one row per game, round subtotals, totals, games won, place."""
    sheet = sheet_of(session)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "game", "ending", "winner", *sheet.players, "balanced"])
    for round_sheet in sheet.rounds:
        for number, result in round_sheet.games:
            writer.writerow([round_sheet.number, number, result.ending.value, result.winner,
                             *result.scores, result.check.balanced])
        writer.writerow([round_sheet.number, "round total", "", "", *round_sheet.subtotals,
                         round_sheet.check.balanced])
    writer.writerow(["", "total", "", "", *sheet.totals, sheet.check.balanced])
    writer.writerow(["", "games won", "", "", *sheet.games_won, ""])
    places = {s.name: s.place for s in sheet.standings}
    writer.writerow(["", "place", "", "", *(places[name] for name in sheet.players), ""])
    return out.getvalue()


# Rematch and more rounds -------------------------------------------------------------------

def rematch(session: ScoreSession) -> tuple[ScoreSession, str]:
    """A new session with the same players in the same seats, the same rules and rounds, in
    the same group (each seat linked to the same member)."""
    new_session, key = create_session(list(session.player_names), session.rounds,
                                      session.preset_key, session.rule_overrides or {})
    new_session.group_id = session.group_id
    for new_player, old_player in zip(new_session.players, session.players, strict=True):
        new_player.member_id = old_player.member_id
    db.session.commit()
    return new_session, key


def add_round(session: ScoreSession) -> None:
    """One more round for a session in progress (up to the core's limit)."""
    check_rounds(session.rounds + 1)
    session.rounds += 1
    session.updated_at = utc_now()
    db.session.commit()
