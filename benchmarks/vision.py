"""Benchmark of the photo reader on the real `valid/` photos and on the fixed synthetic set.

    .venv/bin/python -m benchmarks.vision [--synthetic 60] [--hard 36] [--racks 40] [--skip-valid]
        [--valid-scaled [40,30,24,18]] [--scaled-soft] [--valid-motion-blur [9,15]]
        [--real-racks] [--real-racks-stress] [--valid-stress]
        [--rack-kinds 8 (the default; 0: none)] [--shadows 30 (0: none)]
        [--classic-split] [--json out.json] [--confusions] [--reader candidate.onnx]
        [--detector candidate.onnx]

Measures, per data set: tile recall and precision (a read tile matches a true tile when its
centre lies inside the true outline; each true tile matches at most one read tile), identity
accuracy (number and colour, or joker, read right, over all true tiles: a missed tile counts as
wrong), exact-set rate (true sets found with exactly their tiles, every tile read right; on the
synthetic set also in laid order), whole-table verdict accuracy (the rules core's verdict on
what was read against its verdict on the truth; a table called legal that is not is counted
apart as a false "legal"), tiles missed, how many misreads (tiles found but read wrong: a
missed tile cannot be flagged) were flagged low-confidence, and milliseconds per photo. The
rack reader is measured on a fixed set of rack renders (``racks``), on a fixed set of each kind
of rack photo a real evening brings (``--rack-kinds``) and, with ``--real-racks``,
on the labelled photos: the 24 of racks, and the table photos it must refuse. ``--shadows``
measures photos with a shadow across the tiles: table and rack renders (an arm's soft shadow,
a hard shadow line, a side light: fixed seeds, held out) and `valid/` with a soft and a hard
shadow cast across its labelled tiles. ``--valid-scaled`` reads `valid/` shrunk so its tiles
are 40, 30, 24 and 18 px wide, several photos to a 640×640 JPEG (``benchmarks.scaled_set``: a
wider shot's many small real tiles; ``--scaled-soft`` also blurred a little, JPEG quality 70).
``--valid-motion-blur`` reads `valid/` under a line blur of 9 and 15 px (a shaken hand, one
direction per photo by a fixed seed: the kernel of ``benchmarks.phone_changes``).
``--valid-stress`` reads `valid/` changed as phones at other tables change a photo (turned, a
half or a quarter turn, from a slant, mis-exposed, tinted, noisy, soft, compressed, cut at an
edge: ``benchmarks.table_stress``), per change.
Speed: 12-megapixel JPEGs
(two real photos scaled up, and a rack render) read from their bytes, timed side by side with
``cv2.imdecode`` of the same file in the same run, with the peak memory of each.
``--classic-split`` reads the validation split of the real classic crops
(``benchmarks.classic_split``). ``--reader`` / ``--detector`` measure candidate ONNX networks in
place of the shipped ones.

The `valid/` labels have outlines but no sets: the true sets are derived from the labelled
outlines with the reader's own neighbour rule (companion.vision.layout). The labelled photos
are the "rummikub-nvypk" dataset v9 by Jonas Bühler (CC BY 4.0).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import cv2
import numpy as np

from benchmarks.candidates import add_candidate_options, use_candidates
from companion.core.melds import check_table
from companion.core.presets import PRESSMAN
from companion.core.tiles import ImpossibleTilesError, Tile
from companion.vision import PhotoError, read_image, read_photo, read_rack
from companion.vision.layout import group_into_sets
from companion.vision.reading import PhotoReading
from training.dataset import DATA_ROOT


@dataclass
class TruthTile:
    tile: Tile
    outline: np.ndarray  # (N, 2) float32


@dataclass
class Truth:
    tiles: list[TruthTile]
    sets: list[list[int]]  # indexes into tiles, in laid order when known
    ordered: bool  # whether the order within sets is known


@dataclass
class Tally:
    true_tiles: int = 0
    read_tiles: int = 0
    matched: int = 0
    read_right: int = 0
    true_sets: int = 0
    exact_sets: int = 0
    exact_sets_in_order: int = 0
    tables: int = 0
    verdict_right: int = 0
    false_legal: int = 0
    failures: int = 0
    milliseconds: list[float] = field(default_factory=list)
    confusions: dict[str, int] = field(default_factory=dict)
    low_confidence: int = 0
    low_confidence_wrong: int = 0
    wrong: int = 0  # true tiles missed or misread
    misread: int = 0  # true tiles found but read wrong (only these can be flagged)
    misread_confidence: list[float] = field(default_factory=list)
    right_confidence: list[float] = field(default_factory=list)
    extra_confident: int = 0  # read tiles matching no true tile, not flagged
    extra_jokers: int = 0  # read jokers matching no true tile (bare table read as a joker)
    extra_jokers_confident: int = 0  # ...of them not flagged

    def summary(self) -> dict[str, float | int]:
        def share(a: int, b: int) -> float:
            return round(a / b, 4) if b else 0.0
        return {
            "photos": self.tables,
            "true tiles": self.true_tiles,
            "tile recall": share(self.matched, self.true_tiles),
            "tile precision": share(self.matched, self.read_tiles),
            "identity accuracy": share(self.read_right, self.true_tiles),
            "exact-set rate": share(self.exact_sets, self.true_sets),
            "exact-set rate in laid order": share(self.exact_sets_in_order, self.true_sets),
            "table verdict accuracy": share(self.verdict_right, self.tables),
            "false legal tables": self.false_legal,
            "photos refused": self.failures,
            "true tiles missed": self.true_tiles - self.matched,
            "misreads flagged low-confidence": f"{self.low_confidence_wrong}/{self.misread}",
            "tiles flagged low-confidence": self.low_confidence,
            "right tiles flagged (the cost)": self.low_confidence - self.low_confidence_wrong,
            "most confident misread": round(max(self.misread_confidence, default=0.0), 3),
            **{f"right tiles under {threshold}": sum(c < threshold for c in self.right_confidence)
               for threshold in (0.85, 0.9)},
            "extra tiles": self.read_tiles - self.matched,
            "extra tiles not flagged": self.extra_confident,
            "jokers where no tile is (not flagged)":
                f"{self.extra_jokers} ({self.extra_jokers_confident})",
            "ms per photo (median)": round(statistics.median(self.milliseconds), 1)
            if self.milliseconds else 0.0,
        }


def truth_verdict(truth: Truth) -> bool | None:
    table = tuple(tuple(truth.tiles[i].tile for i in meld) for meld in truth.sets)
    try:
        return check_table(table, preset=PRESSMAN).legal
    except ImpossibleTilesError:
        return None


def derive_sets(tiles: list[TruthTile]) -> list[list[int]]:
    """True sets of a labelled photo from its outlines, with the reader's neighbour rule."""
    centres, ups, widths, heights = [], [], [], []
    for tile in tiles:
        (cx, cy), (w, h), angle = cv2.minAreaRect(tile.outline)
        box = cv2.boxPoints(((cx, cy), (w, h), angle))
        long_edge = box[1] - box[0] if np.hypot(*(box[1] - box[0])) >= np.hypot(*(box[2] - box[1])) \
            else box[2] - box[1]
        up = long_edge / (np.linalg.norm(long_edge) or 1.0)
        if up[1] > 0:
            up = -up
        centres.append((cx, cy))
        ups.append(up)
        widths.append(min(w, h))
        heights.append(max(w, h))
    return group_into_sets(np.array(centres), np.array(ups), np.array(widths), np.array(heights))


