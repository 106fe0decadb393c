"""Uneven light: a shadow across part of the tiles, flattened before they are found and read.

At a real table the phone's or the player's own shadow, or a lamp from one side, dims part of
the tiles; the networks learned tiles lit evenly and lose or misread many of those in a deep
shadow (a shadow leaving 30% of the light lost about half the tiles under it). Every tile face
is the same cream plastic, so the tiles themselves show whether the light is even: when some
faces are far darker than the others (or a shadow over much of the table holds few of the
tiles: a deep one hides them from the detector), the photo's light is measured from the table
around the tiles and divided out, held near each tile to what its face needs. The pipeline
keeps that reading only when more tiles read surely; a photo whose tile faces are alike and
whose table is evenly lit is read exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A face (the brightest tenth of a crop's middle: the plastic, not the ink) under this share
# of the lit faces' (their 80th percentile) lies in a shadow. On the labelled real photos and
# the benchmark's renders without a shadow, every tile lying wholly in the photo is at 0.65 or
# more (a tile half off the photo's edge, its crop half black, is not counted).
IN_SHADOW = 0.62
# ... or, when most tiles lie in the shadow (the lit faces are then shaded too), under this
# share of the photo's bright end (quality.exposure_gain's, brightened as the photo is): on
# the labelled real photos and the renders without a shadow every face lying wholly in the
# photo is at 0.49 or more (0.6 or more where no face is under IN_SHADOW of the others).
UNDER_BRIGHT_END = 0.45
# A face in the light is at least this share of the photo's bright end (renders and real
# photos without a shadow: 0.72 and more for the lit faces, their 80th percentile).
LIT_FACE_SHARE = 0.75
# The light is measured at a scale where a tile is about this many pixels tall: the table's
# level, with the tiles taken out, by an opening (bright tiles on a dark table) then a closing
# (darker tiles on a white table) with a disc LIGHT_DISC tiles across, which keeps a shadow's
# hard edge where it is (a blur would smear it over a tile either side).
LIGHT_TILE_PIXELS = 12
LIGHT_DISC = 1.6
LIGHT_SIDES = (64, 512)  # the light map's long side, whatever the tiles' size
LIT_PERCENTILE = 90  # the lit table: the light map's 90th percentile
MOST_GAIN = 4.0  # a shadow leaving a quarter of the light, no deeper
FACE_SLACK = 1.1  # the gain at most this much over what the nearest tile's face needs
NEED_REACH = 1.5  # ... within this many tile heights of a tile read
# A photo whose table lies in a shadow over this share of it (and not black: under NOT_BLACK)
# is tried with the shadow divided out even when no tile found lies in it: a deep shadow
# hides its tiles from the detector altogether.
SHADED_SHARE = 0.2
NOT_BLACK = 10
FEW_IN_SHADE = 0.5


@dataclass(frozen=True, eq=False)
class LightMap:
    """How much brighter each part of the photo is made (1 where it is lit), as a small map
    spanning the whole photo: applied to a decode of any size."""

    gain: np.ndarray  # float32, the photo's proportions, 1 .. MOST_GAIN
    lit_face: float  # how bright a tile's face is in the light (``lit_face``)
    # each channel (B, G, R) scaled by this besides: a tinted light balanced (face_balance)
    balance: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def applied(self, image: np.ndarray) -> np.ndarray:
        """``image`` (BGR uint8, any size of the photo) with the shadow divided out."""
        height, width = image.shape[:2]
        gain = cv2.resize(self.gain, (width, height), interpolation=cv2.INTER_LINEAR)
        lit = image.astype(np.float32) * cv2.merge([gain * factor for factor in self.balance])
        return np.clip(lit, 0, 255).astype(np.uint8)

    def balanced(self, balance: tuple[float, float, float]) -> LightMap:
        """This light with each channel also scaled by ``balance``."""
        return LightMap(self.gain, self.lit_face, balance)


# The tiles' faces (the brightest tenth of each crop's middle, per channel, the median over
# the tiles read surely) on the labelled real photos as taken: red over green 0.98–1.25 (the
# median 1.06), blue over green 0.72–0.96 (0.91). A photo whose faces lie outside
# FACE_RED_GREEN or FACE_BLUE_GREEN was taken in a tinted light (a warm lamp the phone did
# not balance: blue over green 0.43–0.58 with red × 1.35 and blue × 0.6; cold daylight: red
# over green 0.79–1.00 with red × 0.8 and blue × 1.2); its channels are then scaled so the
# faces come out as FACE_COLOUR's. A red joker's face on a warm face, a blue number under a
# warm lamp were lost or read black.
FACE_RED_GREEN = (0.95, 1.3)
FACE_BLUE_GREEN = (0.68, 1.02)
FACE_COLOUR = (0.91, 1.0, 1.06)  # blue, green, red over green: the real faces' medians


def face_balance(crops: np.ndarray) -> tuple[float, float, float] | None:
    """The scale of each channel (B, G, R) that makes the faces of ``crops`` (tiles read
    surely) the colour of a face in a neutral light, or None when they are that colour
    already (within FACE_RED_GREEN and FACE_BLUE_GREEN) or too few to tell."""
    if len(crops) < 3:
        return None
    middles = crops[:, 8:-8, 6:-6].reshape(len(crops), -1, 3).astype(np.float32)
    blue, green, red = np.median(np.percentile(middles, 90, axis=1), axis=0)
    if green < 1:
        return None
    red_green, blue_green = red / green, blue / green
    if FACE_RED_GREEN[0] <= red_green <= FACE_RED_GREEN[1] \
            and FACE_BLUE_GREEN[0] <= blue_green <= FACE_BLUE_GREEN[1]:
        return None
    return (FACE_COLOUR[0] / max(blue_green, 1e-3), 1.0, FACE_COLOUR[2] / max(red_green, 1e-3))


def face_brightness(crops: np.ndarray) -> np.ndarray:
    """Each crop's face brightness: the 90th percentile of the grey (the plastic, not the
    ink) in each quarter of its middle, the darkest quarter's (a shadow's edge may cross it)."""
    count, height, width = crops.shape[:3]
    # all crops converted at once, stacked into one tall picture (grey is per pixel)
    greys = cv2.cvtColor(np.ascontiguousarray(crops).reshape(count * height, width, 3),
                         cv2.COLOR_BGR2GRAY).reshape(count, height, width)[:, 8:-8, 6:-6]
    half_down, half_across = greys.shape[1] // 2, greys.shape[2] // 2
    quarters = [greys[:, rows, columns].reshape(count, 1, -1)
                for rows in (slice(0, half_down), slice(half_down, None))
                for columns in (slice(0, half_across), slice(half_across, None))]
    return np.percentile(np.concatenate(quarters, axis=1), 90, axis=2).min(axis=1) \
        .astype(np.float32)


def lit_faces(faces: np.ndarray) -> float:
    """The faces' brightness where the light falls: their 80th percentile."""
    return float(np.percentile(faces, 80))


