"""What colour a person would call a thing on the screen.

An element's colour is its fill when it has one (a swatch, a coloured button, a box drawn
with an outline), else its ink (a coloured letter, a word in red). It is named by the nearest
colour of the palette in `assets/colours.toml`, compared in CIELAB, where distance follows
what people see. "Shades of red" goes by hue instead.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources

import cv2
import numpy as np

from clickwright.types import Box

__all__ = ["Palette", "colour_of", "flat_fill", "hue_mark", "painted", "palette"]

RGB = tuple[int, int, int]

FLAT = 0.6
"""Share of a box's inside in one colour for that colour to be its fill."""
NEAR = 12.0
"""CIELAB distance within which two pixels are one colour."""
GREYISH = 0.07
"""Saturation under which a colour has no hue to be a shade of."""
LENIENT = 1.25
"""A colour is also called a name this many times as far as its nearest one."""


@dataclass(frozen=True)
class Palette:
    references: tuple[tuple[str, np.ndarray], ...]  # a name and one of its colours, in CIELAB
    aliases: dict[str, str]  # every name people say: the palette's name for it
    hues: dict[str, float]

    def name_in(self, words: str) -> tuple[str, int, int] | None:
        """The colour named in `words` (longest first: "dark blue" before "blue"), with the
        span of its words; None when no colour is named."""
        said = words.lower().split()
        for length in (2, 1):
            for start in range(len(said) - length + 1):
                name = " ".join(said[start : start + length])
                if name in self.aliases:
                    return self.aliases[name], start, start + length
        return None

    def distance(self, rgb: RGB, name: str) -> float:
        """How far `rgb` is from the nearest colour called `name` (CIELAB units)."""
        lab = _lab(np.array([rgb], float))[0]
        return min(float(np.linalg.norm(ref - lab)) for n, ref in self.references if n == name)

    def nearest(self, rgb: RGB) -> str:
        """The name of the palette colour nearest `rgb`."""
        lab = _lab(np.array([rgb], float))[0]
        return min(self.references, key=lambda r: float(np.linalg.norm(r[1] - lab)))[0]

    def called(self, rgb: RGB, name: str) -> bool:
        """Whether a person may call `rgb` `name`: its nearest name, or nearly as near (a
        violet-blue is blue as well as indigo)."""
        best = self.distance(rgb, self.nearest(rgb))
        return self.distance(rgb, name) <= max(LENIENT * best, best + 10)

    def called_where(self, pixels: np.ndarray, name: str, nearest: bool = False) -> np.ndarray:
        """A mask of the pixels a person may call `name` (as `called` says; with `nearest`,
        only those whose nearest name it is), each distinct colour (to 5 bits a channel)
        judged once."""
        quantised = (pixels[..., :3] >> 3).astype(np.int32)
        keys = quantised[..., 0] * 1024 + quantised[..., 1] * 32 + quantised[..., 2]
        present, inverse = np.unique(keys.ravel(), return_inverse=True)
        centres = np.stack([present >> 10, (present >> 5) & 31, present & 31], axis=1) * 8 + 4
        lab = _lab(centres.astype(float))
        names = [n for n, _ in self.references]
        refs = np.stack([r for _, r in self.references])
        far = np.linalg.norm(lab[:, None, :] - refs[None, :, :], axis=2)
        best = far.min(axis=1)
        own = far[:, [i for i, n in enumerate(names) if n == name]].min(axis=1)
        called = own <= (best if nearest else np.maximum(LENIENT * best, best + 10))
        return called[inverse].reshape(keys.shape)

    @staticmethod
    def hue_of(rgb: RGB) -> bool:
        """Whether `rgb` has a hue at all (not white, grey or black)."""
        return _hue(rgb)[1] >= GREYISH

    def shade_of(self, rgb: RGB, name: str) -> bool:
        """Whether `rgb` is a shade of `name` (a light or dark red for "red"): of the hues the
        palette names, its own is nearest `name`'s; for the hueless names, no hue at all."""
        hue, saturation = _hue(rgb)
        if name in ("grey", "black", "white", "silver", "light grey", "dark grey"):
            return saturation < GREYISH
        if name not in self.hues or saturation < GREYISH:
            return False
        return name == min(self.hues, key=lambda n: _hue_gap(hue, self.hues[n]))


