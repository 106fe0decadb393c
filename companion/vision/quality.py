"""Telling a photo too dark or too blurred to read apart from a table the reader misread.

A poor reading of a poor photo helps nobody: when most tiles come back unsure and the
reading as a whole is poor, the crops say why — too little light, or a shaken or unfocused
phone — and the user is asked to take the photo again, with the one thing to change. A photo
that is only dim is brightened first: the networks learned from photos exposed as a phone
exposes them, and a dim one (a dark room, a phone that metered on a lamp) they read as
nothing at all.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.errors import PhotoError

TOO_DARK = ("the photo is too dark to read: more light, please (a lamp over the table, or "
            "the flash), and take it again")
TOO_BLURRED = ("the photo is too blurred to read: hold still (elbows on the table), let the "
               "phone focus on the tiles, and take it again")
TILES_TOO_SMALL = ("the tiles are too small in this photo to read (about {width} pixels across): "
                   "come closer, so the tiles fill the frame, or send the photo as the phone "
                   "took it, not a smaller copy")
NO_COLOUR = ("the photo is in black and white: the tiles' colours cannot be told apart; take it "
             "again in colour (no black-and-white filter)")

SHRUNK = 256  # the photo's long side for judging its exposure and colour
# Exposure, by the photo's bright end: the brightest grey of the photo shrunk to SHRUNK px
# (a tile's face; a percentile of the whole photo would miss two small tiles on a black
# table, under 1% of its pixels): every labelled real photo with tiles has it at 213 or more,
# the renders at 203 or more. A photo under DIM is scaled so it reaches BRIGHTENED; one
# under TOO_DARK_TO_STRETCH would need a gain of 9 or more, which brings up more sensor noise
# than picture, and is refused at once.
DIM = 150
BRIGHTENED = 220
TOO_DARK_TO_STRETCH = 24
DARK_TILES = 70  # median brightness of the tile crops, as taken, when the tiles are in the dark
# Sharpness of a crop: the strongest Laplacian (99th percentile) over the crop's contrast.
# Measured on renders: ≈1.2–1.5 sharp, 0.5 at a blur of σ 1.5 px, 0.2–0.3 at σ 5–8, where
# most tiles come back unsure.
BLURRED = 0.3
UNSURE_SHARE = 0.5  # only a photo whose tiles are mostly unsure is refused...
# ...and only when the reading is poor as a whole: the reader's median confidence under this.
# Real photos softened a little (the blurred copies of rummy3-22 and -24 in train/, tiles
# about 35 px wide) have most tiles unsure at 0.77–0.91 but every tile read right; renders
# blurred until most tiles read wrong have it at 0.14–0.77.
POOR_READING = 0.8
# A poor reading of tiles narrower than this (the found tiles' median short side, in the
# photo's pixels) is put down to their size, not to blur: their crops are blown up twice or
# more, and a blown-up crop is never sharp. `valid/` shrunk to 640 px photos of 12–18 px tiles
# (benchmarks/scaled_set.py; measured 13–21 px wide) read 2–80% right when poor; the crops of
# those still sharp enough to pass for unblurred (0.32–0.38) were read anyway, 4–52% right.
# At 24 px (measured 25–30) one photo in fourteen read poorly, a tilted rack of 8 tiles.
SMALL_TILES = 24


# Colour: the 99.9th percentile of the chroma (CIELab, distance from grey) of the photo shrunk
# to SHRUNK px. A black-and-white photo has 0; every labelled real photo with tiles 20 or more,
# the renders 12.6 or more, even the real photos of an empty table 3.6 or more. Read anyway,
# a black-and-white photo's red, blue and orange tiles come out black, most of them surely
# (70 of 125 tiles of ten renders, at up to 0.98). A black-and-white JPEG measures exactly 0
# (the fixture photos saved grey at quality 50 and 95), so the line is drawn far under the
# least colourful real photo: a photo of black tiles only, in neutral light, must still be read.
COLOURLESS = 1.5


def check_colour(image: np.ndarray) -> None:
    """Refuse a black-and-white photo: its tiles' colours cannot be read."""
    lab = cv2.cvtColor(shrunk(image), cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    if float(np.percentile(chroma, 99.9)) < COLOURLESS:
        raise PhotoError(NO_COLOUR, "black_and_white")


def exposure_gain(image: np.ndarray) -> float:
    """How much to brighten a dim photo (1.0: as it is); PhotoError when it is too dark to
    find anything in even brightened."""
    bright_end = float(cv2.cvtColor(shrunk(image), cv2.COLOR_BGR2GRAY).max())
    if bright_end < TOO_DARK_TO_STRETCH:
        raise PhotoError(TOO_DARK, "too_dark")
    return BRIGHTENED / bright_end if bright_end < DIM else 1.0


def shrunk(image: np.ndarray) -> np.ndarray:
    """The photo at SHRUNK pixels on its long side (averaged: one hot pixel does not count);
    a photo that small already is returned as it is, so the checks may be given it shrunk."""
    height, width = image.shape[:2]
    scale = SHRUNK / max(height, width)
    if scale >= 1:
        return image
    return cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                      interpolation=cv2.INTER_AREA)


def brightened(image: np.ndarray, gain: float) -> np.ndarray:
    """The photo scaled by ``gain`` (clipped to 255), or the photo itself at a gain of 1."""
    return image if gain == 1.0 else cv2.convertScaleAbs(image, alpha=gain)


def poor_reading(confidence: np.ndarray, threshold: float) -> bool:
    """Most tiles read unsure (under ``threshold``) and the reading poor as a whole."""
    return (float(np.mean(confidence < threshold)) > UNSURE_SHARE
            and float(np.median(confidence)) < POOR_READING)


def check_readable(crops: np.ndarray, confidence: np.ndarray, *, threshold: float,
                   gain: float = 1.0, tile_width: float | None = None) -> None:
    """When most tiles were read unsure and the reading is poor, say whether darkness or blur
    is to blame. ``crops`` were cut from the photo brightened by ``gain``. Tiles under
    SMALL_TILES wide (``tile_width``: their median short side in the photo's pixels) are not
    blamed on blur: their crops are blown up, never sharp (see ``check_tile_size``)."""
    if len(crops) == 0 or not poor_reading(confidence, threshold):
        return
    greys = [cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32) for crop in crops]
    if float(np.median([np.median(grey) for grey in greys])) / gain < DARK_TILES:
        raise PhotoError(TOO_DARK, "too_dark")
    if tile_width is not None and tile_width < SMALL_TILES:
        return
    if float(np.median([sharpness(grey) for grey in greys])) < BLURRED:
        raise PhotoError(TOO_BLURRED, "too_blurred")


def check_tile_size(confidence: np.ndarray, widths: np.ndarray, *, threshold: float) -> None:
    """Refuse a reading that is poor (``poor_reading``) of tiles under SMALL_TILES wide
    (``widths``: the tiles' short sides in the photo's pixels): they are too small to read.
    Judged on the finished reading, after the second outlines and the boxes read as no tile
    (a shadowed empty table's boxes, read at 0.1–0.4, are dropped as no tile before this)."""
    if len(confidence) == 0 or not poor_reading(confidence, threshold):
        return
    width = float(np.median(widths))
    if width < SMALL_TILES:
        raise PhotoError(TILES_TOO_SMALL.format(width=round(width)), "too_small")


def sharpness(grey: np.ndarray) -> float:
    laplacian = cv2.Laplacian(grey, cv2.CV_32F)
    contrast = float(np.percentile(grey, 98) - np.percentile(grey, 2)) + 1.0
    return float(np.percentile(np.abs(laplacian), 99)) / contrast