def lit_face(faces: np.ndarray, bright_end: float) -> float:
    """How bright a face in the light would be: as the lit faces, or (when most tiles lie in
    the shadow, the lit faces among them) LIT_FACE_SHARE of the photo's bright end."""
    return max(lit_faces(faces), LIT_FACE_SHARE * bright_end)


def in_shadow(faces: np.ndarray, bright_end: float) -> bool:
    """Whether some of the tiles' ``faces`` (face_brightness, tiles lying wholly in the photo
    and read as tiles) is far darker than the lit faces (IN_SHADOW) or than the photo's
    ``bright_end`` (UNDER_BRIGHT_END)."""
    if len(faces) == 0:
        return False
    return bool(np.any((faces < IN_SHADOW * lit_faces(faces))
                       | (faces < UNDER_BRIGHT_END * bright_end)))


def table_light(image: np.ndarray, tile_height: float) -> tuple[np.ndarray, float]:
    """The table's level of light across ``image`` (tiles ``tile_height`` of its pixels tall,
    taken out by an opening and a closing), as a small map, and the map's scale."""
    height, width = image.shape[:2]
    scale = LIGHT_TILE_PIXELS / max(tile_height, 1.0)
    scale = float(np.clip(scale, LIGHT_SIDES[0] / max(height, width),
                          LIGHT_SIDES[1] / max(height, width)))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    grey = cv2.cvtColor(cv2.resize(image, size, interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2GRAY).astype(np.float32)
    across = max(3, round(LIGHT_DISC * tile_height * scale) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (across, across))
    table = cv2.morphologyEx(grey, cv2.MORPH_OPEN, disc, borderType=cv2.BORDER_REPLICATE)
    table = cv2.morphologyEx(table, cv2.MORPH_CLOSE, disc, borderType=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(table, (0, 0), 1.0), scale


def shaded_table(table: np.ndarray, scale: float, centres: np.ndarray) -> bool:
    """Whether a shadow over SHADED_SHARE of the photo or more (the table's level under
    IN_SHADOW of the lit table's, LIT_PERCENTILE, and not black: the border a turned photo is
    padded with) holds under half the share of the tiles read surely (``centres``, in pixels
    of the image the ``table`` map was made from at ``scale``) that its area would: a deep
    shadow hides its tiles from the detector, where a lamp's glare only lights part of a
    table whose tiles are read all over it."""
    lit = float(np.percentile(table, LIT_PERCENTILE))
    shade = (table < IN_SHADOW * lit) & (table >= NOT_BLACK)
    share = float(np.mean(shade))
    if share < SHADED_SHARE:
        return False
    if len(centres) == 0:
        return True
    height, width = table.shape
    columns = np.clip(np.round(centres[:, 0] * scale).astype(int), 0, width - 1)
    rows = np.clip(np.round(centres[:, 1] * scale).astype(int), 0, height - 1)
    return float(np.mean(shade[rows, columns])) < FEW_IN_SHADE * share


def light_map(image: np.ndarray, tile_height: float, outlines: list[np.ndarray],
              faces: np.ndarray, bright_end: float, *, reach: float | None = NEED_REACH
              ) -> LightMap:
    """The gain that lifts every part of the table to the lit table's level (LIT_PERCENTILE),
    measured on the table around the tiles (``tile_height`` pixels of ``image`` tall), and
    near each tile read held to what the nearest tile's face needs to be as bright as a lit
    face.

    The table's level alone takes a dark rack board or a dark mat for a shadow and would
    wash the tiles on it out; the faces, all of one plastic, say what is shade. Each tile's
    need (its face from ``faces`` to ``lit_face``; ``outlines`` in pixels of ``image``;
    ``bright_end`` the photo's) holds the gain, FACE_SLACK over it at most, wherever that
    tile is the nearest, up to ``reach`` tile heights from it (None: everywhere): further off
    (the tiles a deep shadow hid from the detector) the table's level alone says.
    """
    table, scale = table_light(image, tile_height)
    lit = float(np.percentile(table, LIT_PERCENTILE))
    gain = np.clip(lit / np.maximum(table, 1.0), 1.0, MOST_GAIN).astype(np.float32)
    level = lit_face(faces, bright_end) if len(faces) else LIT_FACE_SHARE * bright_end
    if not outlines:
        return LightMap(gain, level)
    need = np.clip(level / np.maximum(faces, 1.0), 1.0, MOST_GAIN)
    # every part of the photo near a tile takes the need of the tile nearest it
    tiles = np.zeros(table.shape, np.int32)
    for number, corners in enumerate(outlines, start=1):
        cv2.fillConvexPoly(tiles, np.round(corners * scale).astype(np.int32), number)
        column, row = np.clip(np.round(corners.mean(axis=0) * scale).astype(int), 0,
                              (table.shape[1] - 1, table.shape[0] - 1))
        tiles[row, column] = number  # a box under a pixel across still has its middle
    distance, nearest = cv2.distanceTransformWithLabels(
        (tiles == 0).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL)
    # DIST_LABEL_PIXEL numbers the tiles' pixels in raster order from 1
    tile_of_pixel = np.concatenate([[1], tiles[tiles > 0]])
    bound = np.maximum(need[tile_of_pixel[nearest] - 1] * FACE_SLACK, 1.0)
    if reach is not None:
        bound[distance > reach * tile_height * scale] = MOST_GAIN
    return LightMap(np.minimum(gain, bound.astype(np.float32)), level)
