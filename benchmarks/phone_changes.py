"""What a phone at a real table does to a photo, done to a labelled photo and its outlines alike.

Each change takes a photo (BGR), its labelled tiles' outlines (each (N, 2) float32 in the
photo's pixels) and the photo's number (seeding what is random about it: the direction of a
motion blur, sensor noise) and gives the changed photo, the outlines moved with it (so a read
tile still matches its true tile exactly), the tiles the frame now cuts through or leaves out,
and the JPEG quality to save it at. Nothing is random but what the number seeds: every run
reads the same bytes. Used by ``benchmarks.rack_stress`` (the 24 real racks) and
``benchmarks.table_stress`` (`valid/`'s table photos).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

JPEG_QUALITY = 95


@dataclass(frozen=True)
class Changed:
    """A changed photo: its image, the outlines moved with it, the tiles (indexes into the
    outlines) the frame cuts through (``cut``) or leaves out wholly (``gone``), its JPEG
    quality."""

    image: np.ndarray
    outlines: tuple[np.ndarray, ...]
    quality: int = JPEG_QUALITY
    cut: frozenset[int] = frozenset()
    gone: frozenset[int] = frozenset()


Change = Callable[[np.ndarray, Sequence[np.ndarray], int], Changed]
T = TypeVar("T")  # what a change is, to its stress set
P = TypeVar("P")  # a labelled photo, to its stress set


def as_taken(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
    return Changed(image, tuple(outlines))


def _warped(image: np.ndarray, outlines: Sequence[np.ndarray], matrix: np.ndarray,
            size: tuple[int, int]) -> Changed:
    """The photo warped by a 3 × 3 ``matrix`` into ``size``, the table running on past the
    photo's edge (its border pixels repeated), and the outlines with it."""
    warped = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    moved = tuple(cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32),
                                           matrix.astype(np.float64)).reshape(-1, 2)
                  for outline in outlines)
    return Changed(warped, moved)


def rotated(angle: float) -> Change:
    """Turned ``angle`` degrees anticlockwise, the frame grown to hold the whole photo."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        height, width = image.shape[:2]
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
        cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
        new_w, new_h = int(width * cos + height * sin), int(width * sin + height * cos)
        matrix[0, 2] += new_w / 2 - width / 2
        matrix[1, 2] += new_h / 2 - height / 2
        return _warped(image, outlines, np.vstack([matrix, [0, 0, 1]]), (new_w, new_h))
    return change


def quarter_turns(turn: int) -> Change:
    """Turned exactly (a ``cv2.ROTATE_*`` code): a phone held flat saving the photo sideways
    or upside down."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        height, width = image.shape[:2]
        if turn == cv2.ROTATE_90_CLOCKWISE:  # (x, y) → (h − y, x)
            matrix = np.float32([[0, -1, height], [1, 0, 0]])
        elif turn == cv2.ROTATE_90_COUNTERCLOCKWISE:  # (x, y) → (y, w − x)
            matrix = np.float32([[0, 1, 0], [-1, 0, width]])
        else:  # a half turn: (x, y) → (w − x, h − y)
            matrix = np.float32([[-1, 0, width], [0, -1, height]])
        moved = tuple(outline @ matrix[:, :2].T + matrix[:, 2] for outline in outlines)
        return Changed(cv2.rotate(image, turn), moved)
    return change


def keystone(top: float, bottom: float, left: float, right: float) -> Change:
    """A perspective: each edge of the photo shrunk by its share (0.2: a fifth), about its
    middle — the top shrunk is the photo taken from higher, the bottom from lower, a side
    from that side's opposite."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        height, width = image.shape[:2]
        w, h = float(width), float(height)
        source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        target = np.float32([
            [w * (top / 2), h * (left / 2)], [w * (1 - top / 2), h * (right / 2)],
            [w * (1 - bottom / 2), h * (1 - right / 2)], [w * (bottom / 2), h * (1 - left / 2)]])
        return _warped(image, outlines, cv2.getPerspectiveTransform(source, target),
                       (width, height))
    return change


def scaled(share: float) -> Change:
    """The photo shrunk to ``share`` of the frame's width, in the middle of a frame of the
    same size (the tiles further off)."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        height, width = image.shape[:2]
        matrix = np.float32([[share, 0, width * (1 - share) / 2],
                             [0, share, height * (1 - share) / 2], [0, 0, 1]])
        return _warped(image, outlines, matrix, (width, height))
    return change


