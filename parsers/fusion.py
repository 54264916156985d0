"""Merge OCR text boxes and detected widgets into the numbered Elements the agent reads.

OCR knows what is written, widget detection knows what can be clicked; neither alone tells the
agent that "Save" is a button or which line edit is "Email". Fusion puts each text where it
belongs: inside a button (the button's label), beside a check box (the check box's label),
inside a line edit (its value), left of or above a line edit (its name), or on its own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from clickwright.parsers.widgets import Widget
from clickwright.types import INTERACTIVE_KINDS, Box, Element

TOGGLES = ("checkbox", "radio")
FIELDS = ("input", "combo")  # widgets that take a name from a label beside or above them
CONTAINERS = ("container", "image")
LABEL_GAP = 250  # farthest a label may sit left of its field, in pixels
TOGGLE_GAP = 2.0  # farthest a toggle's label may start, in toggle widths right of it
LOOKALIKES = frozenset("口回□OoQ0DC")  # what OCR reads a check box or radio glyph as
LINE = 24  # a typical line height in pixels: the most of an item's height that sets its row

_T = TypeVar("_T")


@dataclass(frozen=True)
class TextBox:
    """One OCR result: a line or phrase of text and its box in frame pixels."""

    box: Box
    text: str
    score: float


def fuse(texts: list[TextBox], widgets: list[Widget]) -> list[Element]:
    """Merge OCR text and widgets into Elements in reading order (rows top to bottom, each row
    left to right), with ids 0..n-1."""
    widgets = [_as_bar(w, texts) for w in widgets if not _glyph_in_text(w, texts)]
    hosts = [w for w in widgets if w.kind not in TOGGLES + CONTAINERS]
    inside: dict[int, list[TextBox]] = {}  # widget index in `hosts` -> texts within it
    free: list[TextBox] = []
    for text in texts:
        host = _host(text.box, hosts)
        if host is None:
            free.append(text)
        else:
            inside.setdefault(host, []).append(text)

    parts: list[Element] = []
    toggles = [w for w in widgets if w.kind in TOGGLES]
    for toggle, label in _pair_toggles(toggles, free):
        if label is None:
            parts.append(_widget_element(toggle))
            continue
        free.remove(label)
        parts.append(
            Element(
                id=0,
                box=toggle.box.union(label.box),
                kind=toggle.kind,
                text=_strip_glyph(label, toggle.box),
                source="merged",
                score=min(toggle.score, label.score),
                interactive=True,
                state=toggle.state,
            )
        )

    names = _name_fields([(i, w) for i, w in enumerate(hosts) if w.kind in FIELDS], free)
    for index, widget in enumerate(hosts):
        contents = _reading_order(inside.get(index, []), lambda t: t.box)
        text = " ".join(t.text for t in contents)
        name = names.get(index, "")
        if not text and not name:
            parts.append(_widget_element(widget))
            continue
        parts.append(
            Element(
                id=0,
                box=widget.box,
                kind=widget.kind,
                text=text,
                source="merged",
                score=min([widget.score] + [t.score for t in contents]),
                interactive=True,
                name=name,
                state=widget.state,
            )
        )

    parts.extend(_widget_element(w) for w in widgets if w.kind in CONTAINERS)
    parts.extend(
        Element(id=0, box=t.box, kind="text", text=t.text, source="ocr", score=t.score)
        for t in free
    )
    return [replace(e, id=i) for i, e in enumerate(_reading_order(parts, lambda e: e.box))]


def _as_bar(widget: Widget, texts: list[TextBox]) -> Widget:
    """A field or button holding several phrases side by side is a bar (a menu bar, a
    toolbar): OCR split them at wide gaps, so each is its own item, not one value or label."""
    if widget.kind not in ("input", "button"):
        return widget
    held = [t.box for t in texts if _host(t.box, [widget]) is not None]
    side_by_side = any(
        a.x < b.x and abs(a.center[1] - b.center[1]) <= max(a.h, b.h) / 2
        for a in held
        for b in held
    )
    return replace(widget, kind="container") if side_by_side else widget


def _widget_element(widget: Widget) -> Element:
    return Element(
        id=0,
        box=widget.box,
        kind=widget.kind,
        source="widgets",
        score=widget.score,
        interactive=widget.kind in INTERACTIVE_KINDS,
        state=widget.state,
    )


def _glyph_in_text(widget: Widget, texts: list[TextBox]) -> bool:
    """A "check box" or "radio" in the middle of a line of text, or read by OCR as a lone
    letter or digit, is that letter or symbol.

    One at the very start of a text box is kept: OCR often reads a toggle and its label as one
    line ("☑ Large"), or the toggle alone as a look-alike ("O", "口").
    """
    if widget.kind not in TOGGLES:
        return False
    box = widget.box
    for text in texts:
        if text.box.intersection(box) < 0.6 * box.area:
            continue
        letter = text.text.strip()
        if box.x - text.box.x > box.w or (
            len(letter) == 1 and letter.isalnum() and letter not in LOOKALIKES
        ):
            return True
    return False


def _host(box: Box, widgets: list[Widget]) -> int | None:
    """Index of the smallest widget that holds most of `box`, if any."""
    cx, cy = box.center
    holders = [
        (w.box.area, i)
        for i, w in enumerate(widgets)
        if w.box.contains_point(cx, cy) and box.intersection(w.box) >= 0.5 * box.area
    ]
    return min(holders)[1] if holders else None


def _pair_toggles(
    toggles: list[Widget], texts: list[TextBox]
) -> list[tuple[Widget, TextBox | None]]:
    """Give each toggle the nearest text starting just right of it on the same row."""
    options = []
    for t_index, toggle in enumerate(toggles):
        box = toggle.box
        for x_index, text in enumerate(texts):
            gap = text.box.x - box.right
            same_row = abs(text.box.center[1] - box.center[1]) <= max(box.h, text.box.h) / 2
            covers = text.box.contains_point(*box.center)  # OCR read glyph and label as one
            if same_row and (covers or -box.w / 2 <= gap <= TOGGLE_GAP * box.w):
                options.append((0 if covers else max(gap, 0), t_index, x_index))
    paired: dict[int, TextBox] = {}
    used: set[int] = set()
    for _, t_index, x_index in sorted(options):
        if t_index not in paired and x_index not in used:
            paired[t_index] = texts[x_index]
            used.add(x_index)
    return [(toggle, paired.get(i)) for i, toggle in enumerate(toggles)]


def _strip_glyph(label: TextBox, toggle: Box) -> str:
    """Drop what OCR made of the toggle itself when it read glyph and label as one line."""
    text = label.text
    overlap = toggle.right - label.box.x
    if overlap <= 2 or not text:
        return text
    char_width = label.box.w / len(text)
    stripped = text.lstrip()
    while stripped and unicodedata.category(stripped[0])[0] in "SPZC":  # ☑ ✓ • ( ...
        stripped = stripped[1:].lstrip()
    rest = text[1:]
    if (
        stripped == text.lstrip()
        and overlap >= 0.6 * char_width
        and text[0] in LOOKALIKES
        and len(rest.strip()) > 1
        and (rest[0].isspace() or rest[0].isupper())
    ):
        stripped = rest.lstrip()  # "O Free", "口Subscribe"; but "Offers" keeps its O
    return stripped or text


def _name_fields(fields: list[tuple[int, Widget]], texts: list[TextBox]) -> dict[int, str]:
    """Name each line edit or combo box after its label: the nearest text on its left in the
    same row, else the text just above it, each label used once."""
    options = []
    for index, field in fields:
        box = field.box
        for t_index, text in enumerate(texts):
            label = text.box
            left_gap = box.x - label.right
            same_row = abs(label.center[1] - box.center[1]) <= max(box.h, label.h) / 2
            if same_row and -4 <= left_gap <= LABEL_GAP:
                options.append((0, left_gap, index, t_index))
                continue
            above_gap = box.y - label.bottom
            aligned = box.x - box.h <= label.x <= box.x + box.w / 2
            if aligned and -2 <= above_gap <= max(box.h, 20):
                options.append((1, above_gap, index, t_index))
    names: dict[int, str] = {}
    used: set[int] = set()
    for _, _, index, t_index in sorted(options):
        if index not in names and t_index not in used:
            names[index] = texts[t_index].text
            used.add(t_index)
    return names


def _reading_order(items: list[_T], box_of: Callable[[_T], Box]) -> list[_T]:
    """Rows top to bottom, each row left to right, tolerant of a few pixels of vertical jitter.

    An item joins the current row when its anchor (its middle) is within half a line of the
    row's; tall items (panels, lists) are anchored at their top edge so they come before what
    they hold.
    """

    def anchor(item: _T) -> float:
        box = box_of(item)
        return box.y + box.h / 2 if box.h <= 2 * LINE else box.y

    rows: list[list[_T]] = []
    row_anchor = 0.0
    for item in sorted(items, key=anchor):
        box = box_of(item)
        near = rows and abs(anchor(item) - row_anchor) <= max(4.0, min(box.h, LINE) / 2)
        # Two items one above the other are never in the same row, however close.
        if near and not any(_x_overlap(box, box_of(other)) for other in rows[-1]):
            rows[-1].append(item)
            row_anchor += (anchor(item) - row_anchor) / len(rows[-1])
        else:
            rows.append([item])
            row_anchor = anchor(item)
    return [item for row in rows for item in sorted(row, key=lambda i: box_of(i).x)]


def _x_overlap(a: Box, b: Box) -> bool:
    return min(a.right, b.right) - max(a.x, b.x) > 0.3 * min(a.w, b.w)
