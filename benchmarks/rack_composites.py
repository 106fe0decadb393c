"""Rack photos composed from real tiles the reader never learned from.

``python -m benchmarks.rack_composites [--count 24]``: each photo is a black rack of one to
three tiers on a dark table (drawn), its tiers filled with real tiles cut out of photos the
networks never saw: the current design from the labelled `valid/` photos ("rummikub-nvypk"
v9 by Jonas Bühler, CC BY 4.0), the classic design from the validation split of the classic
crops (``training.classic``: "Rummikub tile crops by christophrus, from
github.com/christophrus/rummikub-counter (commit 8e7f85b9ad7b056c557af35a5b03f229c7cad0d2),
MIT licence as stated in that repository's README"). Half are seen at a slant (a keystone and
a turn), each through a JPEG. The classic crops' colours are our labels
(``training/classic_colours.csv``). The issue's case, 13 large tiles on one black tier against
a dark table, is the one-tier kind.

Per design: racks found, read exactly, tiles read right (number and colour), numbers read
right, tiles found but left off the rack,
tiles not found at all (no outline read holds the tile's centre), values right, and wrong
values shown as sure (every tile of the rack read surely, the value wrong), and right values
shown sure. ``--stress``: the classic racks changed as the real racks are
(``benchmarks.rack_stress``: turned, slanted, further off, blurred, compressed, mis-exposed,
tinted, cut). ``--strong-views``: the racks drawn square-on, then seen from one end, from
above their near edge or turned far (``strong_view``), harder than any real rack we hold.
"""

from __future__ import annotations

import argparse
from collections import Counter

import cv2
import numpy as np

from benchmarks.candidates import add_candidate_options, use_candidates
from companion.core.scoring import rack_value
from companion.core.tiles import Tile
from companion.vision import PhotoError, RackReading, read_rack
from companion.vision.crops import canonical_corners
from training.augment import ink_is_low
from training.classic import ClassicCrop, classic_crops
from training.dataset import load_split

TILE_W, TILE_H = 80, 110


def current_tiles() -> list[tuple[np.ndarray, Tile]]:
    """Every labelled tile of `valid/` (first copy of each photo), cut upright at TILE_W × TILE_H."""
    tiles, seen = [], set()
    for photo in load_split("valid"):
        if photo.photo_name in seen:
            continue
        seen.add(photo.photo_name)
        image = photo.image()
        for tile in photo.tiles:
            corners = canonical_corners(cv2.minAreaRect(tile.polygon))
            target = np.float32([[0, 0], [TILE_W, 0], [TILE_W, TILE_H]])
            cut = cv2.warpAffine(image, cv2.getAffineTransform(corners[:3], target),
                                 (TILE_W, TILE_H), borderMode=cv2.BORDER_REPLICATE)
            if ink_is_low(cv2.resize(cut, (48, 64))):
                cut = cut[::-1, ::-1]
            tiles.append((np.ascontiguousarray(cut), tile.tile))
    return tiles


def classic_tiles(*, training: bool = False) -> list[tuple[np.ndarray, Tile]]:
    """The classic validation crops (``training``: the training side instead) as
    ``classic_tile``s."""
    train, valid = classic_crops()
    return [classic_tile(crop) for crop in (train if training else valid)]


def classic_tile(crop: ClassicCrop) -> tuple[np.ndarray, Tile]:
    """A classic crop resized to TILE_W × TILE_H, with its tile (the number from the source,
    the colour our label)."""
    return (cv2.resize(cv2.imread(str(crop.path)), (TILE_W, TILE_H),
                       interpolation=cv2.INTER_AREA), crop.tile)


def compose(tiles: list, tiers: int, per_tier: int, rng: np.random.Generator, *,
            slant: bool) -> tuple[np.ndarray, list]:
    """A 1280 × 960 photo of a black rack holding ``tiers`` rows of ``per_tier`` tiles drawn
    from ``tiles``; returns it and the labels of the tiles on it."""
    photo, labels, _ = compose_rack(tiles, tiers, per_tier, rng, slant=slant)
    return photo, labels


