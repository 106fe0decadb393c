"""The rack reader on the 24 real rack photos as a phone at a real table takes them.

``python -m benchmarks.vision --real-racks-stress`` (or ``python -m benchmarks.rack_stress``
alone): each of the labelled rack photos (``benchmarks.vision.REAL_RACK_PHOTOS``, the first
copy of each) is changed by each transformation below and read through ``read_rack`` from a
JPEG (quality 95 unless the transformation is the JPEG quality). Nothing is random but the
direction of a motion blur, drawn from the photo's number (fixed seeds): every run reads the
same bytes.

Per transformation: racks found, read exactly (the tiles as a multiset), true tiles read
right, tiles read wrong and not flagged ``low_confidence`` (a tile counted on the rack that
is not there, not marked unsure: the user trusts it), racks whose value is right, and racks
whose value is wrong with no tile flagged (a confident wrong rack value, the worst a score
keeper can show). A crop that cuts an end tile through its middle leaves that tile neither
required nor counted wrong when read as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.core.presets import PRESSMAN
from companion.core.scoring import rack_value
from companion.core.tiles import Tile
from companion.vision import PhotoError, read_rack

JPEG_QUALITY = 95


@dataclass(frozen=True)
class LabelledRack:
    number: int  # the photo's number, seeding what is random about its copies
    image: np.ndarray  # BGR, as stored
    tiles: tuple[Tile, ...]
    outlines: tuple[np.ndarray, ...]  # each (N, 2) float32 in the image's pixels


Transform = Callable[[LabelledRack], tuple[np.ndarray, Counter[Tile], Counter[Tile], int]]


def _same(rack: LabelledRack, image: np.ndarray, quality: int = JPEG_QUALITY
          ) -> tuple[np.ndarray, Counter[Tile], Counter[Tile], int]:
    return image, Counter(rack.tiles), Counter(), quality


def _warped(rack: LabelledRack, matrix: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The photo warped by a 3 × 3 ``matrix`` into ``size``, the table running on past the
    photo's edge (its border pixels repeated)."""
    return cv2.warpPerspective(rack.image, matrix, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _rotated(angle: float) -> Transform:
    """Turned ``angle`` degrees anticlockwise, the frame grown to hold the whole photo."""
    def transform(rack: LabelledRack):
        height, width = rack.image.shape[:2]
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
        cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
        new_w, new_h = int(width * cos + height * sin), int(width * sin + height * cos)
        matrix[0, 2] += new_w / 2 - width / 2
        matrix[1, 2] += new_h / 2 - height / 2
        return _same(rack, _warped(rack, np.vstack([matrix, [0, 0, 1]]), (new_w, new_h)))
    return transform


def _quarter_turns(turn: int) -> Transform:
    """Turned exactly (a ``cv2.ROTATE_*`` code): a phone held flat saving the photo sideways
    or upside down."""
    def transform(rack: LabelledRack):
        return _same(rack, cv2.rotate(rack.image, turn))
    return transform


def _keystone(top: float, bottom: float, left: float, right: float) -> Transform:
    """A perspective: each edge of the photo shrunk by its share (0.2: a fifth), about its
    middle — the top shrunk is the photo taken from higher, the bottom from lower, a side
    from that side's opposite."""
    def transform(rack: LabelledRack):
        height, width = rack.image.shape[:2]
        w, h = float(width), float(height)
        source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        target = np.float32([
            [w * (top / 2), h * (left / 2)], [w * (1 - top / 2), h * (right / 2)],
            [w * (1 - bottom / 2), h * (1 - right / 2)], [w * (bottom / 2), h * (1 - left / 2)]])
        return _same(rack, _warped(rack, cv2.getPerspectiveTransform(source, target),
                                   (width, height)))
    return transform


def _scaled(share: float) -> Transform:
    """The photo shrunk to ``share`` of the frame's width, in the middle of a frame of the
    same size (the rack further off)."""
    def transform(rack: LabelledRack):
        height, width = rack.image.shape[:2]
        matrix = np.float32([[share, 0, width * (1 - share) / 2],
                             [0, share, height * (1 - share) / 2], [0, 0, 1]])
        return _same(rack, _warped(rack, matrix, (width, height)))
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
    return _same(rack, cv2.resize(crop, None, fx=factor, fy=factor,
                                  interpolation=cv2.INTER_CUBIC))


def motion_blurred(image: np.ndarray, length: int, number: int) -> np.ndarray:
    """A shaken hand: ``image`` under a line blur ``length`` px long, in a direction drawn
    from the photo's ``number`` (a fixed seed)."""
    angle = np.random.default_rng([number, length, 7]).uniform(0, 180)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def _motion_blur(length: int) -> Transform:
    """A shaken hand: a line blur ``length`` px long in a direction drawn from the photo."""
    def transform(rack: LabelledRack):
        return _same(rack, motion_blurred(rack.image, length, rack.number))
    return transform


def _focus_blur(sigma: float) -> Transform:
    def transform(rack: LabelledRack):
        return _same(rack, cv2.GaussianBlur(rack.image, (0, 0), sigma))
    return transform


def _jpeg(quality: int) -> Transform:
    def transform(rack: LabelledRack):
        return _same(rack, rack.image, quality)
    return transform


def _exposure(stops: float) -> Transform:
    """Exposed ``stops`` over (or under) in linear light, clipped as a sensor clips."""
    def transform(rack: LabelledRack):
        linear = (rack.image.astype(np.float32) / 255) ** 2.2 * 2 ** stops
        return _same(rack, (np.clip(linear, 0, 1) ** (1 / 2.2) * 255).round().astype(np.uint8))
    return transform


def _white_balance(red: float, blue: float) -> Transform:
    """Red and blue channels scaled (a warm lamp: red up, blue down; shade: the other way)."""
    def transform(rack: LabelledRack):
        image = rack.image.astype(np.float32) * np.float32([blue, 1.0, red])
        return _same(rack, np.clip(image, 0, 255).round().astype(np.uint8))
    return transform


def _end_cut(side: str) -> Transform:
    """Cropped through the middle of the tile at the rack's ``side`` end (the frame's end of
    the rack); the tiles the cut crosses may be read or not."""
    def transform(rack: LabelledRack):
        middles = [float(outline[:, 0].mean()) for outline in rack.outlines]
        end = int(np.argmin(middles) if side == "left" else np.argmax(middles))
        cut = round(middles[end])
        image = rack.image[:, cut:] if side == "left" else rack.image[:, :cut]
        whole: Counter[Tile] = Counter()
        crossed: Counter[Tile] = Counter()
        for tile, outline in zip(rack.tiles, rack.outlines):
            inside = outline[:, 0] >= cut if side == "left" else outline[:, 0] <= cut
            if inside.all():
                whole[tile] += 1
            elif inside.any():
                crossed[tile] += 1
        return image, whole, crossed, JPEG_QUALITY
    return transform


STRESS: dict[str, Transform] = {
    "as taken": lambda rack: _same(rack, rack.image),
    "turned 10°": _rotated(10),
    "turned -20°": _rotated(-20),
    "turned 30°": _rotated(30),
    "turned -40°": _rotated(-40),
    "quarter turn clockwise": _quarter_turns(cv2.ROTATE_90_CLOCKWISE),
    "quarter turn anticlockwise": _quarter_turns(cv2.ROTATE_90_COUNTERCLOCKWISE),
    "turned 140°": _rotated(140),
    "turned -160°": _rotated(-160),
    "turned 170°": _rotated(170),
    "half turn (upside down)": _quarter_turns(cv2.ROTATE_180),
    "from higher (top 25% narrower)": _keystone(0.25, 0, 0, 0),
    "from lower (bottom 20% narrower)": _keystone(0, 0.2, 0, 0),
    "from the left (right 25% shorter)": _keystone(0, 0, 0, 0.25),
    "from the right (left 25% shorter)": _keystone(0, 0, 0.25, 0),
    "further off (40% of the frame)": _scaled(0.4),
    "further off (65% of the frame)": _scaled(0.65),
    "close (tiles fill the frame)": _filling,
    "motion blur 9 px": _motion_blur(9),
    "motion blur 15 px": _motion_blur(15),
    "out of focus (sigma 2)": _focus_blur(2.0),
    "JPEG quality 40": _jpeg(40),
    "JPEG quality 60": _jpeg(60),
    "under-exposed 1.5 stops": _exposure(-1.5),
    "over-exposed 1 stop": _exposure(1.0),
    "warm light": _white_balance(1.2, 0.75),
    "cold light": _white_balance(0.8, 1.2),
    "left end tile cut": _end_cut("left"),
    "right end tile cut": _end_cut("right"),
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


def _tally(image: np.ndarray, truth: Counter[Tile], crossed: Counter[Tile], quality: int,
           tally: Counter[str]) -> str:
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
    if not extra and not missing:
        return ""
    return (f"missing {' '.join(map(str, missing.elements()))} "
            f"extra {' '.join(map(str, extra.elements()))}"
            f"{' UNFLAGGED' if unflagged_wrong else ''}"
            f"{' SURE-WRONG-VALUE' if not value_right and sure else ''}")


def stress(only: set[str] | None = None, *, verbose: bool = False
           ) -> dict[str, dict[str, str | int]]:
    """Every transformation in ``STRESS`` (or those named in ``only``) over the 24 racks."""
    racks = labelled_racks()
    results: dict[str, dict[str, str | int]] = {}
    totals: Counter[str] = Counter()
    for name, transform in STRESS.items():
        if only and name not in only:
            continue
        tally: Counter[str] = Counter()
        for rack in racks:
            note = _tally(*transform(rack), tally)
            if verbose and note:
                print(f"    {name}: {rack.number}: {note}", flush=True)
        totals += tally
        results[name] = _summary(tally)
        if verbose:
            print(f"  {name:36s} " + ", ".join(f"{k} {v}" for k, v in results[name].items()),
                  flush=True)
    results["all"] = _summary(totals)
    return results


def _summary(tally: Counter[str]) -> dict[str, str | int]:
    racks = tally["racks"]
    return {"found": f"{tally['found']}/{racks}", "exact": f"{tally['exact']}/{racks}",
            "tiles right": f"{tally['right']}/{tally['tiles']}",
            "wrong not flagged": tally["wrong unflagged"],
            "value right": f"{tally['value right']}/{racks}",
            "wrong value shown sure": tally["wrong value sure"]}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", help="transformation names (see STRESS)")
    parser.add_argument("--verbose", action="store_true", help="each wrong reading")
    arguments = parser.parse_args()
    cv2.setNumThreads(2)
    results = stress(set(arguments.only or ()), verbose=arguments.verbose)
    for name, summary in results.items():
        if name == "all" or not arguments.verbose:
            print(f"  {name:36s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