def _hue_gap(a: float, b: float) -> float:
    return min(abs(a - b), 360 - abs(a - b))


@functools.cache
def palette() -> Palette:
    text = resources.files("clickwright.assets").joinpath("colours.toml").read_text("utf-8")
    data = tomllib.loads(text)
    references = tuple(
        (name, lab)
        for name, colours in data["names"].items()
        for lab in _lab(np.array(colours, float))
    )
    aliases = {name: name for name in data["names"]}
    aliases |= {other: name for name, others in data["same"].items() for other in others}
    return Palette(references, aliases, {k: float(v) for k, v in data["hues"].items()})


def colour_of(pixels: np.ndarray, box: Box, text: bool = False) -> RGB | None:
    """The colour `box` shows: its fill when most of its inside is one colour (not for a
    `text`, whose fill is the page), else its ink, the commonest colour unlike the page
    around it. None when the box shows nothing but the page."""
    seen = _on_frame(pixels, box)
    if seen is None:
        return None
    if not text and (fill := flat_fill(pixels, seen)) is not None:
        return fill
    page = backdrop(pixels, seen)
    crop = pixels[seen.y : seen.bottom, seen.x : seen.right, :3].reshape(-1, 3).astype(float)
    lab = _lab(crop)
    far = np.linalg.norm(lab - _lab(np.array([page], float))[0], axis=1)
    if far.max() < 3 * NEAR:
        return None
    ink = crop[far >= 0.6 * far.max()]  # not the lighter edge pixels that smoothing blends
    return _commonest(ink.astype(np.uint8))[0]


def painted(pixels: np.ndarray, name: str) -> list[Box]:
    """Solid marks of the colour `name` too small or too thin for a parser to box (a card's
    label bar, a priority dot): blobs of that colour that fill most of their box, not a word's
    strokes nor a large panel."""
    if _PAINTED and _PAINTED[0] is pixels and _PAINTED[1] == name:
        return list(_PAINTED[2])  # one frame is asked about more than once as a step is read
    mask = palette().called_where(pixels, name).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    height, width = pixels.shape[:2]
    marks = []
    for x, y, w, h, area in stats[1:count]:
        if area >= MARK_AREA and min(w, h) >= 3 and area >= SOLID * w * h \
                and w * h <= width * height / 50:  # fmt: skip
            marks.append(Box(int(x), int(y), int(w), int(h)))
    _PAINTED[:] = [pixels, name, marks]
    return list(marks)


_PAINTED: list = []
"""The last frame `painted` looked at (held, so it is that very frame), the colour, the marks."""


MARK_AREA = 20
"""Pixels a painted mark has at least (a 5 x 4 dot)."""
SOLID = 0.45
"""Share of its box a mark fills (a dot fills 0.79, a flag's triangle half, a word's letters
much less)."""


def hue_mark(pixels: np.ndarray, box: Box) -> RGB | None:
    """The colour of a mark with a hue in `box` among grey things (a legend's dot beside its
    black word on white): the commonest colour of the pixels that have a hue, when they are a
    fair part of the box; else None."""
    seen = _on_frame(pixels, box)
    if seen is None:
        return None
    crop = pixels[seen.y : seen.bottom, seen.x : seen.right, :3].reshape(-1, 3).astype(float)
    high, low = crop.max(axis=1), crop.min(axis=1)
    hued = crop[(high - low) / np.maximum(high, 1) >= 3 * GREYISH]
    if len(hued) < MARK_SHARE * len(crop):
        return None
    return _commonest(hued.astype(np.uint8))[0]


