"""Properties of the turn referee over many generated tables (hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.core.presets import PRESSMAN, SABRA
from companion.core.referee import referee_turn
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
