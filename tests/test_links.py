"""Links are told from other text by their ink colour."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from clickwright.parsers.links import is_link, mark_links
from clickwright.types import Box, Element

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def word(ink: tuple[int, int, int], background: tuple[int, int, int]) -> np.ndarray:
    image = Image.new("RGB", (120, 26), background)
    ImageDraw.Draw(image).text((4, 3), "Products", fill=ink, font=ImageFont.truetype(FONT, 16))
    return np.asarray(image)


@pytest.mark.parametrize(
    ("ink", "background", "link"),
    [
        ((26, 13, 171), (255, 255, 255), True),  # classic link blue
        ((0, 102, 204), (255, 255, 255), True),
        ((85, 26, 139), (255, 255, 255), True),  # visited purple
        ((138, 180, 248), (32, 33, 36), True),  # dark-theme link
        ((20, 20, 20), (255, 255, 255), False),
        ((255, 255, 255), (48, 140, 198), False),  # a selected row: white on blue
        ((200, 30, 30), (255, 255, 255), False),  # red warning text
    ],
)
def test_link_colours(ink, background, link):
    assert is_link(word(ink, background)) is link


def test_only_text_elements_become_links():
    pixels = word((26, 13, 171), (255, 255, 255))
    text = Element(0, Box(0, 0, 120, 26), "text", "Products")
    button = Element(1, Box(0, 0, 120, 26), "button", "Products", "merged", interactive=True)
    marked = mark_links(pixels, [text, button])
    assert (marked[0].kind, marked[0].interactive) == ("link", True)
    assert marked[1] == button
    assert not is_link(np.zeros((2, 2, 3), np.uint8))


@pytest.mark.parametrize(
    ("read", "links"),
    [("123≥", ["1", "2", "3", ">"]), ("1 2 3 4 »", ["1", "2", "3", "4", ">"]),
     ("2023", ["2023"]), ("135", ["135"]), ("Page 2", ["Page 2"])],
)  # fmt: skip
def test_a_pager_read_as_one_word_is_a_link_per_page(read, links):
    """MiniWoB's search pager at 100 % and 200 %: "1 2 3 >" close together, one OCR word."""
    pixels = word((26, 13, 171), (255, 255, 255))
    marked = mark_links(pixels, [Element(0, Box(0, 0, 120, 26), "text", read)])
    assert [m.text for m in marked] == links
    assert all(m.kind == "link" for m in marked)
    assert [m.box.x for m in marked] == sorted({m.box.x for m in marked})


def test_a_pager_of_one_page_and_its_arrow_read_as_one_word_is_a_link_each():
    from clickwright.parsers.links import _PAGER, _pager
    from clickwright.types import Box, Element

    read = Element(0, Box(39, 181, 32, 23), "text", "1≥")
    assert _PAGER.fullmatch(read.text)
    assert [(e.text, e.box.x) for e in _pager(read)] == [("1", 39), (">", 55)]
    assert not _PAGER.fullmatch("Chapter 3")
    assert _pager(Element(0, Box(0, 0, 40, 20), "link", "2026")) == [
        Element(0, Box(0, 0, 40, 20), "link", "2026")
    ]  # a year is no pager
