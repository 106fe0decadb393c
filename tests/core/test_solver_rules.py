"""The solver plays only what the referee allows (issue 26), on every door.

The property test at the end: random legal tables and racks of every preset, the solver's
default answer, the referee's verdict on it (the same call `companion turn` makes).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.core.presets import PRESETS, PRESSMAN, SABRA, Preset, with_tournament_rule
from companion.core.referee import referee_turn
from companion.core.solver import best_play, turn_hint
from companion.core.tiles import Colour, JokerKind, Meld, Tile, parse_rack, parse_table

NEW_SET_000 = "must play the joker on his/her current turn to make a new set"
SABRA_LOCKED = ("After a Joker has been taken from a meld as shown above, the meld may be "
                "manipulated")
NOT_TABLE_TILES = "for their initial meld, players may not use tiles already played on the table"

# --- the initial meld keeps rack tiles that also lie on the table ------------------------------
# "Tiles: 104 number tiles (two sets of tiles numbered 1-13 in four colors)" (seed 000): a rack
# tile with a copy on the table is a tile of its own, and leaves the rack when laid.

INITIAL = [
    ("R10 R11 R12", "R10 R11 R12", "tiles", 3, 33),
    ("K13 R13 B13", "K13 R13 B13", "tiles", 3, 39),
    ("R10 R11 R12", "K10 K11 K12 K13 R10 B10", "tiles", 6, 66),
    ("K5 K6 K7", "K5 R5 B5 K11 K12 K13", "value", 6, 51),
]


@pytest.mark.parametrize(("table", "rack", "goal", "count", "value"), INITIAL)
def test_before_the_initial_meld_every_rack_tile_laid_is_played(table: str, rack: str,
                                                                 goal: str, count: int,
                                                                 value: int) -> None:
    # NOT_TABLE_TILES: the table stays as it was, the new sets are the rack's own
    before = parse_table(table)
    play = best_play(before, parse_rack(rack), opened=False, goal=goal)
    assert len(play.played) == count and play.value == value
    assert Counter(t for meld in play.table for t in meld) == (
        Counter(t for meld in before for t in meld) + Counter(play.played))
    assert play.table[:len(before)] == before
    assert referee_turn(before, play.table, opened=False, preset=PRESSMAN,
                        rack=parse_rack(rack)).legal


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(("table", "rack", "goal", "count", "value"), INITIAL)
def test_the_cli_lays_the_whole_initial_meld(table: str, rack: str, goal: str, count: int,
                                             value: int) -> None:
    code, output = run("solve", "--table", table, "--rack", rack, "--goal", goal, "--json")
    assert code == 0
    data = json.loads(output)
    assert len(data["played"]) == count and data["value"] == value
    sets = [" ".join(meld) for meld in data["sets"]]
    assert sets[0] == table  # the table as it was, then the new sets
    laid = Counter(t for meld in data["sets"][1:] for t in meld)
    assert laid == Counter(data["played"])


# --- the default answer is a play the referee allows -------------------------------------------

def test_a_freed_joker_is_not_left_in_its_own_set() -> None:
    # NEW_SET_000: K6 frees the joker of K5 J K7, which may not stay in K5 K6 K7 J
    table, rack = parse_table("K5 J K7"), parse_rack("K6")
    assert not best_play(table, rack, opened=True).possible
    anything = best_play(table, rack, opened=True, any_table=True)
    assert [str(t) for t in anything.played] == ["K6"]
    assert referee_turn(table, anything.table, opened=True, preset=PRESSMAN,
                        rack=rack).codes == ("joker_not_reused",)


def test_the_cli_offers_only_what_companion_turn_allows() -> None:
    code, output = run("solve", "--table", "K5 J K7", "--rack", "K6", "--opened")
    assert code == 1 and "nothing from your rack can be laid" in output
    code, output = run("solve", "--table", "K5 J K7", "--rack", "K6", "--opened", "--any-table",
                       "--json")
    assert code == 0 and json.loads(output)["played"] == ["K6"]
    code, output = run("solve", "--table", "K5 J K7", "--rack", "K6 R6 B6", "--opened",
                       "--json")
    data = json.loads(output)
    after = " | ".join(" ".join(meld) for meld in data["sets"])
    code, output = run("turn", "--before", "K5 J K7", "--after", after, "--rack", "K6 R6 B6",
                       "--opened")
    assert code == 0, output


def test_the_sabra_way_exchange_and_rearrangement_is_offered() -> None:
    # SABRA_LOCKED: K5 from the hand takes the joker's place, the joker makes a new set with
    # R9 B9 ("with 2 more tiles from your hand"), and the old set may be rearranged
    table, rack = parse_table("K3 K4 J K6 K7 K8"), parse_rack("K5 R9 B9")
    play = best_play(table, rack, opened=True, preset=SABRA)
    assert len(play.played) == 3
    assert referee_turn(table, play.table, opened=True, preset=SABRA, rack=rack).legal
    assert referee_turn(table, parse_table("K3 K4 K5 | K6 K7 K8 | J R9 B9"), opened=True,
                        preset=SABRA, rack=rack).legal


def test_under_the_sabra_way_a_joker_is_exchanged_only_for_a_tile_from_the_hand() -> None:
    # "You may take a Joker from a run or group in exchange for a tile of the same value from
    # your hand" (seed 004): R6 lies on the table, so the joker stays where it is
    table, rack = parse_table("R5 J R7 | K6 B6 O6 R6"), parse_rack("K9 K10")
    assert best_play(table, rack, opened=True, preset=PRESSMAN).possible
    assert not best_play(table, rack, opened=True, preset=SABRA).possible


def test_the_tournament_rule_of_a_session_holds_the_solver_too() -> None:
    # "Under tournament rules, a Joker taken from a group of three tiles must be replaced with
    # both missing tiles" (seed 004)
    table, rack = parse_table("K5 R5 J"), parse_rack("B5 O9 O10")
    plain = best_play(table, rack, opened=True, preset=SABRA)
    assert len(plain.played) == 3
    strict = with_tournament_rule(SABRA, True)
    ruled = best_play(table, rack, opened=True, preset=strict)
    assert len(ruled.played) < 3
    assert referee_turn(table, ruled.table, opened=True, preset=strict, rack=rack).legal
    _code, output = run("solve", "--table", "K5 R5 J", "--rack", "B5 O9 O10", "--opened",
                        "--preset", "sabra", "--tournament-rule", "--json")
    assert len(json.loads(output)["played"]) == len(ruled.played)


# --- the turn hints -----------------------------------------------------------------------------

def test_a_turn_hint_is_an_arrangement_the_referee_allows_for_that_turn() -> None:
    before = parse_table("K5 J K7")
    # the tiles after could be laid as K5 K6 K7 J, but not in this turn (NEW_SET_000)
    hint = turn_hint(before, parse_table("K5 K7 K6 | J"), opened=True, rack=parse_rack("K6"))
    assert hint is not None and not hint.possible and hint.why is not None
    assert hint.why.code == "solver_no_legal_turn"
    hint = turn_hint(parse_table("R5 R6 R7"), parse_table("R5 R6 | R7 R8 | R9"), opened=True)
    assert hint is not None and hint.possible
    assert [" ".join(map(str, m)) for m in hint.table] == ["R5 R6 R7 R8 R9"]
    # before the initial meld the table before stays as it was (NOT_TABLE_TILES)
    hint = turn_hint(parse_table("R5 R6 R7"), parse_table("R5 R6 R7 | K10 K12 | K11"),
                     opened=False)
    assert hint is not None and [" ".join(map(str, m)) for m in hint.table] == [
        "R5 R6 R7", "K10 K11 K12"]


# --- the property: random tables and racks of every preset ---------------------------------------

JOKER = Tile.of_joker(JokerKind.REGULAR)
DOUBLE = Tile.of_joker(JokerKind.DOUBLE)
CASES_PER_PRESET = 150


def _random_table(rng: random.Random, preset: Preset) -> tuple[tuple[Meld, ...], Counter[Tile]]:
    """A few runs and groups in a narrow band of numbers (so racks touch them), some tiles
    replaced by jokers (a double joker for two neighbours of a run under Twist)."""
    used: Counter[Tile] = Counter()
    melds: list[Meld] = []
    low = rng.randint(1, 8)
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.55:
            colour = rng.choice(list(Colour))
            length = rng.choice((3, 3, 4, 5))
            start = rng.randint(low, min(low + 3, 14 - length))
            meld = [Tile.numbered(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(low, low + 3)
            meld = [Tile.numbered(c, number) for c in rng.sample(list(Colour), rng.choice((3, 4)))]
        if rng.random() < 0.5 and used[JOKER] < 2:
            meld[rng.randrange(len(meld))] = JOKER
        elif (preset.has_bonus_jokers and len(meld) >= 4 and rng.random() < 0.3
              and meld[0].colour == meld[1].colour and used[DOUBLE] < 2):
            at = rng.randrange(1, len(meld) - 2)
            meld[at:at + 2] = [DOUBLE]
        if any(used[t] + n > (preset.jokers.get(t.joker, 0) if t.joker else 2)
               for t, n in Counter(meld).items()):
            continue
        used.update(meld)
        melds.append(tuple(meld))
    return tuple(melds), used


def _random_rack(rng: random.Random, used: Counter[Tile], preset: Preset, low: int) -> Meld:
    rack: list[Tile] = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.15:
            tile = JOKER if rng.random() < 0.7 or not preset.has_bonus_jokers else DOUBLE
        else:
            tile = Tile.numbered(rng.choice(list(Colour)), rng.randint(low, min(13, low + 5)))
        limit = preset.jokers.get(tile.joker, 0) if tile.joker else 2
        if used[tile] < limit:
            used[tile] += 1
            rack.append(tile)
    return tuple(rack)


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_default_answer_of_the_solver_passes_the_referee(key: str) -> None:
    preset = PRESETS[key]
    rng = random.Random(f"issue 26 {key}")
    checked = 0
    for _ in range(CASES_PER_PRESET):
        table, used = _random_table(rng, preset)
        if not table:
            continue
        numbers = [t.number for meld in table for t in meld if t.number is not None]
        rack = _random_rack(rng, used, preset, min(numbers, default=1))
        if not rack:
            continue
        opened = rng.random() < 0.8
        goal = rng.choice(("tiles", "value"))
        play = best_play(table, rack, preset=preset, opened=opened, goal=goal)
        if not play.possible:
            continue
        verdict = referee_turn(table, play.table, opened=opened, preset=preset, rack=rack)
        assert verdict.legal, (f"{preset.key} opened={opened}: "
                               f"{' | '.join(' '.join(map(str, m)) for m in table)} + "
                               f"{' '.join(map(str, rack))} -> {play.describe()}: "
                               f"{verdict.codes}")
        assert Counter(verdict.played) == Counter(play.played)
        checked += 1
    assert checked >= CASES_PER_PRESET // 3  # the instances are plays, not refusals
