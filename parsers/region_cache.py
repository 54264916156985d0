"""Which parts of a frame changed since the last parsed one, cut so that no text line is split.

Typing a character or opening a dropdown changes a few percent of the screen; reading only
those parts again makes such a step's OCR ten times cheaper. A changed region is grown until
its edges fall on blank pixels (a text line continues across a gap narrower than the one that
separates phrases, see `ocr.WIDE_GAP`) and until it holds every old text box it touches, so the
old text inside it can be dropped whole and replaced by what OCR reads there now.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np

from clickwright.parsers.fusion import LINE, TextBox
from clickwright.parsers.ocr import WIDE_GAP
from clickwright.types import Box

MARGIN = 12  # pixels of context read around a region: the detector misreads text at a crop edge
MERGE_GAP = 16  # regions closer than this are read as one
FULL_READ = 0.4  # when more than this share of the frame changed, read it all
BLANK = 12  # brightness step (grey levels) below which a strip holds no ink
MAX_GROW = 6  # rounds of growing a region before giving up on it settling
CELL = 4  # changes are located on a grid of this many pixels, which is fast
MAX_PIECES = 300  # more separate changes than this: read the whole frame
SMALL_FRAME = 8  # read a frame thinner than this whole: OpenCV takes a 4x4 array for a scalar


def changed_regions(
    before: np.ndarray, after: np.ndarray, texts: Sequence[TextBox]
) -> list[Box] | None:
    """The regions of `after` to read again, or None when the whole frame should be read.

    before/after: HxWx3 frames; texts: what was read on `before`. An empty list means nothing
    changed.
    """
    height, width = after.shape[:2]
    if before.shape != after.shape or min(height, width) < SMALL_FRAME:
        return None
    first, second, third = cv2.split(cv2.absdiff(before, after))
    changed = cv2.compare(cv2.max(cv2.max(first, second), third), 0, cv2.CMP_GT)
    # A cell of the coarse grid is set when any of its pixels changed (255 / CELL² > 0).
    grid = (-(-width // CELL), -(-height // CELL))
    coarse = cv2.resize(changed, grid, interpolation=cv2.INTER_AREA)
    count, _, stats, _ = cv2.connectedComponentsWithStats(cv2.compare(coarse, 0, cv2.CMP_GT))
    if count == 1:
        return []
    if count > MAX_PIECES:
        return None  # changes everywhere: noise, a new theme, a scrolled page
    cells = [Box(*(int(v) * CELL for v in stats[i, :4])) for i in range(1, count)]
    regions = [_clip(cell, width, height) for cell in cells]
    gray = cv2.cvtColor(after, cv2.COLOR_RGB2GRAY)
    while True:
        regions = [_settle(r, gray, texts) for r in _merge(regions)]
        if sum(r.area for r in regions) > FULL_READ * height * width:
            return None
        merged = _merge(regions)
        if len(merged) == len(regions):
            return merged


def _clip(box: Box, width: int, height: int) -> Box:
    return Box(box.x, box.y, min(box.right, width) - box.x, min(box.bottom, height) - box.y)


def crop_box(region: Box, size: tuple[int, int]) -> Box:
    """The region plus its margin of context, inside a frame of `size` (width, height)."""
    x, y = max(0, region.x - MARGIN), max(0, region.y - MARGIN)
    right = min(size[0], region.right + MARGIN)
    bottom = min(size[1], region.bottom + MARGIN)
    return Box(x, y, right - x, bottom - y)


def _settle(region: Box, gray: np.ndarray, texts: Sequence[TextBox]) -> Box:
    """Grow a region over the old texts it touches and out to blank pixels on every side."""
    for _ in range(MAX_GROW):
        grown = region
        for text in texts:
            if _near(text.box, grown, _line_gap(grown), 0):
                grown = grown.union(text.box)
        grown = _to_blank(grown, gray)
        if grown == region:
            break
        region = grown
    return region


def _near(a: Box, b: Box, across: int, down: int) -> bool:
    """True when the boxes overlap or lie within `across` pixels side by side and `down`
    pixels one above the other."""
    return (
        a.x <= b.right + across
        and b.x <= a.right + across
        and a.y <= b.bottom + down
        and b.y <= a.bottom + down
    )


def _line_gap(region: Box) -> int:
    """The narrowest blank that ends a text line beside `region`: a phrase gap of the text
    it holds, taken as at least a typical line tall, so that a word typed after a space still
    joins its line."""
    return int(WIDE_GAP * min(max(region.h, LINE), 2 * LINE))


def _to_blank(region: Box, gray: np.ndarray) -> Box:
    """Move each edge outwards until a blank strip wide enough to end a text line is reached.

    Ink is a step in brightness along the walk: a field's border running the same way does
    not count, so a region does not spread along a line edit's frame or a menu bar's edge.
    """
    band = gray[region.y : region.bottom].astype(np.int16)
    columns = _flat(np.abs(np.diff(band, axis=1)).max(axis=0, initial=0))
    gap = _line_gap(region)
    left = _ink_edge(columns, region.x, -1, gap)
    right = _ink_edge(columns, region.right - 1, 1, gap) + 1
    strip = gray[:, left:right].astype(np.int16)
    rows = _flat(np.abs(np.diff(strip, axis=0)).max(axis=1, initial=0))
    top = _ink_edge(rows, region.y, -1, 2)
    bottom = _ink_edge(rows, region.bottom - 1, 1, 2) + 1
    return Box(left, top, right - left, bottom - top)


def _flat(steps: np.ndarray) -> np.ndarray:
    """Blank flags for the positions between which `steps` measured brightness changes."""
    blank = steps < BLANK
    return np.concatenate([blank[:1], blank[:-1] & blank[1:], blank[-1:]])


def _ink_edge(blank: np.ndarray, edge: int, step: int, gap: int) -> int:
    """From `edge`, walk by `step` until `gap` blank entries in a row; the last inked one."""
    position, run = edge + step, 0
    while 0 <= position < len(blank) and run < gap:
        if blank[position]:
            run += 1
        else:
            run, edge = 0, position
        position += step
    return edge


def _merge(regions: list[Box]) -> list[Box]:
    """Join regions that overlap or lie within MERGE_GAP of each other, until none do."""
    merged = list(regions)
    joined = True
    while joined:
        joined = False
        for i, j in itertools.combinations(range(len(merged)), 2):
            if _near(merged[i], merged[j], MERGE_GAP, MERGE_GAP):
                merged[i] = merged[i].union(merged.pop(j))
                joined = True
                break
    return merged
