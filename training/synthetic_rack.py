"""Synthetic photos of a player's rack, with the answer known for every tile.

A rack is drawn as the real ones are seen from the player's chair: a back board in the rack's
colour, one or two rows of tiles standing upright on it, and under each row the long ledge
(the bar) the tiles stand on. The camera looks at it from the front or from above at a slant
(a perspective squash and keystone), close enough that the tiles are large. Some tiles lie on
the table around the rack: they belong to the table, not the rack, and the reader must leave
them out. Faces, table textures and the phone's light and noise are those of ``synthetic``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.core.tiles import Colour, Tile
from training.synthetic import (
    _BACKGROUND_MAKERS,
    BACKGROUNDS,
    DESIGNS,
    LIGHTS,
    TILE_ASPECT,
    RenderedTile,
    _blend_face,
    _face,
    _outline,
    _photograph,
    _plastic,
)

# BGR rack plastics: the classic cream, black, grey, brown, blue, red, green, white.
RACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "cream": (170, 205, 220), "black": (34, 32, 30), "grey": (110, 108, 104),
    "brown": (40, 70, 110), "blue": (150, 80, 30), "red": (40, 40, 170),
    "green": (60, 120, 40), "white": (225, 228, 230),
}


@dataclass(frozen=True, eq=False)
class RenderedRack:
    """A synthetic rack photo: ``tiles`` stand on the rack (``set_index`` is the row, top row
    0; ``position`` counts from the left), ``stray`` lie on the table and are not the rack's."""

    image: np.ndarray
    tiles: tuple[RenderedTile, ...]
    stray: tuple[RenderedTile, ...]
    rows: tuple[tuple[Tile, ...], ...]
    design: str
    rack_colour: str
    slant: float

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return tuple(tile.tile for tile in self.tiles)


def random_rack(rng: np.random.Generator, *, rows: int | None = None,
                most: int = 14) -> tuple[tuple[Tile, ...], ...]:
    """One or two rows of tiles as left on a rack at the end of a game (at most two jokers)."""
    row_count = int(rng.integers(1, 3)) if rows is None else rows
    pool = [Tile.numbered(colour, number) for colour in Colour for number in range(1, 14)] * 2
    pool += [Tile.of_joker()] * 2
    chosen = [pool[int(i)] for i in rng.permutation(len(pool))]
    result = []
    taken = 0
    for _ in range(row_count):
        count = int(rng.integers(1, most + 1))
        result.append(tuple(chosen[taken:taken + count]))
        taken += count
    return tuple(result)


def _homography(width: int, height: int, plane: np.ndarray, focus: np.ndarray,
                rng: np.random.Generator, slant: float, fill: float) -> np.ndarray:
    """Rack plane → photo: the rack's bounding box ``plane`` (4×2) placed, turned a little,
    squashed and keystoned by the slant (0 straight from the front, 0.5 well from above).

    The rack fills ``fill`` of the photo's width, but never so much that the tiles (the box
    ``focus``) leave the frame: a close-up cuts the empty ends of the rack, not tiles.
    """
    (x0, y0), (x1, y1) = plane.min(axis=0), plane.max(axis=0)
    (f0, _), (f1, _) = focus.min(axis=0), focus.max(axis=0)
    rack_w, rack_h = x1 - x0, y1 - y0
    squash = 1.0 - 0.6 * slant
    scale = min(fill * width / rack_w, 0.9 * width / (f1 - f0), 0.8 * height / (rack_h * squash))
    keystone = 0.25 * slant * rack_w * scale
    out_w, out_h = rack_w * scale, rack_h * scale * squash
    # the middle of the tiles lands near the middle of the photo
    shift = ((x0 + x1) / 2 - (f0 + f1) / 2) * scale
    cx = width / 2 + shift + float(rng.uniform(-0.04, 0.04)) * width
    cy = height * float(rng.uniform(0.42, 0.58))
    src = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    dst = np.float32([[cx - out_w / 2 + keystone / 2, cy - out_h / 2],
                      [cx + out_w / 2 - keystone / 2, cy - out_h / 2],
                      [cx + out_w / 2, cy + out_h / 2], [cx - out_w / 2, cy + out_h / 2]])
    turn = cv2.getRotationMatrix2D((cx, cy), float(rng.normal(0, 3)), 1.0)
    dst = (np.hstack([dst, np.ones((4, 1), np.float32)]) @ turn.T).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float32).reshape(-1, 1, 2),
                                    homography).reshape(-1, 2)


