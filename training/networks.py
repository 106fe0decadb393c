"""The two small networks of the photo reader, as PyTorch modules (exported to ONNX)."""

from __future__ import annotations

import math

import torch
from torch import nn


def conv_block(in_channels: int, out_channels: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=dilation,
                  dilation=dilation, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


class TileDetector(nn.Module):
    """A small U-Net: per pixel at half the input resolution, is it tile, is it a tile's core?

    The core is each tile shrunk about its centre, so tiles that touch still give separate
    components; the reader finds tiles as components of the core map.
    """

    def __init__(self) -> None:
        super().__init__()
        self.level1 = nn.Sequential(conv_block(3, 16, 2), conv_block(16, 16))
        self.level2 = nn.Sequential(conv_block(16, 32, 2), conv_block(32, 32))
        self.level3 = nn.Sequential(conv_block(32, 48, 2), conv_block(48, 48))
        self.level4 = nn.Sequential(conv_block(48, 64, 2), conv_block(64, 64, dilation=2),
                                    conv_block(64, 64, dilation=4))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.decode3 = conv_block(64 + 48, 48)
        self.decode2 = conv_block(48 + 32, 32)
        self.decode1 = conv_block(32 + 16, 16)
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
    """

    def __init__(self, classes: int = 53 + 2) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 24), conv_block(24, 24), nn.MaxPool2d(2),
            conv_block(24, 48), conv_block(48, 48), nn.MaxPool2d(2),
            conv_block(48, 64), conv_block(64, 64), nn.MaxPool2d(2),
            conv_block(64, 96), nn.MaxPool2d(2),
        )
        self.classify = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.3), nn.Linear(96 * 4 * 3, 128), nn.ReLU(inplace=True),
            nn.Linear(128, classes),
        )

    def forward(self, crop: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(crop))


def set_cosine_learning_rate(optimiser: torch.optim.Optimizer, base: float, iteration: int,
                             iterations: int) -> float:
    """Cosine decay from ``base`` to 0 over the run, set on every parameter group; returns it."""
    lr = base * 0.5 * (1 + math.cos(math.pi * iteration / iterations))
    for group in optimiser.param_groups:
        group["lr"] = lr
    return lr
