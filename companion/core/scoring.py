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

from companion.core.presets import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVERRIDABLE_RULES,
    RULE_CHOICES,
    RULE_RANGES,
    RULE_SWITCHES,
    ExhaustedPoolRule,
    Preset,
)
from companion.core.racks import BOX_POINTS, Rack, box_value, rack_value
from companion.core.standings import (
    RoundSheet,
    ScoreSheet,
    Standing,
    ZeroSumCheck,
    build_sheet,
    ranked_standings,
    round_of,
    signed,
    standings,
)
from companion.core.tiles import (
    ImpossibleTilesError,
    check_inventory,
)

MAX_NAME_LENGTH = 30
MAX_ROUNDS = 50


class Ending(Enum):
    """How a game ended, as the score sheet records it."""

    WENT_OUT = "out"
    POOL_EXHAUSTED = "exhausted"
    PAPER = "paper"

    @property
    def words(self) -> str:
        """As the sheet says it after the winner: "Ann won (went out)"."""
        return ENDING_WORDS[self]

    @property
    def title(self) -> str:
        """As a form offers it: "Someone went out"."""
        return ENDING_TITLES[self]


ENDING_WORDS = {Ending.WENT_OUT: "went out", Ending.POOL_EXHAUSTED: "the pool ran out",
                Ending.PAPER: "copied from paper"}
ENDING_TITLES = {Ending.WENT_OUT: "Someone went out", Ending.POOL_EXHAUSTED: "The pool ran out",
                 Ending.PAPER: "Copy from paper"}


