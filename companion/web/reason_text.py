"""Every reason code of the core, said in the page's language.

``companion.core.english`` is the core's one English renderer; the pages say the same reasons
through the catalogues instead: one gettext message per code (a few codes have variants), with
the same named parameters the English renderer uses. English pages keep the core's own sentence
word for word; a language whose catalogue lacks a message falls back to that English sentence.
Tiles stay in the notation (K R B O J) in every language.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext

from companion.core.melds import check_meld
from companion.core.reasons import Reason
from companion.core.tiles import Tile, format_tiles
from companion.web.languages import DEFAULT_LANGUAGE, RIGHT_TO_LEFT, current_language


def _(message: str) -> str:
    """Marks a message for extraction; translated when a sentence is built."""
    return message


# Words the sentences put into their placeholders (the core passes them in English).
WORDS: dict[str, str] = {
    "black": _("black"), "red": _("red"), "blue": _("blue"), "orange": _("orange"),
    "joker": _("joker"), "double joker": _("double joker"), "mirror joker": _("mirror joker"),
    "colour-change joker": _("colour-change joker"), "left": _("left"), "right": _("right"),
    "run": _("run"), "group": _("group"), "typed": _("typed"), "read": _("read"),
}

# Every code's messages: the catalogue test checks each one is translated in every language.
MESSAGES: dict[str, dict[str, str]] = {
    "joker_not_in_edition": {"": _("the %(joker)s is not part of %(preset)s: bonus jokers come "
                                   "only with Twist")},
    "too_few_tiles": {"": _("a set needs at least %(least)s tiles"),
                      "double": _("a set needs at least %(least)s tiles (a double joker is "
                                  "still one tile)")},
    "mirror_twice": {"": _("a set can hold only one mirror joker")},
    "mirror_side_missing": {"": _("a mirror joker needs tiles on both sides to reflect")},
    "mirror_sides_unequal": {"": _("the sides of the mirror joker must mirror each other: "
                                   "tiles on the left: %(left)s, on the right: %(right)s")},
    "mirror_side_too_short": {"": _("each side of a mirror joker must be a run or group of at "
                                    "least %(least)s tiles")},
    "mirror_side_not_a_set": {"": _("the %(side)s side of the mirror joker is neither a run nor "
                                    "a group")},
    "mirror_sides_differ": {"": _("the sides of the mirror joker do not mirror each other: "
                                  "%(left)s against %(right)s")},
    "colour_change_in_group": {"": _("a colour-change joker is used only in runs, not in "
                                     "groups")},
    "colour_change_not_consecutive": {"": _("the numbers are not consecutive in the order laid: "
                                            "with a colour-change joker the order given is the "
                                            "rule")},
    "colour_change_mixed_segment": {"": _("between colour changes a run keeps one colour: "
                                          "%(tiles)s are not one colour")},
    "colour_change_same_colour": {"": _("after a colour-change joker the colour must change: "
                                        "%(colour)s on both sides")},
    "colour_change_out_of_range": {"": _("the run goes past 13 or below 1 in the order laid")},
    "jokers_only": {"": _("these jokers cannot make a set")},
    "neither_number_nor_colour": {"": _("these tiles share neither a number (for a group) nor a "
                                        "colour (for a run)")},
    "neither_group_nor_run": {"": _("not a group (%(group)s) and not a run (%(run)s)")},
    "group_wrong_number": {"": _("not %(number)s: %(tiles)s; a group is one number in "
                                 "different colours")},
    "group_repeats_colour": {"": _("a group can't hold two %(colour)s %(number)ss")},
    "group_too_big": {"": _("a group has at most %(most)s tiles, one of each colour; this one "
                            "would have %(width)s"),
                      "double": _("a group has at most %(most)s tiles, one of each colour; this "
                                  "one would have %(width)s (a double joker counts as two)")},
    "run_wrong_colour": {"": _("not %(colour)s: %(tiles)s; a run is one colour")},
    "run_repeats_number": {"": _("a run can't hold two %(colour)s %(number)ss")},
    "run_too_long": {"": _("a run can't be longer than %(longest)s tiles (1 to 13)")},
    "run_wraps": {"": _("13 cannot be followed by 1: 1 is always the lowest number")},
    "run_gap": {"": _("a run needs consecutive numbers: %(colour)s %(missing)s missing"),
                "jokers": _("%(colour)s %(missing)s missing, and the jokers (%(jokers)s) can "
                            "fill only %(places)s places")},
    "double_joker_misfit": {"": _("the double joker can't fit: it stands for two numbers in a "
                                  "row, and the gaps here are not filled exactly")},
    "tile_removed": {"": _("%(tiles)s: on the table before the turn and gone now: no tile taken "
                           "from the table may go back to a rack")},
    "nothing_played": {"": _("no tile came from the rack: a turn that rearranges the table must "
                             "also lay at least one tile from the rack"),
                       "draw": _("no tile came from the rack and the table is unchanged: that "
                                 "turn is a draw")},
    "not_from_rack": {"": _("%(tiles)s laid on the table but not on the rack (%(rack)s)"),
                      "empty": _("%(tiles)s laid on the table but the rack is empty")},
    "illegal_set": {"": _("set %(set)s %(tiles)s is not legal: %(why)s")},
    "table_before_illegal": {"": _("set %(set)s before the turn %(tiles)s was already not "
                                   "legal: %(why)s")},
    "meld_too_low": {"": _("the initial meld is worth %(value)s; %(preset)s asks for "
                           "%(needed)s")},
    "meld_touches_table": {"": _("the initial meld uses or moves table tiles: %(sets)s did not "
                                 "stay as they were")},
    "joker_before_meld": {"": _("a joker was retrieved from %(sets)s before the initial meld")},
    "joker_not_reused": {"gone": _("the %(joker)s freed from %(from)s must be played again this "
                                   "turn to make a new set; it is no longer on the table"),
                         "": _("the %(joker)s freed from %(from)s must be played again this "
                               "turn to make a new set; it is in %(into)s, which holds a set "
                               "that was on the table before")},
    "joker_set_manipulated": {"": _("%(preset)s: %(set)s holds a joker: it may be added to, but "
                                    "not split nor have a tile taken from it, until its joker "
                                    "is exchanged")},
    "joker_needs_two_rack_tiles": {"": _("%(preset)s: the %(joker)s freed from %(from)s must go "
                                         "into a new set with at least %(needed)s more tiles "
                                         "from the rack; tiles from the rack with it: "
                                         "%(count)s")},
    "joker_not_exchanged": {"": _("%(preset)s: the %(joker)s freed from %(from)s may only be "
                                  "taken in exchange for a tile it stood for, from the rack; "
                                  "none was played")},
    "joker_needs_both_missing_tiles": {"": _("tournament rule: the %(joker)s freed from "
                                             "%(from)s, a group of three, must be replaced with "
                                             "both missing tiles (%(missing)s)")},
    "over_time": {"": _("over the time limit (%(seconds)s s) before the move was complete: "
                        "every tile goes back"),
                  "draw": _("over the time limit (%(seconds)s s): the turn ends with a draw")},
    "bonus_joker_replaced_joker": {"": _("a %(bonus)s took the place of the %(joker)s freed "
                                         "from %(from)s: bonus jokers cannot replace a regular "
                                         "joker or another bonus joker")},
    # the solver's reasons (companion.core.solver): why tiles cannot be laid
    "solver_no_tiles": {"": _("there are no tiles to lay")},
    "solver_timeout_arrange": {"": _("the search ran out of time (%(seconds)s s) before deciding "
                                     "whether these tiles can be laid")},
    "solver_tiles_fit_nowhere": {"": _("%(tiles)s fits in no run or group"),
                                 "many": _("%(tiles)s fit in no run or group")},
    "solver_too_few_tiles": {"": _("a set needs at least %(least)s tiles")},
    "solver_special_joker_alone": {"": _("the solver finds no set for the %(joker)s: it could not "
                                         "place it in any set the rules allow")},
    "solver_special_jokers_together": {"": _("the solver finds no way to place the %(jokers)s "
                                             "together: each needs tiles the other takes")},
    "solver_tile_too_many": {"": _("without %(tile)s the rest could be laid")},
    "solver_tile_over": {"": _("every split into runs and groups leaves some tile over")},
    "solver_rack_empty": {"": _("the rack is empty: nothing to play")},
    "solver_timeout_play": {"": _("the search ran out of time (%(seconds)s s) before finding a "
                                  "play: nothing found so far")},
    "solver_table_cannot_be_laid": {"": _("the table itself cannot be laid legally: %(why)s")},
    "solver_meld_out_of_reach": {"": _("no sets from your rack reach the initial meld of "
                                       "%(needed)s (%(preset)s): draw a tile")},
    "solver_nothing_to_lay": {"": _("nothing from your rack can be laid: draw a tile")},
    "solver_no_legal_turn": {"": _("no arrangement of these tiles makes a turn the rules "
                                   "allow")},
}


def word(english: str) -> str:
    """A colour, joker or side word in the page's language (unknown words stay as given)."""
    return gettext(WORDS[english]) if english in WORDS else english


