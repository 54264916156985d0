"""Links: text a browser or app draws in a link colour (blue, visited purple).

OCR sees only words; whether they can be clicked shows in their ink, so a text whose ink is
saturated blue or purple becomes a `link`. (Underlines are not used: an OCR box often takes
in a group box's border or a list's edge, which looks just like one.)
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from clickwright.types import Element

INK_DISTANCE = 60  # how far from the background a pixel must be to count as ink
LINK_HUES = (95, 150)  # OpenCV hue (0-180): blue through purple


def is_link(crop: np.ndarray) -> bool:
    """Whether the text in an RGB crop is drawn like a link."""
    if crop.ndim != 3 or min(crop.shape[:2]) < 4:
        return False
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.int16)
    background = np.median(border, axis=0)
    distance = np.abs(crop.astype(np.int16) - background).sum(axis=2)
    ink = distance > INK_DISTANCE
    if ink.sum() < 8:
        return False
    hsv = cv2.cvtColor(crop, cv2.COLOR_RGB2HSV)[ink]
    hue, saturation = np.median(hsv[:, 0]), np.median(hsv[:, 1])
    return bool(LINK_HUES[0] <= hue <= LINK_HUES[1] and saturation >= 90)


def mark_links(pixels: np.ndarray, elements: list[Element]) -> list[Element]:
    marked = []
    for element in elements:
        x, y, w, h = element.box
        if element.kind == "text" and element.text and is_link(pixels[y : y + h, x : x + w]):
            element = replace(element, kind="link", interactive=True)
        marked.append(element)
    return marked
