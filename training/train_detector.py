"""Train the tile detector (tile and tile-core masks) and export it to ONNX.

    .venv/bin/python -m training.train_detector [--iterations 900] [--out companion/vision/models/detector.onnx]
    .venv/bin/python -m training.train_detector --light --teacher companion/vision/models/detector.onnx \
        --iterations 600 --lr 5e-4 --threads 1 --out /tmp/detector-light.onnx

Data: ``train/`` of the labelled photos (never ``valid/``), plus the cached synthetic renders
of ``training.render_synthetic`` (both tile designs, four kinds of table), rotated to any angle,
scaled, and recoloured (hue turned, so tables of every colour are seen).

With ``--small-share S`` that share of the crops is cut from the picture shrunk whole so its
tiles are 16–26 px wide (INTER_AREA, softened most of the time: a blur and a strong JPEG, as
``training.small_crops`` and the benchmark's ``--valid-scaled`` shrink), then warped to the
crop at the width ``detect`` gives such tiles (its second look, about 24–34 px, or its first,
12–22 px). The targets are drawn from the full-size masks, so two touching tiles' cores stay
apart in them however soft the seam between the tiles is in the picture (issue 10: small soft
tiles' cores ran together). The teacher, whose cores run together there, teaches only on the
other crops unless ``--teacher-on-small``.

With ``--teacher`` (a shipped detector.onnx) the network is distilled: it starts from the
teacher's weights wherever its layers match (a ``--light`` decoder from the split of the
teacher's convolutions), learns the teacher's maps as soft targets beside the labels, and
keeps the batch norms as the teacher's export folded them. With ``--shadow-share S`` that
share of the crops has a shadow cast across its tiles (``synthetic.cast_shadow``); the
teacher is shown the crop without it, so it teaches the tiles as they were before the shadow.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from training.augment import photometric
from training.dataset import load_folder, load_split
from training.networks import (
    TileDetector,
    freeze_norms,
    init_from,
    load_folded_onnx,
    set_cosine_learning_rate,
)
from training.render_synthetic import DEFAULT_CACHE
from training.small_crops import median_width, shrunk_picture
from training.synthetic import SHADOWS, cast_shadow

CORE_SCALE = 0.5  # the core is the tile polygon shrunk to half about its centre (also in reading)
CROP = 256
GAP_WEIGHT = 4.0
SMALL_SOURCE_WIDTHS = (16.0, 26.0)  # the tile width (px) a small crop's picture is shrunk to
SMALL_SOFT_SHARE = 0.75  # of the small crops, those softened (blur and a strong JPEG)
SECOND_LOOK_WIDTHS = (24.0, 34.0)  # tile widths in the network's input at detect's second look
FIRST_LOOK_WIDTHS = (12.0, 22.0)  # ... and at its first, 512 px look of such a photo
FIRST_LOOK_SHARE = 0.25
SMALL_BLUR_MAX = 0.8  # the crop's own photometric blur, kept light on a softened picture

SHADOW_ON_TILES = 0.5  # of the shadowed crops, those whose shadow is aimed across their tiles

TrainingItem = tuple[np.ndarray, np.ndarray, float]  # image, masks (2, H, W), median tile width


def masks_for(photo_tiles: list[np.ndarray], shape: tuple[int, int]) -> np.ndarray:
    """Tile and core masks (2, H, W) uint8 from polygons in pixels."""
    tile = np.zeros(shape, np.uint8)
    core = np.zeros(shape, np.uint8)
    for polygon in photo_tiles:
        cv2.fillPoly(tile, [np.round(polygon).astype(np.int32)], 1)
    for polygon in photo_tiles:
        centre = polygon.mean(axis=0)
        shrunk = centre + (polygon - centre) * CORE_SCALE
        cv2.fillPoly(core, [np.round(shrunk).astype(np.int32)], 1)
    return np.stack([tile, core])


def tile_width(polygons: list[np.ndarray]) -> float:
    """The median tile's short side (px); 0 for a picture without tiles."""
    return median_width(polygons) if polygons else 0.0


def load_training_images(samples: list[Path] | None = None) -> list[TrainingItem]:
    """The ``train/`` photos, and the kept samples of each folder in ``samples``."""
    items = []
    photos = load_split("train") + [p for folder in samples or [] for p in load_folder(folder)]
    for photo in photos:
        image = photo.image()
        polygons = [t.polygon for t in photo.tiles]
        items.append((image, masks_for(polygons, image.shape[:2]), tile_width(polygons)))
    return items