class ScoringError(ValueError):
    """Input the score keeper refuses, naming the player or field it is about.

    ``code`` and ``params`` say the same as the English message as data, so a page can say it
    in its own language (``companion.web.scores.words``); the API and the CLI keep the message.
    """

    def __init__(self, message: str, *, player: str | None = None,
                 field: str | None = None, code: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        self.player = player
        self.field = field
        self.code = code
        self.params: dict[str, object] = dict(params or {})
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
        super().__init__(message, field="winner", code="tie",
                         params={"tied": tied, "fewest_tiles": fewest_tiles})


class UnbalancedScoresError(ScoringError):
    """Paper scores that do not sum to zero, with what the winner's score should be."""

    def __init__(self, message: str, *, difference: int, winner: str | None,
                 expected_winner_score: int | None, code: str = "unbalanced",
                 params: Mapping[str, object] | None = None) -> None:
        self.difference = difference
        self.winner = winner
        self.expected_winner_score = expected_winner_score
        super().__init__(message, field="scores", code=code, params=params)


def names_in_words(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


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
                                   player=name, field="total", code="negative_total",
                                   params={"name": name, "points": rack.points})
            if rack.jokers < 0:
                raise ScoringError(f"{name}'s number of jokers cannot be negative",
                                   player=name, field="jokers", code="negative_jokers",
                                   params={"name": name})
            limit = BOX_POINTS if rack.jokers else most
            if rack.points > limit:
                raise ScoringError(
                    f"{name}'s rack total {rack.points} is more than all the tiles in the box "
                    f"add up to ({limit})", player=name, field="total",
                    code="total_over_box", params={"name": name, "points": rack.points,
                                                   "limit": limit})
    known = [tile for rack in racks.values() if rack.tiles is not None for tile in rack.tiles]
    try:
        check_inventory(known, preset.jokers)
    except ImpossibleTilesError as error:
        holders = [name for name, rack in racks.items()
                   if rack.tiles is not None and error.tile in rack.tiles]
        raise ScoringError(f"{error} (held by {names_in_words(holders)})",
                           player=holders[0] if len(holders) == 1 else None,
                           field="racks", code="impossible_tiles",
                           params={"tile": str(error.tile), "count": error.count,
                                   "allowed": error.allowed, "holders": tuple(holders)}
                           ) from error
    jokers_in_box = sum(preset.jokers.values())
    jokers_on_racks = sum(rack.joker_count for rack in racks.values())
    if jokers_on_racks > jokers_in_box:
        raise ScoringError(f"the racks hold {jokers_on_racks} jokers, but this game has only "
                           f"{jokers_in_box}", field="jokers", code="too_many_jokers",
                           params={"jokers": jokers_on_racks, "box": jokers_in_box})
    numbered = sum(rack.numbered_points for rack in racks.values()
                   if rack.tiles is not None or rack.jokers)
    total = sum(rack.value(joker_penalty=preset.joker_penalty) for rack in racks.values())
    if numbered > BOX_POINTS or total > most:
        raise ScoringError(f"the racks add up to {total} points, more than all the tiles in "
                           f"the box ({most})", field="racks", code="racks_over_box",
                           params={"total": total, "most": most})


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


def name_key(name: str) -> str:
    """What two names must differ in to be two players: not case, and not the width or the
    compatibility form of a letter (a full-width ``Ａnn`` is ``Ann`` on a phone's screen)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _resolve_name(players: Sequence[str], given: str, field: str) -> str:
    """A name as typed, matched exactly after trimming, then as ``name_key`` compares."""
    wanted = given.strip()
    if wanted in players:
        return wanted
    folded = [name for name in players if name_key(name) == name_key(wanted)]
    if len(folded) == 1:
        return folded[0]
    raise ScoringError(f"`{given}` is not a player in this session "
                       f"(players: {', '.join(players)})", player=given, field=field,
                       code="not_a_player", params={"name": given, "players": tuple(players)})


def _racks_of(players: Sequence[str], racks: Mapping[str, Rack | None]) -> dict[str, Rack | None]:
    by_name: dict[str, Rack | None] = {}
    for given, rack in racks.items():
        name = _resolve_name(players, given, "racks")
        if name in by_name:
            raise ScoringError(f"{name}'s rack is given twice", player=name, field="racks",
                               code="rack_twice", params={"name": name})
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
                               field="racks", code="rack_missing",
                               params={"name": name, "everyone": winner is None})
        if rack.is_empty:
            raise ScoringError(
                f"{name}'s rack is empty, but only the player who went out holds nothing",
                player=name, field="racks", code="rack_empty", params={"name": name})
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
                           f"{winner_rack.describe()}", player=winner, field="racks",
                           code="winner_rack_not_empty",
                           params={"name": winner, "rack": winner_rack})
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
                               "winner named", field="winner", code="fewest_needs_tiles")
        what = "the fewest tiles"
    else:
        least = min(values.values())
        candidates = tuple(name for name in players if values[name] == least)
        what = f"the lowest rack ({least})"
    if named is not None:
        if candidates is not None and named not in candidates:
            raise ScoringError(f"{named} cannot win: {names_in_words(candidates)} "
                               f"{'has' if len(candidates) == 1 else 'have'} {what}",
                               player=named, field="winner", code="cannot_win",
                               params={"name": named, "candidates": candidates,
                                       "least": None if fewest_rule else least})
        chosen = named
    else:
        assert candidates is not None
        if len(candidates) > 1:
            raise _tie_error(candidates, all_racks, what,
                             least=None if fewest_rule else least)
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


def _tie_error(tied: tuple[str, ...], racks: Mapping[str, Rack], what: str, *,
               least: int | None) -> ScoringError:
    fewest = _fewest_tiles(tied, racks)
    message = (f"{names_in_words(tied)} tie for {what}; the rules do not say who wins, "
               "so the table names the winner.")
    suggestion = None
    if fewest is not None and len(fewest) == 1 and len(tied) > 1:
        suggestion = fewest[0]
        counts = ", ".join(f"{name} {racks[name].tile_count}" for name in tied)
        message += f" Fewest tiles would pick {suggestion} (tiles: {counts})."
    error = TiedLowestRackError(message, tied=tied, fewest_tiles=suggestion)
    error.params["least"] = least
    error.params["tiles"] = {name: racks[name].tile_count for name in tied}
    return error


def check_paper_scores(players: Sequence[str], scores: Mapping[str, int], *,
                       winner: str | None = None) -> GameResult:
    """Scores copied from a paper sheet: every player's, summing to zero, one plus score.

    ``winner``, when given, must be the player with the plus score.

    Every score 0 balances too: the pool ran out with every rack worth the same, and the winner
    the table named scored +0 (``score_exhausted`` records such a game as 0 / 0 itself). The
    paper cannot show who won it, and the rules give every game one winner (the session goes
    to "the player who won the most games", seed 000), so the winner must be named; the app
    never picks one (as for a tie on the lowest rack).
    """
    players = tuple(players)
    by_name: dict[str, int] = {}
    for given, score in scores.items():
        name = _resolve_name(players, given, "scores")
        if name in by_name:
            raise ScoringError(f"{name}'s score is given twice", player=name, field="scores",
                               code="score_twice", params={"name": name})
        by_name[name] = score
    for name in players:
        if name not in by_name:
            raise ScoringError(f"{name}'s score is missing: give every player's score",
                               player=name, field="scores", code="score_missing",
                               params={"name": name})
    total = sum(by_name.values())
    if not any(by_name.values()):
        named = None if winner is None or not winner.strip() else _resolve_name(
            players, winner, "winner")
        if named is None:
            raise ScoringError("every score is 0: say who won the game (the winner of a game "
                               "tied on equal racks scores +0)", field="winner",
                               code="zero_needs_winner")
        return GameResult(Ending.PAPER, named, players, tuple(0 for _ in players),
                          tuple(None for _ in players))
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
                                    expected_winner_score=None,
                                    code="no_plus_score" if not winners else "several_plus",
                                    params={"winners": tuple(winners), "difference": total})
    named = None if winner is None or not winner.strip() else _resolve_name(players, winner,
                                                                            "winner")
    winner = winners[0]
    if named is not None and named != winner:
        raise ScoringError(f"{named} is named the winner, but {winner} has the plus score",
                           player=named, field="winner", code="not_the_winner",
                           params={"name": named, "winner": winner})
    if total:
        expected = -sum(score for name, score in by_name.items() if name != winner)
        raise UnbalancedScoresError(
            f"{unbalanced}: the others score {signed(-expected)} in all, so {winner}, the "
            f"winner, should score {signed(expected)}, not {signed(by_name[winner])}",
            difference=total, winner=winner, expected_winner_score=expected,
            params={"difference": total, "winner": winner, "others": -expected,
                    "expected": expected, "given": by_name[winner]})
    return GameResult(Ending.PAPER, winner, players,
                      tuple(by_name[name] for name in players),
                      tuple(None for _ in players))


# A session's players, rounds and rules -----------------------------------------------------

def check_name(raw: str, position: int) -> str:
    """One player's name as it is kept: spaces collapsed, NFC; "" when blank. Too long or
    holding a control character (bidi overrides and zero-width marks too) is refused."""
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    field = f"player {position}"
    if len(name) > MAX_NAME_LENGTH:
        raise ScoringError(f"{field}: a name has at most {MAX_NAME_LENGTH} characters",
                           player=name, field=field, code="name_too_long",
                           params={"position": position, "most": MAX_NAME_LENGTH})
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ScoringError(f"{field}: the name holds a control character",
                           player=name, field=field, code="name_control",
                           params={"position": position})
    return name


def check_players(names: Iterable[str]) -> tuple[str, ...]:
    """Trimmed, non-blank, unique (as ``name_key`` compares) names, 2–4 of them, in any
    script."""
    players: list[str] = []
    for position, raw in enumerate(names, start=1):
        name = check_name(raw, position)
        if not name:
            continue
        field = f"player {position}"
        if any(name_key(name) == name_key(other) for other in players):
            raise ScoringError(f"{field}: {name} is already playing: names must differ",
                               player=name, field=field, code="name_twice",
                               params={"position": position, "name": name})
        players.append(name)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ScoringError(f"a session has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                           f"not {len(players)}", field="players", code="player_count",
                           params={"least": MIN_PLAYERS, "most": MAX_PLAYERS,
                                   "count": len(players)})
    return tuple(players)


def check_rounds(rounds: int) -> int:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ScoringError(f"the number of rounds must be 1 to {MAX_ROUNDS}, not {rounds}",
                           field="rounds", code="rounds_range",
                           params={"most": MAX_ROUNDS, "rounds": rounds})
    return rounds


def apply_rule_overrides(preset: Preset, overrides: Mapping[str, object]) -> Preset:
    """The preset with the session's own choices; an unknown or out-of-range choice is refused."""
    changes: dict[str, object] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        if key in RULE_CHOICES:
            rules = {rule.value: rule for rule in ExhaustedPoolRule}
            if not isinstance(value, str) or value not in rules:
                raise ScoringError(f"exhausted_pool must be one of {', '.join(rules)}",
                                   field=key)
            changes[key] = rules[value]
        elif key in RULE_SWITCHES:
            if not isinstance(value, bool):
                raise ScoringError(f"{key} must be true or false", field=key)
            changes[key] = value
        elif key in RULE_RANGES:
            low, high = RULE_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ScoringError(f"{key} must be a whole number from {low} to {high}",
                                   field=key)
            changes[key] = value
        else:
            allowed = ", ".join(OVERRIDABLE_RULES)
            raise ScoringError(f"`{key}` is not a rule a session can change ({allowed})",
                               field=key)
    return replace(preset, **changes)  # type: ignore[arg-type]


def rule_overrides(preset: Preset, base: Preset) -> dict[str, object]:
    """The choices where ``preset`` differs from ``base``, as plain JSON values."""
    differences: dict[str, object] = {}
    for key in OVERRIDABLE_RULES:
        mine, theirs = getattr(preset, key), getattr(base, key)
        if mine != theirs:
            differences[key] = mine.value if isinstance(mine, Enum) else mine
    return differences


__all__ = ["BOX_POINTS", "ENDING_TITLES", "ENDING_WORDS", "MAX_NAME_LENGTH", "MAX_PLAYERS",
           "MAX_ROUNDS", "MIN_PLAYERS", "RULE_RANGES", "Ending", "GameResult", "Rack",
           "RoundSheet", "ScoreSheet", "ScoringError", "Standing", "TiedLowestRackError",
           "UnbalancedScoresError", "ZeroSumCheck", "apply_rule_overrides", "box_value",
           "build_sheet", "check_name", "check_paper_scores", "check_players", "check_racks",
           "check_rounds", "name_key", "names_in_words", "rack_value", "ranked_standings",
           "round_of", "rule_overrides", "score_exhausted", "score_went_out", "signed", "standings"]
