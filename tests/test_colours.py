"""Things named by colour and drawn shapes, on frames painted by hand (real pages: the MiniWoB
colour and shape tasks in `clickwright bench miniwob`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from clickwright.agent.grounding import coloured_set, rank
from clickwright.agent.interpreter import interpret
from clickwright.agent.memory import Memory
from clickwright.agent.settle import settle
from clickwright.errors import StepFailed
from clickwright.parsers.colours import colour_of, painted, palette
from clickwright.parsers.shapes import with_shapes
from clickwright.types import Box, Element, Frame, Screen

WHITE = (255, 255, 255)


def page(size: tuple[int, int] = (300, 400)) -> np.ndarray:
    return np.full((*size, 3), 255, np.uint8)


def swatch(pixels: np.ndarray, box: Box, fill: tuple[int, int, int], outline: bool = True) -> None:
    pixels[box.y : box.bottom, box.x : box.right] = (0, 0, 0) if outline else fill
    pixels[box.y + 1 : box.bottom - 1, box.x + 1 : box.right - 1] = fill


def test_names_are_the_nearest_colour_people_use():
    colours = palette()
    assert colours.nearest((128, 128, 128)) == "grey"
    assert colours.nearest((128, 128, 0)) == "olive"
    assert colours.nearest((220, 53, 69)) == "red"  # a "danger" button
    assert colours.called((78, 78, 212), "blue")  # a violet blue is blue too
    assert not colours.called((34, 197, 94), "red")
    assert colours.name_in("the Dark Blue swatch") == ("dark blue", 1, 3)
    assert colours.name_in("a aqua item") == ("cyan", 1, 2)
    assert colours.name_in("the Submit button") is None


def test_shades_go_by_hue_and_greys_have_none():
    colours = palette()
    reds = [(250, 163, 163), (195, 80, 80), (154, 81, 81), (231, 192, 192)]
    assert all(colours.shade_of(c, "red") for c in reds)
    assert not colours.shade_of((55, 169, 55), "red")
    assert colours.shade_of((210, 233, 210), "green")  # pale, but green
    assert colours.shade_of((128, 128, 128), "grey") and not colours.shade_of(
        (128, 128, 128), "red"
    )


def test_a_box_shows_its_fill_and_a_word_its_ink():
    pixels = page()
    swatch(pixels, Box(20, 20, 40, 40), (128, 128, 128))
    swatch(pixels, Box(80, 20, 40, 40), WHITE)  # white inside its outline, on a white page
    cv2.putText(pixels, "O", (150, 50), cv2.FONT_HERSHEY_SIMPLEX, 1, (0, 220, 230), 2)
    assert colour_of(pixels, Box(20, 20, 40, 40)) == (128, 128, 128)
    assert colour_of(pixels, Box(80, 20, 40, 40)) == WHITE
    ink = colour_of(pixels, Box(148, 25, 26, 28), text=True)
    assert ink is not None and palette().nearest(ink) == "cyan"
    assert colour_of(pixels, Box(200, 200, 30, 20), text=True) is None  # only the page


def test_the_element_of_the_named_colour_is_found_and_the_outline_is_not_a_second_one():
    pixels = page()
    fills = [(128, 128, 0), (255, 0, 255), WHITE, (128, 128, 128)]
    elements = []
    for i, fill in enumerate(fills):
        box = Box(20 + 60 * i, 80, 50, 50)
        swatch(pixels, box, fill)
        inside = Box(box.x + 2, box.y + 2, 46, 46)
        elements += [Element(2 * i, box, "icon", interactive=True),
                     Element(2 * i + 1, inside, "container")]  # fmt: skip
    screen = Screen(Frame(pixels), tuple(elements))
    grey = rank(screen, "grey colored", "input")
    assert [c.element.box.x for c in grey] == [200]
    assert [c.element.box.x for c in rank(screen, "white")] == [140]
    assert rank(screen, "green") == []


def test_all_the_shades_of_a_colour_are_each_found_once():
    pixels = page()
    fills = [(250, 163, 163), (154, 154, 208), (195, 80, 80), (55, 169, 55), (231, 192, 192)]
    boxes = [Box(20 + 36 * i, 40, 12, 12) for i in range(len(fills))]
    for box, fill in zip(boxes, fills, strict=True):
        swatch(pixels, box, fill, outline=False)
    elements = tuple(Element(i, b, "checkbox", interactive=True) for i, b in enumerate(boxes))
    found = rank(Screen(Frame(pixels), elements), "shades of red")
    assert sorted(c.element.id for c in found) == [0, 2, 4]


def test_shapes_drawn_on_a_page_are_named_by_colour_and_form():
    pixels = page()
    cv2.fillPoly(pixels, [np.array([[60, 40], [90, 40], [75, 14]])], (255, 255, 0))
    cv2.circle(pixels, (150, 40), 18, (0, 0, 255), -1)
    swatch(pixels, Box(200, 20, 40, 40), (255, 0, 0), outline=False)
    label = Element(0, Box(20, 200, 120, 16), "text", "Submit the form")
    shapes = with_shapes(pixels, [label])[1:]
    assert sorted(e.name for e in shapes) == ["blue circle", "red square", "yellow triangle"]
    assert all(e.kind == "icon" and e.interactive for e in shapes)
    assert {e.id for e in shapes} == {1, 2, 3}


def test_the_item_is_the_shape_drawn_when_nothing_else_is_named():
    pixels = page()
    cv2.fillPoly(pixels, [np.array([[60, 60], [100, 60], [80, 25]])], (255, 255, 0))
    elements = with_shapes(
        pixels, [Element(0, Box(10, 200, 60, 30), "button", "Submit", interactive=True)]
    )
    screen = Screen(Frame(pixels), tuple(elements))
    assert [c.element.name for c in rank(screen, "item")] == ["yellow triangle"]
    assert rank(screen, "triangle")[0].element.name == "yellow triangle"


def test_a_row_is_found_by_the_colour_of_its_dot_and_rounded_swatches_are_shapes():
    pixels = page((300, 500))
    rows = []
    for i, (word, fill) in enumerate((("Milk", (220, 38, 38)), ("Tomatoes", (34, 197, 94)))):
        y = 40 + 40 * i
        cv2.circle(pixels, (30, y + 8), 9, fill, -1)
        rows.append(Element(i, Box(50, y, 80, 16), "text", word))
    # a rounded swatch with a speck touching its corner
    cv2.rectangle(pixels, (300, 40), (334, 74), (30, 58, 138), -1)
    pixels[40:43, 300:303] = 255
    pixels[39, 299] = (30, 58, 138)
    elements = with_shapes(pixels, rows)
    screen = Screen(Frame(pixels), tuple(elements))
    found = rank(screen, "item with the green dot")
    assert found and found[0].element.text == "Tomatoes"
    assert "dark blue square" in [e.name for e in elements]
    assert rank(screen, "dark blue swatch")[0].element.name == "dark blue square"


def test_a_palette_of_swatches_with_thin_borders_on_any_background():
    pixels = np.zeros((120, 300, 3), np.uint8)  # a dark desktop round a dialog
    pixels[10:110, 10:290] = (245, 245, 245)
    fills = [(0, 0, 0), (255, 0, 0), (255, 192, 203), (0, 128, 0), (255, 255, 0)]
    for i, fill in enumerate(fills):
        x = 40 + 23 * i
        pixels[40:63, x : x + 23] = (150, 150, 150)  # a shared one-pixel border
        pixels[41:62, x + 1 : x + 22] = fill
    names = [e.name for e in with_shapes(pixels, [])]
    assert names == ["red square", "pink square", "green square", "yellow square"]  # black: no hue
    assert with_shapes(np.zeros((0, 0, 3), np.uint8), []) == []


def test_a_colour_that_is_an_options_own_label_is_found_by_its_text():
    pixels = page()
    swatch(pixels, Box(20, 20, 40, 40), (128, 0, 128))
    options = (Element(0, Box(100, 20, 60, 18), "list_item", "Purple", interactive=True),
               Element(1, Box(20, 20, 40, 40), "icon", interactive=True))  # fmt: skip
    screen = Screen(Frame(pixels), options)
    assert rank(screen, "Purple")[0].element.text == "Purple"
    assert rank(screen, "the purple swatch")[0].element.id == 1


def folders_and_files() -> Screen:
    """A file manager's page: a FOLDERS heading over folder tiles, then a FILES heading over
    rows, each file with a square mark of its type's colour (orange for photos)."""
    pixels = page((400, 600))
    orange, grey, green = (224, 138, 30), (138, 143, 152), (47, 158, 85)
    elements = [Element(0, Box(10, 10, 80, 16), "text", "FOLDERS")]
    for i, (name, fill) in enumerate((("Archive", grey), ("Shared", orange), ("2025", green))):
        x = 20 + 180 * i
        swatch(pixels, Box(x, 40, 40, 30), fill, outline=False)
        elements += [Element(1 + 2 * i, Box(x, 40, 40, 30), "container"),
                     Element(2 + 2 * i, Box(x + 50, 45, 70, 16), "text", name)]  # fmt: skip
    elements.append(Element(10, Box(10, 100, 130, 16), "text", "FILES IN MY FILES"))
    for i, (name, fill) in enumerate((("IMG_2231.jpg", orange), ("budget.xlsx", green))):
        y = 130 + 30 * i
        swatch(pixels, Box(20, y, 14, 14), fill, outline=False)
        elements += [Element(11 + 2 * i, Box(20, y, 14, 14), "icon", name="square"),
                     Element(12 + 2 * i, Box(40, y, 100, 16), "text", name)]  # fmt: skip
    cv2.putText(pixels, "FOLDERS", (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.5, grey, 1)
    return Screen(Frame(pixels), tuple(elements))


def test_a_thing_of_a_colour_is_looked_for_under_the_heading_that_names_its_kind():
    screen = folders_and_files()
    assert rank(screen, "the orange folder")[0].element.id == 3  # not the photo's orange mark
    assert rank(screen, "the green folder")[0].element.id == 5
    assert rank(screen, "the grey folder")[0].element.id == 1  # not the grey heading's ink


def test_a_round_tag_in_a_white_ring_is_its_fill_and_marks_the_caption_under_its_picture():
    pixels = page((300, 400))
    pixels[20:120, 20:180] = (47, 93, 58)  # a dark green photo
    cv2.circle(pixels, (160, 35), 9, (255, 255, 255), -1)
    cv2.circle(pixels, (160, 35), 7, (67, 160, 71), -1)  # its green tag
    pixels[20:120, 200:360] = (79, 126, 168)  # another photo, blue, no tag
    elements = (Element(0, Box(20, 20, 160, 100), "container"),
                Element(1, Box(151, 26, 19, 19), "radio"),
                Element(2, Box(200, 20, 160, 100), "container"),
                Element(3, Box(24, 126, 90, 16), "text", "Forest walk"),
                Element(4, Box(204, 126, 90, 16), "text", "Last beach day"))  # fmt: skip
    screen = Screen(Frame(pixels), elements)
    assert colour_of(pixels, Box(151, 26, 19, 19)) == (67, 160, 71)
    found = rank(screen, "the photo with the green dot")
    assert found[0].element.text == "Forest walk"


def task_list(legend_with_words: bool) -> Screen:
    """A to-do list, each task with a priority dot at the row's end, under a key of the dots
    ("Priority: ● high ● medium ● low"), the key's dots read apart or with their words."""
    pixels = page((320, 600))
    red, orange, green = (229, 57, 53), (251, 140, 0), (67, 160, 71)
    elements = [Element(0, Box(10, 10, 60, 16), "text", "Priority:")]
    for i, (word, fill) in enumerate((("high", red), ("medium", orange), ("low", green))):
        x = 80 + 90 * i
        cv2.circle(pixels, (x + 8, 18), 6, fill, -1)
        if legend_with_words:
            elements.append(Element(1 + i, Box(x, 10, 70, 16), "radio", word))
        else:
            elements += [Element(1 + 2 * i, Box(x + 2, 12, 13, 13), "radio"),
                         Element(2 + 2 * i, Box(x + 20, 10, 50, 16), "text", word)]  # fmt: skip
    tasks = (("File the tax return", red), ("Book the dentist", green),
             ("Buy a gift", orange), ("Pay the rent", red), ("Answer mail", green))  # fmt: skip
    for i, (task, fill) in enumerate(tasks):
        y = 60 + 40 * i
        cv2.circle(pixels, (560, y + 8), 6, fill, -1)
        elements += [Element(20 + 2 * i, Box(20, y, 160, 16), "checkbox", task),
                     Element(21 + 2 * i, Box(554, y + 2, 13, 13), "radio")]  # fmt: skip
    return Screen(Frame(pixels), tuple(elements))


def test_every_thing_with_a_coloured_mark_is_its_row_and_a_key_names_the_colours():
    for legend_with_words in (False, True):
        tasks = task_list(legend_with_words)
        red = coloured_set(tasks, "task with a red flag", every=True)
        assert [e.text for e in red or ()] == ["File the tax return", "Pay the rent"]
        low = coloured_set(tasks, "the low priority tasks")
        assert [e.text for e in low or ()] == ["Book the dentist", "Answer mail"]
    assert coloured_set(task_list(False), "the task with a red flag") is None  # one thing
    with pytest.raises(StepFailed, match="names 3, the screen shows 2"):
        coloured_set(task_list(False), "the three red tasks")


def test_a_label_bar_no_parser_boxed_is_found_in_the_pixels_and_marks_its_card():
    pixels = page((300, 500))
    elements = []
    for i, (title, fill) in enumerate((("Fix login bug", (229, 57, 53)),
                                       ("Update icons", (142, 36, 170)))):  # fmt: skip
        x = 20 + 240 * i
        pixels[40:47, x + 10 : x + 48] = fill  # a label bar 7 px high
        elements += [Element(2 * i, Box(x, 30, 220, 60), "container"),
                     Element(2 * i + 1, Box(x + 10, 52, 150, 18), "list_item", title)]  # fmt: skip
    cards = Screen(Frame(pixels), tuple(elements))
    assert painted(pixels, "purple") == [Box(270, 40, 38, 7)]
    assert rank(cards, "the card with the purple label")[0].element.text == "Update icons"
    assert rank(cards, "the red card")[0].element.text == "Fix login bug"


def inbox() -> Screen:
    """A mail list: a box, a flag (a triangle), the sender, the subject and a worded label
    pill on each row; one row highlighted pale yellow, one subject in red letters; the
    buttons under the list, one of them the label's blue."""
    pixels = page((300, 700))
    red, green, blue, orange = (217, 48, 37), (24, 128, 56), (26, 115, 232), (232, 113, 10)
    rows = (("Ingrid Dahl", "Quarterly report", red, "Work", blue, None),
            ("Tom Berg", "Dinner on Saturday", None, "Family", green, None),
            ("Billing", "Your invoice", red, "Bills", orange, None),
            ("Ana Lima", "Photos from the trip", green, "Family", green, "hl"),
            ("Security", "New sign-in", None, "Alerts", (142, 36, 170), "ink"))  # fmt: skip
    elements: list[Element] = []
    for i, (sender, subject, flag, label, fill, how) in enumerate(rows):
        y = 10 + 38 * i
        if how == "hl":
            pixels[y : y + 38, 10:660] = (255, 243, 168)
        if flag is not None:
            triangle = np.array([[100, y + 12], [112, y + 15], [100, y + 19]], np.int32)
            cv2.fillPoly(pixels, [triangle], flag)
        pixels[y + 10 : y + 28, 560:610] = fill
        if how == "ink":
            cv2.putText(pixels, subject, (300, y + 25), cv2.FONT_HERSHEY_SIMPLEX, 0.5, red, 1)
        n = 10 * i
        elements += [Element(n, Box(10, y, 650, 38), "list_item", f"{sender} {subject}"),
                     Element(n + 1, Box(20, y + 12, 13, 13), "checkbox"),
                     Element(n + 2, Box(150, y + 8, 90, 22), "text", sender),
                     Element(n + 3, Box(300, y + 8, 140, 22), "text", subject),
                     Element(n + 4, Box(560, y + 10, 50, 18), "button", label)]  # fmt: skip
    pixels[220:252, 10:90] = blue
    pixels[220:252, 100:170] = red
    elements += [Element(90, Box(10, 220, 80, 32), "button", "Archive"),
                 Element(91, Box(100, 220, 70, 32), "button", "Delete")]  # fmt: skip
    return Screen(Frame(pixels), tuple(elements))


def test_a_rows_flag_label_ink_and_highlight_each_name_it():
    mail = inbox()
    flagged = coloured_set(mail, "the emails with a red flag")
    assert [e.text for e in flagged or ()] == ["Ingrid Dahl", "Billing"]  # flags, not Delete
    labelled = coloured_set(mail, "emails with a green label")
    assert [e.text for e in labelled or ()] == ["Dinner on Saturday", "Photos from the trip"]
    assert rank(mail, "the email with the orange label")[0].element.text == "Your invoice"
    assert rank(mail, "the email whose subject is in red text")[0].element.text == "Security"
    assert rank(mail, "the email highlighted in yellow")[0].element.text.startswith("Ana Lima")
    assert rank(mail, "the blue button")[0].element.text == "Archive"  # not the Work pill


def test_a_dark_or_light_hue_said_of_a_palette_is_its_darkest_or_lightest_of_that_hue():
    """GTK's palette has CSS green (0, 128, 0) beside light green; nothing in it is CSS dark
    green, yet a person calls the first "the dark green one"."""
    pixels = page((60, 200))
    swatches = {"green": ((0, 128, 0), 20), "light green": ((144, 238, 144), 60),
                "red": ((255, 0, 0), 100)}  # fmt: skip
    elements = []
    for i, (name, (fill, x)) in enumerate(swatches.items()):
        pixels[20:38, x : x + 18] = fill
        elements.append(Element(i, Box(x, 20, 18, 18), "icon", name=f"{name} square"))
    screen = Screen(Frame(pixels), tuple(elements))
    assert rank(screen, "dark green swatch")[0].element.name == "green square"
    assert rank(screen, "light green swatch")[0].element.name == "light green square"


def test_a_verb_for_everyone_marked_by_a_colour_ticks_each_row_by_its_name_then_its_button():
    """ "send a reminder to everyone with a green label": each row the colour marks is ticked
    by the name it starts with (not a cell another row shares), then the verb's button."""
    steps = [
        (s.verb, s.target, s.text)
        for step in interpret("send a reminder to everyone with a green label")
        for s in settle(step, inbox(), Memory()).steps
    ]
    assert steps == [
        ("check", "Tom Berg", None),
        ("check", "Ana Lima", None),
        ("click", "Send", None),
    ]
