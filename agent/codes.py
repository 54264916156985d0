"""Codes a page shows for a person to use elsewhere ("use the discount code from the banner":
"… 15% off with code MIDSOMMER15"): read off the screen, not typed from the task's words.

A code is one token of capitals and digits (OCR may read one capital small). One in capitals
alone ("SALE", "NEW") is a code only where a word such as "code" or "coupon" comes right before
it; one that mixes letters and digits is a code anywhere, after such a word first.
"""

from __future__ import annotations

import re

from clickwright.agent.grounding import text_lines
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.types import Screen

__all__ = ["is_code_phrase", "shown_code"]

_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9][A-Za-z0-9-]{3,23}(?![\w-])")
SLIPS = 1
"""Small letters a code read by OCR may show (MIDsOMMER15): a code is in capitals."""
_SAID_WHERE = ("from", "in", "on", "off", "at", "shown", "given", "inside")


def _head(description: str) -> list[str]:
    """The words before where the phrase says the code is ("discount code" of "the discount
    code from the banner at the top")."""
    words = words_of(description)
    cut = next((i for i, w in enumerate(words) if w in _SAID_WHERE), len(words))
    return words[:cut]


def is_code_phrase(description: str) -> bool:
    """Whether the phrase names a code shown somewhere ("the code from the email"; not "the
    code SAVE10", which gives it)."""
    head = _head(description)
    return len(head) < len(words_of(description)) and bool(set(head) & lexicon().code_nouns)


def shown_code(screen: Screen, description: str) -> str | None:
    """The code `description` names: of the codes the screen's lines show, one a code word
    introduces first, then the one nearest the end of the screen the phrase names ("at the
    top", "in the footer")."""
    if not is_code_phrase(description):
        return None
    cues = set(lexicon().code_nouns)
    found: list[tuple[int, float, str]] = []
    for line in text_lines(screen):
        text = " ".join(e.text for e in line)
        y = line[0].box.center[1]
        for m in _TOKEN.finditer(text):
            token = m[0].strip("-")
            small = sum(c.islower() for c in token)
            if small > SLIPS or not any(c.isupper() for c in token):
                continue
            cued = bool(cues & set(words_of(text[: m.start()])[-2:]))
            mixed = any(c.isdigit() for c in token)
            if cued or mixed:
                found.append((0 if cued else 1, y, token.upper()))
    if not found:
        return None
    said = set(words_of(description))
    height = max((e.box.bottom for e in screen.elements), default=1)
    if said & {"bottom", "footer", "below", "end"}:
        found = [(cue, height - y, token) for cue, y, token in found]
    elif not said & {"top", "banner", "header", "above"}:
        found = [(cue, 0.0, token) for cue, _, token in found]
    return min(found)[2]
