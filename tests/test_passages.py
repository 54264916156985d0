"""Parts of a document named as people name them, found in its exact text, and the text after
a cut, a paste or a move."""

import pytest

from clickwright.agent import clipping, passages
from clickwright.agent.interpreter import interpret
from clickwright.agent.memory import Clip

PACKING = "socks\ncharger\npassport\ntoothbrush\n"
CONTACTS = "Name: Lars Moe\nPhone: 917 44 120\nEmail: lars@example.com\n\nEmergency contact:\n"
APP = 'def main(args):\n    print("DEBUG args:", args)\n    print("DEBUG cwd ok")\n    return 0\n'
STORY = "The train left at dawn.\n\nIt rained all the way.\n\nBy noon we were in Oslo.\n"


def found(text: str, phrase: str) -> list[str]:
    return [text[a:b] for a, b in passages.find(text, passages.read(phrase))]


@pytest.mark.parametrize(
    ("phrase", "parts"),
    [
        ("the passport line", ["passport\n"]),
        ("the line with passport", ["passport\n"]),
        ("line 2", ["charger\n"]),
        ("the second line", ["charger\n"]),
        ("the last line", ["toothbrush\n"]),
        ("the last two lines", ["passport\n", "toothbrush\n"]),
        ("the first 2 lines", ["socks\n", "charger\n"]),
        ("lines 2 to 3", ["charger\n", "passport\n"]),
        ("the charger line in packing.txt", ["charger\n"]),
        ("the 'pass' line", ["passport\n"]),
    ],
)
def test_lines_are_named_by_words_place_and_count(phrase, parts):
    assert found(PACKING, phrase) == parts


def test_a_count_must_match_the_lines_that_hold_the_words():
    assert found(APP, "the two DEBUG print lines in app.py") == [
        '    print("DEBUG args:", args)\n',
        '    print("DEBUG cwd ok")\n',
    ]
    assert found(APP, "both DEBUG lines") == found(APP, "the DEBUG lines")
    assert found(APP, "the three DEBUG lines") == []  # two say DEBUG: which three is unsaid


def test_a_value_is_read_on_the_line_about_it_after_its_owner():
    assert found(CONTACTS, "Lars's phone number") == ["917 44 120"]
    assert found(CONTACTS, "the email address") == ["lars@example.com"]
    two = "Ana\nPhone: 111 22 333\n\nLars\nPhone: 917 44 120\n"
    assert found(two, "Lars's phone number") == ["917 44 120"]


def test_paragraphs_take_the_blank_line_that_parts_them():
    assert found(STORY, "the middle paragraph") == ["It rained all the way.\n\n"]
    cut = passages.removed(STORY, passages.find(STORY, passages.read("the last paragraph")))
    assert cut == "The train left at dawn.\n\nIt rained all the way.\n"


def test_a_cut_line_pasted_at_the_top_is_a_line_of_its_own():
    spans = passages.find(PACKING, passages.read("the passport line"))
    clip = passages.clipped(PACKING, spans)
    assert clip == Clip("passport\n", lines=True)
    rest = passages.removed(PACKING, spans)
    assert passages.placed(rest, clip, "start") == "passport\nsocks\ncharger\ntoothbrush\n"
    assert passages.placed(rest, clip, "end") == "socks\ncharger\ntoothbrush\npassport\n"
    socks = passages.find(rest, passages.read("the socks line"))[0]
    assert passages.placed(rest, clip, "after", socks, True) == (
        "socks\npassport\ncharger\ntoothbrush\n"
    )


def test_copied_words_go_right_after_the_words_they_are_pasted_after():
    clip = passages.clipped(CONTACTS, passages.find(CONTACTS, passages.read("Lars's phone number")))
    anchor = passages.find(CONTACTS, passages.read("'Emergency contact:'"))[0]
    assert passages.placed(CONTACTS, clip, "after", anchor).endswith(
        "Emergency contact: 917 44 120\n"
    )


def test_a_moved_paragraph_keeps_a_blank_line_between():
    spans = passages.find(STORY, passages.read("the first paragraph"))
    clip = passages.clipped(STORY, spans, "paragraph")
    moved = passages.placed(passages.removed(STORY, spans), clip, "end")
    assert (
        moved == "It rained all the way.\n\nBy noon we were in Oslo.\n\nThe train left at dawn.\n"
    )


