"""Rich text: words chosen by their ink's colour, a toolbar's swatches and flat buttons, a
sentence deleted with its space, times in prose."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from clickwright.agent import passages, selecting
from clickwright.agent.grounding import Candidate, _in_group, is_prose
from clickwright.agent.interpreter import interpret
from clickwright.parsers.widgets import _resize_grip, detect_widgets
from clickwright.types import Box, Element, Frame, Screen
from tests.test_reading_screen import el, read, screen

GREEN, INK = (45, 164, 78), (31, 35, 40)


def _line(pieces: list[tuple[str, tuple[int, int, int]]]) -> tuple[Screen, str]:
    """One line of text drawn in runs of colours, read as one text element."""
    pixels = np.full((80, 900, 3), 255, np.uint8)
    x = 20
    for words, colour in pieces:
        cv2.putText(pixels, words, (x, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv2.LINE_AA)
        x += cv2.getTextSize(words, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 1)[0][0]
    text = "".join(words for words, _ in pieces)
    return Screen(Frame(pixels), (Element(0, el(0, "text", "", (20, 30, x - 20, 20)).box,
                                          "text", text),)), text  # fmt: skip


def test_the_words_named_by_their_inks_colour_are_selected():
    shown, _ = _line([("Install it from the ", INK), ("Software Centre", GREEN),
                      (" instead, then sign in.", INK)])  # fmt: skip
    found = selecting.span(shown, passages.read("the green words"))
    assert found is not None and found.text == "Software Centre"
    assert found.start[0] < found.end[0]


def test_a_colour_word_the_text_holds_is_those_words_when_said_as_one():
    shown, _ = _line([("The green light means go, the ", INK), ("red", GREEN), (" one stop.", INK)])
    assert selecting.span(shown, passages.read("the word 'green'")).text == "green"
    assert selecting.span(shown, passages.read("the green words")).text == "red"


def test_a_sentence_deleted_takes_one_space_with_it():
    text = "Connect through the VPN. The old client is no longer supported. Install the new one."
    found = passages.find(text, passages.read("the sentence about the old client"))
    assert passages.removed(text, found) == "Connect through the VPN. Install the new one."


def test_times_in_a_paragraph_are_prose_not_label_value_lines():
    assert is_prose("Still stuck? Call the service desk,\nweekdays 08:00-16:00.")
    assert not is_prose("Name: Ada\nEmail: ada@example.org")


def test_a_swatch_with_rounded_corners_is_named_by_its_colour():
    pixels = np.full((60, 200, 3), 250, np.uint8)
    for x, colour in ((40, (207, 34, 46)), (120, (9, 105, 218))):
        cv2.rectangle(pixels, (x, 20), (x + 19, 39), colour, -1)
        cv2.rectangle(pixels, (x, 20), (x + 19, 39), (170, 30, 40), 1)
        for cx, cy in ((x, 20), (x + 19, 20), (x, 39), (x + 19, 39)):  # rounded corners
            pixels[cy, cx] = (250, 250, 250)
    names = {w.name for w in detect_widgets(pixels) if w.kind == "icon"}
    assert {"red square", "blue square"} <= names


def test_a_toolbars_button_in_its_corner_is_no_text_areas_resize_grip():
    gray = np.full((100, 800), 255, np.uint8)
    cv2.rectangle(gray, (20, 20), (772, 62), 210, 1)  # the bar: 753 x 43
    gray[48:56, 758:762] = 40  # Publish's rounded corner, at the top left of the bar's corner
    gray[53, 761], gray[54, 760:762], gray[55, 759:762] = 255, 255, 255
    bar = Box(20, 20, 753, 43)
    assert not _resize_grip(gray, bar)
    grip = np.full((100, 800), 255, np.uint8)
    cv2.rectangle(grip, (20, 20), (772, 62), 210, 1)
    for reach in (8, 4):  # a text area's grip: two short strokes across its corner
        cv2.line(grip, (770 - reach, 60), (770, 60 - reach), 90, 1)
    assert _resize_grip(grip, bar)


def test_clear_formatting_is_a_toolbars_flat_button_and_bold_a_shortcut():
    toolbar = screen(
        el(0, "text", "B", (20, 10, 12, 16)),
        el(1, "text", "U", (50, 10, 12, 16)),
        el(2, "text", "Tx", (90, 10, 18, 18)),
        el(3, "text", "Getting connected through the company VPN is easy.", (20, 60, 400, 18)),
    )
    assert read("the green words shouldn't be coloured", toolbar)[1] == ("click", "Tx", None)
    assert read("make the word easy bold", toolbar)[1] == ("press", None, None,
                                                           {"keys": ("ctrl", "b")})


LEDGER = screen(
    el(0, "text", "CUSTOMER", (40, 20, 80, 14)),
    el(1, "text", "BALANCE DUE", (300, 20, 90, 14)),
    el(2, "text", "CREDIT LIMIT", (440, 20, 90, 14)),
    el(3, "text", "Fjordkaffe", (40, 50, 80, 16)),
    el(4, "text", "3 200 kr", (330, 50, 60, 16)),
    el(5, "text", "90 000 kr", (470, 50, 60, 16)),
    el(6, "text", "Solheim Arkitekter", (40, 90, 130, 16)),
    el(7, "text", "31 600 kr", (330, 90, 60, 16)),
    el(8, "text", "40 000 kr", (470, 90, 60, 16)),
    el(9, "text", "Vestkyst Media", (40, 130, 110, 16)),
    el(10, "text", "6 700 kr", (330, 130, 60, 16)),
    el(11, "text", "20 000 kr", (470, 130, 60, 16)),
)


def test_whoever_a_superlative_names_is_the_row_the_next_step_acts_in():
    from clickwright.agent.interpreter import interpret
    from clickwright.agent.memory import Memory
    from clickwright.agent.settle import row_by_extreme, settle

    (step,) = interpret("whoever owes us the most right now, raise their credit limit to 50 000")
    assert (step.verb, step.target, step.text) == ("set", "credit limit", "50 000")
    assert step.scope == "whoever owes us the most right now"
    (settled,) = settle(step, LEDGER, Memory()).steps
    assert settled.scope == "Solheim Arkitekter"  # the most owed, not the highest limit
    assert row_by_extreme(LEDGER, "the customer with the highest credit limit") == "Fjordkaffe"
    assert row_by_extreme(LEDGER, "whoever owes the least") == "Fjordkaffe"


def test_an_amount_is_no_check_boxs_value():
    from clickwright.agent.setting import _takes, quantity

    box = el(0, "checkbox", "CUSTOMER", (10, 10, 100, 16))
    assert quantity("50 000") == (50000.0, None)
    assert not _takes(box, "50 000") and _takes(box, "on") and _takes(box, "1")
    assert _takes(el(1, "input", "40 000", (10, 40, 100, 24)), "50 000")


def test_a_rows_own_field_is_clicked_into_before_the_edit():
    from clickwright.agent.interpreter import interpret
    from clickwright.agent.memory import Memory
    from clickwright.agent.settle import scope_row, settle

    (step, save) = interpret("In Fjordkaffe's notes, get rid of the line about their old "
                             "address and save.")  # fmt: skip
    assert scope_row(step.scope) == "Fjordkaffe"
    into, delete = settle(step, LEDGER, Memory()).steps
    assert (into.verb, into.target, into.scope, into.kind) == ("click", "notes", "Fjordkaffe",
                                                                "input")  # fmt: skip
    assert (delete.verb, delete.target, delete.scope) == ("delete", "line about their old "
                                                          "address", None)  # fmt: skip
    dialog = screen(el(0, "text", "Notes", (20, 20, 40, 14)), el(1, "input", "", (20, 40, 300, 80)),
                    el(2, "button", "Cancel", (120, 140, 70, 28)),
                    el(3, "button", "Save changes", (200, 140, 110, 28)))  # fmt: skip
    edited = Memory()
    edited.edited = True  # the run changed the notes' text: the dialog's button, not Ctrl+S
    assert [(s.verb, s.target) for s in settle(save, dialog, edited).steps] == [
        ("click", "Save changes")]


def test_a_field_lined_up_with_a_lists_rows_is_its_selected_row():
    from clickwright.parsers.fusion import fuse
    from clickwright.parsers.widgets import Widget

    rows = [el(0, "list_item", "", (10, 110, 220, 38)), el(1, "list_item", "", (10, 186, 220, 38))]
    current = Widget(el(2, "input", "", (14, 150, 216, 37)).box, "input", 0.8)
    fused = fuse([], [current], rows)
    assert [(e.kind, sorted(e.state)) for e in fused if e.box == current.box] == [
        ("list_item", ["selected"])]
    alone = Widget(el(3, "input", "", (300, 150, 216, 37)).box, "input", 0.8)
    assert [e.kind for e in fuse([], [alone], rows) if e.box == alone.box] == ["input"]


def test_a_label_in_another_panel_names_no_field():
    from clickwright.parsers.fusion import fuse
    from clickwright.parsers.ocr import TextBox
    from clickwright.parsers.widgets import Widget

    nav = Widget(el(0, "container", "", (0, 60, 215, 700)).box, "container", 0.9)
    dialog = Widget(el(1, "container", "", (400, 200, 480, 360)).box, "container", 0.9)
    search = Widget(el(2, "input", "", (246, 89, 280, 31)).box, "input", 0.8)
    notes = Widget(el(3, "input", "", (420, 453, 440, 82)).box, "input", 0.8)
    texts = [TextBox(el(4, "text", "", (50, 97, 70, 16)).box, "Dashboard", 0.9),
             TextBox(el(5, "text", "", (300, 460, 100, 16)).box, "Lysaker Bloms", 0.9),
             TextBox(el(6, "text", "", (420, 432, 40, 14)).box, "Notes", 0.9)]  # fmt: skip
    named = {e.box: e.name for e in fuse(texts, [nav, dialog, search, notes]) if e.kind == "input"}
    assert named[search.box] == "" and named[notes.box] == "Notes"


def test_words_that_describe_things_are_not_typed_into_whatever_has_the_focus():
    from clickwright.errors import StepFailed, TaskError

    page = screen(el(0, "button", "Add to cart", (20, 20, 120, 30)),
                  el(1, "text", "Nordvind hoodie", (20, 70, 160, 20)))  # fmt: skip
    with pytest.raises(TaskError):
        read("write a 4 star review of the hoodie, title 'Warm but runs small'", page)
    with pytest.raises(StepFailed, match="shows no value for 'the code from the banner"):
        read("use the discount code from the banner at the top", page)  # a code, not words
    assert read("type 'hello there my friend'", page) == [("type", None, "hello there my friend")]


def test_a_date_in_the_clause_is_no_date_to_set_for_the_swatch_it_was_rewritten_to():
    toolbar = screen(el(0, "icon", "", (20, 10, 20, 20), name="yellow square"),
                     el(1, "text", "Shops that sign up by 30 September pay no fees.",
                        (20, 60, 400, 18)))  # fmt: skip
    assert read("highlight 'by 30 September' in yellow", toolbar)[1][:2] == (
        "click", "yellow highlight swatch")


def test_a_products_options_are_chosen_before_its_buy_button():
    product = screen(el(0, "icon", "", (640, 290, 34, 34), name="dark green circle"),
                     el(1, "icon", "", (732, 290, 34, 34), name="brown dot"),
                     el(2, "button", "S", (640, 364, 58, 40)), el(3, "button", "L", (772, 364, 58, 40)),
                     el(4, "combo", "1", (640, 433, 124, 46)),
                     el(5, "button", "Add to cart", (776, 433, 260, 46)))  # fmt: skip
    assert read("add the hoodie in the dark red colour, size L, 2 of them", product) == [
        ("click", "dark red swatch", None), ("click", "L", None), ("set", "quantity", "2"),
        ("click", "Add to cart", None)]


def test_a_verb_said_again_with_only_an_owner_is_done_for_each_of_their_items_too():
    from clickwright.agent.interpreter import interpret

    read_as = [(s.verb, s.target, s.scope, s.rows) for s in interpret(
        "accept all of daniels suggestions and reject priyas, then submit the review")]
    assert read_as[:2] == [("click", "accept", "daniel", 0), ("click", "reject", "priya", 0)]
    assert [(s.verb, s.target) for s in interpret("accept the cookies and reject the rest")] == [
        ("intent", "cookies"), ("intent", "rest")]


def test_a_highlight_is_found_by_its_band_of_colour_behind_the_words():
    pixels = np.full((80, 900, 3), 255, np.uint8)
    pixels[28:52, 300:420] = (248, 187, 217)  # pink behind "twice as fast"
    cv2.putText(pixels, "checkout times that were twice as fast as with card terminals.",
                (20, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.6, INK, 1, cv2.LINE_AA)  # fmt: skip
    shown = Screen(Frame(pixels), (Element(0, el(0, "text", "", (20, 30, 620, 20)).box, "text",
                                           "checkout times that were twice as fast as with card "
                                           "terminals."),))  # fmt: skip
    found = selecting.span(shown, passages.read("the bit highlighted in pink"))
    assert found is not None and 296 <= found.start[0] <= 306 and 412 <= found.end[0] <= 422


def test_a_highlight_colour_is_the_swatch_the_highlight_label_heads():
    toolbar = screen(
        el(1, "text", "Text", (255, 82, 36, 20)),
        el(2, "icon", "", (355, 83, 20, 20), name="dark green circle"),
        el(3, "link", "Highlight", (481, 82, 66, 20)),
        el(4, "icon", "", (585, 83, 20, 20), name="light green square"),
        el(5, "text", "Tx", (718, 82, 20, 20)),
    )
    greens = [Candidate(toolbar.elements[1], 90.0, ""),
              Candidate(toolbar.elements[3], 80.0, "")]  # fmt: skip
    assert _in_group(toolbar, "green highlight swatch", greens)[0].element.id == 4
    assert _in_group(toolbar, "green swatch", greens)[0].element.id == 2
    steps = interpret("the bit highlighted in pink should be green instead. submit it as approved")
    assert [(s.verb, s.target) for s in steps[:2]] == [
        ("highlight", "the bit highlighted in pink"), ("click", "green highlight swatch")]
