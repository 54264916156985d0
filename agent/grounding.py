"""Offline grounding: a target described in words -> ranked elements on the parsed screen.

Text is matched fuzzily (OCR drops and confuses characters); the kind the user named, whether
an element can be acted on, and whether it just appeared break ties. An input is found by its
label: the element's `name` from fusion, or the nearest input right of or below a matching text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from clickwright.parsers.links import is_link
from clickwright.text import normalize, text_similarity
from clickwright.types import Box, Element, Screen

MIN_SCORE = 62.0
KIND_FAMILIES: dict[str, frozenset[str]] = {
    "input": frozenset({"input", "combo"}),
    "combo": frozenset({"combo", "input", "list_item"}),
    "checkbox": frozenset({"checkbox", "toggle"}),
    "toggle": frozenset({"toggle", "checkbox"}),
    "menu": frozenset({"menu", "menuitem", "button", "text"}),
    "menuitem": frozenset({"menuitem", "menu", "text", "list_item"}),
    "button": frozenset({"button", "link", "icon"}),
    "tab": frozenset({"tab", "button", "text"}),
    "list_item": frozenset({"list_item", "text", "menuitem"}),
    "container": frozenset({"container", "input"}),
}


@dataclass(frozen=True)
class Candidate:
    element: Element
    score: float
    why: str
    part: Box | None = None
    """Where in the element the named words are, when they are a part of its text."""

    @property
    def point(self) -> tuple[int, int]:
        """Where to click: on the named words themselves ("eget" inside an OCR phrase
        "Donec ridiculus eget rhoncus"), else the element's centre."""
        return (self.part or self.element.box).center

    def to_json(self) -> dict[str, object]:
        e = self.element
        return {"id": e.id, "text": e.text or e.name, "kind": e.kind, "score": round(self.score, 1)}


def echoes(text: str, task: str, description: str) -> bool:
    """Whether `text` is the task itself shown on screen (an app that displays the instruction)
    rather than the thing it names: a long text found in the task (given normalized, as it is
    the same for every element), and longer than the target."""
    shown, wanted = normalize(text), normalize(description)
    return (
        len(shown) >= 10 and len(shown) > len(wanted) + 3 and fuzz.partial_ratio(shown, task) >= 90
    )


