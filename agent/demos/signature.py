"""A target's signature, and the search that finds it again on a changed screen.

Coordinates alone break as soon as a window moves, is resized or the resolution changes, so a
recorded target keeps what a person would use to find it again: its text (or a field's label),
its kind, a picture of it, the texts around it and where it sat on the screen. `locate` tries
them in order of trust: text, then the picture across scales, then the position relative to the
neighbours. Where several elements fit, the neighbours and the old position break the tie.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from clickwright.agent.grounding import Candidate, rank, text_similarity
from clickwright.types import INTERACTIVE_KINDS, Box, Element, ElementKind, Screen

Fraction = Annotated[float, Field(ge=0, le=1)]
LABELLED = ("input", "combo", "container")  # found by the label beside them, not by their text
TEXT_MATCH = 85.0  # how alike (0-100) a text must be to count as the recorded one
IMAGE_MATCH = 0.86  # normalised correlation for a picture match
SCALES = (1.0, 0.9, 1.1, 0.8, 1.25, 0.75, 1.33, 1.5, 0.67, 2.0, 0.5)
NEIGHBOURS = 6
NEIGHBOUR_REACH = 400  # px: texts further away say little about where the target is
AGREE = 40  # px: neighbour predictions this close agree
PAD = 6  # px around the element in its picture


class Neighbour(BaseModel):
    """A text near the target and where it sat relative to the target's centre (pixels)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    text: str = Field(min_length=1)
    dx: float
    dy: float


class Signature(BaseModel):
    """Everything kept about a target to find it again."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    text: str = ""
    label: str = ""
    kind: ElementKind | None = None
    box: tuple[Fraction, Fraction, Fraction, Fraction]
    """x, y, w, h as fractions of the screen."""
    point: tuple[Fraction, Fraction] = (0.5, 0.5)
    """Where inside the box it was pressed, as fractions of the box."""
    crop: str | None = None
    """Its picture: a PNG file in the demonstration's folder."""
    neighbours: tuple[Neighbour, ...] = ()
    window: str = ""
    screen: tuple[Annotated[int, Field(gt=0)], Annotated[int, Field(gt=0)]]

    @property
    def words(self) -> str:
        """What a person calls it: a field by its label, anything else by its text."""
        if self.label and (self.kind in LABELLED or not self.text):
            return self.label.strip().rstrip(":").strip()
        return self.text.strip()


@dataclass(frozen=True)
class Found:
    """Where a signature was found: the point to act on and how it was found."""

    point: tuple[int, int]
    box: Box
    element: Element | None
    by: Literal["text", "image", "neighbours", "point"]
    why: str


@dataclass(frozen=True)
class Missing:
    """Why a signature was not found, in one line for the stop report."""

    reason: str


# ---- taking a signature ---------------------------------------------------------------------


def label_of(screen: Screen, element: Element) -> str:
    """A field's label: the parser's name for it, else the text just left of it or above it."""
    if element.name:
        return element.name
    box = element.box
    middle = box.y + box.h / 2
    left = [
        e
        for e in screen.elements
        if e.kind == "text"
        and e.text
        and e.box.y <= middle <= e.box.bottom
        and 0 <= box.x - e.box.right < 300
    ]
    if left:
        return min(left, key=lambda e: box.x - e.box.right).text
    above = [
        e
        for e in screen.elements
        if e.kind == "text"
        and e.text
        and 0 <= box.y - e.box.bottom < 40
        and e.box.x < box.right
        and e.box.right > box.x
    ]
    return min(above, key=lambda e: box.y - e.box.bottom).text if above else ""


