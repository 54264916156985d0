"""The edits an editor's exact text goes through (the clipboard path of agent/editing.py)."""

from __future__ import annotations

import re

import numpy as np

from clickwright.agent import passages
from clickwright.agent.editing import (
    _beyond,
    comment_marker,
    duplicate_deleted,
    commented,
    inserted,
    line_deleted,
    replaced,
    value_on_line,
    words_deleted,
)
from clickwright.types import Box, Element, Frame, Screen


def test_words_are_replaced_as_whole_words_in_any_case_once_or_everywhere():
    text = "Status: Draft\nthe draft is a draftsman's draft\n"
    assert replaced("draft", "final", every=False)(text) == (
        "Status: Final\nthe draft is a draftsman's draft\n"
    )
    assert replaced("draft", "final", every=True)(text) == (
        "Status: Final\nthe final is a draftsman's final\n"
    )
    assert replaced("colour", "color", every=True)("no colours here") is None
    assert replaced("8080", "9090", every=False)("port = 8080\n") == "port = 9090\n"


def test_a_value_of_a_kind_is_replaced_by_its_pattern():
    email = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
    edit = replaced(email, "new@example.org", every=False)
    assert edit("Contact: old@example.com\n") == "Contact: new@example.org\n"


def test_a_line_is_deleted_with_its_line_break():
    text = "apples\npears\nplums\n"
    assert line_deleted("pears")(text) == "apples\nplums\n"
    assert line_deleted("plums")("apples\nplums") == "apples"
    assert line_deleted("figs")(text) is None


def test_words_go_with_one_space_beside_them():
    assert words_deleted("very")("This is very important.") == "This is important."
    assert words_deleted("today")("Call me today\nBye") == "Call me\nBye"


def test_lines_are_added_below_above_between_and_at_the_ends():
    code = "def f():\n    x = 1\n    return x\n"
    assert inserted("y = 2", "below", "x = 1")(code) == (
        "def f():\n    x = 1\n    y = 2\n    return x\n"
    )
    assert inserted("# start", "above", "def f")(code).startswith("# start\ndef f():")
    assert inserted("scratch", "end")("a\n") == "a\nscratch"
    assert inserted("two", "between", "one", "three")("one three\n") == "one two three\n"
    assert inserted("two", "between", "one", "three")("one, three\n") == "one, two, three\n"
    assert inserted("two", "between", "one", "three")("one\nthree\n") == "one\ntwo\nthree\n"
    assert inserted("z", "below", "nowhere")(code) is None
    card = "Name: Eva Lind\nEmail: eva@lind.se\nCity: Uppsala\n"
    assert inserted("Phone: 070", "below", "email line")(card) == (  # the line about email
        "Name: Eva Lind\nEmail: eva@lind.se\nPhone: 070\nCity: Uppsala\n"
    )


def test_a_line_is_deleted_by_its_place():
    text = "one\ntwo\nthree\n"
    assert line_deleted(nth=2)(text) == "one\nthree\n"
    assert line_deleted(nth=-1)(text) == "one\ntwo\n"
    assert line_deleted(nth=1)(text) == "two\nthree\n"
    assert line_deleted(nth=4)(text) is None


def test_a_line_of_its_own_goes_at_either_end():
    assert inserted("eggs", "end line")("milk\nbread\n") == "milk\nbread\neggs\n"
    assert inserted("eggs", "end line")("milk") == "milk\neggs"
    assert inserted("cherry", "start line")("apple\n") == "cherry\napple\n"


def test_lines_are_put_in_order_as_a_person_sorts_them():
    from clickwright.agent.editing import ordered

    assert ordered()("pears\napples\nPlums\ncherries\n") == "apples\ncherries\npears\nPlums\n"
    assert ordered(reverse=True)("b\n\na\nc") == "c\nb\na"  # blank lines left out
    assert ordered()("\n\n") is None


CODE = "import os\n\ndef f(x):\n    total = x\n    print(total)\n    return total\n"


def test_lines_are_commented_out_after_their_indent_and_back_in():
    out = commented(passages.read("the line with print(total)"), "#")(CODE)
    assert out == CODE.replace("    print(total)", "    # print(total)")
    assert commented(passages.read("the print(total) line"), "#", off=True)(out) == CODE
    both = commented(passages.read("lines 3 to 4"), "//")(CODE)
    assert both.split("\n")[2:4] == ["// def f(x):", "    // total = x"]
    assert commented(passages.read("the line # import os"), "#", off=True)("# import os\n") == (
        "import os\n"
    )
    assert commented(passages.read("the line with nothing"), "#")(CODE) is None


def test_the_comment_marker_is_the_files_kind_else_the_texts_own():
    assert comment_marker(CODE, ["calc.js - Mousepad"]) == "//"
    assert comment_marker(CODE, ["settings.ini"]) == ";"
    assert comment_marker("-- a query\nselect 1\n", ["Untitled"]) == "--"
    assert comment_marker(CODE, []) == "#"


def test_a_copy_of_the_whole_page_is_not_the_editors_text():
    """Ctrl+A with the focus on a web page takes its heading too: that copy is the page's."""

    def el(i: int, kind: str, text: str, box: tuple[int, int, int, int]) -> Element:
        return Element(i, Box(*box), kind, text)

    page = Screen(Frame(np.zeros((400, 600, 3), np.uint8)), (
        el(0, "text", "Edit article: VPN access", (20, 10, 300, 24)),
        el(1, "container", "", (20, 60, 500, 200)),
        el(2, "text", "Install the client first.", (30, 70, 300, 18)),
        el(3, "text", "Then log in with your badge.", (30, 95, 300, 18)),
    ))  # fmt: skip
    area = page.elements[1]
    editor = "Install the client first.\nThen log in with your badge.\n"
    assert not _beyond(page, editor, area)
    assert _beyond(page, "Edit article: VPN access\n" + editor, area)
    assert not _beyond(page, "Edit article: VPN access\n" + editor, None)


def test_an_amount_said_for_a_thing_replaces_the_amount_on_its_line():
    """ "change the butter to 200 g": the amount beside butter, not the word butter."""
    recipe = "Cinnamon buns (24)\n500 g flour\n250 g butter\n5 dl milk\n"
    assert value_on_line("butter", "200 g", words=False)(recipe) == recipe.replace("250", "200")
    assert value_on_line("milk", "4 dl", words=False)(recipe) == recipe.replace("5 dl", "4 dl")
    assert value_on_line("timeout", "30", words=False)("TIMEOUT = 10\n") == "TIMEOUT = 30\n"


def test_the_later_of_two_same_lines_is_the_duplicate():
    kept = "Decisions:\n- Action: Lena books the room\n- Action: Per\n"
    assert duplicate_deleted(kept + "- Action: Lena books the room\n") == kept
    assert duplicate_deleted("a\n\nb\n\nc\n") is None  # blank lines repeat, they are no entry