def of_kind(screen: Screen, kind: str | None, nth: int | None = None) -> list[Candidate]:
    """Elements of a kind named without a name ("the text field", "the 3rd input"), in reading
    order; the exact kind first, else its family. `nth` picks one, 1-based, -1 the last."""
    family = KIND_FAMILIES.get(kind or "", frozenset({kind}))
    for kinds in (frozenset({kind}), family):
        found = sorted(
            (e for e in screen.elements if e.kind in kinds),
            key=lambda e: (e.box.y // 8, e.box.x),
        )
        if found:
            break
    if nth is not None:
        found = found[nth - 1 : nth] if nth > 0 else found[-1:]
    return [Candidate(e, 100.0, f"the {nth or 1}. {e.kind} on screen") for e in found]


def rank(
    screen: Screen,
    description: str,
    kind: str | None = None,
    new_since: Screen | None = None,
    near: Box | None = None,
    echo_of: str = "",
) -> list[Candidate]:
    """Candidates for `description`, best first, all above MIN_SCORE.

    `new_since` prefers elements that were not on an earlier screen (the item a menu just
    opened); `near` prefers elements close to a box (the option under an opened combo box);
    texts that merely repeat the task `echo_of` are never candidates.
    """
    echo_of = normalize(echo_of)
    old_texts = {normalize(t) for t in new_since.texts()} if new_since is not None else set()
    scored: list[Candidate] = []
    if kind in ("input", "combo", "container"):
        scored.extend(_inputs_by_label(screen, description, kind, echo_of))
    for element in screen.elements:
        if echo_of and echoes(element.text, echo_of, description):
            continue
        similarity = text_similarity(description, element.text)
        if element.kind == "icon" or not element.text:  # an icon is known by its name
            similarity = max(similarity, text_similarity(description, element.name))
        if similarity < MIN_SCORE:
            continue
        score, reasons = similarity, [f"text {similarity:.0f}%"]
        if len(description) > 1 and re.search(rf"\b{re.escape(description)}\b", element.text):
            score += 3  # the same letter case: what the user quoted, exactly
            reasons.append("same case")
        part = _part(element, description) if element.kind in ("text", "link") else None
        if part is not None and kind == "link" and _drawn_as_link(screen, part):
            score += 10
            reasons.append("drawn as a link")
        if kind is not None:
            if element.kind == kind:
                score += 8
                reasons.append(f"is a {kind}")
            elif element.kind not in KIND_FAMILIES.get(kind, frozenset({kind})):
                score -= 12
        if element.interactive:
            score += 4
        if new_since is not None and normalize(element.text) not in old_texts:
            score += 10
            reasons.append("just appeared")
        if near is not None:
            score -= min(15.0, _distance(near, element.box) / 40)
        scored.append(Candidate(element, score, ", ".join(reasons), part))
    best: dict[int, Candidate] = {}
    for candidate in scored:
        known = best.get(candidate.element.id)
        if known is None or candidate.score > known.score:
            best[candidate.element.id] = candidate
    return sorted(best.values(), key=lambda c: (-c.score, c.element.id))


def _part(element: Element, description: str) -> Box | None:
    """The box of the words `description` names inside a longer text, estimated from their
    character positions (OCR gives phrases, not words); None when they are the whole text."""
    text = element.text
    if len(normalize(text)) <= len(normalize(description)) + 1:
        return None
    found = fuzz.partial_ratio_alignment(description.lower(), text.lower())
    if found is None or found.score < 80:
        return None
    box = element.box
    start = box.x + round(box.w * found.dest_start / len(text))
    end = box.x + round(box.w * found.dest_end / len(text))
    return Box(start, box.y, max(1, end - start), box.h)


def _drawn_as_link(screen: Screen, part: Box) -> bool:
    x, y, w, h = part
    return is_link(screen.frame.pixels[y : y + h, x : x + w])


def _inputs_by_label(screen: Screen, label: str, kind: str, echo_of: str) -> list[Candidate]:
    """Inputs named by a label: fusion's `name`, else the nearest field right of or below it."""
    wanted_kinds = KIND_FAMILIES[kind]
    fields = [e for e in screen.elements if e.kind in wanted_kinds]
    found: list[Candidate] = []
    for field in fields:
        similarity = text_similarity(label, field.name)
        if similarity >= MIN_SCORE:
            found.append(Candidate(field, similarity + 12, f"labelled '{field.name}'"))
    for text in screen.elements:
        if text.kind != "text" or text_similarity(label, text.text) < MIN_SCORE:
            continue
        if echo_of and echoes(text.text, echo_of, label):
            continue
        similarity = text_similarity(label, text.text)
        neighbour = _field_beside(text.box, fields)
        if neighbour is not None:
            found.append(Candidate(neighbour, similarity + 8, f"next to label '{text.text}'"))
    return found


def _field_beside(label: Box, fields: list[Element]) -> Element | None:
    """The field on the label's row to its right, else the one just below it."""
    cy = label.y + label.h / 2
    right = [
        f
        for f in fields
        if f.box.y <= cy <= f.box.bottom
        and f.box.x >= label.x + label.w * 0.5
        and f.box.x - label.right < 400
    ]
    if right:
        return min(right, key=lambda f: f.box.x - label.right)
    below = [
        f
        for f in fields
        if 0 <= f.box.y - label.bottom < 60 and f.box.x < label.right and f.box.right > label.x
    ]
    return min(below, key=lambda f: f.box.y - label.bottom) if below else None


def _distance(a: Box, b: Box) -> float:
    dx = max(0, max(a.x - b.right, b.x - a.right))
    dy = max(0, max(a.y - b.bottom, b.y - a.bottom))
    return (dx * dx + dy * dy) ** 0.5


def closest_texts(screen: Screen, description: str, limit: int = 3) -> list[str]:
    """What the screen shows that comes nearest, for a useful 'not found' message."""
    texts = {e.text for e in screen.elements if e.text}
    ranked = sorted(texts, key=lambda t: -text_similarity(description, t))
    return ranked[:limit]
