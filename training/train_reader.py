"""Train the tile reader (53 classes and which end is up, from a tile crop) and export to ONNX.

    .venv/bin/python -m training.train_reader [--iterations 1500] [--out companion/vision/models/reader.onnx]
    .venv/bin/python -m training.train_reader --light --teacher companion/vision/models/reader.onnx \
        --iterations 300 --lr 5e-4 --threads 1 --out /tmp/reader-light.onnx

Crops come from the labelled polygons of ``train/`` (never ``valid/``) and from the cached
synthetic renders of ``training.render_synthetic`` (both tile designs), cut exactly as the
reader cuts them (``companion.vision.crops``), with the rectangle jittered as a detector
would, turned upside down half the time (the identity label stays: a 6 upside down is still a
6; the orientation label flips), and with warm/cold light, glare, blur and noise.

Which end is up: exact for the renders; for the real photos (current design, the number above
the middle) it is taken from where the ink lies (``ink_is_low``).
A dozen training photos are held out to pick the low-confidence threshold.

With ``--no-tile-share`` the reader learns a 54th class, "no tile" (``NO_TILE_CLASS``), from
boxes shaped like tiles cut where no tile lies (``training.negatives``): in the ``train/``
photos, the table renders and the rack renders of ``--negative-racks`` (every tile in them
labelled). That share of each batch is such boxes; their orientation is not taught.
``--init-onnx`` of a 53-class reader then starts from it with the new output added
(``with_no_tile``).

With ``--teacher`` (a shipped reader.onnx) the network is distilled: it starts from the
teacher's weights wherever its layers match (``--light`` blocks from the split of the
teacher's convolutions), learns the teacher's softened probabilities beside the labels, and
keeps the batch norms as the teacher's export folded them. With ``--no-tile-share`` the
teacher (the shipped 53-class reader) is heard on the tiles only: the student's "no tile" is
learned from the boxes alone, its reading of tiles kept near the teacher's. With
``--no-tile-only`` only the new output's weights learn (a linear read of the features the
reader already has): every tile's output, and so the reading of every tile among the 53,
stays the shipped reader's.
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

from companion.vision.classes import CLASS_INDEX, NO_TILE_CLASS, TILE_CLASSES
from companion.vision.crops import canonical_corners, crop_tile
from training.augment import ink_is_low, photometric
from training.dataset import load_folder, load_split
from training.negatives import negative_boxes
from training.networks import (
    TileReader,
    freeze_norms,
    init_from,
    load_folded_onnx,
    set_cosine_learning_rate,
    with_no_tile,
)
from training.render_synthetic import DEFAULT_CACHE
from training.small_crops import SmallCrops

HELD_OUT_PHOTOS = 12
IDENTITIES = len(TILE_CLASSES)


class Sample:
    """One labelled tile: which image, its outline, its class and its up direction."""

    def __init__(self, image_key: str, polygon: np.ndarray, label: int, up: np.ndarray) -> None:
        self.image_key = image_key
        self.polygon = polygon
        self.label = label
        self.up = up


def up_of(corners: np.ndarray) -> np.ndarray:
    up = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
    return up / (np.linalg.norm(up) or 1.0)


def jittered_rect(polygon: np.ndarray, rng: np.random.Generator, *, jitter: bool):
    (cx, cy), (w, h), angle = cv2.minAreaRect(polygon.astype(np.float32))
    if jitter:
        size = max(w, h)
        cx += rng.normal(0, 0.04) * size
        cy += rng.normal(0, 0.04) * size
        w *= rng.uniform(0.9, 1.12)
        h *= rng.uniform(0.9, 1.12)
        angle += rng.normal(0, 4)
    return (cx, cy), (w, h), angle


def make_crop(image: np.ndarray, sample: Sample, rng: np.random.Generator, *,
              train: bool, small_chance: float = 0.3,
              smallest: float = 0.4) -> tuple[np.ndarray, int]:
    """The crop and its orientation label (0 upright, 1 upside down).

    With ``small_chance`` the crop is shrunk (to ``smallest``–0.8 of its size) and blown up
    again, as a tile seen from further away than in the labelled photo.
    """
    corners = canonical_corners(jittered_rect(sample.polygon, rng, jitter=train))
    if float(up_of(corners) @ sample.up) < 0:
        corners = corners[[2, 3, 0, 1]]
    flipped = bool(train and rng.random() < 0.5)
    if flipped:
        corners = corners[[2, 3, 0, 1]]
    crop = crop_tile(image, corners)
    if train:
        if rng.random() < small_chance:
            crop = seen_further_off(crop, rng.uniform(smallest, 0.8))
        crop = photometric(crop, rng, hue_shift=False, glare_strength=35.0, blur_max=1.0)
    return crop, int(flipped)


def seen_further_off(crop: np.ndarray, factor: float) -> np.ndarray:
    """The crop shrunk to ``factor`` of its size and blown up again to its own: the tile as
    a photo taken further away shows it."""
    small = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR)


def small_crop(cached: SmallCrops, rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """One crop of a small tile cut as the pipeline cuts it (``training.small_crops``): turned
    upside down half the time, other light, a little noise; no more blur or JPEG (the shrunk
    picture had them). Returns the crop, its class and its orientation label."""
    index = int(rng.integers(len(cached.labels)))
    crop = cached.crops[index]
    flipped = bool(rng.random() < 0.5)
    if flipped:
        crop = np.ascontiguousarray(crop[::-1, ::-1])
    crop = photometric(crop, rng, hue_shift=False, glare_strength=35.0, blur_max=0.4)
    return crop, int(cached.labels[index]), int(flipped)


def real_samples(photos, images) -> list[Sample]:
    samples = []
    for photo in photos:
        for tile in photo.tiles:
            corners = canonical_corners(cv2.minAreaRect(tile.polygon))
            if ink_is_low(crop_tile(images[str(photo.path)], corners)):
                corners = corners[[2, 3, 0, 1]]
            samples.append(Sample(str(photo.path), tile.polygon, CLASS_INDEX[str(tile.tile)],
                                  up_of(corners)))
    return samples


def synthetic_samples(cache: Path, images: dict[str, np.ndarray]) -> list[Sample]:
    samples = []
    for answer_path in sorted(cache.glob("*.json")):
        image_path = answer_path.with_suffix(".jpg")
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        images[str(image_path)] = image
        for tile in json.loads(answer_path.read_text()):
            outline = np.array(tile["outline"], np.float32)
            samples.append(Sample(str(image_path), outline, CLASS_INDEX[tile["tile"]], up_of(outline)))
    return samples


def detected_samples(samples: list[Sample], images: dict[str, np.ndarray]) -> list[Sample]:
    """The same tiles as the shipped detector outlines them, so the reader learns its crops.

    Each tile the detector finds whose centre lies inside a labelled outline becomes a sample
    with the detector's rectangle, the label's class and the label's up direction.
    """
    from companion.vision.detect import find_tiles

    by_image: dict[str, list[Sample]] = {}
    for sample in samples:
        by_image.setdefault(sample.image_key, []).append(sample)
    found_samples = []
    for key, labelled in by_image.items():
        for tile in find_tiles(images[key]):
            for sample in labelled:
                inside = cv2.pointPolygonTest(sample.polygon.astype(np.float32), tile.centre, False)
                if inside >= 0:
                    box = cv2.boxPoints(tile.rect).astype(np.float32)
                    found_samples.append(Sample(key, box, sample.label, sample.up))
                    break
    return found_samples


def detected_samples_cached(samples: list[Sample], images: dict[str, np.ndarray],
                            cache: Path | None) -> list[Sample]:
    """``detected_samples``, kept in ``cache`` (a torch file, per picture) so a second run on
    the same pictures does not run the detector over them again. Only as good as the
    detector that filled it: delete the file when the shipped detector changes."""
    if cache is None:
        return detected_samples(samples, images)
    known: dict[str, list[tuple[np.ndarray, int, np.ndarray]]] = (
        torch.load(cache, weights_only=False) if cache.exists() else {})
    wanted = {s.image_key for s in samples}
    missing = [s for s in samples if s.image_key not in known]
    if missing:
        found = detected_samples(missing, images)
        for key in {s.image_key for s in missing}:
            known[key] = []
        for sample in found:
            known[sample.image_key].append((sample.polygon, sample.label, sample.up))
        torch.save(known, cache)
    return [Sample(key, polygon, label, up) for key in sorted(wanted)
            for polygon, label, up in known[key]]


def keep_first_blocks(model: TileReader, count: int) -> list[torch.nn.Parameter]:
    """Keep the first ``count`` convolution blocks of the features as they are (no gradient);
    returns the parameters left to learn. The first blocks see edges and strokes, which the
    shipped reader already has; the later ones and the classifier tell the tiles apart."""
    blocks = [m for m in model.features if isinstance(m, torch.nn.Sequential)]
    for block in blocks[:count]:
        for parameter in block.parameters():
            parameter.requires_grad_(False)
    return [p for p in model.parameters() if p.requires_grad]


def no_tile_samples(picture_tiles: dict[str, list[np.ndarray]], images: dict[str, np.ndarray],
                    per_picture: int, rng: np.random.Generator) -> list[Sample]:
    """``per_picture`` "no tile" boxes (at most) in each picture, given every labelled tile's
    outline in it."""
    samples = []
    up = np.array([0.0, -1.0])
    for key, polygons in picture_tiles.items():
        height, width = images[key].shape[:2]
        for box in negative_boxes((width, height), polygons, per_picture, rng):
            samples.append(Sample(key, cv2.boxPoints(box).astype(np.float32), NO_TILE_CLASS, up))
    return samples


def outlines_by_picture(samples: list[Sample]) -> dict[str, list[np.ndarray]]:
    by_picture: dict[str, list[np.ndarray]] = {}
    for sample in samples:
        by_picture.setdefault(sample.image_key, []).append(sample.polygon)
    return by_picture


def onnx_outputs(path: Path) -> int:
    """How many outputs a reader.onnx has: 53 tiles (then "no tile", if it has it) and 2
    orientations."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: i for i in graph.initializer}
    last = [n for n in graph.node if n.op_type == "Gemm"][-1]
    return int(numpy_helper.to_array(weights[last.input[1]]).shape[0])


