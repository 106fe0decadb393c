"""Synthetic photos of Rummikub tiles on a table, with the answer known for every tile.

The photo reader is trained and measured on real photos plus these renders. A render lays the
sets of a table out as rows of touching tiles, draws each tile face (the classic design with a
bold number, or the current one with the number in a shallow circle and the embossed logo),
gives the tiles thickness and a shadow, then photographs the table: perspective, warm or cold
light, glare, blur, sensor noise and JPEG. Everything is drawn with cv2 (Hershey fonts) and
numpy, and every random choice comes from one ``numpy.random.Generator`` seeded by the caller,
so a seed always gives the same picture.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.core.tiles import (
    COPIES_OF_EACH_TILE,
    HIGHEST_NUMBER,
    LOWEST_NUMBER,
    Colour,
    JokerKind,
    Meld,
    Table,
    Tile,
)

DESIGNS = ("classic", "current")
# How the classic design's numbers may be printed: (stroke weight gain, width stretch,
# slant, thinning) of the Hershey duplex figures. Boxes of the classic design differ: heavy
# strokes that close the counters, condensed or wide figures, slanted or thin ones.
CLASSIC_FONTS: dict[str, tuple[float, float, float, float]] = {
    "duplex": (1.0, 1.0, 0.0, 0.0),
    "bold": (1.7, 1.1, 0.0, 0.0),
    "condensed": (1.5, 0.75, 0.0, 0.0),
    "slanted": (1.2, 1.0, 0.22, 0.0),
    "thin": (1.0, 0.9, 0.0, 0.09),
}
BACKGROUNDS = ("wood", "cloth", "dark", "white")
LIGHTS = ("neutral", "warm", "cold")
# Shadows a real table brings (``cast_shadow``): a soft-edged shadow of an arm or a phone held
# over the table, a hard-edged shadow line across a set (a lamp behind the player), and a side
# light falling off across the photo.
SHADOWS = ("soft", "hard", "side")
SHADOW_LIGHT = (0.25, 0.45)  # the light left in the shadow's darkest part

TILE_ASPECT = 26 / 36  # width / height of a real tile face (about 26 × 36 mm)
TILE_THICKNESS = 0.2  # thickness / height: what shows of the tile's side under a slant
JOKERS_IN_A_BOX = 2  # a standard box holds one red-faced and one black-faced joker

Point = tuple[float, float]
Outline = tuple[Point, Point, Point, Point]

# BGR inks, sampled by eye from the real photos.
INKS: dict[Colour, tuple[float, float, float]] = {
    Colour.BLACK: (40, 36, 34),
    Colour.RED: (42, 38, 200),
    Colour.BLUE: (200, 112, 20),
    Colour.ORANGE: (30, 135, 242),
}
JOKER_INKS = {"red": (45, 40, 205), "black": (40, 36, 34)}


@dataclass(frozen=True)
class RenderedTile:
    """Where one tile lies in a render.

    ``outline`` holds the four corners of the tile's face in image pixels, in the order
    top-left, top-right, bottom-right, bottom-left *of the face as printed* (so a tile lying
    upside down has its top-left corner at the bottom right of where it lies).
    """

    tile: Tile
    outline: Outline
    set_index: int
    position: int  # laid order within its set


@dataclass(frozen=True, eq=False)
class RenderedTable:
    """A synthetic table photo and its answer; ``light``, ``glare``, ``blur`` and
    ``perspective`` record the conditions the render was made under."""

    image: np.ndarray  # BGR uint8
    tiles: tuple[RenderedTile, ...]
    table: Table
    design: str
    background: str
    light: str = "neutral"
    glare: bool = False
    blur: float = 0.0
    perspective: float = 0.0


# ---------------------------------------------------------------------------------- tables


def random_table(rng: np.random.Generator, *, min_sets: int = 1, max_sets: int = 5) -> Table:
    """A random table: mostly legal runs and groups, some illegal ones, regular jokers.

    No tile appears more often than the box holds it and there are at most two jokers, so
    every table could be laid with one real box.
    """
    if not 1 <= min_sets <= max_sets:
        raise ValueError(f"need 1 <= min_sets <= max_sets, got {min_sets} and {max_sets}")
    counts: Counter[Tile] = Counter()
    melds: list[Meld] = []
    for _ in range(int(rng.integers(min_sets, max_sets + 1))):
        for _attempt in range(30):
            meld = _random_meld(rng, jokers_left=JOKERS_IN_A_BOX - counts[Tile.of_joker()])
            trial = counts + Counter(meld)
            if all(n <= (JOKERS_IN_A_BOX if t.is_joker else COPIES_OF_EACH_TILE)
                   for t, n in trial.items()):
                counts = trial
                melds.append(meld)
                break
    return tuple(melds)


def _random_meld(rng: np.random.Generator, *, jokers_left: int) -> Meld:
    colours = list(Colour)
    kind = rng.choice(["run", "group", "broken run", "broken group", "pair"],
                      p=[0.42, 0.33, 0.1, 0.1, 0.05])
    tiles: list[Tile]
    if kind in ("run", "broken run"):
        length = int(rng.integers(3, 7)) if rng.random() < 0.85 else int(rng.integers(7, 11))
        start = int(rng.integers(LOWEST_NUMBER, HIGHEST_NUMBER - length + 2))
        colour = colours[int(rng.integers(4))]
        tiles = [Tile.numbered(colour, n) for n in range(start, start + length)]
        if kind == "broken run":
            if rng.random() < 0.5 and length > 3:
                del tiles[int(rng.integers(1, length - 1))]  # a gap in the numbers
            else:
                i = int(rng.integers(length))
                other = colours[(colours.index(colour) + int(rng.integers(1, 4))) % 4]
                tiles[i] = Tile.numbered(other, start + i)  # one tile of another colour
    elif kind in ("group", "broken group"):
        number = int(rng.integers(LOWEST_NUMBER, HIGHEST_NUMBER + 1))
        order = rng.permutation(4)[: int(rng.integers(3, 5))]
        tiles = [Tile.numbered(colours[int(i)], number) for i in order]
        if kind == "broken group":
            i = int(rng.integers(len(tiles)))
            if rng.random() < 0.5:
                tiles[i] = tiles[(i + 1) % len(tiles)]  # a colour twice
            else:
                off = number + 1 if number < HIGHEST_NUMBER else number - 1
                tiles[i] = Tile.numbered(tiles[i].colour or Colour.BLACK, off)
    else:
        tiles = [Tile.numbered(colours[int(rng.integers(4))], int(rng.integers(1, 14)))
                 for _ in range(2)]
    if jokers_left and len(tiles) >= 3 and rng.random() < 0.3:
        # A joker stands in for a tile, or extends the set at an end, so a legal set stays
        # legal: "broken" sets are the only illegal ones.
        if rng.random() < 0.6:
            tiles[int(rng.integers(len(tiles)))] = Tile.of_joker()
        elif kind == "run" and tiles[0].number != LOWEST_NUMBER and rng.random() < 0.5:
            tiles.insert(0, Tile.of_joker())
        elif ((kind != "run" or tiles[-1].number != HIGHEST_NUMBER)
              and not (kind == "group" and len(tiles) == 4)):
            tiles.append(Tile.of_joker())
    return tuple(tiles)


# ---------------------------------------------------------------------------------- faces


@lru_cache(maxsize=512)
def _glyph(text: str, font: int, weight: float) -> np.ndarray:
    """White-on-black mask of ``text``, cropped tight; drawn big once, resized when pasted.

    Hershey fonts slash their zero; tiles print a plain oval, so a ``0`` is drawn as one.
    """
    if text.isdigit() and len(text) > 1:
        parts = [_glyph(ch, font, weight) for ch in text]
        height = max(p.shape[0] for p in parts)
        gap = max(2, height // 14)
        row = np.zeros((height, sum(p.shape[1] for p in parts) + gap * (len(parts) - 1)),
                       np.uint8)
        x = 0
        for part in parts:
            row[height - part.shape[0]:, x: x + part.shape[1]] = part
            x += part.shape[1] + gap
        return row
    scale = 4.0
    thickness = max(1, round(weight * 20))
    if text == "0":
        one = _glyph("8", font, weight)
        h, w = one.shape
        canvas = np.zeros((h, w), np.uint8)
        half = thickness / 2
        cv2.ellipse(canvas, (w // 2, h // 2), (round(w / 2 - half), round(h / 2 - half)), 0, 0,
                    360, 255, thickness, cv2.LINE_AA)
        return canvas
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    pad = thickness + 8
    canvas = np.zeros((h + base + 2 * pad, w + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + h), font, scale, 255, thickness, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    return canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def _printed(glyph: np.ndarray, stretch: float, slant: float, thinning: float) -> np.ndarray:
    """A glyph mask made wider or narrower, slanted (x moves by ``slant`` × height) and thinned
    (its strokes worn by ``thinning`` × height)."""
    height = glyph.shape[0]
    if thinning > 0:
        size = max(3, round(thinning * height) | 1)
        glyph = cv2.erode(glyph, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    if slant:
        shift = round(slant * height)
        sheared = np.float32([[1, -slant, shift], [0, 1, 0]])
        glyph = cv2.warpAffine(glyph, sheared, (glyph.shape[1] + shift, height))
    if stretch != 1.0:
        glyph = cv2.resize(glyph, (max(1, round(glyph.shape[1] * stretch)), height),
                           interpolation=cv2.INTER_AREA)
    return glyph


def _paste(face: np.ndarray, mask: np.ndarray, centre: Point, height: float, max_width: float,
           colour: tuple[float, float, float] | np.ndarray, opacity: float = 1.0) -> None:
    """Blend a glyph mask in ``colour`` onto ``face`` (float32), fitted to the box."""
    mh, mw = mask.shape
    h = max(2, round(height))
    w = max(2, round(min(mw * h / mh, max_width)))
    glyph = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    fh, fw = face.shape[:2]
    gx0, gy0 = max(0, -x0), max(0, -y0)
    x0c, y0c = max(0, x0), max(0, y0)
    x1c, y1c = min(fw, x0 + w), min(fh, y0 + h)
    if x1c <= x0c or y1c <= y0c:
        return
    alpha = glyph[gy0: gy0 + y1c - y0c, gx0: gx0 + x1c - x0c, None] * (opacity / 255.0)
    region = face[y0c:y1c, x0c:x1c]
    region *= 1.0 - alpha
    region += alpha * np.asarray(colour, np.float32)


def _draw_joker(face: np.ndarray, centre: Point, radius: float,
                ink: tuple[float, float, float]) -> None:
    """A joker's face, drawn as the real tiles print it: a round face with eyes and a grin."""
    cx, cy, r = centre[0], centre[1], radius
    line = max(2, round(r * 0.11))

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return round(cx + dx * r), round(cy + dy * r)

    cv2.circle(face, pt(0, 0), round(r), ink, line, cv2.LINE_AA)
    for side in (-1, 1):
        cv2.ellipse(face, pt(side * 0.34, -0.22), (round(r * 0.12), round(r * 0.18)), 0, 0, 360,
                    ink, -1, cv2.LINE_AA)
        cv2.ellipse(face, pt(side * 0.34, -0.5), (round(r * 0.2), round(r * 0.1)), 0, 200, 340,
                    ink, max(1, line // 2), cv2.LINE_AA)
        cv2.circle(face, pt(side * 0.6, 0.22), round(r * 0.1), ink, max(1, line // 2),
                   cv2.LINE_AA)  # cheeks
    cv2.circle(face, pt(0, 0.05), round(r * 0.1), ink, -1, cv2.LINE_AA)
    cv2.ellipse(face, pt(0, 0.12), (round(r * 0.5), round(r * 0.45)), 0, 15, 165, ink, line,
                cv2.LINE_AA)


_CREAM = {"classic": (208.0, 230.0, 240.0), "current": (214.0, 234.0, 240.0)}
_SUPERSAMPLE = 2  # faces are drawn at twice the size and shrunk, so edges are smooth


def _number_centre(design: str, w: int, h: int) -> Point:
    return (w * 0.5, h * 0.43) if design == "classic" else (w * 0.5, h * 0.40)


@lru_cache(maxsize=32)
def _blank(design: str, w: int, h: int) -> np.ndarray:
    """A face without its number, in the design's reference cream: rim, dish and logo.

    Cached because a table has many tiles of the same size; callers must not modify it.
    """
    cream = np.array(_CREAM[design], np.float32)
    face = np.empty((h, w, 3), np.float32)
    face[:] = cream
    face *= np.linspace(1.03, 0.95, h, dtype=np.float32)[:, None, None]

    # The rounded rim: darker towards the edges, lit a little more at the top left.
    rim = max(2, round(w * (0.07 if design == "classic" else 0.06)))
    inner: np.ndarray = np.zeros((h, w), np.float32)
    cv2.rectangle(inner, (rim, rim), (w - 1 - rim, h - 1 - rim), 1.0, -1)
    offset = max(1, rim // 3)
    inner = cv2.GaussianBlur(inner, (0, 0), rim * 0.5)
    lit = np.roll(inner, (-offset, -offset), axis=(0, 1))
    face *= (0.78 + 0.16 * inner + 0.06 * lit)[..., None]
    if design == "current":
        # The shallow dish around the number: its upper wall in shade, its lower wall lit.
        centre = _number_centre(design, w, h)
        radius = w * 0.39
        dish = np.zeros((h, w), np.float32)
        cv2.circle(dish, (round(centre[0]), round(centre[1])), round(radius), 1.0, -1,
                   cv2.LINE_AA)
        shift = max(1, round(radius * 0.06))
        upper = np.roll(dish, (-shift, -shift), axis=(0, 1))
        blur = max(1.0, radius * 0.04)
        shadow = cv2.GaussianBlur(np.clip(dish - upper, 0, 1), (0, 0), blur)
        light = cv2.GaussianBlur(np.clip(upper - dish, 0, 1), (0, 0), blur)
        face *= (1.0 + 0.03 * dish - 0.15 * shadow)[..., None]
        face += (14.0 * light)[..., None]
        # The embossed logo: the same cream, told apart only by its edges' light and shade.
        logo = _glyph("Rummikub", cv2.FONT_HERSHEY_TRIPLEX, 0.35)
        at = (w * 0.5, h * 0.82)
        e = max(1.0, h * 0.006)
        size = (h * 0.1, w * 0.68)
        _paste(face, logo, (at[0] + e, at[1] + e), *size, cream * 0.75, 0.6)
        _paste(face, logo, (at[0] - e, at[1] - e), *size, np.minimum(cream * 1.08, 255), 0.6)
        _paste(face, logo, at, *size, cream * np.array((0.74, 0.85, 0.93), np.float32), 0.75)
    face.flags.writeable = False
    return face


def _plastic(rng: np.random.Generator) -> np.ndarray:
    """The colour of one box's tiles, from near white to cream, relative to the design's."""
    cream = float(rng.uniform(0, 1))
    return (np.array((1.04, 1.01, 0.99), np.float32) * (1 - cream)
            + np.array((0.96, 0.99, 1.0), np.float32) * cream)


def _face(tile: Tile, design: str, width: int, height: int, rng: np.random.Generator,
          joker_ink: str, plastic: np.ndarray, font: str = "duplex") -> np.ndarray:
    """One upright tile face, ``height`` × ``width`` BGR uint8, in the box's ``plastic``;
    ``font`` (CLASSIC_FONTS) is how the classic design prints its numbers."""
    if tile.joker is not None and tile.joker is not JokerKind.REGULAR:
        raise ValueError(f"{tile} ({tile.words}): only regular jokers can be drawn")
    w, h = width * _SUPERSAMPLE, height * _SUPERSAMPLE
    tint = plastic * float(rng.uniform(0.97, 1.02)) + rng.normal(0, 0.005, 3).astype(np.float32)
    face = _blank(design, w, h) * tint
    x, y = _number_centre(design, w, h)
    centre = (x + float(rng.normal(0, 0.006 * w)), y + float(rng.normal(0, 0.005 * h)))
    classic = design == "classic"
    if tile.joker is not None:
        _draw_joker(face, centre, w * (0.3 if classic else 0.27), JOKER_INKS[joker_ink])
    else:
        assert tile.colour is not None and tile.number is not None
        ink = INKS[tile.colour]
        text = str(tile.number)
        weight = round(float(rng.uniform(0.85, 1.1)) * 20) / 20  # a few weights: glyphs cache
        if classic:
            gain, stretch, slant, thinning = CLASSIC_FONTS[font]
            glyph = _printed(_glyph(text, cv2.FONT_HERSHEY_DUPLEX,
                                    round(weight * gain * 20) / 20), stretch, slant, thinning)
            _paste(face, glyph, centre, h * 0.42,
                   w * (0.72 if len(text) > 1 else 0.6) * max(1.0, stretch), ink)
        else:
            glyph = _glyph(text, cv2.FONT_HERSHEY_SIMPLEX, weight)
            _paste(face, glyph, centre, h * 0.29, w * (0.6 if len(text) > 1 else 0.42), ink)
    out = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    return np.clip(out, 0, 255).astype(np.uint8)


def render_tile(tile: Tile, *, design: str, size: tuple[int, int] = (120, 160),
                rng: np.random.Generator) -> np.ndarray:
    """One upright tile face filling a ``size`` (width, height) BGR image, for classifiers.

    A joker gets a red or a black face at random; cream, ink weight and placement vary a
    little from draw to draw, as printed tiles do.
    """
    _check_design(design)
    width, height = size
    joker_ink = "red" if rng.random() < 0.5 else "black"
    return _face(tile, design, width, height, rng, joker_ink, _plastic(rng))


def _check_design(design: str) -> None:
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {', '.join(DESIGNS)}, not {design!r}")


# ---------------------------------------------------------------------------------- tables


def _smooth_noise(rng: np.random.Generator, rows: int, cols: int, width: int,
                  height: int) -> np.ndarray:
    """Noise in [0, 1] (about): ``rows`` × ``cols`` random values stretched to the picture, so
    an uneven grid gives streaks along the short side."""
    small = rng.random((max(2, rows), max(2, cols)), dtype=np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def _tinted(tone: np.ndarray, base: np.ndarray) -> np.ndarray:
    return cv2.merge([tone * np.float32(c) for c in base])


def _wood(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    along_y = rng.random() < 0.4
    w, h = (height, width) if along_y else (width, height)  # the grain runs along x of (w, h)
    browns = [(38, 64, 104), (52, 92, 142), (96, 150, 196), (30, 46, 72), (70, 112, 162)]
    base = np.array(browns[int(rng.integers(len(browns)))], np.float32)
    base *= float(rng.uniform(0.9, 1.1))
    y = np.arange(h, dtype=np.float32)[:, None]
    wobble = _smooth_noise(rng, 5, 4, w, h) * float(rng.uniform(2, 6))
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (y / float(rng.uniform(25, 90)) + wobble))
    streaks = _smooth_noise(rng, h // 3, 20, w, h)
    fibres = _smooth_noise(rng, h // 2, 40, w, h)
    tone = 0.8 + 0.12 * rings + 0.2 * (streaks - 0.5) + 0.1 * (fibres - 0.5)
    plank = float(rng.uniform(0.2, 0.5)) * h
    for seam in np.arange(float(rng.uniform(0, plank)), h, plank):
        tone[int(seam): int(seam) + 2] *= 0.6
    image = _tinted(tone, base)
    return np.ascontiguousarray(image.transpose(1, 0, 2)) if along_y else image


def _cloth(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    # (colour, streakiness): plain felts, and woven throws with dark streaks in the yarn.
    cloths = [((196, 198, 200), 0.5), ((60, 112, 42), 0.04), ((110, 70, 40), 0.06),
              ((150, 180, 200), 0.2), ((70, 70, 150), 0.05), ((128, 126, 124), 0.35)]
    colour, tweed = cloths[int(rng.integers(len(cloths)))]
    base = np.array(colour, np.float32)
    period = float(rng.uniform(3.5, 12.0))
    x = np.arange(width, dtype=np.float32)
    y = np.arange(height, dtype=np.float32)
    weave = np.sin(2 * np.pi * y / period)[:, None] * np.sin(2 * np.pi * x / period)[None, :]
    streaks = _smooth_noise(rng, height // 25, width // 4, width, height)
    fine = _smooth_noise(rng, height // 2, width // 2, width, height)
    tone = 0.85 + 0.12 * weave + tweed * (streaks - 0.5) * 2 + 0.1 * (fine - 0.5)
    return _tinted(np.clip(tone, 0.15, 1.2), base)


def _dark(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    colours = [(28, 28, 30), (22, 26, 34), (36, 33, 30), (18, 18, 18), (40, 40, 40)]
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    low = _smooth_noise(rng, 4, 6, width, height)
    fine = _smooth_noise(rng, height // 2, width // 2, width, height)
    tone = 0.85 + 0.35 * (low - 0.5) + 0.2 * (fine - 0.5)
    return _tinted(tone, base)


def _white(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    colours = [(236, 236, 234), (226, 230, 232), (240, 238, 236), (218, 222, 224)]
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    low = _smooth_noise(rng, 4, 6, width, height)
    tone = 1.0 - 0.06 * low
    if rng.random() < 0.6:  # marble: a few long grey veins wandering across, fading in and out
        angle = float(rng.uniform(0, np.pi))
        x = np.arange(width, dtype=np.float32)[None, :] * math.cos(angle)
        y = np.arange(height, dtype=np.float32)[:, None] * math.sin(angle)
        wander = (0.9 * _smooth_noise(rng, 4, 5, width, height)
                  + 0.25 * _smooth_noise(rng, 12, 16, width, height))
        field = (x + y) / (float(rng.uniform(0.3, 0.7)) * max(width, height)) + wander
        veins = np.exp(-(np.sin(np.pi * field) / float(rng.uniform(0.03, 0.08))) ** 2)
        fade = np.clip(_smooth_noise(rng, 5, 6, width, height) * 1.6 - 0.3, 0, 1)
        tone -= float(rng.uniform(0.12, 0.3)) * veins * fade
    return _tinted(tone, base)


_BACKGROUND_MAKERS = {"wood": _wood, "cloth": _cloth, "dark": _dark, "white": _white}


def _rotate(points: np.ndarray, degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    turned: np.ndarray = points @ turn.T
    return turned


@dataclass(frozen=True)
class _Laid:
    tile: Tile
    set_index: int
    position: int
    corners: np.ndarray  # 4 × 2, table plane, face order TL TR BR BL


def _lay_out(table: Table, width: int, height: int, rng: np.random.Generator,
             base_angle: float, upside_down_chance: float, fill: float | None = None
             ) -> list[_Laid]:
    """Rows of nearly touching tiles, one row per set, sets apart and all inside the picture.

    Tries a tile size that fills part of the picture and shrinks it until everything fits.
    """
    count = sum(len(meld) for meld in table)
    if count == 0:
        return []
    turns = []
    for meld in table:
        row = []
        for _ in meld:
            r = rng.random()
            sideways = 90 if rng.random() < 0.5 else 270
            row.append(180 if r < upside_down_chance else
                       sideways if r < upside_down_chance * 1.3 else 0)
        turns.append(row)
    drawn_fill = float(rng.uniform(0.05, 0.28))
    fill = drawn_fill if fill is None else fill
    tidy = bool(rng.random() < 0.5)
    tile_height = min(math.sqrt(fill * width * height / (count * TILE_ASPECT)), height * 0.3)
    while tile_height >= 10:
        laid = _try_lay_out(table, turns, tile_height, width, height, rng, base_angle, tidy)
        if laid is not None:
            return laid
        tile_height *= 0.93
    raise ValueError(f"{count} tiles in {len(table)} sets do not fit in {width}×{height}")


def _try_lay_out(table: Table, turns: list[list[int]], th: float, width: int, height: int,
                 rng: np.random.Generator, base_angle: float, tidy: bool) -> list[_Laid] | None:
    """One attempt at a given tile height; None when the sets do not fit.

    ``tidy`` lays the sets in rows the way players keep a table; otherwise they are
    scattered, a few at their own angle.
    """
    tw = th * TILE_ASPECT
    margin = th * 0.35 + 4  # room for the tile's side and shadow
    cell = 4  # occupancy is kept on a coarse grid
    occupied = np.zeros((height // cell + 2, width // cell + 2), np.uint8)
    upright = np.array([(-tw / 2, -th / 2), (tw / 2, -th / 2), (tw / 2, th / 2),
                        (-tw / 2, th / 2)])
    order = list(range(len(table))) if tidy else sorted(range(len(table)),
                                                        key=lambda i: -len(table[i]))
    rows = _Rows(width, height, base_angle, th, rng) if tidy else None
    laid: list[_Laid] = []
    for set_index in order:
        meld = table[set_index]
        slots = [tw if turn in (0, 180) else th for turn in turns[set_index]]
        gap = tw * float(rng.uniform(0.01, 0.06))
        length = sum(slots) + gap * (len(slots) - 1)
        apart = rows.apart if rows is not None else th * float(rng.uniform(0.3, 0.7)) / 2
        if rows is not None:
            angle = base_angle + float(rng.normal(0, 1.5))
        elif rng.random() < (0.6 if len(meld) == 1 else 0.15):  # loose tiles lie any way
            angle = float(rng.uniform(-180, 180))
        else:
            angle = base_angle + float(rng.normal(0, 3))
        box = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * (length / 2 + apart, th / 2 + apart)
        box = _rotate(box, angle)
        reach_x = np.abs(box[:, 0]).max() - apart + margin
        reach_y = np.abs(box[:, 1]).max() - apart + margin
        if 2 * reach_x >= width or 2 * reach_y >= height:
            return None
        for _attempt in range(1 if rows else 80):
            if rows is not None:
                centre = rows.next_centre(length)
                if not (reach_x <= centre[0] <= width - reach_x
                        and reach_y <= centre[1] <= height - reach_y):
                    return None
            else:
                centre = np.array((rng.uniform(reach_x, width - reach_x),
                                   rng.uniform(reach_y, height - reach_y)))
            candidate = np.zeros_like(occupied)
            cv2.fillConvexPoly(candidate, np.round((box + centre) / cell).astype(np.int32), 1)
            if not np.any(candidate & occupied):
                occupied |= candidate
                break
        else:
            return None
        x = -length / 2
        for position, (tile, slot, turn) in enumerate(zip(meld, slots, turns[set_index])):
            offset = _rotate(np.array([[x + slot / 2, 0.0]]), angle)[0]
            corners = _rotate(upright, angle + turn) + centre + offset
            laid.append(_Laid(tile, set_index, position, corners))
            x += slot + gap
    laid.sort(key=lambda t: (t.set_index, t.position))
    return laid


class _Rows:
    """Hands out set centres row by row, in a frame turned by ``angle`` about the middle of
    the picture, starting near the top left of that frame."""

    def __init__(self, width: int, height: int, angle: float, th: float,
                 rng: np.random.Generator) -> None:
        a = math.radians(angle)
        cos, sin = abs(math.cos(a)), abs(math.sin(a))
        # The largest frame of the picture's proportions that fits when turned.
        fit = min(width / (width * cos + height * sin), height / (width * sin + height * cos))
        self.frame = (width * fit * 0.9, height * fit * 0.9)
        self.middle = np.array((width / 2, height / 2))
        self.angle = angle
        self.th = th
        self.rng = rng
        self.apart = th * float(rng.uniform(0.3, 0.6)) / 2  # half the space between sets
        self.line_gap = 2 * self.apart + th * float(rng.uniform(0.05, 0.4))
        self.x = -self.frame[0] / 2 + float(rng.uniform(0, 0.1)) * self.frame[0]
        self.y = -self.frame[1] / 2 + float(rng.uniform(0, 0.15)) * self.frame[1]

    def next_centre(self, length: float) -> np.ndarray:
        if self.x + length > self.frame[0] / 2 and self.x > -self.frame[0] / 2 + self.th:
            self.x = -self.frame[0] / 2 + float(self.rng.uniform(0, 0.08)) * self.frame[0]
            self.y += self.th + self.line_gap
        local = np.array((self.x + length / 2, self.y + self.th / 2))
        self.x += length + 2.2 * self.apart + float(self.rng.uniform(0, 1.5)) * self.th
        return np.asarray(self.middle + _rotate(local[None, :], self.angle)[0])


def _camera(width: int, height: int, rng: np.random.Generator,
            slant: float) -> tuple[np.ndarray, np.ndarray]:
    """The homography from the table plane to the photo for a camera tilted by ``slant``
    (0 = straight from above), and the image direction pointing towards the camera (where
    the tiles' sides show)."""
    near = 0.5 * slant
    squash = 0.18 * slant
    a, b = near * float(rng.uniform(0.6, 1.0)), near * float(rng.uniform(0.6, 1.0))
    plane = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    photo = [(a, squash), (1.0 - b, squash), (1.0, 1.0), (0.0, 1.0)]
    far_side = int(rng.choice(4, p=[0.7, 0.1, 0.1, 0.1]))  # top, bottom, left, right
    mirrors: list[Callable[[float, float], Point]] = [
        lambda x, y: (x, y), lambda x, y: (x, 1 - y), lambda x, y: (y, x),
        lambda x, y: (1 - y, x)]
    mirror = mirrors[far_side]
    towards = np.array([(0, 1), (0, -1), (1, 0), (-1, 0)][far_side], np.float64)
    size = np.array((width, height), np.float32)
    src = np.array([mirror(*p) for p in plane], np.float32) * size
    dst = np.array([mirror(*p) for p in photo], np.float32) * size
    return cv2.getPerspectiveTransform(src, dst), towards


@lru_cache(maxsize=64)
def _rounded(width: int, height: int) -> np.ndarray:
    """Coverage of a tile face with rounded corners, as the real tiles are moulded."""
    r = max(1, round(width * 0.08))
    mask = np.zeros((height, width), np.float32)
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 1.0, -1)
    for x, y in ((r, r), (width - 1 - r, r), (width - 1 - r, height - 1 - r), (r, height - 1 - r)):
        cv2.circle(mask, (x, y), r, 1.0, -1, cv2.LINE_AA)
    mask.flags.writeable = False
    return mask


def _blend_face(image: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Warp an upright face onto ``quad`` (TL TR BR BL) of ``image`` (float32), with soft edges."""
    fh, fw = face.shape[:2]
    height, width = image.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (width, height))
    src = np.array([(-0.5, -0.5), (fw - 0.5, -0.5), (fw - 0.5, fh - 0.5), (-0.5, fh - 0.5)],
                   np.float32)
    warp = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    with_alpha = np.dstack([face.astype(np.float32), _rounded(fw, fh)])
    warped = cv2.warpPerspective(with_alpha, warp, size, flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:]
    region = image[y0:y1, x0:x1]
    region += alpha * (warped[..., :3] - region)


def render_table(table: Table, *, seed: int, design: str | None = None,
                 background: str | None = None, size: tuple[int, int] = (1280, 960),
                 light: str | None = None, glare: bool | None = None, blur: float | None = None,
                 perspective: float | None = None, rotation_deg: float | None = None,
                 upside_down_chance: float = 0.1, font: str = "duplex",
                 fill: float | None = None, depth_of_field: float = 0.0,
                 shadow: str | None = None) -> RenderedTable:
    """A photo of ``table`` (sets of tiles) lying on a table, with every tile's outline.

    Each option left as None is drawn at random from ``seed``. ``perspective`` is the camera's
    slant (0 straight from above, 0.4 strongly slanted), ``rotation_deg`` turns the whole
    layout, ``blur`` is a Gaussian sigma in pixels. The same arguments give the same picture.
    ``font`` is how the classic design prints its numbers (CLASSIC_FONTS), ``fill`` the share
    of the photo the tiles cover (about 0.05–0.28 when drawn; 0.4 and more is a close-up),
    ``depth_of_field`` the blur (sigma in pixels) of the part of the photo farthest from the
    sharp band across it (a close-up focused on one spot), ``shadow`` one of SHADOWS cast
    across the tiles (``cast_shadow``; None: no shadow).
    """
    width, height = size
    if width < 64 or height < 64:
        raise ValueError(f"size must be at least 64×64, not {width}×{height}")
    for set_number, meld in enumerate(table, start=1):
        if not meld:
            raise ValueError(f"set {set_number} is empty")
    if not 0 <= upside_down_chance <= 1:
        raise ValueError("upside_down_chance is a probability between 0 and 1")
    rng = np.random.default_rng(seed)
    # Every option is drawn even when given, so fixing one does not reshuffle the others.
    drawn_design = str(rng.choice(DESIGNS))
    drawn_background = str(rng.choice(BACKGROUNDS))
    drawn_light = str(rng.choice(LIGHTS, p=[0.4, 0.35, 0.25]))
    drawn_glare = bool(rng.random() < 0.25)
    drawn_blur = 0.0 if rng.random() < 0.6 else float(rng.uniform(0.5, 2.2))
    drawn_slant = float(rng.uniform(0, 0.05) if rng.random() < 0.4 else rng.uniform(0.05, 0.4))
    pick = rng.random()
    drawn_rotation = float(rng.normal(0, 8) if pick < 0.6 else rng.uniform(-180, 180)
                           if pick < 0.85 else rng.choice([90, 180, 270]) + rng.normal(0, 5))
    design = drawn_design if design is None else design
    background = drawn_background if background is None else background
    light = drawn_light if light is None else light
    glare = drawn_glare if glare is None else glare
    blur = drawn_blur if blur is None else float(blur)
    slant = drawn_slant if perspective is None else float(perspective)
    rotation = drawn_rotation if rotation_deg is None else float(rotation_deg)
    _check_design(design)
    if background not in BACKGROUNDS:
        raise ValueError(f"background must be one of {', '.join(BACKGROUNDS)}, not {background!r}")
    if light not in LIGHTS:
        raise ValueError(f"light must be one of {', '.join(LIGHTS)}, not {light!r}")
    if font not in CLASSIC_FONTS:
        raise ValueError(f"font must be one of {', '.join(CLASSIC_FONTS)}, not {font!r}")
    if blur < 0 or depth_of_field < 0 or not 0 <= slant <= 0.6:
        raise ValueError("blur must be >= 0 and perspective between 0 and 0.6")
    if shadow is not None and shadow not in SHADOWS:
        raise ValueError(f"shadow must be one of {', '.join(SHADOWS)}, not {shadow!r}")

    # Tables are drawn at half size: their texture is soft, and it saves a third of the time.
    small = _BACKGROUND_MAKERS[background](width // 2, height // 2, rng).astype(np.float32)
    image = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    laid = _lay_out(table, width, height, rng, rotation, upside_down_chance, fill)
    camera, towards = _camera(width, height, rng, slant)
    if slant > 0:
        image = cv2.warpPerspective(image, camera, (width, height),
                                    borderMode=cv2.BORDER_REFLECT_101)
    quads = [cv2.perspectiveTransform(t.corners.reshape(-1, 1, 2), camera).reshape(4, 2)
             for t in laid]
    _draw_tiles(image, laid, quads, rng, design=design, slant=slant, towards=towards, font=font)
    if depth_of_field > 0:
        # drawn from their own generator, so renders without it stay as they were
        image = _out_of_focus(image, np.random.default_rng([seed, 1]), depth_of_field)
    if shadow is not None:
        # also from a generator of its own: the renders without a shadow stay as they were
        cast_shadow(image, np.random.default_rng([seed, 2]), shadow,
                    np.concatenate(quads) if quads else np.zeros((0, 2), np.float32))
    image = _photograph(image, rng, light=light, glare=glare, blur=blur)
    rendered = tuple(
        RenderedTile(tile=t.tile, outline=_outline(q), set_index=t.set_index,
                     position=t.position)
        for t, q in zip(laid, quads))
    return RenderedTable(image=image, tiles=rendered, table=tuple(tuple(m) for m in table),
                         design=design, background=background, light=light, glare=glare,
                         blur=blur, perspective=slant)


def _outline(quad: np.ndarray) -> Outline:
    tl, tr, br, bl = ((float(x), float(y)) for x, y in quad)
    return (tl, tr, br, bl)


def _draw_tiles(image: np.ndarray, laid: list[_Laid], quads: list[np.ndarray],
                rng: np.random.Generator, *, design: str, slant: float,
                towards: np.ndarray, font: str = "duplex") -> None:
    """Shadows on the table, the tiles' sides that face the camera, then the faces."""
    if not laid:
        return
    height, width = image.shape[:2]
    tile_sizes = [float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
                  for q in quads]
    sides = [towards * s * TILE_THICKNESS * (0.15 + 1.3 * slant) for s in tile_sizes]
    light_angle = float(rng.uniform(0, 2 * np.pi))
    reach = float(rng.uniform(0.03, 0.1))
    quarter = 4  # the shadow is soft, so it is drawn at a quarter size
    shade: np.ndarray = np.zeros((height // quarter + 1, width // quarter + 1), np.float32)
    for quad, side, s in zip(quads, sides, tile_sizes):
        cast = np.array((math.cos(light_angle), math.sin(light_angle))) * s * reach
        hull = cv2.convexHull(np.vstack([quad, quad + side, quad + side + cast])
                              .astype(np.float32))
        cv2.fillConvexPoly(shade, np.round(hull * 16 / quarter).astype(np.int32), 1.0,
                           cv2.LINE_AA, shift=4)
    softness = max(0.5, float(np.mean(tile_sizes)) * 0.07 / quarter)
    shade = cv2.GaussianBlur(shade, (0, 0), softness)
    darkness = float(rng.uniform(0.3, 0.55))
    cv2.multiply(image, _full_size(1.0 - darkness * shade, width, height), dst=image)

    side_colour = np.array((170, 190, 200), np.float32) * float(rng.uniform(0.85, 1.05))
    for quad, side in zip(quads, sides):
        hull = cv2.convexHull(np.vstack([quad, quad + side]).astype(np.float32))
        cv2.fillConvexPoly(image, np.round(hull * 16).astype(np.int32),
                           side_colour.tolist(), cv2.LINE_AA, shift=4)

    plastic = _plastic(rng)
    joker_inks = ["red", "black"] if rng.random() < 0.5 else ["black", "red"]
    jokers_seen = 0
    for placed, quad, s in zip(laid, quads, tile_sizes):
        ink = joker_inks[jokers_seen % 2]
        jokers_seen += placed.tile.is_joker
        face_height = int(np.clip(round(s * 1.25 / 4) * 4, 24, 220))  # steps of 4: cached
        face = _face(placed.tile, design, round(face_height * TILE_ASPECT), face_height,
                     rng, ink, plastic, font)
        _blend_face(image, face, quad)


def _full_size(small: np.ndarray, width: int, height: int,
               channels: Sequence[float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """A smooth one-channel map drawn small, as a full-size three-channel map (times
    ``channels``): cv2 scales three-channel images far faster than numpy broadcasts."""
    merged = cv2.merge([small * np.float32(c) for c in channels])
    return cv2.resize(merged, (width, height), interpolation=cv2.INTER_LINEAR)


def cast_shadow(image: np.ndarray, rng: np.random.Generator, kind: str,
                tiles: np.ndarray) -> None:
    """Darken ``image`` (float32, in place) by a shadow of ``kind`` (SHADOWS) falling across
    ``tiles`` (their corners, N × 2): the light left in its darkest part is SHADOW_LIGHT.

    ``soft``: an arm reaching in from one side of the photo with a hand or a phone at its end,
    over the tiles, its edge blurred (2–5% of the photo). ``hard``: a straight shadow line
    through the tiles' middle part at any angle (a penumbra of a pixel or two), dark on one
    side. ``side``: the light falling off across the photo from one side to the other, faster
    or slower. The shade is a touch bluer than the light (lit by the room, not the lamp).
    """
    height, width = image.shape[:2]
    light = float(rng.uniform(*SHADOW_LIGHT))
    if len(tiles):
        low, high = tiles.min(axis=0), tiles.max(axis=0)
        target = low + (high - low) * rng.uniform(0.3, 0.7, 2)
        if kind == "hard":  # through a tile, so the line cuts across its set
            target = tiles[4 * int(rng.integers(len(tiles) // 4)):][:4].mean(axis=0)
    else:
        target = np.array((width, height), np.float64) * rng.uniform(0.3, 0.7, 2)
    shade = np.zeros((height, width), np.float32)
    if kind == "soft":
        side = int(rng.integers(4))  # the arm comes in from the left, top, right or bottom
        entry = {0: (0.0, rng.uniform(0.2, 0.8) * height),
                 1: (rng.uniform(0.2, 0.8) * width, 0.0),
                 2: (float(width), rng.uniform(0.2, 0.8) * height),
                 3: (rng.uniform(0.2, 0.8) * width, float(height))}[side]
        start, end = np.array(entry, np.float64), np.asarray(target, np.float64)
        along = end - start
        along /= max(float(np.linalg.norm(along)), 1.0)
        across = np.array((-along[1], along[0]))
        arm = min(width, height) * float(rng.uniform(0.1, 0.18)) / 2
        outward = start - along * arm * 3
        cv2.fillConvexPoly(shade, np.round(np.array(
            [outward + across * arm * 1.3, end + across * arm, end - across * arm,
             outward - across * arm * 1.3]) * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
        if rng.random() < 0.5:  # a phone held in the hand
            phone = min(width, height) * float(rng.uniform(0.12, 0.2))
            box = ((float(end[0]), float(end[1])), (phone, phone * 2.0),
                   float(np.degrees(np.arctan2(along[1], along[0]))) + 90)
            cv2.fillConvexPoly(shade, np.round(cv2.boxPoints(box) * 16).astype(np.int32), 1.0,
                               cv2.LINE_AA, shift=4)
        else:  # a hand: a wider blob
            cv2.circle(shade, (round(end[0]), round(end[1])), round(arm * 1.4), 1.0, -1,
                       cv2.LINE_AA)
        shade = cv2.GaussianBlur(shade, (0, 0), min(width, height) * float(rng.uniform(0.02, 0.05)))
    elif kind == "hard":
        angle = float(rng.uniform(0, np.pi))
        normal = np.array((np.cos(angle), np.sin(angle)), np.float32)
        xs = np.arange(width, dtype=np.float32)[None, :] - np.float32(target[0])
        ys = np.arange(height, dtype=np.float32)[:, None] - np.float32(target[1])
        penumbra = float(rng.uniform(0.6, 2.0))
        shade = np.clip(0.5 + (xs * normal[0] + ys * normal[1]) / (2 * penumbra), 0, 1)
    else:
        angle = float(rng.uniform(0, 2 * np.pi))
        xs = np.linspace(-0.5, 0.5, width, dtype=np.float32)[None, :]
        ys = np.linspace(-0.5, 0.5, height, dtype=np.float32)[:, None]
        across = xs * np.float32(np.cos(angle)) + ys * np.float32(np.sin(angle))
        reach = float(abs(np.cos(angle)) * 0.5 + abs(np.sin(angle)) * 0.5)
        shade = np.clip(across / (2 * reach) + 0.5, 0, 1) ** np.float32(rng.uniform(0.5, 1.5))
    shade = np.asarray(shade, np.float32)
    bluer = float(rng.uniform(0.0, 0.08))
    for channel, tint in enumerate((1 + bluer, 1.0, 1 - bluer)):
        image[..., channel] *= 1 - shade * np.float32(1 - light * tint)


def _out_of_focus(image: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """A shallow depth of field: sharp along a band across the photo, blurred more (up to
    ``sigma``) with distance from it."""
    height, width = image.shape[:2]
    angle = float(rng.uniform(0, np.pi))
    sharp_at = float(rng.uniform(-0.2, 0.2))
    xs = np.linspace(-0.5, 0.5, width // 8, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, height // 8, dtype=np.float32)[:, None]
    away = np.abs(xs * math.cos(angle) + ys * math.sin(angle) - sharp_at)
    weight = np.clip((away - 0.08) / 0.35, 0, 1).astype(np.float32)
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    mix = _full_size(weight, width, height)
    return image + (blurred - image) * mix


def _photograph(image: np.ndarray, rng: np.random.Generator, *, light: str, glare: bool,
                blur: float) -> np.ndarray:
    """What the phone adds: colour of the light, uneven lighting, glare, blur, noise, JPEG."""
    height, width = image.shape[:2]
    small_w, small_h = width // 8, height // 8
    # A phone's white balance takes out most of a lamp's colour; what is left is mild.
    gains = {"neutral": (1.0, 1.0, 1.0), "warm": (0.88, 0.97, 1.06),
             "cold": (1.08, 1.0, 0.92)}[light]
    exposure = float(rng.uniform(0.85, 1.1))
    tint = tuple(float(g * exposure * (1 + rng.normal(0, 0.02))) for g in gains)
    angle = float(rng.uniform(0, 2 * np.pi))
    slope = float(rng.uniform(0, 0.5))
    ramp = (1.0 + slope * math.cos(angle) * np.linspace(-0.5, 0.5, small_w,
                                                         dtype=np.float32)[None, :]
            + slope * math.sin(angle) * np.linspace(-0.5, 0.5, small_h,
                                                    dtype=np.float32)[:, None])
    cv2.multiply(image, _full_size(ramp, width, height, tint), dst=image)
    if glare:
        cx, cy = rng.uniform(0.15, 0.85) * small_w, rng.uniform(0.15, 0.85) * small_h
        rx = float(rng.uniform(0.06, 0.2)) * small_w
        ry = rx * float(rng.uniform(0.3, 1.0))
        tilt = float(rng.uniform(0, np.pi))
        xs = np.arange(small_w, dtype=np.float32)[None, :] - cx
        ys = np.arange(small_h, dtype=np.float32)[:, None] - cy
        u = xs * math.cos(tilt) + ys * math.sin(tilt)
        v = -xs * math.sin(tilt) + ys * math.cos(tilt)
        spot = np.exp(-((u / rx) ** 2 + (v / ry) ** 2)).astype(np.float32)
        spot *= np.float32(rng.uniform(110, 220))
        cv2.add(image, _full_size(spot, width, height), dst=image)
    if blur > 0 and rng.random() < 0.25:  # a shaking hand: blur along one direction
        length = max(3, round(blur * 4) | 1)
        line = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(line, turn, (length, length)), np.float32)
        kernel /= max(float(kernel.sum()), 1e-6)
        image = cv2.filter2D(image, -1, kernel)
    elif blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    grain = rng.standard_normal((height // 2, width // 2), dtype=np.float32)
    grain *= np.float32(rng.uniform(1.5, 5))
    cv2.add(image, _full_size(grain, width, height), dst=image)
    out = np.clip(image, 0, 255, out=image).astype(np.uint8)
    quality = int(rng.integers(70, 96))
    ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else np.asarray(decoded)
