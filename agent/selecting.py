"""Where a person presses and lets go to select words with the pointer ("highlight the second
sentence", "select the word 'urgent'", "highlight the text in the 1st paragraph").

The words are found in the screen's blocks of text (not the page's own copy of the task); OCR
gives lines, not letters, so each character is placed in proportion along its line's box. The
press is just left of the first character, the release just right of the last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clickwright.agent.grounding import echoes, is_prose, text_blocks
from clickwright.text import normalize
from clickwright.types import Element, Screen

__all__ = ["Span", "span"]

Point = tuple[int, int]

PROSE = 3
"""Words a block needs to count as a paragraph (a heading or a lone label does not)."""
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True)
class Span:
    """A stretch of a block's text and where to press and let go to select it."""

    text: str
    start: Point
    end: Point


@dataclass(frozen=True)
class _Block:
    text: str  # lines joined by "\n", a line's texts by " "
    places: tuple[tuple[int, int, int], ...]  # per character: its left x, right x and middle y

    def span(self, start: int, end: int) -> Span:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        (left, _, top), (last_left, right, bottom) = self.places[start], self.places[end - 1]
        # past a character's middle selects it: pressed in the first one's left half, let go
        # a little way past the last, further at a line's end (OCR's box may stop short)
        at_end = end == len(self.text) or self.text[end] == "\n"
        after = (right - last_left) * (1.5 if at_end else 0.3)
        inward = round((self.places[start][1] - left) / 4)  # OCR's box may start on a border
        return Span(self.text[start:end], (left + inward, top), (round(right + after), bottom))


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
    blocks = [_placed(lines) for lines in text_blocks(screen)]
    blocks = [b for b in blocks if not (said and echoes(b.text, said, ""))]
    return [b for b in blocks if is_prose(b.text)] or blocks


def _placed(lines: list[list[Element]]) -> _Block:
    text: list[str] = []
    places: list[tuple[int, int, int]] = []
    for row, line in enumerate(lines):
        if row:
            text.append("\n")
            places.append(places[-1])
        for i, element in enumerate(line):
            box, said = element.box, element.text
            y = box.center[1]
            if i:
                text.append(" ")
                places.append((places[-1][1], box.x, y))
            step = box.w / max(len(said), 1)
            for k, char in enumerate(said):
                text.append(char)
                places.append((round(box.x + k * step), round(box.x + (k + 1) * step), y))
    return _Block("".join(text), tuple(places))
