"""Where a drag ends: a place in the list the dragged element is in ("to the top", "third"),
beside another element ("above Milk"), or along a direction ("left by 100 pixels").

Sortable lists (HTML drag and drop, jQuery UI, GTK and Qt views) put a dropped item before
the item under the pointer when the pointer is in that item's first half, after it in its
second half; so the drop point is a third of a pitch past the middle, on the side the item
should land.
"""

from __future__ import annotations

import statistics

from clickwright.types import Box, Element, Screen

__all__ = ["beside", "list_around", "along", "nth_place"]

Point = tuple[int, int]

PAST_MIDDLE = 0.3
"""How far past an item's middle, in pitches of its list, a drop lands on the wanted side."""
DEFAULT_DISTANCE = (60, 200)
"""A drag "left" with no distance: 2.5 times the element's size, within these pixels."""


def list_around(screen: Screen, element: Element) -> tuple[list[Element], int]:
    """The items of the list `element` is in, in order, and its axis (1: a column, 0: a row):
    elements about its size lined up with it, evenly spaced, one per place; a grid's rows one
    after another. No list: []."""
    column, row = _run(screen, element, 1), _run(screen, element, 0)
    if len(row) >= 2 and len(column) >= 2:  # a grid (photos): rows in reading order
        rows = [_run(screen, anchor, 0) or [anchor] for anchor in column]
        alike = [r for r in rows if _in_columns(r, row)]  # not a bar whose first lines up
        full = [i for i, r in enumerate(alike) if len(r) >= 2]
        alike = [r for i, r in enumerate(alike) if len(r) >= 2 or i > full[-1]]  # a short last
        if len(row) > len(alike) >= 2:  # (a lone badge above is no row)
            return [e for r in alike for e in r], 0
    if len(row) > len(column):
        return row, 0
    return (column, 1) if len(column) >= 2 else ([], 1)


def nth_place(screen: Screen, element: Element, nth: int) -> Point | None:
    """Where `element` is dropped to be the `nth` of its list (1-based; -1 the last); None when
    it is there already or is in no list."""
    items, axis = list_around(screen, element)
    if not items:
        return None
    at = next(i for i, e in enumerate(items) if e.id == element.id)
    to = len(items) - 1 if nth == -1 else min(max(nth, 1), len(items)) - 1
    if to == at:
        return None
    return _past_middle(items[to].box, axis, _pitch(items, axis), after=to > at)


def under_heading(heading: Element) -> Point:
    """Where a thing is dropped to be first under a list's heading (a board's column): just
    below the heading, above the middle of what comes first."""
    return heading.box.center[0], heading.box.bottom + max(4, heading.box.h // 2)


def beside(screen: Screen, dropped: Element, after: bool) -> Point:
    """Where an element is dropped to land just before (above) or after (below) `dropped`."""
    items, axis = list_around(screen, dropped)
    pitch = _pitch(items, axis) if items else float(dropped.box.h)
    return _past_middle(dropped.box, axis, pitch, after)


def along(screen: Screen, element: Element, direction: str, pixels: int) -> Point:
    """`element`'s middle moved `pixels` (0: a default distance) towards `direction`, kept on
    the screen."""
    box = element.box
    size = box.w if direction in ("left", "right") else box.h
    low, high = DEFAULT_DISTANCE
    distance = pixels or int(min(max(2.5 * size, low), high))
    dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[direction]
    x, y = box.center
    w, h = screen.frame.size
    return min(max(x + dx * distance, 1), w - 2), min(max(y + dy * distance, 1), h - 2)


def _run(screen: Screen, element: Element, axis: int) -> list[Element]:
    """The evenly spaced run of `element`'s look-alikes along `axis` that holds it."""
    box = element.box
    tolerance = max(6, box.h * 0.6)
    lined = [
        e for e in screen.elements
        if 0.7 <= e.box.h / max(box.h, 1) <= 1.4
        and (_lined_up(e.box, box, tolerance) if axis == 1 else _level(e.box, box))
    ]  # fmt: skip
    places: list[Element] = []
    for e in sorted(lined, key=lambda e: (_mid(e.box, axis), e.id != element.id)):
        if places and _overlap(places[-1].box, e.box, axis):
            continue  # one element per place: the dragged one where it is
        places.append(e)
    at = next((i for i, e in enumerate(places) if e.id == element.id), None)
    if at is None or len(places) < 2:
        return []
    gaps = [_mid(b.box, axis) - _mid(a.box, axis) for a, b in zip(places, places[1:], strict=False)]
    pitch = min(gaps[max(at - 1, 0) : at + 1])
    first, last = at, at
    while first > 0 and 0.6 * pitch <= gaps[first - 1] <= 1.5 * pitch:
        first -= 1
    while last < len(gaps) and 0.6 * pitch <= gaps[last] <= 1.5 * pitch:
        last += 1
    return places[first : last + 1]


def _in_columns(run: list[Element], row: list[Element]) -> bool:
    """Whether `run` is another row of `row`'s grid: it starts in the same column and its
    items are as far apart (not a bar of other things whose first lines up with the grid)."""
    if abs(run[0].box.x - row[0].box.x) > max(6.0, row[0].box.h * 0.6):
        return False
    return len(run) < 2 or abs(_pitch(run, 0) - _pitch(row, 0)) <= 0.1 * _pitch(row, 0)


def _lined_up(a: Box, b: Box, tolerance: float) -> bool:
    return abs(a.x - b.x) <= tolerance or abs(_mid(a, 0) - _mid(b, 0)) <= tolerance


def _level(a: Box, b: Box) -> bool:
    return abs(_mid(a, 1) - _mid(b, 1)) <= b.h / 2


def _mid(box: Box, axis: int) -> float:
    return box.center[axis]


def _overlap(a: Box, b: Box, axis: int) -> bool:
    start, end = (a.x, a.right) if axis == 0 else (a.y, a.bottom)
    other_start, other_end = (b.x, b.right) if axis == 0 else (b.y, b.bottom)
    return min(end, other_end) - max(start, other_start) > 0


def _pitch(items: list[Element], axis: int) -> float:
    return statistics.median(
        _mid(b.box, axis) - _mid(a.box, axis) for a, b in zip(items, items[1:], strict=False)
    )


def _past_middle(box: Box, axis: int, pitch: float, after: bool) -> Point:
    x, y = box.center
    shift = round(PAST_MIDDLE * pitch) * (1 if after else -1)
    return (x + shift, y) if axis == 0 else (x, y + shift)
