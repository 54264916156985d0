"""Offline grounding: a target described in words -> ranked elements on the parsed screen.

Text is matched fuzzily (OCR drops and confuses characters); the kind the user named, whether
an element can be acted on, and whether it just appeared break ties. An input is found by its
label: the element's `name` from fusion, or the nearest input right of or below a matching text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from rapidfuzz import fuzz

from clickwright.agent.dates import date_in, month, months_in, parse_date, same_day
from clickwright.agent.lexicon import lexicon, phrase_at, words_of
from clickwright.errors import StepFailed
from clickwright.parsers.colours import colour_of, flat_fill, hue_mark, painted, palette
from clickwright.parsers.fusion import MARKED_WORD
from clickwright.parsers.icons import default_namer
from clickwright.parsers.links import is_link
from clickwright.parsers.shapes import SHAPE_NAMES
from clickwright.text import normalize, text_similarity
from clickwright.types import Box, Element, Screen

MIN_SCORE = 62.0
ECHO_KINDS = frozenset({"text", "link", "list_item", "container"})
"""What can be the task itself shown on the screen; a control with the task's words (a box
labelled "Travel insurance" for "…with travel insurance") is what the task names."""
KIND_FAMILIES: dict[str, frozenset[str]] = {
    "input": frozenset({"input", "combo"}),
    "combo": frozenset({"combo", "input", "list_item"}),
    "checkbox": frozenset({"checkbox", "toggle"}),
    "toggle": frozenset({"toggle", "checkbox"}),
    "menu": frozenset({"menu", "menuitem", "button", "text"}),
    "menuitem": frozenset({"menuitem", "menu", "text", "list_item"}),
    "button": frozenset({"button", "link", "icon"}),
    "tab": frozenset({"tab", "button", "text"}),
    "list_item": frozenset({"list_item", "text", "menuitem"}),
    "container": frozenset({"container", "input"}),
}


@dataclass(frozen=True)
class Candidate:
    element: Element
    score: float
    why: str
    part: Box | None = None
    """Where in the element the named words are, when they are a part of its text."""

    @property
    def point(self) -> tuple[int, int]:
        """Where to click: on the named words themselves ("eget" inside an OCR phrase
        "Donec ridiculus eget rhoncus"); on the box of a check box or radio read with its label
        (a check list's row selects when its text is clicked, only its box ticks), and on the
        switch of one (its label is often a plain text, a switch some 1.7 times as wide as
        high); else the element's centre."""
        box = self.element.box
        if self.part is None and self.element.kind in TOGGLE_KINDS and box.w > 3 * box.h:
            across = box.h * (0.85 if self.element.kind == "toggle" else 0.5)
            return (box.x + int(across), box.center[1])
        return (self.part or box).center

    def to_json(self) -> dict[str, object]:
        e = self.element
        return {"id": e.id, "text": e.text or e.name, "kind": e.kind, "score": round(self.score, 1)}


def echoes(text: str, task: str, description: str) -> bool:
    """Whether `text` is the task itself shown on screen (an app that displays the instruction)
    rather than the thing it names: a long text found in the task (given normalized, as it is
    the same for every element) that is not the target as said (a line of the instruction
    is no target however much of it the description repeats)."""
    shown, wanted = normalize(text), normalize(description)
    if _named(shown) == _named(wanted):
        return False  # "The new bike" for "the new bike": the name, its article cut or not
    return (
        len(shown) >= 10
        and (len(shown.split()) >= 3 or len(shown) >= 16)  # a line of words, not "✖ Receipts"
        and fuzz.partial_ratio(shown, task) >= 90
        and (len(shown) > len(wanted) + 3 or fuzz.ratio(shown, wanted) < 90)
    )


def _holds(element: Element, words: list[str]) -> bool:
    """Whether the element shows each of `words` (fuzzily: OCR slips), not just the noun."""
    shown = " ".join(_words_shown(element))
    return all(fuzz.partial_ratio(w, shown) >= HELD for w in words)


def _words_shown(element: Element) -> list[str]:
    return normalize(element.text or element.name).split()


HELD = 80.0
"""Similarity at which a word is among an element's words."""


def _named(text: str) -> list[str]:
    return [w for w in text.split() if w not in lexicon().determiners]


def of_kind(screen: Screen, kind: str | None, nth: int | None = None) -> list[Candidate]:
    """Elements of a kind named without a name ("the text field", "the 3rd input"), in reading
    order; the exact kind first, else its family. `nth` picks one, 1-based, -1 the last."""
    family = KIND_FAMILIES.get(kind or "", frozenset({kind}))
    for kinds in (frozenset({kind}), family):
        found = sorted(
            (e for e in screen.elements if e.kind in kinds),
            key=lambda e: (e.box.y // 8, e.box.x),
        )
        if found:
            break
        if kind == "combo" and (boxes := list_boxes(screen)):  # "the list": a list box
            found = boxes
            break
    if nth is not None:
        found = found[nth - 1 : nth] if nth > 0 else found[-1:]
    return [Candidate(e, 100.0, f"the {nth or 1}. {e.kind} on screen") for e in found]


def list_boxes(screen: Screen) -> list[Element]:
    """Containers holding two or more list rows, in reading order: the list boxes."""
    rows = [e.box for e in screen.elements if e.kind == "list_item"]
    return sorted(
        (e for e in screen.elements if e.kind == "container"
         and sum(e.box.contains(r, slack=2) for r in rows) >= 2),
        key=lambda e: (e.box.y // 8, e.box.x),
    )  # fmt: skip


def rank(
    screen: Screen,
    description: str,
    kind: str | None = None,
    new_since: Screen | None = None,
    near: Box | None = None,
    echo_of: str = "",
) -> list[Candidate]:
    """Candidates for `description`, best first, all above MIN_SCORE.

    `new_since` prefers elements that were not on an earlier screen (the item a menu just
    opened); `near` prefers elements close to a box (the option under an opened combo box);
    texts that merely repeat the task `echo_of` are never candidates.
    """
    found = _by_words(screen, description, kind, new_since, near, echo_of)
    said, lex = description.split(), lexicon()
    if len(said) > 1 and said[-1].lower() in lex.thing_nouns:  # "the cat photo"
        bare = " ".join(said[:-1])
        words = [w for w in _named(normalize(bare)) if lex.ordinal(w) is None
                 and lex.number(w) is None and palette().name_in(w) is None]  # fmt: skip
        found = [c for c in found if _holds(c.element, words)]  # not "Click a photo, …"
        found.sort(key=lambda c: (-(text_similarity(bare, c.element.text or c.element.name)
                                    // 10), -c.score))  # fmt: skip  # "x Receipts" for "the
        # Receipts folder", before a mail's "Receipt for booking …"
        if not found:  # the one that says cat
            shown = _by_words(screen, bare, kind, new_since, near, echo_of)
            found = [c for c in shown if set(words) <= set(_words_shown(c.element))]
    if (colour := palette().name_in(description)) is None or any(
        text_similarity(description, c.element.text or c.element.name) >= SAID_AS_IS for c in found
    ):
        return found  # "select Purple": an option's label, not a colour to look for
    return _in_group(screen, description, _by_colour(screen, description, colour, kind, echo_of)
                     or _by_shade(screen, description, colour, kind, echo_of) or found)


def _in_group(screen: Screen, description: str, found: list[Candidate]) -> list[Candidate]:
    """ "the green highlight swatch": those a label the words name heads on its line (a
    toolbar's "Highlight", right of it and before its next label) first, not the text colours
    before it."""
    said = {w.lower() for w in description.split()}
    labels = [e for e in screen.elements if e.kind in ("text", "link") and e.text.strip()]
    for label in (e for e in labels if normalize(e.text) in said):
        after = [e for e in labels if e is not label and _right_on_line(e.box, label.box)]
        end = min((e.box.x for e in after), default=screen.frame.size[0])
        inside = [c for c in found if _right_on_line(c.element.box, label.box)
                  and c.element.box.x < end]  # fmt: skip
        if inside:
            return inside + [c for c in found if c not in inside]
    return found


def _right_on_line(box: Box, label: Box) -> bool:
    return abs(box.center[1] - label.center[1]) < label.h and box.x >= label.right


SHADE_WAYS = {"dark": 1, "deep": 1, "light": -1, "pale": -1, "bright": -1}
"""A word before a hue that picks, among the things of that hue, the darkest (1) or the
lightest (-1)."""


def _by_shade(
    screen: Screen, description: str, colour: tuple[str, int, int], kind: str | None, echo_of: str
) -> list[Candidate]:
    """ "the dark green swatch" where no swatch is called dark green (a palette's green is
    CSS green, darker than the light green beside it): the darkest of the greens."""
    said, (_, start, end) = description.split(), colour
    way = SHADE_WAYS.get(said[start].lower())
    if way is None or end - start < 2:
        return []
    hue = " ".join(["shades", "of", *said[start + 1 : end]])
    plain = " ".join([*said[:start], hue, *said[end:]])
    if (named := palette().name_in(plain)) is None:
        return []
    found = _by_colour(screen, plain, named, kind, echo_of)

    def lightness(c: Candidate) -> float:
        rgb = colour_of(screen.frame.pixels, c.element.box)
        return float(np.mean(rgb)) if rgb is not None else 128.0

    return sorted(found, key=lambda c: way * lightness(c))


MARK_LINES = 3
"""Line heights a coloured mark (a dot, a flag, a label pill) is at most across."""
SAID_AS_IS = 90.0
"""Similarity at which a colour's words are an element's own text ("Purple", "Red team")."""


def _by_words(
    screen: Screen,
    description: str,
    kind: str | None,
    new_since: Screen | None,
    near: Box | None,
    echo_of: str,
) -> list[Candidate]:
    echo_of = normalize(echo_of)
    old_texts = {normalize(t) for t in new_since.texts()} if new_since is not None else set()
    scored: list[Candidate] = []
    if kind in ("input", "combo", "container"):
        scored.extend(_inputs_by_label(screen, description, kind, echo_of))
    for element in screen.elements:
        if echo_of and (
            (element.kind in ECHO_KINDS and echoes(element.text, echo_of, description))
            or (not element.text and echoes(element.name, echo_of, description))
        ):
            continue  # a line of the instruction, or a box named after one
        similarity = text_similarity(description, element.text)
        if element.kind == "icon" or not element.text:  # an icon is known by its name
            named = lexicon().icon_words.get(description.strip().lower(), description)
            similarity = max(similarity, text_similarity(named, element.name))
        if similarity < MIN_SCORE:
            continue
        score, reasons = similarity, [f"text {similarity:.0f}%"]
        if len(description) > 1 and re.search(rf"\b{re.escape(description)}\b", element.text):
            score += 3  # the same letter case: what the user quoted, exactly
            reasons.append("same case")
        part = _part(element, description) if element.kind in ("text", "link") else None
        if part is not None and kind == "link" and _drawn_as_link(screen, part):
            score += 10
            reasons.append("drawn as a link")
        flat = kind == "button" and element.kind in ("text", "link") and MARKED_WORD.match(
            element.text)  # a toolbar's "⬇ Archive": a button drawn with no outline
        if kind is not None:
            if element.kind == kind or flat:
                score += 8
                reasons.append(f"is a {kind}")
            elif element.kind not in KIND_FAMILIES.get(kind, frozenset({kind})):
                score -= 12
        if element.interactive:
            score += 4
        if new_since is not None and normalize(element.text) not in old_texts:
            score += 10
            reasons.append("just appeared")
        if near is not None:
            score -= min(15.0, _distance(near, element.box) / 40)
        scored.append(Candidate(element, score, ", ".join(reasons), part))
    if not scored and set(words_of(description)) <= lexicon().shape_nouns:
        scored = [Candidate(e, MIN_SCORE, f"a drawn {e.name}") for e in screen.elements
                  if e.kind == "icon" and e.name.rsplit(" ", 1)[-1] in SHAPE_NAMES]  # fmt: skip
    if not scored and kind in (None, "icon", "button") and _icon_word(description):
        unnamed = [e for e in screen.elements if e.kind == "icon" and not (e.name or e.text)]
        if len(unnamed) == 1:  # the star beside it was named, the bin drawn too small was not
            scored = [Candidate(unnamed[0], MIN_SCORE, "the one icon no name was found for")]
    best: dict[int, Candidate] = {}
    for candidate in scored:
        known = best.get(candidate.element.id)
        if known is None or candidate.score > known.score:
            best[candidate.element.id] = candidate
    return sorted(best.values(), key=lambda c: (-c.score, c.element.id))


def _icon_word(description: str) -> bool:
    """Whether `description` is what an icon is called ("trash", "star", "settings")."""
    said = description.strip().lower()
    return lexicon().icon_words.get(said, said) in default_namer().names


def _by_colour(
    screen: Screen, description: str, colour: tuple[str, int, int], kind: str | None, echo_of: str
) -> list[Candidate]:
    """Elements a person would call by the colour named ("the red button", "the grey colored
    box", "all the shades of red"), nearest that colour first; the other words, unless they
    only say what kind of thing it is, name it too when something they name has the colour
    ("the orange folder" is the orange thing when no folder shows it); "the item with the
    green dot" is the text the green mark belongs to."""
    name, start, end = colour
    said = description.split()
    lead = [w.lower() for w in said[:start]]
    if (
        owned := next((i for i, w in enumerate(lead) if w in ("with", "has", "have", "whose")),
                      None)  # fmt: skip
    ) is not None:
        marked = (name, start - owned - 1, end - owned - 1)
        found = _by_colour(screen, " ".join(said[owned + 1 :]), marked, None, echo_of)
        mark_words = {w.lower() for w in said[owned + 1 :]}
        if mark_words & INK_WORDS:  # "whose subject is in red text": the letters' own colour
            return _owners(screen, [m for m in found if m.element.kind == "text"], name)
        worded = [m for m in found if mark_words & WORDED_MARKS and _pill(screen, m.element)]
        marks = worded or [m for m in found if not m.element.text.strip()
                           and m.element.kind != "container"] or _painted(
            screen, name)  # fmt: skip  # (a green photo is no green dot)
        small = MARK_LINES * _line_height(screen)  # a dot or a flag, not a green photo
        marks = [m for m in marks if max(m.element.box.w, m.element.box.h) <= small] or marks
        rows = [m for m in marks if not _in_legend(screen, m.element)]  # not the key's dot
        return _owners(screen, rows or marks, name)
    shades = bool({w.lower() for w in said} & lexicon().shade_words)
    rest = [w for w in said[:start] + said[end:] if w.lower() not in lexicon().colour_nouns]
    pool = rank(screen, " ".join(rest), kind, echo_of=echo_of) if rest else []
    kinds = {f"{w.lower()}{s}" for w in rest for s in ("s", "es")}
    headings = [c for c in pool if normalize(c.element.text) in kinds]  # "FOLDERS" over them
    seen = [(c, _coloured(screen, c.element, name, shades)) for c in pool if c not in headings]
    things = {w.lower().removesuffix("s") for w in rest} - {""}
    ones = {"one", "ones"} & {w.lower() for w in said}  # "the yellow one": a thing, unnamed
    a_thing = things <= lexicon().thing_nouns if things else bool(ones)
    if not any(rgb for _, (rgb, _) in seen) and a_thing and name not in NEUTRALS:
        thin = BAR_SHARE * _line_height(screen)  # "the purple card": its label bar, thinner
        stripes = [m for m in _painted(screen, name)  # than text (not an avatar's disc, nor a
                   if (short := min(m.element.box.w, m.element.box.h)) <= thin  # photo's sea)
                   and STRIPE * short <= max(m.element.box.w, m.element.box.h)
                   <= BAR_SPAN * screen.frame.size[0]]  # fmt: skip  # nor a title bar's band
        if owned := _owners(screen, stripes, name):
            return owned
    if not any(rgb for _, (rgb, _) in seen):
        big = screen.frame.size[0] * screen.frame.size[1] / 4
        task = normalize(echo_of)
        headed = [s for c in pool if (s := section(screen, c.element)) is not None]
        rows = [r.box for r in screen.elements if r.kind == "list_item"]
        anything = [Candidate(e, 70.0 + 8 * (e.kind == kind) + 4 * e.interactive
                              + SECTION_BONUS * any(s.contains(e.box) for s in headed)
                              - ROW_BADGE * (e.kind == "button" and any(
                                  r != e.box and r.contains(e.box) for r in rows)), "")
                    for e in screen.elements if e.box.area < big
                    and not (task and e.kind in ECHO_KINDS
                             and echoes(e.text, task, description))]  # fmt: skip
        seen = [(c, _coloured(screen, c.element, name, shades)) for c in anything]
    found: list[Candidate] = []
    for c, (rgb, filled) in seen:
        if rgb is not None:
            away = palette().distance(rgb, name)
            why = f"{c.why}, {name} ({away:.0f} away{', filled' if filled else ''})"
            found.append(replace(c, score=c.score - away / 5 + 6 * filled, why=why))
    kept: list[Candidate] = []
    for c in sorted(found, key=lambda c: (-c.score, c.element.id)):
        if not any(k.element.box.contains_point(*c.element.box.center) for k in kept):
            kept.append(c)  # a swatch and the outline round it are one thing
    return kept or _owners(screen, _painted(screen, name), name)


def coloured_set(screen: Screen, words: str, every: bool = False) -> list[Element] | None:
    """The things a plural named by a colour is ("both red cards", "every task with a red
    flag", "the other green ones"): each one found, a mark with no words of its own (a dot, a
    flag) standing for the row it belongs to; None when the words name no colour or one
    thing. A count said ("both", "three") must be what the screen shows."""
    lex, said = lexicon(), words_of(words)
    quantified = {"both", "all", "every", "each", "ones", "everyone", "everybody"} & set(said)
    plural = any(w.endswith("s") and w[:-1] in lex.thing_nouns for w in said)
    if not (every or quantified or plural):
        return None
    if palette().name_in(words) is None:
        keyed = _keyed(screen, said)  # "the low priority tasks": the key says low is green
        if keyed is None:
            return None
        words = f"{words} with the {keyed} mark"
    found = rank(screen, words)
    marks = [c for c in found if not c.element.text.strip()]
    marks = [c for c in marks if not _in_legend(screen, c.element)] or marks
    things = [c.element for c in found] if not marks else [
        c.element for c in _owners(screen, marks, "")]  # fmt: skip
    count = _count_said(said[: next((i for i, w in enumerate(said) if w in RELATIVES), len(said))])
    if count is not None and len(things) != count:
        raise StepFailed(f"'{words}' names {count}, the screen shows {len(things)} "
                         f"({', '.join(e.text for e in things) or 'none'})")  # fmt: skip
    return things or None


def _pill(screen: Screen, element: Element) -> bool:
    """Whether `element` is a label with a word of its own on something's line (a green
    "Family" pill on a mail's row): filled with its colour, and no taller than the text it
    belongs to (a button is taller than the words beside it)."""
    if not element.text.strip() or element.kind == "list_item":
        return False
    owner = _owner(screen, element)
    return (
        owner is not None
        and element.box.h <= PILL_HEIGHT * owner.box.h
        and flat_fill(screen.frame.pixels, element.box) is not None
    )


PILL_HEIGHT = 1.3
"""How much taller than its row's text a label may be (a button beside words is half again)."""


def _in_legend(screen: Screen, mark: Element) -> bool:
    """Whether a mark is one of a row of marks close together (a legend, a palette), not the
    mark of one row of a list: another mark of its size on its line, a few sizes away."""
    box, reach = mark.box, LEGEND_REACH * max(mark.box.h, 1)
    return any(e.id != mark.id and not e.text.strip() and abs(e.box.h - box.h) <= box.h / 3
               and abs(e.box.center[1] - box.center[1]) <= box.h / 2
               and 0 < abs(e.box.center[0] - box.center[0]) <= reach
               for e in screen.elements)  # fmt: skip


def _keyed(screen: Screen, said: list[str]) -> str | None:
    """The colour a key on the screen gives one of the words ("Priority: ● high ● medium
    ● low": low is green), or None. A key's entry is a dot in a row of dots with its word
    right after it, or a toggle-like element read with its word, the dot at its left."""
    pixels = screen.frame.pixels
    for mark in screen.elements:
        box = mark.box
        if mark.text.strip():
            if mark.kind not in ("radio", "checkbox") or len(mark.text.split()) > 2:
                continue
            label, rgb = mark, hue_mark(pixels, Box(box.x, box.y, box.h, box.h))
        elif _in_legend(screen, mark):
            right = [e for e in screen.elements if e.kind in OWNER_KINDS and e.text.strip()
                     and abs(e.box.center[1] - box.center[1]) <= max(e.box.h, box.h) / 2
                     and box.x <= e.box.right and e.box.x - box.right <= 2 * box.h]  # fmt: skip
            label = min(right, key=lambda e: (max(0, e.box.x - box.x), e.box.area), default=None)
            rgb = flat_fill(pixels, box)
        else:
            continue
        if label is not None and rgb is not None and set(words_of(label.text)) & set(said):
            return palette().nearest(rgb)
    return None


def _count_said(said: list[str]) -> int | None:
    """How many things words say there are ("both", "the two", "three"); None for no count
    ("a" and "one" name one thing without counting)."""
    return next((int(n) for w in said if _counts(w) and (n := lexicon().number(w)) is not None),
                2 if "both" in said else None)  # fmt: skip


def _counts(word: str) -> bool:
    return word == "both" or (word not in ("a", "an", "one") and lexicon().number(word) is not None)


LEGEND_REACH = 8
"""Mark sizes within which marks on one line are a legend's."""
RELATIVES = frozenset({"with", "that", "which", "who", "having", "has", "have", "whose"})
"""Words after which a description says what its things have, not how many there are."""


def _owners(screen: Screen, marks: list[Candidate], name: str) -> list[Candidate]:
    """What each mark belongs to ("the card with the purple label"), each once, best first."""
    found: dict[int, Candidate] = {}
    for m in marks:
        owner = _owner(screen, m.element)
        if owner is not None and owner.id not in found:
            found[owner.id] = Candidate(owner, m.score, f"{m.why}, its {name} mark")
    return list(found.values())


def _painted(screen: Screen, name: str) -> list[Candidate]:
    """Marks of the colour no parser boxed (a card's label bar, a small dot), outside every
    element that has words of its own (a button's fill, a link's letters) but a row (a flag
    on a mail's row is the row's)."""
    worded = [e for e in screen.elements if e.text.strip() and e.kind != "list_item"]

    def its_own(box: Box, e: Element) -> bool:  # a word's ink, a button's fill, an avatar's
        share = 0.0 if e.kind in ("text", "link") else FILL_SHARE  # disc: not a card's bar
        return e.box.contains(box, slack=2) and box.area >= share * e.box.area

    return [Candidate(Element(-1 - i, box, "icon", name=f"{name} mark"), PAINTED, "painted")
            for i, box in enumerate(painted(screen.frame.pixels, name))
            if not any(its_own(box, e) or box.contains(e.box, slack=1)
                       for e in worded)]  # fmt: skip


PAINTED = 70.0
"""The score of a mark found in the pixels alone."""
FILL_SHARE = 0.25
"""Share of a worded element a painted mark inside it covers to be that element's own fill."""
STRIPE = 3
"""How much longer than thick a painted mark is that gives a card or row its colour (a label
bar along its top, a stripe down its side)."""

NEUTRALS = frozenset({"black", "white", "grey", "silver", "light grey", "dark grey", "beige"})
"""Colours no label bar is given: a grey stripe is a rule or a border."""
BAR_SPAN = 0.3
"""The most of the screen's width a label bar spans (a title bar's or header's band is wider)."""
BAR_SHARE = 0.7
"""The most a label bar is thick, as a share of the screen's usual line of text."""


def _line_height(screen: Screen) -> float:
    """The height of the screen's usual line of text (the median of its texts')."""
    heights = sorted(e.box.h for e in screen.elements if e.kind == "text" and e.text.strip())
    return float(heights[len(heights) // 2]) if heights else 16.0


WORDED_MARKS = frozenset({"label", "labels", "tag", "tags", "badge", "badges", "pill", "pills",
                          "chip", "chips", "status", "category", "categories"})
"""Marks that carry a word of their own (a green "Family" label), unlike a flag or a dot."""
INK_WORDS = frozenset({"text", "letters", "font", "written", "ink", "writing", "lettering"})
"""Words that say the colour is of the letters themselves, not of a mark beside them."""
ROW_BADGE = 4.0
"""What being inside a list's row costs a button named by its colour alone: a row's coloured
pill is its label ("Work"), the blue button is the one under the list ("Archive")."""
SECTION_BONUS = 12.0
"""What being under a heading that names the thing ("FOLDERS" for "the orange folder") is worth
against another thing of that colour elsewhere (a file's orange mark in the list below)."""


def section(screen: Screen, heading: Element) -> Box | None:
    """The part of the screen a heading names: from under it down to the next text set like it
    (as far left, letters as tall), across the screen; None when `heading` is no plain text
    (a button or a row names only itself)."""
    if heading.kind != "text" or not heading.text.strip():
        return None
    box = heading.box
    below = [e.box.y for e in screen.elements if e.kind == "text" and e.box.y > box.bottom
             and abs(e.box.x - box.x) <= box.h and abs(e.box.h - box.h) <= box.h / 4]  # fmt: skip
    end = min(below, default=screen.frame.size[1])
    return Box(0, box.bottom, screen.frame.size[0], max(1, end - box.bottom))


def _coloured(
    screen: Screen, element: Element, name: str, shades: bool
) -> tuple[tuple[int, int, int] | None, bool]:
    """`element`'s colour when a person would call it `name` (or a shade of it), else None;
    and whether it is a fill (a swatch, a button) rather than a word's ink."""
    pixels, box = screen.frame.pixels, element.box
    fill = None if element.kind == "text" else flat_fill(pixels, box)
    mark = hue_mark(pixels, box) if element.kind == "icon" and not element.text.strip() else None
    rgb = fill or mark or colour_of(pixels, box, text=True)  # a flag drawn on a blank icon
    colours = palette()
    if rgb is None or not (colours.shade_of(rgb, name) if shades else colours.called(rgb, name)):
        return None, False
    return rgb, fill is not None


OWNER_KINDS = frozenset({"text", "link", "checkbox", "radio", "toggle", "list_item", "menuitem"})
"""What a mark may belong to: a text, or a row's label read with its box (a task's tick box)."""


def _owner(screen: Screen, mark: Element) -> Element | None:
    """The text a coloured mark belongs to: on its line (the nearest), else the title of the
    card round it, or the caption under the picture it is on."""
    texts = [e for e in screen.elements if e.kind in OWNER_KINDS
             and len(e.text.strip()) > 1 and not e.box.contains(mark.box)]  # fmt: skip
    holders = sorted((e for e in screen.elements if e.kind in HOLDER_KINDS
                      and e.box.area > mark.box.area and e.box.contains(mark.box)
                      and (e.kind != "list_item" or e.text.strip()
                           or any(e.box.contains(t.box, slack=2) for t in texts))),
                     key=lambda e: e.box.area)  # fmt: skip  # (a row round the mark alone is none)
    if holders and holders[0].kind in ("combo", "input") and holders[0].text.strip():
        return holders[0]  # a card read as a field, its title its text: the card
    middle, half = mark.box.center[1], mark.box.h / 2
    level = [e for e in texts if abs(e.box.center[1] - middle) <= max(e.box.h / 2, half)
             and (not holders or holders[0].box.contains(e.box, slack=2))]  # fmt: skip
    if level:  # on its line, in what holds it (not a word on that line across the screen)
        return min(level, key=lambda e: (_distance(mark.box, e.box),
                                          abs(e.box.center[0] - mark.box.center[0])))  # fmt: skip
    for holder in holders:
        if inside := [e for e in texts if holder.box.contains(e.box)]:
            words = [e for e in inside if len(e.text.strip()) > 2] or inside  # not "JL", "3"
            return min(words, key=lambda e: (_distance(mark.box, e.box), -len(e.text)))
        if under := [e for e in texts if _captions(e.box, holder.box)]:
            return min(under, key=lambda e: e.box.y)
    return None


HOLDER_KINDS = frozenset({"container", "list_item", "button", "combo", "input"})
"""What a mark may sit in: a card (read as a box, or as a field with its title), a row."""


def _captions(text: Box, picture: Box) -> bool:
    """Whether `text` is the caption under `picture` (its top may be a pixel into the box)."""
    gap = text.y - picture.bottom
    return -text.h / 2 <= gap <= max(picture.h / 4, 2 * text.h) and (
        picture.x - text.h <= text.x < picture.center[0]
    )


def _part(element: Element, description: str) -> Box | None:
    """The box of the words `description` names inside a longer text, estimated from their
    character positions (OCR gives phrases, not words); None when they are the whole text."""
    text = element.text
    if len(normalize(text)) <= len(normalize(description)) + 1:
        return None
    found = fuzz.partial_ratio_alignment(description.lower(), text.lower())
    if found is None or found.score < 80:
        return None
    start, end = found.dest_start, found.dest_end
    if (colon := text.find(":", end, end + 2)) >= 0 and text[colon + 1 :].strip():
        start, end = colon + 1, len(text)  # "Address: 4 Tucker Av": the address, not its label
    box = element.box
    x0, x1 = box.x + round(box.w * start / len(text)), box.x + round(box.w * end / len(text))
    return Box(x0, box.y, max(1, x1 - x0), box.h)


def _drawn_as_link(screen: Screen, part: Box) -> bool:
    x, y, w, h = part
    return is_link(screen.frame.pixels[y : y + h, x : x + w])


def _inputs_by_label(screen: Screen, label: str, kind: str, echo_of: str) -> list[Candidate]:
    """Inputs named by a label: fusion's `name`, else the nearest field right of or below it."""
    wanted_kinds = KIND_FAMILIES[kind]
    fields = [e for e in screen.elements if e.kind in wanted_kinds]
    found: list[Candidate] = []
    for field in fields:
        similarity = text_similarity(label, field.name)
        if similarity >= MIN_SCORE:
            found.append(Candidate(field, similarity + 12, f"labelled '{field.name}'"))
    for text in screen.elements:
        if text.kind != "text" or text_similarity(label, text.text) < MIN_SCORE:
            continue
        if echo_of and echoes(text.text, echo_of, label):
            continue
        similarity = text_similarity(label, text.text)
        neighbour = _field_beside(text.box, fields)
        if neighbour is not None:
            found.append(Candidate(neighbour, similarity + 8, f"next to label '{text.text}'"))
    return found


def _field_beside(label: Box, fields: list[Element]) -> Element | None:
    """The field on the label's row to its right, else the one just below it."""
    cy = label.y + label.h / 2
    right = [
        f
        for f in fields
        if f.box.y <= cy <= f.box.bottom
        and f.box.x >= label.x + label.w * 0.5
        and f.box.x - label.right < 400
    ]
    if right:
        return min(right, key=lambda f: f.box.x - label.right)
    below = [
        f
        for f in fields
        if 0 <= f.box.y - label.bottom < 60 and f.box.x < label.right and f.box.right > label.x
    ]
    return min(below, key=lambda f: f.box.y - label.bottom) if below else None


def _text_areas(screen: Screen) -> list[Element]:
    """Empty boxes the detector called containers that are text areas: wider than tall,
    holding no real text, with a label right above them or level with them on their left."""
    areas = []
    for box in (e for e in screen.elements if e.kind == "container"):
        inside = [e for e in screen.elements if e is not box and box.box.contains(e.box)]
        noise = all(len(e.text.strip()) <= 2 for e in inside)
        texts = [t for t in screen.elements if t.kind in LABEL_KINDS and t.text.strip()]
        above = any(
            0 <= box.box.y - t.box.bottom < max(30, 2 * t.box.h)
            and abs(t.box.x - box.box.x) < 2 * t.box.h
            for t in texts
        )
        left = _label_beside(box.box, texts)
        labelled = above or (left is not None and left.box.right <= box.box.x)
        if noise and labelled and box.box.w > 3 * box.box.h and box.box.h < 300:
            areas.append(replace(box, kind="input"))
    return areas


def _label_beside(field: Box, texts: list[Element]) -> Element | None:
    """A field's label: the nearest text left of it on its row (or, for a tall text area, level
    with its top or its bottom, as a page's inline label sits), else the one just above it."""
    cy = field.y + field.h / 2
    near = [t for t in texts if 0 <= field.x - t.box.right < 400]
    left = [t for t in near if t.box.y <= cy <= t.box.bottom]
    tall = field.h > 2 * max((t.box.h for t in near), default=field.h)
    level = [
        t for t in near if field.y - 4 <= t.box.y <= t.box.bottom <= field.bottom + t.box.h / 2
    ]
    left = left or (level if tall else [])
    if left:
        return min(left, key=lambda t: field.x - t.box.right)
    above = [
        t
        for t in texts
        if 0 <= field.y - t.box.bottom < max(30, 2 * t.box.h)
        and t.box.x < field.right
        and t.box.right > field.x
    ]
    return min(above, key=lambda t: field.y - t.box.bottom) if above else None


def row_label(screen: Screen, box: Box) -> Element | None:
    """The title of a settings row whose control sits at its far end ("Push notifications"
    … a switch): the topmost text left of the control that overlaps it in height, with no
    other control between them (the row's description comes under its title)."""
    controls = [e for e in screen.elements if e.interactive and e.kind not in LABEL_KINDS]
    level = [t for t in screen.elements if t.kind in LABEL_KINDS and t.text.strip()
             and not VALUE.fullmatch(t.text.strip()) and t.box.right <= box.x
             and t.box.y < box.bottom and t.box.bottom > box.y]  # fmt: skip
    clear = [
        t
        for t in level
        if not any(
            c.box.x >= t.box.right and c.box.right <= box.x
            and c.box.y < box.bottom and c.box.bottom > box.y
            for c in controls
        )
    ]  # fmt: skip
    return min(clear, key=lambda t: (t.box.y, box.x - t.box.right)) if clear else None


def _distance(a: Box, b: Box) -> float:
    dx = max(0, max(a.x - b.right, b.x - a.right))
    dy = max(0, max(a.y - b.bottom, b.y - a.bottom))
    return (dx * dx + dy * dy) ** 0.5


def closest_texts(screen: Screen, description: str, limit: int = 3) -> list[str]:
    """What the screen shows that comes nearest, for a useful 'not found' message."""
    texts = {e.text for e in screen.elements if e.text}
    ranked = sorted(texts, key=lambda t: -text_similarity(description, t))
    return ranked[:limit]


# ---- what a sentence can name on a screen: fields by their labels, and places ------------------

FIELD_KINDS = ("input", "combo")
TOGGLE_KINDS = ("checkbox", "radio", "toggle")
LABEL_KINDS = ("text", "link", "list_item")
VALUE = re.compile(r"[-+$€£]?\s?[\d.,:/-]+\s?%?")
"""A text that is a number, an amount, a date or a time: a value, never a label."""
SELECT_GAP = 40
"""px: a button this close right of a label is a drop-down showing its choice (a web select)."""


@dataclass(frozen=True)
class Field:
    """A control a sentence can name, and the words that name it (its label, or its own text
    for a check box or an option)."""

    element: Element
    label: str


def fields(screen: Screen) -> list[Field]:
    """Every control on the screen with the words that name it: inputs and combo boxes by
    their accessible name or the label beside them, a button just right of a label (a web
    select showing its choice, unless its text is an action such as "Pay"), check boxes, radio
    buttons and toggles by their text."""
    texts = [e for e in screen.elements if e.kind in LABEL_KINDS and e.text.strip()]
    editable = [e for e in screen.elements if e.kind in FIELD_KINDS] + _text_areas(screen)
    selects = [
        b
        for b in screen.elements
        if b.kind == "button"
        and b.text.strip()  # a drop-down shows its choice
        and not lexicon().verb_at("label", words_of(b.text)[:1], 0)  # "Pay" acts, shows nothing
        and any(
            0 <= b.box.x - t.box.right <= SELECT_GAP
            and abs(t.box.center[1] - b.box.center[1]) < b.box.h / 2
            for t in texts
        )
    ]
    found: list[Field] = [Field(e, e.name) for e in editable if e.name]
    words = [t for t in texts if not VALUE.fullmatch(t.text.strip())]
    for field in editable + selects:
        outside = [t for t in words if not field.box.contains(t.box)]
        label = _label_beside(field.box, outside) or row_label(screen, field.box)
        if label is not None:
            found.append(Field(field, label.text))
    for toggle in screen.elements:
        if toggle.kind in TOGGLE_KINDS and (toggle.text or toggle.name):
            found.append(Field(toggle, toggle.text or toggle.name))
        elif toggle.kind in TOGGLE_KINDS and (label := row_label(screen, toggle.box)):
            found.append(Field(toggle, label.text))
    unique = {(f.element.id, normalize(f.label)): f for f in reversed(found)}
    return list(reversed(unique.values()))


def showing(free: Sequence[Field], kind: str) -> list[Field]:
    """Fields whose shown text (a value or a placeholder like mm/dd/yyyy) is of `kind`."""
    placeholder = {"date": r"(?:dd|mm|yy|yyyy)\W", "time": r"--\s*:\s*--"}
    return [
        f
        for f in free
        if lexicon().value_kind(f.element.text) == kind
        or re.search(placeholder.get(kind, r"$^"), f.element.text.lower())
    ]


SHOWN_NUMBER = re.compile(r"\s*(-?\d+(?:[.,]\d+)?)\s*[^\d\s]{0,4}\s?[^\d\s]{0,4}\s*")
"""A number as a slider shows it, with its unit: "22 °C", "40%", "500 ms"."""


def unseen_sliders(screen: Screen) -> list[Field]:
    """Sliders the parser drew no box for (a web page's range input): a label, an empty gap,
    and the slider's number at the end of the row ("Room temperature ——●—— 22 °C"). Each is a
    field whose element (a negative id: it is not on the screen) is the gap."""
    found = []
    for label in screen.elements:
        if label.kind not in LABEL_KINDS or not label.text.strip() or VALUE.fullmatch(label.text):
            continue
        row = [e for e in screen.elements if e is not label and e.box.x >= label.box.right
               and abs(e.box.center[1] - label.box.center[1]) <= label.box.h / 2]  # fmt: skip
        if not row:
            continue
        end = max(row, key=lambda e: e.box.x)
        between = [e for e in row if e is not end]
        gap = end.box.x - label.box.right
        knob = all(max(e.box.w, e.box.h) <= 1.5 * label.box.h for e in between)  # its handle
        if (
            end.kind in LABEL_KINDS
            and SHOWN_NUMBER.fullmatch(end.text)
            and gap > 2 * label.box.h
            and knob
        ):
            box = Box(label.box.right + 6, label.box.y, gap - 12, label.box.h)
            element = Element(-1 - len(found), box, "input", end.text, interactive=True)
            found.append(Field(element, label.text))
    return found


def files_named(screen: Screen, words: str) -> list[Element] | None:
    """The files a kind of file names ("the two .jpg files", "all the PDFs", "both photos"):
    each text showing a file name with one of the kind's endings, top first; None when the
    words say more than a kind and a count. A count said ("two", "both") must be what is
    shown, or StepFailed says what is."""
    lex = lexicon()
    said = [w.lstrip(".") for w in words_of(words.replace(".", " ."))]
    endings: set[str] = set()
    known = {e for ends in lex.file_kinds.values() for e in ends}
    count, rest = _count_said(said), []
    i = 0
    while i < len(said):
        phrase = max((p for p in lex.file_kinds if phrase_at(said, i, p)), key=len, default=())
        word = said[i]
        if phrase:
            endings.update(lex.file_kinds[phrase])
            i += len(phrase)
            continue
        if (ending := next((f".{w}" for w in (word, word.removesuffix("s"))
                            if f".{w}" in known), None)) is not None:  # fmt: skip
            endings.add(ending)
        elif word not in lex.determiners and word not in FILE_WORDS and not _counts(word):
            rest.append(word)
        i += 1
    if not endings or rest:
        return None
    shown = sorted((e for e in screen.elements if e.kind not in FIELD_KINDS
                    and FILE_NAME.fullmatch(e.text.strip())
                    and e.text.strip().lower().endswith(tuple(endings))),
                   key=lambda e: (e.box.y, e.box.x))  # fmt: skip
    if count is not None and len(shown) != count:
        raise StepFailed(f"'{words}' names {count} files, the screen shows {len(shown)} "
                         f"({', '.join(e.text for e in shown) or 'none'})")  # fmt: skip
    return shown


FILE_NAME = re.compile(r"[^\s/\\][^/\\]*\.[A-Za-z0-9]{1,5}")
FILE_WORDS = frozenset({"all", "every", "each", "of", "file", "files", "ones", "one", "them"})
"""Words beside a kind of file that say nothing more about which ("all of the pdf files")."""


def scope_box(screen: Screen, words: str) -> Box | None:
    """The row or card that shows `words` ("@ana", "March", "640 KB"): the smallest container
    holding the element that shows them, else that element's own box (its row is the band
    across the screen at its height)."""
    found = showing_words(screen, words, rows=True)
    return scope_round(screen, found[0], found) if found else None


CARD_LINES = 8
"""Line heights a card round a scope's words may be (a post, a message); taller is a list."""


def scope_round(screen: Screen, shown: Element, others: Sequence[Element] = ()) -> Box:
    """The card round `shown` ("@ana" in a post whose buttons are lines below), when it is no
    taller than a few lines and shows the words only there; else its row."""
    card = card_round(screen, shown.box)
    if (
        card is not None
        and card.h <= CARD_LINES * shown.box.h
        and card.area < 0.5 * screen.frame.size[0] * screen.frame.size[1]
        and not any(e.id != shown.id and card.contains(e.box, slack=2) for e in others)
    ):
        return card
    return row_round(screen, shown)


def item_round(screen: Screen, shown: Element) -> Box | None:
    """The lines of the list item `shown` heads, down to the next item's head in line with
    it (see `_item_lines`); None when it heads no such item."""
    return _item_lines(shown.box, _in_line_with(screen, shown))


def _in_line_with(screen: Screen, shown: Element) -> list[Box]:
    """The texts in a column with `shown`, as tall, on other lines: its list's other items."""
    return [e.box for e in screen.elements if e.id != shown.id and e.text.strip()
            and e.kind not in ("input", "combo", "button")  # its reply box is no next item
            and abs(e.box.x - shown.box.x) <= 8 and abs(e.box.h - shown.box.h) <= 4
            and abs(e.box.center[1] - shown.box.center[1]) > shown.box.h]  # fmt: skip


def row_round(screen: Screen, shown: Element) -> Box:
    """The row round `shown`: the smallest container holding it that is not a whole table,
    else its own box."""
    column = _in_line_with(screen, shown)
    holders = [
        e.box
        for e in screen.elements
        if e.kind in ("container", "list_item")
        and e.box.contains(shown.box, slack=2)
        and e.box.area > shown.box.area
        and e.box.area < 0.5 * screen.frame.size[0] * screen.frame.size[1]
        and not any(e.box.contains(c, slack=2) for c in column)  # a table, not its row
    ]
    if holders:
        return min(holders, key=lambda b: b.area)
    return _item_lines(shown.box, column) or shown.box


ITEM_LINES = 12
"""Line heights an item drawn with no box may run to (a comment with its quote and replies)."""


def _item_lines(name: Box, names: Sequence[Box]) -> Box | None:
    """The lines of a list's item drawn with no box round it (a cart drawer's "Storm Shell
    Jacket", its details and its Remove under it): from its name down to the next item's name
    in line with it (the last item: as tall as the others)."""
    hugging = 0.35 * name.h  # its own detail lines, in line with it, start right under it
    below = sorted(b.y for b in names if b.y > name.bottom + hugging)
    above = sorted((b.y for b in names if b.bottom + hugging < name.y), reverse=True)
    if below:
        height = below[0] - name.y
    elif above:
        height = name.y - above[0]
    else:
        return None
    if height > ITEM_LINES * name.h or height <= 2 * name.h:
        return None
    return Box(name.x, name.y, name.w, height - 2)


def card_box(screen: Screen, words: str) -> Box | None:
    """The card or panel that shows `words` (its heading, "Bedroom"): the smallest container
    round the best element showing them, never a row of it nor the whole screen."""
    width, height = screen.frame.size
    for shown in showing_words(screen, without_article(words), rows=True):
        card = card_round(screen, shown.box)
        if card is not None and card.area < 0.5 * width * height:
            return card
    return None


def card_round(screen: Screen, box: Box) -> Box | None:
    """The smallest container round `box` that is more than its frame (four times its area)."""
    holders = [e.box for e in screen.elements if e.kind == "container"
               and e.box.contains(box, slack=2) and e.box.area > 4 * box.area]  # fmt: skip
    return min(holders, key=lambda b: b.area) if holders else None


def without_article(words: str) -> str:
    """ "the kitchen": kitchen, as a screen shows it."""
    said = words.split()
    while len(said) > 1 and said[0].lower() in lexicon().determiners:
        said = said[1:]
    return " ".join(said)


def scrolled_by(before: Screen, after: Screen) -> int | None:
    """How far the page moved up between two screens, in pixels: told by the pixels of the
    part that changed where they tell it, else the shift most pairs of the same words at
    about the same x agree on (a text cut at the top is read a little apart; what did not
    move, a title or a footer, is left out); None when neither can tell."""
    moved = moved_band(before.frame.pixels, after.frame.pixels)
    return moved[0] if moved is not None else words_shift(before, after)


def words_shift(before: Screen, after: Screen) -> int | None:
    """How far the page moved up, by the shift most pairs of the same words agree on."""
    shifts = sorted(
        old.box.y - new.box.y
        for old in before.elements
        if old.kind in LABEL_KINDS and len(old.text.strip()) >= 3
        for new in after.elements
        if new.text == old.text and abs(new.box.x - old.box.x) <= 4
        and abs(old.box.y - new.box.y) > 4
    )  # fmt: skip
    if not shifts:
        return None
    windows = [[t for t in shifts if s <= t <= s + SCROLL_SLACK] for s in shifts]
    best = max(windows, key=len)
    return int(np.median(best)) if len(best) >= 2 else None


SCROLL_SLACK = 16
"""px: shifts this close are one scroll (texts cut at the frame's top are read a bit apart)."""
SHIFT_OVERLAP = 12
"""px: fewest rows of the part that changed that must be seen both before and after."""
SHIFT_MATCH = 0.9
"""Share of the overlap's drawn rows that must be alike under the shift."""
SCROLL_BAR = 14
"""px: the width at a pane's right edge its scroll bar may take."""
SHIFT_GAP = 8
"""px: columns that did not change, this many side by side, part two bands that did."""


def moved_band(before: np.ndarray, after: np.ndarray) -> tuple[int, int] | None:
    """How far the part of the screen that changed moved up, and how tall that part is (the
    pane that scrolled), from its pixels: the shift under
    which its rows, before and after, are alike (words are fooled by a feed whose posts
    repeat their authors every few lines; the posts' other lines are not alike). Each band
    of columns that changed is tried, widest first (a clock ticking beside a list is no part
    of it). None when no shift makes one line up: it changed in place, or moved too far."""
    if before.shape != after.shape or before.ndim != 3:
        return None
    old = before.astype(np.int16).sum(axis=2)
    new = after.astype(np.int16).sum(axis=2)
    changed = old != new
    cols = np.flatnonzero(changed.any(axis=0))
    if cols.size == 0:
        return None
    bands = np.split(cols, np.flatnonzero(np.diff(cols) > SHIFT_GAP) + 1)
    for band in sorted(bands, key=len, reverse=True):
        left, right = int(band[0]), int(band[-1]) + 1
        rows = np.flatnonzero(changed[:, left:right].any(axis=1))
        if right - left < SHIFT_OVERLAP or rows.size < 2 * SHIFT_OVERLAP:
            break
        moved = _band_shift(old[rows[0] : rows[-1] + 1, left:right],
                            new[rows[0] : rows[-1] + 1, left:right])  # fmt: skip
        if moved is not None:
            return moved, int(rows[-1] + 1 - rows[0])
    return None


def _band_shift(old: np.ndarray, new: np.ndarray) -> int | None:
    if old.shape[1] > 3 * SCROLL_BAR:  # its scroll bar's thumb moves with no row
        old, new = old[:, :-SCROLL_BAR], new[:, :-SCROLL_BAR]
    height, width = old.shape[0], min(old.shape[1], 64)

    def signature(grey: np.ndarray) -> np.ndarray:  # each row, a few column means
        return cv2.resize(grey.astype(np.float32) / 3, (width, height),
                          interpolation=cv2.INTER_AREA)  # fmt: skip

    was, now = signature(old), signature(new)
    drawn = was.std(axis=1) > 2  # a blank row matches any other blank row
    best: tuple[float, float, int] | None = None
    for shift in range(-(height - SHIFT_OVERLAP), height - SHIFT_OVERLAP + 1):
        if shift == 0:
            continue
        part, moved = (slice(shift, None), slice(None, height - shift)) if shift > 0 else (
            slice(None, height + shift), slice(-shift, None))  # fmt: skip
        ink = drawn[part]
        if ink.sum() < SHIFT_OVERLAP:
            continue
        alike = (np.abs(was[part] - now[moved]) < 12).all(axis=1)  # a hover tint is alike
        share = float((alike & ink).sum() / ink.sum())
        if best is None or (share, float(ink.sum())) > best[:2]:
            best = (share, float(ink.sum()), shift)
    return best[2] if best is not None and best[0] >= SHIFT_MATCH else None


def shows_words(
    screen: Screen, words: str, rows: bool = False, echo_of: str = ""
) -> Element | None:
    """The element whose text holds `words` as whole words (fuzzily), the best and shortest;
    a date said one way is found shown another ("3 October": "Oct 3, 2026"). `rows`: only
    what rows show, not the words typed into a field (a search box holding them); a text
    that is the task `echo_of` shown on the screen holds nothing."""
    found = showing_words(screen, words, rows, echo_of)
    return found[0] if found else None


def showing_words(
    screen: Screen, words: str, rows: bool = False, echo_of: str = ""
) -> list[Element]:
    """Every element that shows `words` (as `shows_words` finds them), the best first. With
    `rows`, what a field holds is no row, unless nothing else shows them (a card drawn as a
    bordered box with text reads as a field)."""
    wanted = normalize(words).split()
    if not wanted:
        return []
    if echo_of:
        task = normalize(echo_of)
        kept = tuple(e for e in screen.elements
                     if e.kind not in ECHO_KINDS or not echoes(e.text, task, words))  # fmt: skip
        screen = Screen(screen.frame, kept)
    if rows:
        fields_ = [e.box for e in screen.elements if e.kind in FIELD_KINDS]
        kept = tuple(e for e in screen.elements if e.kind not in FIELD_KINDS
                     and not any(f.contains(e.box, slack=2) for f in fields_))  # fmt: skip
        return showing_words(Screen(screen.frame, kept), words) or showing_words(screen, words)
    if len(wanted) == 1 and (said := month(wanted[0])) is not None and len(wanted[0]) >= 3:
        named = [e for e in screen.elements if said in months_in(e.text)]
        if named:
            return sorted(named, key=lambda e: len(e.text))  # "March": invoice-2026-03.pdf
    if (date := parse_date(words)) is not None:
        year_said = bool(re.search(r"\d{4}", words))
        dated = [e for e in screen.elements if same_day(date_in(e.text), date, year_said)]
        if dated:
            return sorted(dated, key=lambda e: len(e.text))
    scored: list[tuple[float, int, Element]] = []
    for element in screen.elements:
        have = normalize(element.text or element.name).split()
        windows = [have[i : i + len(wanted)] for i in range(len(have) - len(wanted) + 1)]
        score = max((min(fuzz.ratio(w, h) for w, h in zip(wanted, window, strict=True))
                     for window in windows), default=0.0)  # fmt: skip
        if score >= 85:
            scored.append((score, -len(have), element))
    scored.sort(key=lambda s: (-s[0], -s[1]))
    return [element for _, _, element in scored]


def in_scope(candidates: list[Candidate], scope: Box) -> list[Candidate]:
    """Candidates inside the scope's card, or on its row: never another row's button (an
    action the row does not show may be in its menu)."""

    def place(c: Candidate) -> tuple[int, float]:
        box = c.element.box
        if scope.contains(box, slack=4):
            return (0, 0.0)
        if scope.y - 4 <= box.center[1] <= scope.bottom + 4:
            return (1, 0.0)
        return (2, _distance(scope, box))

    ranked = sorted(candidates, key=lambda c: (*place(c), -c.score))
    return [c for c in ranked if place(c)[0] < 2]


def text_lines(screen: Screen, kinds: tuple[str, ...] | None = None) -> list[list[Element]]:
    """The screen's texts (of `kinds`; None: any but containers) in lines across it (their
    middles within half a height), each left to right: what a person reads as one line or one
    row of a table."""
    texts = sorted((e for e in screen.elements if (kinds is None or e.kind in kinds)
                    and e.text.strip() and e.kind != "container"),
                   key=lambda e: (e.box.center[1], e.box.x))  # fmt: skip
    lines: list[list[Element]] = []
    for element in texts:
        if lines and abs(lines[-1][0].box.center[1] - element.box.center[1]) < element.box.h / 2:
            lines[-1].append(element)
        else:
            lines.append([element])
    return [sorted(line, key=lambda e: e.box.x) for line in lines]


def paragraphs(screen: Screen) -> list[str]:
    """The screen's blocks of text, each its lines joined by newlines."""
    return ["\n".join(" ".join(e.text for e in line) for line in b) for b in text_blocks(screen)]


def is_prose(block: str) -> bool:
    """Whether a block of text reads as prose, not a list of "label: value" lines (a label's
    colon ends a word; a time's, "08:00", has digits after it)."""
    return 2 * len(re.findall(r":(?!\d)", block)) <= block.count("\n") + 1


HEADING = 1.4
"""How many times taller one line's letters are than the next's where a heading ends."""
COLUMN_GAP = 1.0
"""A gap between two texts on a line, in line heights, that parts columns (a monospaced
word space is over half a height)."""


def text_blocks(screen: Screen) -> list[list[list[Element]]]:
    """The screen's blocks of text, each a list of lines of texts, top to bottom: lines
    left-aligned with the one above and less than a line's height under it are one block,
    unless the gap is wider than the block's own between its lines (a paragraph's margin)."""
    lines: list[list[Element]] = []
    screen = _run_on(screen)
    for line in text_lines(screen, ("text", "link")):  # cut where a column gap parts a line
        cuts = [i for i in range(1, len(line))
                if line[i].box.x - line[i - 1].box.right > line[i].box.h * COLUMN_GAP]  # fmt: skip
        lines += [line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True)]
    holders = [e for e in screen.elements if e.kind in ("container", "input")]
    blocks: list[list[list[Element]]] = []
    for line in sorted(lines, key=lambda line: line[0].box.y):
        first = line[0].box
        above = next((b for b in reversed(blocks) if abs(b[-1][0].box.x - first.x) <= first.h
                      and -first.h // 2 <= _gap(b[-1], line) < first.h
                      and holder(holders, b[-1][0]) == holder(holders, line[0])),
                     None)  # fmt: skip
        if above is not None:
            above.append(line)
        else:
            blocks.append([line])
    pixels = screen.frame.pixels
    return [part for block in blocks for part in _paragraphs(block, pixels)]


def _run_on(screen: Screen) -> Screen:
    """The screen with words read as a control that only go on a line of text (OCR cut the
    line, and the rest, "take the night boat instead.", was taken for a radio's label) read
    as text: a control has its glyph or its frame between it and the words before it."""
    texts = [e.box for e in screen.elements if e.kind == "text"]
    run_on = {
        e.id for e in screen.elements
        if e.kind not in ("text", "link") and len(e.text.split()) >= PROSE_WORDS
        and any(abs(t.center[1] - e.box.center[1]) <= t.h / 4 and abs(t.h - e.box.h) <= t.h / 4
                and 0 <= e.box.x - t.right <= t.h / 2 for t in texts)
    }  # fmt: skip
    if not run_on:
        return screen
    kept = tuple(replace(e, kind="text") if e.id in run_on else e for e in screen.elements)
    return Screen(screen.frame, kept)


PROSE_WORDS = 3
"""Words read as a control's that may be the rest of a line of text."""


def _paragraphs(block: list[list[Element]], pixels: np.ndarray) -> list[list[list[Element]]]:
    """A block cut where its lines are further apart than its closest two by a third of a
    line (a paragraph's margin, not its leading; centre to centre, as OCR's boxes overlap
    or not by the letters they hold), or where the letters change size (a heading over its
    byline or its text)."""
    pitches = [_middle(b) - _middle(a) for a, b in zip(block, block[1:], strict=False)]
    if not pitches:
        return [block]
    parts, tight = [[block[0]]], min(pitches)
    sizes = [_letters(line, pixels) for line in block]  # each line's letters read once
    for pitch, pair, line in zip(pitches, zip(sizes, sizes[1:], strict=False), block[1:],
                                 strict=True):  # fmt: skip
        low, high = sorted(pair)
        if pitch > tight + line[0].box.h / 3 or high > HEADING * low and high - low >= 3:
            parts.append([line])
        else:
            parts[-1].append(line)
    return parts


def _letters(line: list[Element], pixels: np.ndarray) -> int:
    return face(pixels, max(line, key=lambda e: e.box.w).box)[0]


def face(pixels: np.ndarray, box: Box) -> tuple[int, float]:
    """How tall a text's small letters are, and how much of them is ink (bold has more): the
    rows most of its ink is in (OCR's box grows with capitals and descenders, a size's small
    letters do not). The box's height and 0 where it shows no ink."""
    band = pixels[max(box.y, 0) : box.bottom, max(box.x, 0) : box.right, :3].astype(np.int16)
    if band.size == 0:
        return box.h, 0.0
    ink = np.abs(band - np.median(band.reshape(-1, 3), axis=0)).sum(axis=2) > 90
    rows = ink.sum(axis=1)
    rows[rows > 0.9 * ink.shape[1]] = 0  # a border or a rule through the box, not letters
    if rows.max() == 0:
        return box.h, 0.0
    core = rows >= rows.max() / 2
    return int(core.sum()), float(ink[core].mean())


def holder(holders: list[Element], text: Element) -> int | None:
    """The smallest box (a bar, a card, a text area) round a text, by id."""
    around = [h for h in holders if h.box.area > text.box.area
              and h.box.contains_point(*text.box.center)]  # fmt: skip
    return min(around, key=lambda h: h.box.area).id if around else None


def _middle(line: list[Element]) -> float:
    return line[0].box.y + line[0].box.h / 2


def _gap(upper: list[Element], lower: list[Element]) -> int:
    return lower[0].box.y - upper[0].box.bottom


def search_field(screen: Screen) -> Element | None:
    """The screen's search field: a field labelled, named or showing "Search" (or "Filter")."""
    words = ("search", "filter", "find")
    for field in fields(screen):
        said = normalize(" ".join((field.label, field.element.text, field.element.name)))
        if field.element.kind in ("input", "combo") and any(w in said.split() for w in words):
            return replace(field.element, name=field.label or "Search")
    boxes = [e for e in screen.elements if e.kind == "input"
             and any(w in normalize(f"{e.text} {e.name}").split() for w in words)]  # fmt: skip
    return boxes[0] if boxes else None


ROW_MENUS = frozenset({"more", "more actions", "actions", "options", "menu", "kebab"})
"""What a row's menu button is named (its actions are in the menu it opens); one that shows
only dots ("•••", "⋮") has no words at all."""


def row_menu(screen: Screen, row: Box) -> Element | None:
    """The menu button at the end of the band of the screen that holds `row`: a small button
    or icon named "more", or drawn as three dots (whatever OCR made of them)."""
    middle = row.center[1]
    found = [
        e
        for e in screen.elements
        if e.kind in ("button", "icon")
        and e.box.y <= middle <= e.box.bottom
        and e.box.w <= 3 * e.box.h
        and (normalize(e.text or e.name) in ROW_MENUS
             or len(e.text.strip()) <= 3 and _dots(screen.frame.pixels, e.box))
    ]  # fmt: skip
    return max(found, key=lambda e: e.box.x) if found else None


def _dots(pixels: np.ndarray, box: Box) -> bool:
    """Whether the ink inside `box` is 2 to 4 small alike blobs in a line ("•••", "⋮")."""
    inner = pixels[box.y + box.h // 5 : box.bottom - box.h // 5,
                   box.x + box.w // 5 : box.right - box.w // 5]  # fmt: skip
    if inner.size == 0:
        return False
    gray = cv2.cvtColor(np.ascontiguousarray(inner), cv2.COLOR_RGB2GRAY)
    background = int(np.median(gray))
    ink = (np.abs(gray.astype(int) - background) > 60).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    blobs = stats[1:count]
    if not 2 <= len(blobs) <= 4:
        return False
    sizes = blobs[:, 2:4]
    if sizes.max() > 0.4 * box.h or sizes.max() > 2 * sizes.min() + 2:
        return False
    xs, ys = centres[1:count, 0], centres[1:count, 1]
    return bool(np.ptp(ys) <= 2 or np.ptp(xs) <= 2)


def grid_cell(screen: Screen, row: str, column: str) -> tuple[Element, Element, Element] | None:
    """Where the row `row` names meets the column `column` heads in a table of controls: the
    row's label, the column's heading and the control between them ("cleanliness", "good":
    the radio under Good on the line of "Cleanliness of the room")."""
    wanted = normalize(column)
    if not wanted or not row.strip():
        return None
    labels = [e for e in screen.elements if e.kind in ("text", "link")
              and names_row(row, e.text)]  # fmt: skip
    heads = [e for e in screen.elements if e.kind in ("text", "link", "button")
             and normalize(e.text) == wanted]  # fmt: skip
    controls = [e for e in screen.elements if e.interactive and e.kind in (
        "radio", "checkbox", "input", "combo", "toggle")]  # fmt: skip
    for label in labels:
        for head in heads:
            if head.box.bottom > label.box.y + label.box.h / 2 or head.box.x <= label.box.right:
                continue  # a heading above the rows, right of their labels
            at = [c for c in controls
                  if abs(c.box.center[0] - head.box.center[0]) <= max(head.box.w, c.box.w)
                  and c.box.y - 4 <= label.box.center[1] <= c.box.bottom + 4]  # fmt: skip
            if len(at) == 1:
                return label, head, at[0]
    return None


def grid_column(screen: Screen, column: str) -> list[tuple[Element, Element, Element]]:
    """Every row of a table of controls at the column `column` heads, top to bottom."""
    found: dict[int, tuple[Element, Element, Element]] = {}
    for label in screen.elements:
        if label.kind in ("text", "link") and label.text.strip():
            if (cell := grid_cell(screen, label.text, column)) is not None and cell[0] is label:
                found.setdefault(cell[2].id, cell)
    return sorted(found.values(), key=lambda c: c[2].box.y)


def names_row(words: str, text: str) -> bool:
    """Whether a row's label holds the words ("staff" in "Friendliness of the staff")."""
    said, shown = normalize(words).split(), normalize(text).split()
    return bool(said) and all(
        any(fuzz.ratio(w, s) >= 85 for s in shown) for w in said if w not in ("the", "a")
    )


def star_row(screen: Screen) -> list[Element]:
    """A row of three to ten stars to rate with, left to right (icons named star, or ★ ☆)."""
    stars = [e for e in screen.elements if e.name == "star" or e.text.strip() in ("★", "☆")]
    rows: list[list[Element]] = []
    for star in stars:
        row = [s for s in stars if abs(s.box.center[1] - star.box.center[1]) < star.box.h / 2]
        if 3 <= len(row) <= 10 and not any(row[0] in r for r in rows):
            rows.append(sorted(row, key=lambda e: e.box.x))
    return max(rows, key=lambda r: (_rating_label(screen, r), r[0].box.h), default=[])


def _rating_label(screen: Screen, row: list[Element]) -> bool:
    """Whether a text on the row's line, just before it, asks for a rating ("Your rating",
    "Rate it"): the row to rate with, not a review's stars shown beside it."""
    first = row[0].box
    return any(
        e.kind == "text"
        and e.box.right <= first.x + 2
        and first.x - e.box.right < 4 * first.w
        and abs(e.box.center[1] - first.center[1]) < first.h
        and any(w.startswith("rat") for w in normalize(e.text).split())
        for e in screen.elements
    )