def motion_blurred(image: np.ndarray, length: int, number: int) -> np.ndarray:
    """A shaken hand: ``image`` under a line blur ``length`` px long, in a direction drawn
    from the photo's ``number`` (a fixed seed)."""
    angle = np.random.default_rng([number, length, 7]).uniform(0, 180)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def _image_only(alter: Callable[[np.ndarray, int], np.ndarray], quality: int = JPEG_QUALITY
                ) -> Change:
    """A change of the pixels alone (``alter(image, number)``): the outlines stay."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        return Changed(alter(image, number), tuple(outlines), quality)
    return change


def motion_blur(length: int) -> Change:
    """A shaken hand: a line blur ``length`` px long in a direction drawn from the photo."""
    return _image_only(lambda image, number: motion_blurred(image, length, number))


def focus_blur(sigma: float) -> Change:
    return _image_only(lambda image, number: cv2.GaussianBlur(image, (0, 0), sigma))


def jpeg(quality: int) -> Change:
    return _image_only(lambda image, number: image, quality)


def exposure(stops: float) -> Change:
    """Exposed ``stops`` over (or under) in linear light, clipped as a sensor clips."""
    def alter(image: np.ndarray, number: int) -> np.ndarray:
        linear = (image.astype(np.float32) / 255) ** 2.2 * 2 ** stops
        return (np.clip(linear, 0, 1) ** (1 / 2.2) * 255).round().astype(np.uint8)
    return _image_only(alter)


def white_balance(red: float, blue: float) -> Change:
    """Red and blue channels scaled (a warm lamp: red up, blue down; shade: the other way)."""
    def alter(image: np.ndarray, number: int) -> np.ndarray:
        tinted = image.astype(np.float32) * np.float32([blue, 1.0, red])
        return np.clip(tinted, 0, 255).round().astype(np.uint8)
    return _image_only(alter)


def sensor_noise(sigma: float) -> Change:
    """A small sensor in dim light: Gaussian noise of ``sigma`` grey levels on each channel,
    drawn from the photo's number (a fixed seed)."""
    def alter(image: np.ndarray, number: int) -> np.ndarray:
        noise = np.random.default_rng([number, round(sigma * 10), 11]).normal(
            0, sigma, image.shape)
        return np.clip(image + noise, 0, 255).round().astype(np.uint8)
    return _image_only(alter)


def cut_through_end_tile(side: str) -> Change:
    """Cropped through the middle of the tile nearest the photo's ``side`` ("left", "right",
    "top", "bottom"): the frame cuts that tile, and any other it crosses, in two. A photo
    with no tile is left as it is."""
    def change(image: np.ndarray, outlines: Sequence[np.ndarray], number: int) -> Changed:
        if not outlines:
            return Changed(image, ())
        axis = 0 if side in ("left", "right") else 1
        middles = [float(outline[:, axis].mean()) for outline in outlines]
        start = side in ("left", "top")
        end = int(np.argmin(middles) if start else np.argmax(middles))
        cut = round(middles[end])
        if axis == 0:
            image = image[:, cut:] if start else image[:, :cut]
        else:
            image = image[cut:] if start else image[:cut]
        crossed, gone = set(), set()
        for index, outline in enumerate(outlines):
            inside = outline[:, axis] >= cut if start else outline[:, axis] <= cut
            if not inside.any():
                gone.add(index)
            elif not inside.all():
                crossed.add(index)
        shift = np.float32([cut, 0] if axis == 0 else [0, cut]) if start else np.float32([0, 0])
        return Changed(image, tuple(outline - shift for outline in outlines),
                       cut=frozenset(crossed), gone=frozenset(gone))
    return change


def tally_changes(changes: dict[str, T], photos: Sequence[P],
                  read_one: Callable[[P, T, Counter[str]], str],
                  summary: Callable[[Counter[str]], dict[str, str | int]],
                  name_of: Callable[[P], object], *, only: set[str] | None = None,
                  verbose: bool = False) -> dict[str, dict[str, str | int]]:
    """Every change of ``changes`` (or those named in ``only``) over every photo: each copy
    read and counted by ``read_one(photo, change, tally)`` (which returns a note of what went
    wrong, '' if nothing), summed per change and over all (``"all"``), each sum summarised."""
    results: dict[str, dict[str, str | int]] = {}
    totals: Counter[str] = Counter()
    for name, change in changes.items():
        if only and name not in only:
            continue
        tally: Counter[str] = Counter()
        for photo in photos:
            note = read_one(photo, change, tally)
            if verbose and note:
                print(f"    {name}: {name_of(photo)}: {note}", flush=True)
        totals += tally
        results[name] = summary(tally)
        if verbose:
            print(f"  {name:36s} " + ", ".join(f"{k} {v}" for k, v in results[name].items()),
                  flush=True)
    results["all"] = summary(totals)
    return results


def print_results(results: dict[str, dict[str, str | int]], *, verbose: bool) -> None:
    """Each change's line (only the total's when ``verbose`` printed them as they came)."""
    for name, summary in results.items():
        if name == "all" or not verbose:
            print(f"  {name:36s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
