"""Drawing the reading onto the photo: sets outlined by verdict, every tile labelled."""

from __future__ import annotations

import cv2
import numpy as np

from companion.core.tiles import Table
from companion.vision.decode import decode_for_reading
from companion.vision.reading import PhotoReading, RackReading, judge

MAX_SIDE = 1600  # the annotated picture is for a phone screen
LEGAL = (60, 170, 40)  # BGR green
ILLEGAL = (40, 40, 220)  # BGR red
DOUBTFUL = (0, 200, 255)  # BGR amber: a tile to confirm


def annotate(data: bytes, reading: PhotoReading, *, table: Table | None = None) -> bytes:
    """The photo as PNG with each set outlined green or red by its verdict and tiles labelled.

    ``table`` is the user's corrected table (same number of tiles per set as the reading); when
    given, its tiles and verdicts (under the reading's preset) are drawn instead.
    """
    if table is not None and [len(m) for m in table] != [len(m) for m in reading.sets]:
        raise ValueError("the corrected table must have as many tiles per set as the reading")
    image, scale = _picture(data)
    shown = table if table is not None else reading.table
    judgement = reading.judgement if table is None else judge(table, preset=reading.preset)
    colours = [LEGAL if judged.legal else ILLEGAL for judged in judgement.sets]
    thickness = max(2, round(max(image.shape[:2]) / 400))
    for number, meld in enumerate(reading.sets):
        points = np.concatenate([np.array(reading.tiles[i].outline, np.float32) for i in meld])
        box = cv2.boxPoints(cv2.minAreaRect(points * scale)).astype(np.int32)
        cv2.polylines(image, [box], True, colours[number], thickness + 1, cv2.LINE_AA)
        for position, index in enumerate(meld):
            read = reading.tiles[index]
            outline = (np.array(read.outline, np.float32) * scale).astype(np.int32)
            doubtful = read.low_confidence and table is None
            cv2.polylines(image, [outline], True, DOUBTFUL if doubtful else colours[number],
                          thickness, cv2.LINE_AA)
            label = str(shown[number][position]) + ("?" if doubtful else "")
            # under the printed number (toward the tile's own bottom), so both stay visible
            bottom = (outline[2] + outline[3]) / 2
            width = float(np.linalg.norm(outline[1] - outline[0]))
            _label(image, label, outline.mean(axis=0) * 0.35 + bottom * 0.65, width)
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise RuntimeError("could not encode the annotated picture")
    return png.tobytes()


def _picture(data: bytes) -> tuple[np.ndarray, float]:
    """The photo at most MAX_SIDE long (a big JPEG decoded reduced, not whole), and the scale
    from the photo's own pixels (the outlines') to the picture's."""
    photo = decode_for_reading(data)
    image = photo.image
    shrink = min(1.0, MAX_SIDE / max(image.shape[:2]))
    if shrink < 1.0:
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return image, image.shape[1] / photo.width


def _label(image: np.ndarray, text: str, centre: np.ndarray, tile_width: float) -> None:
    """The tile's notation on a white patch, sized to the tile (readable on a phone)."""
    font_scale = float(np.clip(tile_width / 70, 0.35, 1.6))
    thickness = max(1, round(font_scale * 2))
    (w, h), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
    x, y = int(centre[0] - w / 2), int(centre[1] + h / 2)
    cv2.rectangle(image, (x - 3, y - h - 3), (x + w + 3, y + baseline), (255, 255, 255), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), thickness,
                cv2.LINE_AA)


ON_RACK = (60, 170, 40)  # BGR green
IGNORED = (160, 160, 160)


def annotate_rack(data: bytes, reading: RackReading) -> bytes:
    """The rack photo as PNG: each tile on the rack outlined and labelled (amber and a "?"
    when unsure), every tile that is not on the rack greyed out, the value in a corner."""
    image, scale = _picture(data)
    thickness = max(2, round(max(image.shape[:2]) / 400))
    if reading.ignored:
        grey = image.copy()
        for outline in reading.ignored:
            points = (np.array(outline, np.float32) * scale).astype(np.int32)
            cv2.fillConvexPoly(grey, points, IGNORED, cv2.LINE_AA)
        cv2.addWeighted(grey, 0.7, image, 0.3, 0, dst=image)
        for outline in reading.ignored:
            points = (np.array(outline, np.float32) * scale).astype(np.int32)
            cv2.polylines(image, [points], True, (110, 110, 110), thickness, cv2.LINE_AA)
    for read in reading.tiles:
        outline = (np.array(read.outline, np.float32) * scale).astype(np.int32)
        cv2.polylines(image, [outline], True, DOUBTFUL if read.low_confidence else ON_RACK,
                      thickness, cv2.LINE_AA)
        bottom = (outline[2] + outline[3]) / 2
        width = float(np.linalg.norm(outline[1] - outline[0]))
        _label(image, str(read.tile) + ("?" if read.low_confidence else ""),
               outline.mean(axis=0) * 0.35 + bottom * 0.65, width)
    _label(image, f"rack value {reading.value}", np.array([image.shape[1] / 2, 0.0]) + (0, 40),
           max(140.0, image.shape[1] / 4))
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise RuntimeError("could not encode the annotated picture")
    return png.tobytes()