def score(reading: PhotoReading | None, truth: Truth, tally: Tally) -> None:
    tally.tables += 1
    tally.true_tiles += len(truth.tiles)
    tally.true_sets += len(truth.sets)
    if reading is None:
        tally.failures += 1
        tally.wrong += len(truth.tiles)
        if truth_verdict(truth) is False:
            tally.verdict_right += 1  # nothing read is not a "legal" call
        return
    tally.read_tiles += len(reading.tiles)
    # match: read tile centre inside a true outline; nearest true centre first
    match_of_true: dict[int, int] = {}
    used: set[int] = set()
    candidates = []
    for r, read in enumerate(reading.tiles):
        centre = np.mean(np.array(read.outline, np.float32), axis=0)
        for t, true in enumerate(truth.tiles):
            if cv2.pointPolygonTest(true.outline.astype(np.float32), tuple(map(float, centre)), False) >= 0:
                distance = float(np.linalg.norm(centre - true.outline.mean(axis=0)))
                candidates.append((distance, r, t))
    for _, r, t in sorted(candidates):
        if r in used or t in match_of_true:
            continue
        used.add(r)
        match_of_true[t] = r
    tally.matched += len(match_of_true)
    right_tiles = set()
    for t, true in enumerate(truth.tiles):
        r = match_of_true.get(t)
        read = reading.tiles[r] if r is not None else None
        if read is not None and read.tile == true.tile:
            tally.read_right += 1
            tally.right_confidence.append(read.confidence)
            right_tiles.add(t)
            if read.low_confidence:
                tally.low_confidence += 1
        else:
            tally.wrong += 1
            if read is not None:
                tally.misread += 1
                key = f"{true.tile}->{read.tile}"
                tally.confusions[key] = tally.confusions.get(key, 0) + 1
                tally.misread_confidence.append(read.confidence)
                if read.low_confidence:
                    tally.low_confidence += 1
                    tally.low_confidence_wrong += 1
    read_to_true = {r: t for t, r in match_of_true.items()}
    tally.extra_confident += sum(1 for r, read in enumerate(reading.tiles)
                                 if r not in read_to_true and not read.low_confidence)
    phantoms = [read for r, read in enumerate(reading.tiles)
                if r not in read_to_true and read.tile.is_joker]
    tally.extra_jokers += len(phantoms)
    tally.extra_jokers_confident += sum(not read.low_confidence for read in phantoms)
    read_sets = [[read_to_true.get(r, -1) for r in meld] for meld in reading.sets]
    for meld in truth.sets:
        for candidate in read_sets:
            if sorted(candidate) == sorted(meld) and all(t in right_tiles for t in meld):
                tally.exact_sets += 1
                if candidate == meld or (not truth.ordered and candidate == meld[::-1]) or not truth.ordered:
                    tally.exact_sets_in_order += 1
                break
    expected = truth_verdict(truth)
    said = reading.verdict.legal if reading.verdict is not None else False
    if said == bool(expected):
        tally.verdict_right += 1
    if said and not expected:
        tally.false_legal += 1


def read_timed(image: np.ndarray, tally: Tally) -> PhotoReading | None:
    started = time.perf_counter()
    try:
        reading = read_image(image, preset=PRESSMAN)
    except PhotoError:
        reading = None
    tally.milliseconds.append((time.perf_counter() - started) * 1000)
    return reading


def labelled_tiles(image_path: Path) -> list[tuple[Tile, np.ndarray]]:
    """The tiles labelled on one photo of the dataset (its ``labels/`` file beside
    ``images/``), each with its outline in the photo's 640 px."""
    names = _class_names()
    tiles = []
    labels = image_path.parent.parent / "labels" / f"{image_path.stem}.txt"
    for line in labels.read_text().splitlines():
        parts = line.split()
        if len(parts) < 7:
            continue
        outline = np.array([float(v) for v in parts[1:]], np.float32).reshape(-1, 2) * 640
        tiles.append((_tile_of(names[int(parts[0])]), outline))
    return tiles


