"""Things made through a form a button opens: "write a 4 star review of the hoodie, title '…'",
"add an event on friday 2pm called Call with bank". A person presses the button that names what
the verb makes (Write a review, New event, + Create), fills the form it opens with the rest of
the sentence, and presses the form's own button (Submit review, Save) when done."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clickwright.agent import reading
from clickwright.agent.grounding import FIELD_KINDS, fields, shows_words
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.text import normalize, without_glyph
from clickwright.types import Element, Screen

OBJECT_WORDS = 4
"""Words after the verb, before a linking word, that may name what it makes ("a 4 star
review")."""


@dataclass(frozen=True)
class Opening:
    """The button that opens the form, what the verb makes, and the words left for the form."""

    button: Element
    verb: str
    made: str
    rest: str


def opening(clause: str, screen: Screen) -> Opening | None:
    """The button that opens the form `clause` asks to fill, when its form is not open yet: one
    whose label is the clause's verb (or, for a verb that makes things, any such verb) and the
    noun it makes ("Write a review", "New event"), or such a verb alone ("+ Create") when that
    noun is nowhere on the screen."""
    lex = lexicon()
    toks = [t for t in reading.tokens(clause) if t.word not in ("'", '"')]
    if len(toks) < 2 or not toks[0].word.isalpha():
        return None
    verb = toks[0].word
    end = 1
    while end < min(len(toks), OBJECT_WORDS + 1) and toks[end].word not in lex.linkers and \
            toks[end].word not in (",", ";", "called", "named", "titled"):  # fmt: skip
        end += 1
    nouns = [t.word for t in toks[1:end] if t.word not in lex.determiners]
    if not nouns:
        return None
    destination = re.search(r"\b(?:to|into|onto|in)\s+(?:the\s+|my\s+)?(.+?)(?:[,;]|$)", clause[
        toks[end].start :] if end < len(toks) else "", re.I)  # fmt: skip
    if destination and shows_words(screen, destination[1]) is not None:
        return None  # "add priya to the design review": to a thing shown, not a new one
    button = _opener(screen, verb, nouns)
    if button is None:
        return None
    made = next(w for w in reversed(nouns) if w.isalpha())
    rest = _rest(clause, toks, end, made)
    if _form_open(screen, rest):
        return None
    return Opening(button, verb, made, rest)


def _opener(screen: Screen, verb: str, nouns: list[str]) -> Element | None:
    lex = lexicon()
    making = verb in lex.makers
    height = screen.frame.size[1]
    named, bare = [], []
    for e in screen.elements:
        control = e.kind in ("button", "link", "menuitem") and e.interactive
        cut = e.kind == "text" and height - e.box.bottom <= e.box.h  # a button the screen's
        if not control and not cut:  # bottom edge cuts reads as a text
            continue
        words = [w for w in words_of(without_glyph(e.text or e.name)) if w not in lex.determiners]
        if not words or len(words) > 4:
            continue
        if not (words[0] == verb or making and words[0] in lex.makers):
            continue
        things = words[1:]
        if not things:
            if control:
                bare.append(e)
        elif all(_singular(w) in map(_singular, nouns) for w in things):
            named.append(e)
    if named:
        return named[0]
    if making and len(bare) == 1 and shows_words(screen, nouns[-1]) is None:
        return bare[0]  # "+ Create" on a calendar that shows no "event": what it creates
    return None


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _rest(clause: str, toks: list[reading.Token], end: int, made: str) -> str:
    """The words of the clause the form takes: those before the noun made ("4 star"), then
    those after it less what it is "of" ("of the hoodie, title '…'": the title)."""
    lex = lexicon()
    before = [t.text for t in toks[1:end] if t.word not in lex.determiners and t.word != made]
    after = clause[toks[end].start :] if end < len(toks) else ""
    after = re.sub(r"^(?:of|about|for)\s+[^,;]*[,;]?\s*", "", after, flags=re.I)
    return ", ".join(p for p in (" ".join(before), after.strip(" ,")) if p)


def _form_open(screen: Screen, rest: str) -> bool:
    """Whether a field the rest names by its label is on the screen already."""
    said = set(words_of(rest))
    for field in fields(screen):
        if field.element.kind not in FIELD_KINDS:
            continue
        label = [w for w in words_of(field.label) if w not in lexicon().determiners]
        if label and set(label) <= said:
            return True
    return False


def made_on(
    screen: Screen, clause: str, verb: str, made: str
) -> tuple[str, str, str, frozenset[tuple[int, int, int, int]]]:
    """What a run keeps of a form it opens (`Memory.made`): the clause, its verb, the thing
    made, and the buttons shown before it opened, which `form_button` is none of."""
    shown = frozenset(tuple(e.box) for e in screen.elements if e.kind == "button")
    return clause, verb, made, shown


def form_button(
    screen: Screen, verb: str, made: str, before: frozenset[tuple[int, int, int, int]]
) -> Element | None:
    """The opened form's own button: one that was not on the screen before it opened, naming
    what was made ("Submit review") or one the verb submits with, else a confirming one."""
    lex = lexicon()
    new = [e for e in screen.elements if e.kind == "button" and (e.text or "").strip()
           and tuple(e.box) not in before]  # fmt: skip
    cancelling = {normalize(label) for label in lex.intents["cancel"].labels}
    new = [e for e in new if normalize(e.text) not in cancelling]
    wanted = [*lex.makers.get(verb, ()), *lex.confirm]
    for e in new:
        words = words_of(e.text)
        if lex.verb_at("delete", words[:1], 0) or lex.verb_at("close", words[:1], 0):
            continue  # "Delete event" names the event too, and is no way to finish it
        if _singular(made) in map(_singular, words) and words[0] != verb:
            return e
    for label in wanted:
        for e in new:
            if normalize(e.text) == normalize(label):
                return e
    return None