MARK_SHARE = 0.15
"""Share of a box a coloured mark covers at least to be its colour."""


def flat_fill(pixels: np.ndarray, box: Box) -> RGB | None:
    """The one colour most of `box`'s inside is (a swatch, a filled button, a round tag in a
    ring of another colour), else None."""
    seen = _on_frame(pixels, box)
    if seen is None:
        return None
    inset = max(1, min(seen.w, seen.h) // 6)
    inside = pixels[seen.y + inset : seen.bottom - inset, seen.x + inset : seen.right - inset, :3]
    if not inside.size:
        return None
    mode, share = _commonest(inside.reshape(-1, 3))
    if share < FLAT and min(inside.shape[:2]) >= 4:  # a round swatch: its disc, not the corners
        h, w = inside.shape[:2]
        y, x = np.ogrid[:h, :w]
        disc = ((x + 0.5 - w / 2) / (w / 2)) ** 2 + ((y + 0.5 - h / 2) / (h / 2)) ** 2 <= 1
        mode, share = _commonest(inside[disc])
    return mode if share >= FLAT else None


def _on_frame(pixels: np.ndarray, box: Box) -> Box | None:
    """The part of `box` inside the frame; None when less than 2 pixels either way."""
    height, width = pixels.shape[:2]
    x0, y0 = max(box.x, 0), max(box.y, 0)
    x1, y1 = min(box.right, width), min(box.bottom, height)
    return Box(x0, y0, x1 - x0, y1 - y0) if x1 - x0 >= 2 and y1 - y0 >= 2 else None


def backdrop(pixels: np.ndarray, box: Box) -> RGB:
    """The median colour of a two-pixel ring round `box`: the page it sits on."""
    height, width = pixels.shape[:2]
    x0, y0 = max(box.x - 2, 0), max(box.y - 2, 0)
    x1, y1 = min(box.right + 2, width), min(box.bottom + 2, height)
    ring = np.ones((y1 - y0, x1 - x0), bool)
    ring[box.y - y0 : box.bottom - y0, box.x - x0 : box.right - x0] = False
    seen = pixels[y0:y1, x0:x1, :3][ring]
    if not seen.size:
        return (255, 255, 255)
    r, g, b = np.median(seen, axis=0)
    return int(r), int(g), int(b)


def _commonest(colours: np.ndarray) -> tuple[RGB, float]:
    """The commonest colour (pixels within NEAR of each other as one) and its share."""
    quantised = (colours.astype(np.int32) // 16).astype(np.int32)
    keys = quantised[:, 0] * 256 + quantised[:, 1] * 16 + quantised[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    best = values[np.argmax(counts)]
    lab = _lab(colours.astype(float))
    centre = _lab(colours[keys == best].astype(float).mean(axis=0, keepdims=True))[0]
    near = np.linalg.norm(lab - centre, axis=1) <= NEAR
    r, g, b = np.median(colours[near], axis=0)
    return (int(r), int(g), int(b)), float(near.mean())


def _hue(rgb: RGB) -> tuple[float, float]:
    """Hue in degrees and saturation (HSV) of `rgb`."""
    r, g, b = (c / 255 for c in rgb)
    high, low = max(r, g, b), min(r, g, b)
    if high == low:
        return 0.0, 0.0
    span = high - low
    if high == r:
        hue = 60 * (((g - b) / span) % 6)
    elif high == g:
        hue = 60 * ((b - r) / span + 2)
    else:
        hue = 60 * ((r - g) / span + 4)
    return hue, span / high


def _lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0-255, N x 3) to CIELAB (D65)."""
    c = rgb / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = linear @ np.array(
        [[0.4124, 0.2126, 0.0193], [0.3576, 0.7152, 0.1192], [0.1805, 0.0722, 0.9505]]
    )
    xyz /= np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack(
        [116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1
    )
