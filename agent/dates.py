"""Dates as people write them and as screens show them ("3 October", "05/14/2024", "Oct 3,
2026"): read into one value, so a row dated one way is found by a date said another."""

from __future__ import annotations

import datetime as dt
import re

from clickwright.agent.lexicon import lexicon, words_of

__all__ = ["date_in", "minutes_in", "month", "months_in", "parse_date", "same_day"]


def parse_date(text: str) -> dt.date | None:
    """A date written as 2025-03-14, 14/02/2025, 05/14/2024, "the 1st of June 2025", "June 1,
    2025" or "1 June 2025"; None for anything else."""
    lex = lexicon()
    text = text.strip()
    if m := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text):
        return _date(int(m[1]), int(m[2]), int(m[3]))
    if m := re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})", text):
        a, b, year = int(m[1]), int(m[2]), int(m[3])
        year += 2000 if year < 100 else 0
        day_first = a > 12 or (b <= 12 and lex.day_first)
        return _date(year, b, a) if day_first else _date(year, a, b)
    words = words_of(text)
    months = [i for i, w in enumerate(words) if month(w)]
    numbers = [(i, int(re.sub(r"\D", "", w))) for i, w in enumerate(words)
               if re.fullmatch(r"\d{1,4}(?:st|nd|rd|th)?", w)]  # fmt: skip
    ordinals = [(i, lex.ordinals.index(w) + 1) for i, w in enumerate(words) if w in lex.ordinals]
    if not months:
        return None
    said = month(words[months[0]])
    years = [n for _, n in numbers if n > 31]
    days = [n for _, n in numbers if n <= 31] + [n for _, n in ordinals]
    if not days or said is None:
        return None
    year = years[0] if years else dt.date.today().year
    return _date(year, said, days[0])


def month(word: str) -> int | None:
    """1-12 for a month's name or its abbreviation."""
    lex = lexicon()
    word = re.sub(r"[^a-z]", "", word.lower())
    if word in lex.months:
        return lex.months.index(word) + 1
    if word in lex.month_abbreviations:
        return lex.month_abbreviations.index(word) + 1
    return None


def _date(year: int, number: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, number, day)
    except ValueError:
        return None


_SHOWN_DATE = re.compile(
    r"[A-Z][a-z]{2,8}\.? \d{1,2},? \d{4}|(?<![\d#])\d{1,2} [A-Z][a-z]{2,8}\.?,? \d{4}"
    r"|[A-Z][a-z]{2,8}\.? \d{1,2}\b|(?<![\d#])\d{1,2} [A-Z][a-z]{2,8}\b"
    r"|\d{4}-\d{2}-\d{2}|(?<!\d)\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
)


def date_in(text: str) -> dt.date | None:
    """The first date a text shows ("Placed Oct 3, 2026", "due 2026-10-03"), or None."""
    for start in range(len(text)):  # overlapping: "Due 14 March" is no month called Due
        m = _SHOWN_DATE.match(text, start)
        if m is not None and (date := parse_date(m[0])) is not None:
            return date
    return None


def same_day(seen: dt.date | None, wanted: dt.date, year_said: bool = True) -> bool:
    """The same day; a date said without its year matches that day in any year."""
    if seen is None:
        return False
    return seen == wanted if year_said else (seen.month, seen.day) == (wanted.month, wanted.day)


def months_in(text: str) -> set[int]:
    """The months a text names or shows as numbers beside a year ("invoice-2026-03.pdf",
    "03/2026", "March report"): how "the invoice from March" finds its file."""
    found = {n for w in words_of(text) if (n := month(w)) is not None and len(w) >= 3}
    for m in re.finditer(r"(?<!\d)(?:(?:19|20)\d\d[-_./](\d{1,2})|(\d{1,2})[-_./](?:19|20)\d\d)"
                         r"(?!\d)", text):  # fmt: skip
        number = int(m[1] or m[2])
        if 1 <= number <= 12:
            found.add(number)
    return found


NAMED_TIMES = {"noon": (12, 0), "midday": (12, 0), "midnight": (0, 0)}
_TIME = r"(\d{1,2})(?::(\d{2})|\.(\d{2})(?=\s*[ap]\.?\s*m))?\s*(?:([ap])\.?\s*m?\.?)?"
"""9:05, 8pm, 7:30 PM, 2.30pm (a dot only before am or pm: 2.30 alone is a number)."""


def time_of_day(text: str, bare: bool = False) -> tuple[int, int] | None:
    """The time of day a text is, as (hour, minute) on 24 hours ("9:05", "8pm", "7:30 PM",
    "noon"); a bare hour ("12") only when `bare` (a table's "before 12")."""
    word = text.strip().lower()
    if word in NAMED_TIMES:
        return NAMED_TIMES[word]
    m = re.fullmatch(_TIME, word)
    if m is None or (not bare and m[2] is None and m[4] is None):
        return None
    hour, minute = int(m[1]), int(m[2] or m[3] or 0)
    if m[4]:
        hour = hour % 12 + (12 if m[4] == "p" else 0)
    return (hour, minute) if hour < 24 and minute < 60 or (hour, minute) == (24, 0) else None


def times_in(text: str, bare: bool = False) -> list[tuple[int, int]]:
    """Every time of day a longer text shows ("Thursday 16:00", "2 pm - 4 pm"); bare hours
    too when `bare` ("08-12")."""
    found = (time_of_day(m[0].strip(), bare)
             for m in re.finditer(rf"(?<![\d:.]){_TIME}(?![\d:])", text, re.I))  # fmt: skip
    return [t for t in found if t is not None]


_SPAN = re.compile(r"(?:(?P<half>half an? hour)|(?P<quarter>(?:a )?quarter of an hour)|"
                   r"(?P<n>[\w.-]+)(?: and a half)? (?P<unit>minutes?|mins?|hours?|hrs?|h)\b)",
                   re.I)  # fmt: skip


def minutes_in(text: str) -> tuple[int, int] | None:
    """How long the span of time a text says is, in minutes ("half an hour" 30, "an hour"
    60, "15 minutes", "1.5 hours", "an hour and a half" 90), and where in the text it starts;
    None when it says none."""
    for m in _SPAN.finditer(text):
        if m["half"]:
            return 30, m.start()
        if m["quarter"]:
            return 15, m.start()
        word = m["n"].lower()
        count = 1.0 if word in ("a", "an", "one") else lexicon().number(word)
        if count is None:
            continue
        if "and a half" in m[0].lower() or text[m.end() :].lower().startswith(" and a half"):
            count += 0.5  # "one and a half hours", "an hour and a half"
        return round(count * (60 if m["unit"].lower().startswith("h") else 1)), m.start()
    return None
