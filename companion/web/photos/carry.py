"""What rides along in the re-check form so the photo can be drawn again: nothing is stored.

The upload is never written to disk, and the whole photo is too big for a form field (Flask
refuses a field over ``MAX_FORM_MEMORY_SIZE``, 500 kB by default, with a 413 that would lose
what the user typed). So a small JPEG of the photo travels in the form instead, with the
reading's outlines scaled to it. Both come back from the browser: they are checked like any
input, and anything odd means "no picture", never an error.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from companion.core.presets import Preset
from companion.core.tiles import NotationError, Table, Tile
from companion.vision import PhotoError, PhotoReading, ReadTile, decode_image
from companion.vision.decode import check_photo_bytes
from companion.vision.preview import preview_of
from companion.vision.reading import DOUBTS
from companion.web.api import parse_json_text

PREVIEW_LONGEST_SIDE = 1024
# Base64 grows a JPEG by a third: 330 kB of JPEG stays well under the 500 kB form field limit.
PREVIEW_MAX_BYTES = 330_000

@dataclass(frozen=True, slots=True)
class CarriedPhoto:
    preview: bytes  # a JPEG at most PREVIEW_LONGEST_SIDE pixels long
    reading: PhotoReading  # the reading, its outlines in preview pixels

    @classmethod
    def of(cls, image: Any, reading: PhotoReading) -> CarriedPhoto:
        """Shrink the photo the reader read (decoded, turned upright) and its reading."""
        preview, scaled = preview_of(image, reading, longest_side=PREVIEW_LONGEST_SIDE,
                                     max_bytes=PREVIEW_MAX_BYTES)
        return cls(preview, scaled)

    def fields(self) -> tuple[str, str]:
        """The two hidden fields: the reading as JSON, the preview as base64."""
        reading = self.reading
        carried = {
            "width": reading.width, "height": reading.height,
            "tiles": [{"tile": str(read.tile), "confidence": round(read.confidence, 3),
                       "outline": [list(point) for point in read.outline],
                       "set": read.set_index, "unsure": read.low_confidence,
                       "doubt": read.doubt}
                      for read in reading.tiles],
            "sets": [list(indexes) for indexes in reading.sets],
        }
        return (json.dumps(carried, separators=(",", ":")),
                base64.b64encode(self.preview).decode("ascii"))

    @classmethod
    def from_fields(cls, reading_json: str | None, preview_base64: str | None, *,
                    preset: Preset) -> CarriedPhoto | None:
        """The carried photo back from the form, or None when anything in it is off."""
        if not reading_json or not preview_base64:
            return None
        try:
            preview = base64.b64decode(preview_base64, validate=True)
            reading = _reading_from_json(parse_json_text(reading_json), preset)
        except (binascii.Error, ValueError, TypeError, KeyError):  # JsonTextError is a ValueError
            return None
        try:
            # a copy this page made is small: a claim of more is refused before any decode
            if len(preview) > PREVIEW_MAX_BYTES or max(
                    check_photo_bytes(preview)) > PREVIEW_LONGEST_SIDE:
                return None
            decode_image(preview)  # what annotate() will do with it: refuse it here instead
        except PhotoError:
            return None
        return cls(preview, reading)

    def fits(self, table: Table) -> bool:
        """Each set of the corrected table has as many tiles as the set read from the photo."""
        return [len(meld) for meld in table] == [len(indexes) for indexes in self.reading.sets]


def _reading_from_json(data: Any, preset: Preset) -> PhotoReading:
    """Rebuild a reading from its carried JSON; a ValueError when its shape is wrong."""
    width, height = data["width"], data["height"]
    if not (_is_int(width) and _is_int(height) and width > 0 and height > 0):
        raise ValueError("a carried reading needs a positive width and height")
    tiles = tuple(_read_tile(item, width, height) for item in data["tiles"])
    sets = tuple(tuple(indexes) for indexes in data["sets"])
    laid = [index for indexes in sets for index in indexes]
    if sorted(laid) != list(range(len(tiles))) or not all(_is_int(i) for i in laid):
        raise ValueError("every carried tile must stand in exactly one set")
    if any(tiles[index].set_index != number for number, indexes in enumerate(sets)
           for index in indexes):
        raise ValueError("a carried tile names the wrong set")
    return PhotoReading(width=width, height=height, tiles=tiles, sets=sets, preset=preset)


def _read_tile(item: Any, width: int, height: int) -> ReadTile:
    try:
        tile = Tile.parse(item["tile"])
    except (NotationError, AttributeError) as error:
        raise ValueError("a carried tile is not a tile") from error
    confidence, outline, set_index = item["confidence"], item["outline"], item["set"]
    if not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        raise ValueError("a carried confidence runs 0–1")
    if not _is_int(set_index) or not isinstance(item["unsure"], bool):
        raise ValueError("a carried tile needs a set number and an unsure flag")
    doubt = item.get("doubt", "")
    if not isinstance(doubt, str) or (doubt and doubt not in DOUBTS):
        raise ValueError("a carried doubt is one of the reader's")
    points = tuple((x, y) for x, y in outline)
    if len(points) < 3 or not all(_is_int(x) and _is_int(y) and 0 <= x <= width
                                  and 0 <= y <= height for x, y in points):
        raise ValueError("a carried outline is at least three points inside the photo")
    return ReadTile(tile=tile, confidence=float(confidence), outline=points,
                    set_index=set_index, low_confidence=item["unsure"], doubt=doubt)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