def valid_split(split: str = "valid") -> Tally:
    """The labelled real photos of ``split`` (``valid/``; ``train/`` only to look at what
    the networks learned from, never to tune on)."""
    tally = Tally()
    for image_path in sorted((DATA_ROOT / split / "images").glob("*.jpg")):
        tiles = [TruthTile(tile, outline) for tile, outline in labelled_tiles(image_path)]
        truth = Truth(tiles, derive_sets(tiles), ordered=False)
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        score(read_timed(image, tally), truth, tally)
    return tally


def valid_shadowed(kinds: dict[str, Tally]) -> Tally:
    """The `valid/` photos with tiles, each read twice with a shadow cast across its labelled
    tiles (``training.synthetic.cast_shadow``): an arm's soft shadow and a hard shadow line,
    drawn from the photo's number, each kind also tallied in ``kinds``."""
    from training.synthetic import cast_shadow

    tally = Tally()
    for image_path in sorted((DATA_ROOT / "valid" / "images").glob("*.jpg")):
        tiles = [TruthTile(tile, outline) for tile, outline in labelled_tiles(image_path)]
        if not tiles:
            continue
        truth = Truth(tiles, derive_sets(tiles), ordered=False)
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR).astype(np.float32)
        number = image_path.stem.split("_")[0].split("-")[-1]
        for k, kind in enumerate(("soft", "hard")):
            shaded = image.copy()
            cast_shadow(shaded, np.random.default_rng([int(number) if number.isdigit() else 0, k]),
                        kind, np.concatenate([tile.outline for tile in tiles]))
            reading = read_timed(np.clip(shaded, 0, 255).astype(np.uint8), tally)
            score(reading, truth, tally)
            kinds.setdefault(f"valid/, {kind}", Tally())
            kinds[f"valid/, {kind}"].milliseconds.append(tally.milliseconds[-1])
            score(reading, truth, kinds[f"valid/, {kind}"])
    return tally


def valid_scaled(tile_width: float, *, soft: bool = False, split: str = "valid") -> Tally:
    """The `valid/` photos shrunk so their tiles are ``tile_width`` px wide, several to a
    640×640 JPEG (``benchmarks.scaled_set``: a wider shot's many small real tiles), read from
    their bytes through ``read_photo``. Their true sets are derived per canvas, as `valid/`'s."""
    from benchmarks.scaled_set import scaled_canvases

    tally = Tally()
    for canvas in scaled_canvases(tile_width, soft=soft, split=split):
        tiles = [TruthTile(tile, outline) for tile, outline in canvas.tiles]
        truth = Truth(tiles, derive_sets(tiles), ordered=False)
        started = time.perf_counter()
        try:
            reading: PhotoReading | None = read_photo(canvas.jpeg, preset=PRESSMAN)
        except PhotoError:
            reading = None
        tally.milliseconds.append((time.perf_counter() - started) * 1000)
        score(reading, truth, tally)
    return tally


def valid_motion_blurred(length: int, split: str = "valid") -> Tally:
    """The `valid/` photos with tiles under a line blur ``length`` px long (a shaken hand:
    the kernel of benchmarks/phone_changes.py, its direction drawn from the photo's number, a
    fixed seed), saved as a JPEG and read from its bytes through ``read_photo``."""
    from benchmarks.phone_changes import JPEG_QUALITY, motion_blurred

    tally = Tally()
    for image_path in sorted((DATA_ROOT / split / "images").glob("*.jpg")):
        tiles = [TruthTile(tile, outline) for tile, outline in labelled_tiles(image_path)]
        if not tiles:
            continue
        truth = Truth(tiles, derive_sets(tiles), ordered=False)
        number = image_path.stem.split("_")[0].split("-")[-1]
        blurred = motion_blurred(cv2.imread(str(image_path), cv2.IMREAD_COLOR), length,
                                 int(number) if number.isdigit() else 0)
        started = time.perf_counter()
        try:
            reading: PhotoReading | None = read_photo(
                cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1]
                .tobytes(), preset=PRESSMAN)
        except PhotoError:
            reading = None
        tally.milliseconds.append((time.perf_counter() - started) * 1000)
        score(reading, truth, tally)
    return tally


SCALED_WIDTHS = "40,30,24,18"


def synthetic(count: int, *, hard: bool = False,
              kinds: dict[str, Tally] | None = None) -> Tally:
    """The fixed synthetic set, or (``hard``) the fixed set of harder kinds, each kind also
    tallied on its own in ``kinds``."""
    from benchmarks.synthetic_set import HARD_KINDS, hard_set, synthetic_set

    tally = Tally()
    for number, rendered in enumerate(hard_set(count) if hard else synthetic_set(count)):
        tiles = [TruthTile(t.tile, np.array(t.outline, np.float32)) for t in rendered.tiles]
        sets: dict[int, list[tuple[int, int]]] = {}
        for index, t in enumerate(rendered.tiles):
            sets.setdefault(t.set_index, []).append((t.position, index))
        truth = Truth(tiles, [[i for _, i in sorted(s)] for _, s in sorted(sets.items())], ordered=True)
        reading = read_timed(rendered.image, tally)
        score(reading, truth, tally)
        if hard and kinds is not None:
            kind = kinds.setdefault(HARD_KINDS[number % len(HARD_KINDS)], Tally())
            kind.milliseconds.append(tally.milliseconds[-1])
            score(reading, truth, kind)
    return tally


