"""A week's view (a calendar, a rota, a timetable): columns headed by the days of the week and
blocks in them. "the red event on thursday", "the dentist on wednesday", "the meeting right
after my lunch on tuesday" name one block as a person finds it: the day's column, then the
block's colour, its words, or its place after another.

A month's view is the same columns cut into a cell per date, each headed by its number: "the
green thing on the 19th", "the 3pm today", "the expense report thing on the 25th" name one of
the entries in a date's cell by its colour (its fill or its dot), its time, or its words (which
a narrow cell cuts short: "Expe…")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clickwright.agent.dates import times_in
from clickwright.agent.grounding import showing_words, shows_words
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.parsers.colours import backdrop, hue_mark, palette
from clickwright.types import Box, Element, Screen

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
    if dates := month_days(screen, columns):
        return _entry(screen, words, dates, columns)
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


# ---- a month's view ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Date:
    """One date's cell of a month's view: its number, the cell, and whether it is today's (its
    number drawn on a colour, as calendars mark today)."""

    number: int
    head: Element
    cell: Box
    today: bool


_NUMBER = re.compile(r"(?P<n>[1-9]|[12]\d|3[01])(?:\s+[A-Za-z]{3,9})?")
_NTH = re.compile(r"\s*(?:,\s*)?\b(?:on|for|from)?\s*(?:the\s+)?(?P<n>[1-9]|[12]\d|3[01])"
                  r"(?:st|nd|rd|th)\b", re.I)  # fmt: skip
_TODAY = re.compile(r"\s*\b(?P<word>today|tomorrow)(?:'s)?\b", re.I)


def month_days(screen: Screen, columns: dict[str, tuple[int, int]]) -> dict[int, Date]:
    """The shown month's dates, by number: the numbers heading the cells under the day
    columns, in reading order, from the first 1 to the last date before the next 1 (the grey
    dates of the months either side are not the month's). Empty when the columns head no
    such grid (a week's view)."""
    titles = [t for d in columns if (t := _day_head(screen, d)) is not None]
    if len(titles) < 5:
        return {}
    pitch = min(b - a for a, b in columns.values())
    top = min(t.box.bottom for t in titles)

    def column(e: Element) -> Element | None:  # numbers set under their day's name
        return next((t for t in titles if abs(e.box.x - t.box.x) < pitch // 4
                     or abs(e.box.center[0] - t.box.center[0]) < pitch // 4), None)  # fmt: skip

    heads = sorted((e for e in screen.elements if e.kind == "text" and e.box.y > top
                    and _NUMBER.fullmatch(e.text.strip()) and column(e) is not None),
                   key=lambda e: (e.box.y, e.box.x))  # fmt: skip
    rows: list[list[Element]] = []
    for head in heads:
        if rows and abs(rows[-1][0].box.y - head.box.y) < head.box.h:
            rows[-1].append(head)
        else:
            rows.append([head])
    rows = [r for r in rows if len(r) >= 3]
    if len(rows) < 3:
        return {}
    tops = [min(e.box.y for e in row) - 4 for row in rows]
    bottoms = [*tops[1:], tops[-1] + (tops[-1] - tops[-2])]
    dates: dict[int, Date] = {}
    started = False
    for row, y, bottom in zip(rows, tops, bottoms, strict=True):
        for head in sorted(row, key=lambda e: e.box.x):
            number = int(_NUMBER.fullmatch(head.text.strip())["n"])  # type: ignore[index]
            if number == 1 and dates:
                return _unread_today(screen, dates)
            started = started or number == 1
            if started:
                x = min(head.box.x, column(head).box.x) - 6  # type: ignore[union-attr]
                cell = Box(x, y, pitch, bottom - y)
                dates[number] = Date(number, head, cell, _saturated(screen, head))
    return _unread_today(screen, dates)


def _unread_today(screen: Screen, dates: dict[int, Date]) -> dict[int, Date]:
    """A date between two read ones whose number was not read (white on today's colour): its
    cell is the one between theirs, today's when a colour marks where its number is."""
    for number in range(2, max(dates, default=0)):
        before, after = dates.get(number - 1), dates.get(number + 1)
        if number in dates or before is None or after is None or before.cell.y != after.cell.y:
            continue
        cell = Box((before.cell.x + after.cell.x) // 2, before.cell.y, before.cell.w,
                   before.cell.h)  # fmt: skip
        mark = Box(cell.x + 4, before.head.box.y - 4, 3 * before.head.box.w // 2 + 8,
                   before.head.box.h + 8)  # fmt: skip
        head = Element(id=-number, box=mark, kind="text", text=str(number))
        today = hue_mark(screen.frame.pixels, mark) is not None
        dates[number] = Date(number, head, cell, today)
    return dates


def _day_head(screen: Screen, day: str) -> Element | None:
    return next((e for e in screen.elements if day_of(e.text) == day
                 and e.box.y < HEADER_SHARE * screen.frame.size[1]), None)  # fmt: skip


def _saturated(screen: Screen, element: Element) -> bool:
    fill = backdrop(screen.frame.pixels, element.box)
    return max(fill) - min(fill) >= 60


def date_said(
    words: str, dates: dict[int, Date], columns: dict[str, tuple[int, int]]
) -> tuple[str, Date | None, bool]:
    """The words less the date they name ("on the 19th", "today", "on friday": this week's),
    the date's cell, and whether a date was said at all."""
    today = next((d for d in dates.values() if d.today), None)
    if (m := _NTH.search(words)) is not None:
        return _less(words, m), dates.get(int(m["n"])), True
    if (m := _TODAY.search(words)) is not None:
        tomorrow = m["word"].lower() == "tomorrow" and today is not None
        date = dates.get(today.number + 1) if tomorrow else today  # type: ignore[union-attr]
        return _less(words, m), date, True
    rest, day = day_said(words)
    if day is None and (bare := next((w for w in words.split() if day_of(w.strip(",."))), None)):
        rest, day = words.replace(bare, " ", 1), day_of(bare.strip(",."))  # "to friday, …"
    if day is None:
        return words, None, False
    if today is None or day not in columns:
        return rest, None, True
    span = columns[day]
    week = [d for d in dates.values() if abs(d.cell.y - today.cell.y) < 4
            and span[0] <= d.cell.center[0] <= span[1]]  # fmt: skip
    return rest, week[0] if week else None, True


def date_words(words: str) -> int:
    """How many words of `words` run up to the end of the date they say (0: none said)."""
    ends = [m.end() for p in (_NTH, _TODAY, _ON_DAY) if (m := p.search(words)) is not None]
    return len(words[: min(ends)].split()) if ends else 0


def _less(words: str, m: re.Match[str]) -> str:
    return re.sub(r"\s+", " ", words[: m.start()] + " " + words[m.end() :]).strip()


def _entry(
    screen: Screen, words: str, dates: dict[int, Date], columns: dict[str, tuple[int, int]]
) -> Element | None:
    """The entry of a date's cell the words name: of the entries there (all the month's when no
    date is said), those whose time, colour and words agree with what is said."""
    rest, date, said_date = date_said(words, dates, columns)
    if said_date and date is None:
        return None
    cells = [date] if date is not None else list(dates.values())
    entries = [(e, d) for d in cells for e in screen.elements if e.kind != "container"
               and e.text.strip() and e is not d.head and d.cell.contains(e.box, slack=2)
               and e.box.y >= d.head.box.bottom - 2]  # fmt: skip
    times = times_in(rest)
    if times:
        hour, minute = times[0]
        entries = [(e, d) for e, d in entries if f"{hour:02d}:{minute:02d}" in e.text]
        rest = re.sub(r"\b(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?(?=\s|$)",
                      " ", rest, flags=re.I)  # fmt: skip
    lex = lexicon()
    said = [w for w in words_of(rest) if w not in lex.block_nouns and w not in lex.determiners]
    colour = palette().name_in(" ".join(said))
    if colour is not None:
        said = said[: colour[1]] + said[colour[2] :]
        entries = [(e, d) for e, d in entries if _entry_colour(screen, e) == colour[0]]
    if said:
        entries = [(e, d) for e, d in entries if _cut_short_of(e.text, said)]
    return entries[0][0] if len(entries) == 1 else None


def _entry_colour(screen: Screen, entry: Element) -> str | None:
    """An entry's colour: its fill, else the dot before its words."""
    if (fill := _colour(screen, entry)) is not None:
        return fill
    h = entry.box.h
    for dot in (Box(entry.box.x, entry.box.y, h, h), Box(entry.box.x - h, entry.box.y, h, h)):
        if (mark := hue_mark(screen.frame.pixels, dot)) is not None:
            return palette().nearest(mark)
    return None


def _cut_short_of(text: str, said: list[str]) -> bool:
    """Whether an entry's words are the said words, or their start cut short by a narrow
    cell ("15:30 Expe…" of "expense report")."""
    shown = [w.strip(".…") for w in words_of(re.sub(r"\d{1,2}[:.]\d{2}", " ", text))]
    shown = [w for w in shown if any(c.isalpha() for c in w)]
    if not shown:
        return False
    if all(any(w.startswith(s) or s.startswith(w) for s in said) for w in shown[:-1]):
        last = shown[-1]
        least = 1 if len(shown) > 1 else 3  # "Car S…" of "car service"; "Expe…" alone
        return len(last) >= least and any(w.startswith(last) for w in said)
    return False


_DAY_OF = re.compile(r"(?:the )?(?:day of|same day as|date of) (?P<what>.+)", re.I)
_MONTH_YEAR = re.compile(r"\b(?P<month>[A-Z][a-z]{2,8}) (?P<year>\d{4})\b")


def redated(screen: Screen, what: str, where: str) -> tuple[Element, str] | None:
    """ "move the dentist to friday", "… to the day of dad's birthday": in a month's view, the
    entry and the date it goes to, written out ("13 March 2026") from the date's cell and the
    month the view's title shows; None unless both are found."""
    columns = day_columns(screen)
    dates = month_days(screen, columns) if columns else {}
    found = _entry(screen, what, dates, columns) if dates else None
    if found is None:
        return None
    to: Date | None
    if (other := _DAY_OF.match(where.strip())) is not None:
        anchor = _entry(screen, re.split(r",| at ", other["what"])[0], dates, columns)
        to = next((d for d in dates.values() if anchor and d.cell.contains(anchor.box, slack=2)),
                  None)  # fmt: skip
    else:
        _, to, _ = date_said(where, dates, columns)
    titles = [m for e in screen.elements if (m := _MONTH_YEAR.search(e.text))
              and e.box.y < HEADER_SHARE * screen.frame.size[1]]  # fmt: skip
    if to is None or not titles:
        return None
    return found, f"{to.number} {titles[0]['month']} {titles[0]['year']}"