def test_words_that_name_no_part_are_words():
    assert passages.read("the Line tool").unit == ""  # a tool called Line, not a line
    assert not passages.read("Milk").named
    assert passages.read("the code").unit == ""  # a value shown beside a label, read there


def verbs(task: str) -> list[tuple[str, str | None, str | None]]:
    return [(s.verb, s.target, s.where) for s in interpret(task)]


def test_cut_copy_and_paste_are_read_as_steps():
    assert verbs("cut the passport line and paste it at the top") == [
        ("cut", "passport line", None),
        ("paste", None, "start"),
    ]
    assert verbs("copy Lars's phone number and paste it after 'Emergency contact:' at the bottom")[
        1
    ] == ("paste", "Emergency contact:", "after")
    assert verbs("duplicate the last line") == [
        ("copy", "last line", None),
        ("paste", "last line", "after"),
    ]
    assert verbs("copy the code and paste it into the Coupon field")[1][0] == "type"


def test_a_selection_then_its_deletion_is_one_step():
    assert verbs("select the two DEBUG print lines in app.py and delete them") == [
        ("delete", "the two DEBUG print lines in app.py", None)
    ]
    assert verbs("highlight the second sentence and cut it") == [
        ("cut", "the second sentence", None)
    ]


def test_a_leading_place_stays_with_its_step_even_when_it_ends_on_a_verb():
    steps = interpret("in my packing list, cut the passport line")
    assert [(s.verb, s.scope) for s in steps] == [("cut", "packing list")]


def test_swaps_moves_by_places_and_pastes_on_a_line_are_read_as_steps():
    assert [
        (s.verb, s.target, s.destination) for s in interpret("swap the first and second lines")
    ] == [("swap", "first line", "second line")]
    assert verbs("swap lines 1 and 3")[0][:2] == ("swap", "line 1")
    assert verbs("switch Anna and Ben around") == [("swap", "Anna", None)]
    assert verbs("switch to the Settings tab")[0][0] == "click"  # a choice, not a swap
    swapped = interpret("swap the green hoodie in my cart for the navy one")[0]  # a replacement
    assert (swapped.verb, swapped.old, swapped.text) == ("change", "green hoodie in my cart", "navy one")
    moved = interpret("move the last line up one line")[0]
    assert (moved.verb, moved.where, moved.direction, moved.amount) == ("drag", "places", "up", 1)
    assert verbs("copy the email address and paste it at the end of the first line")[1] == (
        "paste",
        "first line",
        "line end",
    )
    assert verbs("put the passport line before socks") == [("drag", "passport line", "before")]
    assert verbs("add a blank line after the title")[0][0] == "insert"  # a new line, typed


def test_a_line_moved_by_places_and_the_last_line_taken_with_its_break():
    text = "a\nb\nc\nd\n"
    last = passages.find(text, passages.read("the last line"))
    assert clipping._shifted(text, last, "line", -1) == "a\nb\nd\nc\n"
    assert clipping._shifted(text, passages.find(text, passages.read("line 1")), "line", 2) == (
        "b\nc\na\nd\n"
    )
    unended = "a\nb\nc"  # an editor that keeps no line break at the end
    assert passages.removed(unended, passages.find(unended, passages.read("the last line"))) == (
        "a\nb"
    )
    anchor = passages.find(text, passages.read("the first line"))[0]
    assert passages.placed(text, Clip("x@y.no"), "line end", anchor) == "a x@y.no\nb\nc\nd\n"


def test_a_question_before_its_step_names_what_it_acts_on():
    steps = interpret("which one is orange? click it")
    assert [(s.verb, s.target) for s in steps] == [("look", "orange one"), ("click", "orange one")]


def test_a_slider_end_is_named_by_a_word_or_by_the_label_drawn_there():
    import numpy as np

    from clickwright.agent.setting import _named_end
    from clickwright.types import Box, Element, Frame, Screen

    track = Box(120, 248, 300, 11)
    shown = Screen(
        Frame(np.zeros((400, 600, 3), np.uint8)),
        (
            Element(0, Box(118, 220, 53, 19), "link", "Square"),
            Element(1, Box(380, 221, 47, 15), "link", "Round"),
            Element(2, track, "input", "", state=frozenset({"slider"})),
        ),
    )
    assert _named_end(shown, track, "round", upright=False) is True
    assert _named_end(shown, track, "Square", upright=False) is False
    assert _named_end(shown, track, "the max", upright=False) is True
    assert _named_end(shown, track, "blue", upright=False) is None