def tile_word(tile: Tile) -> str:
    """A tile as a player says it, in the page's language: "rot 7", "Joker"."""
    if tile.joker is not None:
        return word(tile.joker.word)
    assert tile.colour is not None
    return f"{word(tile.colour.word)} {tile.number}"


FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def isolated(text: str) -> str:
    """On a right-to-left page, text written left to right (tiles between quotes, a preset's
    name with its year in parentheses) is isolated, so its quotes and parentheses stay put."""
    if current_language() not in RIGHT_TO_LEFT:
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def _quoted(tiles: tuple[Tile, ...]) -> str:
    return isolated(f"“{format_tiles(tiles)}”")


def _quoted_sets(melds: tuple[tuple[Tile, ...], ...]) -> str:
    return ", ".join(dict.fromkeys(_quoted(meld) for meld in melds))


def _tiles_said(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(f"{tile} ({tile_word(tile)})" for tile in tiles)


def _why(reason: Reason) -> str:
    """A turn's illegal set carries its set's English reason; say the set's own reason again
    in the page's language when the set checked alone gives that same reason."""
    tiles = reason.tiles("tiles")
    english = reason.text("why")
    verdict = check_meld(tiles)
    if verdict.why is not None and verdict.reason == english:
        return reason_sentence(verdict.why)
    return english


def _variant_and_params(r: Reason) -> tuple[str, Mapping[str, object]]:
    """Which message of the code, and its parameters already said in the page's language."""
    code = r.code
    p = r.params
    if code == "joker_not_in_edition":
        return "", {"joker": word(r.text("joker")), "preset": isolated(r.text("preset"))}
    if code == "too_few_tiles":
        return ("double" if r.text("double_joker") == "yes" else ""), {"least": r.int("least")}
    if code == "mirror_sides_unequal":
        return "", {"left": r.int("left"), "right": r.int("right")}
    if code == "mirror_side_too_short":
        return "", {"least": r.int("least")}
    if code == "mirror_side_not_a_set":
        return "", {"side": word(r.text("side"))}
    if code == "mirror_sides_differ":
        return "", {"left": format_tiles(r.tiles("left")), "right": format_tiles(r.tiles("right"))}
    if code == "colour_change_mixed_segment":
        return "", {"tiles": ", ".join(tile_word(t) for t in r.tiles("tiles"))}
    if code in ("colour_change_same_colour",):
        return "", {"colour": word(r.text("colour"))}
    if code == "neither_group_nor_run":
        return "", {"group": reason_sentence(r.reason("group")),
                    "run": reason_sentence(r.reason("run"))}
    if code == "group_wrong_number":
        return "", {"number": r.int("number"),
                    "tiles": ", ".join(tile_word(t) for t in r.tiles("tiles"))}
    if code in ("group_repeats_colour", "run_repeats_number"):
        return "", {"colour": word(r.text("colour")), "number": r.int("number")}
    if code == "group_too_big":
        return ("double" if r.text("double_joker") == "yes" else ""), {
            "most": r.int("most"), "width": r.int("width")}
    if code == "run_wrong_colour":
        return "", {"colour": word(r.text("colour")),
                    "tiles": ", ".join(tile_word(t) for t in r.tiles("tiles"))}
    if code == "run_too_long":
        return "", {"longest": r.int("longest")}
    if code == "run_gap":
        params = {"colour": word(r.text("colour")), "missing": ", ".join(r.words("missing")),
                  "jokers": r.int("jokers"), "places": r.int("places")}
        return ("" if r.int("places") == 0 else "jokers"), params
    if code == "tile_removed":
        return "", {"tiles": _tiles_said(r.tiles("tiles"))}
    if code in ("nothing_played", "over_time"):
        variant = "draw" if r.text("table_changed") == "no" else ""
        return variant, {"seconds": r.int("seconds")} if "seconds" in p else {}
    if code == "not_from_rack":
        rack = r.tiles("rack")
        return ("" if rack else "empty"), {"tiles": format_tiles(r.tiles("tiles")),
                                           "rack": _quoted(rack) if rack else ""}
    if code in ("illegal_set", "table_before_illegal"):
        return "", {"set": r.int("set"), "tiles": _quoted(r.tiles("tiles")), "why": _why(r)}
    if code == "meld_too_low":
        return "", {"value": r.int("value"), "preset": isolated(r.text("preset")),
                    "needed": r.int("needed")}
    if code in ("meld_touches_table", "joker_before_meld"):
        return "", {"sets": _quoted_sets(r.melds("sets"))}
    freed: dict[str, object] = {}
    if "joker" in p and "from" in p:
        freed = {"joker": word(r.text("joker")), "from": _quoted(r.tiles("from"))}
    if code == "joker_not_reused":
        if r.text("where") == "gone":
            return "gone", freed
        return "", freed | {"into": _quoted(r.tiles("into"))}
    if code == "joker_set_manipulated":
        return "", {"preset": isolated(r.text("preset")), "set": _quoted(r.tiles("set"))}
    if code == "joker_needs_two_rack_tiles":
        return "", freed | {"preset": isolated(r.text("preset")), "needed": r.int("needed"),
                            "count": r.int("count")}
    if code == "joker_not_exchanged":
        return "", freed | {"preset": isolated(r.text("preset"))}
    if code == "joker_needs_both_missing_tiles":
        return "", freed | {"missing": ", ".join(str(t) for t in r.tiles("missing"))}
    if code == "bonus_joker_replaced_joker":
        return "", freed | {"bonus": word(r.text("bonus"))}
    return _solver_variant_and_params(r)


def _solver_variant_and_params(r: Reason) -> tuple[str, Mapping[str, object]]:
    code = r.code
    if code in ("solver_timeout_arrange", "solver_timeout_play"):
        return "", {"seconds": r.text("seconds")}
    if code == "solver_tiles_fit_nowhere":
        tiles = r.tiles("tiles")
        return ("" if len(tiles) == 1 else "many"), {"tiles": ", ".join(str(t) for t in tiles)}
    if code == "solver_too_few_tiles":
        return "", {"least": r.int("least")}
    if code == "solver_special_joker_alone":
        return "", {"joker": word(r.text("joker"))}
    if code == "solver_special_jokers_together":
        return "", {"jokers": " + ".join(word(joker) for joker in r.words("jokers"))}
    if code == "solver_tile_too_many":
        return "", {"tile": _tiles_said(r.tiles("tile"))}
    if code == "solver_table_cannot_be_laid":
        return "", {"why": reason_sentence(r.reason("why"))}
    if code == "solver_meld_out_of_reach":
        return "", {"needed": r.int("needed"), "preset": isolated(r.text("preset"))}
    return "", {}


def reason_sentence(reason: Reason | None) -> str:
    """The reason in the page's language: the core's English sentence on English pages and
    whenever the language's catalogue lacks the message."""
    if reason is None:
        return ""
    english = str(reason)
    if current_language() == DEFAULT_LANGUAGE or reason.code not in MESSAGES:
        return english
    variant, params = _variant_and_params(reason)
    message = MESSAGES[reason.code][variant]
    translated: str = gettext(message)
    if translated == message:
        return english
    return translated % params


