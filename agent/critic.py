"""The critic: did the action do what it was meant to? Judged from the screens before and after.

A verdict is `success` (the expected effect is visible), `unverified` (the screen changed but the
effect cannot be confirmed, e.g. dots in a password field), or `retry` (nothing relevant
happened: the loop tries the next candidate, or fails when there is none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from clickwright.agent.grounding import normalize, scrolled_by, text_similarity
from clickwright.agent.lexicon import lexicon
from clickwright.agent.runlog import looks_secret
from clickwright.types import Action, Box, Element, Frame, Screen, Status

CARET_WIDTH = 3  # changes this thin are a blinking text cursor, not an effect


@dataclass(frozen=True)
class Expectation:
    """What should be true after an action."""

    kind: Literal["change", "text_in", "state", "appears"] = "change"
    text: str = ""
    box: Box | None = None
    state: Literal["checked", "unchecked"] | None = None

    def describe(self) -> str:
        if self.kind == "text_in":
            return f"'{self.text}' shows in the field"
        if self.kind == "state":
            return f"it is {self.state}"
        if self.kind == "appears":
            return f"'{self.text}' appears"
        return "the screen changes"


@dataclass(frozen=True)
class Verdict:
    """`back`, `replan` and `ask_user` come only from a model critic: undo a wrong turn, make a
    new plan, or ask the person (`question`)."""

    status: Status
    reason: str
    question: str = ""


def expectation_for(action: Action, element: Element | None) -> Expectation:
    """What a model's action should visibly do, for the offline critic to check first."""
    if element is not None:
        if action.type == "type" and action.text and not looks_secret(element.name or ""):
            return Expectation("text_in", action.text, element.box)
        if action.type == "click" and element.kind in ("checkbox", "toggle", "radio"):
            checked = "checked" in element.state
            wanted = "checked" if element.kind == "radio" or not checked else "unchecked"
            return Expectation("state", box=element.box, state=wanted)
    return Expectation("change")


def changed_regions(before: Frame, after: Frame) -> list[Box]:
    """Boxes of what changed, ignoring caret-thin slivers."""
    if before.pixels.shape != after.pixels.shape:
        h, w = after.pixels.shape[:2]
        return [Box(0, 0, w, h)]
    diff = np.any(before.pixels != after.pixels, axis=2).astype(np.uint8)
    if not diff.any():
        return []
    diff = cv2.dilate(diff, np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(diff)
    boxes = []
    for x, y, w, h, _area in stats[1:count]:
        if min(w, h) - 4 > CARET_WIDTH:  # dilation added 4 px
            boxes.append(Box(int(x) + 2, int(y) + 2, int(w) - 4, int(h) - 4))
    return boxes


def judge(
    before: Screen, after: Screen, expect: Expectation, ignore: Sequence[Box] = ()
) -> Verdict:
    """`ignore`: regions that change by themselves (a clock, a countdown, a spinner), so their
    ticking is not taken for the action's effect."""
    regions = [r for r in changed_regions(before.frame, after.frame) if not _within(r, ignore)]
    changed = bool(regions)
    if expect.kind == "text_in" and expect.box is not None:
        if text_near(after, expect.text, expect.box):
            return Verdict("success", f"the field now shows '{expect.text}'")
    elif expect.kind == "state" and expect.box is not None:
        state = _state_at(after, expect.box)
        if state != expect.state and changed and (moved := scrolled_by(before, after)):
            box = expect.box  # a bar of actions for the rows ticked pushed the table down
            state = _state_at(after, Box(box.x, box.y - moved, box.w, box.h)) or state
        if state == expect.state:
            return Verdict("success", f"it is now {state}")
        if state is not None and changed:
            return Verdict("retry", f"it is still {state}")
    elif expect.kind == "appears":
        if after.shows(expect.text):
            return Verdict("success", f"'{expect.text}' is now visible")
    elif changed:
        largest = max(regions, key=lambda b: b.area)
        return Verdict(
            "success", f"the screen changed ({len(regions)} regions, largest {tuple(largest)})"
        )
    if changed:
        return Verdict("unverified", f"the screen changed but not as expected: {expect.describe()}")
    return Verdict("retry", "nothing changed on screen")


def _within(region: Box, boxes: Sequence[Box]) -> bool:
    return any(region.intersection(box) >= 0.5 * max(1, region.area) for box in boxes)


def text_near(screen: Screen, text: str, box: Box) -> bool:
    wanted = normalize(text)
    if not wanted:
        return True
    row = Box(box.x - 8, box.y - 4, box.w + 16, box.h + 8)
    for element in screen.elements:
        if row.intersection(element.box) < 0.5 * max(1, element.box.area):
            continue
        if text_similarity(text, element.text) >= 80:
            return True
    return False


def _state_at(screen: Screen, box: Box) -> str | None:
    for element in screen.elements:
        if element.kind in ("checkbox", "radio", "toggle") and element.box.iou(box) > 0.5:
            return "checked" if "checked" in element.state else "unchecked"
    return None


def complaint(before: Screen, after: Screen) -> str | None:
    """A line `after` shows that `before` did not and that says the action was refused
    ("Please agree to the terms to continue.", "Email is invalid"), or None."""
    shown = {normalize(e.text) for e in before.elements if e.text}
    for element in after.elements:
        line = element.text.strip()
        if not line or len(line) > COMPLAINT_LENGTH or normalize(line) in shown:
            continue
        if any(p.search(line) for p in lexicon().complaints):
            return line
    return None


COMPLAINT_LENGTH = 120
"""Longer lines are prose (a page's help text), not a message about the last action."""
