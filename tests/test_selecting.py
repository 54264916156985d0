"""Words selected with the pointer, on screens built by hand (a real Mousepad line is selected
in test_understanding_e2e): which characters, and where to press and let go."""

from __future__ import annotations

import cv2
import numpy as np

from clickwright.agent import selecting
from clickwright.agent.passages import read
from clickwright.types import Box, Element, Frame, Screen


def span(screen: Screen, phrase: str, task: str = "") -> selecting.Span | None:
    return selecting.span(screen, read(phrase), task)


def line(i: int, text: str, x: int, y: int, width: int = 8) -> Element:
    return Element(i, Box(x, y, width * len(text), 14), "text", text)


TASK = "Highlight the text in the 2nd paragraph and click submit."
PAGE = Screen(
    Frame(np.zeros((400, 600, 3), np.uint8)),
    (
        line(0, "Highlight the text in the 2nd", 10, 4),
        line(1, "paragraph and click submit.", 10, 20),
        line(2, "Purus pretium. Duis facilisis", 10, 100),
        line(3, "massa eleifend", 10, 116),
        line(4, "at. Eget dui. Volutpat", 10, 150),  # a paragraph's margin above
        line(5, "commodo est, aliquet", 10, 166),
        line(6, "Last reward: 0.8", 400, 100),  # a label: value list beside it
        line(7, "Time left: 9 sec", 400, 116),
    ),
)


def test_the_nth_paragraph_is_counted_past_the_task_and_after_a_margin():
    second = span(PAGE, "the 2nd paragraph", TASK)
    assert second is not None
    assert second.text == "at. Eget dui. Volutpat\ncommodo est, aliquet"
    assert 10 <= second.start[0] <= 13 and second.start[1] == 157  # the first letter's left
    assert second.end[0] > 10 + 8 * 20 and second.end[1] == 173  # past the line's end
    assert span(PAGE, "the third paragraph", TASK) is None


def test_a_sentence_a_line_a_word_and_given_words():
    second = span(PAGE, "the second sentence", TASK)  # of the text, not of the list beside it
    assert second is not None and second.text == "Duis facilisis\nmassa eleifend"
    assert span(PAGE, "the 3rd line", TASK).text == "at. Eget dui. Volutpat"
    assert span(PAGE, "the last word", TASK).text == "aliquet"
    words = span(PAGE, "DUIS  facilisis", TASK)
    assert words is not None and words.text == "Duis facilisis"
    assert abs(words.start[0] - (10 + 8 * 15)) <= 8  # no ink to go by: where letters are placed
    assert words.end[0] > 10 + 8 * 29  # past the line's end
    assert span(PAGE, "not there", TASK) is None


def test_the_middle_one():
    middle = span(PAGE, "the middle paragraph", TASK)
    assert middle is not None and middle.text.startswith("at. Eget")  # of two: the second
    assert span(PAGE, "the middle word", TASK).text == "at"  # of thirteen: the seventh
    assert span(PAGE, "the middle word of the 2nd paragraph", TASK).text == "Volutpat"


def test_a_part_of_a_paragraph_and_a_stretch_from_one_word_to_another():
    assert span(PAGE, "the second sentence of the 1st paragraph", TASK).text == (
        "Duis facilisis\nmassa eleifend"
    )
    assert span(PAGE, "the first two words of the second paragraph", TASK).text == "at. Eget"
    assert span(PAGE, "the word 'dui' in the 2nd paragraph", TASK).text == "dui"
    across = span(PAGE, "the text from 'Duis' to 'Eget'", TASK)
    assert across is not None and across.text.startswith("Duis") and across.text.endswith("Eget")
    assert across.start[1] < across.end[1]  # pressed on one paragraph, let go on the next


def test_a_paragraph_counted_from_the_top_is_counted_again_in_what_is_in_view():
    fourth = read("the second sentence of the 4th paragraph")
    assert selecting.paragraph_nth(fourth) == 4
    assert selecting.paragraph_nth(read("the last paragraph")) == -1
    assert selecting.paragraph_nth(read("the word 'bow'")) is None
    in_view = selecting.counted_from(fourth, 2)  # two went by above
    assert in_view.within is not None and in_view.within.nth == 2
    assert selecting.paragraph_spans(PAGE, TASK) == [(100, 130), (150, 180)]


def test_words_read_as_a_control_that_only_go_on_a_line_are_the_lines_text():
    cut = Screen(
        Frame(np.zeros((400, 600, 3), np.uint8)),
        (
            line(0, "Purus pretium. Duis facilisis", 10, 100),
            line(1, "Next year I want to", 10, 130),
            Element(2, Box(164, 130, 230, 14), "radio", "take the night boat instead."),
            Element(3, Box(10, 200, 300, 90), "container"),
            line(4, "A", 14, 210),  # a text area's grip read as a letter
        ),
    )
    last = span(cut, "the last paragraph")
    assert last is not None and last.text == "Next year I want to take the night boat instead."


def drawn(lines: list[tuple[str, int, float, int]]) -> Screen:
    """A white page with each (text, y, letter scale, stroke) drawn at x 20, and its box."""
    pixels = np.full((500, 700, 3), 255, np.uint8)
    elements = []
    for i, (text, y, scale, stroke) in enumerate(lines):
        (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
        cv2.putText(pixels, text, (20, y + h), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0),
                    stroke, cv2.LINE_AA)  # fmt: skip
        elements.append(Element(i, Box(20, y, w, h + base), "text", text))
    return Screen(Frame(pixels), tuple(elements))


def test_a_heading_wrapped_over_two_lines_is_no_paragraph_and_parts_are_counted_under_one():
    page = drawn([
        ("Getting started", 10, 1.4, 3), ("with Quill", 50, 1.4, 3),
        ("Quill turns notes into a site. It is small.", 100, 0.6, 1),
        ("Installation", 150, 0.9, 2),
        ("Quill needs Python. Use a venv.", 190, 0.6, 1),
        ("To install themes, add the extra.", 230, 0.6, 1),
        ("Usage", 280, 0.9, 2),
        ("Run quill build. It reads the notes.", 320, 0.6, 1),
    ])  # fmt: skip
    first = span(page, "the first paragraph")
    assert first is not None and first.text.startswith("Quill turns")
    second = span(page, "the second paragraph under Installation")
    assert second is not None and second.text == "To install themes, add the extra."
    usage = span(page, "the first sentence of the Usage section")
    assert usage is not None and usage.text == "Run quill build."
    assert span(page, "the paragraph under FAQ") is None
