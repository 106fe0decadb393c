"""Reading a photo of the table: find the tiles, read each, group them into sets, judge."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from companion.core.presets import PRESSMAN, Preset
from companion.vision.crops import (
    CROP_MARGIN,
    CROP_WIDTH,
    SQUARISH,
    canonical_corners,
    crop_tile,
    upright_corners,
)
from companion.vision.decode import DecodedPhoto, decode_for_reading
from companion.vision.designs import as_the_classic_pass_may
from companion.vision.detect import Detection, FoundTile, detect
from companion.vision.doubts import (
    LOW_CONFIDENCE,
    doubled,
    held_at_doubted,
    noting,
    turned_against_neighbours_doubted,
    turned_numbers_doubted,
    washed_out_doubted,
)
from companion.vision.errors import PhotoError
from companion.vision.figures import as_the_other, read_in_sets_by_figure
from companion.vision.found import ReadFound, prepared
from companion.vision.layout import group_into_sets
from companion.vision.light import (
    NEED_REACH,
    LightMap,
    face_balance,
    face_brightness,
    in_shadow,
    light_map,
    shaded_table,
    table_light,
)
from companion.vision.networks import NO_TILE, reading_classic
from companion.vision.quality import (
    TILES_TOO_SMALL,
    brightened,
    check_colour,
    check_readable,
    check_tile_size,
    exposure_gain,
    poor_reading,
    shrunk,
)
from companion.vision.reading import (
    PHOTO_READ_POORLY,
    SHADED_SIX_OR_NINE,
    TURNED_FROM_NEIGHBOURS,
    TWO_IN_ONE_BOX,
    WASHED_OUT,
    PhotoReading,
)
from companion.vision.refine import (
    Kept,
    read_batched,
    read_unwashed,
    second_outlines,
)
from companion.vision.refine_map import squarish_reoutlined, tiles_unclaimed
from companion.vision.refine_table import tiles_beside, tiles_in_rows

MIN_TILE_PIXELS = 12  # a "tile" narrower than this in the photo cannot be read
# A photo shorter than this on its long side holds a table's tiles only under MIN_TILE_PIXELS
# wide (a render of 19 tiles shrunk to 320 px is still read, to 160 px not): when nothing is
# found in it, or its tiles read poorly (quality.poor_reading: a table shrunk to 120 px gave two
# boxes of table read at 0.1–0.3), the answer says the photo is too small, not how to
# photograph a table.
SMALL_PHOTO = 400
# A tile is cut from a reduced decode only when it stays at least as wide there as it is in
# the reader's crop (48 px, the tile 45.3 px of it inside its margin), so the tile is never
# blown up. `valid/` scaled up 4 and 6 times reads the same at 48 as at 56 (the old margin);
# at 45.3 the 12 MP photo of 54 tiles needs no half-size decode (−12% CPU) and `valid/` scaled
# to 4000×3000 … 4600×4600 reads with the same recall, accuracy and misreads.
CROP_SOURCE_WIDTH = CROP_WIDTH / CROP_MARGIN
BESIDE_ROUNDS = 6  # a set's missed tiles are looked for beside its sure ones, outwards
# With no tile found to measure, the tiles hidden by a shadow are taken to be this share of
# the photo's long side tall (a 640 px photo's tiles are 40–60 px tall, a render's 6–9%).
UNSEEN_TILES = 0.07
# Only boxes read as a tile at this or more tell the light by their face (light.py): a box of
# bare board or table, read as nothing much, is no tile face.
SHADE_PROBE = 0.3
# A photo whose median tile the shipped reader reads under SECOND_DESIGN (every `valid/` photo
# as taken reads at 0.91 or more; the classic design's real crops at 0.49) is read again
# with the classic design's reader, kept when its median tile reads DESIGN_MARGIN surer
# (the classic crops: 0.84). A refusal that comes from how the tiles read (blur, size,
# light, every box read as no tile) is tried again so too.
SECOND_DESIGN = 0.9
DESIGN_MARGIN = 0.1
REFUSED_BY_THE_READING = frozenset({"too_blurred", "too_small", "too_dark", "no_tiles"})


def crop_factor_for(decoded_factor: int, narrow: float) -> int:
    """The smallest decode (1/factor of the photo, no smaller than the one decoded already)
    in which tiles ``narrow`` photo pixels wide stay CROP_SOURCE_WIDTH wide."""
    return next((f for f in (4, 2) if f <= decoded_factor and narrow / f >= CROP_SOURCE_WIDTH),
                1)


def _too_small(photo: DecodedPhoto, what: str) -> PhotoError:
    return PhotoError(f"{what} in a photo this small ({photo.width}×{photo.height} pixels): "
                      "send the photo as the phone took it, not a thumbnail or a preview",
                      "too_small")


def _no_tiles(photo: DecodedPhoto, small: bool) -> PhotoError:
    if small:
        return _too_small(photo, "no tiles found")
    return PhotoError("no tiles found: photograph the tiles from above, the whole table in "
                      "the frame, in good light", "no_tiles")


@dataclass(frozen=True, eq=False)
class _Boxes:
    """The boxes found so far, with what the reader read in each."""

    found: list[FoundTile]
    corners: list[np.ndarray]
    probabilities: np.ndarray  # (N, 53): the tiles' probabilities
    upside_down: np.ndarray
    no_tile: np.ndarray  # P(no tile), zeros for a reader without that output

    def surest(self) -> np.ndarray:
        return self.probabilities.max(axis=1)

    @cached_property
    def believed(self) -> np.ndarray:
        """How surely each box is read, a box over two tiles (doubled) held at DOUBTED
        (measured once: the steps after the second outlines ask it of the same boxes when
        the step before them kept nothing)."""
        return held_at_doubted(self.surest(), doubled(self.found, self.surest()))

    def with_kept(self, kept: Iterable[Kept]) -> _Boxes:
        """Each kept alternative in place of the boxes it replaces (the others in their order,
        then the alternatives' tiles in theirs)."""
        kept = list(kept)
        if not kept:
            return self
        gone = {i for each in kept for i in each.alternative.replaces}
        return self.only([i for i in range(len(self.found)) if i not in gone], kept)

    def only(self, stay: list[int], kept: Iterable[Kept] = ()) -> _Boxes:
        """The boxes ``stay`` (then the tiles of ``kept``)."""
        kept = list(kept)
        return _Boxes(
            [self.found[i] for i in stay] + [t for each in kept for t in each.alternative.tiles],
            [self.corners[i] for i in stay] + [c for each in kept for c in each.corners],
            np.concatenate([self.probabilities[stay], *(each.probabilities for each in kept)]),
            np.concatenate([self.upside_down[stay], *(each.upside_down for each in kept)]),
            np.concatenate([self.no_tile[stay], *(each.no_tile for each in kept)]))


def find_and_read(photo: DecodedPhoto | np.ndarray, *, upright: bool = False) -> ReadFound:
    """Find every tile in a photo and read it (``found_and_read_with_one_reader``): with the
    shipped reader, and, when it reads the photo poorly or refuses it, again with the classic
    design's (``networks.reading_classic``). A photo's tiles are all of one design: the
    reading whose median tile is read surer by DESIGN_MARGIN is kept (``ReadFound.classic``
    says which), the classic pass's sure only of what the shipped reader read alike when the
    tiles are of the current design (``designs``). PhotoError when neither reads it (the
    shipped reader's refusal)."""
    if isinstance(photo, np.ndarray):
        photo = DecodedPhoto.of_image(photo)
    try:
        first = found_and_read_with_one_reader(photo, upright=upright)
    except PhotoError as refused:
        if refused.code not in REFUSED_BY_THE_READING:
            raise
        # The refusal's traceback holds the first reading's images: let them go before the
        # second reading, and keep the refusal only inside this block (a refusal kept in a
        # local outlives the call in a cycle with its own frame, holding them until the
        # collector runs: a server kept 150 MB after sixteen hostile photos).
        refused.with_traceback(None)
        second = _read_as_classic(photo, upright=upright)
        if second is None:
            raise
        return as_the_classic_pass_may(second, None, photo)
    median = float(np.median(first.confidence))
    if median >= SECOND_DESIGN:
        return first
    second = _read_as_classic(photo, upright=upright)
    if second is not None and float(np.median(second.confidence)) >= median + DESIGN_MARGIN:
        return as_the_classic_pass_may(second, first, photo)
    return first


def _read_as_classic(photo: DecodedPhoto, *, upright: bool) -> ReadFound | None:
    """The photo found and read with the classic design's reader; None when it refuses."""
    with reading_classic():
        try:
            return replace(found_and_read_with_one_reader(photo, upright=upright), classic=True)
        except PhotoError:
            return None


def found_and_read_with_one_reader(photo: DecodedPhoto, *, upright: bool = False) -> ReadFound:
    """Find every tile in a photo and read it with the reader in use; PhotoError when there
    is none.

    The tiles are found in ``photo.image`` (a JPEG decoded at a half or a quarter of its
    size); each tile is then cut from the smallest decode in which it is still at least
    CROP_SOURCE_WIDTH pixels wide, so a big photo is decoded at full size only when its tiles
    are small. A dim photo is brightened first (``quality.exposure_gain``); a black-and-white
    one is refused (``quality.check_colour``). Outlines come back in the photo's own pixels.
    ``upright`` is for tiles standing on a rack: a tile seen from above at a slant looks
    almost square, and its long side may then lie across; it is read with its top towards
    the top of the photo instead.
    """
    small_copy = shrunk(photo.image)  # for judging exposure and colour, made once
    gain = exposure_gain(small_copy)
    image = brightened(photo.image, gain)
    bright_end = min(255.0, float(cv2.cvtColor(small_copy, cv2.COLOR_BGR2GRAY).max()) * gain)
    try:
        first = _found_and_read(photo, image, gain, None, upright=upright)
    except PhotoError as nothing:
        # a shadow over much of a table may hide every tile in it from the detector
        shade = None if upright or nothing.code != "no_tiles" \
            else _shade_without_tiles(image, photo, bright_end)
        if shade is None:
            raise
        check_colour(small_copy)
        try:
            read, light = _found_and_read(photo, shade.applied(image), gain, shade,
                                          upright=upright, hidden=True), shade
        except PhotoError:
            raise nothing from None
    else:
        check_colour(small_copy)
        shade = first.shadowed(photo, bright_end, hidden=not upright)
        read, light = first, None
        # on a rack, a shadow told by the board's level alone is tried for the tiles but not
        # for the bar (ReadFound.shade): a dark board is such a stretch in many a rack photo
        tried = shade if shade is not None or not upright \
            else first.shadowed(photo, bright_end, hidden=True)
        if tried is not None:
            # kept only when more tiles are read surely with the shadow divided out: a photo
            # whose tiles all read surely anyway is read as it was
            lit = _found_and_read(photo, tried.applied(image), gain, tried, upright=upright)
            if lit.sure > first.sure:
                read, light = lit, tried
    if not upright:
        read, light = _balanced(photo, image, gain, read, light)
    source, crop_factor, detection, corners_of = (
        read.source, read.crop_factor, read.detection, read.corners_of)
    boxes = _Boxes(read.found, read.corners, read.probabilities, read.upside_down, read.no_tile)
    small = max(photo.width, photo.height) < SMALL_PHOTO
    # a box read as no tile (bare table, a ledge, glare) says nothing of how the photo reads
    tile_like = boxes.no_tile < NO_TILE
    if not tile_like.any():
        raise _no_tiles(photo, small)
    check_readable(read.crops[tile_like], boxes.surest()[tile_like], threshold=LOW_CONFIDENCE,
                   gain=gain, tile_width=float(np.median(
                       [tile.short_side for tile, like in zip(boxes.found, tile_like) if like])))
    if small and poor_reading(boxes.surest()[tile_like], LOW_CONFIDENCE):
        raise _too_small(photo, "the tiles cannot be read")
    boxes = boxes.with_kept(second_outlines(
        boxes.found, boxes.surest() if upright else boxes.believed,
        threshold=LOW_CONFIDENCE, source=source,
        crop_factor=crop_factor, corners_of=corners_of, upright=upright))
    # what is still read as no tile (a piece of a tile may have been joined into one above)
    # is not a tile
    boxes = boxes.only([int(i) for i in np.flatnonzero(boxes.no_tile < NO_TILE)])
    if not boxes.found:
        raise _no_tiles(photo, small)
    if not upright:
        boxes = boxes.with_kept(squarish_reoutlined(
            boxes.found, boxes.believed, detection.tile_map, detection.map_scale * photo.factor,
            threshold=LOW_CONFIDENCE, source=source, crop_factor=crop_factor,
            corners_of=corners_of))
        boxes = boxes.with_kept(tiles_in_rows(
            boxes.found, boxes.believed, threshold=LOW_CONFIDENCE, source=source,
            crop_factor=crop_factor, corners_of=corners_of))
        boxes = boxes.with_kept(tiles_unclaimed(
            boxes.found, boxes.believed, detection.tile_map, detection.map_scale * photo.factor,
            threshold=LOW_CONFIDENCE, source=source, crop_factor=crop_factor,
            corners_of=corners_of))
    around: list[int] | None = None
    for _ in range(0 if upright else BESIDE_ROUNDS):
        beside = tiles_beside(boxes.found, boxes.believed, threshold=LOW_CONFIDENCE,
                              source=source, crop_factor=crop_factor, corners_of=corners_of,
                              around=around)
        if not beside:
            break
        boxes = boxes.with_kept(beside)
        added = sum(len(kept.alternative.tiles) for kept in beside)
        around = list(range(len(boxes.found) - added, len(boxes.found)))
    found, corners = boxes.found, boxes.corners
    probabilities, upside_down = boxes.probabilities, boxes.upside_down
    best = probabilities.argmax(axis=1)
    if not upright:
        # on a rack the photo's up is the tiles' up; on a table the reader says which end is up
        corners = [c[[2, 3, 0, 1]] if turned > 0.5 else c
                   for c, turned in zip(corners, upside_down)]
    confidence = probabilities[np.arange(len(found)), best]
    doubts = [""] * len(found)
    if shade is not None:
        confidence = noting(doubts, confidence, turned_numbers_doubted(
            confidence, best, corners, image, photo.factor, shade), SHADED_SIX_OR_NINE)
    if not upright:
        confidence = noting(doubts, confidence, washed_out_doubted(
            confidence, corners, source, crop_factor), WASHED_OUT)
        confidence = noting(doubts, confidence, held_at_doubted(
            confidence, doubled(found, confidence)), TWO_IN_ONE_BOX)
    check_tile_size(confidence, np.array([tile.short_side for tile in found]),
                    threshold=LOW_CONFIDENCE)
    ranking = np.argsort(-probabilities, axis=1)
    return ReadFound(found, corners, best, confidence, ranking, gain, light, shade,
                     doubts=tuple(doubts))


def _balanced(photo: DecodedPhoto, image: np.ndarray, gain: float, read: _FirstReading,
              light: LightMap | None) -> tuple[_FirstReading, LightMap | None]:
    """The reading of a table photo taken in a tinted light (its sure tiles' faces not the
    cream of a face in a neutral light: light.face_balance) found and read again with its
    channels balanced, kept when more tiles read surely; else ``read`` and ``light``."""
    sure = (read.probabilities.max(axis=1) >= LOW_CONFIDENCE) & (read.no_tile < NO_TILE)
    balance = face_balance(read.crops[sure])
    if balance is None:
        return read, light
    tinted = (light or LightMap(np.ones((1, 1), np.float32), 0.0)).balanced(balance)
    lit = _found_and_read(photo, tinted.applied(image), gain, tinted, upright=False)
    return (lit, tinted) if lit.sure > read.sure else (read, light)


def _shade_without_tiles(image: np.ndarray, photo: DecodedPhoto,
                         bright_end: float) -> LightMap | None:
    """The light map of a table photo in which no tile was found, when a shadow covers much
    of it (light.shaded_table); its tiles taken to be UNSEEN_TILES of the photo's long side
    tall (the detector's own range)."""
    tile_height = max(image.shape[:2]) * UNSEEN_TILES
    if not shaded_table(*table_light(image, tile_height), np.zeros((0, 2))):
        return None
    return light_map(image, tile_height, [], np.zeros(0, np.float32), bright_end)


@dataclass(frozen=True, eq=False)
class _FirstReading:
    """The tiles found in one preparation of the photo (``image``: brightened, perhaps with a
    shadow divided out) and each read once, before any second outline."""

    image: np.ndarray
    detection: Detection
    found: list[FoundTile]
    corners: list[np.ndarray]
    source: np.ndarray  # the decode the crops were cut from, prepared as ``image``
    crop_factor: int
    crops: np.ndarray
    probabilities: np.ndarray
    upside_down: np.ndarray
    no_tile: np.ndarray  # P(no tile), zeros for a reader without that output
    corners_of: Callable[[FoundTile], np.ndarray]

    @property
    def sure(self) -> int:
        """How many tiles are read surely (LOW_CONFIDENCE or more, and not as no tile)."""
        return int(np.sum((self.probabilities.max(axis=1) >= LOW_CONFIDENCE)
                          & (self.no_tile < NO_TILE)))

    def shadowed(self, photo: DecodedPhoto, bright_end: float, *,
                 hidden: bool) -> LightMap | None:
        """The light map dividing a shadow out when some tiles lie in one (light.in_shadow;
        ``bright_end``: the photo's, brightened as it is read) or, ``hidden``, when a shadow
        over much of the table holds few of the tiles (light.shaded_table), the tiles' needs
        then holding the gain only near them (light.NEED_REACH)."""
        sure = self.probabilities.max(axis=1)
        probes = np.array([bool(np.all((c >= 0) & (c <= (photo.width, photo.height))))
                           for c in self.corners]) & (sure >= SHADE_PROBE) \
            & (self.no_tile < NO_TILE)
        faces = face_brightness(self.crops[probes]) if probes.any() \
            else np.zeros(0, np.float32)
        tile_height = float(np.median([tile.long_side for tile in self.found])) / photo.factor
        if not in_shadow(faces, bright_end) and not (hidden and shaded_table(
                *table_light(self.image, tile_height),
                np.array([c.mean(axis=0) for c in self.corners])[
                    (sure >= LOW_CONFIDENCE) & (self.no_tile < NO_TILE)] / photo.factor)):
            return None
        outlines = [c / photo.factor for c, probe in zip(self.corners, probes) if probe]
        return light_map(self.image, tile_height, outlines, faces, bright_end,
                         reach=NEED_REACH if hidden else None)


def _found_and_read(photo: DecodedPhoto, image: np.ndarray, gain: float,
                    light: LightMap | None, *, upright: bool,
                    hidden: bool = False) -> _FirstReading:
    """Find the tiles in ``image`` (``photo.image`` brightened by ``gain`` and lit by
    ``light``) and read each once; PhotoError when none is found. ``hidden``: no tile was
    found in the photo before ``light`` was divided out of it (detect's larger look at an
    empty photo is not taken then)."""
    factor = photo.factor
    detection = detect(image, look_larger_when_empty=not hidden)
    seen = [tile.scaled(factor) for tile in detection.found]
    found = [tile for tile in seen if tile.short_side >= MIN_TILE_PIXELS]
    small = max(photo.width, photo.height) < SMALL_PHOTO
    if not found and seen and not small:
        # every tile found is too narrow to read: say so, not how to photograph a table (a
        # thumbnail is answered with its own size)
        raise PhotoError(TILES_TOO_SMALL.format(
            width=round(float(np.median([tile.short_side for tile in seen])))), "too_small")
    if not found:
        raise _no_tiles(photo, small)

    def corners_of(tile: FoundTile) -> np.ndarray:
        corners = canonical_corners(tile.rect)
        if upright and tile.short_side > SQUARISH * tile.long_side:
            return upright_corners(corners)
        return corners

    corners = [corners_of(tile) for tile in found]
    narrow = float(np.percentile([tile.short_side for tile in found], 10))
    crop_factor = crop_factor_for(factor, narrow)
    source = image if crop_factor == factor else prepared(photo.at(crop_factor), gain, light)
    crops = np.stack([crop_tile(source, tile_corners / crop_factor) for tile_corners in corners])
    # on a table a crop washed out by glare is also read stretched (refine.read_unwashed)
    probabilities, upside_down, no_tile = (read_batched if upright else read_unwashed)(crops)
    return _FirstReading(image, detection, found, corners, source, crop_factor, crops,
                         probabilities, upside_down, no_tile, corners_of)


def read_image(image: np.ndarray, *, preset: Preset = PRESSMAN) -> PhotoReading:
    """Read an already decoded BGR photo (see ``read_photo``)."""
    return read_decoded(DecodedPhoto.of_image(image), preset=preset)


def read_decoded(photo: DecodedPhoto, *, preset: Preset = PRESSMAN) -> PhotoReading:
    """Read a photo decoded by ``decode_for_reading``."""
    width, height = photo.width, photo.height
    read = find_and_read(photo)
    found, corners = read.found, read.corners

    centres = np.array([c.mean(axis=0) for c in corners], dtype=np.float64)
    ups = np.array([up / (np.linalg.norm(up) or 1.0)
                    for up in ((c[0] + c[1]) / 2 - (c[2] + c[3]) / 2 for c in corners)])
    widths = np.array([tile.short_side for tile in found])
    heights = np.array([tile.long_side for tile in found])
    sets = group_into_sets(centres, ups, widths, heights)
    set_of = {index: number for number, meld in enumerate(sets) for index in meld}
    read = read.held(turned_against_neighbours_doubted(
        read.confidence, read.best, centres, ups, heights), TURNED_FROM_NEIGHBOURS)
    figure_other = read_in_sets_by_figure(photo, read, sets, ups)

    # a table read poorly as a whole: not even its surest tiles are trusted (_poorly_read)
    poorly_read = _poorly_read(read.confidence)
    placed = []
    for i in range(len(found)):
        tile = as_the_other(read.tile(i), figure_other[i]) if i in figure_other else read.tile(i)
        placed.append(replace(tile, set_index=set_of[i],
                              low_confidence=tile.low_confidence or poorly_read,
                              doubt=tile.doubt or (PHOTO_READ_POORLY if poorly_read and
                                                   not tile.low_confidence else "")))
    # number the tiles in set order, so tile indexes read like the table
    order = [i for meld in sets for i in meld]
    renumber = {old: new for new, old in enumerate(order)}
    tiles = tuple(placed[old] for old in order)
    set_indexes = tuple(tuple(renumber[i] for i in meld) for meld in sets)
    return PhotoReading(width, height, tiles, set_indexes, preset=preset)


def _poorly_read(confidence: np.ndarray) -> bool:
    """Whether the table's tiles were read poorly as a whole (quality.poor_reading: most
    unsure, the median under POOR_READING): every tile is then flagged, the ones read surely
    too. A shaken phone's line blur leaves a tile's edges sharp across the blur, so the
    photo's crops pass for sharp (quality.sharpness) and it is read, while a number smears
    into another one: `valid/` under 9 px of motion blur had two tiles of rummy-34 read wrong
    at 0.95–0.96 among tiles read at a median of 0.78. Every `valid/` photo as taken reads at
    a median of 0.91 or more."""
    return len(confidence) > 0 and poor_reading(confidence, LOW_CONFIDENCE)


def read_photo(data: bytes, *, preset: Preset = PRESSMAN) -> PhotoReading:
    """Read the tiles and sets in a photo of the table; PhotoError on bad input."""
    return read_decoded(decode_for_reading(data), preset=preset)
