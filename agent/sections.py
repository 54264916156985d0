"""A page's side navigation (a settings site's "Overview, Wi-Fi, Devices, …" column): the
sections a task's words name, so that the control it means is looked for where it lives."""

from __future__ import annotations

import re

from clickwright.agent.lexicon import lexicon, words_of
from clickwright.text import normalize, text_similarity
from clickwright.types import Element, Screen

NAV_SHARE = 0.4
"""Share of the screen's width a side navigation's entries end within (200 % doubles it)."""
TOP_BAR = 0.12
"""Share of the screen's height a site's header sits in: no section entries there."""
MIN_ENTRIES = 3
STACKED = 3.0
"""Line heights at most between two entries of one column."""
ALIGNED = 2.0
"""Line heights the left edges of one column's entries stay within (an icon read with one)."""
CONTROLS = ("input", "combo", "checkbox", "radio", "toggle", "slider", "spinbox")
"""What stands on a form label's row, and never on a navigation entry's."""
_ENTRY = re.compile(r"[^\W\d_]{2}[\w&'’ -]*", re.U)
_ICON = re.compile(r"^\S\s+(?=[A-Z])")
"""An icon OCR read as a mark or a letter before an entry's words."""
SAME_WORD = 85.0
HEADING = 1.2
"""How much taller than a navigation entry's words a page's heading is drawn."""


def side_nav(screen: Screen) -> list[Element]:
    """The entries of the page's side navigation, top to bottom: the leftmost column of three
    short labels or more, stacked line under line, with the page's content on their right
    and no control on their rows (a form's labels have their fields there)."""
    width, height = screen.frame.size
    entries = sorted(
        (e for e in screen.elements if _entry(e, width, height)), key=lambda e: e.box.y
    )
    columns: list[list[Element]] = []
    for entry in entries:
        column = next((c for c in columns if _under(c[-1], entry)), None)
        if column is None:
            columns.append([entry])
        else:
            column.append(entry)
    columns = [c for c in columns if len(c) >= MIN_ENTRIES and not _labels_fields(screen, c)]
    if not columns:
        return []
    column = min(columns, key=lambda c: sum(e.box.x for e in c) / len(c))
    right = max(e.box.right for e in column)
    if not any(e.box.x > right for e in screen.elements):
        return []  # a page that is one column of words: a list, not a navigation
    return column


def section_for(words: str, entries: list[Element]) -> Element | None:
    """The entry the words name: the one matching their earliest word ("guest wifi": Guest
    network, not Wi-Fi; a modifier says more than the noun after it)."""
    lex = lexicon()
    quiet = lex.determiners | lex.relatives | lex.relative_fillers
    said = [w for w in words_of(words) if len(w) > 2 and w not in quiet]
    for word in said:
        named = [e for e in entries if any(_same(word, shown) for shown in words_of(label(e)))]
        if named:
            return named[0]
    return None


def _same(word: str, shown: str) -> bool:
    """One word, read past hyphens and a plural ("wifi": Wi-Fi, "device": Devices)."""
    a, b = (re.sub(r"[^\w]", "", w).removesuffix("s") for w in (word, shown))
    return a == b or (min(len(a), len(b)) >= 5 and text_similarity(a, b) >= SAME_WORD)


def is_open(screen: Screen, entry: Element, entries: list[Element]) -> bool:
    """Whether the entry's section shows: its name as the page's heading, larger than the
    entry's words (a card that merely mentions it is no heading)."""
    name = label(entry)
    return "selected" in entry.state or any(
        not _in_nav(e, entries)
        and e.box.h >= HEADING * entry.box.h
        and text_similarity(name, label(e)) >= SAME_WORD
        for e in screen.elements
        if e.kind == "text"
    )


def _in_nav(element: Element, entries: list[Element]) -> bool:
    """One of the entries, or a row drawn round one (or a word inside one)."""
    return any(element.box.intersection(e.box) > 0 for e in entries)


def tour(entries: list[Element]) -> list[Element]:
    """The entries a look through the sections may open: none that leaves the site."""
    exits = lexicon().exits
    return [e for e in entries if normalize(label(e)) not in exits]


def label(element: Element) -> str:
    """Its words, less an icon OCR read as a mark or a letter before them ("Δ Overview")."""
    return _ICON.sub("", element.text.strip() or element.name.strip())


def _entry(element: Element, width: int, height: int) -> bool:
    name = label(element)
    return (
        element.kind not in ("container", "icon", "checkbox", "radio", "toggle")
        and bool(name)
        and len(name.split()) <= 3
        and _ENTRY.fullmatch(name) is not None
        and element.box.right <= NAV_SHARE * width
        and element.box.y > TOP_BAR * height
    )


def _under(above: Element, entry: Element) -> bool:
    line = max(above.box.h, entry.box.h)
    gap = entry.box.y - above.box.bottom
    return -line / 2 <= gap <= STACKED * line and abs(entry.box.x - above.box.x) <= ALIGNED * line


def _labels_fields(screen: Screen, column: list[Element]) -> bool:
    """Whether half the column's words have a control on their row, right of them."""
    labelled = 0
    for entry in column:
        middle = entry.box.center[1]
        labelled += any(
            e.kind in CONTROLS
            and e.box.x >= entry.box.right - 2
            and e.box.y <= middle <= e.box.bottom
            and e.box.x - entry.box.right <= 12 * entry.box.h
            for e in screen.elements
        )
    return 2 * labelled >= len(column)


def shown_outside(screen: Screen, words: str, entries: list[Element]) -> bool:
    """Whether the words name something on the page besides its navigation."""
    return any(
        not _in_nav(e, entries) and text_similarity(words, label(e)) >= SAME_WORD
        for e in screen.elements
        if label(e)
    )


__all__ = ["is_open", "label", "section_for", "shown_outside", "side_nav", "tour"]