def take_signature(
    screen: Screen, point: tuple[int, int], window: str = "", scroll: bool = False
) -> tuple[Signature, np.ndarray, Element | None]:
    """The signature of what is at `point`, its picture (to be saved by the caller as
    `crop`), and the element itself when the parser saw one there."""
    width, height = screen.frame.size
    element = screen.element_at(point, scroll)
    box = element.box if element is not None else Box(point[0] - 30, point[1] - 15, 60, 30)
    box = _clip(box, width, height)
    text = (element.text or element.name) if element is not None else ""
    label = label_of(screen, element) if element is not None and element.kind in LABELLED else ""
    centre = box.center
    others = [
        e
        for e in screen.elements
        if _shown(e) and e is not element and e.box.distance_to(*centre) < NEIGHBOUR_REACH
    ]
    others.sort(key=lambda e: e.box.distance_to(*centre))
    neighbours = tuple(
        Neighbour(text=_shown(e), dx=e.box.center[0] - centre[0], dy=e.box.center[1] - centre[1])
        for e in others[:NEIGHBOURS]
    )
    pad = _clip(Box(box.x - PAD, box.y - PAD, box.w + 2 * PAD, box.h + 2 * PAD), width, height)
    crop = screen.frame.pixels[pad.y : pad.bottom, pad.x : pad.right].copy()
    signature = Signature(
        text=text,
        label=label,
        kind=element.kind if element is not None else None,
        box=(box.x / width, box.y / height, box.w / width, box.h / height),
        point=(
            min(max((point[0] - box.x) / max(box.w, 1), 0.0), 1.0),
            min(max((point[1] - box.y) / max(box.h, 1), 0.0), 1.0),
        ),
        neighbours=neighbours,
        window=window,
        screen=(width, height),
    )
    return signature, crop, element


# ---- finding it again -----------------------------------------------------------------------


def locate(signature: Signature, screen: Screen, crop: np.ndarray | None) -> Found | Missing:
    """Find the signature's target on `screen`: by text, by picture, by neighbours."""
    expected = _expected_centre(signature, screen)
    words = signature.words
    tried: list[str] = []
    if words:
        found = _by_text(signature, screen, expected)
        if found is not None:
            return found
        tried.append(f"no text like '{words}'")
    if crop is not None:
        found, why = _by_image(signature, screen, crop, expected)
        if found is not None:
            return found
        tried.append(why)
    found, why = _by_neighbours(signature, screen, expected)
    if found is not None:
        return found
    tried.append(why)
    return Missing("; ".join(tried))


def _by_text(
    signature: Signature, screen: Screen, expected: tuple[float, float] | None
) -> Found | None:
    candidates = strong_matches(rank(screen, signature.words, signature.kind), signature.words)
    if not candidates:
        return None
    top = candidates[0].score
    close = [c for c in candidates if c.score >= top - 8]
    best = min(close, key=lambda c: _place_cost(c.element.box, signature, screen, expected))
    tie = f", nearest of {len(close)} alike" if len(close) > 1 else ""
    return _found(signature, best.element.box, best.element, "text", f"{best.why}{tie}")


def strong_matches(candidates: list[Candidate], words: str) -> list[Candidate]:
    """The ranked candidates that really say `words` (or are labelled so), not ones that are
    merely alike: grounding ranks generously, a replay must not click 'Save As' for 'Save'."""
    return [
        c
        for c in candidates
        if c.why.startswith(("labelled", "next to label"))
        or max(text_similarity(words, c.element.text), text_similarity(words, c.element.name))
        >= TEXT_MATCH
    ]


