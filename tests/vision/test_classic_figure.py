"""A classic 6 or 9 read by its figure as its rack or its set stands (``figures.read_by_figure``).

The classic reader reads a tile at any turn, and a classic 6 turned round is drawn as a 9:
without the logo under the number an upright 6 and a 9 turned round look alike. On a rack the
tiles' up is known from the tiles whose number reads one way up only, so the 6 or 9 is cut
that way up and its figure read (``networks.figure_nine``); on a table, from the tiles of its
set. The photo is a composed rack of real classic crops (tests/fixtures/composed/README.md),
kept so a clean clone can read it.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.core.tiles import Colour, Tile
from companion.vision import figures, networks, pipeline, rack, read_photo, read_rack
from companion.vision.crops import crop_tile
from companion.vision.reading import RackReading, ReadTile
from tests.fixtures import COMPOSED

CLASSIC_RACK = COMPOSED / "classic-2900-4.jpg"
# the numbers on it, 0 for a joker (benchmarks.rack_composites' classic rack 4 of seed 2900)
CLASSIC_NUMBERS = [4, 11, 13, 5, 3, 3, 0, 13, 6, 9, 12, 3, 7, 8, 4, 9, 5, 8, 13, 0, 4, 5]


def numbers_on(reading: RackReading) -> Counter[int]:
    return Counter(0 if tile.is_joker else tile.number for tile in reading.rack)


def upside_down(data: bytes) -> bytes:
    image = cv2.rotate(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR),
                       cv2.ROTATE_180)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.parametrize("turned", [False, True], ids=["upright", "upside down"])
def test_a_classic_6_read_as_a_9_turned_round_is_read_by_its_figure(
        turned: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rack's upright 6 is read by the classic reader as a 9 turned round; its figure,
    cut as the rack's tiles stand, is a 6. Upside down, the rows are read with the photo's up,
    so the tiles, not the rack's up, say which end is up."""
    data = CLASSIC_RACK.read_bytes()
    if turned:
        data = upside_down(data)
    reading = read_rack(data)
    assert numbers_on(reading) == Counter(CLASSIC_NUMBERS)
    read_by_figure = [tile for tile in reading.tiles if tile.tile.number == 6
                      and tile.alternatives[0] == Tile.numbered(tile.tile.colour, 9)]
    assert read_by_figure and all(tile.low_confidence for tile in read_by_figure)
    monkeypatch.setattr(rack, "read_by_figure", lambda *_: {})
    assert Counter(CLASSIC_NUMBERS) - numbers_on(read_rack(data)) == Counter({6: 1})


def test_a_current_design_rack_never_meets_the_figure_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The figure reader reads the classic pass's 6s and 9s: a rack read with the shipped
    reader is not shown to it."""
    def not_called(_crops: np.ndarray) -> np.ndarray:
        raise AssertionError("the figure reader read a current-design tile")

    monkeypatch.setattr(figures, "figure_nine", not_called)
    reading = read_rack((COMPOSED / "one-end-nearer-2900-0.jpg").read_bytes())
    assert len(reading.rack) == 12  # its far end's R11 is missed (tests/vision/test_rack_sure.py)


@pytest.mark.parametrize("turned", [False, True], ids=["upright", "upside down"])
def test_a_classic_6_on_the_table_is_read_by_its_figure_as_its_set_lies(
        turned: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same photo read as a table (``read_photo``): each tier is a set, laid one way up,
    so its other tiles say which end of its 6 is up. Without the figure read the 6 is a 9
    (on the classic spreads read as tables, 70 of 90 sixes right without it, 87 with it)."""
    data = CLASSIC_RACK.read_bytes()
    if turned:
        data = upside_down(data)

    def numbers_read() -> Counter[int]:
        return Counter(0 if tile.tile.is_joker else tile.tile.number
                       for tile in read_photo(data).tiles)

    assert numbers_read() == Counter(CLASSIC_NUMBERS)
    monkeypatch.setattr(pipeline, "read_in_sets_by_figure", lambda *_: {})
    read = numbers_read()
    assert (Counter(CLASSIC_NUMBERS) - read, read - Counter(CLASSIC_NUMBERS)) == (
        Counter({6: 1}), Counter({9: 1}))


def test_a_current_design_table_never_meets_the_figure_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def not_called(_crops: np.ndarray) -> np.ndarray:
        raise AssertionError("the figure reader read a current-design tile")

    monkeypatch.setattr(figures, "figure_nine", not_called)
    assert read_photo((COMPOSED / "one-end-nearer-2900-0.jpg").read_bytes()).tiles


def test_the_figure_reader_reads_the_rack_s_6_and_9_both_ways_up() -> None:
    """Cut from the composed rack as the rack stands, its 6 reads as the figure 6 and its 9 as
    the figure 9; turned round, each reads as the other."""
    data = CLASSIC_RACK.read_bytes()
    reading = read_rack(data)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    sixes_and_nines = [tile for tile in reading.tiles if tile.tile.number in (6, 9)]
    crops = np.stack([crop_tile(image, np.array(tile.outline, np.float64))
                      for tile in sixes_and_nines])
    nines = np.array([tile.tile.number == 9 for tile in sixes_and_nines])
    assert ((networks.figure_nine(crops) >= 0.5) == nines).all()
    turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
    assert ((networks.figure_nine(turned) >= 0.5) == ~nines).all()


def test_a_6_read_by_its_figure_is_shown_as_sure_as_both_readers_are() -> None:
    """The percentage a player is shown for a 9 read as a 6 by its figure is the reader's
    for the tile times the figure reader's for the figure, never the reader's for the 9."""
    read_as_nine = ReadTile(tile=Tile.numbered(Colour.BLUE, 9), confidence=0.85,
                            outline=((0, 0), (48, 0), (48, 64), (0, 64)), set_index=0,
                            low_confidence=True, alternatives=(Tile.numbered(Colour.BLUE, 6),))
    six = figures.as_the_other(read_as_nine, 0.96)
    assert six.tile == Tile.numbered(Colour.BLUE, 6)
    assert six.confidence == pytest.approx(0.85 * 0.96)
    assert six.low_confidence and six.alternatives == (Tile.numbered(Colour.BLUE, 9),)
