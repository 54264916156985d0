"""Where a person presses and lets go to select words with the pointer ("highlight the second
sentence", "select the word 'urgent'", "highlight the text in the 1st paragraph").

The words, named as agent/passages.py reads them, are found in the screen's blocks of text (not
the page's own copy of the task), a block being a paragraph. OCR gives lines, not letters, so
each character is placed along its line's box by its usual width; the press is just left of
the first character, the release just right of the last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from clickwright.agent import passages
from clickwright.agent.grounding import echoes, face, holder, is_prose, text_blocks
from clickwright.agent.passages import Passage
from clickwright.parsers.colours import palette
from clickwright.parsers.links import runs as ink_runs
from clickwright.text import normalize, text_similarity
from clickwright.types import Box, Element, Screen

__all__ = ["Span", "counted_from", "paragraph_nth", "paragraph_spans", "span"]

Point = tuple[int, int]

PROSE = 3
"""Words a block needs to count as a paragraph (a lone label does not)."""
SAME_SIZE, SAME_INK = 0.1, 0.15
"""How far a one-line paragraph's letter height and share of ink may be from the main
text's (a heading's or a byline's are further)."""
INK = 90
"""Summed RGB difference from a line's background that is a letter's ink."""
MARK_WIDTH = 0.4
"""Where to let go, in characters back from the ink of marks after the last word ("bread."):
in the right half of the word's last letter."""
ECHO_WORDS = 3
"""Words a block has at least to be the task shown back (a heading the task names is not)."""
LARGER = 1.3
"""How many times taller than the main text's a block's letters are when it is a heading."""
_ADVANCES = (("iljI.,;:'!|’", 0.5), ('frt()[]-"', 0.65), (" ", 0.55), ("mwMW", 1.6))
"""Characters' widths against an average letter's, in common text fonts (rounded)."""
_MARK = re.compile(r"[.,;:!?)\]}\"'”’]")
INK_FILLERS = frozenset({"bit", "part", "piece", "words", "word", "text", "phrase", "in",
                         "highlighted", "marked", "coloured", "colored", "written", "that",
                         "is", "are", "which"})
"""Words round a colour that only say it is the text's ("the bit highlighted in pink")."""
INKED = 0.12
"""Share of a word's box in the colour for the word to be in it (its strokes, or the band of a
highlight behind it); a darker word's smoothed edges are far fewer."""
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
    box: Box  # of its first line's widest text
    items: int  # texts on its first line: several where it is a row of links or tabs
    holder: Box | None  # the box round it (a bar, a card, a text area)

    @cached_property
    def face(self) -> tuple[int, float]:
        return face(self.pixels, self.box)

    @cached_property
    def letter(self) -> int:
        """An average letter's width here (a space between words is a third of one)."""
        widths = [r - lf for (lf, r, *_), c in zip(self.places, self.text, strict=True)
                  if c.isalnum()]  # fmt: skip
        return max(round(float(np.median(widths))), 1) if widths else 1

    def span(self, start: int, end: int) -> Span:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        left, _, top, y0, bottom = self.places[start]
        _, right, top1, y1, bottom1 = self.places[end - 1]
        size = self.letter
        if start == 0 or self.text[start - 1] == "\n":
            x0 = left + round(size / 4)  # OCR's box may start on a border
        else:  # between two words: just before the first one's ink
            x0 = _ink_edge(self.pixels, left, top, bottom, size, first=True) or left
        marks = end
        while marks < len(self.text) and _MARK.fullmatch(self.text[marks]):
            marks += 1  # "bread." without its full stop: let go short of the mark
        if marks == len(self.text) or self.text[marks] == "\n":
            x1 = round(right + 1.5 * size)  # past the line's end
            if marks > end:
                x1 = self.places[marks - 1][1] - round(MARK_WIDTH * size * (marks - end))
        else:
            after = self.places[marks - 1][1]
            x1 = _ink_edge(self.pixels, after, top1, bottom1, size, first=False) or after
            x1 -= round(MARK_WIDTH * size * (marks - end))
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