def synthetic_images(cache: Path) -> list[TrainingItem]:
    """The cached renders of ``training.render_synthetic``, scaled to a 640 px long side."""
    items = []
    for answer_path in sorted(cache.glob("*.json")):
        image = cv2.imread(str(answer_path.with_suffix(".jpg")), cv2.IMREAD_COLOR)
        if image is None:
            continue
        scale = 640 / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        polygons = [np.array(t["outline"], np.float32) * scale
                    for t in json.loads(answer_path.read_text())]
        items.append((image, masks_for(polygons, image.shape[:2]), tile_width(polygons)))
    return items


def can_shrink(item: TrainingItem) -> bool:
    """Whether the picture's tiles are wider than the widest a small crop shrinks them to."""
    return item[2] > SMALL_SOURCE_WIDTHS[1] * 1.1


def sample(item: TrainingItem, rng: np.random.Generator, *, small: bool = False,
           shadow: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A CROP × CROP crop of the picture, turned and scaled, its masks at half that size,
    and the crop before any shadow; ``small``: cut from the picture shrunk and softened as a
    wide shot shows it (see the module's docstring), the masks still from the full-size
    outlines; ``shadow``: one of ``synthetic.SHADOWS`` cast across the crop's tiles."""
    image, masks, width = item
    h, w = image.shape[:2]
    source = image
    if small:
        # the crop shows the tiles at the width detect's look gives them
        looks = FIRST_LOOK_WIDTHS if rng.random() < FIRST_LOOK_SHARE else SECOND_LOOK_WIDTHS
        scale = rng.uniform(*looks) / width
        shrink = min(rng.uniform(*SMALL_SOURCE_WIDTHS) / width, scale)
        source = shrunk_picture(image, shrink, soft=bool(rng.random() < SMALL_SOFT_SHARE), rng=rng)
    else:
        # the reader letterboxes a photo to 512 px: tiles appear at 0.55–1.0 of their 640 px size
        scale = rng.uniform(0.5, 1.05)
    angle = rng.uniform(0, 360)
    tile_pixels = np.argwhere(masks[1][::8, ::8]) * 8
    if len(tile_pixels) and rng.random() < 0.75:  # most crops centre near a tile
        y, x = tile_pixels[int(rng.integers(len(tile_pixels)))] + rng.normal(0, 40, 2)
        centre = (float(x), float(y))
    else:
        centre = (rng.uniform(0.15 * w, 0.85 * w), rng.uniform(0.15 * h, 0.85 * h))
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += (CROP / 2 - centre[0], CROP / 2 - centre[1])
    border = tuple(int(v) for v in rng.integers(0, 60, 3)) if rng.random() < 0.5 else (0, 0, 0)
    # a pixel centre (x, y) of the shrunk picture lies at ((x + 0.5) / fx - 0.5, ...) in the full one
    to_full = np.array([w / source.shape[1], h / source.shape[0]])
    from_source = matrix * np.array([[*to_full, 1.0]])
    from_source[:, 2] += matrix[:, :2] @ (0.5 * to_full - 0.5)
    crop = cv2.warpAffine(source, from_source, (CROP, CROP), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    half = matrix / 2
    target = np.stack([cv2.warpAffine(m, half, (CROP // 2, CROP // 2), flags=cv2.INTER_LINEAR)
                       for m in masks.astype(np.float32)])
    crop = photometric(crop, rng, hue_shift=True, blur_max=SMALL_BLUR_MAX if small else 1.8)
    if shadow is None:
        return crop, target, crop
    shaded = crop.astype(np.float32)
    points = np.argwhere(target[0] > 0.5)[:, ::-1].astype(np.float64) * 2
    points = points[rng.permutation(len(points))[:400]]
    # aimed across the tiles (a hard shadow through four of the points), or, half of the
    # time, anywhere: a shadow on bare table is no tile
    aimed = len(points) >= 4 and rng.random() < SHADOW_ON_TILES
    cast_shadow(shaded, rng, shadow, points if aimed else points[:0])
    return np.clip(shaded, 0, 255).astype(np.uint8), target, crop


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    array = np.stack(images).astype(np.float32) / 255.0
    return torch.from_numpy(array).permute(0, 3, 1, 2).contiguous()


def dice_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum(dim=(0, 2, 3))
    total = prob.sum(dim=(0, 2, 3)) + target.sum(dim=(0, 2, 3))
    return (1 - (2 * inter + 1) / (total + 1)).mean()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=900)
    parser.add_argument("--samples", type=Path, action="append", default=[],
                        help="a folder of kept samples (instance/samples) to learn from too")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--out", type=Path, default=Path("companion/vision/models/detector.onnx"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--synthetic", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--init", type=Path, help="start from these weights (a .pt state dict)")
    parser.add_argument("--extra-synthetic", type=Path, action="append", default=[],
                        help="more cached renders to train on (e.g. smaller tiles, one design)")
    parser.add_argument("--weights", type=Path, default=Path("/tmp/detector.pt"),
                        help="where the trained PyTorch weights are saved")
    parser.add_argument("--light", action="store_true",
                        help="the cheaper detector (separable decoder blocks)")
    parser.add_argument("--teacher", type=Path,
                        help="distil from this detector.onnx (and start from its weights)")
    parser.add_argument("--teacher-weight", type=float, default=1.0,
                        help="weight of the teacher's maps against the labels")
    parser.add_argument("--small-share", type=float, default=0.0,
                        help="share of the crops cut from pictures shrunk to small, soft tiles")
    parser.add_argument("--teacher-on-small", action="store_true",
                        help="let the teacher teach on the small crops too")
    parser.add_argument("--shadow-share", type=float, default=0.0,
                        help="share of the crops with a shadow cast across their tiles (the "
                        "teacher, if any, shown the crop without it)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    items = load_training_images(args.samples) + synthetic_images(args.synthetic)
    for extra in args.extra_synthetic:
        items += synthetic_images(extra)
    shrinkable = [item for item in items if can_shrink(item)]
    print(f"{len(items)} training images, {len(shrinkable)} with tiles to shrink", flush=True)
    model = TileDetector(light=args.light)
    teacher = None
    if args.teacher is not None:
        teacher = TileDetector()
        load_folded_onnx(teacher, args.teacher)
        teacher.eval()
    if args.init is not None:
        model.load_state_dict(torch.load(args.init))
    elif teacher is not None:
        left = init_from(model, teacher)
        print(f"from the teacher: all but {left}", flush=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    started = time.time()
    for iteration in range(args.iterations):
        lr = set_cosine_learning_rate(optimiser, args.lr, iteration, args.iterations)
        small = rng.random(args.batch) < args.small_share
        # drawn only when asked for, so the commands of models/README.md draw as they did
        shadows = [SHADOWS[int(rng.integers(len(SHADOWS)))]
                   if args.shadow_share and rng.random() < args.shadow_share else None
                   for _ in small]
        batch = [sample(shrinkable[int(rng.integers(len(shrinkable)))], rng, small=True,
                        shadow=shadow) if is_small
                 else sample(items[int(rng.integers(len(items)))], rng, shadow=shadow)
                 for is_small, shadow in zip(small, shadows)]
        images = to_tensor([b[0] for b in batch])
        target = torch.from_numpy(np.stack([b[1] for b in batch]))
        model.train()
        if teacher is not None:
            freeze_norms(model)
        logits = model(images)
        # the strips between the cores of touching tiles decide whether they come apart: weigh them
        gaps = (target[:, :1] - target[:, 1:2]).clamp(min=0)
        weight = torch.cat([torch.ones_like(gaps), 1 + GAP_WEIGHT * gaps], 1)
        loss = (F.binary_cross_entropy_with_logits(logits, target, weight=weight)
                + dice_loss(logits, target))
        if teacher is not None:
            with torch.no_grad():
                # the tiles a shadow falls across are where they were before it
                taught = torch.sigmoid(teacher(to_tensor([b[2] for b in batch])))
            taught_weight = weight
            if not args.teacher_on_small:
                taught_weight = weight * torch.from_numpy(~small).float().view(-1, 1, 1, 1)
            loss = loss + args.teacher_weight * F.binary_cross_entropy_with_logits(
                logits, taught, weight=taught_weight)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if iteration % 25 == 0:
            print(f"{iteration:5d} loss {loss.item():.4f} lr {lr:.5f} {time.time() - started:.0f}s",
                  flush=True)
    model.eval()
    torch.save(model.state_dict(), args.weights)
    export_detector(model, args.out)
    print(f"wrote {args.out}", flush=True)


def export_detector(model: TileDetector, path: Path) -> None:
    """Write the detector as the ONNX file ``companion.vision.networks`` runs (any input size)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model.eval(), torch.zeros(1, 3, 512, 512), str(path), dynamo=False,
                      input_names=["image"], output_names=["masks"], opset_version=13,
                      dynamic_axes={"image": {2: "height", 3: "width"}})


if __name__ == "__main__":
    main()
