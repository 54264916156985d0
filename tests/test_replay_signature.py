"""Finding a recorded target again: by text, by picture across scales, by its neighbours."""

from __future__ import annotations

import cv2
import numpy as np

from clickwright.agent.demos.signature import Found, Missing, locate, take_signature
from clickwright.types import Box, Element, Frame, Screen


def screen(elements: list[Element], size=(1280, 800), pixels: np.ndarray | None = None) -> Screen:
    if pixels is None:
        pixels = np.full((size[1], size[0], 3), 235, np.uint8)
    return Screen(Frame(pixels), tuple(elements))


def shifted(elements: list[Element], dx: int, dy: int) -> list[Element]:
    return [
        Element(
            e.id,
            Box(e.box.x + dx, e.box.y + dy, e.box.w, e.box.h),
            e.kind,
            e.text,
            name=e.name,
            interactive=e.interactive,
        )
        for e in elements
    ]


FORM = [
    Element(0, Box(60, 100, 50, 20), "text", "Name:"),
    Element(1, Box(140, 96, 300, 28), "input", "", name="Name:", interactive=True),
    Element(2, Box(60, 140, 50, 20), "text", "Email:"),
    Element(3, Box(140, 136, 300, 28), "input", "", name="Email:", interactive=True),
    Element(4, Box(300, 400, 70, 26), "button", "Save", interactive=True),
    Element(5, Box(380, 400, 70, 26), "button", "Cancel", interactive=True),
]


def test_a_signature_keeps_text_label_kind_place_picture_and_neighbours():
    sig, crop, element = take_signature(screen(FORM), (200, 150), window="Form")
    assert element.id == 3
    assert (sig.text, sig.label, sig.kind, sig.words, sig.window) == (
        "Email:",
        "Email:",
        "input",
        "Email",
        "Form",
    )
    assert sig.box == (140 / 1280, 136 / 800, 300 / 1280, 28 / 800)
    assert crop.shape == (28 + 12, 300 + 12, 3)
    assert [n.text for n in sig.neighbours[:2]] == ["Email:", "Name:"]  # the nearest first
    assert sig.point[0] == (200 - 140) / 300


def test_found_by_text_after_the_window_moved_and_by_label_for_a_field():
    sig, crop, _ = take_signature(screen(FORM), (335, 413))
    moved = screen(shifted(FORM, 420, 230))
    found = locate(sig, moved, crop)
    assert isinstance(found, Found) and found.by == "text"
    assert found.point == (335 + 420, 413 + 230)
    field, _, _ = take_signature(screen(FORM), (300, 110))
    found = locate(field, moved, None)
    assert found.element.id == 1 and "labelled 'Name:'" in found.why


def test_of_two_alike_the_one_its_neighbours_point_to_wins():
    dialog = [
        Element(10, Box(600, 300, 70, 26), "button", "Save", interactive=True),
        Element(11, Box(680, 300, 70, 26), "button", "Discard", interactive=True),
        Element(12, Box(600, 260, 200, 20), "text", "Save changes?"),
    ]
    sig, _, element = take_signature(screen(FORM + dialog), (635, 313))
    assert element.id == 10
    again = screen(shifted(FORM, -40, 0) + shifted(dialog, -300, 200))
    found = locate(sig, again, None)
    assert found.element.id == 10 and found.point == (335, 513) and "nearest of 2" in found.why


def test_a_textless_icon_is_found_by_its_picture_at_another_scale():
    rng = np.random.default_rng(1)
    icon = rng.integers(0, 255, (32, 32, 3), dtype=np.uint8)
    before = np.full((800, 1280, 3), 235, np.uint8)
    before[200:232, 300:332] = icon
    sig, crop, _ = take_signature(
        screen([Element(0, Box(300, 200, 32, 32), "icon", interactive=True)], pixels=before),
        (316, 216),
    )
    after = np.full((1000, 1600, 3), 235, np.uint8)
    big = cv2.resize(icon, (40, 40), interpolation=cv2.INTER_LINEAR)
    after[500:540, 900:940] = big
    found = locate(sig, screen([], (1600, 1000), after), crop)
    assert isinstance(found, Found) and found.by == "image"
    assert abs(found.point[0] - 920) <= 3 and abs(found.point[1] - 520) <= 3


def test_a_plain_unlabelled_field_is_found_where_its_neighbours_place_it():
    fields = [
        Element(0, Box(320, 134, 80, 20), "text", "first name"),
        Element(1, Box(100, 130, 200, 28), "input", "", interactive=True),
        Element(2, Box(320, 204, 80, 20), "text", "last name"),
        Element(3, Box(100, 200, 200, 28), "input", "", interactive=True),
    ]
    sig, crop, element = take_signature(screen(fields), (150, 144))
    assert element.id == 1 and sig.words == ""
    found = locate(sig, screen(shifted(fields, 250, 90)), crop)
    assert isinstance(found, Found) and found.by == "neighbours" and found.element.id == 1


def test_a_target_that_is_gone_says_what_was_tried():
    sig, crop, _ = take_signature(screen(FORM), (335, 413))
    without_save = [e for e in FORM if e.text != "Save"] + [
        Element(9, Box(300, 400, 70, 26), "button", "Delete", interactive=True)
    ]
    missing = locate(sig, screen(without_save), crop)
    assert isinstance(missing, Missing)
    assert "no text like 'Save'" in missing.reason
    assert "its picture is too plain" in missing.reason  # a flat synthetic frame
    assert "is 'Delete'" in missing.reason
