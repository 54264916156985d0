"""Words selected with the pointer, on screens built by hand (a real Mousepad line is selected
in test_understanding_e2e): which characters, and where to press and let go."""

from __future__ import annotations

import numpy as np

from clickwright.agent.selecting import span
from clickwright.types import Box, Element, Frame, Screen


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
    second = span(PAGE, "paragraph", 2, "", TASK)
    assert second is not None
    assert second.text == "at. Eget dui. Volutpat\ncommodo est, aliquet"
    assert second.start == (12, 157)  # in the first letter's left half
    assert second.end == (10 + 8 * 20 + 12, 173)  # past the last, further at a line's end
    assert span(PAGE, "paragraph", 3, "", TASK) is None


def test_a_sentence_a_line_a_word_and_given_words():
    second = span(PAGE, "sentence", 2, "", TASK)  # of the main paragraph (of more words)
    assert second is not None and second.text == "Eget dui."
    assert span(PAGE, "line", 2, "", TASK).text == "commodo est, aliquet"
    assert span(PAGE, "word", -1, "", TASK).text == "aliquet"
    words = span(PAGE, None, None, "DUIS  facilisis", TASK)
    assert words is not None and words.text == "Duis facilisis"
    assert words.start[0] == 10 + 8 * 15 and words.end[0] == 10 + 8 * 29 + 12  # no ink: as placed
    assert span(PAGE, None, None, "not there", TASK) is None


def test_the_middle_one():
    middle = span(PAGE, "paragraph", 0, "", TASK)
    assert middle is not None and middle.text.startswith("at. Eget")  # of two: the second
    assert span(PAGE, "word", 0, "", TASK).text == "Volutpat"  # of seven words: the fourth