def compose_rack(tiles: list, tiers: int, per_tier: int, rng: np.random.Generator, *,
                 slant: bool, tile_scale: float = 1.0, table: tuple[float, float] = (25, 60),
                 board: tuple[float, float] = (8, 22)) -> tuple[np.ndarray, list, list[np.ndarray]]:
    """``compose``, its tiles drawn ``tile_scale`` times TILE_W × TILE_H on a table and a rack
    board as bright as the ranges given; also returns each tile's outline in the photo (four
    corners, clockwise from the top left), as a render's answer holds them."""
    width, height = 1280, 960
    tile_w, tile_h = round(TILE_W * tile_scale), round(TILE_H * tile_scale)
    photo = np.full((height, width, 3), rng.uniform(*table), np.float32)
    photo += rng.normal(0, 6, (height, width, 1)).astype(np.float32)  # grain
    photo[..., 2] += rng.uniform(0, 15)  # a warm wood
    pitch = tile_w + round(4 * tile_scale)
    rack_w = 14 * pitch + 40
    left = (width - rack_w) // 2
    ledge = round(26 * tile_scale)
    bottom = height - 180
    top = bottom - tiers * (tile_h + ledge) - 20
    shade = rng.uniform(*board)
    photo[top:bottom, left:left + rack_w] = shade
    labels, outlines = [], []
    for tier in range(tiers):
        feet = bottom - ledge - tier * (tile_h + ledge)
        photo[feet:feet + ledge, left:left + rack_w] = shade + 14  # the ledge catches light
        count = per_tier if tier == 0 else max(1, per_tier - int(rng.integers(0, 4)))
        start = left + 20 + int(rng.integers(0, max(1, (14 - count) * pitch)))
        for k in range(count):
            cut, label = tiles[int(rng.integers(len(tiles)))]
            if cut.shape[:2] != (tile_h, tile_w):
                cut = cv2.resize(cut, (tile_w, tile_h), interpolation=cv2.INTER_AREA)
            x = start + k * pitch
            photo[feet - tile_h:feet, x:x + tile_w] = cut
            labels.append(label)
            outlines.append(np.float32([[x, feet - tile_h], [x + tile_w, feet - tile_h],
                                        [x + tile_w, feet], [x, feet]]))
    if slant:
        squeeze = rng.uniform(0.05, 0.2) * width
        source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        target = np.float32([[squeeze, 0], [width - squeeze, 0], [width, height], [0, height]])
        keystone = cv2.getPerspectiveTransform(source, target)
        # the edge pixels drawn out, not mirrored: a mirror showed tiles no label holds
        edge = cv2.BORDER_REPLICATE
        photo = cv2.warpPerspective(photo, keystone, (width, height), borderMode=edge)
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), rng.uniform(-12, 12), 1.0)
        photo = cv2.warpAffine(photo, turn, (width, height), borderMode=edge)
        outlines = [cv2.transform(cv2.perspectiveTransform(o[None], keystone), turn)[0]
                    for o in outlines]
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.4, 1.0))
    return np.clip(photo, 0, 255).astype(np.uint8), labels, outlines


def benchmark_rack(tiles: list, seed: int, n: int, view: str | None = None
                   ) -> tuple[np.ndarray, list, list[np.ndarray]]:
    """The benchmark's ``n``-th rack of seed ``seed`` (``compose_rack``): one to three tiers
    in turn, 13 tiles on one tier or 5–11 a tier on more, every second one at a slant; with
    ``view``, every one drawn square-on and then seen so (``strong_view``)."""
    rng = np.random.default_rng([seed, n])
    tiers = 1 + n % 3
    per_tier = 13 if tiers == 1 else int(rng.integers(5, 12))
    photo, labels, outlines = compose_rack(tiles, tiers, per_tier, rng,
                                           slant=view is None and n % 2 == 1)
    if view is not None:
        photo, outlines = strong_view(photo, outlines, view, rng)
    return photo, labels, outlines


STRONG_VIEWS = ("one end nearer", "from above the near edge", "turned far")


def strong_view(photo: np.ndarray, outlines: list[np.ndarray], view: str,
                rng: np.random.Generator) -> tuple[np.ndarray, list[np.ndarray]]:
    """A composed rack (drawn square-on) seen harder than the benchmark's slant: "one end
    nearer" (the far end 40–60% as tall as the near one, turned up to 8°), "from above the
    near edge" (the top 30–50% narrower, turned up to 8°) or "turned far" (15–25°)."""
    height, width = photo.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = source
    if view == "one end nearer":
        shrink = rng.uniform(0.2, 0.3) * height
        target = np.float32([[0, 0], [width, shrink], [width, height - shrink], [0, height]])
    elif view == "from above the near edge":
        squeeze = rng.uniform(0.25, 0.35) * width
        target = np.float32([[squeeze, 0], [width - squeeze, 0], [width, height], [0, height]])
    elif view != "turned far":
        raise ValueError(f"no view {view!r}: one of {', '.join(STRONG_VIEWS)}")
    slant = cv2.getPerspectiveTransform(source, target)
    angle = (rng.uniform(15, 25) * rng.choice([-1, 1]) if view == "turned far"
             else rng.uniform(-8, 8))
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    edge = cv2.BORDER_REPLICATE
    photo = cv2.warpAffine(cv2.warpPerspective(photo, slant, (width, height), borderMode=edge),
                           turn, (width, height), borderMode=edge)
    return photo, [cv2.transform(cv2.perspectiveTransform(o[None], slant), turn)[0]
                   for o in outlines]


