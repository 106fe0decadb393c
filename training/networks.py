"""The photo reader's small networks, as PyTorch modules (exported to ONNX)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn


def conv_block(in_channels: int, out_channels: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=dilation,
                  dilation=dilation, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


def separable_block(in_channels: int, out_channels: int) -> nn.Sequential:
    """A 3×3 convolution split in two, a 3×3 per input channel then a 1×1 across channels:
    about a ninth of the multiply-adds of ``conv_block`` with as many outputs.

    The two convolutions sit in one inner Sequential, so the batch norm has the same key as a
    ``conv_block``'s (``NAME.1``) and ``init_from`` can carry a shipped block's norm over.
    """
    return nn.Sequential(
        nn.Sequential(
            nn.Conv2d(in_channels, in_channels, 3, padding=1, groups=in_channels, bias=False),
            nn.Conv2d(in_channels, out_channels, 1, bias=False),
        ),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


class TileDetector(nn.Module):
    """A small U-Net: per pixel at half the input resolution, is it tile, is it a tile's core?

    The core is each tile shrunk about its centre, so tiles that touch still give separate
    components; the reader finds tiles as components of the core map.

    With ``light`` the three decoder blocks are ``separable_block`` s: the decoder works at
    the finest resolutions, so this halves the network's multiply-adds (1.26 G → 0.61 G on a
    512×384 input) with the same outputs.
    """

    def __init__(self, light: bool = False) -> None:
        super().__init__()
        decoder_block = separable_block if light else conv_block
        self.level1 = nn.Sequential(conv_block(3, 16, 2), conv_block(16, 16))
        self.level2 = nn.Sequential(conv_block(16, 32, 2), conv_block(32, 32))
        self.level3 = nn.Sequential(conv_block(32, 48, 2), conv_block(48, 48))
        self.level4 = nn.Sequential(conv_block(48, 64, 2), conv_block(64, 64, dilation=2),
                                    conv_block(64, 64, dilation=4))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.decode3 = decoder_block(64 + 48, 48)
        self.decode2 = decoder_block(48 + 32, 32)
        self.decode1 = decoder_block(32 + 16, 16)
        self.head = nn.Conv2d(16, 2, 1)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        f1 = self.level1(image)
        f2 = self.level2(f1)
        f3 = self.level3(f2)
        f4 = self.level4(f3)
        d3 = self.decode3(torch.cat([self.up(f4), f3], 1))
        d2 = self.decode2(torch.cat([self.up(d3), f2], 1))
        d1 = self.decode1(torch.cat([self.up(d2), f1], 1))
        return self.head(d1)


class TileReader(nn.Module):
    """Reads one tile from an upright-or-upside-down crop (64 high, 48 wide).

    Outputs 53 identity logits (``companion.vision.classes.TILE_CLASSES``) then 2 orientation
    logits (upright, upside down). It keeps the spatial layout to the end (no global pooling)
    so it can tell the top of the tile from the bottom: 6 and 9 differ only by that.

    With ``light`` the two convolutions that keep the width at the two finest resolutions
    (24 → 24 at 64×48, 48 → 48 at 32×24) are ``separable_block`` s: 57 M → 29 M multiply-adds
    a crop, with the same outputs.
    """

    def __init__(self, classes: int = 53 + 2, light: bool = False) -> None:
        super().__init__()
        same_width_block = separable_block if light else conv_block
        self.features = nn.Sequential(
            conv_block(3, 24), same_width_block(24, 24), nn.MaxPool2d(2),
            conv_block(24, 48), same_width_block(48, 48), nn.MaxPool2d(2),
            conv_block(48, 64), conv_block(64, 64), nn.MaxPool2d(2),
            conv_block(64, 96), nn.MaxPool2d(2),
        )
        self.classify = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.3), nn.Linear(96 * 4 * 3, 128), nn.ReLU(inplace=True),
            nn.Linear(128, classes),
        )

    def forward(self, crop: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(crop))


class TwoWayReader(nn.Module):
    """A small CNN over a 64 × 48 BGR crop, two logits: the classic 6-or-9 figure reader
    (``train_six_nine``) and the design reader (``train_design``)."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for inputs, outputs in ((3, 16), (16, 32), (32, 48)):
            layers += [nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs),
                       nn.ReLU(), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.classify = nn.Linear(48, 2)

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(crops).mean(dim=(2, 3)))


def with_no_tile(reader: TileReader, tiles: int = 53) -> TileReader:
    """A copy of a 53-tile reader with a "no tile" output added after the tiles' (its weights
    near zero, so it starts out never said): every other weight copied, the tiles' outputs
    and the orientation outputs as they were, only the orientation's indexes shifted by one."""
    last = reader.classify[-1]
    orientations = last.out_features - tiles
    grown = TileReader(classes=tiles + 1 + orientations,
                       light=isinstance(reader.features[1][0], nn.Sequential))
    state = {key: value for key, value in reader.state_dict().items()
             if not key.startswith("classify.4.")}
    grown.load_state_dict(state, strict=False)
    with torch.no_grad():
        new = grown.classify[-1]
        new.weight[:tiles] = last.weight[:tiles]
        new.bias[:tiles] = last.bias[:tiles]
        new.weight[tiles] = last.weight[:tiles].mean(dim=0) * 0.1
        new.bias[tiles] = last.bias[:tiles].min()
        new.weight[tiles + 1:] = last.weight[tiles:]
        new.bias[tiles + 1:] = last.bias[tiles:]
    return grown