DOCS = """Quill Documentation
Overview
Installation
Usage
Getting started
Quill turns notes into a site. It is small.

Installation
Quill needs Python 3.10 or newer. Use a venv.

To install themes, add the extra. Themes are small.

Usage
Run quill build. The settings are read from quill.toml, if there is one.
"""

THEMES = "To install themes, add the extra. Themes are small."
SETTINGS = "The settings are read from quill.toml, if there is one."


@pytest.mark.parametrize(
    ("phrase", "part"),
    [
        ("the second paragraph under Installation", THEMES),
        ("the first sentence of the Usage section", "Run quill build."),
        ("the sentence that mentions the settings", SETTINGS),
        ("the paragraph that starts with 'To install'", THEMES),
        ("the first sentence under Installation", "Quill needs Python 3.10 or newer."),
    ],
)  # fmt: skip
def test_a_part_under_a_heading_and_sentences_past_points_inside_words(phrase, part):
    """A heading over text, not the same word in the menu above; "quill.toml" and "3.10" end
    no sentence."""
    found = passages.find(DOCS, passages.read(phrase))
    assert [DOCS[a:b].strip() for a, b in found] == [part]
    assert passages.read("the 2nd paragraph under the FAQ heading").section == "FAQ"
    assert passages.find(DOCS, passages.read("the paragraph under FAQ")) == []


def test_moves_and_copies_said_the_way_people_ask():
    def read(task: str) -> list[tuple]:
        return [(s.verb, s.target, s.destination, s.nth) for s in interpret(task)]

    assert read("could you move the blue file to the trash") == [
        ("drag", "blue file", "trash", None)
    ]
    assert read("the orange one goes first") == [("drag", "orange one", None, 1)]
    assert read("reorder so Milk is on top") == [("drag", "Milk", None, 1)]
    assert read("send report.pdf to the Archive folder") == [
        ("drag", "report.pdf", "Archive folder", None)
    ]
    copied = interpret("copy the sentence about the ferry into the notes field")
    assert [s.verb for s in copied] == ["copy", "type"]
    assert passages.read("where it says 'free shipping'").words == "free shipping"
    assert read("can you click Save") == [("click", "Save", None, None)]


UTILS = ("def total(items):\n    return sum(i.price for i in items)\n\n\n"
         "def old_total(items):\n    t = 0\n    for i in items:\n        t = t + i.price\n"
         "    return t\n\n\ndef average(items):\n    return total(items) / len(items)\n")  # fmt: skip
SCRIPT = "function a() {\n  return 1;\n}\n\nfunction b() {\n  if (x) {\n    y();\n  }\n}\n"


def test_a_function_is_its_line_and_the_body_under_it_and_leaves_the_gap_as_it_was():
    cut = passages.removed(UTILS, passages.find(UTILS, passages.read("the old_total function")))
    assert cut == UTILS.replace(UTILS[UTILS.index("def old") : UTILS.index("def average")], "")
    assert found(UTILS, "the function total") == [UTILS[: UTILS.index("def old")]]  # not old_
    last = passages.removed(UTILS, passages.find(UTILS, passages.read("the average method")))
    assert last == UTILS[: UTILS.index("\n\n\ndef average") + 1]
    assert found(SCRIPT, "the b function") == ["\n" + SCRIPT[SCRIPT.index("function b") :]]
    assert found(SCRIPT, "the a function") == ["function a() {\n  return 1;\n}\n\n"]


def test_the_lines_counted_under_a_heading_are_the_first_ones_there():
    week = "MONDAY\nstandup 9:15\nTODO\nbook room\nemail Karin\norder toner\nNOTES\nparking\n"
    assert found(week, "the 3 lines under TODO") == ["book room\n", "email Karin\n",
                                                      "order toner\n"]  # fmt: skip


def test_a_word_in_a_file_named_stands_for_its_line():
    assert passages.in_a_file("move Heroes so it's the last song in playlist.txt")
    assert passages.in_a_file("put Jolene first in the file")
    assert not passages.in_a_file("move Bread to the top of the shopping list")
    steps = interpret("in week.txt the 3 lines under TODO should be at the very end instead. save")
    assert [(s.verb, s.target, s.scope) for s in steps] == [
        ("drag", "3 lines under TODO", None), ("intent", None, None)]  # fmt: skip
