"""The detector's smaller first look (issue 10: speed): kept for a photo of large tiles, and a
photo of small tiles looked at exactly as without it."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.detect import FIRST_LOOK, WORK_SIZE, detect
from tests.vision.conftest import labelled_photo


def photo_and_outlines(name_start: str) -> tuple[np.ndarray, list[np.ndarray]]:
    data, labels = labelled_photo(name_start)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), \
        [outline for _, outline in labels]


def test_a_photo_of_large_tiles_is_found_at_the_smaller_first_look() -> None:
    # rummy3-10: six tiles about 54 px wide at WORK_SIZE
    image, outlines = photo_and_outlines("rummy3-10_")
    detection = detect(image, first_look=FIRST_LOOK)
    assert detection.look == FIRST_LOOK < WORK_SIZE
    assert len(detection.found) == len(outlines)
    for outline in outlines:
        assert sum(cv2.pointPolygonTest(outline, tile.centre, False) >= 0
                   for tile in detection.found) == 1


def test_a_photo_of_small_tiles_is_looked_at_as_without_the_first_look() -> None:
    # rummy-36: 54 tiles about 26 px wide at WORK_SIZE, looked at a second time, larger
    image, _ = photo_and_outlines("rummy-36_")
    with_first_look, without = detect(image, first_look=FIRST_LOOK), detect(image)
    assert with_first_look.look == without.look > WORK_SIZE
    assert [tile.rect for tile in with_first_look.found] == [tile.rect for tile in without.found]
