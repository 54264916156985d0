"""Shapes drawn on a page (a canvas or SVG circle, a colour swatch, a triangle to drag): flat
regions of one colour that no other parser took, named by colour and form ("yellow
triangle") so a task can say "the item", "the red circle" or "the pink one".
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from clickwright.parsers.colours import flat_fill, palette
from clickwright.types import Box, Element

__all__ = ["SHAPE_NAMES", "with_shapes"]

SIDE = (12, 200)
"""A shape's bounding box sides, in pixels."""
FILLED = 0.35
"""Least share of its bounding box a shape covers (a triangle covers half)."""
FLAT = 0.7
"""Least share of a shape's pixels in its one colour."""
EDGE = 24
"""Summed RGB step between neighbouring pixels that bounds a flat region."""
SHAPE_NAMES = ("triangle", "square", "rectangle", "circle")


def with_shapes(pixels: np.ndarray, elements: list[Element]) -> list[Element]:
    """`elements` and the shapes drawn outside them, each an icon named by colour and form.

    A shape is a region of one flat colour bounded by edges (its own outline, the page, the
    thin border between two swatches), so it is found on any background. Regions are found at
    half resolution (a quarter of the pixels to label)."""
    half = pixels[::2, ::2, :3].astype(np.int16)
    if min(half.shape[:2]) < SIDE[0] // 2:
        return elements  # no room for a shape (and OpenCV crashes on an empty image)
    step_x = np.abs(np.diff(half, axis=1)).sum(axis=2) > EDGE
    step_y = np.abs(np.diff(half, axis=0)).sum(axis=2) > EDGE
    edge = np.zeros(half.shape[:2], bool)
    edge[:, 1:] |= step_x
    edge[:, :-1] |= step_x
    edge[1:] |= step_y
    edge[:-1] |= step_y
    count, labels, stats, _ = cv2.connectedComponentsWithStats((~edge).astype(np.uint8), 4)
    low, high = SIDE
    shapes = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if not (low <= 2 * w + 2 <= high and low <= 2 * h + 2 <= high) or area < FILLED * w * h:
            continue
        box = Box(2 * x - 1, 2 * y - 1, 2 * w + 2, 2 * h + 2)  # with the edge round it
        if any(_taken(e, box) for e in elements):
            continue
        mask = labels[y : y + h, x : x + w] == label
        form = _form(mask)
        if form is None or not _flat(half[y : y + h, x : x + w][mask]):
            continue  # a picture, not a shape drawn in one colour
        colour = flat_fill(pixels, box)
        if colour is not None and palette().hue_of(colour):  # white, grey, black: a panel
            name = f"{palette().nearest(colour)} {form}"
            shapes.append(Element(0, box, "icon", "", "widgets", 0.5, True, name))
    return [*elements, *(replace(s, id=len(elements) + i) for i, s in enumerate(shapes))]


def _flat(colours: np.ndarray) -> bool:
    """Whether most of a blob is one colour (its edge pixels blend into the page)."""
    spread = np.abs(colours.astype(np.int16) - np.median(colours, axis=0)).sum(axis=1)
    return bool((spread <= 30).mean() >= FLAT)


def _taken(element: Element, box: Box) -> bool:
    """Whether `box` is part of what an element shows (its text, its outline): any element
    it overlaps but a large holder (a card, a list row) or one far wider than it."""
    other = element.box
    holder = element.kind in ("container", "list_item") and other.area > 4 * box.area
    if holder or other.w > 2 * box.w:
        return False  # a card round it, or a text read across a row of them
    overlap_w = min(other.right, box.right) - max(other.x, box.x)
    overlap_h = min(other.bottom, box.bottom) - max(other.y, box.y)
    return overlap_w > 0 and overlap_h > 0


def _form(mask: np.ndarray) -> str | None:
    """Triangle, square, rectangle or circle (less specks touching it only by a corner): three
    corners; flat sides along its box (a square's, rounded or not, fill most of each side; a
    circle only touches them); else round. None for any other outline."""
    count, parts = cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)
    sizes = np.bincount(parts.ravel(), minlength=count)[1:]
    core = parts == 1 + int(np.argmax(sizes)) if count > 1 else mask
    rows, columns = np.flatnonzero(core.any(axis=1)), np.flatnonzero(core.any(axis=0))
    if rows.size < 3 or columns.size < 3:
        return None  # a stroke, not a shape
    mask = core[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1].astype(bool)
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    perimeter = cv2.arcLength(outline, True)
    area = cv2.contourArea(outline)
    if perimeter == 0 or area == 0:
        return None
    if len(cv2.approxPolyDP(outline, 0.04 * perimeter, True)) == 3:
        return "triangle"
    h, w = mask.shape
    sides = min(mask[0].mean(), mask[-1].mean(), mask[:, 0].mean(), mask[:, -1].mean())
    if sides >= 0.5 and mask.mean() >= 0.7:
        return "square" if 0.8 <= w / h <= 1.25 else "rectangle"
    if 4 * np.pi * area / perimeter**2 >= 0.75:
        return "circle"
    return None
