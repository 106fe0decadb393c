"""The rack reader on the 24 real rack photos as a phone at a real table takes them.

``python -m benchmarks.vision --real-racks-stress`` (or ``python -m benchmarks.rack_stress``
alone): each of the labelled rack photos (``benchmarks.vision.REAL_RACK_PHOTOS``, the first
copy of each) is changed by each transformation below and read through ``read_rack`` from a
JPEG (quality 95 unless the transformation is the JPEG quality). The changes are
``benchmarks.phone_changes``'s (shared with the table photos' stress set,
``benchmarks.table_stress``). Nothing is random but the direction of a motion blur, drawn from
the photo's number (fixed seeds): every run reads the same bytes.

Per transformation: racks found, read exactly (the tiles as a multiset), true tiles read
right, tiles read wrong and not flagged ``low_confidence`` (a tile counted on the rack that
is not there, not marked unsure: the user trusts it), racks whose value is right, and racks
whose value is wrong with no tile flagged (a confident wrong rack value, the worst a score
keeper can show), beside the racks whose right value is shown sure. A crop that cuts an end tile through its middle leaves that tile neither
required nor counted wrong when read as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks.phone_changes import (
    JPEG_QUALITY,
    Change,
    as_taken,
    cut_through_end_tile,
    exposure,
    focus_blur,
    jpeg,
    keystone,
    motion_blur,
    print_results,
    quarter_turns,
    rotated,
    scaled,
    tally_changes,
    white_balance,
)
from companion.core.presets import PRESSMAN
from companion.core.scoring import rack_value
from companion.core.tiles import Tile
from companion.vision import PhotoError, read_rack


@dataclass(frozen=True)
class LabelledRack:
    number: int  # the photo's number, seeding what is random about its copies
    image: np.ndarray  # BGR, as stored
    tiles: tuple[Tile, ...]
    outlines: tuple[np.ndarray, ...]  # each (N, 2) float32 in the image's pixels


Transform = Callable[[LabelledRack], tuple[np.ndarray, Counter[Tile], Counter[Tile], int]]


def _changed(change: Change) -> Transform:
    """A phone's change (benchmarks.phone_changes) of the rack photo: the tiles whole in
    the frame are required, those it cuts through neither required nor counted wrong when
    read as they are."""
    def transform(rack: LabelledRack):
        changed = change(rack.image, rack.outlines, rack.number)
        whole: Counter[Tile] = Counter()
        crossed: Counter[Tile] = Counter()
        for index, tile in enumerate(rack.tiles):
            if index in changed.cut:
                crossed[tile] += 1
            elif index not in changed.gone:
                whole[tile] += 1
        return changed.image, whole, crossed, changed.quality
    return transform


def _filling(rack: LabelledRack):
    """Cropped to the labelled tiles' extent, a twentieth of the frame around them and a
    tile's height under them (the ledge), and brought back to the photo's width: the rack
    filling the frame."""
    points = np.concatenate(rack.outlines)
    height, width = rack.image.shape[:2]
    margin = width / 20
    tile_height = float(np.median([np.ptp(outline[:, 1]) for outline in rack.outlines]))
    x0, y0 = np.maximum(points.min(axis=0) - margin, 0).astype(int)
    x1, y1 = np.minimum(points.max(axis=0) + (margin, tile_height), (width, height)).astype(int)
    crop = rack.image[y0:y1, x0:x1]
    factor = width / crop.shape[1]
    return (cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC),
            Counter(rack.tiles), Counter(), JPEG_QUALITY)


STRESS: dict[str, Transform] = {
    "as taken": _changed(as_taken),
    "turned 10°": _changed(rotated(10)),
    "turned -20°": _changed(rotated(-20)),
    "turned 30°": _changed(rotated(30)),
    "turned -40°": _changed(rotated(-40)),
    "quarter turn clockwise": _changed(quarter_turns(cv2.ROTATE_90_CLOCKWISE)),
    "quarter turn anticlockwise": _changed(quarter_turns(cv2.ROTATE_90_COUNTERCLOCKWISE)),
    "turned 140°": _changed(rotated(140)),
    "turned -160°": _changed(rotated(-160)),
    "turned 170°": _changed(rotated(170)),
    "half turn (upside down)": _changed(quarter_turns(cv2.ROTATE_180)),
    "from higher (top 25% narrower)": _changed(keystone(0.25, 0, 0, 0)),
    "from lower (bottom 20% narrower)": _changed(keystone(0, 0.2, 0, 0)),
    "from the left (right 25% shorter)": _changed(keystone(0, 0, 0, 0.25)),
    "from the right (left 25% shorter)": _changed(keystone(0, 0, 0.25, 0)),
    "further off (40% of the frame)": _changed(scaled(0.4)),
    "further off (65% of the frame)": _changed(scaled(0.65)),
    "close (tiles fill the frame)": _filling,
    "motion blur 9 px": _changed(motion_blur(9)),
    "motion blur 15 px": _changed(motion_blur(15)),
    "out of focus (sigma 2)": _changed(focus_blur(2.0)),
    "JPEG quality 40": _changed(jpeg(40)),
    "JPEG quality 60": _changed(jpeg(60)),
    "under-exposed 1.5 stops": _changed(exposure(-1.5)),
    "over-exposed 1 stop": _changed(exposure(1.0)),
    "warm light": _changed(white_balance(1.2, 0.75)),
    "cold light": _changed(white_balance(0.8, 1.2)),
    "left end tile cut": _changed(cut_through_end_tile("left")),
    "right end tile cut": _changed(cut_through_end_tile("right")),
}


def labelled_racks() -> list[LabelledRack]:
    """The 24 labelled rack photos (the first copy of each, as ``--real-racks`` reads)."""
    from benchmarks.vision import REAL_RACK_PHOTOS, _class_names, _tile_of
    from training.dataset import DATA_ROOT

    names = _class_names()
    first_copies: dict[str, Path] = {}
    for path in sorted(DATA_ROOT.glob("*/images/*.jpg")):
        first_copies.setdefault(path.name.split("_jpeg")[0] + "_", path)
    racks = []
    for key in REAL_RACK_PHOTOS:
        path = first_copies[key]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        height, width = image.shape[:2]
        lines = [line.split() for line in (path.parent.parent / "labels" / f"{path.stem}.txt")
                 .read_text().splitlines() if line.strip()]
        racks.append(LabelledRack(
            int(key.split("-")[1].rstrip("_")) + (1000 if key.startswith("rummy4") else 0),
            image, tuple(_tile_of(names[int(line[0])]) for line in lines),
            tuple(np.array([float(v) for v in line[1:]], np.float32).reshape(-1, 2)
                  * np.float32([width, height]) for line in lines)))
    return racks


def tally_read_rack(image: np.ndarray, truth: Counter[Tile], crossed: Counter[Tile],
                    quality: int, tally: Counter[str]) -> str:
    """Read one copy and count it; returns a short note of what went wrong ('' if exact)."""
    tally["racks"] += 1
    tally["tiles"] += sum(truth.values())
    data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
    try:
        reading = read_rack(data)
    except PhotoError as error:
        tally["refused"] += 1
        return f"refused ({error.code})"
    read = Counter(reading.rack)
    tally["found"] += 1
    # a tile cut through counts only for a reading beyond the whole tiles: read as one of them
    # (an O1 whole and an O1 cut, one O1 read) it leaves the whole one read, not missing
    counted = truth + ((read - truth) & crossed)
    extra = read - counted
    missing = counted - read
    tally["exact"] += not extra and not missing
    tally["right"] += sum((truth & read).values())
    flagged = Counter(tile.tile for tile in reading.tiles if tile.low_confidence)
    unflagged_wrong = sum(max(0, count - flagged[tile]) for tile, count in extra.items())
    tally["wrong unflagged"] += unflagged_wrong
    value_right = reading.value == rack_value(tuple(counted.elements()),
                                               joker_penalty=PRESSMAN.joker_penalty)
    tally["value right"] += value_right
    sure = not any(tile.low_confidence for tile in reading.tiles)
    tally["wrong value sure"] += not value_right and sure
    tally["right value sure"] += value_right and sure
    if not extra and not missing:
        return ""
    return (f"missing {' '.join(map(str, missing.elements()))} "
            f"extra {' '.join(map(str, extra.elements()))}"
            f"{' UNFLAGGED' if unflagged_wrong else ''}"
            f"{' SURE-WRONG-VALUE' if not value_right and sure else ''}")


def stress(only: set[str] | None = None, *, verbose: bool = False
           ) -> dict[str, dict[str, str | int]]:
    """Every transformation in ``STRESS`` (or those named in ``only``) over the 24 racks."""
    return tally_changes(STRESS, labelled_racks(),
                         lambda rack, transform, tally: tally_read_rack(*transform(rack), tally),
                         summarised, lambda rack: rack.number, only=only, verbose=verbose)


def summarised(tally: Counter[str]) -> dict[str, str | int]:
    racks = tally["racks"]
    return {"found": f"{tally['found']}/{racks}", "exact": f"{tally['exact']}/{racks}",
            "tiles right": f"{tally['right']}/{tally['tiles']}",
            "wrong not flagged": tally["wrong unflagged"],
            "value right": f"{tally['value right']}/{racks}",
            "right value shown sure": tally["right value sure"],
            "wrong value shown sure": tally["wrong value sure"]}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", help="transformation names (see STRESS)")
    parser.add_argument("--verbose", action="store_true", help="each wrong reading")
    arguments = parser.parse_args()
    cv2.setNumThreads(2)
    print_results(stress(set(arguments.only or ()), verbose=arguments.verbose),
                  verbose=arguments.verbose)