def shadowed(count: int, seed: int, kinds: dict[str, Tally]) -> Tally:
    """The fixed set of table renders with a shadow across the tiles
    (``benchmarks.synthetic_set.shadow_set``), each kind of shadow also tallied in ``kinds``."""
    from benchmarks.synthetic_set import shadow_set
    from training.synthetic import SHADOWS

    tally = Tally()
    for number, rendered in enumerate(shadow_set(count, seed)):
        tiles = [TruthTile(t.tile, np.array(t.outline, np.float32)) for t in rendered.tiles]
        sets: dict[int, list[tuple[int, int]]] = {}
        for index, t in enumerate(rendered.tiles):
            sets.setdefault(t.set_index, []).append((t.position, index))
        truth = Truth(tiles, [[i for _, i in sorted(s)] for _, s in sorted(sets.items())],
                      ordered=True)
        reading = read_timed(rendered.image, tally)
        score(reading, truth, tally)
        kind = kinds.setdefault(SHADOWS[number % len(SHADOWS)], Tally())
        kind.milliseconds.append(tally.milliseconds[-1])
        score(reading, truth, kind)
    return tally


def _twelve_mp_jpeg(image: np.ndarray, size: tuple[int, int] = (4000, 3000)) -> bytes:
    big = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    return cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def _elapsed_ms(action: object, *arguments: object) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one call (CPU time is what a machine shared with
    other work still measures fairly)."""
    started, started_cpu = time.perf_counter(), time.process_time()
    action(*arguments)  # type: ignore[operator]
    return ((time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000)


_PEAK_SCRIPT = """
import sys, cv2, numpy as np
from companion.vision import read_photo, read_rack, PhotoError
cv2.setNumThreads(2)
data = open(sys.argv[2], 'rb').read()
small = cv2.imencode('.jpg', np.full((64, 64, 3), 90, np.uint8))[1].tobytes()
try:
    read_photo(small)  # loads the networks before the baseline
except PhotoError:
    pass
def status(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1])
open('/proc/self/clear_refs', 'w').write('5')  # restart the peak (VmHWM) from here
before = status('VmRSS:')
if sys.argv[1] == 'decode':
    cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
else:
    try:
        (read_rack if sys.argv[1] == 'rack' else read_photo)(data)
    except PhotoError:
        pass
