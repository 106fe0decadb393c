"""Turns written from the five rule texts in ../shared/seeds, each with the words it relies on.

Every case: the table before, the table after, the rack (or None), whether the player had made
the initial meld, the preset, and the violation codes expected (empty: a legal turn). The
examples of issue 8 come first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import pytest

from companion.core.presets import get_preset
from companion.core.referee import Penalty, TurnVerdict, referee_turn
from companion.core.tiles import parse_rack, parse_table


class Turn(NamedTuple):
    seed: str
    before: str
    after: str
    rack: str | None
    codes: tuple[str, ...]
    preset: str = "pressman"
    opened: bool = True
    tournament: bool = False


def judge(turn: Turn) -> TurnVerdict:
    preset = get_preset(turn.preset)
    if turn.tournament:
        preset = replace(preset, tournament_joker_rule=True)
    return referee_turn(parse_table(turn.before), parse_table(turn.after), opened=turn.opened,
                        preset=preset,
                        rack=None if turn.rack is None else parse_rack(turn.rack))


NEW_SET_000 = ("must play the joker on his/her current turn to make a new set, and must also use at "
               "least one tile from his/her rack on that turn (just as on any other turn)")
NEW_SET_003 = "A joker that has been replaced must be used in the same turn as part of a new set."
SABRA_ADD = ("You can add a tile to a meld containing a Joker, either the fourth tile in a group "
             "or to either end of a run.")
SABRA_TAKE = "You may not take a tile away from a meld which includes a Joker."
SABRA_EXCHANGE = ("You may take a Joker from a run or group in exchange for a tile of the same "
                  "value from your hand.")
SABRA_TWO = "You must use the Joker immediately with 2 more tiles from your hand"
SABRA_LOCKED = ("A meld containing a Joker may not be manipulated. After a Joker has been taken "
                "from a meld as shown above, the meld may be manipulated.")
TOURNAMENT = ("Under tournament rules, a Joker taken from a group of three tiles must be "
              "replaced with both missing tiles.")
TWIST_BONUS = "Bonus Jokers cannot replace a Regular Joker or any other type of Bonus Joker."
FROM_TABLE = "This tile can come from the table or from a player's rack."
CLEARING = ("The player splits the run — the Black 1 is moved to the group of 1s and the Black 2 "
            "is moved to the group of 2s, clearing the Regular Joker.")
SET_WITH_JOKER_003 = ("A set with a joker can have tiles added to it, be split apart, or have "
                      "tiles removed from it.")
INITIAL_000 = ("In order to make an initial meld, each player must place tiles on the table in "
               "one or more sets that total at least 30 points.")
INITIAL_004 = "each player must make an initial meld of 50 points in one or more sets"
NOT_TABLE_TILES = ("for their initial meld, players may not use tiles already played on the "
                   "table.")
JOKER_VALUE = "A joker used in the initial meld scores the value of the tile it represents."
NO_JOKER_BEFORE = "A player cannot retrieve a joker before s/he has played his/her initial meld."
DOUBLE_VALUE = ("In the initial meld, this tile is worth the value of both numbers it represents")
MIRROR_ZERO = "The Mirror Joker’s value is zero."
DRAW = ("When players cannot play any tiles from their racks, or purposely choose not to, they "
        "must draw a tile from the pool.")
LEGITIMATE = ("as long as there are only legitimate sets on the table and there are no loose "
              "tiles left at the end of the turn.")
HARVESTED = ("a tile that is \"harvested\" from an existing set must be played during the turn; "
             "it cannot be kept for later use.")
ONE_BEFORE_13 = "The number 1 is always played as the lowest number; it cannot follow the number 13."

ISSUE_8 = [
    Turn(NEW_SET_000, "K5 J K7 | B1 B2 B3 B4 B5", "K5 K6 K7 | B1 B2 B3 | B4 B5 J", "K6 R1", ()),
    Turn(NEW_SET_000, "R5 J R7", "R5 R6 R7 J R9", "R6 R9", ("joker_not_reused",)),
    Turn(NEW_SET_003, "K5 J K7 | R1 R2 R3", "K5 K6 K7 | R1 R2 R3 R4 J", "K6 R4",
         ("joker_not_reused",)),
    Turn(SABRA_TWO, "R5 J R7", "R5 R6 R7 | J R8 R9", "R6 R8 R9", (), "sabra"),
    Turn(SABRA_TWO, "K5 J K7 | B1 B2 B3 B4 B5", "K5 K6 K7 | B1 B2 B3 | B4 B5 J", "K6 R1",
         ("joker_needs_two_rack_tiles",), "sabra"),
    Turn("a joker that did not move was not freed", "J K5 J | R5 R6 R7 R8",
         "J K5 J R5 | R6 R7 R8 R9", "R9", ()),
    Turn(SABRA_ADD, "J K5 J", "J K5 J R5", "R5", (), "sabra"),
    Turn(SABRA_ADD, "K5 J J", "K5 J J K8", "K8", (), "sabra"),
    Turn(SABRA_ADD, "K5 J J", "K4 K5 J J", "K4", (), "sabra"),
    Turn(SABRA_ADD, "J J K7", "J J K7 K8", "K8", (), "sabra"),
    Turn(SABRA_ADD, "J J K7", "K4 J J K7", "K4", (), "sabra"),
    Turn(SABRA_EXCHANGE, "R5 J R7 | K6 B6 O6 R6", "R5 R6 R7 | K6 B6 O6 | J K9 K10", "K9 K10",
         ("joker_not_exchanged",), "sabra"),
    Turn(SABRA_TAKE, "K5 R5 B5 J", "K5 R5 B5 | J O9 O10", "O9 O10",
         ("joker_set_manipulated", "joker_not_exchanged"), "sabra"),
    Turn(SABRA_LOCKED, "R3 J R5 R6 R7 J", "R3 R4 R5 | R6 R7 J | J O9 O10", "R4 O9 O10",
         ("joker_set_manipulated",), "sabra"),
    Turn(TWIST_BONUS, "K5 R5 J", "K5 R5 D | J B9 B10", "D B9 B10",
         ("bonus_joker_replaced_joker",), "twist"),
    Turn(TWIST_BONUS, "R3 R4 J", "R3 R4 C B6 | J O9 O10", "C B6 O9 O10",
         ("bonus_joker_replaced_joker",), "twist"),
    Turn(TOURNAMENT, "K5 R5 J", "K5 R5 B5 | J O9 O10", "B5 O9 O10",
         ("joker_needs_both_missing_tiles",), "sabra", tournament=True),
]

PRESSMAN_AND_WIKI = [
    Turn("Blue 4, 5, 6 are on the table; the player adds a blue 3 and a blue 7 from the rack.",
         "B4 B5 B6", "B3 B4 B5 B6 B7", "B3 B7", ()),
    Turn("Add one or more tiles from the rack to extend a run", "B4 B5 B6",
         "B4 B5 B6 B7 B8 B9", "B7 B8 B9 K1", ()),
    Turn("A run is a set of three or more consecutive numbers all in the same color.",
         "B4 B5 B6", "B4 B5 B6 B8", "B8", ("illegal_set",)),
    Turn(ONE_BEFORE_13, "R11 R12 R13", "R11 R12 R13 R1", "R1", ("illegal_set",)),
    Turn(ONE_BEFORE_13, "R1 R2 R3", "R13 R1 R2 R3", "R13", ("illegal_set",)),
    Turn("The player takes the blue 4 from the group of four on the table and lays the run",
         "K4 R4 B4 O4", "K4 R4 O4 | B3 B4 B5 B6", "B3 B5 B6", ()),
    Turn("A group is a set of either three or four tiles", "K4 R4 B4", "K4 R4 | B3 B4 B5 B6",
         "B3 B5 B6", ("illegal_set",)),
    Turn("The player adds a blue 11 to the run and uses the 8s to form a new group.",
         "B8 B9 B10", "B9 B10 B11 | B8 R8 O8", "B11 R8 O8", ()),
    Turn("The player splits the run and uses the red 6 to form two new runs.",
         "R4 R5 R6 R7 R8", "R4 R5 R6 | R6 R7 R8", "R6", ()),
    Turn("Splitting a run: 6, 7, 8 and 8, 9, 10.", "B6 B7 B8 B9 B10", "B6 B7 B8 | B8 B9 B10",
         "B8", ()),
    Turn(LEGITIMATE, "R4 R5 R6 R7 R8", "R4 R5 | R6 R7 R8 R9", "R9", ("illegal_set",)),
    Turn("The player places the blue 1 from the rack with the orange 1 from the run and red 1 "
         "from the group to form a new group.", "O1 O2 O3 O4 | K1 R1 B1 O1",
         "O2 O3 O4 | K1 B1 O1 | B1 O1 R1", "B1", ()),
    Turn("uses the black 10 and the blue 5 from the rack to make three groups and one new run.",
         "R10 R11 R12 | O10 O11 O12 | B6 B7 B8 B9 B10 B11 B12",
         "K10 R10 O10 | R11 O11 B11 | R12 O12 B12 | B5 B6 B7 B8 B9 B10", "K10 B5", ()),
    Turn("Shifting a run: add the red 6 to the end and remove the 3 for use elsewhere.",
         "R3 R4 R5", "R4 R5 R6 | R3 B3 O3", "R6 B3 O3", ()),
    Turn("Substituting in a group: add the black 6 and remove any one of the other three.",
         "B6 R6 O6", "K6 R6 O6 | B6 B7 B8", "K6 B7 B8", ()),
    Turn("Removing tiles: any one tile may be removed from a four-tile group.",
         "B6 R6 O6 K6", "B6 R6 O6 | K6 K7 K8", "K7 K8", ()),
    Turn(HARVESTED, "R3 R4 R5", "R4 R5 R6", "R6", ("tile_removed",)),
    Turn(HARVESTED, "R3 R4 R5", "R4 R5 R6 | R3 J R2", "R6 J R2", ()),
    Turn("Thus, if blue 3, blue 4, joker is an existing run, a player holding a blue 5, a red 7 "
         "and an orange 7 may replace the joker with his blue 5 and play the joker with the two "
         "sevens as a new group.", "B3 B4 J", "B3 B4 B5 | J R7 O7", "B5 R7 O7", ()),
    Turn(FROM_TABLE, "R5 J R7 | K6 B6 O6 R6", "R5 R6 R7 | K6 B6 O6 | J K9 K10", "K9 K10", ()),
    Turn(FROM_TABLE, "R5 J R7 | K6 B6 O6 R6", "R5 R6 R7 | K6 B6 O6 | J K9 K10", None, ()),
    Turn(NEW_SET_000, "B3 B4 J", "B3 B4 B5 | K7 R7 O7", "B5 K7 R7 O7",
         ("tile_removed", "joker_not_reused")),
    Turn(NEW_SET_000, "B3 B4 J | K9 R9 O9", "B3 B4 B5 | K9 R9 O9 J", "B5", ("joker_not_reused",)),
    Turn(NEW_SET_000, "R5 J R7", "R5 R6 R7 J", "R6", ("joker_not_reused",)),
    Turn(NEW_SET_000, "R5 J R7", "J R4 R5 R6 R7", "R4 R6", ("joker_not_reused",)),
    Turn(NEW_SET_000, "K9 R9 J", "K9 R9 B9 O9 | J K10 K11", "B9 O9 K10 K11", ()),
    Turn(NEW_SET_000, "K9 R9 J", "K9 R9 B9 J", "B9", ()),
    Turn(NEW_SET_000, "K9 R9 J | O1 O2 O3", "K9 R9 B9 | O1 O2 O3 J", "B9",
         ("joker_not_reused",)),
    Turn(NEW_SET_000, "K9 R9 J | O1 O2 O3 O4", "K9 R9 B9 | O1 O2 O3 | O4 J O6", "B9 O6", ()),
    Turn("the joker can be replaced by a tile of either of the missing colors", "K9 R9 J",
         "K9 R9 O9 | J B1 B2", "O9 B1 B2", ()),
    Turn("the joker can be replaced by a tile of either of the missing colors", "K9 R9 J",
         "K9 R9 K10 | J B1 B2", "K10 B1 B2", ("illegal_set",)),
    Turn(NO_JOKER_BEFORE, "B3 B4 J", "B3 B4 B5 | J K10 O10 | R10 R11 R12",
         "B5 K10 O10 R10 R11 R12", ("meld_touches_table", "joker_before_meld"), opened=False),
    Turn("a joker that stays where it was is not retrieved: splitting keeps its job",
         "R3 R4 J R6 R7", "R3 R4 J | R6 R7 R8", "R8", ()),
    Turn("a joker that stays where it was is not retrieved: retyping keeps its job",
         "R5 R6 J", "J R4 R5 R6", "R4", ()),
    Turn("a joker that stays where it was is not retrieved: a fourth tile of its group",
         "K5 R5 J", "K5 R5 J B5", "B5", ()),
    Turn("a joker that moved with its neighbours is not retrieved", "R3 R4 J R6 | O8 O9 O10",
         "R2 R3 R4 J | R6 R7 R8 | O8 O9 O10", "R2 R7 R8", ()),
    Turn(DRAW, "R1 R2 R3", "R1 R2 R3", "K5", ("nothing_played",)),
    Turn(NEW_SET_000, "R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6", None, ("nothing_played",)),
    Turn(NEW_SET_000, "K1 K2 J | R1 B1 O1 | R2 B2 O2 | K8 K9 K10 K11 K12 K13",
         "R1 B1 O1 K1 | R2 B2 O2 K2 | K8 K9 J | K10 K11 K12 K13", None, ("nothing_played",)),
    Turn("Players cannot lay down a tile they just drew (only tiles of the rack are laid)",
         "B4 B5 B6", "B3 B4 B5 B6 B7", "B3 K1", ("not_from_rack",)),
]

SABRA = [
    Turn("A) #4 orange, #4 black, #4 red, are on the table. You can add the #4 blue.",
         "O4 K4 R4", "O4 K4 R4 B4", "B4", (), "sabra"),
    Turn("You are, therefore, able to take on one of the #4's to use for another group or run.",
         "O4 K4 R4", "K4 R4 B4 | O4 O5 O6", "B4 O5 O6", (), "sabra"),
    Turn("You must leave at least 3 tiles in order to make another meld.", "O4 K4 R4",
         "K4 R4 | O4 O5 O6", "O5 O6", ("illegal_set",), "sabra"),
    Turn("B) #6 red, #7 red, #8 red, are on the table. You can add either a #5 red or a #9 red.",
         "R6 R7 R8", "R5 R6 R7 R8 R9", "R5 R9", (), "sabra"),
    Turn("#4 red , Joker (substituting the #5 red), #6 red, #7 red, #8 red", "R6 R7 R8",
         "R4 J R6 R7 R8", "R4 J", (), "sabra"),
    Turn("C) You make take the #6 blue if you have a #5 and a #7 blue and make a new run.",
         "B6 B7 B8 B9", "B7 B8 B9 | B5 B6 B7", "B5 B7", (), "sabra"),
    Turn("C) Or, if you have a #6 red and a #6 orange you can make a new group of #6's.",
         "B6 B7 B8 B9", "B7 B8 B9 | B6 R6 O6", "R6 O6", (), "sabra"),
    Turn("C) The same would apply to the #9 blue", "B6 B7 B8 B9", "B6 B7 B8 | B8 B9 B10",
         "B8 B10", (), "sabra"),
    Turn("D) You can take one of the 5's and add it with a #4 and a #6 of the same color",
         "R5 B5 O5 K5", "B5 O5 K5 | R4 R5 R6", "R4 R6", (), "sabra"),
    Turn("D) Or if you had two more #5's in your hand you could take a different color #5",
         "R5 B5 O5 K5", "B5 O5 K5 | R5 B5 O5", "B5 O5", (), "sabra"),
    Turn("E) you can move the 9 orange over to the group of 9's and then take the 9 blue",
         "O6 O7 O8 O9 | R9 B9 K9", "O6 O7 O8 | R9 K9 O9 | B8 B9 B10", "B8 B10", (), "sabra"),
    Turn("F) If you have a #4 black in your hand and a #1 black you can use them",
         "B1 B2 B3 B4 | O1 O2 O3 O4 | R1 R2 R3",
         "B1 O1 R1 K1 | B2 O2 R2 | B3 O3 R3 | B4 O4 K4", "K4 K1", (), "sabra"),
    Turn(INITIAL_004, "", "B4 J B6 | R13 O13 K13", None, (), "sabra", opened=False),
    Turn(INITIAL_004, "", "R13 O13 K13", None, ("meld_too_low",), "sabra", opened=False),
    Turn(INITIAL_004, "", "K10 J K12", None, ("meld_too_low",), "sabra", opened=False),
    Turn(INITIAL_004, "", "O10 O11 O12 | R13 O13 K13", None, (), "sabra", opened=False),
    Turn(SABRA_TAKE, "R3 R4 J R6 R7", "R3 R4 J R6 | R7 R8 R9", "R8 R9",
         ("joker_set_manipulated",), "sabra"),
    Turn(SET_WITH_JOKER_003, "R3 R4 J R6 R7", "R3 R4 J R6 | R7 R8 R9", "R8 R9", ()),
    Turn(SABRA_TAKE, "K5 R5 B5 J | O6 O7 O8", "K5 R5 J | O5 O6 O7 O8 | B5 B6 B7", "O5 B6 B7",
         ("joker_set_manipulated",), "sabra"),
    Turn("Any one tile may be removed from a four-tile group.", "K5 R5 B5 J",
         "K5 R5 B5 | J O9 O10", "O9 O10", ()),
    Turn(SABRA_EXCHANGE, "R5 J R7", "R5 R6 R7 | J K9 K10", "R6 K9 K10", (), "sabra"),
    Turn(SABRA_EXCHANGE, "K5 R5 J", "K5 R5 O5 | J B9 B10", "O5 B9 B10", (), "sabra"),
    Turn(SABRA_TWO, "B3 B4 J | K7 B7 O7 R7", "B3 B4 B5 | K7 B7 O7 | J R7 O7", "B5 O7",
         ("joker_needs_two_rack_tiles",), "sabra"),
    Turn(SABRA_TWO, "B3 B4 J", "B3 B4 B5 | J R7 O7", "B5 R7 O7", (), "sabra"),
    Turn(SABRA_TWO, "R5 J R7", "R5 R6 R7 R8 J", "R6 R8", ("joker_not_reused",), "sabra"),
    Turn(SABRA_LOCKED, "R3 J R5 R6 R7 J", "R3 R4 R5 R6 R7 J | J O9 O10", "R4 O9 O10", (),
         "sabra"),
    Turn(SABRA_LOCKED, "R3 J R5 R6 R7 J", "R3 R4 R5 | R6 R7 J | J O9 O10", "R4 O9 O10", ()),
    Turn(SABRA_LOCKED, "R5 J R7 R8", "R5 R6 R7 | R8 R9 R10 J", "R6 R9 R10", (), "sabra"),
    Turn(SABRA_EXCHANGE, "K1 K2 J | R1 B1 O1 | R2 B2 O2",
         "R1 B1 O1 K1 | R2 B2 O2 K2 | J R9 R10", "R9 R10",
         ("joker_set_manipulated", "joker_not_exchanged"), "sabra"),
    Turn(CLEARING, "K1 K2 J | R1 B1 O1 | R2 B2 O2", "R1 B1 O1 K1 | R2 B2 O2 K2 | J R9 R10",
         "R9 R10", (), "twist"),
    Turn(TOURNAMENT, "K5 R5 J", "K5 R5 B5 | J O9 O10", "B5 O9 O10", (), "sabra"),
    Turn(TOURNAMENT, "K5 R5 J", "K5 R5 B5 O5 | J O9 O10", "B5 O5 O9 O10", (), "sabra",
         tournament=True),
    Turn(TOURNAMENT, "K5 R5 J | B5 B6 B7 B8 | O5 O6 O7 O8",
         "K5 R5 B5 O5 | B6 B7 B8 | O6 O7 O8 | J K9 K10", "K9 K10", (), tournament=True),
    Turn(TOURNAMENT + " " + SABRA_EXCHANGE, "K5 R5 J | B5 B6 B7 B8 | O5 O6 O7 O8",
         "K5 R5 B5 O5 | B6 B7 B8 | O6 O7 O8 | J K9 K10 K11", "K9 K10 K11",
         ("joker_not_exchanged", "joker_needs_both_missing_tiles"), "sabra", tournament=True),
    Turn(TOURNAMENT + " (a run is not a group of three)", "R5 J R7",
         "R5 R6 R7 | J O9 O10", "R6 O9 O10", (), "sabra", tournament=True),
    Turn(NO_JOKER_BEFORE, "R5 J R7", "R5 R6 R7 | J O10 O11 | K13 R13 B13", "R6 O10 O11 K13 "
         "R13 B13", ("meld_too_low", "meld_touches_table", "joker_before_meld"), "sabra",
         opened=False),
]

TWIST = [
    Turn(TWIST_BONUS + " (a real tile may)", "K5 R5 J", "K5 R5 B5 | J B9 B10", "B5 B9 B10", (),
         "twist"),
    Turn("A Double Joker can be replaced with both tiles that it represents", "B3 R3 D",
         "B3 R3 K3 O3 | D B9 B10", "K3 O3 B9 B10", (), "twist"),
    Turn(TWIST_BONUS + " (a regular joker replacing a bonus joker is not forbidden)",
         "B3 R3 D", "B3 R3 K3 J | D B9 B10", "K3 J B9 B10", (), "twist"),
    Turn("Bonus Jokers can be cleared in the same way that the Regular Jokers are cleared",
         "R2 D R5 R6 R7", "R2 R3 R4 R5 | R6 R7 D", "R3 R4", (), "twist"),
    Turn("Bonus Jokers can be cleared ... they must be played on the same turn",
         "R2 D R5", "R2 R3 R4 R5", "R3 R4", ("tile_removed", "joker_not_reused"), "twist"),
    Turn(SET_WITH_JOKER_003, "R3 R4 J R6 R7", "R3 R4 J | R6 R7 R8", "R8", (), "twist"),
    Turn("The player adds the Blue 5 and clears the Regular Joker.", "B3 B4 J B6 B7 B8",
         "B3 B4 B5 B6 | B7 B8 J", "B5", (), "twist"),
    Turn(DOUBLE_VALUE, "", "R9 D R12", None, (), "twist", opened=False),
    Turn(DOUBLE_VALUE, "", "R2 D R5 | B3 R3 D", None, ("meld_too_low",), "twist",
         opened=False),
    Turn(MIRROR_ZERO, "", "R9 R10 M R10 R9", None, (), "twist", opened=False),
    Turn(MIRROR_ZERO, "", "R3 R4 M R4 R3", None, ("meld_too_low",), "twist", opened=False),
    Turn("Note: A series may contain more than one Bonus Joker and/or Regular Joker.",
         "R5 R6 R7", "R5 R6 R7 | B3 R3 D | O9 J C K12", "B3 R3 D O9 J C K12", (), "twist"),
    Turn("The Color Change Joker is used only in runs", "R5 R6 R7", "R5 R6 R7 | B3 R3 C",
         "B3 R3 C", ("illegal_set",), "twist"),
]

INITIAL_MELD = [
    Turn(JOKER_VALUE, "", "K10 J K12", None, (), opened=False),
    Turn(INITIAL_000, "", "R8 R9 R10", None, ("meld_too_low",), opened=False),
    Turn(INITIAL_000, "", "R1 R2 R3 | B7 B8 B9 | O3 O4 O5", None, (), opened=False),
    Turn(NOT_TABLE_TILES, "R5 R6 R7", "R5 R6 R7 R8 | K10 K11 K12", None,
         ("meld_touches_table",), opened=False),
    Turn(NOT_TABLE_TILES, "K4 R4 B4 O4", "K4 R4 B4 | O4 O5 O6 O7 O8", None,
         ("meld_too_low", "meld_touches_table"), opened=False),
    Turn(NOT_TABLE_TILES, "R5 R6 R7", "R5 R6 R7 | K10 K11 K12 | B1 B2 B3", None, (),
         opened=False),
    Turn(LEGITIMATE, "", "K10 K11 K12 | R1 R2", None, ("illegal_set",), opened=False),
    Turn(DRAW, "R1 R2 R3", "R1 R2 R3", None, ("nothing_played",), opened=False),
]

MIRROR_SIDES = ("Any number added to one side must also be added to the other side, and any "
                "number removed from one side must also be removed from the other side.")
COLOUR_CHANGE = ("The Color Change Joker can be used at the end of a set, but additional tiles "
                 "played after this Joker must be of a different color.")
REPLACE_003 = ("Replace the Regular Joker in any set with a tile showing the same number and "
               "color of the tile the joker represents.")

MORE = [
    Turn("must also use at least one tile from his/her rack on that turn (moving a table tile "
         "alone is no play)", "O6 O7 O8 O9 | R9 B9 K9", "O6 O7 O8 | R9 B9 K9 O9", None,
         ("nothing_played",)),
    Turn(REPLACE_003, "K5 R5 B5 J", "K5 R5 B5 O5 | J R9 R10", "O5 R9 R10", ()),
    Turn(SABRA_EXCHANGE + " " + SABRA_TWO, "K5 R5 B5 J", "K5 R5 B5 O5 | J R9 R10",
         "O5 R9 R10", (), "sabra"),
    Turn(NEW_SET_000 + " (a new set of table tiles)", "R4 J R6 R7 R8", "R4 R5 R6 | R7 R8 J",
         "R5", ()),
    Turn(SABRA_TWO, "R4 J R6 R7 R8", "R4 R5 R6 | R7 R8 J", "R5",
         ("joker_needs_two_rack_tiles",), "sabra"),
    Turn(SABRA_LOCKED, "R4 J R6 R7 R8", "R4 R5 R6 | R7 R8 R9 | J O1 O2", "R5 R9 O1 O2", (),
         "sabra"),
    Turn(SABRA_LOCKED, "R3 R4 J R6 R7", "R3 R4 R5 R6 | J R7 R8 R9", "R5 R8 R9", (), "sabra"),
    Turn("Groups are limited to four because colors may not repeat within a group.",
         "K5 R5 B5 J", "K5 R5 B5 O5 J", "O5", ("illegal_set",)),
    Turn("A Double Joker can be replaced with both tiles that it represents", "R2 D R5",
         "R2 R3 R4 R5 | D O9 O10", "R3 R4 O9 O10", (), "twist"),
    Turn(MIRROR_SIDES, "R3 R4 M R4 R3", "R2 R3 R4 M R4 R3 R2", "R2 R2", (), "twist"),
    Turn(MIRROR_SIDES, "R3 R4 M R4 R3", "R2 R3 R4 M R4 R3", "R2", ("illegal_set",), "twist"),
    Turn(COLOUR_CHANGE, "R5 R6 C B8 B9", "R5 R6 C B8 B9 B10", "B10", (), "twist"),
    Turn(COLOUR_CHANGE, "R5 R6 C B8 B9", "R4 R5 R6 C B8 B9", "R4", (), "twist"),
    Turn(COLOUR_CHANGE, "R5 R6 C B8 B9", "R5 R6 C B8 B9 R10", "R10", ("illegal_set",),
         "twist"),
    Turn(NEW_SET_000, "R5 J R7 | K9 K10 K11", "R5 R7 | K9 K10 K11 J", None,
         ("nothing_played", "illegal_set", "joker_not_reused")),
    Turn("the joker can be replaced by a tile of either of the missing colors",
         "R5 J R7 | K9 B9 J", "R5 J R7 | K9 B9 O9 | J O10 O11", "O9 O10 O11", ()),
    Turn(SABRA_TWO, "R5 J R7 | K9 B9 J", "R5 J R7 | K9 B9 O9 | J O10 O11", "O9 O10 O11", (),
         "sabra"),
    Turn(JOKER_VALUE, "", "J J K7", None, ("meld_too_low",), opened=False),
    Turn(NEW_SET_000 + " (the rack is not given: a second joker came from it)", "R5 J R7",
         "R5 R6 R7 J | J K1 K2", None, ()),
    Turn(NEW_SET_000 + " (the rack is not given)", "R5 J R7", "R5 R6 R7 | J K1 K2", None, ()),
    Turn("A Joker may be substituted for any tile when you make a meld.", "B1 B2 B3",
         "B1 B2 B3 | J J K7", "J J K7", (), "sabra"),
]

ISSUE_26 = [
    Turn(SABRA_LOCKED + " (rearranged in the same turn)", "K3 K4 J K6 K7 K8",
         "K3 K4 K5 | K6 K7 K8 | J R9 B9", "K5 R9 B9", (), "sabra"),
    Turn(SABRA_LOCKED + " (the exchange tile may lie in any part of the old set)",
         "K3 K4 J K6 K7 K8", "K3 K4 K5 K6 | K7 K8 K9 | J R9 B9", "K5 K9 R9 B9", (), "sabra"),
    Turn(SABRA_LOCKED + " (split while it holds its joker)", "K3 K4 J K6 K7 K8",
         "K3 K4 J | K5 K6 K7 K8", "K5", ("joker_set_manipulated",), "sabra"),
    Turn(SABRA_LOCKED + " (split while it holds its joker)", "K3 K4 J K6 K7 K8",
         "K3 K4 J | K6 K7 K8 K9", "K9", ("joker_set_manipulated",), "sabra"),
    Turn(SABRA_TAKE + " (the exchange tile in an unrelated set)", "K3 K4 J K6 K7 K8 | R5 B5 O5",
         "K3 K4 K5 K6 K7 K8 | R5 B5 O5 | J R9 B9", "K5 R9 B9", (), "sabra"),
    Turn(SABRA_EXCHANGE + " (the K5 came from the table, not the hand)",
         "K3 K4 J K6 K7 K8 | K5 R5 B5 O5", "K3 K4 K5 | K6 K7 K8 | R5 B5 O5 | J R9 B9", "R9 B9",
         ("joker_not_exchanged",), "sabra"),
    Turn(NEW_SET_000, "K5 J K7", "K5 K6 K7 J", "K6", ("joker_not_reused",)),
]

ALL = ISSUE_26 + ISSUE_8 + PRESSMAN_AND_WIKI + SABRA + TWIST + INITIAL_MELD + MORE


@pytest.mark.parametrize("turn", ALL, ids=[
    f"{t.preset}{'+tournament' if t.tournament else ''}: {t.before or '∅'} -> {t.after}"
    for t in ALL])
def test_each_turn_of_the_seeds_is_judged_as_the_rule_book_says(turn: Turn) -> None:
    verdict = judge(turn)
    assert verdict.codes == turn.codes, (turn.seed, [v.message for v in verdict.violations])
    assert verdict.legal == (not turn.codes)
    if verdict.legal:
        assert verdict.penalty is Penalty.NONE
    elif turn.codes == ("nothing_played",) and turn.before == turn.after:
        assert verdict.penalty is Penalty.DRAW_ONE
    else:
        assert verdict.penalty is Penalty.DRAW_THREE


def test_the_penalty_is_in_every_verdict_as_json_and_in_the_text() -> None:
    # Seed 004 PENALTIES: "A player who plays past the two-minute time limit must draw one
    # tile"; "leaves incomplete melds on the table ... draw three additional tiles".
    draw = judge(Turn(DRAW, "R1 R2 R3", "R1 R2 R3", None, ()))
    assert draw.to_json()["penalty"] == "draw_one" and "draw 1 tile" in draw.describe()
    failed = judge(Turn(LEGITIMATE, "R1 R2 R3", "R1 R2 R3 R5", "R5", ()))
    assert failed.to_json()["penalty"] == "draw_three" and "draw 3 tiles" in failed.describe()
    legal = judge(Turn(LEGITIMATE, "R1 R2 R3", "R1 R2 R3 R4", "R4", ()))
    assert legal.to_json()["penalty"] == "none"


def test_an_illegal_table_before_the_turn_is_flagged_but_not_blamed_on_the_player() -> None:
    verdict = judge(Turn(LEGITIMATE, "R1 R2 R4 | K5 K6 K7", "R1 R2 R3 R4 | K5 K6 K7", "R3", ()))
    assert verdict.legal
    assert [note.code.value for note in verdict.notes] == ["table_before_illegal"]
    assert "R1 R2 R4" in verdict.notes[0].message and "Note:" in verdict.describe()
    assert verdict.to_json()["notes"][0]["code"] == "table_before_illegal"


def test_every_violation_carries_a_code_and_parameters_rendered_in_english() -> None:
    verdict = judge(Turn(NEW_SET_000, "R5 J R7", "R5 R6 R7 J R9", "R6 R9", ()))
    (violation,) = verdict.violations
    assert violation.reason.code == "joker_not_reused"
    data = violation.to_json()
    assert data["params"]["from"] == ["R5", "J", "R7"]
    assert data["params"]["into"] == ["R5", "R6", "R7", "J", "R9"]
    assert data["message"] == violation.message and "new set" in violation.message


def test_over_time_is_a_draw_of_one_or_a_failed_move_of_three() -> None:
    # Seed 000: "Players who go over the time limit must draw a tile from the pool, ending
    # their turns." "Players who cannot complete a move within the 1 minute time limit must
    # replace the tiles that were on the table to their previous positions, take back the
    # tiles they played, and draw three tiles from the pool as a penalty."
    def late(before: str, after: str, rack: str | None) -> TurnVerdict:
        return referee_turn(parse_table(before), parse_table(after), opened=True,
                            preset=get_preset("sabra"),
                            rack=None if rack is None else parse_rack(rack), over_time=True)

    idle = late("R5 R6 R7", "R5 R6 R7", None)
    assert idle.codes == ("nothing_played", "over_time") and idle.penalty is Penalty.DRAW_ONE
    assert "120 s" in idle.violations[-1].message
    busy = late("R5 R6 R7", "R5 R6 R7 R8", "R8")
    assert busy.codes == ("over_time",) and busy.penalty is Penalty.DRAW_THREE


@pytest.mark.parametrize("after, rack, codes", [
    ("K4 K3 J K1 | K3 J K1", None, ("nothing_played",)),
    ("K1 J K3 K4 | K1 J K3", None, ("nothing_played",)),
    ("K1 J K3 K4 K5 | K1 J K3", "K5", ()),
    ("K1 J K3 | K1 J K3 K4 K5", "K5", ()),
    ("K1 J K3 | K1 J K3 | K4 K5 K6", "K5 K6", ("joker_set_manipulated",)),
])
def test_sets_holding_jokers_are_followed_whatever_order_they_are_typed_in(
        after: str, rack: str | None, codes: tuple[str, ...]) -> None:
    """SABRA_LOCKED: "A meld containing a Joker may not be manipulated." Two such sets where one
    holds all the tiles of the other: each set before the turn is followed to a set of its own
    after it, however the sets are typed. Found by the property test: typing the longer set
    first made the shorter one seem to take it, and the longer one seem broken up."""
    verdict = judge(Turn(SABRA_LOCKED, "K1 J K3 | K1 J K3 K4", after, rack, codes, "sabra"))
    assert verdict.codes == codes, [v.message for v in verdict.violations]
