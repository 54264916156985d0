"""Name unlabelled icons ("close", "search", "trash"...) by matching them against a shipped library.

A crop of a candidate icon is normalised so that theme, colour, size and position stop
mattering: the background is the colour of the crop's border, "ink" is how far each pixel is
from it (so dark-on-light and light-on-dark look the same), the ink is cut to its tight box and
scaled, aspect kept, into a 32x32 square. Its descriptor is a HOG (stroke directions in a 4x4
grid of cells) plus a coarse 8x8 picture of the ink and the ink box's aspect ratio, projected
onto the library's principal components.

The library (`assets/icons/library.npz`, built by `scripts/build_icons.py` from freely licensed
icon fonts and SVG themes, see `assets/icons/README.md`) holds such descriptors for each named
icon in several styles, sizes and themes, and also for things that are not icons: letters,
digits, short words, photo-like patches and bare rectangles. A crop is named by its nearest
neighbours; when the nearest are not-icons, or none is close enough, the answer is None.

    name_icon(crop)            # -> ("close", 0.91) or None, with a cached default library
    IconNamer(path).name(crop) # the same with a library of your own
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

LIBRARY = Path(__file__).resolve().parents[1] / "assets" / "icons" / "library.npz"
SIDE = 32  # the normalised icon's side, in pixels
MARGIN = 2  # blank pixels kept round the ink inside the normalised square
MIN_CONTRAST = 40  # grey levels between ink and background below which a crop is blank
MIN_SIDE = 6  # smallest crop side (pixels) that can show a recognisable icon
MAX_ASPECT = 8.0  # ink boxes wider or taller than this are lines or long words, not icons
NEGATIVE = -1  # library label of the not-icon examples

BINS = 8  # unsigned gradient orientations in the HOG
CELL = 8  # HOG cell side in pixels: a 4x4 grid of cells on the normalised icon


def ink_image(crop: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The crop's ink as a SIDExSIDE float32 image in [0, 1] (1 = full ink) and the ink box's
    aspect ratio (width / height); None for a crop too small or too flat to hold an icon."""
    pixels = _as_rgb(crop)
    if pixels is None:
        return None
    pixels = pixels.astype(np.float32)
    ink = _ink(pixels)
    if ink is None:
        return None
    # Peel off a frame (a button's outline) round the crop: border lines that are mostly ink.
    for _ in range(3):
        if min(ink.shape) < MIN_SIDE + 2:
            break
        edges = [ink[0].mean(), ink[-1].mean(), ink[:, 0].mean(), ink[:, -1].mean()]
        if max(edges) < 0.6:
            break
        pixels = pixels[1:-1, 1:-1]
        ink = _ink(pixels)
        if ink is None:
            return None
    mask = ink > 0.3
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return None
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    height, width = bottom - top, right - left
    if max(height, width) < 4:
        return None
    aspect = width / height
    if not 1 / MAX_ASPECT <= aspect <= MAX_ASPECT:
        return None
    box = ink[top:bottom, left:right]
    inner = SIDE - 2 * MARGIN
    scale = inner / max(height, width)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(box, (new_w, new_h), interpolation=interpolation)
    square = np.zeros((SIDE, SIDE), np.float32)
    x0, y0 = (SIDE - new_w) // 2, (SIDE - new_h) // 2
    square[y0 : y0 + new_h, x0 : x0 + new_w] = small
    return np.clip(square, 0, 1), float(aspect)


def describe(crop: np.ndarray) -> np.ndarray | None:
    """The raw (not yet projected) descriptor of a crop, L2-normalised; None when the crop holds
    no icon-like ink. Used both to build the library and to look crops up in it."""
    found = ink_image(crop)
    if found is None:
        return None
    square, aspect = found
    hog = _hog(square)
    coarse = cv2.resize(square, (8, 8), interpolation=cv2.INTER_AREA).ravel()
    coarse = coarse - coarse.mean()
    coarse /= np.linalg.norm(coarse) + 1e-6
    shape = np.array([np.log(aspect), square.mean() - 0.3], np.float32)
    vector = np.concatenate([hog, 0.6 * coarse, 1.5 * shape]).astype(np.float32)
    return vector / (np.linalg.norm(vector) + 1e-6)


