"""Screen scaling for models, in one place: the image a model sees, and its points mapped back.

Models see a resized screenshot (API models have size limits; Qwen2.5-VL-style models want sides
that are multiples of 28 within a pixel budget), sometimes only a region of the screen (a zoom,
a focused crop), and answer in one of several coordinate conventions. Everything here is exact
arithmetic so a point survives the round trip.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from clickwright.errors import ActionError
from clickwright.types import Box

Convention = Literal["auto", "pixels", "norm1000", "norm1"]


@dataclass(frozen=True)
class ScaledImage:
    """A frame, or a region of it, resized for a model; and the ratios to map the model's points
    back. `region` is the part of the frame the image shows (None: all of it)."""

    pixels: np.ndarray
    frame_size: tuple[int, int]
    region: Box | None = None

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.pixels.shape[1]), int(self.pixels.shape[0]))

    @property
    def shown(self) -> Box:
        """The region of the frame the image shows, in frame pixels."""
        return self.region or Box(0, 0, *self.frame_size)

    @property
    def scale(self) -> float:
        """Image pixels per frame pixel (below 1: the model sees less than is there)."""
        return min(self.size[0] / self.shown.w, self.size[1] / self.shown.h)

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A point in the model's image -> the same point in frame pixels."""
        box = self.shown
        return (box.x + x * box.w / self.size[0], box.y + y * box.h / self.size[1])

    def to_model(self, x: float, y: float) -> tuple[float, float]:
        box = self.shown
        return ((x - box.x) * self.size[0] / box.w, (y - box.y) * self.size[1] / box.h)

    def box_to_frame(self, x1: float, y1: float, x2: float, y2: float) -> Box:
        """A rectangle the model named by two corners in its image -> frame pixels, on the
        frame (what a zoom region or a bounding-box answer covers)."""
        (fx1, fy1), (fx2, fy2) = self.to_frame(x1, y1), self.to_frame(x2, y2)
        left, right = sorted((fx1, fx2))
        top, bottom = sorted((fy1, fy2))
        width, height = self.frame_size
        x1 = min(max(math.floor(left), 0), width - 1)
        y1 = min(max(math.floor(top), 0), height - 1)
        x2 = min(max(math.ceil(right), x1 + 1), width)
        y2 = min(max(math.ceil(bottom), y1 + 1), height)
        return Box(x1, y1, x2 - x1, y2 - y1)


@dataclass(frozen=True)
class ImageLimits:
    """The screenshot size a model takes best. Sides snapped to multiples of `factor` within
    `min_pixels`..`max_pixels` are what a Qwen-style processor would resize to anyway, so a
    model's pixel answers land on our image exactly, whichever server runs it. Without a factor
    the image is only shrunk: to `max_side` on its long side, `max_short_side` on its short
    side and `max_pixels` in all (Anthropic's and OpenAI's documented image limits)."""

    max_side: int = 1280
    factor: int | None = 28
    max_pixels: int | None = 28 * 28 * 1280
    min_pixels: int = 56 * 56
    max_short_side: int | None = None

    def fit(self, pixels: np.ndarray) -> ScaledImage:
        return fit_for_model(
            pixels,
            self.max_side,
            self.factor,
            self.max_pixels,
            min_pixels=self.min_pixels,
            max_short_side=self.max_short_side,
        )

    def crop(self, pixels: np.ndarray, region: Box) -> ScaledImage:
        """A region of the frame at full resolution where the limits allow (a zoom, a focused
        look), its points mapping back into the whole frame."""
        part = pixels[region.y : region.bottom, region.x : region.right]
        fitted = self.fit(part)
        if self.factor:  # sides snapped up, not to the nearest: no frame pixel is lost
            h, w = (math.ceil(n / self.factor) * self.factor for n in part.shape[:2])
            if self.min_pixels <= h * w <= (self.max_pixels or 28 * 28 * 1280):
                fitted = ScaledImage(cv2.resize(part, (w, h), interpolation=cv2.INTER_CUBIC),
                                     (part.shape[1], part.shape[0]))  # fmt: skip
        frame_size = (int(pixels.shape[1]), int(pixels.shape[0]))
        return ScaledImage(fitted.pixels, frame_size, region)


def region_around(
    point: tuple[int, int], size: tuple[int, int], frame_size: tuple[int, int]
) -> Box:
    """The `size` region of the frame centred on `point`, moved to lie within the frame: where a
    closer look at a point goes."""
    width, height = min(size[0], frame_size[0]), min(size[1], frame_size[1])
    x = min(max(point[0] - width // 2, 0), frame_size[0] - width)
    y = min(max(point[1] - height // 2, 0), frame_size[1] - height)
    return Box(x, y, width, height)


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
    *,
    min_pixels: int = 56 * 56,
    max_short_side: int | None = None,
) -> ScaledImage:
    """With `factor`, the size a Qwen-style processor would resize to (sides snapped, pixels
    within budget), so the model's pixel coordinates are ours. Without one, downscale only, so
    the long side fits `max_side` (and the other limits); sides are floored as Anthropic's
    documented `int(width * scale)` does, so the image never exceeds a limit by a rounding."""
    height, width = pixels.shape[:2]
    if factor:
        h, w = smart_resize(
            height, width, factor, min_pixels=min_pixels, max_pixels=max_pixels or 28 * 28 * 1280
        )
    else:
        ratio = min(1.0, max_side / max(height, width))
        if max_pixels:
            ratio = min(ratio, math.sqrt(max_pixels / (height * width)))
        if max_short_side:
            ratio = min(ratio, max_short_side / min(height, width))
        h, w = max(1, int(height * ratio)), max(1, int(width * ratio))
    if (h, w) == (height, width):
        return ScaledImage(pixels, (width, height))
    shrink = h * w < height * width
    interpolation = cv2.INTER_AREA if shrink else cv2.INTER_CUBIC
    resized = cv2.resize(pixels, (w, h), interpolation=interpolation)
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

    Fractions (`norm1`) and thousandths (`norm1000`) are of the image the model saw, which is
    the whole frame or, for a zoom or a focused crop, the region it shows. `auto` reads values
    within [0, 1] as fractions and anything else as pixels of that image; models answering in
    0–1000 (Qwen2-VL, Qwen3-VL, UI-TARS 1.0) must say `norm1000`, since 0–1000 and pixels
    cannot be told apart from the numbers.
    """
    x, y = point
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ActionError(f"the model's point {point} is not a number")
    if convention == "auto":
        convention = "norm1" if 0 <= x <= 1 and 0 <= y <= 1 else "pixels"
    if convention == "norm1":
        return from_grid((x, y), (1, 1), image)
    if convention == "norm1000":
        return from_grid((x, y), (1000, 1000), image)
    fx, fy = image.to_frame(x, y)
    width, height = image.frame_size
    return (min(max(round(fx), 0), width - 1), min(max(round(fy), 0), height - 1))


def from_grid(
    point: tuple[float, float], grid: tuple[float, float], image: ScaledImage
) -> tuple[int, int]:
    """A point on the grid a model was told the image has (Qwen3-VL: "the screen's resolution
    is 1000x1000") -> frame pixels, clamped onto the frame."""
    w, h = image.size
    return to_frame_point((point[0] * w / grid[0], point[1] * h / grid[1]), image, "pixels")