print(status('VmHWM:') - before)
"""


def peak_megabytes(mode: str, data: bytes) -> float:
    """Peak memory (VmHWM, restarted after the networks are loaded) a fresh interpreter adds
    to decode or read ``data``; Linux only."""
    import subprocess
    import sys
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".jpg") as photo:
        photo.write(data)
        photo.flush()
        result = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT, mode, photo.name],
                                capture_output=True, text=True, check=True)
    return round(int(result.stdout.strip()) / 1024, 1)


class _NetworkClock:
    """While installed, the CPU time of the networks' forward passes (``networks.run``), per
    network, and how many crops the reader read: the rest of a read is the work around
    them (decode, light and quality checks, crops, second outlines, sets)."""

    def __enter__(self) -> Self:
        from companion.vision import networks

        self.cpu_ms: Counter[str] = Counter()
        self.crops = 0
        self._run = run = networks.run

        def timed(path: Path, blob: np.ndarray) -> np.ndarray:
            started = time.process_time()
            try:
                return run(path, blob)
            finally:
                detectors = (networks.DETECTOR_FILE, networks.CLASSIC_DETECTOR_FILE)
                part = "detector" if path in detectors else "reader"
                self.cpu_ms[part] += (time.process_time() - started) * 1000
                self.crops += len(blob) if part == "reader" else 0

        networks.run = timed
        return self

    def __exit__(self, *exception: object) -> None:
        from companion.vision import networks

        networks.run = self._run


def twelve_megapixels(repeats: int = 5) -> dict[str, float]:
    """Read 4000×3000 JPEGs from their bytes, decode included, side by side with
    ``cv2.imdecode`` of the same file (the yardstick, measured in the same run).

    Three photos: the first of ``valid/`` (15 tiles), the one with the most tiles (54 small
    ones, which also takes the detector's second, larger look), and a rendered rack.
    """
    from training.synthetic_rack import random_rack, render_rack

    photos = sorted((DATA_ROOT / "valid" / "images").glob("*.jpg"))
    labels = DATA_ROOT / "valid" / "labels"
    busiest = max(photos, key=lambda path: len((labels / f"{path.stem}.txt").read_text().splitlines()))
    rack = render_rack(random_rack(np.random.default_rng(103), most=8), seed=103).image
    cases = (("a photo of 15 tiles", cv2.imread(str(photos[0])), read_photo, "photo"),
             ("a photo of 54 tiles", cv2.imread(str(busiest)), read_photo, "photo"),
             ("a rack photo", rack, read_rack, "rack"))
    results: dict[str, float] = {}
    for name, source, reader, mode in cases:
        data = _twelve_mp_jpeg(source)
        reader(data)  # warm-up: loads the networks
        buffer = np.frombuffer(data, np.uint8)
        decode, read, networks = [], [], []
        for _ in range(repeats):  # interleaved, so both see the same load on the machine
            decode.append(_elapsed_ms(cv2.imdecode, buffer, cv2.IMREAD_COLOR))
            with _NetworkClock() as clock:
                read.append(_elapsed_ms(reader, data))
            networks.append(clock)
        for unit, column in (("ms", 0), ("CPU ms", 1)):
            decode_ms = statistics.median(times[column] for times in decode)
            read_ms = statistics.median(times[column] for times in read)
            results[f"{name}: {unit} cv2.imdecode"] = round(decode_ms, 1)
            results[f"{name}: {unit} read"] = round(read_ms, 1)
            results[f"{name}: read / decode ({unit})"] = round(read_ms / decode_ms, 2)
        for part in ("detector", "reader"):
            results[f"{name}: CPU ms {part}"] = round(statistics.median(
                clock.cpu_ms[part] for clock in networks), 1)
        results[f"{name}: CPU ms outside the networks"] = round(statistics.median(
            times[1] - sum(clock.cpu_ms.values()) for times, clock in zip(read, networks)), 1)
        results[f"{name}: crops read"] = networks[0].crops
        results[f"{name}: peak MB decode"] = peak_megabytes("decode", data)
        results[f"{name}: peak MB read"] = peak_megabytes(mode, data)
    return results


RACK_SEEDS = 5_000_000  # the fixed rack set: seeds from here, far from any training render


def racks(count: int) -> dict[str, float | int | str]:
    """The rack reader on ``count`` fixed rack renders (one or two rows, every rack colour,
    both designs, slant, close-ups, tiles lying around the rack that must be left out)."""
    from training.synthetic_rack import random_rack, render_rack

    found_rack = exact = value_right = true_tiles = right = extra = 0
    strays = strays_left_out = confident_wrong = wrong_sure = 0
    times = []
    for seed in range(RACK_SEEDS, RACK_SEEDS + count):
        render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
        truth = Counter(render.rack_tiles)
        true_tiles += len(render.rack_tiles)
        strays += len(render.stray)
        started = time.perf_counter()
        try:
            reading = read_rack(cv2.imencode(".jpg", render.image)[1].tobytes())
        except PhotoError:
            times.append((time.perf_counter() - started) * 1000)
            continue
        times.append((time.perf_counter() - started) * 1000)
        found_rack += 1
        read = Counter(reading.rack)
        right += sum((truth & read).values())
        extra += sum((read - truth).values())
        exact += read == truth
        value_right += reading.value == sum(tile.number or 30 for tile in render.rack_tiles)
        strays_left_out += min(len(reading.ignored), len(render.stray))
        confident_wrong += sum(1 for tile in reading.tiles
                               if not tile.low_confidence and tile.tile not in truth)
        wrong_sure += read != truth and not any(tile.low_confidence for tile in reading.tiles)
    from training.synthetic import random_table, render_table

    tables_taken = tables_sure = 0
    for seed in range(RACK_SEEDS, RACK_SEEDS + count // 2):
        table = render_table(random_table(np.random.default_rng(seed)), seed=seed)
        try:
            table_reading = read_rack(cv2.imencode(".jpg", table.image)[1].tobytes())
        except PhotoError:
            continue
        tables_taken += 1
        tables_sure += not any(tile.low_confidence for tile in table_reading.tiles)
    return {
        "table photos taken for a rack": f"{tables_taken}/{count // 2}",
        "table photos given a sure rack value": tables_sure,
        "wrong racks shown sure": wrong_sure,
        "racks found": f"{found_rack}/{count}",
        "racks read exactly": f"{exact}/{count}",
        "rack value right": f"{value_right}/{count}",
        "rack tiles found and read right": round(right / max(true_tiles, 1), 4),
        "tiles wrongly counted on the rack": extra,
        "tiles off the rack left out": f"{strays_left_out}/{strays}",
        "confident misreads": confident_wrong,
        "ms per rack photo (median, 1280×960)": round(statistics.median(times), 1),
    }


SHADOW_RACK_SEEDS = 50_000_000  # the fixed shadowed racks; tuned on 51 000 000, checked on 52


def shadow_racks(count: int, first_seed: int = SHADOW_RACK_SEEDS
                 ) -> dict[str, dict[str, str | int]]:
    """The rack reader on ``count`` rack renders (as ``racks``) with a shadow across the rack's
    tiles (``training.synthetic.SHADOWS`` in turn), tallied per kind of shadow."""
    from training.synthetic import SHADOWS
    from training.synthetic_rack import random_rack, render_rack

    tallies: dict[str, Counter[str]] = {kind: Counter() for kind in SHADOWS}
    for number, seed in enumerate(range(first_seed, first_seed + count)):
        kind = SHADOWS[number % len(SHADOWS)]
        render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed, shadow=kind)
        tallies[kind]["photos"] += 1
        _tally_rack(render.image, render.rack_tiles, tallies[kind])
    results = {kind: _kind_summary(tally, tally["photos"]) for kind, tally in tallies.items()}
    results["all shadows"] = _kind_summary(sum(tallies.values(), Counter()), count)
    return results


RACK_KIND_SEEDS = 30_000_000  # the fixed set of each kind: seeds from here, 1000 a kind


def rack_kinds(per_kind: int, first_seed: int = RACK_KIND_SEEDS, *, tiers: bool = False
               ) -> dict[str, dict[str, str | int]]:
    """The rack reader on ``per_kind`` renders of each kind a real evening brings
    (``training.synthetic_rack.RACK_KINDS``: rack colours and wood, the classic design, one
    row, straight from the front or from above, many or few tiles, a wide gap, both jokers,
    glossy tiles, a hand or a second rack in the frame, a set lying in front). Kind ``k``'s
    seeds start at ``first_seed + 1000 k``; the benchmark's set is RACK_KIND_SEEDS, never
    tuned on (tune on other seeds). With ``tiers``, the kinds are TIER_KINDS instead (two-tier
    black racks whose upper tier stands on the lower tier's board), numbered on after
    RACK_KINDS's (kind ``k`` of them from ``first_seed + 1000 (15 + k)``)."""
    from training.synthetic_rack import RACK_KINDS, TIER_KINDS, rack_of_kind

    results: dict[str, dict[str, str | int]] = {}
    totals: Counter[str] = Counter()
    kinds = enumerate(TIER_KINDS, start=len(RACK_KINDS)) if tiers else enumerate(RACK_KINDS)
    for k, kind in kinds:
        tally: Counter[str] = Counter()
        for seed in range(first_seed + 1000 * k, first_seed + 1000 * k + per_kind):
            render = rack_of_kind(kind, seed)
            tally["off the rack"] += len(render.stray) + len(render.others)
            _tally_rack(render.image, render.rack_tiles, tally)
        totals += tally
        results[kind] = _kind_summary(tally, per_kind)
    results["all kinds"] = _kind_summary(totals,
                                         per_kind * len(TIER_KINDS if tiers else RACK_KINDS))
    return results


def _tally_rack(image: np.ndarray, rack_tiles: Sequence[Tile], tally: Counter[str]) -> None:
    """Read one rack render (as a JPEG) and count it into ``tally``: its tiles, whether a rack
    was found, read exactly, the tiles read right, extra and confidently misread, and whether
    the reading was shown sure (every tile sure), exact or not."""
    truth = Counter(rack_tiles)
    tally["tiles"] += len(rack_tiles)
    try:
        reading = read_rack(cv2.imencode(".jpg", image)[1].tobytes())
    except PhotoError:
        return
    read = Counter(reading.rack)
    tally["found"] += 1
    tally["exact"] += read == truth
    tally["right"] += sum((truth & read).values())
    tally["extra"] += sum((read - truth).values())
    tally["confident misreads"] += sum(1 for tile in reading.tiles
                                       if not tile.low_confidence and tile.tile not in truth)
    sure = not any(tile.low_confidence for tile in reading.tiles)
    tally["sure"] += sure and read == truth
    tally["wrong sure"] += sure and read != truth


def _kind_summary(tally: dict[str, int], count: int) -> dict[str, str | int]:
    return {"found": f"{tally['found']}/{count}", "exact": f"{tally['exact']}/{count}",
            "tiles read right": f"{tally['right']}/{tally['tiles']}",
            "extra tiles": tally["extra"], "confident misreads": tally["confident misreads"],
            "exact shown sure": tally["sure"], "wrong shown sure": tally["wrong sure"]}


# The labelled photos of a rack (black two-tier racks, every labelled tile standing on it): the
# first copy of each; the dataset's other photos are of tiles lying on a table, with no rack.
REAL_RACK_PHOTOS = tuple([f"rummy3-{n}_" for n in (2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                   16, 17, 18, 20)]
                         + [f"rummy4-{n}_" for n in (86, 87, 88, 89, 90, 92, 93)])


def real_racks() -> dict[str, object]:
    """The rack reader on the real labelled photos: the rack photos read (tiles, exact racks,
    racks found, values shown sure: every tile of the reading sure), and the table photos
    (one copy of each) it must answer "no rack found" or read with no sure value."""
    names = _class_names()
    first_copies: dict[str, Path] = {}
    for path in sorted(DATA_ROOT.glob("*/images/*.jpg")):
        first_copies.setdefault(path.name.split("_jpeg")[0] + "_", path)
    found = exact = true_tiles = right = extra = confident_wrong = 0
    right_sure = wrong_sure = tables_sure = 0
    no_rack = []
    tables_taken = []
    tables = 0
    for key, path in sorted(first_copies.items()):
        data = path.read_bytes()
        if key not in REAL_RACK_PHOTOS:
            tables += 1
            try:
                table_reading = read_rack(data)
            except PhotoError:
                continue
            tables_taken.append(key.rstrip("_"))
            tables_sure += not any(tile.low_confidence for tile in table_reading.tiles)
            continue
        label = path.parent.parent / "labels" / f"{path.stem}.txt"
        truth = Counter(_tile_of(names[int(line.split()[0])])
                        for line in label.read_text().splitlines() if line.strip())
        true_tiles += sum(truth.values())
        try:
            reading = read_rack(data)
        except PhotoError:
            no_rack.append(key.rstrip("_"))
            continue
        found += 1
        read = Counter(reading.rack)
        right += sum((truth & read).values())
        extra += sum((read - truth).values())
        exact += read == truth
        confident_wrong += sum(1 for tile in reading.tiles
                               if not tile.low_confidence and tile.tile not in truth)
        if not any(tile.low_confidence for tile in reading.tiles):
            right_sure += read == truth
            wrong_sure += read != truth
    return {
        "real racks found": f"{found}/{len(REAL_RACK_PHOTOS)}",
        "real racks read exactly": f"{exact}/{len(REAL_RACK_PHOTOS)}",
        "real rack tiles read right": f"{right}/{true_tiles}",
        "tiles wrongly counted on the rack": extra,
        "confident misreads": confident_wrong,
        "exact racks shown sure": right_sure,
        "wrong racks shown sure": wrong_sure,
        "no rack found": " ".join(no_rack),
        "real table photos taken for a rack": f"{len(tables_taken)}/{tables}",
        "table photos given a sure rack value": tables_sure,
        "table photos taken": " ".join(tables_taken),
    }


def real_racks_shadowed() -> dict[str, str | int]:
    """The rack reader on the 24 real photos of racks, each read three times with a shadow
    cast across its labelled tiles (``training.synthetic.SHADOWS``, drawn from the photo's
    number): racks found, read exactly, tiles read right, tiles counted by mistake."""
    from training.synthetic import SHADOWS

    names = _class_names()
    first_copies: dict[str, Path] = {}
    for path in sorted(DATA_ROOT.glob("*/images/*.jpg")):
        first_copies.setdefault(path.name.split("_jpeg")[0] + "_", path)
    tally: Counter[str] = Counter()
    for key in REAL_RACK_PHOTOS:
        path = first_copies[key]
        lines = [line.split() for line in (path.parent.parent / "labels" / f"{path.stem}.txt")
                 .read_text().splitlines() if line.strip()]
        truth = Counter(_tile_of(names[int(line[0])]) for line in lines)
        outlines = np.concatenate([np.array([float(v) for v in line[1:]], np.float32)
                                   .reshape(-1, 2) * 640 for line in lines])
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        for kind in SHADOWS:
            # _tally_rack writes the JPEG at cv2's default quality, 95, as this set was measured
            _tally_rack(real_rack_shadowed(image, key, kind, outlines), list(truth.elements()),
                        tally)
    return _kind_summary(tally, len(REAL_RACK_PHOTOS) * len(SHADOWS))


def real_rack_shadowed(image: np.ndarray, key: str, kind: str, outlines: np.ndarray
                       ) -> np.ndarray:
    """A copy of the real rack photo ``key`` ("rummy3-5_") with a shadow of ``kind``
    (``training.synthetic.SHADOWS``) cast across its labelled tiles' ``outlines``, drawn from
    the photo's number as ``real_racks_shadowed`` draws it (the tests cast the same)."""
    from training.synthetic import SHADOWS, cast_shadow

    shaded = image.astype(np.float32)
    number = int(key.split("-")[1].rstrip("_"))
    cast_shadow(shaded, np.random.default_rng([number, SHADOWS.index(kind), 3]), kind, outlines)
    return np.clip(shaded, 0, 255).astype(np.uint8)


def _class_names() -> list[str]:
    text = (DATA_ROOT / "data.yaml").read_text()
    inner = text.split("names:", 1)[1].split("[", 1)[1].split("]", 1)[0]
    return [n.strip().strip("'\"") for n in inner.split(",")]


def _tile_of(name: str) -> Tile:
    from companion.vision.classes import tile_from_dataset_name
    return tile_from_dataset_name(name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--synthetic", type=int, default=60, help="synthetic photos (0: none)")
    parser.add_argument("--skip-valid", action="store_true")
    parser.add_argument("--skip-speed", action="store_true", help="no 12-megapixel timing")
    parser.add_argument("--hard", type=int, default=36,
                        help="photos of the harder synthetic kinds (0: none)")
    parser.add_argument("--racks", type=int, default=40, help="rack photos (0: none)")
    parser.add_argument("--rack-kinds", type=int, default=8,
                        help="renders of each kind of rack photo (RACK_KINDS; 0: none)")
    parser.add_argument("--rack-kinds-seed", type=int, default=RACK_KIND_SEEDS,
                        help="first seed of the kinds (the default is the fixed, held-out set)")
    parser.add_argument("--tier-kinds", type=int, default=8,
                        help="renders of each two-tier kind (TIER_KINDS, seeds as the rack "
                             "kinds'; 0: none)")
    parser.add_argument("--shadows", type=int, default=30,
                        help="table renders and rack renders with a shadow across the tiles, "
                             "and (unless --skip-valid) valid/ with one cast across (0: none)")
    parser.add_argument("--shadows-seed", type=int, default=None,
                        help="tables' seed (racks: 50 000 000 + 1000 × (seed − 2029)); the "
                             "default is the fixed, held-out set")
    parser.add_argument("--real-racks", action="store_true",
                        help="the rack reader on the real labelled photos (racks and tables)")
    parser.add_argument("--real-racks-stress", action="store_true",
                        help="the 24 real rack photos turned, seen at a slant, further off, "
                             "blurred, compressed, mis-exposed, tinted and cropped "
                             "(benchmarks/rack_stress.py)")
    parser.add_argument("--valid-stress", action="store_true",
                        help="valid/ turned, from a slant, mis-exposed, tinted, noisy, soft, "
                             "compressed and cut at an edge (benchmarks/table_stress.py)")
    parser.add_argument("--train-split", action="store_true",
                        help="also the 537 train/ photos (what the networks learned from)")
    parser.add_argument("--jokers-anywhere", action="store_true",
                        help="take jokers beside sets and in the tile map whatever the reader "
                             "(to count the jokers a reader without a 'no tile' output finds "
                             "on bare table)")
    parser.add_argument("--valid-scaled", nargs="?", const=SCALED_WIDTHS, default=None,
                        metavar="WIDTHS",
                        help="also valid/ shrunk so its tiles are these px wide (comma-separated; "
                             f"default {SCALED_WIDTHS}), several photos to a 640×640 JPEG")
    parser.add_argument("--scaled-soft", action="store_true",
                        help="with --valid-scaled, also each size a little blurred and saved "
                             "at JPEG quality 70 (a phone's wider shot)")
    parser.add_argument("--valid-motion-blur", nargs="?", const="9,15", default=None,
                        metavar="LENGTHS",
                        help="also valid/ under a line (motion) blur of these px (comma-separated; "
                             "default 9,15), one direction per photo by a fixed seed")
    parser.add_argument("--classic-split", action="store_true",
                        help="the validation split of the real classic crops "
                             "(benchmarks/classic_split.py)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--confusions", action="store_true")
    add_candidate_options(parser)
    args = parser.parse_args()
    cv2.setNumThreads(2)
    from companion.vision import networks
    use_candidates(args)
    if args.jokers_anywhere:  # networks.joker_may_stand asks it
        networks.reader_knows_no_tile = lambda: True
    results: dict[str, object] = {}
    tallies = {}
    if not args.skip_valid:
        tallies["valid/ (real photos)"] = valid_split()
    if args.train_split:
        tallies["train/ (real photos learned from)"] = valid_split("train")
    for width in (args.valid_scaled.split(",") if args.valid_scaled else []):
        tallies[f"valid/ scaled, tiles {width} px"] = valid_scaled(float(width))
        if args.scaled_soft:
            tallies[f"valid/ scaled, tiles {width} px, soft"] = valid_scaled(float(width),
                                                                            soft=True)
    for length in (args.valid_motion_blur.split(",") if args.valid_motion_blur else []):
        tallies[f"valid/, motion blur {length} px"] = valid_motion_blurred(int(length))
    if args.synthetic:
        tallies[f"synthetic ({args.synthetic} photos)"] = synthetic(args.synthetic)
    kinds: dict[str, Tally] = {}
    if args.hard:
        tallies[f"synthetic, harder kinds ({args.hard} photos)"] = synthetic(
            args.hard, hard=True, kinds=kinds)
    shadow_kinds: dict[str, Tally] = {}
    if args.shadows:
        from benchmarks.synthetic_set import SHADOW_SEED
        tallies[f"synthetic, shadows ({args.shadows} photos)"] = shadowed(
            args.shadows, args.shadows_seed or SHADOW_SEED, shadow_kinds)
        if not args.skip_valid:
            cast = valid_shadowed(shadow_kinds)
            tallies[f"valid/ with a shadow cast across ({cast.tables} photos)"] = cast
    for name, tally in tallies.items():
        results[name] = tally.summary()
        print(f"== {name}")
        for key, value in tally.summary().items():
            print(f"  {key:36s} {value}")
        if args.confusions:
            print("  misreads:", dict(sorted(tally.confusions.items(), key=lambda kv: -kv[1])))
    for kind, tally in kinds.items():
        summary = tally.summary()
        results[f"harder kind: {kind}"] = summary
        print(f"  {kind:20s} {summary['true tiles']:4d} tiles: found {summary['tile recall']:.4f}, "
              f"read right {summary['identity accuracy']:.4f}, misreads flagged "
              f"{summary['misreads flagged low-confidence']}")
    for kind, tally in shadow_kinds.items():
        summary = tally.summary()
        results[f"shadow: {kind}"] = summary
        print(f"  shadow {kind:15s} {summary['true tiles']:4d} tiles: found "
              f"{summary['tile recall']:.4f}, read right {summary['identity accuracy']:.4f}, "
              f"misreads flagged {summary['misreads flagged low-confidence']}, extra not "
              f"flagged {summary['extra tiles not flagged']}")
    if args.shadows:
        from benchmarks.synthetic_set import SHADOW_SEED
        rack_seed = SHADOW_RACK_SEEDS + 1000 * ((args.shadows_seed or SHADOW_SEED) - SHADOW_SEED)
        results["shadowed racks"] = by_shadow = shadow_racks(args.shadows, rack_seed)
        print(f"== shadowed racks ({args.shadows} renders, seeds from {rack_seed})")
        for kind, summary in by_shadow.items():
            print(f"  {kind:28s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    if args.racks:
        results["racks"] = racks(args.racks)
        print(f"== racks ({args.racks} rendered rack photos)")
        for key, value in results["racks"].items():
            print(f"  {key:36s} {value}")
    if args.rack_kinds:
        results["rack kinds"] = by_kind = rack_kinds(args.rack_kinds, args.rack_kinds_seed)
        print(f"== rack kinds ({args.rack_kinds} renders each, seeds from "
              f"{args.rack_kinds_seed})")
        for kind, summary in by_kind.items():
            print(f"  {kind:28s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    if args.tier_kinds:
        results["tier kinds"] = by_kind = rack_kinds(args.tier_kinds, args.rack_kinds_seed,
                                                     tiers=True)
        print(f"== two-tier kinds ({args.tier_kinds} renders each, seeds from "
              f"{args.rack_kinds_seed})")
        for kind, summary in by_kind.items():
            print(f"  {kind:32s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    if args.real_racks:
        real = real_racks()
        results["real racks"] = real
        print("== real photos through the rack reader")
        for key, value in real.items():
            print(f"  {key:36s} {value}")
        if args.shadows:
            results["real racks with a shadow cast"] = cast = real_racks_shadowed()
            print("  with a shadow cast (72 reads):     " + ", ".join(f"{k} {v}" for k, v in cast.items()))
    if args.classic_split:
        from benchmarks.classic_split import classic_split
        for turned in (False, True):
            classic = classic_split(turned=turned)
            results["classic split" + (", turned round" if turned else "")] = classic
            print("== the real classic crops' validation split" + (", turned" if turned else ""))
            for key, value in classic.items():
                print(f"  {key:36s} {value}")
    if args.real_racks_stress:
        from benchmarks.rack_stress import stress
        results["real racks, stress"] = by_change = stress()
        print("== the real rack photos changed as a phone at a table changes them (24 each)")
        for change, summary in by_change.items():
            print(f"  {change:36s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    if args.valid_stress:
        from benchmarks.table_stress import stress as table_stress
        results["valid/, stress"] = by_change = table_stress()
        print("== the valid/ table photos changed as phones at other tables change them (34 each)")
        for change, summary in by_change.items():
            print(f"  {change:36s} " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    if not args.skip_speed:
        results["12 MP"] = twelve_megapixels()
        print("== 12-megapixel photo")
        for key, value in results["12 MP"].items():
            print(f"  {key:36s} {value}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
