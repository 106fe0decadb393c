"""Synthetic photos of a player's rack, with the answer known for every tile.

A rack is drawn as the real ones are seen from the player's chair: a back board in the rack's
colour, one or two rows of tiles standing upright on it, and under each row the long ledge
(the bar) the tiles stand on. The camera looks at it from the front or from above at a slant
(a perspective squash and keystone), close enough that the tiles are large. Some tiles lie on
the table around the rack: they belong to the table, not the rack, and the reader must leave
them out. Faces, table textures and the phone's light and noise are those of ``synthetic``.

``RACK_KINDS`` names what a real evening brings that a plain render may lack (a wooden or a
beige rack, a rack seen straight from the front with its lip over the tiles' feet, a hand or a
second rack in the frame, a set lying on the table in front of the rack, glossy tiles...);
``rack_of_kind`` draws one such photo from a seed, for the benchmark's fixed set of each kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
    _smooth_noise,
    cast_shadow,
)

# BGR rack plastics: the classic cream, black, grey, brown, blue, red, green, white.
RACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "cream": (170, 205, 220), "black": (34, 32, 30), "grey": (110, 108, 104),
    "brown": (40, 70, 110), "blue": (150, 80, 30), "red": (40, 40, 170),
    "green": (60, 120, 40), "white": (225, 228, 230),
}
# Drawn only when asked for (the seeded renders above keep drawing from RACK_COLOURS alone):
# a beige rack, and a wooden one whose grain runs along it.
EXTRA_RACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "beige": (150, 190, 215), "wood": (60, 100, 150),
}
SKIN_TONES = ((120, 150, 205), (95, 125, 175), (60, 85, 130), (150, 175, 225))


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
    others: tuple[RenderedTile, ...] = ()  # on a second rack partly in the frame

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return tuple(tile.tile for tile in self.tiles)


def random_rack(rng: np.random.Generator, *, rows: int | None = None,
                most: int = 14, least: int = 1) -> tuple[tuple[Tile, ...], ...]:
    """One or two rows of tiles as left on a rack at the end of a game (at most two jokers),
    ``least`` to ``most`` tiles a row."""
    row_count = int(rng.integers(1, 3)) if rows is None else rows
    pool = [Tile.numbered(colour, number) for colour in Colour for number in range(1, 14)] * 2
    pool += [Tile.of_joker()] * 2
    chosen = [pool[int(i)] for i in rng.permutation(len(pool))]
    result = []
    taken = 0
    for _ in range(row_count):
        count = int(rng.integers(least, most + 1))
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
          colour: np.ndarray, grain: np.ndarray | None = None) -> None:
    """Paint the rack-plane quad ``corners`` in ``colour``, or, given a ``grain`` (a tone
    about 1 for every photo pixel), in that colour modulated by it (a wooden rack)."""
    quad = _project(homography, corners)
    if grain is None:
        cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), colour.tolist(),
                           cv2.LINE_AA, shift=4)
        return
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    image += mask[..., None] * (grain[..., None] * colour[None, None, :] - image)


def render_rack(rows: tuple[tuple[Tile, ...], ...], *, seed: int, design: str | None = None,
                rack_colour: str | None = None, background: str | None = None,
                slant: float | None = None, size: tuple[int, int] = (1280, 960),
                stray: tuple[Tile, ...] | None = None, light: str | None = None,
                fill: float | None = None, glare: bool | None = None, lip: float = 0.0,
                wide_gap: float = 0.0, glossy: bool = False, hand: bool = False,
                second_rack: bool = False, laid_in_front: int = 0,
                shadow: str | None = None, upper_on_board: bool = False) -> RenderedRack:
    """A photo of a rack holding ``rows`` (one or two rows of tiles, top row first).

    Options left as None are drawn from ``seed``; ``fill`` is the rack's share of the photo's
    width (above 1 the rack runs out of the frame: a close-up). The same arguments give the
    same picture. The options after ``glare`` add what a real evening brings, each drawn from
    its own generator so the photos of the other options stay as they were: ``lip`` (tile
    heights) of the ledge's front standing over the tiles' feet (a rack seen straight from the
    front); a ``wide_gap`` (tile widths) somewhere in the first row; ``glossy`` glints on the
    tiles; a ``hand`` reaching into the frame at the rack's end; a ``second_rack`` of smaller
    tiles further off, partly in the frame; ``laid_in_front`` tiles lying as a set on the table
    just in front of the rack (like ``stray``, not the rack's); a ``shadow`` of
    ``synthetic.SHADOWS`` across the rack's tiles (``synthetic.cast_shadow``);
    ``upper_on_board``: the upper tier stands on the lower tier's board, as on the standard
    two-tier rack, with no ledge of its own drawn (no lighter bar, rim or shade: the board
    runs on under its tiles, as a black rack's does in a photo), its tiles' feet at the
    lower tier's tiles' tops.
    """
    if not 1 <= len(rows) <= 2:
        raise ValueError(f"a rack has one or two rows, not {len(rows)}")
    width, height = size
    rng = np.random.default_rng(seed)
    extra = np.random.default_rng((seed, 1))  # for the added options only
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
    if upper_on_board and len(rows) == 2:
        # the lower tier's board reaches up to its tiles' tops, and the upper tier stands on
        # it: the tiers' bottoms lie about a tile height apart (from its own generator, so
        # the seeded renders stay as they were)
        tops[1] = th + float(np.random.default_rng((seed, 4)).uniform(0.0, 0.1))
    bottom = tops[-1] + th + bar
    gap_at = (int(extra.integers(0, len(rows[0]) - 1)), wide_gap) \
        if wide_gap > 0 and len(rows[0]) > 1 else None
    laid = _positions(rows, tops, slots, rng, gap_at)
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
    placed_stray += _lay_in_front(image, laid_in_front, rack_outline, tile_height_px, slant,
                                  extra, design, plastic)
    others = _second_rack(image, homography, plane, tile_height_px, extra, design, plastic) \
        if second_rack else []

    rack_colours = {**RACK_COLOURS, **EXTRA_RACK_COLOURS}
    colour = np.array(rack_colours[rack_colour], np.float32) * float(rng.uniform(0.85, 1.1))
    grain = _wood_grain(width, height, extra, homography, plane) if rack_colour == "wood" else None
    # the rack's shadow on the table, then the back board, the bars and the front lip
    rack_shadow = plane + np.float32([[0.15, 0.1]] * 4)
    quad = _project(homography, rack_shadow)
    mask = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, tile_height_px * 0.08))
    image *= (1.0 - 0.45 * mask)[..., None]
    _fill(image, homography, plane, colour * 0.78, grain)
    ledges = []
    for top in tops:
        ledge = np.float32([[0, top + th - lip], [rack_length, top + th - lip],
                            [rack_length, top + th + bar], [0, top + th + bar]])
        under = np.float32([[0, top + th + bar], [rack_length, top + th + bar],
                            [rack_length, top + th + bar + 0.05], [0, top + th + bar + 0.05]])
        rim = np.float32([[0, top + th - lip], [rack_length, top + th - lip],
                          [rack_length, top + th - lip + 0.04], [0, top + th - lip + 0.04]])
        ledges.append((ledge, under, rim, float(rng.uniform(0.4, 0.7))))

    def draw_ledges() -> None:
        for number, (ledge, under, rim, shade) in enumerate(ledges):
            if upper_on_board and number == 0 and len(ledges) == 2:
                continue
            _fill(image, homography, ledge, np.minimum(colour * 1.05, 255), grain)
            _fill(image, homography, under, colour * shade, grain)
            _fill(image, homography, rim, np.minimum(colour * 1.25 + 15, 255), grain)

    if lip <= 0:
        draw_ledges()
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
    if lip > 0:  # seen from the front, the ledge stands in front of the tiles' feet
        draw_ledges()
    if glossy:
        _glints(image, [_project(homography, corners) for *_, corners in laid], extra)
    if hand:
        _hand(image, homography, plane, focus, tile_height_px, extra)
    if shadow is not None:  # from a generator of its own, as the options above
        cast_shadow(image, np.random.default_rng((seed, 3)), shadow,
                    np.concatenate([_project(homography, corners) for *_, corners in laid]))
    drawn_glare = bool(rng.random() < 0.25)
    image = _photograph(image, rng, light=light, glare=drawn_glare if glare is None else glare,
                        blur=0.0 if rng.random() < 0.7 else float(rng.uniform(0.4, 1.5)))
    return RenderedRack(image=image, tiles=tuple(placed), stray=tuple(placed_stray),
                        rows=tuple(tuple(row) for row in rows), design=design,
                        rack_colour=rack_colour, slant=slant, others=tuple(others))


def _positions(rows: tuple[tuple[Tile, ...], ...], tops: list[float], slots: int,
               rng: np.random.Generator, gap_at: tuple[int, float] | None = None
               ) -> list[tuple[int, int, Tile, np.ndarray]]:
    """Where each tile stands on the rack plane: (row, position, tile, corners TL TR BR BL);
    ``gap_at`` (position, tile widths) widens one gap of the first row."""
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
            if gap_at is not None and (row_index, position) == (0, gap_at[0]):
                x += gap_at[1] * tw
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


def _wood_grain(width: int, height: int, rng: np.random.Generator, homography: np.ndarray,
                plane: np.ndarray) -> np.ndarray:
    """A tone about 1 for every photo pixel: wood grain running along the rack's plane."""
    (x0, y0), (x1, y1) = plane.min(axis=0), plane.max(axis=0)
    texture_w, texture_h = 1024, max(64, round(1024 * (y1 - y0) / (x1 - x0)))
    y = np.arange(texture_h, dtype=np.float32)[:, None]
    wobble = _smooth_noise(rng, 4, 6, texture_w, texture_h) * float(rng.uniform(1, 3))
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (y / float(rng.uniform(6, 18)) + wobble))
    streaks = _smooth_noise(rng, texture_h // 3, 12, texture_w, texture_h)
    tone = 0.85 + 0.14 * rings + 0.2 * (streaks - 0.5)
    to_plane = np.array([[(x1 - x0) / texture_w, 0, x0], [0, (y1 - y0) / texture_h, y0],
                         [0, 0, 1]], np.float64)
    return np.asarray(cv2.warpPerspective(tone.astype(np.float32), homography @ to_plane,
                                          (width, height), borderValue=1.0), np.float32)


def _lay_in_front(image: np.ndarray, count: int, rack: np.ndarray, tile_height: float,
                  slant: float, rng: np.random.Generator, design: str,
                  plastic: np.ndarray) -> list[RenderedTile]:
    """``count`` tiles lying side by side as a set on the table just in front of the rack,
    facing the player (foreshortened the more, the lower the camera); fewer when the photo
    ends first."""
    if count <= 0:
        return []
    height, width = image.shape[:2]
    th = tile_height * min(0.95, 0.55 + 0.8 * slant) * float(rng.uniform(0.9, 1.0))
    tw = tile_height * TILE_ASPECT * float(rng.uniform(0.9, 1.0))
    top = float(rack[:, 1].max()) + tile_height * float(rng.uniform(0.15, 0.5))
    left = float(rng.uniform(rack[:, 0].min(), max(rack[:, 0].min() + 1,
                                                 rack[:, 0].max() - count * tw)))
    turn = np.radians(float(rng.normal(0, 3)))
    along = np.array([np.cos(turn), np.sin(turn)], np.float32)
    down = np.array([-np.sin(turn), np.cos(turn)], np.float32)
    placed: list[RenderedTile] = []
    face_height = int(np.clip(round(tile_height * 1.1 / 4) * 4, 24, 400))
    for position in range(count):
        corner = np.array([left + position * tw * 1.02, top], np.float32)
        quad = np.float32([corner, corner + tw * along, corner + tw * along + th * down,
                           corner + th * down])
        if quad[:, 0].min() < 0 or quad[:, 0].max() > width - 1 or quad[:, 1].max() > height - 1:
            break
        tile = Tile.numbered(list(Colour)[int(rng.integers(4))], int(rng.integers(1, 14)))
        face = _face(tile, design, round(face_height * TILE_ASPECT), face_height, rng, "red",
                     plastic)
        _blend_face(image, face, quad)
        placed.append(RenderedTile(tile, _outline(quad), -1, position))
    return placed


def _second_rack(image: np.ndarray, homography: np.ndarray, plane: np.ndarray,
                 tile_height: float, rng: np.random.Generator, design: str,
                 plastic: np.ndarray) -> list[RenderedTile]:
    """Another player's rack further off (smaller), above the rack in the photo and running
    out of the frame at one side; its tiles are not the rack's."""
    width = image.shape[1]
    rows = random_rack(rng, most=10)
    th, tw = 1.0, TILE_ASPECT
    bar = float(rng.uniform(0.2, 0.35))
    tops = [0.0] if len(rows) == 1 else [0.0, th + bar + 0.1]
    slots = max(len(row) for row in rows) + int(rng.integers(0, 4))
    laid = _positions(rows, tops, slots, rng)
    length = max(slots * tw * 1.03, max(float(c[:, 0].max()) for *_, c in laid) + 0.3 * tw)
    bottom = tops[-1] + th + bar
    own = np.array([[0, -0.3], [length, -0.3], [length, bottom + 0.12], [0, bottom + 0.12]],
                   np.float32)
    main = _project(homography, plane)
    # the same view, scaled down about the main rack's top middle, lifted above it and
    # pushed to one side so that part of it leaves the frame
    scale = float(rng.uniform(0.55, 0.8))
    side = 1 if rng.random() < 0.5 else -1
    anchor = np.array([main[:, 0].mean(), main[:, 1].min()], np.float64)
    unit = _project(homography, [[0, 0], [length, 0], [length, bottom + 0.12],
                                 [0, bottom + 0.12]])
    rack_px = unit - np.array([unit[:, 0].mean(), unit[:, 1].max()])
    # its middle within a fifth of its length of the photo's side: 30–70% of it in the frame
    across = float(np.ptp(rack_px[:, 0])) * scale
    edge = width if side > 0 else 0
    place = np.array([edge + side * across * float(rng.uniform(-0.2, 0.2)),
                      anchor[1] - tile_height * float(rng.uniform(0.3, 0.8))])
    target = (rack_px * scale + place).astype(np.float32)
    second = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [length, 0], [length, bottom + 0.12], [0, bottom + 0.12]]), target)
    colour = np.array(RACK_COLOURS[str(rng.choice(list(RACK_COLOURS)))], np.float32)
    _fill(image, second, own, colour * 0.78)
    for top in tops:
        _fill(image, second, np.float32([[0, top + th], [length, top + th],
                                         [length, top + th + bar], [0, top + th + bar]]),
              np.minimum(colour * 1.05, 255))
    face_height = int(np.clip(round(tile_height * scale * 1.1 / 4) * 4, 24, 400))
    placed: list[RenderedTile] = []
    for row_index, position, tile, corners in laid:
        quad = _project(second, corners)
        if quad[:, 0].max() < 0 or quad[:, 0].min() > width or quad[:, 1].max() < 0:
            continue
        face = _face(tile, design, round(face_height * TILE_ASPECT), face_height, rng, "black",
                     plastic)
        _blend_face(image, face, quad)
        if quad[:, 0].min() >= 0 and quad[:, 0].max() <= width and quad[:, 1].min() >= 0:
            placed.append(RenderedTile(tile, _outline(quad), row_index, position))
    return placed


