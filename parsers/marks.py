"""Set-of-marks: numbered boxes drawn on the frame plus a compact text list of the elements.

The same numbers appear in the picture and the list, so a model (or a person reading a report)
can say "click 12" and mean exactly one element.
"""

from __future__ import annotations

import cv2
import numpy as np

from clickwright.types import Element

# RGB colours by source: what found the element
SOURCE_COLOURS = {
    "ocr": (37, 99, 235),
    "widgets": (234, 88, 12),
    "a11y": (22, 163, 74),
    "merged": (147, 51, 234),
}
FONT = cv2.FONT_HERSHEY_SIMPLEX


def draw_marks(
    pixels: np.ndarray,
    elements: list[Element] | tuple[Element, ...],
    interactive_only: bool = False,
) -> np.ndarray:
    """A copy of `pixels` (RGB) with each element's box and id drawn on it."""
    canvas = np.ascontiguousarray(pixels[:, :, :3]).copy()
    shown = [e for e in elements if e.interactive or not interactive_only]
    for element in sorted(shown, key=lambda e: -e.box.area):  # small boxes drawn last, on top
        x, y, w, h = element.box
        colour = SOURCE_COLOURS.get(element.source, (220, 38, 38))
        cv2.rectangle(canvas, (x, y), (x + w - 1, y + h - 1), colour, 1)
        label = str(element.id)
        (tw, th), _ = cv2.getTextSize(label, FONT, 0.35, 1)
        tx, ty = x, max(y - 1, th + 3)
        cv2.rectangle(canvas, (tx, ty - th - 3), (tx + tw + 3, ty), colour, -1)
        cv2.putText(canvas, label, (tx + 1, ty - 2), FONT, 0.35, (255, 255, 255), 1, cv2.LINE_AA)
    return canvas


def marks_text(
    elements: list[Element] | tuple[Element, ...], interactive_only: bool = False
) -> str:
    """One line per element: `[12] button "Save" at (785, 624, 56, 26)`, for prompts and logs."""
    lines = []
    for e in elements:
        if interactive_only and not e.interactive:
            continue
        parts = [f"[{e.id}] {e.kind}"]
        if e.text:
            parts.append(f'"{e.text}"')
        if e.name:
            parts.append(f"(label: {e.name})")
        if e.state:
            parts.append("[" + ", ".join(sorted(e.state)) + "]")
        parts.append(f"at {tuple(e.box)}")
        lines.append(" ".join(parts))
    return "\n".join(lines)