def set_cosine_learning_rate(optimiser: torch.optim.Optimizer, base: float, iteration: int,
                             iterations: int) -> float:
    """Cosine decay from ``base`` to 0 over the run, set on every parameter group; returns it."""
    lr = base * 0.5 * (1 + math.cos(math.pi * iteration / iterations))
    for group in optimiser.param_groups:
        group["lr"] = lr
    return lr


def fit_two_way(draw: Callable[[], tuple[torch.Tensor, torch.Tensor]], *, iterations: int,
                lr: float, every: int, report: Callable[[TwoWayReader], str]) -> TwoWayReader:
    """A TwoWayReader taught ``iterations`` batches of ``draw()`` (crops, labels) by cross
    entropy (AdamW, cosine decay from ``lr``), printing its loss and ``report(model)`` every
    ``every`` batches; returned in eval mode."""
    model = TwoWayReader()
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    for iteration in range(iterations):
        set_cosine_learning_rate(optimiser, lr, iteration, iterations)
        crops, labels = draw()
        model.train()
        loss = F.cross_entropy(model(crops), labels)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if iteration % every == every - 1:
            print(f"{iteration + 1:5d} loss {loss.item():.4f}; {report(model)}", flush=True)
    model.eval()
    return model


def load_folded_onnx(model: nn.Module, path: Path) -> None:
    """Load a shipped network's ONNX file (whose export folded each batch norm into its
    convolution) into ``model`` of the same architecture: each convolution takes the folded
    weights, each batch norm becomes the folded bias (mean 0, variance 1 - eps, scale 1).

    Train such a model with its batch norms kept in eval mode (``freeze_norms``), or the first
    batches' statistics undo the folding.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer}
    nodes = [n for n in graph.node if n.op_type in ("Conv", "Gemm")]
    layers: list[list[nn.Module]] = []  # each convolution or linear layer, then its batch norm
    for module in model.modules():
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            layers.append([module])
        elif isinstance(module, nn.BatchNorm2d):
            layers[-1].append(module)
    if len(layers) != len(nodes):
        raise ValueError(f"{path} has {len(nodes)} weighted layers, the model {len(layers)}")
    with torch.no_grad():
        for (layer, *norm), node in zip(layers, nodes):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]]))
            bias = torch.from_numpy(weights[node.input[2]]) if len(node.input) > 2 else None
            if norm:
                norm[0].weight.fill_(1.0)
                norm[0].bias.copy_(bias if bias is not None else torch.zeros_like(norm[0].bias))
                norm[0].running_mean.zero_()
                norm[0].running_var.fill_(1.0 - norm[0].eps)
            elif bias is not None:
                layer.bias.copy_(bias)


def freeze_norms(model: nn.Module) -> None:
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


def split_convolution(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The depthwise (C, 1, 3, 3) and pointwise (O, C, 1, 1) weights closest to a 3×3
    convolution's (O, C, 3, 3): for each input channel the best rank-one product of its
    outputs and its taps (a singular value decomposition)."""
    outputs, channels = weight.shape[:2]
    depthwise = torch.empty(channels, 1, 3, 3)
    pointwise = torch.empty(outputs, channels, 1, 1)
    for channel in range(channels):
        u, sigma, vh = torch.linalg.svd(weight[:, channel].reshape(outputs, 9))
        scale = sigma[0].sqrt()
        pointwise[:, channel, 0, 0] = u[:, 0] * scale
        depthwise[channel, 0] = (vh[0] * scale).reshape(3, 3)
    return depthwise, pointwise


def init_from(student: nn.Module, teacher: nn.Module) -> list[str]:
    """Copy every teacher weight whose key and shape the student shares; a student's
    ``separable_block`` starts as the split of the teacher's convolution of the same name
    (``split_convolution``). Returns the student's keys left as initialised."""
    taught = teacher.state_dict()
    state = student.state_dict()
    left = []
    for key, value in state.items():
        if key in taught and taught[key].shape == value.shape:
            value.copy_(taught[key])
        elif key.endswith(".0.0.weight") and key[:-len(".0.weight")] + ".weight" in taught:
            depthwise, pointwise = split_convolution(taught[key[:-len(".0.weight")] + ".weight"])
            value.copy_(depthwise)
            state[key[:-len("0.weight")] + "1.weight"].copy_(pointwise)
        elif not key.endswith(".0.1.weight"):
            left.append(key)
    student.load_state_dict(state)
    return left


def multiply_adds(model: nn.Module, shape: tuple[int, ...]) -> int:
    """Multiply-adds of the model's convolutions and linear layers on one input of ``shape``."""
    total = 0

    def count(module: nn.Module, _inputs: object, output: torch.Tensor) -> None:
        nonlocal total
        if isinstance(module, nn.Conv2d):
            per_output = module.weight[0].numel()
            total += per_output * output.numel()
        elif isinstance(module, nn.Linear):
            total += module.weight.numel() * (output.numel() // output.shape[-1])

    hooks = [m.register_forward_hook(count) for m in model.modules()
             if isinstance(m, (nn.Conv2d, nn.Linear))]
    with torch.no_grad():
        model.eval()
        model(torch.zeros(1, *shape))
    for hook in hooks:
        hook.remove()
    return total
