"""The labelled photos (YOLO segmentation polygons) as arrays the training scripts can use.

The photos are the "rummikub-nvypk" dataset v9 by Jonas Bühler (CC BY 4.0), shipped beside the
repository in ``../shared/vision-data/rummikub-photos-cc-by``. Only ``train/`` is ever used for
training or tuning; ``valid/`` is the measuring split of ``benchmarks/vision.py``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.core.tiles import Tile
from companion.vision.classes import tile_from_dataset_name


def _data_root() -> Path:
    """``$COMPANION_VISION_DATA``, else ``shared/vision-data`` beside the checkout or beside any
    folder above it (a git worktree may sit a level deeper); the benchmark reads the same."""
    if "COMPANION_VISION_DATA" in os.environ:
        return Path(os.environ["COMPANION_VISION_DATA"])
    checkout = Path(__file__).resolve().parents[1]
    candidates = [folder / "shared" / "vision-data" / "rummikub-photos-cc-by"
                  for folder in checkout.parents]
    return next((path for path in candidates if path.is_dir()), candidates[0])


DATA_ROOT = _data_root()


@dataclass(frozen=True)
class LabelledTile:
    tile: Tile
    polygon: np.ndarray  # (N, 2) float32, pixels


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    tiles: tuple[LabelledTile, ...]

    @property
    def photo_name(self) -> str:
        """The original photo's name: the three augmented copies of one photo share it."""
        return self.path.name.split("_jpeg")[0]

    def image(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read {self.path}")
        return image


def class_names(root: Path = DATA_ROOT) -> list[str]:
    text = (root / "data.yaml").read_text()
    match = re.search(r"names:\s*\[(.*?)\]", text, re.DOTALL)
    if match is None:
        raise ValueError("data.yaml has no names list")
    return [name.strip().strip("'\"") for name in match.group(1).split(",")]


def load_split(split: str, root: Path = DATA_ROOT) -> list[LabelledPhoto]:
    return _load(root / split, class_names(root), size=(640, 640))


def load_folder(folder: Path) -> list[LabelledPhoto]:
    """A folder of kept samples (``instance/samples``, written by companion.vision.samples):
    ``images/``, ``labels/`` and ``data.yaml`` side by side, pictures of any size."""
    return _load(folder, class_names(folder), size=None)


def _load(folder: Path, names: list[str], *, size: tuple[int, int] | None
          ) -> list[LabelledPhoto]:
    """``size`` None: read each picture's size (the dataset's are all letterboxed to 640)."""
    photos = []
    for image_path in sorted((folder / "images").glob("*.jpg")):
        label_path = folder / "labels" / (image_path.stem + ".txt")
        if size is None:
            height, width = LabelledPhoto(image_path, ()).image().shape[:2]
        else:
            width, height = size
        tiles = []
        for line in label_path.read_text().splitlines():
            parts = line.split()
            if len(parts) < 7:
                continue
            coords = np.array([float(v) for v in parts[1:]], dtype=np.float32).reshape(-1, 2)
            coords *= (width, height)
            tiles.append(LabelledTile(tile_from_dataset_name(names[int(parts[0])]), coords))
        photos.append(LabelledPhoto(image_path, tuple(tiles)))
    return photos
