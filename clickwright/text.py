"""Matching what a person names against what the screen shows (OCR drops and confuses
characters, so every comparison is fuzzy and case-, accent- and punctuation-insensitive)."""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

VISIBLE = 85.0
"""Similarity at which a named text counts as shown on screen."""


def normalize(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form for matching OCR output."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[‐-―−]", "-", text)  # "51–200" as typed: "51-200"
    text = re.sub(r"[^\w@.+-]+", " ", text.lower())
    return re.sub(r"\s+", " ", text).strip(" .")


LABEL_AND_VALUE = 90.0
"""A text that gives the wanted words as its label, then a value after a colon; or the start
of a long name, cut where its box ends."""
TRUNCATED = 0.5
"""Share of a name a cut-off text must show to stand for it."""


_GLYPH = re.compile(r"^(?:[^\w\s]|[a-z])\s+(?=[A-Z]\w)")


def without_glyph(label: str) -> str:
    """A button's label without the icon before it, read as a mark or a lone small letter
    ("x Delete customer", "* Delete customer" for a bin drawn before the words)."""
    return _GLYPH.sub("", label)


def text_similarity(wanted: str, seen: str) -> float:
    """0-100: how well an element's text matches what the user named."""
    a, b = normalize(wanted), normalize(seen)
    if not a or not b:
        return 0.0
    if a == b:
        return 100.0
    whole = fuzz.ratio(a, b)
    label, colon, _ = seen.partition(":")
    if colon and normalize(label) == a:
        return LABEL_AND_VALUE  # "Address:645 Stephenson Loop" is what "the address" names
    if len(b) >= TRUNCATED * len(a) and len(b) >= 8 and a.startswith(b.removesuffix("...")):
        return LABEL_AND_VALUE  # "Heard Island and McD": a long name cut at its box's edge
    if len(b) > len(a):
        # "Save" inside "Save changes": good, but worse than an exact label.
        whole = max(whole, _inside(a, b) * (0.75 + 0.2 * len(a) / len(b)))
    return float(whole)


_WORD_ENDS = frozenset(" .,;!?")


def _ends_word(text: str, i: int) -> bool:
    """Whether text[i] parts two words: a space, or a stop or comma not inside a number."""
    digits = text[i - 1 : i].isdigit() and text[i + 1 : i + 2].isdigit()
    return text[i] in _WORD_ENDS and not digits


def _inside(a: str, b: str) -> float:
    """How well `a` reads as whole words of the longer `b`: the best partial match widened to
    the words it falls in, so "ok" is not inside "look" nor "euismod" inside "episodes" (a
    stop or a comma ends a word too: OCR drops the space after it, "auctor.Eget")."""
    found = fuzz.partial_ratio_alignment(a, b)
    if found is None:
        return 0.0
    start, end = found.dest_start, found.dest_end
    while start > 0 and not _ends_word(b, start - 1) and a[:1] not in _WORD_ENDS:
        start -= 1
    while end < len(b) and not _ends_word(b, end) and a[-1:] not in _WORD_ENDS:
        end += 1
    return fuzz.ratio(a, b[start:end])


def merged_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of a text (start, end) in order, overlapping ones taken as one."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