def _by_image(
    signature: Signature, screen: Screen, crop: np.ndarray, expected: tuple[float, float] | None
) -> tuple[Found | None, str]:
    """Template matching across scales; a plain crop (an empty field) matches anything, so it
    is not tried. A match on an element whose text differs from the recorded one is refused."""
    gray = cv2.cvtColor(screen.frame.pixels, cv2.COLOR_RGB2GRAY)
    template = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    if template.std() < 4:
        return None, "its picture is too plain to tell it apart"
    matches: list[tuple[float, Box]] = []
    best = 0.0
    for scale in _scales(signature, screen):
        t = cv2.resize(template, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if (
            t.shape[0] < 8
            or t.shape[1] < 8
            or t.shape[0] > gray.shape[0]
            or t.shape[1] > gray.shape[1]
        ):
            continue
        result = cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED)
        result = np.nan_to_num(result, nan=0.0)
        for _ in range(3):  # the few best places at this scale
            _, score, _, (x, y) = cv2.minMaxLoc(result)
            best = max(best, score)
            if score < IMAGE_MATCH:
                break
            pad = round(PAD * scale)
            matches.append(
                (score, Box(x + pad, y + pad, t.shape[1] - 2 * pad, t.shape[0] - 2 * pad))
            )
            h, w = t.shape
            result[max(0, y - h // 2) : y + h // 2 + 1, max(0, x - w // 2) : x + w // 2 + 1] = 0
    if not matches:
        return None, f"no picture match (best {best:.2f}, needs {IMAGE_MATCH:.2f})"
    top = max(score for score, _ in matches)
    close = [(s, b) for s, b in matches if s >= top - 0.02]
    score, box = min(close, key=lambda m: _place_cost(m[1], signature, screen, expected))
    element = screen.element_at(box.center)
    if element is not None and signature.words and (element.text or element.name):
        seen = max(
            text_similarity(signature.words, element.text),
            text_similarity(signature.words, element.name),
        )
        if seen < 50:
            return None, f"its picture matches {element.describe()}, which is another"
    return _found(signature, box, element, "image", f"picture match {score:.2f}"), ""


def _by_neighbours(
    signature: Signature, screen: Screen, expected: tuple[float, float] | None
) -> tuple[Found | None, str]:
    """Where the texts around it say it must be; only trusted for an element of a fitting
    kind there whose text, if it has one, is not clearly another's."""
    if expected is None:
        return None, "too few of its neighbouring texts agree on where it is"
    point = (round(expected[0]), round(expected[1]))
    element = screen.element_at(point)
    if element is None or (element.kind == "container" and signature.kind != "container"):
        return None, f"nothing at the place its neighbours point to {point}"
    if signature.kind in INTERACTIVE_KINDS and not element.interactive:
        return None, f"at the place its neighbours point to {point} is a {element.kind}"
    seen = element.text or element.name
    if signature.words and seen and signature.kind not in LABELLED:
        if text_similarity(signature.words, seen) < 50:
            return None, f"at the place its neighbours point to {point} is '{seen}'"
    return _found(
        signature, element.box, element, "neighbours", "where its neighbours place it"
    ), ""


def _expected_centre(signature: Signature, screen: Screen) -> tuple[float, float] | None:
    """The target's centre as the neighbouring texts predict it: the median of the
    predictions that agree, when at least two agree (or the only neighbour recorded)."""
    predictions = []
    for neighbour in signature.neighbours:
        seen = [
            e for e in screen.elements if text_similarity(neighbour.text, _shown(e)) >= TEXT_MATCH
        ]
        if len(seen) == 1:  # a text seen twice cannot tell where the target is
            cx, cy = seen[0].box.center
            predictions.append((cx - neighbour.dx, cy - neighbour.dy))
    if not predictions:
        return None
    xs, ys = np.median([p[0] for p in predictions]), np.median([p[1] for p in predictions])
    agreeing = [p for p in predictions if abs(p[0] - xs) <= AGREE and abs(p[1] - ys) <= AGREE]
    if len(agreeing) < min(2, len(signature.neighbours)):
        return None
    return float(np.mean([p[0] for p in agreeing])), float(np.mean([p[1] for p in agreeing]))


def _place_cost(
    box: Box, signature: Signature, screen: Screen, expected: tuple[float, float] | None
) -> float:
    """How far a candidate is from where the target should be: by its neighbours when they
    agree, else by its old place on the screen as a fraction of the screen."""
    cx, cy = box.center
    if expected is not None:
        return float(np.hypot(cx - expected[0], cy - expected[1]))
    width, height = screen.frame.size
    x, y, w, h = signature.box
    return float(np.hypot((cx / width - x - w / 2) * width, (cy / height - y - h / 2) * height))


def _scales(signature: Signature, screen: Screen) -> list[float]:
    """Scales to try, the likeliest first: the change in screen height, then the usual ones."""
    ratio = screen.frame.size[1] / signature.screen[1]
    first = [round(ratio, 3)] if 0.5 <= ratio <= 2 and abs(ratio - 1) > 0.02 else []
    return first + [s for s in SCALES if s not in first]


def _found(signature: Signature, box: Box, element: Element | None, by: str, why: str) -> Found:
    """The point to act on: where in the box it was pressed, for the box found now."""
    px, py = signature.point
    if element is not None and element.kind not in LABELLED and box.w * box.h < 200 * 80:
        point = box.center  # a small control: its centre is the safest point
    else:
        point = (round(box.x + px * (box.w - 1)), round(box.y + py * (box.h - 1)))
    return Found(point, box, element, by, why)  # type: ignore[arg-type]


def _shown(element: Element) -> str:
    """The words an element shows: its text, or an icon's name (a field's label is its own
    element already, so a field's name would count that text twice)."""
    return element.text or (element.name if element.kind == "icon" else "")


def _clip(box: Box, width: int, height: int) -> Box:
    x, y = max(0, box.x), max(0, box.y)
    return Box(x, y, max(1, min(box.right, width) - x), max(1, min(box.bottom, height) - y))
