"""Photometric augmentations shared by both training scripts: other tables, other light."""

from __future__ import annotations

import cv2
import numpy as np


def photometric(image: np.ndarray, rng: np.random.Generator, *, hue_shift: bool,
                glare_strength: float = 140.0, blur_max: float = 1.8) -> np.ndarray:
    """White balance, brightness, contrast, gamma, glare, blur, noise and JPEG loss."""
    out = image.astype(np.float32)
    if hue_shift and rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(out, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    # warm or cold light: blue and red gains move in opposite directions
    warmth = float(np.clip(rng.normal(0, 0.07), -0.15, 0.15))
    gains = np.array([1 - warmth, 1.0, 1 + warmth], np.float32) * rng.uniform(0.92, 1.08, 3)
    out *= gains * rng.uniform(0.6, 1.1)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.8, 1.3) + mean
    if rng.random() < 0.3:
        gamma = rng.uniform(0.7, 1.4)
        out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    if glare_strength > 0 and rng.random() < 0.2:
        h, w = out.shape[:2]
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        radius = rng.uniform(0.1, 0.5) * max(h, w)
        yy, xx = np.mgrid[0:h, 0:w]
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius ** 2))
        out += (glare * rng.uniform(0.3, 1.0) * glare_strength)[..., None]
    if rng.random() < 0.3:
        sigma = rng.uniform(0.3, blur_max)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 8), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buffer = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        if ok:
            out = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    return out


def ink_is_low(crop: np.ndarray) -> bool:
    """True when the printed number sits in the lower half of the crop: the tile is upside down.

    Both tile designs print the number above the middle (the logo or ring below is faint),
    so the ink's centre of mass shows which end is up.
    """
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    saturation = hsv[..., 1].astype(np.float32)
    value = hsv[..., 2].astype(np.float32)
    inner = (slice(4, -4), slice(4, -4))
    paper = float(np.median(value[inner]))
    ink = ((saturation > 90) | (value < paper - 60))[inner]
    rows = np.nonzero(ink)[0]
    if len(rows) < 8:
        return False
    return float(rows.mean()) > (ink.shape[0] - 1) / 2