def span(screen: Screen, passage: Passage, task: str = "") -> Span | None:
    """Where to press and let go to select `passage` in the screen's text: given words
    anywhere; a part counted (a paragraph, a sentence, a line, a word) in the paragraphs of
    the main text; nothing named, or "the paragraph": all of the main block. None when the
    screen shows no such text."""
    blocks = _blocks(screen, task)
    if not blocks:
        return None
    main = max(blocks, key=_mainness)
    if heading := passage.section or (passage.within.section if passage.within else ""):
        blocks = _under(blocks, main, heading)  # "the second paragraph under Installation"
        if not blocks:
            return None
        inner = passage.within or passage
        if inner.unit == "paragraph" and inner.nth is None and not inner.words:
            inner = replace(inner, nth=1)  # "the paragraph under FAQ": its first
        inner = replace(inner, section="")
        passage = replace(passage, within=inner) if passage.within else inner
        main = max(blocks, key=_mainness)
    inner = passage.within or passage
    if inner.unit == "paragraph" and inner.nth is None and not inner.words:  # "the paragraph"
        chosen, passage = [main], replace(passage, within=None) if passage.within else Passage()
    elif not (passage.words or passage.named):
        chosen = [main]
    elif passage.words and not (passage.unit or passage.within):  # given words, anywhere
        chosen = blocks
    else:  # counted in the paragraphs of the main text's column
        chosen = _counted(blocks, main)
    text = "\n\n".join(b.text for b in chosen)
    found = passages.find(text, passage) if passage.words or passage.named else [(0, len(text))]
    if (passage.plural or not found) and not passage.exact:  # not "the word 'green'"
        main_first = [b for b in _counted(blocks, main) if b in chosen] or chosen
        if inked := _inked(screen, main_first, passage):
            return inked  # "the green words": letters in that colour, or on it
    if not found:
        return None
    start, end = found[0][0], found[-1][1]
    while start < end and text[start].isspace():  # a paragraph's blank lines round it
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return _located(chosen, start, end) if start < end else None


def paragraph_nth(passage: Passage) -> int | None:
    """Which paragraph of the page a passage is counted in (1-based, -1 the last); None when
    it is not counted by paragraphs ("the word 'x'", "the middle paragraph")."""
    counted = passage.within if passage.within is not None else passage
    if counted.unit != "paragraph" or counted.nth is None or counted.nth == 0:
        return None
    return counted.nth


def counted_from(passage: Passage, above: int) -> Passage:
    """The passage counted in what is in view, `above` paragraphs having gone by above it
    ("the fourth paragraph" is the second in view when two went by)."""
    nth = paragraph_nth(passage)
    if nth is None or nth < 0 or not above:
        return passage
    if passage.within is not None:
        return replace(passage, within=replace(passage.within, nth=nth - above))
    return replace(passage, nth=nth - above)


def paragraph_spans(screen: Screen, task: str = "") -> list[tuple[int, int]]:
    """The tops and bottoms of the main text's paragraphs in view, top first: what a
    paragraph's number counts."""
    blocks = _blocks(screen, task)
    if not blocks:
        return []
    spans = [
        (b.places[0][2], b.places[-1][4]) for b in _counted(blocks, max(blocks, key=_mainness))
    ]
    return sorted(spans)


def _under(blocks: list[_Block], main: _Block, heading: str) -> list[_Block]:
    """The blocks of the main text's column under the heading that says `heading`, down to
    the next heading; [] when no such heading is in view."""
    left = main.places[0][0]
    column = [b for b in blocks if abs(b.places[0][0] - left) <= max(2 * main.letter, 8)]
    at = next((i for i, b in enumerate(column) if _heading(b, main)
               and text_similarity(heading, b.text.replace("\n", " ")) >= SAID), None)  # fmt: skip
    if at is None:
        return []
    end = next((i for i in range(at + 1, len(column)) if _heading(column[i], main)), len(column))
    return column[at + 1 : end]


def _heading(block: _Block, main: _Block) -> bool:
    """Whether a block is a heading of the main text: a few words, not a paragraph, set
    larger or bolder."""
    if block is main or _paragraph(block, main) or len(block.text.split()) > HEADING_WORDS:
        return False
    (size, ink), (main_size, main_ink) = block.face, main.face
    return size > BIGGER * main_size or ink > BOLDER * main_ink


