"""The tile classes the reader's network tells apart, in the order of its output."""

from __future__ import annotations

from companion.core.tiles import Colour, Tile

# The order of the identity network's 53 outputs: black, red, blue, orange 1–13, then the joker.
# Training (training/train_reader.py) and reading both take it from here.
TILE_CLASSES: tuple[Tile, ...] = tuple(
    Tile.numbered(colour, number)
    for colour in (Colour.BLACK, Colour.RED, Colour.BLUE, Colour.ORANGE)
    for number in range(1, 14)
) + (Tile.of_joker(),)

JOKER_CLASS = len(TILE_CLASSES) - 1  # the reader's joker output
# The reader's output after the 53 tiles: "no tile" (bare table, a rack's ledge, glare, a
# hand), learned from boxes cut where no tile lies (training/negatives.py). A reader trained
# before it has no such output.
NO_TILE_CLASS = len(TILE_CLASSES)

CLASS_INDEX: dict[str, int] = {str(tile): index for index, tile in enumerate(TILE_CLASSES)}

_DATASET_COLOURS = {"black": "K", "red": "R", "blue": "B", "orange": "O"}


def tile_from_dataset_name(name: str) -> Tile:
    """Read a class name of the labelled photos ("red_7", "joker") as a tile."""
    if name == "joker":
        return Tile.of_joker()
    colour, number = name.split("_")
    return Tile.parse(f"{_DATASET_COLOURS[colour]}{number}")


_DATASET_COLOUR_NAMES = {letter: name for name, letter in _DATASET_COLOURS.items()}
# The labelled photos' class names, in their data.yaml order (sorted as strings).
DATASET_NAMES: tuple[str, ...] = tuple(sorted(
    [f"{name}_{number}" for name in _DATASET_COLOURS for number in range(1, 14)] + ["joker"]))


def dataset_name(tile: Tile) -> str | None:
    """The labelled photos' class name of a tile ("red_7", "joker"); None for a tile the
    reader does not learn (Twist's double, mirror and colour-change jokers)."""
    if tile.is_joker:
        return "joker" if str(tile) == "J" else None
    colour_letter = str(tile)[0]
    return f"{_DATASET_COLOUR_NAMES[colour_letter]}_{tile.number}"