def _fill(image: np.ndarray, homography: np.ndarray, corners: np.ndarray,
          colour: np.ndarray) -> None:
    quad = _project(homography, corners)
    cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), colour.tolist(),
                       cv2.LINE_AA, shift=4)


def render_rack(rows: tuple[tuple[Tile, ...], ...], *, seed: int, design: str | None = None,
                rack_colour: str | None = None, background: str | None = None,
                slant: float | None = None, size: tuple[int, int] = (1280, 960),
                stray: tuple[Tile, ...] | None = None, light: str | None = None,
                fill: float | None = None) -> RenderedRack:
    """A photo of a rack holding ``rows`` (one or two rows of tiles, top row first).

    Options left as None are drawn from ``seed``; ``fill`` is the rack's share of the photo's
    width (above 1 the rack runs out of the frame: a close-up). The same arguments give the
    same picture.
    """
    if not 1 <= len(rows) <= 2:
        raise ValueError(f"a rack has one or two rows, not {len(rows)}")
    width, height = size
    rng = np.random.default_rng(seed)
    design = str(rng.choice(DESIGNS)) if design is None else design
    rack_colour = str(rng.choice(list(RACK_COLOURS))) if rack_colour is None else rack_colour
    background = str(rng.choice(BACKGROUNDS)) if background is None else background
    light = str(rng.choice(LIGHTS)) if light is None else light
    slant = float(rng.uniform(0, 0.5)) if slant is None else slant
    longest = max(len(row) for row in rows)
    slots = max(longest + int(rng.integers(0, 6)), 8)
    fill = float(rng.uniform(0.75, 1.15)) if fill is None else fill

    # The rack plane, in units of one tile height.
    th, tw = 1.0, TILE_ASPECT
    bar = float(rng.uniform(0.2, 0.35))
    step = float(rng.uniform(0.05, 0.15))  # between the upper bar and the lower row's tops
    rack_length = slots * tw * 1.03 + 2 * tw * float(rng.uniform(0.2, 0.6))
    tops = [0.0] if len(rows) == 1 else [0.0, th + bar + step]
    bottom = tops[-1] + th + bar
    laid = _positions(rows, tops, slots, rng)
    focus = np.array([corner for _, _, _, corners in laid for corner in corners], np.float32)
    rack_length = max(rack_length, float(focus[:, 0].max()) + tw * 0.3)
    plane = np.array([[0, -0.3], [rack_length, -0.3], [rack_length, bottom + 0.12],
                      [0, bottom + 0.12]], np.float32)
    homography = _homography(width, height, plane, focus, rng, slant, fill)

    image = _BACKGROUND_MAKERS[background](width // 2, height // 2, rng).astype(np.float32)
    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
    plastic = _plastic(rng)
    tile_height_px = float(np.linalg.norm(_project(homography, [[0, 0], [0, 1]])[1]
                                          - _project(homography, [[0, 0], [0, 1]])[0]))

    stray_tiles = _stray(rng) if stray is None else stray
    rack_outline = _project(homography, plane)
    placed_stray = _lay_stray(image, stray_tiles, rack_outline, tile_height_px, rng, design,
                              plastic)

    colour = np.array(RACK_COLOURS[rack_colour], np.float32) * float(rng.uniform(0.85, 1.1))
    # the rack's shadow on the table, then the back board, the bars and the front lip
    shadow = plane + np.float32([[0.15, 0.1]] * 4)
    quad = _project(homography, shadow)
    mask = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, tile_height_px * 0.08))
    image *= (1.0 - 0.45 * mask)[..., None]
    _fill(image, homography, plane, colour * 0.78)
    for top in tops:
        ledge = np.float32([[0, top + th], [rack_length, top + th],
                            [rack_length, top + th + bar], [0, top + th + bar]])
        _fill(image, homography, ledge, np.minimum(colour * 1.05, 255))
        under = np.float32([[0, top + th + bar], [rack_length, top + th + bar],
                            [rack_length, top + th + bar + 0.05], [0, top + th + bar + 0.05]])
        _fill(image, homography, under, colour * float(rng.uniform(0.4, 0.7)))
        rim = np.float32([[0, top + th], [rack_length, top + th],
                          [rack_length, top + th + 0.04], [0, top + th + 0.04]])
        _fill(image, homography, rim, np.minimum(colour * 1.25 + 15, 255))

    placed: list[RenderedTile] = []
    joker_inks = ["red", "black"] if rng.random() < 0.5 else ["black", "red"]
    jokers = 0
    face_height = int(np.clip(round(tile_height_px * 1.1 / 4) * 4, 24, 400))
    for row_index, position, tile, corners in laid:
        quad = _project(homography, corners)
        face = _face(tile, design, round(face_height * TILE_ASPECT), face_height, rng,
                     joker_inks[jokers % 2], plastic)
        jokers += tile.is_joker
        _blend_face(image, face, quad)
        placed.append(RenderedTile(tile, _outline(quad), row_index, position))
    image = _photograph(image, rng, light=light, glare=bool(rng.random() < 0.25),
                        blur=0.0 if rng.random() < 0.7 else float(rng.uniform(0.4, 1.5)))
    return RenderedRack(image=image, tiles=tuple(placed), stray=tuple(placed_stray),
                        rows=tuple(tuple(row) for row in rows), design=design,
                        rack_colour=rack_colour, slant=slant)