HEADING_WORDS = 8
BIGGER, BOLDER = 1.15, 1.25
"""How much larger or bolder than the main text a heading's letters are."""
SAID = 85.0
"""Similarity at which a heading says the words a task names it by."""


def _counted(blocks: list[_Block], main: _Block) -> list[_Block]:
    return [b for b in blocks if b is main or _paragraph(b, main)]


def _mainness(block: _Block) -> tuple[bool, int, int, int]:
    """The main text is prose, in the largest box that holds text (an editor's page, not the
    warning bar over it), and has the most words."""
    room = block.holder.area if block.holder is not None else 0
    words = len(block.text.split())
    return words >= PROSE, room, words, block.text.count("\n")  # not a grip read as "A"


def _paragraph(block: _Block, main: _Block) -> bool:
    """Whether a block is a paragraph of the main text: in its column (not a sidebar, a
    quote set in) and its box (not a warning bar), of a few words at least, and, when it is
    one line with no end mark, one text set as the main text is (a heading is larger or
    bolder, a byline smaller, a menu several texts)."""
    left, _, top, _, bottom = block.places[0]
    if abs(left - main.places[0][0]) > max((bottom - top) / 2, 4):  # a quote is set in
        return False
    if block.holder != main.holder:  # a bar or a card of its own: a warning, a notice
        return False
    if len(block.text.split()) < PROSE:
        return False
    (size, ink), (main_size, main_ink) = block.face, main.face
    if size > LARGER * main_size:  # a heading, even one wrapped over two lines
        return False
    if "\n" in block.text or block.text.rstrip()[-1:] in ".!?:;\"'”’)":
        return True
    return (
        block.items == 1
        and abs(size - main_size) <= 0.1 * main_size
        and abs(ink - main_ink) <= 0.15 * main_ink
    )


def _inked(screen: Screen, blocks: list[_Block], passage: Passage) -> Span | None:
    """The first run of text in the colour the passage names ("the green words", "the bit
    highlighted in pink"), from the pixels of each line of the blocks: the columns whose share
    in that colour (the letters' strokes, or a highlight's band behind them) is high, joined
    across the gaps between words; None when the passage names more than a colour or no text
    has it. A run that ends a line and starts the next goes on."""
    said = [w for w in passage.words.lower().split() if w not in INK_FILLERS]
    colour = palette().name_in(" ".join(said))
    if colour is None or colour[2] - colour[1] != len(said):
        return None
    called = palette().called_where(screen.frame.pixels, colour[0], nearest=True)
    found: Span | None = None
    for block in blocks:
        if len(block.text.split()) < PROSE:  # a toolbar's glyph, a label: no text to select
            continue
        for start, end in _lines(block.text):
            (left, _, top, middle, bottom), right = block.places[start], block.places[end - 1][1]
            if right <= left:
                continue
            columns = called[top:bottom, left:right].mean(axis=0) >= INKED
            runs = [(a + left, b + left) for a, b in _joined(ink_runs(columns), block.letter)
                    if b - a >= 2 * block.letter]  # fmt: skip
            if found is not None:  # the run went on past the line's end
                if not runs or runs[0][0] - left > block.letter:
                    return found
                a, b = runs[0]
                more = _words_between(block, start, end, a, b)
                return Span(f"{found.text} {more}".strip(), found.start, (b, middle))
            if runs:
                a, b = runs[0]
                found = Span(_words_between(block, start, end, a, b), (a + 1, middle), (b, middle))
                if right - b > block.letter:
                    return found
    return found


