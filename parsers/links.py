"""Links: text a browser or app draws in a link colour (blue, visited purple), and the
items of a navigation bar drawn in the text's own colour.

OCR sees only words; whether they can be clicked shows in their ink, so a text whose ink is
saturated blue or purple becomes a `link`, and so do the words of a text that a thin line
runs under, starting and ending with them (a group box's border or a list's edge that an
OCR box takes in runs on past the text, so it is no underline). A navigation bar
("Guides  Reference  Blog  Download") shows in its layout instead: a line of three or more
short phrases, each a few words, two characters or more apart, with no column of text under
them (a table's header has one).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from clickwright.parsers.menus import lines_of
from clickwright.text import merged_spans
from clickwright.types import Box, Element

if TYPE_CHECKING:
    from clickwright.parsers.fusion import TextBox

INK_DISTANCE = 60  # how far from the background a pixel must be to count as ink
LINK_HUES = (95, 150)  # OpenCV hue (0-180): blue through purple
CHROMA = 45  # grey levels between a link's strongest and weakest channel (a dark slate's
# text, #1f2937, is saturated in HSV terms but only 24 apart: no colour a link is drawn in)
FILL = 0.5  # share of a text's box above which its "ink" is a fill (a selection), no letters
UNDER_START = 0.6  # share of a text's height below which its underline is looked for
UNDER_MARGIN = 3  # px round the text's box searched, to see a line run on past it
UNDER_MIN = 6  # px: the shortest underline (under "1")
UNDERLINED = 0.8  # share of a text's width underlined from which all of it is one link
GAP_INK = 0.2  # most ink in the pixel row over an underline (descenders cross the gap)
WORD = 2.0  # characters' widths: the shortest underline under part of a text
NARROW = frozenset(" .,:;|!/'()[]-ijltfI1")  # characters about half as wide as a letter
NAV_ITEMS = 3  # phrases on a line, at least, to make a navigation bar
NAV_WORDS = 3  # words in one item, at most
NAV_GAP = 6.0  # text heights: items farther apart belong to different bars
NAV_SPACE = 2.0  # characters' widths: the least space between two items of a bar
COLUMN_REACH = 3.0  # text heights below an item where a text starting with it makes a column


def is_link(crop: np.ndarray) -> bool:
    """Whether the text in an RGB crop is drawn like a link."""
    if crop.ndim != 3 or min(crop.shape[:2]) < 4:
        return False
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.int16)
    background = np.median(border, axis=0)
    distance = np.abs(crop.astype(np.int16) - background).sum(axis=2)
    ink = distance > INK_DISTANCE
    if ink.sum() < 8 or ink.mean() > FILL:
        return False  # no text, or a selection's fill behind a text, not its letters
    hsv = cv2.cvtColor(crop, cv2.COLOR_RGB2HSV)[ink]
    hue, saturation = np.median(hsv[:, 0]), np.median(hsv[:, 1])
    colours = crop[ink].astype(np.int16)
    chroma = np.median(colours.max(axis=1) - colours.min(axis=1))
    return bool(LINK_HUES[0] <= hue <= LINK_HUES[1] and saturation >= 90 and chroma >= CHROMA)


def mark_links(pixels: np.ndarray, elements: list[Element]) -> list[Element]:
    """Texts drawn as links become links; a text with some words underlined is cut into its
    underlined words (links) and the rest (texts)."""
    marked = []
    for element in elements:
        x, y, w, h = element.box
        if element.kind != "text" or not element.text:
            marked.append(element)
        elif is_link(pixels[y : y + h, x : x + w]) or _PAGER.fullmatch(element.text.strip()):
            marked.extend(_pager(replace(element, kind="link", interactive=True)))
        else:
            marked.extend(_split_at_underlines(element, underlines(pixels, element.box)))
    return marked


PAGER_ARROWS = "<>≤≥«»‹›"  # how OCR reads a pager's arrows
_PAGER = re.compile(rf"[{PAGER_ARROWS}]?\s?\d{{1,2}}(?:\s?\d)*\s?[{PAGER_ARROWS}]")
"""Page numbers and an arrow after them, in plain text: "1 >" with the page shown now in black
and its arrow a link."""


def _pager(link: Element) -> list[Element]:
    """A pager read as one word ("123≥" for the links 1 2 3 >, drawn close together): one
    link per page number and arrow, placed along the word (one page and an arrow will do)."""
    text = link.text.replace(" ", "")
    digits = text.strip(PAGER_ARROWS)
    pages = [int(d) for d in digits] if digits.isdigit() else []
    arrows = len(text) > len(digits)
    if len(pages) < 2 - arrows or pages != list(range(pages[0], pages[0] + len(pages))):
        return [link]
    if any(c not in PAGER_ARROWS for c in text.replace(digits, "", 1)):
        return [link]
    width = link.box.w / len(text)
    return [
        replace(link, text=">" if c in "≥»›>" else "<" if c in "≤«‹<" else c,
                box=Box(round(link.box.x + i * width), link.box.y, max(1, round(width)),
                        link.box.h))
        for i, c in enumerate(text)
    ]  # fmt: skip


def underlines(pixels: np.ndarray, box: Box) -> list[tuple[int, int]]:
    """The x spans (frame pixels, end exclusive) of thin lines drawn under the text in `box`,
    each starting and ending within the text."""
    height, width = pixels.shape[:2]
    x0, x1 = max(0, box.x - UNDER_MARGIN), min(width, box.right + UNDER_MARGIN)
    y0, y1 = box.y + int(UNDER_START * box.h) - 1, min(height, box.bottom + UNDER_MARGIN)
    if x1 - x0 < 4 or y1 - y0 < 3:
        return []
    area = pixels[y0:y1, x0:x1].astype(np.int16)
    border = np.concatenate([area[0], area[-1], area[:, 0], area[:, -1]])
    ink = np.abs(area - np.median(border, axis=0)).sum(axis=2) > INK_DISTANCE
    shortest = max(UNDER_MIN, box.h // 2)
    spans: list[tuple[int, int]] = []
    for row in range(1, ink.shape[0]):  # the first row is only what lies over the second
        for start, end in runs(ink[row]):
            if end - start < shortest or start == 0 or end == ink.shape[1]:
                continue  # too short for a line, or running on past the text: a border
            gap = ink[row - 1, start:end].mean()
            below = ink[row + 2, start:end].mean() if row + 2 < ink.shape[0] else 0.0
            if gap < GAP_INK and below < 0.5:  # apart from the letters, and thin
                spans.append((x0 + start, x0 + end))
    return merged_spans(spans)


def runs(line: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True in a boolean row."""
    padded = np.concatenate([[False], line, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _split_at_underlines(element: Element, spans: list[tuple[int, int]]) -> list[Element]:
    """The element as links where it is underlined and texts elsewhere, cut at the spaces
    nearest the underlines' ends (text advances roughly evenly)."""
    if not spans:
        return [element]
    box, text = element.box, element.text
    if sum(end - start for start, end in spans) >= UNDERLINED * box.w:
        return [replace(element, kind="link", interactive=True, source="merged")]
    spans = [(a, b) for a, b in spans if b - a >= WORD * box.w / max(1, len(text))]
    if not spans:
        return [element]  # a letter underlined (a mnemonic: "File &name"), no link
    advance = np.cumsum([0.0] + [0.5 if c in NARROW else 1.0 for c in text])
    at = box.x + box.w * advance / advance[-1]  # pixel column where each character starts
    places = [0, len(text)] + [i for i, c in enumerate(text) if c == " "]
    cuts = sorted({min(places, key=lambda i: abs(at[i] - x)) for span in spans for x in span})
    cuts = sorted(set(cuts) | {0, len(text)})
    pieces = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        words = text[a:b].strip()
        if not words:
            continue
        piece = Box(round(at[a]), box.y, max(1, round(at[b] - at[a])), box.h)
        linked = any(c.isalnum() for c in words) and any(
            min(end, piece.right) - max(start, piece.x) >= 0.5 * piece.w for start, end in spans
        )
        kind = "link" if linked else "text"
        pieces.append(replace(element, box=piece, text=words, kind=kind, interactive=linked))
    return pieces


def nav_bar(texts: list[TextBox]) -> set[int]:
    """Indices of the texts that are items of a navigation bar."""
    found: set[int] = set()
    for line in lines_of(texts):
        groups: list[list[int]] = [[]]
        for index in line:
            last = groups[-1][-1] if groups[-1] else None
            height = texts[index].box.h
            if last is not None and texts[index].box.x - texts[last].box.right > NAV_GAP * height:
                groups.append([])
            groups[-1].append(index)
        for group in groups:
            if (
                len(group) >= NAV_ITEMS
                and all(_item(texts[i].text) for i in group)
                and all(_apart(texts[a], texts[b]) for a, b in zip(group, group[1:], strict=False))
                and sum(_heads_column(texts, i) for i in group) < 2
            ):
                found.update(group)
    return found


def _apart(left: TextBox, right: TextBox) -> bool:
    """Farther apart than the words of one phrase (which OCR may read apart all the same: a
    title's or a monospaced line's word spaces)."""
    advance = (left.box.w + right.box.w) / max(1, len(left.text) + len(right.text))
    return right.box.x - left.box.right >= NAV_SPACE * advance


def _item(text: str) -> bool:
    words = text.split()
    return (
        0 < len(words) <= NAV_WORDS
        and any(c.isalpha() for c in text)
        and not text.rstrip().endswith((":", "："))
    )


def _heads_column(texts: list[TextBox], index: int) -> bool:
    """Whether a text starts with `texts[index]` just below it, or is centred under it and
    about as wide: a column."""
    top = texts[index].box
    for other in texts:
        box = other.box
        below = box.y - top.bottom
        centred = abs(box.center[0] - top.center[0]) <= 4 and top.w / 2 <= box.w <= 2 * top.w
        if 0 <= below <= COLUMN_REACH * top.h and (abs(box.x - top.x) <= 4 or centred):
            return True
    return False
