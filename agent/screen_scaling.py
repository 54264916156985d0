"""Screen scaling for models, in one place: the image a model sees, and its points mapped back.

Models see a resized screenshot (API models have size limits; Qwen2.5-VL-style models want sides
that are multiples of 28 within a pixel budget) and answer in one of several coordinate
conventions. Everything here is exact arithmetic so a point survives the round trip.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from clickwright.errors import ActionError

Convention = Literal["auto", "pixels", "norm1000", "norm1"]


@dataclass(frozen=True)
class ScaledImage:
    """A frame resized for a model, and the ratios to map the model's points back."""

    pixels: np.ndarray
    frame_size: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.pixels.shape[1]), int(self.pixels.shape[0]))

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A point in the model's image -> the same point in frame pixels."""
        return (x * self.frame_size[0] / self.size[0], y * self.frame_size[1] / self.size[1])

    def to_model(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.size[0] / self.frame_size[0], y * self.size[1] / self.frame_size[1])


@dataclass(frozen=True)
class ImageLimits:
    """The screenshot size a model takes best. Sides snapped to multiples of `factor` within
    `max_pixels` are what a Qwen-style processor would resize to anyway, so a model's pixel
    answers land on our image exactly, whichever server runs it."""

    max_side: int = 1280
    factor: int | None = 28
    max_pixels: int | None = 28 * 28 * 1280

    def fit(self, pixels: np.ndarray) -> ScaledImage:
        return fit_for_model(pixels, self.max_side, self.factor, self.max_pixels)


def smart_resize(
    height: int,
    width: int,
    factor: int = 28,
    min_pixels: int = 56 * 56,
    max_pixels: int = 28 * 28 * 1280,
) -> tuple[int, int]:
    """The (height, width) Qwen2-VL-family processors resize to: multiples of `factor`, aspect
    kept, total pixels within [min_pixels, max_pixels]."""
    if min(height, width) < 1:
        raise ActionError(f"cannot resize an empty {width}x{height} image")
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return h, w


def fit_for_model(
    pixels: np.ndarray,
    max_side: int = 1280,
    factor: int | None = None,
    max_pixels: int | None = None,
) -> ScaledImage:
    """Downscale (never upscale) so the long side fits `max_side`; with `factor`, snap the
    sides as a Qwen-style processor would, so the model's pixel coordinates are ours."""
    height, width = pixels.shape[:2]
    if factor:
        h, w = smart_resize(height, width, factor, max_pixels=max_pixels or 28 * 28 * 1280)
    else:
        ratio = min(1.0, max_side / max(height, width))
        if max_pixels:
            ratio = min(ratio, math.sqrt(max_pixels / (height * width)))
        h, w = max(1, round(height * ratio)), max(1, round(width * ratio))
    if (h, w) == (height, width):
        return ScaledImage(pixels, (width, height))
    resized = cv2.resize(pixels, (w, h), interpolation=cv2.INTER_AREA)
    return ScaledImage(resized, (width, height))


_NUMBER = r"-?\d+(?:\.\d+)?"
_PAIR = re.compile(rf"[(\[]\s*({_NUMBER})\s*,\s*({_NUMBER})\s*[)\]]")
_QUAD = re.compile(
    rf"[(\[]\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*[)\]]"
)
_BOX_PAIR = re.compile(
    rf"\(\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\)\s*,?\s*\(\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\)"
)
_XY = re.compile(rf"\bx\s*[=:]\s*({_NUMBER})\s*[,;]?\s*\by\s*[=:]\s*({_NUMBER})", re.I)


def read_point(text: str) -> tuple[float, float]:
    """The point a model wrote, in its own units: `(x,y)`, `[x, y]`, a box `(x1,y1),(x2,y2)` or
    `[x1, y1, x2, y2]` (its centre), UI-TARS `start_box='(x,y)'`, Qwen `<|box_start|>…`, `x=…
    y=…`. The first form found wins, after an `Action:` label when there is one (UI-TARS writes
    its thought first, and thoughts mention coordinates too)."""
    text = text.rsplit("Action:", 1)[-1]
    cleaned = re.sub(r"<\|/?(?:box_start|box_end|point_start|point_end)\|>", " ", text)
    candidates: list[tuple[int, tuple[float, float]]] = []
    for match in _BOX_PAIR.finditer(cleaned):
        x1, y1, x2, y2 = (float(v) for v in match.groups())
        candidates.append((match.start(), ((x1 + x2) / 2, (y1 + y2) / 2)))
    for match in _QUAD.finditer(cleaned):
        x1, y1, x2, y2 = (float(v) for v in match.groups())
        candidates.append((match.start(), ((x1 + x2) / 2, (y1 + y2) / 2)))
    for regex in (_PAIR, _XY):
        for match in regex.finditer(cleaned):
            candidates.append((match.start(), (float(match[1]), float(match[2]))))
    if not candidates:
        raise ActionError(f"no coordinates in the model's answer: {text[:80]!r}")
    return min(candidates, key=lambda c: c[0])[1]


def to_frame_point(
    point: tuple[float, float], image: ScaledImage, convention: Convention = "auto"
) -> tuple[int, int]:
    """A model's point in `convention` units -> frame pixels, clamped onto the frame.

    `auto` reads values within [0, 1] as fractions and anything else as pixels of the image
    the model saw; models answering in 0–1000 (Qwen2-VL, UI-TARS 1.0) must say `norm1000`,
    since 0–1000 and pixels cannot be told apart from the numbers.
    """
    x, y = point
    if convention == "auto":
        convention = "norm1" if 0 <= x <= 1 and 0 <= y <= 1 else "pixels"
    width, height = image.frame_size
    if convention == "norm1":
        fx, fy = x * width, y * height
    elif convention == "norm1000":
        fx, fy = x / 1000 * width, y / 1000 * height
    else:
        fx, fy = image.to_frame(x, y)
    if not (math.isfinite(fx) and math.isfinite(fy)):
        raise ActionError(f"the model's point {point} is not a number")
    return (min(max(round(fx), 0), width - 1), min(max(round(fy), 0), height - 1))