def _glints(image: np.ndarray, quads: list[np.ndarray], rng: np.random.Generator) -> None:
    """Glossy tiles under a lamp: a soft streak of light across some of the faces."""
    height, width = image.shape[:2]
    for quad in quads:
        if rng.random() < 0.4:
            continue
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (width, height))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        local = quad - (x0, y0)
        inside = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillConvexPoly(inside, np.round(local).astype(np.int32), 1.0)
        streak = np.zeros_like(inside)
        tile_w = float(np.linalg.norm(quad[1] - quad[0]))
        centre = local.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * tile_w
        axes = (max(1, round(tile_w * float(rng.uniform(0.15, 0.35)))),
                max(1, round(tile_w * float(rng.uniform(0.6, 1.2)))))
        cv2.ellipse(streak, (round(centre[0]), round(centre[1])), axes,
                    float(rng.uniform(-40, 40)), 0, 360, 1.0, -1)
        streak = cv2.GaussianBlur(streak, (0, 0), max(1.0, tile_w * 0.08)) * inside
        image[y0:y1, x0:x1] += (streak * float(rng.uniform(40, 120)))[..., None]


def _hand(image: np.ndarray, homography: np.ndarray, plane: np.ndarray, focus: np.ndarray,
          tile_height: float, rng: np.random.Generator) -> None:
    """A hand reaching in from the photo's side to hold the rack's end, short of its tiles."""
    height, width = image.shape[:2]
    tiles = _project(homography, focus)
    rack = _project(homography, plane)
    left = rng.random() < 0.5
    reach = float(tiles[:, 0].min()) - 0.25 * tile_height if left \
        else float(tiles[:, 0].max()) + 0.25 * tile_height
    wrist_x = -0.6 * tile_height if left else width + 0.6 * tile_height
    middle_y = float(rack[:, 1].mean()) + tile_height * float(rng.uniform(-0.3, 0.6))
    skin = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    skin *= float(rng.uniform(0.85, 1.1))
    mask = np.zeros((height, width), np.float32)
    palm = 1.3 * tile_height
    cv2.ellipse(mask, (round(wrist_x), round(middle_y)), (round(palm), round(1.2 * palm)),
                0, 0, 360, 1.0, -1)
    tip_x = reach if abs(reach - wrist_x) < 4.5 * tile_height \
        else wrist_x + (4.5 if left else -4.5) * tile_height
    finger = max(2, round(0.32 * tile_height))
    for k in range(4):
        y = middle_y + (k - 1.5) * 0.38 * tile_height
        end_x = tip_x - (0 if k in (1, 2) else (0.35 if left else -0.35) * tile_height)
        cv2.line(mask, (round(wrist_x), round(y)), (round(end_x), round(y)), 1.0, finger)
        cv2.circle(mask, (round(end_x), round(y)), finger // 2, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, tile_height * 0.03))
    shade = 0.85 + 0.25 * _smooth_noise(rng, 3, 3, width, height)
    image += mask[..., None] * (skin[None, None, :] * shade[..., None] - image)


def _kind_both_jokers(rng: np.random.Generator) -> tuple[tuple[tuple[Tile, ...], ...],
                                                         dict[str, Any]]:
    rows = [list(row) for row in random_rack(rng, least=3, most=10)]
    numbered = [(r, i) for r, row in enumerate(rows) for i, tile in enumerate(row)
                if not tile.is_joker]
    for pick in rng.permutation(len(numbered))[:2 - sum(t.is_joker for r in rows for t in r)]:
        r, i = numbered[int(pick)]
        rows[r][i] = Tile.of_joker()
    return tuple(tuple(row) for row in rows), {}


def _kind_tiers(upper: tuple[int, int], lower: tuple[int, int],
                options: dict[str, Any]) -> Callable[[np.random.Generator],
                                                     tuple[tuple[tuple[Tile, ...], ...],
                                                           dict[str, Any]]]:
    """Two tiers of ``upper`` and ``lower`` (least, most) tiles each."""
    def draw(rng: np.random.Generator) -> tuple[tuple[tuple[Tile, ...], ...], dict[str, Any]]:
        counts = [int(rng.integers(least, most + 1)) for least, most in (upper, lower)]
        (tiles,) = random_rack(rng, rows=1, least=sum(counts), most=sum(counts))
        return (tiles[:counts[0]], tiles[counts[0]:]), dict(options)
    return draw


def _kind(rows: dict[str, int], options: Callable[[np.random.Generator], dict[str, Any]]
          ) -> Callable[[np.random.Generator],
                        tuple[tuple[tuple[Tile, ...], ...], dict[str, Any]]]:
    return lambda rng: (random_rack(rng, **rows), options(rng))


# What a real evening brings, one kind a photo; each draws the rack's rows and the render's
# options from a generator (the other options are drawn by render_rack from the seed).
RACK_KINDS: dict[str, Callable[[np.random.Generator],
                               tuple[tuple[tuple[Tile, ...], ...], dict[str, Any]]]] = {
    "cream, beige or white rack": _kind({}, lambda rng: {
        "rack_colour": str(rng.choice(["cream", "beige", "white"]))}),
    "wooden rack": _kind({}, lambda rng: {"rack_colour": "wood"}),
    "coloured rack": _kind({}, lambda rng: {
        "rack_colour": str(rng.choice(["blue", "red", "green", "grey", "brown"]))}),
    "classic design": _kind({}, lambda rng: {"design": "classic"}),
    "one row": _kind({"rows": 1}, lambda rng: {}),
    "from the front": _kind({}, lambda rng: {"slant": float(rng.uniform(0, 0.05)),
                                            "lip": float(rng.uniform(0.06, 0.16))}),
    "from above": _kind({}, lambda rng: {"slant": float(rng.uniform(0.45, 0.6))}),
    "many tiles": _kind({"rows": 2, "least": 10, "most": 15}, lambda rng: {}),
    "few tiles": _kind({"rows": 1, "most": 3}, lambda rng: {}),
    "a wide gap": _kind({"least": 3}, lambda rng: {"wide_gap": float(rng.uniform(1.5, 4))}),
    "both jokers": _kind_both_jokers,
    "glossy tiles, glare": _kind({}, lambda rng: {"glossy": True, "glare": True}),
    "a hand in the frame": _kind({}, lambda rng: {"hand": True}),
    "a second rack": _kind({}, lambda rng: {"second_rack": True}),
    "a set in front": _kind({}, lambda rng: {"laid_in_front": int(rng.integers(3, 6)),
                                            "stray": ()}),
}


# Two-tier racks as the standard black rack is often seen at a game's end, measured apart from
# RACK_KINDS (whose fixed set stays as it was): the upper tier standing on the lower tier's
# board with no ledge of its own showing, more tiles on it than on the lower tier, or one
# tile alone on a tier.
TIER_KINDS: dict[str, Callable[[np.random.Generator],
                               tuple[tuple[tuple[Tile, ...], ...], dict[str, Any]]]] = {
    "upper tier fuller, on the board": _kind_tiers(
        (3, 9), (1, 2), {"rack_colour": "black", "upper_on_board": True}),
    "one tile on the upper tier": _kind_tiers(
        (1, 1), (1, 4), {"rack_colour": "black", "upper_on_board": True}),
    "one tile on the lower tier": _kind_tiers(
        (1, 5), (1, 1), {"rack_colour": "black", "upper_on_board": True}),
}


def rack_of_kind(kind: str, seed: int, *, size: tuple[int, int] = (1280, 960)) -> RenderedRack:
    """One photo of the ``kind`` (a key of RACK_KINDS or TIER_KINDS) drawn from ``seed``."""
    rows, options = {**RACK_KINDS, **TIER_KINDS}[kind](np.random.default_rng((seed, 2)))
    return render_rack(rows, seed=seed, size=size, **options)
