"""Real crops of the classic tile design, as samples for the reader.

The crops are "Rummikub tile crops by christophrus, from github.com/christophrus/rummikub-counter
(commit 8e7f85b9ad7b056c557af35a5b03f229c7cad0d2), MIT licence as stated in that repository's
README", kept in ``../shared/vision-data/classic-tiles-mit`` (its README says how they were
checked against the project's held-out photos). The source labels them by number only (1–13,
joker); their colours are ours, in ``classic_colours.csv`` (``ClassicCrop.colour``). The
shipped reader's reading of the colour, which taught the classic reader until 2026-12-03,
reads a classic orange as red in cold light (the tiles bluish white, the orange ink dark and
brownish: 18 of the 378 numbered validation crops) and now and then as black or blue. The
labels were made from the classic reader's reading, then looked at: every validation crop,
every training crop of the cold-lit and dark photos (crop numbers 93–600 and 820–935), and
in the warm-lit rest each crop whose ink hue, measured against the tile's white, disagreed
with the reader (74 crops); 56 readings were corrected.

The validation split (``VALIDATION_RUNS``) is two runs of neighbouring crop numbers: the
source numbers its crops in photo order, and neighbours are the same tiles seen in one photo
or a burst of near-identical ones. Crops within ``BUFFER`` numbers of a run are used for
neither side. The sideways and upside-down crops the README lists are left out (the reader
is taught which end is up by turning the upright ones).
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.core.tiles import Tile
from companion.vision.classes import CLASS_INDEX, JOKER_CLASS, TILE_CLASSES
from companion.vision.crops import CROP_HEIGHT, CROP_WIDTH


def _classic_root() -> Path:
    if "COMPANION_CLASSIC_DATA" in os.environ:
        return Path(os.environ["COMPANION_CLASSIC_DATA"])
    checkout = Path(__file__).resolve().parents[1]
    candidates = [folder / "shared" / "vision-data" / "classic-tiles-mit" for folder in checkout.parents]
    return next((path for path in candidates if path.is_dir()), candidates[0])


CLASSIC_ROOT = _classic_root()
# crop numbers [start, stop) held out for validation: every label appears in both
VALIDATION_RUNS = ((600, 800), (2100, 2300))
BUFFER = 25  # crop numbers either side of a validation run used for neither side
# sideways or upside-down crops (the README's "rotated crops"): left out
TURNED_RUNS = ((1, 93), (319, 438), (1455, 1475), (2690, 2749))
COLOURS = ("K", "R", "B", "O")  # the order of the reader's colour blocks (classes.TILE_CLASSES)
COLOUR_LABELS = Path(__file__).with_name("classic_colours.csv")  # "<number>/tile_NNNN.png",colour


@dataclass(frozen=True)
class ClassicCrop:
    path: Path
    number: int  # 1–13, 0 for the joker
    crop_number: int
    colour: str = ""  # one of COLOURS ("" for the joker)

    @property
    def classes(self) -> list[int]:
        """The reader's classes this crop may be (the four colours of its number, or the joker)."""
        if self.number == 0:
            return [JOKER_CLASS]
        return [CLASS_INDEX[f"{colour}{self.number}"] for colour in COLOURS]

    @property
    def tile_class(self) -> int:
        """The reader's class of this crop's tile, its number and colour."""
        return JOKER_CLASS if self.number == 0 else CLASS_INDEX[f"{self.colour}{self.number}"]

    @property
    def tile(self) -> Tile:
        """This crop's tile, its number and colour."""
        return TILE_CLASSES[self.tile_class]


def colour_labels(path: Path = COLOUR_LABELS) -> dict[str, str]:
    """The crops' colours by "<number folder>/<file name>"."""
    with path.open(newline="") as rows:
        return {row["crop"]: row["colour"] for row in csv.DictReader(rows)}


def _in(runs: tuple[tuple[int, int], ...], number: int, grow: int = 0) -> bool:
    return any(start - grow <= number < stop + grow for start, stop in runs)


def classic_crops(root: Path = CLASSIC_ROOT) -> tuple[list[ClassicCrop], list[ClassicCrop]]:
    """The upright crops, split into (training, validation) by runs of crop numbers."""
    train, valid = [], []
    colours = colour_labels()
    for folder in sorted(root.iterdir()):
        if not folder.is_dir():
            continue
        number = 0 if folder.name == "joker" else int(folder.name)
        for path in sorted(folder.glob("*.png")):
            crop_number = int(re.findall(r"\d+", path.name)[0])
            held_out = _in(VALIDATION_RUNS, crop_number)
            if _in(TURNED_RUNS, crop_number) or (
                    not held_out and _in(VALIDATION_RUNS, crop_number, BUFFER)):
                continue  # turned, or a neighbour of the validation split: used for neither
            colour = "" if number == 0 else colours[f"{folder.name}/{path.name}"]
            (valid if held_out else train).append(ClassicCrop(path, number, crop_number, colour))
    return train, valid


def as_crop(image: np.ndarray) -> np.ndarray:
    """A whole classic crop as the reader's 48 × 64 input (its box is the tile's, give or take)."""
    return cv2.resize(image, (CROP_WIDTH, CROP_HEIGHT), interpolation=cv2.INTER_AREA)


def jittered_crop(image: np.ndarray, rng: np.random.Generator, *,
                  tightest: float = 0.92, shift: float = 0.03, turn: float = 3.0) -> np.ndarray:
    """The crop framed as a detector might frame it: a little more or less of it (down to
    ``tightest`` of it), shifted (``shift``: σ in shares of its sides), turned (``turn``: σ
    in degrees)."""
    height, width = image.shape[:2]
    scale = rng.uniform(tightest, 1.15)
    angle = rng.normal(0, turn)
    centre = (width / 2 + rng.normal(0, shift) * width, height / 2 + rng.normal(0, shift) * height)
    matrix = cv2.getRotationMatrix2D(centre, angle, 1.0)
    # then map the box of the crop scaled by ``scale`` about its centre onto 48 × 64
    box_w, box_h = width * scale, height * scale
    to_crop = np.array([[CROP_WIDTH / box_w, 0, CROP_WIDTH / 2 - centre[0] * CROP_WIDTH / box_w],
                        [0, CROP_HEIGHT / box_h, CROP_HEIGHT / 2 - centre[1] * CROP_HEIGHT / box_h],
                        [0, 0, 1]])
    whole = to_crop @ np.vstack([matrix, [0, 0, 1]])
    small = image
    factor = 1.0
    if width > 2.5 * CROP_WIDTH:  # shrink first, as crops.crop_tile does, so strokes survive
        factor = CROP_WIDTH * 1.5 / width
        small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        whole = whole @ np.diag([1 / factor, 1 / factor, 1])
    return cv2.warpAffine(small, whole[:2], (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
