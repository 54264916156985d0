"""A week's view (a calendar, a rota, a timetable): columns headed by the days of the week and
blocks in them. "the red event on thursday", "the dentist on wednesday", "the meeting right
after my lunch on tuesday" name one block as a person finds it: the day's column, then the
block's colour, its words, or its place after another."""

from __future__ import annotations

import re

from clickwright.agent.grounding import showing_words, shows_words
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.parsers.colours import backdrop, palette
from clickwright.types import Element, Screen

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?"
_ON_DAY = re.compile(rf"\s*(?:,\s*)?\b(?:on|from|for)\s+(?:the\s+)?(?P<day>{_DAY})\b|"
                     rf"\b(?P<owner>{_DAY})'s\s+", re.I)  # fmt: skip
_RELATIVE = re.compile(r"\b(?P<how>right after|just after|after|right before|just before|before)"
                       r"\s+(?P<anchor>.+)$", re.I)  # fmt: skip
HEADER_SHARE = 0.3
"""Share of the screen's height the day headers sit in."""


def day_of(word: str) -> str | None:
    """The weekday a word names ("thu", "Thursday", "THU 12"), else None."""
    said = words_of(word)[:1]
    if not said or not re.fullmatch(_DAY, said[0]):
        return None
    return next((d for d in DAYS if d.startswith(said[0][:3])), None)


def day_said(words: str) -> tuple[str, str | None]:
    """The words less the day they name ("the red event on thursday": "the red event",
    thursday)."""
    found = _ON_DAY.search(words)
    if found is None:
        return words, None
    rest = (words[: found.start()] + " " + words[found.end() :]).strip()
    return re.sub(r"\s+", " ", rest), day_of(found["day"] or found["owner"])


def day_columns(screen: Screen) -> dict[str, tuple[int, int]]:
    """The days the screen's column headers name, each with its column's left and right: three
    or more headers in one line near the top ("MON 9", "TUE 10", …)."""
    height = screen.frame.size[1]
    heads = [(d, e) for e in screen.elements if e.box.y < HEADER_SHARE * height
             and (d := day_of(e.text)) is not None and len(words_of(e.text)) <= 3]  # fmt: skip
    for _, head in heads:
        line: dict[str, int] = {}  # each day once ("FRI" over "13" read twice is one column)
        for d, e in sorted(heads, key=lambda p: p[1].box.center[0]):
            if abs(e.box.y - head.box.y) < 12:
                line.setdefault(d, e.box.center[0])
        middles = list(line.values())
        pitch = min((b - a for a, b in zip(middles, middles[1:], strict=False)), default=0)
        if len(line) >= 3 and pitch > 0:
            return {d: (m - pitch // 2, m + pitch // 2) for d, m in line.items()}
    return {}


def block(screen: Screen, words: str) -> Element | None:
    """The block `words` name in a week's view, else None (no day columns, or no such block).
    Its words, its colour, and its place "after" another block, within the day said."""
    columns = day_columns(screen)
    if not columns:
        return None
    rest, day = day_said(words)
    span = columns.get(day) if day else None
    if day and span is None:
        return None
    relative = _RELATIVE.search(rest)
    if relative is not None:
        anchor = block(screen, relative["anchor"] + (f" on {day}" if day else ""))
        if anchor is None:
            return None
        return _next_block(screen, anchor, relative["how"].endswith("before"))
    lex = lexicon()
    said = [w for w in words_of(rest) if w not in lex.block_nouns and w not in lex.determiners]
    colour = palette().name_in(" ".join(said))
    if colour is not None:
        said = said[: colour[1]] + said[colour[2] :]
    blocks = [e for e in _blocks(screen, columns) if span is None or _in(e, span)]
    if said:
        named = [e for e in showing_words(screen, " ".join(said)) if e in blocks]
        if not named and (one := shows_words(screen, " ".join(said))) is not None and one in blocks:
            named = [one]
        blocks = named
    if colour is not None:
        blocks = [e for e in blocks if _colour(screen, e) == colour[0]]
    return blocks[0] if len(blocks) == 1 else None


def _blocks(screen: Screen, columns: dict[str, tuple[int, int]]) -> list[Element]:
    """The first texts of the blocks in the day columns, below their headers: texts drawn on a
    fill of their own (an event's title on its colour, not the grid's hour labels)."""
    top = max(min(e.box.bottom for e in screen.elements if day_of(e.text) is not None
                  and e.box.y < HEADER_SHARE * screen.frame.size[1]), 0)  # fmt: skip
    left, right = min(a for a, _ in columns.values()), max(b for _, b in columns.values())
    texts = [(e, c) for e in screen.elements if e.kind == "text" and e.text.strip()
             and e.box.y > top and left <= e.box.center[0] <= right
             and (c := _colour(screen, e)) is not None]  # fmt: skip
    return [e for e, c in texts if not any(
        o is not e and d == c and abs(o.box.x - e.box.x) < e.box.h
        and -e.box.h // 2 <= e.box.y - o.box.bottom < e.box.h and o.box.y < e.box.y
        for o, d in texts)]  # fmt: skip  # a block's later lines (its times) are not blocks


def _colour(screen: Screen, element: Element) -> str | None:
    """The name of the fill a block's text is drawn on (white and light greys are the grid's)."""
    fill = backdrop(screen.frame.pixels, element.box)
    if max(fill) - min(fill) < 24 and min(fill) > 200:
        return None
    return palette().nearest(fill)


def _in(element: Element, span: tuple[int, int]) -> bool:
    return span[0] <= element.box.center[0] <= span[1]


def _next_block(screen: Screen, anchor: Element, before: bool) -> Element | None:
    """The block just below `anchor` in its column (above, `before`)."""
    columns = day_columns(screen)
    same = [e for e in _blocks(screen, columns) if e is not anchor
            and abs(e.box.x - anchor.box.x) < anchor.box.h]  # fmt: skip
    if before:
        earlier = [e for e in same if e.box.bottom <= anchor.box.y]
        return max(earlier, key=lambda e: e.box.y, default=None)
    later = [e for e in same if e.box.y >= anchor.box.bottom]
    return min(later, key=lambda e: e.box.y, default=None)



def moved(
    screen: Screen, clause: str, what: str, where: str
) -> tuple[Element, tuple[int, int]] | None:
    """ "drag the orange event from tuesday over to wednesday, same time": the block, and the
    point in the other day's column at the same height (the same time); None unless the
    place is a day the screen's columns show."""
    columns = day_columns(screen)
    to = next((d for w in words_of(where) if (d := day_of(w)) is not None), None)
    if to is None or to not in columns:
        return None
    _, said = day_said(clause)
    found = block(screen, f"{what} on {said}" if said and said != to else what)
    if found is None:
        return None
    here = next((d for d, span in columns.items() if _in(found, span)), None)
    if here is None:
        return None
    shift = (columns[to][0] + columns[to][1]) // 2 - (columns[here][0] + columns[here][1]) // 2
    x, y = found.box.center
    return found, (x + shift, y)
