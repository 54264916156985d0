"""Where a drag ends, on screens built by hand (a real Chromium list is dragged in
test_understanding_e2e): a place in a list, beside an item, along a direction."""

from __future__ import annotations

import numpy as np

from clickwright.agent.placing import along, beside, list_around, nth_place
from clickwright.types import Box, Element, Frame, Screen


def el(i: int, text: str, box: tuple[int, int, int, int], kind: str = "text") -> Element:
    return Element(i, Box(*box), kind, text, interactive=kind != "text")


FRAME = Frame(np.zeros((500, 800, 3), np.uint8))
# A shopping list (items 40 px apart, each as wide as its word), a heading above it and a
# button beside it
SHOPPING = Screen(
    FRAME,
    (
        el(0, "Shopping list", (40, 20, 160, 24)),
        *(
            el(i, word, (44, 40 + 40 * i, 8 * len(word), 16))
            for i, word in enumerate(("Milk", "Eggs", "Bread", "Apples", "Coffee"), 1)
        ),  # fmt: skip
        el(9, "Save", (400, 120, 70, 30), kind="button"),
    ),
)


def item(screen: Screen, text: str) -> Element:
    return next(e for e in screen.elements if e.text == text)


def test_the_list_is_the_evenly_spaced_run_of_look_alikes_and_not_the_heading():
    items, axis = list_around(SHOPPING, item(SHOPPING, "Bread"))
    assert [e.text for e in items] == ["Milk", "Eggs", "Bread", "Apples", "Coffee"]
    assert axis == 1
    assert list_around(SHOPPING, item(SHOPPING, "Save")) == ([], 1)


def test_a_drop_lands_past_the_middle_on_the_side_the_item_should_go():
    bread = item(SHOPPING, "Bread")  # third, its middle at y 168
    assert nth_place(SHOPPING, bread, 1) == (60, 88 - 12)  # into Milk's first half
    assert nth_place(SHOPPING, bread, -1) == (68, 248 + 12)  # into Coffee's second half
    assert nth_place(SHOPPING, bread, 3) is None  # there already
    assert nth_place(SHOPPING, bread, 9) == nth_place(SHOPPING, bread, -1)
    assert beside(SHOPPING, item(SHOPPING, "Eggs"), after=False) == (60, 128 - 12)
    assert beside(SHOPPING, item(SHOPPING, "Eggs"), after=True) == (60, 128 + 12)


def test_a_row_of_photos_is_a_list_along_x():
    photos = Screen(FRAME, tuple(el(i, f"IMG_{i}", (50 + 120 * i, 300, 100, 20)) for i in range(4)))
    first = photos.elements[0]
    items, axis = list_around(photos, first)
    assert axis == 0 and len(items) == 4
    assert nth_place(photos, first, 2) == (220 + 36, 310)


def test_a_gap_twice_the_pitch_ends_the_list():
    parted = Screen(
        FRAME, tuple(el(i, f"Row {i}", (40, y, 50, 16)) for i, y in enumerate((80, 110, 140, 260)))
    )
    items, _ = list_around(parted, parted.elements[0])
    assert [e.text for e in items] == ["Row 0", "Row 1", "Row 2"]


def test_a_direction_moves_a_default_distance_and_stays_on_the_screen():
    shape = el(0, "", (100, 100, 30, 30), kind="icon")
    screen = Screen(FRAME, (shape,))
    assert along(screen, shape, "left", 0) == (115 - 75, 115)  # 2.5 times its size
    assert along(screen, shape, "right", 40) == (155, 115)
    assert along(screen, shape, "up", 500) == (115, 1)


def test_a_grid_of_photos_is_one_list_in_reading_order():
    titles = ["Lake", "Dog", "Sunset", "Cake", "Forest", "Beach", "Cat", "Bike"]
    grid = Screen(
        FRAME,
        tuple(
            el(i, t, (30 + 180 * (i % 4), 140 + 170 * (i // 4), 9 * len(t), 18))
            for i, t in enumerate(titles)
        ),  # fmt: skip
    )
    items, axis = list_around(grid, grid.elements[2])
    assert [e.text for e in items] == titles and axis == 0
    x, y = nth_place(grid, grid.elements[2], -1)
    assert y == 319 and 588 + 40 < x < 588 + 60  # a third of a column past Bike's middle


def test_a_grid_of_captions_is_read_row_by_row_without_the_bar_above_it():
    bar = [el(0, "Colour tag:", (165, 59, 78, 22)), el(1, "No tag", (424, 60, 60, 22)),
           el(2, "Click a photo, then a colour.", (497, 61, 555, 17)),
           el(10, "Cover", (176, 100, 43, 14))]  # fmt: skip  # a badge on the first photo
    captions = [el(3 + i, f"Photo {i + 1}", (174 + 239 * (i % 4), 216 + 157 * (i // 4), 100, 18))
                for i in range(7)]  # fmt: skip
    grid = Screen(FRAME, (*bar, *captions))
    items, axis = list_around(grid, item(grid, "Photo 5"))
    assert [e.text for e in items] == [f"Photo {i}" for i in range(1, 8)]  # a short last row
    assert axis == 0
    assert nth_place(grid, item(grid, "Photo 5"), 1) is not None
