"""Following jokers through a turn: which stayed at their job, which were freed, where they went.

Tiles are indistinguishable copies, so a turn is read from the table before and after it, in
the player's favour wherever it could be read several ways.

*Kept or freed.* Each joker on the table before is matched to a joker of the same kind after
that still does its old job: it sits in a set sharing at least one numbered tile with its old
set, and the tiles it can stand for there overlap the tiles it could stand for before. The
table before is read in *every* reading its order allows, not only the highest (``J K5 J`` is
the run K4 K5 K6 and also a group of 5s: adding R5 to make ``J K5 J R5`` moves no joker); a set
after the turn is read in every order its tiles allow, so retyping a set never moves its joker.
Adding a fourth tile to ``K5 R5 J`` leaves the joker its job; splitting ``R3 R4 J R6 R7`` into
``R3 R4 J | R6 R7 R8`` leaves it standing for R5. Replacing it (``R5 J R7`` becomes
``R5 R6 R7 J``) or carrying it away from all its old neighbours frees it. A set that is illegal
(before or after) gives its jokers no reading: sharing a numbered tile is then enough to count
as kept, so an illegal set is reported as such and not also read as a retrieval. The jokers
are paired with their places all together, keeping as many as can be kept (``_kept_places``):
two jokers whose sets are retyped in another order both stay.

*New sets.* A freed joker "must play the joker on his/her current turn to make a new set"
(seed 000), "used in the same turn as part of a new set" (seed 003). A set after the turn is
*new* when it holds no whole set from before the turn that did not stay on the table unchanged
(``R5 R6 R7 J R9`` still holds ``R5 J R7``: the joker stayed in its own set; ``R1 R2 R3 R4 J``
holds ``R1 R2 R3``: an old set with tiles added). A new set may be made of table tiles only:
the tile from the rack the turn owes can lie anywhere on the table.

*Where freed jokers went.* The jokers after the turn that are not kept were either freed or
came from the rack. The freed jokers of a kind take, in the player's favour, the places in new
sets first and among those the sets with the most tiles from the rack. "Tiles from the rack"
in a set are counted optimistically: as many copies of a tile as the set holds, up to the
number of copies played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.core.melds import JokerOptions, Slot, joker_options
from companion.core.presets import Preset
from companion.core.tiles import JokerKind, Meld, Table, Tile


@dataclass(frozen=True, slots=True)
class JokerPlace:
    """One joker on a table: the set it sits in, its kind, and what it can stand for there.

    ``options`` is None when the set is not legal (no reading); a mirror joker's only option is
    the empty tuple (it stands for no tile).
    """

    set_index: int
    kind: JokerKind
    options: frozenset[tuple[Slot, ...]] | None


@dataclass(frozen=True, slots=True)
class FreedJoker:
    """A joker that left its job: where it was before, and the set after the turn it went to
    (None: it is no longer on the table)."""

    was: JokerPlace
    now_in: int | None


def joker_places(table: Table, *, as_laid: bool, preset: Preset) -> list[JokerPlace]:
    places: list[JokerPlace] = []
    for index, meld in enumerate(table):
        if not any(tile.is_joker for tile in meld):
            continue
        options: JokerOptions | None = joker_options(meld, as_laid=as_laid, preset=preset)
        for tile in meld:
            if tile.joker is not None:
                places.append(JokerPlace(index, tile.joker,
                                         None if options is None else options.get(tile.joker)))
    return places


def numbered(meld: Meld) -> Counter[Tile]:
    return Counter(tile for tile in meld if not tile.is_joker)


def _still_does_its_job(old: JokerPlace, new: JokerPlace, before: Table, after: Table) -> bool:
    if old.kind is not new.kind:
        return False
    if not numbered(before[old.set_index]) & numbered(after[new.set_index]):
        return False
    if old.options is None or new.options is None:
        return True
    return bool(old.options & new.options)


def new_sets(before: Table, after: Table, unchanged: Mapping[int, int]) -> frozenset[int]:
    """The sets after the turn that hold no whole set from before (see the module docstring)."""
    moved = [(len(meld), Counter(meld)) for index, meld in enumerate(before)
             if index not in unchanged]
    kept_after = set(unchanged.values())
    new: set[int] = set()
    for index, meld in enumerate(after):
        if index in kept_after:
            continue
        # a set of fewer tiles cannot hold an old one: most pairs are settled by length alone
        candidates = [old for size, old in moved if size <= len(meld)]
        if candidates:
            here = Counter(meld)
            if any(all(here[tile] >= count for tile, count in old.items())
                   for old in candidates):
                continue
        new.add(index)
    return frozenset(new)


def rack_tile_count(meld: Meld, played: Counter[Tile], leave_out: JokerKind | None = None) -> int:
    """How many tiles of this set can have come from the rack (read in the player's favour)."""
    counts = Counter(meld)
    if leave_out is not None:
        counts[Tile.of_joker(leave_out)] -= 1
    return sum(min(count, played[tile]) for tile, count in counts.items() if count > 0)


def follow_jokers(before: Table, after: Table, *, preset: Preset, played: Counter[Tile],
                  new: frozenset[int]) -> list[FreedJoker]:
    """Every joker freed this turn, with the set after the turn it is read to have gone to."""
    old_places = joker_places(before, as_laid=True, preset=preset)
    new_places = joker_places(after, as_laid=False, preset=preset)
    kept = _kept_places(old_places, new_places, before, after)
    freed = [old for index, old in enumerate(old_places) if kept[index] is None]
    open_places = [place for index, place in enumerate(new_places) if index not in kept]
    return _place_freed(freed, open_places, after, played=played, new=new)


def _kept_places(old_places: Sequence[JokerPlace], new_places: Sequence[JokerPlace],
                 before: Table, after: Table) -> list[int | None]:
    """For each old joker place, the new place that keeps it (None: the joker was freed):
    the pairing that keeps the most jokers doing their job, then with the most numbered
    tiles in common between their sets. Searched whole, not one old joker at a time: the
    same sets retyped in another order (J K5 K6 beside K5 K6 K7 J) gave the first joker the
    other set's place, which it could take too, and the second joker, which only that place
    keeps, was counted freed and not reused."""
    choices = []
    for old in old_places:
        old_numbered = numbered(before[old.set_index])
        fitting = sorted(((sum((old_numbered & numbered(after[place.set_index])).values()), index)
                          for index, place in enumerate(new_places)
                          if _still_does_its_job(old, place, before, after)),
                         key=lambda fit: (-fit[0], fit[1]))
        choices.append([*fitting, (0, None)])
    best: tuple[tuple[int, int], list[int | None]] = ((-1, -1), [])

    def search(position: int, taken: list[int | None], kept: int, shared: int) -> None:
        nonlocal best
        if position == len(choices):
            if (kept, shared) > best[0]:
                best = ((kept, shared), list(taken))
            return
        for common, index in choices[position]:
            if index is None or index not in taken:
                taken.append(index)
                search(position + 1, taken, kept + (index is not None), shared + common)
                taken.pop()

    search(0, [], 0, 0)
    return best[1]


def _place_freed(freed: Sequence[JokerPlace], open_places: Sequence[JokerPlace], after: Table,
                 *, played: Counter[Tile], new: frozenset[int]) -> list[FreedJoker]:
    """The freed jokers of a kind take the open places of that kind best for the player: in a
    new set first, then with the most other tiles from the rack."""
    result: list[FreedJoker] = []
    for kind in JokerKind:
        freed_here = [place for place in freed if place.kind is kind]
        if not freed_here:
            continue
        targets = sorted(
            (place.set_index for place in open_places if place.kind is kind),
            key=lambda index: (index in new,
                               rack_tile_count(after[index], played, leave_out=kind)),
            reverse=True)
        for rank, place in enumerate(freed_here):
            result.append(FreedJoker(place, targets[rank] if rank < len(targets) else None))
    return result


def descendant(old: Meld, after: Table) -> int | None:
    """The set after the turn holding the most of an old set's numbered tiles (None: none)."""
    old_numbered = numbered(old)
    best = max(((sum((old_numbered & numbered(meld)).values()), -index)
                for index, meld in enumerate(after)), default=(0, 0))
    return -best[1] if best[0] > 0 else None


def option_tiles(options: frozenset[tuple[Slot, ...]] | None) -> frozenset[Tile]:
    """The numbered tiles a joker could stand for (a double joker's pair counts each tile)."""
    if options is None:
        return frozenset()
    return frozenset(Tile.numbered(colour, number) for option in options
                     for colour, number in option if colour is not None)
