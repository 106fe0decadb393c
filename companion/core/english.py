"""The one English renderer of every reason code (sets and turns).

A translation replaces this module; the rules never write a sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.reasons import Reason
from companion.core.tiles import Tile, format_tiles


def plural(word: str, count: int) -> str:
    return word if count == 1 else word + "s"


def a_number(number: int) -> str:
    """ "a 7", "an 8", "an 11": numbers as a player says them."""
    return f"{'an' if number in (8, 11, 18) else 'a'} {number}"


def words_list(items: tuple[str, ...] | list[str]) -> str:
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tile_words(tiles: tuple[Tile, ...]) -> str:
    return words_list([tile.words for tile in tiles])


def is_are(count: int) -> str:
    return "is" if count == 1 else "are"


def quoted(meld: tuple[Tile, ...]) -> str:
    """A set as it is written in a sentence: “R5 J R7”."""
    return f"“{format_tiles(meld)}”"


def quoted_sets(melds: tuple[tuple[Tile, ...], ...]) -> str:
    return ", ".join(dict.fromkeys(quoted(meld) for meld in melds))


_RENDERERS: dict[str, Callable[[Reason], str]] = {}


def renders(code: str) -> Callable[[Callable[[Reason], str]], Callable[[Reason], str]]:
    """Register the English sentence of a code (every sentence is written below)."""

    def register(function: Callable[[Reason], str]) -> Callable[[Reason], str]:
        _RENDERERS[code] = function
        return function

    return register


def render(reason: Reason) -> str:
    """The English sentence of a reason."""
    return _RENDERERS[reason.code](reason)


def known_codes() -> frozenset[str]:
    return frozenset(_RENDERERS)




# --- sets (companion.core.melds) -----------------------------------------------------------

@renders("joker_not_in_edition")
def _(r: Reason) -> str:
    return (f"the {r.text('joker')} is not part of {r.text('preset')}: bonus jokers come only "
            "with Twist")


@renders("too_few_tiles")
def _(r: Reason) -> str:
    note = " (a double joker is still one tile)" if r.text("double_joker") == "yes" else ""
    return f"a set needs at least {r.int('least')} tiles{note}"


@renders("mirror_twice")
def _(r: Reason) -> str:
    return "a set can hold only one mirror joker"


@renders("mirror_side_missing")
def _(r: Reason) -> str:
    return "a mirror joker needs tiles on both sides to reflect"


@renders("mirror_sides_unequal")
def _(r: Reason) -> str:
    left = r.int("left")
    return (f"the sides of the mirror joker must mirror each other: {left} "
            f"{plural('tile', left)} on the left, {r.int('right')} on the right")


@renders("mirror_side_too_short")
def _(r: Reason) -> str:
    least = {2: "two", 3: "three"}.get(r.int("least"), str(r.int("least")))
    return f"each side of a mirror joker must be a run or group of at least {least} tiles"


@renders("mirror_side_not_a_set")
def _(r: Reason) -> str:
    return f"the {r.text('side')} side of the mirror joker is neither a run nor a group"


@renders("mirror_sides_differ")
def _(r: Reason) -> str:
    return (f"the sides of the mirror joker do not mirror each other: "
            f"{format_tiles(r.tiles('left'))} against {format_tiles(r.tiles('right'))}")


@renders("colour_change_in_group")
def _(r: Reason) -> str:
    return "a colour-change joker is used only in runs, not in groups"


@renders("colour_change_not_consecutive")
def _(r: Reason) -> str:
    return ("the numbers are not consecutive in the order laid: with a colour-change joker the "
            "order given is the rule")


@renders("colour_change_mixed_segment")
def _(r: Reason) -> str:
    return (f"between colour changes a run keeps one colour: {tile_words(r.tiles('tiles'))} "
            "are not one colour")


@renders("colour_change_same_colour")
def _(r: Reason) -> str:
    return f"after a colour-change joker the colour must change: {r.text('colour')} on both sides"


@renders("colour_change_out_of_range")
def _(r: Reason) -> str:
    return "the run goes past 13 or below 1 in the order laid"


@renders("jokers_only")
def _(r: Reason) -> str:
    return "these jokers cannot make a set"


@renders("neither_number_nor_colour")
def _(r: Reason) -> str:
    return "these tiles share neither a number (for a group) nor a colour (for a run)"


@renders("neither_group_nor_run")
def _(r: Reason) -> str:
    return f"not a group ({r.reason('group')}) and not a run ({r.reason('run')})"


@renders("group_wrong_number")
def _(r: Reason) -> str:
    strangers = r.tiles("tiles")
    return (f"{tile_words(strangers)} {is_are(len(strangers))} not {a_number(r.int('number'))}: "
            "a group is one number in different colours")


@renders("group_repeats_colour")
def _(r: Reason) -> str:
    return f"a group can't hold two {r.text('colour')} {r.int('number')}s"


@renders("group_too_big")
def _(r: Reason) -> str:
    doubles = " (a double joker counts as two)" if r.text("double_joker") == "yes" else ""
    return (f"a group has at most {r.int('most')} tiles, one of each colour; this one would "
            f"have {r.int('width')}{doubles}")


@renders("run_wrong_colour")
def _(r: Reason) -> str:
    strangers = r.tiles("tiles")
    return (f"{tile_words(strangers)} {is_are(len(strangers))} not {r.text('colour')}: a run "
            "is one colour")


@renders("run_repeats_number")
def _(r: Reason) -> str:
    return f"a run can't hold two {r.text('colour')} {r.int('number')}s"


@renders("run_too_long")
def _(r: Reason) -> str:
    return f"a run can't be longer than {r.int('longest')} tiles (1 to 13)"


@renders("run_wraps")
def _(r: Reason) -> str:
    return "13 cannot be followed by 1: 1 is always the lowest number"


@renders("run_gap")
def _(r: Reason) -> str:
    missing = r.words("missing")
    gap = f"{r.text('colour')} {words_list(missing)} {is_are(len(missing))} missing"
    jokers, places = r.int("jokers"), r.int("places")
    if places == 0:
        return f"a run needs consecutive numbers: {gap}"
    return (f"{gap} and {'only ' if jokers else ''}{jokers} {plural('joker', jokers)} can fill "
            f"{places} {plural('place', places)}")


@renders("double_joker_misfit")
def _(r: Reason) -> str:
    return ("the double joker can't fit: it stands for two numbers in a row, and the gaps here "
            "are not filled exactly")


# --- turns (companion.core.referee) --------------------------------------------------------

@renders("tile_removed")
def _(r: Reason) -> str:
    removed = r.tiles("tiles")
    names = ", ".join(f"{tile} ({tile.words})" for tile in removed)
    was, now = ("was", "is") if len(removed) == 1 else ("were", "are")
    return (f"{names} {was} on the table before the turn and {now} gone: no tile taken from the "
            "table may go back to a rack")


@renders("nothing_played")
def _(r: Reason) -> str:
    if r.text("table_changed") == "no":
        return "no tile came from the rack and the table is unchanged: that turn is a draw"
    return ("no tile came from the rack: a turn that rearranges the table must also lay at "
            "least one tile from the rack")


@renders("not_from_rack")
def _(r: Reason) -> str:
    return (f"{format_tiles(r.tiles('tiles'))} laid on the table but not on the rack "
            f"({quoted(r.tiles('rack')) if r.tiles('rack') else 'empty'})")


@renders("illegal_set")
def _(r: Reason) -> str:
    return f"set {r.int('set')} {quoted(r.tiles('tiles'))} is not legal: {r.text('why')}"


@renders("table_before_illegal")
def _(r: Reason) -> str:
    return (f"set {r.int('set')} before the turn {quoted(r.tiles('tiles'))} was already not "
            f"legal: {r.text('why')}")


@renders("meld_too_low")
def _(r: Reason) -> str:
    return (f"the initial meld is worth {r.int('value')}; {r.text('preset')} asks for "
            f"{r.int('needed')}")


@renders("meld_touches_table")
def _(r: Reason) -> str:
    return (f"the initial meld uses or moves table tiles: {quoted_sets(r.melds('sets'))} did not "
            "stay as they were")


@renders("joker_before_meld")
def _(r: Reason) -> str:
    return f"a joker was retrieved from {quoted_sets(r.melds('sets'))} before the initial meld"


def _freed(r: Reason) -> str:
    return f"the {r.text('joker')} freed from {quoted(r.tiles('from'))}"


@renders("joker_not_reused")
def _(r: Reason) -> str:
    if r.text("where") == "gone":
        where = "it is no longer on the table"
    else:
        where = (f"it is in {quoted(r.tiles('into'))}, which holds a set that was on the table "
                 "before")
    return f"{_freed(r)} must be played again this turn to make a new set; {where}"


@renders("joker_set_manipulated")
def _(r: Reason) -> str:
    return (f"{r.text('preset')}: {quoted(r.tiles('set'))} holds a joker: it may be added to, but "
            "not split nor have a tile taken from it, until its joker is exchanged")


@renders("joker_needs_two_rack_tiles")
def _(r: Reason) -> str:
    count = r.int("count")
    return (f"{r.text('preset')}: {_freed(r)} must go into a new set with at least "
            f"{r.int('needed')} more tiles from the rack; it sits with {count} "
            f"{plural('tile', count)} from the rack")


@renders("joker_not_exchanged")
def _(r: Reason) -> str:
    return (f"{r.text('preset')}: {_freed(r)} may only be taken in exchange for a tile it stood "
            "for, from the rack; none was played")


@renders("joker_needs_both_missing_tiles")
def _(r: Reason) -> str:
    return (f"tournament rule: {_freed(r)}, a group of three, must be replaced with both missing "
            f"tiles ({words_list([str(t) for t in r.tiles('missing')])})")


@renders("over_time")
def _(r: Reason) -> str:
    if r.text("table_changed") == "no":
        return f"over the time limit ({r.int('seconds')} s): the turn ends with a draw"
    return (f"over the time limit ({r.int('seconds')} s) before the move was complete: every "
            "tile goes back")


@renders("bonus_joker_replaced_joker")
def _(r: Reason) -> str:
    return (f"a {r.text('bonus')} took the place of {_freed(r)}: bonus jokers cannot replace a "
            "regular joker or another bonus joker")


# --- the solver (companion.core.solver): why tiles cannot be laid ------------------------------

@renders("solver_no_tiles")
def _(r: Reason) -> str:
    return "there are no tiles to lay"


@renders("solver_timeout_arrange")
def _(r: Reason) -> str:
    return (f"the search ran out of time ({r.text('seconds')} s) before deciding whether these "
            "tiles can be laid")


@renders("solver_tiles_fit_nowhere")
def _(r: Reason) -> str:
    tiles = r.tiles("tiles")
    verb = "fits" if len(tiles) == 1 else "fit"
    return f"{', '.join(str(t) for t in tiles)} {verb} in no run or group"


@renders("solver_too_few_tiles")
def _(r: Reason) -> str:
    return f"a set needs at least {r.int('least')} tiles"


@renders("solver_special_joker_alone")
def _(r: Reason) -> str:
    return (f"the solver finds no set for the {r.text('joker')}: it could not place it in any set "
            "the rules allow")


@renders("solver_special_jokers_together")
def _(r: Reason) -> str:
    return (f"the solver finds no way to place the {' and the '.join(r.words('jokers'))} "
            "together: each needs tiles the other takes")


@renders("solver_tile_too_many")
def _(r: Reason) -> str:
    tile = r.tiles("tile")[0]
    return f"without {tile} ({tile.words}) the rest could be laid"


@renders("solver_tile_over")
def _(r: Reason) -> str:
    return "every split into runs and groups leaves some tile over"


@renders("solver_rack_empty")
def _(r: Reason) -> str:
    return "the rack is empty: nothing to play"


@renders("solver_timeout_play")
def _(r: Reason) -> str:
    return (f"the search ran out of time ({r.text('seconds')} s) before finding a play: nothing "
            "found so far")


@renders("solver_table_cannot_be_laid")
def _(r: Reason) -> str:
    return f"the table itself cannot be laid legally: {render(r.reason('why'))}"


@renders("solver_meld_out_of_reach")
def _(r: Reason) -> str:
    return (f"no sets from your rack reach the initial meld of {r.int('needed')} "
            f"({r.text('preset')}): draw a tile")


@renders("solver_nothing_to_lay")
def _(r: Reason) -> str:
    return "nothing from your rack can be laid: draw a tile"


@renders("solver_no_legal_turn")
def _(r: Reason) -> str:
    return "no arrangement of these tiles makes a turn the rules allow"
