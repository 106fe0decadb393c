"""Properties of the turn referee over many generated tables (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.core.presets import PRESSMAN, SABRA, Preset
from companion.core.referee import Penalty, referee_turn
from companion.core.tiles import COPIES_OF_EACH_TILE, Colour, Meld, Table, Tile

colours = st.sampled_from(list(Colour))


@st.composite
def legal_sets(draw: st.DrawFn) -> Meld:
    if draw(st.booleans()):
        colour = draw(colours)
        length = draw(st.integers(3, 5))
        start = draw(st.integers(1, 14 - length))
        return tuple(Tile.numbered(colour, n) for n in range(start, start + length))
    number = draw(st.integers(1, 13))
    chosen = draw(st.lists(colours, min_size=3, max_size=4, unique=True))
    return tuple(Tile.numbered(colour, number) for colour in chosen)


def possible(*tables: Table) -> bool:
    counts = Counter(tile for table in tables for meld in table for tile in meld)
    return all(count <= COPIES_OF_EACH_TILE for count in counts.values())


tables = st.lists(legal_sets(), min_size=0, max_size=5).map(tuple)


@settings(max_examples=80, deadline=None)
@given(before=tables, new_set=legal_sets(), sabra=st.booleans())
def test_laying_a_new_legal_set_from_the_rack_after_the_meld_is_legal(
        before: Table, new_set: Meld, sabra: bool) -> None:
    assume(possible(before, (new_set,)))
    verdict = referee_turn(before, before + (new_set,), opened=True,
                           preset=SABRA if sabra else PRESSMAN, rack=new_set)
    assert verdict.legal, verdict.violations
    assert Counter(verdict.played) == Counter(new_set)


@settings(max_examples=80, deadline=None)
@given(before=tables, new_set=legal_sets(), opened=st.booleans(), taken=st.integers(0, 4))
def test_every_turn_balances_and_flags_what_it_must(
        before: Table, new_set: Meld, opened: bool, taken: int) -> None:
    """played − removed is after − before; removals and draws are always flagged."""
    assume(possible(before, (new_set,)))
    after = before[:taken] + before[taken + 1:] + (new_set,)
    verdict = referee_turn(before, after, opened=opened, preset=PRESSMAN)
    before_counts = Counter(t for meld in before for t in meld)
    after_counts = Counter(t for meld in after for t in meld)
    assert before_counts + Counter(verdict.played) - Counter(verdict.removed) == after_counts
    assert ("tile_removed" in verdict.codes) == bool(verdict.removed)
    assert ("nothing_played" in verdict.codes) == (not verdict.played)
    assert "illegal_set" not in verdict.codes
    assert verdict.legal == (not verdict.violations)
    if not opened and not verdict.removed and verdict.played:
        assert ("meld_too_low" in verdict.codes) == (verdict.value < PRESSMAN.initial_meld)


@st.composite
def sets_with_a_joker(draw: st.DrawFn) -> Meld:
    """A legal set with one of its tiles replaced by the joker that stands for it."""
    meld = draw(legal_sets())
    place = draw(st.integers(0, len(meld) - 1))
    return meld[:place] + (Tile.of_joker(),) + meld[place + 1:]


@settings(max_examples=60, deadline=None)
@given(sets=st.lists(sets_with_a_joker(), min_size=1, max_size=2), plain=tables,
       order=st.randoms(use_true_random=False), sabra=st.booleans())
def test_retyping_the_table_in_another_order_is_a_draw_that_frees_no_joker(
        sets: list[Meld], plain: Table, order: random.Random, sabra: bool) -> None:
    """Seed 000: "When players cannot play any tiles from their racks, or purposely choose not
    to, they must draw a tile from the pool": the same sets typed in another order (sets
    shuffled, each set's tiles reversed) lay nothing and move no joker."""
    before = tuple(sets) + plain
    assume(possible(before))
    shuffled = list(before)
    order.shuffle(shuffled)
    after = tuple(meld[::-1] for meld in shuffled)
    verdict = referee_turn(before, after, opened=True, preset=SABRA if sabra else PRESSMAN)
    assert verdict.codes == ("nothing_played",), verdict.violations
    assert verdict.penalty is Penalty.DRAW_ONE


@settings(max_examples=80, deadline=None)
@given(old=legal_sets(), place=st.integers(0, 4), new=legal_sets(), new_place=st.integers(0, 4),
       preset=st.sampled_from([PRESSMAN, SABRA]))
def test_exchanging_a_joker_from_the_rack_and_laying_it_anew_is_legal(
        old: Meld, place: int, new: Meld, new_place: int, preset: Preset) -> None:
    """Seed 004: "You may take a Joker from a run or group in exchange for a tile of the same
    value from your hand. You must use the Joker immediately with 2 more tiles from your hand
    to make another meld"; seed 000 allows it too ("This tile can come from ... a player's
    rack")."""
    place, new_place = place % len(old), new_place % 3
    new = new[:3]
    before_set = old[:place] + (Tile.of_joker(),) + old[place + 1:]
    new_set = new[:new_place] + (Tile.of_joker(),) + new[new_place + 1:]
    rack = (old[place],) + new[:new_place] + new[new_place + 1:]
    assume(possible((before_set,), (old, new)) and Counter(new_set) != Counter(before_set))
    verdict = referee_turn((before_set,), (old, new_set), opened=True, preset=preset, rack=rack)
    assert verdict.legal, verdict.violations
