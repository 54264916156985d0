"""Menu bars: a line of short texts across the top of a window ("File Edit View Help").

Drawn flat, with no outline, a menu bar is only words to the widget detector; what gives it
away is what it says. A line of three or more short texts close together, two of them menu
titles (`assets/menus.toml`), is a menu bar: each text is a `menu` to click. There OCR's
one-letter misreadings of a title (the underlined mnemonic of "File" read as "Eile") are
given back their spelling.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clickwright.parsers.fusion import TextBox

LEXICON = Path(__file__).resolve().parents[1] / "assets" / "menus.toml"
MIN_ITEMS = 3
MIN_TITLES = 2  # titles spelled exactly: the others may be corrected
MAX_WORDS = 2
MAX_GAP = 3.0  # in text heights: items farther apart are not one bar


@cache
def titles() -> dict[str, str]:
    """Known menu titles, casefolded -> as written."""
    with LEXICON.open("rb") as file:
        return {title.casefold(): title for title in tomllib.load(file)["titles"]}


def menu_bar(texts: list[TextBox]) -> dict[int, str]:
    """Indices of the texts that are menu bar items -> their (corrected) titles."""
    found: dict[int, str] = {}
    for line in lines_of(texts):
        items = [i for i in line if len(texts[i].text.split()) <= MAX_WORDS]
        if len(items) != len(line) or len(items) < MIN_ITEMS:
            continue
        boxes = [texts[i].box for i in items]
        height = max(b.h for b in boxes)
        if any(b.x - a.right > MAX_GAP * height for a, b in zip(boxes, boxes[1:], strict=False)):
            continue
        known = titles()
        exact = sum(texts[i].text.strip().casefold() in known for i in items)
        if exact >= MIN_TITLES:
            found.update({i: _title(texts[i].text) or texts[i].text for i in items})
    return found


def lines_of(texts: list[TextBox]) -> list[list[int]]:
    """Indices of texts grouped into lines (centres within half a height), left to right."""
    lines: list[list[int]] = []
    for index in sorted(range(len(texts)), key=lambda i: texts[i].box.center[1]):
        box = texts[index].box
        line = lines[-1] if lines else None
        if line and abs(texts[line[0]].box.center[1] - box.center[1]) <= box.h / 2:
            line.append(index)
        else:
            lines.append([index])
    return [sorted(line, key=lambda i: texts[i].box.x) for line in lines]


def _title(text: str) -> str | None:
    """The menu title `text` reads as, allowing one wrong letter in a title of four or more."""
    word = text.strip().casefold()
    known = titles()
    if word in known:
        return known[word]
    for key, title in known.items():
        if len(key) >= 4 and len(key) == len(word):
            if sum(a != b for a, b in zip(key, word, strict=True)) == 1:
                return title
    return None
