"""Telling a photo too dark or too blurred to read apart from a table the reader misread.

A poor reading of a poor photo helps nobody: when most tiles come back unsure, the crops say
why — too little light, or a shaken or unfocused phone — and the user is asked to take the
photo again, with the one thing to change.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.errors import PhotoError

TOO_DARK = ("the photo is too dark to read: more light, please (a lamp over the table, or "
            "the flash), and take it again")
TOO_BLURRED = ("the photo is too blurred to read: hold still (elbows on the table), let the "
               "phone focus on the tiles, and take it again")

DARK_PHOTO = 30  # median brightness (0–255) of a whole photo too dark to find anything in
DARK_TILES = 70  # median brightness of the tile crops when the tiles are read in the dark
# Sharpness of a crop: the strongest Laplacian (99th percentile) over the crop's contrast.
# Measured on renders: ≈1.2–1.5 sharp, 0.5 at a blur of σ 1.5 px, 0.2–0.3 at σ 5–8, where
# most tiles come back unsure.
BLURRED = 0.3
UNSURE_SHARE = 0.5  # only a photo whose tiles are mostly unsure is refused


def check_light(image: np.ndarray) -> None:
    """Refuse a photo too dark to find tiles in, before looking for them."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if float(np.median(grey)) < DARK_PHOTO and float(np.percentile(grey, 99)) < 3 * DARK_PHOTO:
        raise PhotoError(TOO_DARK, "too_dark")


def check_readable(crops: np.ndarray, unsure: np.ndarray) -> None:
    """When most tiles were read unsure, say whether darkness or blur is to blame."""
    if len(crops) == 0 or float(np.mean(unsure)) <= UNSURE_SHARE:
        return
    greys = [cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32) for crop in crops]
    if float(np.median([np.median(grey) for grey in greys])) < DARK_TILES:
        raise PhotoError(TOO_DARK, "too_dark")
    if float(np.median([sharpness(grey) for grey in greys])) < BLURRED:
        raise PhotoError(TOO_BLURRED, "too_blurred")


def sharpness(grey: np.ndarray) -> float:
    laplacian = cv2.Laplacian(grey, cv2.CV_32F)
    contrast = float(np.percentile(grey, 98) - np.percentile(grey, 2)) + 1.0
    return float(np.percentile(np.abs(laplacian), 99)) / contrast