class IconNamer:
    """Names icon crops by nearest neighbours in a descriptor library (see the module doc)."""

    def __init__(self, path: Path | str = LIBRARY, k: int = 5) -> None:
        with np.load(path, allow_pickle=False) as data:
            self.mean = data["mean"].astype(np.float32)
            self.components = data["components"].astype(np.float32)  # (dims, raw length)
            self.scale = float(data["scale"])
            vectors = data["vectors"].astype(np.float32) * self.scale  # int8 -> unit vectors
            self.labels = data["labels"].astype(np.int32)
            self.threshold = float(data["threshold"])
            self.names: list[str] = json.loads(str(data["names"]))
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self.vectors = vectors / np.maximum(norms, 1e-6)
        self.k = k

    @classmethod
    def from_arrays(
        cls,
        mean: np.ndarray,
        components: np.ndarray,
        vectors: np.ndarray,
        labels: np.ndarray,
        names: list[str],
        threshold: float,
        k: int = 5,
    ) -> IconNamer:
        """A namer over an in-memory library (float vectors already projected)."""
        namer = cls.__new__(cls)
        namer.mean, namer.components = mean.astype(np.float32), components.astype(np.float32)
        namer.scale = 1.0
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        namer.vectors = (vectors / np.maximum(norms, 1e-6)).astype(np.float32)
        namer.labels, namer.names = labels.astype(np.int32), list(names)
        namer.threshold, namer.k = threshold, k
        return namer

    def project(self, raw: np.ndarray) -> np.ndarray:
        # einsum, not `@`: a BLAS call this small costs milliseconds in thread hand-offs on a
        # busy machine, einsum's plain loop well under one.
        vector = np.einsum("ij,j->i", self.components, raw - self.mean)
        return vector / (np.linalg.norm(vector) + 1e-6)

    def match(self, crop: np.ndarray) -> tuple[int, float] | None:
        """The winning library label (NEGATIVE for "not an icon") and its similarity."""
        raw = describe(crop)
        if raw is None:
            return None
        sims = np.einsum("ij,j->i", self.vectors, self.project(raw))
        k = min(self.k, sims.size)
        top = np.argpartition(-sims, k - 1)[:k]
        votes: dict[int, float] = {}
        for index in top:
            votes[int(self.labels[index])] = votes.get(int(self.labels[index]), 0.0) + float(
                sims[index]
            )
        label = max(votes, key=votes.__getitem__)
        best = max(float(sims[i]) for i in top if self.labels[i] == label)
        share = votes[label] / max(sum(votes.values()), 1e-6)
        return label, best * (0.5 + 0.5 * share)

    def name(self, crop: np.ndarray) -> tuple[str, float] | None:
        """(icon name, confidence in 0..1) for an RGB crop of one icon, or None when the crop
        is not one of the library's icons (letters, words, photos, blanks, unknown icons)."""
        found = self.match(crop)
        if found is None:
            return None
        label, score = found
        if label == NEGATIVE or score < self.threshold:
            return None
        return self.names[label], round(min(1.0, max(0.0, score)), 3)


@lru_cache(maxsize=1)
def default_namer() -> IconNamer:
    """The namer over the shipped library, loaded once."""
    return IconNamer(LIBRARY)


def name_icon(crop: np.ndarray) -> tuple[str, float] | None:
    """(name, confidence) of the icon in an RGB crop, or None when it matches no known icon."""
    return default_namer().name(crop)


def _hog(square: np.ndarray) -> np.ndarray:
    """Histograms of gradient orientation (unsigned, soft-binned) in CELLxCELL cells,
    square-rooted and normalised SIFT-style (L2, clip at 0.2, L2 again)."""
    gx = cv2.Sobel(square, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(square, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    position = (angle % np.pi) * (BINS / np.pi)
    lower = np.floor(position).astype(np.int32) % BINS
    upper_weight = position - np.floor(position)
    cells = SIDE // CELL
    hist = np.zeros((SIDE, SIDE, BINS), np.float32)
    rows, cols = np.indices((SIDE, SIDE))
    hist[rows, cols, lower] = magnitude * (1 - upper_weight)
    hist[rows, cols, (lower + 1) % BINS] += magnitude * upper_weight
    hist = hist.reshape(cells, CELL, cells, CELL, BINS).sum(axis=(1, 3)).ravel()
    hist = np.sqrt(hist)
    hist /= np.linalg.norm(hist) + 1e-6
    hist = np.minimum(hist, 0.2)
    return hist / (np.linalg.norm(hist) + 1e-6)


def _as_rgb(crop: np.ndarray) -> np.ndarray | None:
    array = np.asarray(crop)
    if array.ndim == 2:
        array = array[:, :, None]
    if array.ndim != 3 or min(array.shape[:2]) < MIN_SIDE or array.shape[2] == 0:
        return None
    if array.shape[2] >= 3:
        array = array[:, :, :3]
    else:
        array = np.repeat(array[:, :, :1], 3, axis=2)
    if array.dtype != np.uint8:
        if np.issubdtype(array.dtype, np.floating) and array.size and float(array.max()) <= 1.0:
            array = array * 255
        array = np.clip(np.nan_to_num(array), 0, 255).astype(np.uint8)
    return array


def _ink(pixels: np.ndarray) -> np.ndarray | None:
    """Per-pixel distance from the background colour (the median of the crop's border),
    scaled so the strongest ink is 1; None when nothing stands out."""
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    background = np.median(border, axis=0)
    distance = np.abs(pixels - background).max(axis=2)
    strongest = float(distance.max())
    if strongest < MIN_CONTRAST:
        return None
    return distance / strongest