def where_found(outlines: list[np.ndarray], reading) -> list[str]:
    """For each tile composed, whether the reading has it on the rack, found but left off
    (``ignored``), or not found at all: no outline read holds the tile's centre."""
    def holds(outline, point) -> bool:
        contour = np.array(outline, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, point, False) >= 0
    placed = []
    for outline in outlines:
        centre = tuple(float(v) for v in outline.mean(axis=0))
        if any(holds(tile.outline, centre) for tile in reading.tiles):
            placed.append("on the rack")
        elif any(holds(other, centre) for other in reading.ignored):
            placed.append("left off")
        else:
            placed.append("not found")
    return placed


def tally_reading(tally: Counter[str], labels: list[Tile], outlines: list[np.ndarray],
                  reading: RackReading) -> tuple[Counter, Counter]:
    """Count a composed photo's reading into ``tally``: tiles right (number and colour),
    numbers right, read exactly, the value right, shown sure, tiles left off or not found.
    Returns the tiles composed and the tiles read."""
    placed = where_found(outlines, reading)
    truth, read = Counter(labels), Counter(reading.rack)
    tally["right"] += sum((truth & read).values())
    tally["numbers right"] += sum((Counter(map(number_of, labels))
                                   & Counter(map(number_of, reading.rack))).values())
    tally["exact"] += read == truth
    value_right = reading.value == rack_value(tuple(labels),
                                              joker_penalty=reading.preset.joker_penalty)
    sure = not any(tile.low_confidence for tile in reading.tiles)
    tally["value right"] += value_right
    tally["shown sure"] += sure
    tally["wrong value shown sure"] += (not value_right) and sure
    tally["right value shown sure"] += value_right and sure
    tally["left off"] += placed.count("left off")
    tally["not found"] += placed.count("not found")
    return truth, read


def measure(count: int, seed: int = 2900, view: str | None = None
            ) -> dict[str, dict[str, str | int]]:
    """Both designs' ``benchmark_rack``s, seen as ``view`` if one is given."""
    results = {}
    for design, tiles in (("current design (valid/ tiles)", current_tiles()),
                          ("classic design (its validation crops)", classic_tiles())):
        tally: Counter[str] = Counter()
        for n in range(count):
            photo, labels, outlines = benchmark_rack(tiles, seed, n, view)
            _, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
            tally["tiles"] += len(labels)
            try:
                reading = read_rack(jpeg.tobytes())
            except PhotoError:
                continue
            tally["found"] += 1
            tally_reading(tally, labels, outlines, reading)
        results[design] = {"found": f"{tally['found']}/{count}",
                           "exact": f"{tally['exact']}/{count}",
                           "tiles read right": f"{tally['right']}/{tally['tiles']}",
                           "numbers read right": f"{tally['numbers right']}/{tally['tiles']}",
                           "tiles left off": tally["left off"],
                           "tiles not found": tally["not found"],
                           "value right": f"{tally['value right']}/{count}",
                           "right value shown sure": tally["right value shown sure"],
                           "wrong value shown sure": tally["wrong value shown sure"]}
    return results


def number_of(tile: Tile) -> int:
    """A tile's number, 0 for the joker (what the numbers-only tallies count by)."""
    return 0 if tile.is_joker else tile.number or 0


def classic_stress(count: int, seed: int = 2900, *, only: set[str] | None = None,
                   verbose: bool = False) -> dict[str, dict[str, str | int]]:
    """The first ``count`` composed classic racks changed as a phone at a table changes a
    photo, read and counted as the 24 real racks are (``benchmarks.rack_stress``: its changes
    and its tally, number and colour); ``only``: those changes named."""
    from benchmarks.phone_changes import tally_changes
    from benchmarks.rack_stress import STRESS, LabelledRack, summarised, tally_read_rack

    tiles = classic_tiles()
    racks = []
    for n in range(count):
        photo, labels, outlines = benchmark_rack(tiles, seed, n)
        racks.append(LabelledRack(n, photo, tuple(labels), tuple(outlines)))
    return tally_changes(
        STRESS, racks,
        lambda rack, transform, tally: tally_read_rack(*transform(rack), tally),
        summarised, lambda rack: rack.number, only=only, verbose=verbose)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2900, help="the first of the racks' seeds")
    add_candidate_options(parser)
    parser.add_argument("--stress", action="store_true",
                        help="the classic racks changed as the real racks are (rack_stress)")
    parser.add_argument("--verbose", action="store_true", help="with --stress: each rack read wrong")
    parser.add_argument("--strong-views", action="store_true",
                        help="the racks drawn square-on, then seen each of strong_view's ways")
    args = parser.parse_args()
    use_candidates(args)
    if args.strong_views:
        for view in STRONG_VIEWS:
            for design, figures in measure(args.count, args.seed, view).items():
                print(view, "|", design, figures, flush=True)
        return
    if args.stress:
        from benchmarks.phone_changes import print_results
        print(f"== {args.count} composed classic racks changed 29 ways")
        print_results(classic_stress(args.count, args.seed, verbose=args.verbose),
                      verbose=args.verbose)
        return
    for design, figures in measure(args.count, args.seed).items():
        print(design, figures, flush=True)


if __name__ == "__main__":
    main()