def export_reader(model: torch.nn.Module, path: Path) -> None:
    """Write ``model`` as the ONNX file the app runs (a batch of 64×48 crops in, logits out)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, 64, 48), str(path), dynamo=False,
                      input_names=["crop"], output_names=["logits"], opset_version=13,
                      dynamic_axes={"crop": {0: "batch"}, "logits": {0: "batch"}})
    print(f"wrote {path}", flush=True)


def distillation_loss(logits: torch.Tensor, taught: torch.Tensor, temperature: float
                      ) -> torch.Tensor:
    """How far the student's softened probabilities are from the teacher's (KL divergence,
    scaled by the temperature squared so its gradients match the labels' loss)."""
    return F.kl_div(F.log_softmax(logits / temperature, 1), F.log_softmax(taught / temperature, 1),
                    reduction="batchmean", log_target=True) * temperature ** 2


def smoothed_cross_entropy(logits: torch.Tensor, labels: torch.Tensor,
                           smoothing: torch.Tensor) -> torch.Tensor:
    """Cross-entropy with label smoothing per sample (``smoothing``, one a row): the target is
    1 - s on the label and s spread evenly over every output, as ``F.cross_entropy``'s
    ``label_smoothing`` but each sample its own s."""
    log_probabilities = F.log_softmax(logits, 1)
    on_label = -log_probabilities.gather(1, labels[:, None])[:, 0]
    spread = -log_probabilities.mean(1)
    return ((1 - smoothing) * on_label + smoothing * spread).mean()


def to_tensor(crops: list[np.ndarray]) -> torch.Tensor:
    array = np.stack(crops).astype(np.float32) / 255.0
    return torch.from_numpy(array).permute(0, 3, 1, 2).contiguous()


def evaluate(model, samples, images, rng, name: str) -> None:
    """Accuracy on held-out tiles (their "no tile" probability too, when the reader has that
    output), and how many held-out "no tile" boxes it reads as such."""
    model.eval()
    identities = model.classify[-1].out_features - 2  # then the two orientation outputs
    if identities == IDENTITIES:
        samples = [s for s in samples if s.label != NO_TILE_CLASS]
    crops = [make_crop(images[s.image_key], s, rng, train=False)[0] for s in samples]
    if not crops:
        return
    with torch.no_grad():
        upright = model(to_tensor(crops))
        flipped = model(to_tensor([np.ascontiguousarray(c[::-1, ::-1]) for c in crops]))
    identity = (torch.softmax(upright[:, :identities], 1) + torch.softmax(flipped[:, :identities], 1)) / 2
    turn = torch.softmax(upright[:, identities:], 1)[:, 0] + torch.softmax(flipped[:, identities:], 1)[:, 1]
    if identities > IDENTITIES:
        no_tile = identity[:, NO_TILE_CLASS].numpy()
        blank = np.array([s.label == NO_TILE_CLASS for s in samples])
        for line in (0.3, 0.5, 0.7, 0.9):
            print(f"  {name}: no tile at {line}+: {(no_tile[blank] >= line).mean() if blank.any() else 0:.4f} "
                  f"of {blank.sum()} boxes of no tile, {(no_tile[~blank] >= line).sum()} of "
                  f"{(~blank).sum()} tiles", flush=True)
        samples = [s for s, b in zip(samples, blank) if not b]
        identity, turn = identity[~blank], turn[~blank]
        identity = identity[:, :IDENTITIES]
    prob = identity.numpy()
    labels = np.array([s.label for s in samples])
    predicted = prob.argmax(1)
    confidence = prob.max(1)
    right = predicted == labels
    print(f"{name}: accuracy {right.mean():.4f} over {len(labels)} tiles, "
          f"upright right {(turn.numpy() > 1).mean():.4f}", flush=True)
    for threshold in (0.5, 0.6, 0.7, 0.8, 0.9):
        flagged = confidence < threshold
        print(f"  threshold {threshold}: flags {flagged.mean():.3f} of tiles, "
              f"catches {(~right & flagged).sum()}/{(~right).sum()} misreads", flush=True)
    wrong = [(str(TILE_CLASSES[labels[i]]), str(TILE_CLASSES[predicted[i]]), round(float(confidence[i]), 2))
             for i in np.where(~right)[0]]
    print("  misreads (true, read, confidence):", wrong[:40], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=1500)
    parser.add_argument("--samples", type=Path, action="append", default=[],
                        help="a folder of kept samples (instance/samples) to learn from too")
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--out", type=Path, default=Path("companion/vision/models/reader.onnx"))
    parser.add_argument("--synthetic", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--extra-synthetic", type=Path, action="append", default=[],
                        help="more cached renders (e.g. of the classic design only), all for training")
    parser.add_argument("--synthetic-share", type=float, default=0.4,
                        help="share of each batch drawn from the renders")
    parser.add_argument("--small-chance", type=float, default=0.3,
                        help="chance a training crop is shrunk as if seen from further away")
    parser.add_argument("--smallest", type=float, default=0.4, help="the strongest such shrink")
    parser.add_argument("--small-crops", type=Path,
                        help="crops of small tiles cut from shrunk pictures (training.small_crops)")
    parser.add_argument("--small-share", type=float, default=0.4,
                        help="share of each batch drawn from --small-crops")
    parser.add_argument("--small-label-smoothing", type=float, default=0.05,
                        help="label smoothing of the --small-crops (the others': 0.05); more "
                             "keeps the reader less sure of small tiles")
    parser.add_argument("--weights", type=Path, default=Path("/tmp/reader.pt"),
                        help="where the trained PyTorch weights are saved")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--init", type=Path, help="start from these weights (a .pt state dict)")
    parser.add_argument("--init-onnx", type=Path,
                        help="start from a reader.onnx (fine-tuning; batch norms kept fixed)")
    parser.add_argument("--detected", action="store_true",
                        help="also train on the shipped detector's outlines of the same tiles")
    parser.add_argument("--detected-cache", type=Path,
                        help="keep the detector's outlines of each picture in this file "
                             "(reused by the next run; delete it when the detector changes)")
    parser.add_argument("--keep-first-blocks", type=int, default=0,
                        help="keep the first N convolution blocks as they were (of 7)")
    parser.add_argument("--light", action="store_true",
                        help="the cheaper reader (separable blocks at the two finest resolutions)")
    parser.add_argument("--teacher", type=Path,
                        help="distil from this reader.onnx (and start from its weights)")
    parser.add_argument("--temperature", type=float, default=2.0,
                        help="softening of the teacher's and the student's probabilities")
    parser.add_argument("--no-tile-share", type=float, default=0.0,
                        help="share of each batch of boxes where no tile lies (0: no such class)")
    parser.add_argument("--negatives-per-picture", type=int, default=8,
                        help="'no tile' boxes cut from each labelled photo and render")
    parser.add_argument("--no-tile-only", action="store_true",
                        help="learn only the 'no tile' output (from the last layer's features), "
                             "every other output kept as it was")
    parser.add_argument("--negative-racks", type=Path, action="append", default=[],
                        help="cached rack renders (render_synthetic --racks), for 'no tile' boxes")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    photos = load_split("train") + [p for folder in args.samples for p in load_folder(folder)]
    names = sorted({p.photo_name for p in photos})
    held_out = set(rng.choice(names, HELD_OUT_PHOTOS, replace=False))
    images = {str(p.path): p.image() for p in photos}
    train = real_samples([p for p in photos if p.photo_name not in held_out], images)
    check = real_samples([p for p in photos if p.photo_name in held_out], images)
    synthetic = synthetic_samples(args.synthetic, images)
    synthetic_check, synthetic = synthetic[:300], synthetic[300:]
    for extra in args.extra_synthetic:
        synthetic += synthetic_samples(extra, images)
    if args.detected:
        train = train + detected_samples_cached(train, images, args.detected_cache)
        synthetic = synthetic + detected_samples_cached(synthetic, images, args.detected_cache)
        check = detected_samples_cached(check, images, args.detected_cache)
    print(f"{len(train)} real training tiles, {len(check)} held out, "
          f"{len(synthetic)} synthetic", flush=True)
    negatives: list[Sample] = []
    with_no_tile_class = args.no_tile_share > 0
    identities = IDENTITIES + int(with_no_tile_class)
    if with_no_tile_class:
        per = args.negatives_per_picture
        negatives = no_tile_samples(outlines_by_picture(train), images, per, rng)
        negatives += no_tile_samples(outlines_by_picture(synthetic), images, per, rng)
        check += no_tile_samples(outlines_by_picture(check), images, per, rng)
        synthetic_check += no_tile_samples(outlines_by_picture(synthetic_check), images, per, rng)
        racks: list[Sample] = []
        for folder in args.negative_racks:
            racks += synthetic_samples(folder, images)
        rack_negatives = no_tile_samples(outlines_by_picture(racks), images, per, rng)
        negatives += rack_negatives[len(rack_negatives) // 10:]
        check += rack_negatives[:len(rack_negatives) // 10]
        print(f"{len(negatives)} boxes of no tile to learn, {len(rack_negatives)} of them "
              "on racks (a tenth held out)", flush=True)
    # a reader started from (or distilled from) one with the "no tile" output keeps it, and
    # must go on learning it
    started_from = args.init_onnx or args.teacher
    outputs = onnx_outputs(started_from) if started_from is not None else IDENTITIES + 2
    if outputs > IDENTITIES + 2 and not with_no_tile_class:
        parser.error(f"{started_from} has a 'no tile' output: give --no-tile-share too")
    model = TileReader(classes=outputs, light=args.light)
    if args.init is not None:
        if with_no_tile_class:
            model = TileReader(classes=identities + 2, light=args.light)
        model.load_state_dict(torch.load(args.init))
    if args.init_onnx is not None:
        load_folded_onnx(model, args.init_onnx)
        evaluate(model, check, images, rng, "held-out real, before")
    teacher = None
    if args.teacher is not None:
        teacher = TileReader(classes=onnx_outputs(args.teacher))
        load_folded_onnx(teacher, args.teacher)
        teacher.eval()
        evaluate(teacher, check, images, rng, "held-out real, the teacher")
        if args.init is None and args.init_onnx is None:
            left = init_from(model, teacher)
            print(f"from the teacher: all but {left}", flush=True)
        evaluate(model, check, images, rng, "held-out real, before")
    if with_no_tile_class and model.classify[-1].out_features == IDENTITIES + 2:
        model = with_no_tile(model)
    keep_norms = args.init_onnx is not None or teacher is not None
    trained = list(model.parameters())
    restore_tiles = None
    if args.keep_first_blocks:
        trained = keep_first_blocks(model, args.keep_first_blocks)
    if args.no_tile_only:
        # only the "no tile" output's row of the last layer learns: every tile's and the
        # orientation's output stays the shipped reader's, to the bit
        last = model.classify[-1]
        for parameter in model.parameters():
            parameter.requires_grad_(parameter is last.weight or parameter is last.bias)
        trained = [last.weight, last.bias]
        others = torch.arange(last.out_features) != NO_TILE_CLASS
        kept_weight, kept_bias = last.weight[others].detach().clone(), last.bias[others].detach().clone()

        def restore_tiles() -> None:
            with torch.no_grad():
                last.weight[others] = kept_weight
                last.bias[others] = kept_bias
    cached_small = SmallCrops.load(args.small_crops) if args.small_crops is not None else None
    if cached_small is not None:
        print(f"{len(cached_small.labels)} crops of small tiles", flush=True)
    optimiser = torch.optim.AdamW(trained, lr=args.lr, weight_decay=5e-4)
    started = time.time()
    for iteration in range(args.iterations):
        set_cosine_learning_rate(optimiser, args.lr, iteration, args.iterations)
        made = []
        small_count = 0
        if cached_small is not None:
            # the batch's small crops first, so their label smoothing can differ
            small_count = int((rng.random(args.batch) < args.small_share).sum())
            made = [small_crop(cached_small, rng) for _ in range(small_count)]
        for _ in range(args.batch - small_count):
            if negatives and rng.random() < args.no_tile_share:
                pool = negatives
            else:
                pool = synthetic if synthetic and rng.random() < args.synthetic_share else train
            sample = pool[int(rng.integers(len(pool)))]
            crop, turn = make_crop(images[sample.image_key], sample, rng, train=True,
                                   small_chance=args.small_chance, smallest=args.smallest)
            made.append((crop, sample.label, turn))
        crops = to_tensor([crop for crop, _, _ in made])
        labels = torch.tensor([label for _, label, _ in made])
        turns = torch.tensor([turn for _, _, turn in made])
        model.train()
        if keep_norms:
            freeze_norms(model)
        logits = model(crops)
        is_tile = labels != NO_TILE_CLASS if with_no_tile_class else torch.ones_like(labels, dtype=torch.bool)
        smoothing = torch.full((len(made),), 0.05)
        smoothing[:small_count] = args.small_label_smoothing
        loss = (smoothed_cross_entropy(logits[:, :identities], labels, smoothing)
                + 0.5 * F.cross_entropy(logits[is_tile, identities:], turns[is_tile]))
        if teacher is not None:
            # taught on the tiles only (a 53-class teacher has nothing to say of "no tile"),
            # its tiles' probabilities against the student's over the same 53 outputs
            with torch.no_grad():
                taught = teacher(crops[is_tile])
            loss = loss + (distillation_loss(logits[is_tile, :IDENTITIES], taught[:, :IDENTITIES],
                                             args.temperature)
                           + 0.5 * distillation_loss(logits[is_tile, identities:],
                                                     taught[:, -2:], args.temperature))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if restore_tiles is not None:
            restore_tiles()
        if iteration % 50 == 0:
            print(f"{iteration:5d} loss {loss.item():.4f} {time.time() - started:.0f}s", flush=True)
    evaluate(model, check, images, rng, "held-out real")
    if synthetic_check:
        evaluate(model, synthetic_check, images, rng, "held-out synthetic")
    torch.save(model.state_dict(), args.weights)
    export_reader(model, args.out)


if __name__ == "__main__":
    main()