def _joined(runs: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    """Runs of columns with the gaps of at most `gap` between them closed (the spaces between
    words)."""
    joined: list[tuple[int, int]] = []
    for a, b in runs:
        if joined and a - joined[-1][1] <= gap:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined


def _words_between(block: _Block, start: int, end: int, a: int, b: int) -> str:
    """The words of a line (`start` to `end` in the block's text) whose middles, as placed
    along it, are between `a` and `b`."""
    words = [m for m in re.finditer(r"\S+", block.text[start:end])
             if a <= (block.places[start + m.start()][0] + block.places[start + m.end() - 1][1])
             // 2 <= b]  # fmt: skip
    return " ".join(m[0] for m in words)


def _lines(text: str) -> list[tuple[int, int]]:
    """Where each line of a block's text starts and ends."""
    spans, at = [], 0
    for line in text.split("\n"):
        if line:
            spans.append((at, at + len(line)))
        at += len(line) + 1
    return spans


def _located(blocks: list[_Block], start: int, end: int) -> Span:
    """The span from `start` to `end` of the blocks' text joined by blank lines."""
    offsets, at = [], 0
    for block in blocks:
        offsets.append(at)
        at += len(block.text) + 2
    first = max(i for i, o in enumerate(offsets) if o <= start)
    last = max(i for i, o in enumerate(offsets) if o < end)
    a, b = blocks[first], blocks[last]
    if first == last:
        return a.span(start - offsets[first], end - offsets[first])
    head = a.span(start - offsets[first], len(a.text))
    tail = b.span(0, min(end - offsets[last], len(b.text)))
    return Span(head.text + "\n\n" + tail.text, head.start, tail.end)


def _blocks(screen: Screen, task: str) -> list[_Block]:
    """The screen's blocks of text, less those that only show the task, and prose before
    lists of "label: value" lines."""
    said = normalize(task)
    parts: list[list[list[Element]]] = []
    for lines in text_blocks(screen):
        if parts and _goes_on(parts[-1], lines, screen.frame.pixels):
            parts[-1] = parts[-1] + lines
        else:
            parts.append(lines)
    holders = [e for e in screen.elements if e.kind in ("container", "input")]
    boxes = {e.id: e.box for e in holders}
    blocks = []
    for lines in parts:
        held = holder(holders, lines[0][0])
        blocks.append(_placed(lines, screen.frame.pixels, None if held is None else boxes[held]))
    blocks = [b for b in blocks if not (said and len(b.text.split()) >= ECHO_WORDS
                                        and echoes(b.text, said, ""))]  # fmt: skip
    return [b for b in blocks if is_prose(b.text)] or blocks


def _goes_on(above: list[list[Element]], lines: list[list[Element]], pixels: np.ndarray) -> bool:
    """Whether a block is the rest of the one above it, parted from it only where OCR missed
    a line: in the same column, within three lines, with ink between them where that line
    is (a paragraph's margin is blank)."""
    last, first = above[-1][0], lines[0][0]
    if abs(first.box.x - last.box.x) > max(last.box.h / 2, 4):
        return False
    if not 0 < first.box.y - last.box.bottom < 3 * last.box.h:
        return False
    right = max(e.box.right for line in (*above, *lines) for e in line)
    margin = last.box.h // 4  # the letters' tails above and below
    band = pixels[last.box.bottom + margin : first.box.y - margin, max(last.box.x, 0) : right, :3]
    if band.shape[0] < 3 or band.size == 0:
        return False
    page = np.median(band.reshape(-1, 3), axis=0)
    inked = (np.abs(band.astype(np.int16) - page).sum(axis=2) > INK).sum(axis=1)
    return int((inked > band.shape[1] // 10).sum()) >= max(3, last.box.h // 4)


def _advance(char: str) -> float:
    """How wide a character is against an average one, in the proportional fonts text is
    set in ("ill" is narrower than "mow"): placing characters by it misses a word's start
    by less than a letter on long lines."""
    for chars, width in _ADVANCES:
        if char in chars:
            return width
    return 1.25 if char.isupper() else 1.0


def _placed(lines: list[list[Element]], pixels: np.ndarray, held: Box | None) -> _Block:
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
            weights = [_advance(c) for c in said]
            step, at = box.w / max(sum(weights), 1e-6), float(box.x)
            for weight in weights:
                places.append((round(at), round(at + weight * step), *band))
                at += weight * step
            text.append(said)
    widest = max(lines[0], key=lambda e: e.box.w).box
    return _Block("".join(text), tuple(places), pixels, widest, len(lines[0]), held)