def _positions(rows: tuple[tuple[Tile, ...], ...], tops: list[float], slots: int,
               rng: np.random.Generator
               ) -> list[tuple[int, int, Tile, np.ndarray]]:
    """Where each tile stands on the rack plane: (row, position, tile, corners TL TR BR BL)."""
    tw = TILE_ASPECT
    laid = []
    for row_index, (row, top) in enumerate(zip(rows, tops)):
        x = tw * float(rng.uniform(0.2, 0.6)) + float(rng.integers(0, slots - len(row) + 1)) * tw
        for position, tile in enumerate(row):
            gap = tw * (float(rng.uniform(0.0, 0.06)) if rng.random() < 0.85
                        else float(rng.uniform(0.3, 1.2)))
            lean = float(rng.normal(0, 0.02))
            corners = np.float32([[x + lean, top], [x + tw + lean, top], [x + tw, top + 1.0],
                                  [x, top + 1.0]])
            laid.append((row_index, position, tile, corners))
            x += tw + gap
    return laid


def _stray(rng: np.random.Generator) -> tuple[Tile, ...]:
    count = int(rng.choice([0, 0, 1, 2, 3]))
    return tuple(Tile.numbered(list(Colour)[int(rng.integers(4))], int(rng.integers(1, 14)))
                 for _ in range(count))


def _lay_stray(image: np.ndarray, tiles: tuple[Tile, ...], rack: np.ndarray,
               tile_height: float, rng: np.random.Generator, design: str,
               plastic: np.ndarray) -> list[RenderedTile]:
    """Tiles lying flat on the table beside or in front of the rack, never under it."""
    height, width = image.shape[:2]
    rack_box = cv2.boundingRect(np.round(rack).astype(np.int32))
    placed: list[RenderedTile] = []
    boxes = [rack_box]
    th = tile_height * float(rng.uniform(0.8, 1.0))
    tw = th * TILE_ASPECT
    upright = np.float32([[-tw / 2, -th / 2], [tw / 2, -th / 2], [tw / 2, th / 2],
                          [-tw / 2, th / 2]])
    for tile in tiles:
        for _attempt in range(40):
            angle = np.radians(float(rng.uniform(0, 360)))
            turn = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
            centre = np.float32([rng.uniform(th, width - th), rng.uniform(th, height - th)])
            quad = upright @ turn.T + centre
            box = cv2.boundingRect(np.round(quad).astype(np.int32))
            if all(_apart(box, other, th * 0.2) for other in boxes):
                break
        else:
            continue
        boxes.append(box)
        face_height = int(np.clip(round(th * 1.1 / 4) * 4, 24, 400))
        face = _face(tile, design, round(face_height * TILE_ASPECT), face_height, rng, "red",
                     plastic)
        _blend_face(image, face, quad)
        placed.append(RenderedTile(tile, _outline(quad), -1, len(placed)))
    return placed


def _apart(a: tuple[int, ...], b: tuple[int, ...], margin: float) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return (ax + aw + margin < bx or bx + bw + margin < ax
            or ay + ah + margin < by or by + bh + margin < ay)
