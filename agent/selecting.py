"""Where a person presses and lets go to select words with the pointer ("highlight the second
sentence", "select the word 'urgent'", "highlight the text in the 1st paragraph").

The words are found in the screen's blocks of text (not the page's own copy of the task); OCR
gives lines, not letters, so each character is placed in proportion along its line's box. The
press is just left of the first character, the release just right of the last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from clickwright.agent.grounding import echoes, is_prose, text_blocks
from clickwright.text import normalize
from clickwright.types import Element, Screen

__all__ = ["Span", "span"]

Point = tuple[int, int]

PROSE = 3
"""Words a block needs to count as a paragraph (a heading or a lone label does not)."""
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")
_WORD = re.compile(r"[\w'’-]+")
INK = 90
"""Summed RGB difference from a line's background that is a letter's ink."""
SPACE = 0.3
"""A gap in a line's ink this many characters wide parts two words (letters touch or nearly)."""


@dataclass(frozen=True)
class Span:
    """A stretch of a block's text and where to press and let go to select it."""

    text: str
    start: Point
    end: Point


@dataclass(frozen=True)
class _Block:
    text: str  # lines joined by "\n", a line's texts by " "
    places: tuple[tuple[int, int, int, int, int], ...]  # per character: left, right, top,
    # middle, bottom (estimated: characters in proportion along the line's box)
    pixels: np.ndarray

    def span(self, start: int, end: int) -> Span:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        left, first_right, top, y0, bottom = self.places[start]
        last_left, right, top1, y1, bottom1 = self.places[end - 1]
        width = max(first_right - left, 1)
        if start == 0 or self.text[start - 1] == "\n":
            x0 = left + round(width / 4)  # OCR's box may start on a border
        else:  # between two words: just before the first one's ink
            x0 = _ink_edge(self.pixels, left, top, bottom, width, first=True) or left
        if end == len(self.text) or self.text[end] == "\n":
            x1 = round(right + 1.5 * (right - last_left))  # past the line's end
        else:
            x1 = _ink_edge(self.pixels, right, top1, bottom1, right - last_left, first=False)
            x1 = x1 or right
        return Span(self.text[start:end], (x0, y0), (x1, y1))


def _ink_edge(
    pixels: np.ndarray, x: int, top: int, bottom: int, width: int, first: bool
) -> int | None:
    """Where a word's ink starts (`first`: the column before it) or ends (the column after
    it), nearest `x` within three characters: a gap in the line's ink as wide as a space is
    where a word begins or ends, which OCR's proportional estimate only comes near."""
    reach = max(4, 3 * width)
    x_from, x_to = max(x - reach, 0), min(x + reach, pixels.shape[1] - 1)
    band = pixels[max(top, 0) : bottom, x_from : x_to + 1, :3].astype(np.int16)
    if band.size == 0:
        return None
    page = np.median(band.reshape(-1, 3), axis=0)
    ink = (np.abs(band - page).sum(axis=2) > INK).any(axis=0)
    space = max(2, round(SPACE * width))
    edges, run = [], 0
    for i, inked in enumerate(ink):
        if not inked:
            run += 1
            continue
        if run >= space and i > run:  # a space's gap between two inks, not the band's edge
            edges.append(x_from + i - 1 if first else x_from + i - run)
        run = 0
    if not edges:
        return None
    return min(edges, key=lambda e: abs(e - x))


def span(
    screen: Screen, unit: str | None, nth: int | None, words: str, task: str = ""
) -> Span | None:
    """The words to select: `words` as written (any case, any spacing) where the screen
    shows them, else the `nth` (1-based, -1 last, 0 middle; None: the main one) `unit` (word,
    sentence, line, paragraph) of the screen's text. None when there is no such text."""
    blocks = _blocks(screen, task)
    if words:
        wanted = re.compile(r"\s+".join(map(re.escape, words.split())), re.I)
        for block in blocks:
            if found := wanted.search(block.text):
                return block.span(found.start(), found.end())
        return None
    if not blocks:
        return None
    if unit == "paragraph" and nth is not None:
        prose = [b for b in blocks if len(b.text.split()) >= PROSE] or blocks
        if abs(nth) > len(prose):
            return None
        block = prose[_index(nth, len(prose))]
        return block.span(0, len(block.text))
    main = max(blocks, key=lambda b: (len(b.text.split()), b.text.count("\n")))
    if unit in (None, "paragraph", "text"):
        return main.span(0, len(main.text))
    pieces = {
        "sentence": [m.span() for m in _SENTENCE.finditer(main.text.replace("\n", " "))],
        "line": [m.span() for m in re.finditer(r"[^\n]+", main.text)],
    }.get(unit, [m.span() for m in _WORD.finditer(main.text)])
    pieces = [(a, b) for a, b in pieces if main.text[a:b].strip()]
    nth = 1 if nth is None else nth
    if not pieces or abs(nth) > len(pieces):
        return None
    return main.span(*pieces[_index(nth, len(pieces))])


def _index(nth: int, count: int) -> int:
    """Where the `nth` of `count` is: 1-based, -1 the last, 0 the middle one."""
    return count // 2 if nth == 0 else nth - 1 if nth > 0 else nth


def _blocks(screen: Screen, task: str) -> list[_Block]:
    """The screen's blocks of text, less those that only show the task, and prose before
    lists of "label: value" lines."""
    said = normalize(task)
    blocks = [_placed(lines, screen.frame.pixels) for lines in text_blocks(screen)]
    blocks = [b for b in blocks if not (said and echoes(b.text, said, ""))]
    return [b for b in blocks if is_prose(b.text)] or blocks


def _placed(lines: list[list[Element]], pixels: np.ndarray) -> _Block:
    text: list[str] = []
    places: list[tuple[int, int, int, int, int]] = []
    for row, line in enumerate(lines):
        if row:
            text.append("\n")
            places.append(places[-1])
        for i, element in enumerate(line):
            box, said = element.box, element.text
            band = (box.y, box.center[1], box.bottom)
            if i:
                text.append(" ")
                places.append((places[-1][1], box.x, *band))
            step = box.w / max(len(said), 1)
            for k, _ in enumerate(said):
                places.append((round(box.x + k * step), round(box.x + (k + 1) * step), *band))
            text.append(said)
    return _Block("".join(text), tuple(places), pixels)
