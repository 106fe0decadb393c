"""The table reader on the `valid/` photos as phones at other tables take them.

``python -m benchmarks.vision --valid-stress`` (or ``python -m benchmarks.table_stress
[--verbose] [--only NAME ...]`` alone): each of the 34 labelled `valid/` photos is changed by
each change below (``benchmarks.phone_changes``, shared with the racks' stress set), saved as
a JPEG (quality 95 unless the change is the JPEG quality) and read from its bytes through
``read_photo``. A player across the table photographs it upside down, one at its side a
quarter turn round, anyone a little turned; from a slant; in a dim or bright room, under a
warm lamp or cold daylight; a small sensor's noise, a soft focus, a strong JPEG; the frame
cutting through the tiles at its edge. The labelled outlines are moved with the photo, so a
read tile matches its true tile exactly (its centre inside the true outline, as
``benchmarks.vision.score`` matches). Nothing is random but what the photo's number seeds:
every run reads the same bytes.

Per change: tiles found, read right, **tiles read wrong and not flagged** ``low_confidence``
(the worst: the user trusts them; a tile the frame cuts through is not required, but read
wrong and shown as sure it counts here too), extra boxes (over no labelled tile; how many of
them not flagged) and photos with tiles refused, by PhotoError code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks import phone_changes as phone
from benchmarks.phone_changes import Change, Changed
from companion.core.tiles import Tile
from companion.vision import PhotoError, read_photo
from companion.vision.reading import PhotoReading


@dataclass(frozen=True)
class LabelledTable:
    name: str
    number: int  # the photo's number, seeding what is random about its copies
    image: np.ndarray  # BGR, as stored
    tiles: tuple[Tile, ...]
    outlines: tuple[np.ndarray, ...]  # each (N, 2) float32 in the image's pixels


STRESS: dict[str, Change] = {
    "as taken": phone.as_taken,
    "turned 15°": phone.rotated(15),
    "turned -15°": phone.rotated(-15),
    "turned 30°": phone.rotated(30),
    "turned -30°": phone.rotated(-30),
    "quarter turn clockwise": phone.quarter_turns(cv2.ROTATE_90_CLOCKWISE),
    "quarter turn anticlockwise": phone.quarter_turns(cv2.ROTATE_90_COUNTERCLOCKWISE),
    "half turn (upside down)": phone.quarter_turns(cv2.ROTATE_180),
    "turned 165°": phone.rotated(165),
    "from higher (top 25% narrower)": phone.keystone(0.25, 0, 0, 0),
    "from lower (bottom 20% narrower)": phone.keystone(0, 0.2, 0, 0),
    "from the left (right 25% shorter)": phone.keystone(0, 0, 0, 0.25),
    "from the right (left 25% shorter)": phone.keystone(0, 0, 0.25, 0),
    "under-exposed 1.5 stops": phone.exposure(-1.5),
    "over-exposed 1 stop": phone.exposure(1.0),
    "warm light": phone.white_balance(1.2, 0.75),
    "cold light": phone.white_balance(0.8, 1.2),
    "JPEG quality 40": phone.jpeg(40),
    "sensor noise (sigma 8)": phone.sensor_noise(8.0),
    "out of focus (sigma 1.2)": phone.focus_blur(1.2),
    "out of focus (sigma 2)": phone.focus_blur(2.0),
    "cut at the left edge": phone.cut_through_end_tile("left"),
    "cut at the bottom edge": phone.cut_through_end_tile("bottom"),
}


def labelled_tables(split: str = "valid") -> list[LabelledTable]:
    """Every photo of ``split``, in name order (those without tiles too: nothing may be read
    on them)."""
    from benchmarks.vision import labelled_tiles
    from training.dataset import DATA_ROOT

    tables = []
    for path in sorted((DATA_ROOT / split / "images").glob("*.jpg")):
        labelled = labelled_tiles(path)
        number = path.stem.split("_")[0].split("-")[-1]
        tables.append(LabelledTable(
            path.stem.split("_")[0], int(number) if number.isdigit() else 0,
            cv2.imread(str(path), cv2.IMREAD_COLOR),
            tuple(tile for tile, _ in labelled), tuple(outline for _, outline in labelled)))
    return tables


def _matches(reading: PhotoReading, changed: Changed) -> dict[int, int]:
    """Read tile → true tile: a read tile's centre inside a true outline, the nearest true
    centre first, each true tile matched at most once (as benchmarks.vision.score). A tile
    the frame cuts through shows only in part, and its box may be drawn over that part
    alone: a read tile left unmatched whose box overlaps such a tile's outline is matched to
    it."""
    centres = [np.mean(np.array(read.outline, np.float32), axis=0) for read in reading.tiles]
    candidates = []
    for r, centre in enumerate(centres):
        for t, outline in enumerate(changed.outlines):
            if cv2.pointPolygonTest(outline.astype(np.float32),
                                    tuple(map(float, centre)), False) >= 0:
                candidates.append((float(np.linalg.norm(centre - outline.mean(axis=0))), r, t))
    matched: dict[int, int] = {}
    for _, r, t in sorted(candidates):
        if r not in matched and t not in matched.values():
            matched[r] = t
    for t in sorted(changed.cut - set(matched.values())):
        outline = cv2.convexHull(changed.outlines[t].astype(np.float32))
        overlaps = [(cv2.intersectConvexConvex(
            np.array(read.outline, np.float32), outline)[0], r)
            for r, read in enumerate(reading.tiles) if r not in matched]
        area, r = max(overlaps, default=(0.0, -1))
        if area > 0:
            matched[r] = t
    return matched


def _tally(table: LabelledTable, change: Change, tally: Counter[str]) -> str:
    """Read one changed copy and count it; returns a short note of what went wrong ('' if
    every tile was found and read right with nothing extra)."""
    changed = change(table.image, table.outlines, table.number)
    required = [t for t in range(len(table.tiles))
                if t not in changed.cut and t not in changed.gone]
    tally["photos"] += 1
    tally["tiles"] += len(required)
    data = cv2.imencode(".jpg", changed.image,
                        [cv2.IMWRITE_JPEG_QUALITY, changed.quality])[1].tobytes()
    try:
        reading = read_photo(data)
    except PhotoError as error:
        if not required:
            return ""  # nothing to read: refusing is right
        tally["refused"] += 1
        tally[f"refused {error.code}"] += 1
        return f"refused ({error.code})"
    matched = _matches(reading, changed)
    notes = []
    for r, read in enumerate(reading.tiles):
        t = matched.get(r)
        if t is None:
            tally["extra"] += 1
            tally["extra unflagged"] += not read.low_confidence
            notes.append(f"extra {read.tile}@{read.confidence:.2f}"
                         f"{'' if read.low_confidence else ' UNFLAGGED'}")
            continue
        truth = table.tiles[t]
        if t in required:
            tally["found"] += 1
            tally["right"] += read.tile == truth
        if read.tile != truth:
            cut = " (cut)" if t in changed.cut else ""
            if not read.low_confidence:
                tally["wrong unflagged"] += 1
                notes.append(f"{truth}->{read.tile}@{read.confidence:.2f}{cut} UNFLAGGED")
            elif not cut:
                notes.append(f"{truth}->{read.tile}@{read.confidence:.2f}")
    missing = [str(table.tiles[t]) for t in required if t not in matched.values()]
    if missing:
        notes.append("missing " + " ".join(missing))
    return "; ".join(notes)


def stress(only: set[str] | None = None, *, verbose: bool = False
           ) -> dict[str, dict[str, str | int]]:
    """Every change in ``STRESS`` (or those named in ``only``) over the `valid/` photos."""
    return phone.tally_changes(STRESS, labelled_tables(), _tally, _summary,
                         lambda table: table.name, only=only, verbose=verbose)


def _summary(tally: Counter[str]) -> dict[str, str | int]:
    refused = ", ".join(f"{key.split(' ', 1)[1]} {count}" for key, count in sorted(tally.items())
                        if key.startswith("refused "))
    return {"found": f"{tally['found']}/{tally['tiles']}",
            "read right": f"{tally['right']}/{tally['tiles']}",
            "wrong not flagged": tally["wrong unflagged"],
            "extra (not flagged)": f"{tally['extra']} ({tally['extra unflagged']})",
            "refused": f"{tally['refused']}" + (f" ({refused})" if refused else "")}


def write_copies(out: Path, only: set[str] | None = None) -> None:
    """Each changed copy as the JPEG read, for eyeballing (``--write DIR``)."""
    out.mkdir(parents=True, exist_ok=True)
    for name, change in STRESS.items():
        if only and name not in only:
            continue
        for table in labelled_tables():
            changed = change(table.image, table.outlines, table.number)
            stem = f"{name.split(' (')[0].replace(' ', '-')}_{table.name}.jpg"
            cv2.imwrite(str(out / stem), changed.image,
                        [cv2.IMWRITE_JPEG_QUALITY, changed.quality])


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", help="change names (see STRESS)")
    parser.add_argument("--verbose", action="store_true", help="each wrong reading")
    parser.add_argument("--write", type=Path, help="also write the changed copies here")
    arguments = parser.parse_args()
    cv2.setNumThreads(2)
    if arguments.write:
        write_copies(arguments.write, set(arguments.only or ()))
    phone.print_results(stress(set(arguments.only or ()), verbose=arguments.verbose),
                  verbose=arguments.verbose)
