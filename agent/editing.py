"""Text in an editor changed in place; files saved under a name in a folder through the
program's own Save dialog; arithmetic carried out on a calculator's keys.

Where the device has a clipboard, the editor's text is read exactly (Ctrl+A, Ctrl+C), changed
as the words say (a word replaced, a line added or deleted, text at the end) and put back in one
paste, then read again to check it: OCR of 13-pixel editor text misreads words and their places,
the clipboard does not. Elsewhere (a phone) the words are found where the screen shows them,
selected with the mouse (a double-click on one word, a click and a shift-click around several)
and typed over.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from clickwright.agent import passages, selecting
from clickwright.agent.clauses import Step
from clickwright.agent.critic import Expectation
from clickwright.agent.executor import CHANGE
from clickwright.agent.grounding import (
    FIELD_KINDS,
    fields,
    normalize,
    text_lines,
    text_similarity,
)
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.agent.settle import asks_to_save, intent_button
from clickwright.errors import StepFailed
from clickwright.types import Box, Click, DoubleClick, Element, Hotkey, Screen, Target, Type

if TYPE_CHECKING:
    from clickwright.agent.actor import OfflineActor

__all__ = ["change_text", "close", "compute", "delete", "insert", "lines", "save"]

MAX_REPLACEMENTS = 10
MAX_DOCUMENT = 50_000
"""Characters of text an editor may hold for it to be rewritten in one paste."""
DIALOG_WAIT = 6.0
"""Seconds a Save dialog is waited for after the keys that open it, before other keys."""
TEXT_KINDS = ("text",)
SAVE_FIELDS = ("name", "file name", "filename", "save as", "selection", "file")


# ---- the editor's whole text, through the clipboard -------------------------------------------

Edit = Callable[[str], str | None]
"""The text an editor should hold after an edit, from the text it holds; None: the words the
edit needs are not in it."""


def _copied(actor: OfflineActor, step: Step) -> str | None:
    actor.blind(step, Hotkey(keys=("ctrl", "a")), None, CHANGE, "selecting all the text")
    actor.blind(step, Hotkey(keys=("ctrl", "c")), None, CHANGE, "copying it to read it exactly")
    return actor.state.device.clipboard()


def _shows(screen: Screen, text: str) -> bool:
    """Whether `text` is what the screen shows in an editor: most of its first lines are read
    on the screen (a copy from another field, or a stale clipboard, is not)."""
    wanted = [normalize(line) for line in text.splitlines() if normalize(line)][:8]
    if not wanted:
        return False
    seen = [" ".join(normalize(e.text) for e in row) for row in text_lines(screen)]
    found = sum(
        1 for line in wanted if any(line in t or text_similarity(line, t) >= 80 for t in seen)
    )
    return found * 2 >= len(wanted)


def _beyond(screen: Screen, text: str, area: Element | None) -> bool:
    """Whether a copy holds lines shown outside the text area: the focus was on the page, and
    Ctrl+A took all of it (a web page's heading and menus with its editor's text)."""
    if area is None:
        return False
    copied = normalize(text)
    outside = [" ".join(normalize(e.text) for e in row) for row in text_lines(screen)
               if not area.box.contains_point(*row[0].box.center)]  # fmt: skip
    return any(len(line) >= 8 and line in copied for line in outside)


def _text_area(screen: Screen) -> Element | None:
    """The largest field or pane that holds lines of text: where a click puts the caret."""
    lines = [e for e in screen.elements if e.kind in TEXT_KINDS and e.text.strip()]
    areas = [
        e
        for e in screen.elements
        if e.kind in ("input", "container")
        and any(e.box.contains_point(*t.box.center) for t in lines)
        and e.box.h >= 3 * min((t.box.h for t in lines), default=e.box.h)
    ]
    return max(areas, key=lambda e: e.box.w * e.box.h, default=None)


def document(actor: OfflineActor, step: Step) -> str | None:
    """The editor's text, exactly, or None where it cannot be read (no clipboard on the
    device, an empty editor, the focus somewhere the copy does not reach)."""
    state = actor.state
    if state.memory.document is not None and state.memory.document[0] == state.log.steps:
        return state.memory.document[1]  # as the run left it a moment ago
    if state.device.clipboard() is None:
        return None
    shown = actor.screen  # before the selection's highlight, which OCR reads worse
    area = _text_area(shown)
    text = _copied(actor, step)
    if text is not None and _shows(shown, text) and not _beyond(shown, text, area):
        return text
    return _clicked_in(actor, step, area, shown)


def _clicked_in(
    actor: OfflineActor, step: Step, area: Element | None, shown: Screen
) -> str | None:
    """The text of `area` clicked into and copied, when the screen shows it."""
    if area is None:
        return None
    actor.click_element(step, area, "putting the caret in the text")
    text = _copied(actor, step)
    return text if text is not None and _shows(shown, text) else None


def _in_text_area(actor: OfflineActor, step: Step, copied: str) -> str | None:
    """The text of the screen's pane of lines, clicked into, when the copy came from
    elsewhere (a dialog's one-line field had the focus); None when it is the same text."""
    shown = actor.screen
    named = [e for e in shown.elements if step.scope and e.kind in ("input", "container")
             and text_similarity(step.scope, e.name) >= 80]  # fmt: skip  # "in the message"
    area = min(named, key=lambda e: e.box.area) if named else _text_area(shown)
    text = _clicked_in(actor, step, area, shown)
    return text if text != copied else None


def rewrite(
    actor: OfflineActor, step: Step, edit: Edit, missing: str, before: str | None = None
) -> bool:
    """Change the editor's text by `edit` in one paste and check it by reading it back. False
    where the text cannot be read (the caller works from the pixels instead); `missing` is
    the failure when the edit finds nothing to change; `before`: the text just read."""
    before = before if before is not None else document(actor, step)
    if before is None or len(before) > MAX_DOCUMENT:
        return False
    after = edit(before)
    if after is None and (other := _in_text_area(actor, step, before)) is not None:
        before, after = other, edit(other)  # the focus was in another field ("To")
    if after is None:
        raise StepFailed(f"could not {step.clause!r}: the text holds no {missing}")
    if after == before:
        actor.record_noop(step, "the text already reads as wanted")
        return True
    actor.state.memory.edited = True
    if _rich(actor.screen) and _in_place(actor, step, before, after):
        return True
    paste = Type(text=after, clear=True, paste=True)
    actor.blind(step, paste, None, CHANGE, "putting the changed text in its place")
    got = _copied(actor, step)
    actor.blind(step, Hotkey(keys=("ctrl", "end")), None, CHANGE, "leaving the caret at the end")
    if got is None or got.rstrip() != after.rstrip():
        raise StepFailed(f"could not {step.clause!r}: the editor did not take the changed text")
    actor.record_noop(step, "the editor holds the changed text")
    known(actor, got)
    return True


def _rich(screen: Screen) -> bool:
    """Whether the editor formats its text (a toolbar's B beside its I, U or S): a paste of
    the plain text would lose its colours and bold, so the words changed are changed alone."""
    marks = [e.box for e in screen.elements if e.text.strip() in ("I", "1", "U", "S")]
    return any(
        abs(b.box.center[1] - m.center[1]) <= b.box.h / 2 and 0 < m.x - b.box.right < 6 * b.box.h
        for b in screen.elements if b.text.strip() == "B" for m in marks
    )  # fmt: skip


SHORT = 3
"""Characters of a changed word too few to find alone on the screen ("4" in "4 March"): the
word after it is selected and typed with it."""


def _in_place(actor: OfflineActor, step: Step, before: str, after: str) -> bool:
    """The words that differ between `before` and `after` selected where the screen shows
    them and typed over (or deleted), each in turn, then the text read back: True when it
    reads as `after`. False when a change is not one run of words in one paragraph that the
    screen shows, or the text does not read back as wanted; the caller then puts all of
    `after` in (over any change made before that was found)."""
    old, new = _tokens(before), _tokens(after)
    changes = [c for c in SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
               if c[0] != "equal"]  # fmt: skip
    if not changes or len(changes) > MAX_REPLACEMENTS:
        return False
    actor.blind(step, Hotkey(keys=("ctrl", "home")), None, CHANGE, "letting go of the selection")
    text, shift = before, 0
    for _, a, b, c, d in changes:
        after_it = old[b : b + 2]
        if len("".join(old[a:b]).strip()) < SHORT and len(after_it) == 2 and after_it == new[
                d : d + 2]:  # fmt: skip
            b, d = b + 2, d + 2  # "4" in "4 March": selected with the word after it
        start = len("".join(old[:a])) + shift
        gone, put = "".join(old[a:b]), "".join(new[c:d])
        words = gone.strip()
        if not words or "\n" in words or text.find(words) != start + gone.find(words):
            return False  # an insertion, across paragraphs, or shown earlier too
        found = selecting.span(_within_text(actor.screen), _passage(words), actor.state.task)
        if found is None or text_similarity(found.text, words) < SAME_WORDS:
            return False
        actor.select(step, found)
        if put.strip():
            actor.blind(step, Type(text=put.strip()), None, CHANGE, f"typing '{put.strip()}'")
        else:
            actor.blind(step, Hotkey(keys=("backspace",)), None, CHANGE, "deleting it")
            at = start + gone.find(words)
            if text[at - 1 : at].isspace() and text[at + len(words) : at + len(words) + 1] == " ":
                actor.blind(step, Hotkey(keys=("delete",)), None, CHANGE, "the space after it")
        text = text[:start] + put + text[start + len(gone) :]
        shift += len(put) - len(gone)
    got = _copied(actor, step)
    actor.blind(step, Hotkey(keys=("ctrl", "end")), None, CHANGE, "leaving the caret at the end")
    if got is None or " ".join(got.split()) != " ".join(after.split()):
        return False
    actor.record_noop(step, "the editor holds the changed text, its formatting kept")
    known(actor, got)
    return True


def _within_text(screen: Screen) -> Screen:
    """The screen less what is outside its text area: a word changed in the text is not the
    same word quoted in a comment beside it."""
    area = _text_area(screen)
    if area is None:
        return screen
    inside = tuple(e for e in screen.elements if area.box.contains(e.box, slack=2))
    return Screen(screen.frame, inside) if inside else screen


def _tokens(text: str) -> list[str]:
    """Words and the spaces between them, in order: what a change is made of."""
    return re.findall(r"\s+|[^\s]+", text)


def _passage(words: str) -> passages.Passage:
    """The words to select as said: a long run by its first and last words (OCR misreads a
    word or two in between)."""
    said = words.split()
    if len(said) <= 2 * ENDS:
        return passages.Passage(words=words, exact=True)
    return passages.Passage(words=" ".join(said[:ENDS]), until=" ".join(said[-ENDS:]))


ENDS = 3
"""Words a long run to select is found by at each end."""
SAME_WORDS = 85
"""How alike the words selected must read to those to change (OCR slips a letter or two)."""


def known(actor: OfflineActor, text: str) -> None:
    """The editor holds `text` now: a step right after this needs not read it again."""
    actor.state.memory.document = (actor.state.log.steps, text)


def _words(words: str) -> re.Pattern[str]:
    """`words` as whole words, any case, any run of spaces between them."""
    parts = [re.escape(w) for w in words.split()]
    return re.compile(r"(?<![\w@.-])" + r"\s+".join(parts) + r"(?![\w@-])", re.I)


def _cased(new: str, old: str) -> str:
    """ "change draft to final" on "Draft" writes "Final"."""
    if old[:1].isupper() and not old.isupper() and new[:1].islower():
        return new[:1].upper() + new[1:]
    return new


def replaced(old: str | re.Pattern[str], new: str, every: bool, line: int | None = None) -> Edit:
    """`old` (words, or a value's pattern) by `new`: the first or `every` one, in the whole
    text or in its `line`-th line (-1: the last)."""
    pattern = _words(old) if isinstance(old, str) else old

    def edit(text: str) -> str | None:
        start, end = 0, len(text)
        if line is not None:
            starts = _line_starts(text)
            if not -len(starts) <= (line - 1 if line > 0 else line) < len(starts):
                return None
            start, end = _line_span(text, starts[line - 1 if line > 0 else line])
        part = text[start:end]
        if not pattern.search(part):
            return None
        changed = pattern.sub(lambda m: _cased(new, m[0]), part, count=0 if every else 1)
        return text[:start] + changed + text[end:]

    return edit


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text.rstrip("\n")))]


def _line_span(text: str, at: int) -> tuple[int, int]:
    """Where the line holding position `at` starts and ends (its line break excluded)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return start, len(text) if end < 0 else end


def line_deleted(words: str = "", nth: int | None = None) -> Edit:
    """The line showing `words`, or the `nth` line (-1: the last), with its line break."""

    def edit(text: str) -> str | None:
        if nth is not None:
            starts = _line_starts(text)
            if not -len(starts) <= (nth - 1 if nth > 0 else nth) < len(starts):
                return None
            at = starts[nth - 1 if nth > 0 else nth]
        elif (m := _words(words).search(text)) is not None:
            at = m.start()
        elif (found := line_about(text, words)) is not None:
            at = found
        else:
            return None
        start, end = _line_span(text, at)
        return text[:start] + text[end + 1 :] if end < len(text) else text[: max(0, start - 1)]

    return edit


def line_about(text: str, words: str) -> int | None:
    """Where the one line starts that holds more of `words`' content words than any other
    ("the dentist appointment": "Tue: dentist at 14:00"), or None when no line or several
    hold as many."""
    quiet = lexicon().determiners | {"line", "lines", "entry", "item", "one"}
    wanted = [w for w in _bare_words(words) if w not in quiet and len(w) >= 3]
    if not wanted:
        return None
    starts = _line_starts(text)
    scores = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        line = _bare_words(text[start:end])
        scores.append(sum(any(h.startswith(w) or w.startswith(h) and len(h) >= 3
                              for h in line) for w in wanted))  # fmt: skip
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return starts[scores.index(best)]


def value_on_line(about: str, new: str, old: str | None = None, words: bool = True) -> Edit:
    """ "bananas cost 0.99 now" on "bananas 1.20": on the one line about `about`, `old`, else the
    value of the kind `new` is (a price, a time, a date …), else (with `words`) what follows
    the line's colon or equals sign ("Italy: Paris" -> "Italy: Rome")."""
    kind = lexicon().value_kind(new)

    def edit(text: str) -> str | None:
        at = line_about(text, about)
        if at is None:
            return None
        start, end = _line_span(text, at)
        line = text[start:end]
        if old and (m := _words(old).search(line)):
            span = m.span()
        elif kind is not None and (found := list(lexicon().values[kind].finditer(line))):
            span = found[-1].span()  # the value comes after what it is of
        elif _AMOUNT.fullmatch(new.strip()) and (found := list(_AMOUNT_IN.finditer(line))):
            named = line.lower().find(about.lower().split()[-1]) if about.split() else 0
            span = min(found, key=lambda m: abs(m.start() - named)).span()  # "250 g butter"
        elif words and (m := re.search(r"[:=]\s*(\S.*?)\s*$", line)):
            span = m.span(1)
        else:
            return None
        value = _cased(new, line[span[0] : span[1]])
        return text[: start + span[0]] + value + text[start + span[1] :]

    return edit


def _bare_words(text: str) -> list[str]:
    """Words without the marks around them or a possessive ("Italy's" and "Italy:" are Italy)."""
    return [re.sub(r"'s$", "", w) for w in re.findall(r"[\w'.@-]*\w", text.lower())]


def duplicate_deleted(text: str) -> str | None:
    """The later of two lines that read the same (a list with an entry in it twice)."""
    seen: set[str] = set()
    start = 0
    for line in text.splitlines(keepends=True):
        key = " ".join(line.split())
        if key and key in seen:
            return text[:start] + text[start + len(line) :]
        seen.add(key)
        start += len(line)
    return None


def words_deleted(words: str) -> Edit:
    """The words and one space beside them (after them, or before them at a line's end)."""

    def edit(text: str) -> str | None:
        m = _words(words).search(text)
        if m is None:
            return None
        start, end = m.span()
        if text[end : end + 1] == " ":
            end += 1
        elif text[start - 1 : start] == " ":
            start -= 1
        return text[:start] + text[end:]

    return edit


def inserted(
    new: str, where: str, anchor: str = "", after: str = "", nth: int | None = None
) -> Edit:
    """`new` at the end or start, at the end or start of the `nth` line, on a line of its own
    below or above the line showing `anchor` (indented as that line is), or between `anchor`
    and `after`."""

    def edit(text: str) -> str | None:
        if where in ("line end", "line start") and nth:
            lines = text.split("\n")
            index = nth - 1 if nth > 0 else len(lines) + nth
            if not 0 <= index < len(lines):
                return None
            line = lines[index]
            if where == "line end":
                lines[index] = line + ("" if not line or line.endswith(" ") else " ") + new
            else:
                lines[index] = new + ("" if new.endswith(" ") else " ") + line
            return "\n".join(lines)
        if where == "end":
            return text + new
        if where == "start":
            return new + text
        if where == "end line":
            body = text if not text or text.endswith("\n") else text + "\n"
            return body + new + ("\n" if text.endswith("\n") else "")
        if where == "start line":
            return new + "\n" + text
        m = _words(anchor).search(text)
        about = line_about(text, anchor) if m is None and where in ("below", "above") else None
        if m is None and about is None:
            return None
        start, end = _line_span(text, m.start() if m is not None else about)  # "the email line"
        indent = re.match(r"[ \t]*", text[start:])[0]  # type: ignore[index]
        if where == "below":
            return text[:end] + "\n" + indent + new + text[end:]
        if where == "above":
            return text[:start] + indent + new + "\n" + text[start:]
        if m is None:
            return None
        m2 = _words(after).search(text, m.end()) if after else None
        if m2 is None or "\n" in text[m.end() : m2.start()]:
            return text[:end] + "\n" + indent + new + text[end:]
        gap = text[m.end() : m2.start()]  # "one, three": "two" goes in with its own ", "
        return text[: m.end()] + (gap if gap.strip() else " ") + new + gap + text[m2.start() :]

    return edit


# ---- words in the text ---------------------------------------------------------------------------


def _occurrence(actor: OfflineActor, words: str, unlike: str = "") -> tuple[Element, Box] | None:
    """Where the editor shows `words`: the line of text holding them as whole words, the
    element they start in, and the part of the line they take (estimated from their place
    among its characters). A text area whose words the screen holds as one text (an
    accessible text view) is read line by line. A single word OCR misread ("808") is the
    closest word, unless that is nearer to `unlike` (the text that replaces it)."""
    wanted = normalize(words)
    if not wanted:
        return None
    pattern = re.compile(rf"(?<![\w@.-]){re.escape(wanted)}(?![\w@-])")
    screen = actor.screen
    for line in text_lines(screen, TEXT_KINDS):
        line = [e for e in line if normalize(e.text)]
        text = " ".join(normalize(e.text) for e in line)
        if m := pattern.search(text):
            return _located(line, m)
    if re.fullmatch(r"\w+", wanted):  # OCR misread a letter ("808" for 8080): the closest word
        close = [
            (fuzz.ratio(wanted, normalize(e.text)), e)
            for e in screen.elements
            if e.kind in TEXT_KINDS and len(normalize(e.text).split()) == 1
        ]
        score, word = max(close, key=lambda c: c[0], default=(0.0, None))
        nearer_new = (
            word is not None and fuzz.ratio(normalize(unlike), normalize(word.text)) >= score
        )
        if word is not None and score >= 80 and not nearer_new:
            return word, word.box
    areas = [e for e in screen.elements if e.kind == "input" and pattern.search(normalize(e.text))]
    for area in areas:
        for read in actor.read_lines(area.box):
            text = normalize(read.text)
            if pattern.search(text):
                return Element(area.id, read.box, "text", read.text), _part(read.box, text, pattern)
    return None


def _located(line: list[Element], m: re.Match[str]) -> tuple[Element, Box]:
    """The element a match in a line's joined text starts in, and the box of the match: the
    boxes of the elements it covers, cut where it starts or ends inside one."""
    position, parts = 0, []
    for element in line:
        text = normalize(element.text)
        start, end = max(m.start(), position), min(m.end(), position + len(text))
        if start < end:
            box, share = element.box, len(text) or 1
            x0 = box.x + round(box.w * (start - position) / share)
            x1 = box.x + round(box.w * (end - position) / share)
            parts.append((element, Box(x0, box.y, max(2, x1 - x0), box.h)))
        position += len(text) + 1
    first = parts[0][1]
    whole = first
    for _, box in parts[1:]:
        whole = whole.union(box)
    return parts[0][0], whole


def _part(box: Box, text: str, pattern: re.Pattern[str]) -> Box:
    """The part of a line's box that the match of `pattern` in its text takes."""
    m = pattern.search(text)
    assert m is not None
    share = len(text) or 1
    start = box.x + round(box.w * m.start() / share)
    end = box.x + round(box.w * m.end() / share)
    return Box(start, box.y, max(2, end - start), box.h)


def _select(actor: OfflineActor, step: Step, part: Box, words: str) -> None:
    """Select the words shown at `part`: double-click one word; click before and shift-click
    after several."""
    y = part.center[1]
    if re.fullmatch(r"\w+", words):
        actor.blind(step, DoubleClick(target=Target(point=part.center)), part.center, CHANGE,
                    f"selecting '{words}'")  # fmt: skip
        return
    start, end = (part.x + 1, y), (part.right - 1, y)
    actor.blind(step, Click(target=Target(point=start)), start, CHANGE, "caret before the words")
    actor.blind(step, Click(target=Target(point=end), keys=("shift",)), end, CHANGE,
                f"selecting '{words}'")  # fmt: skip


_AMOUNT_IN = re.compile(r"(?<![\w.])\d[\d.,]*(?:\s?[^\W\d_]{1,3}\b\.?)?")
"""An amount inside a line: a number and a short unit right after it ("250 g", "5 dl")."""
_AMOUNT = re.compile(r"[-+]?\d[\d ,.]*\s*[^\W\d_]{0,5}\.?|[$€£]\s*\d[\d ,.]*")
"""A number, with a short unit after it or a currency before ("200 g", "3 dl", "$4.50")."""


def change_text(actor: OfflineActor, step: Step) -> None:
    """Replace the words `step.old` (or, with `step.where` a value kind such as "email", the
    value of that kind the text shows) by `step.text` where the screen shows them; with
    `step.every`, each place until none is left."""
    new = step.text or ""
    passage = passages.read(step.target or "")
    if not step.old and not step.where and passage.named:  # "change the second line to X"
        if rewrite(actor, step, _retold(passage, new), f"{step.target}"):
            return
        raise StepFailed(f"could not {step.clause!r}: the text could not be read exactly")
    if step.where == "heading":  # "change the heading to X": its first line, past its "#"
        if rewrite(actor, step, retitled(new), "the heading"):
            return
        raise StepFailed(f"could not {step.clause!r}: the text has no first line to change")
    old = step.old or lexicon().values.get(step.where or "")
    if step.where == "line":  # "bananas cost 0.99 now": the value on the line about bananas
        about = step.target or ""
        if rewrite(actor, step, value_on_line(about, new, step.old), f"line about '{about}'"):
            return
        raise StepFailed(f"could not {step.clause!r}: the text it is about could not be read")
    what = f"'{step.old}'" if step.old else f"{step.where}"
    edit = replaced(old, new, step.every, step.nth) if old else None
    if edit and step.old and not step.every and step.nth is None:
        on_line = value_on_line(step.old, new, words=False)  # "the price of X"
        amount = _AMOUNT.fullmatch(new.strip()) and not re.search(r"\d", step.old)
        edit = _either(on_line, edit) if amount else _either(edit, on_line)
        # "change the butter to 200 g": the amount on the butter's line, not the word
    if edit and rewrite(actor, step, edit, what):
        return
    done = 0
    for _ in range(MAX_REPLACEMENTS if step.every else 1):
        old = step.old or _value_of_kind(actor.screen, step.where or "")
        found = _occurrence(actor, old, unlike=new) if old else None
        if found is None:
            break
        element, part = found
        _select(actor, step, part, old)
        expect = Expectation("text_in", new, Box(element.box.x, element.box.y,
                                                  element.box.w + 200, element.box.h))  # fmt: skip
        actor.blind(step, Type(text=new), None, expect, f"typing '{new}' over '{old}'")
        done += 1
    if not done:
        what = step.old or f"a {step.where}"
        raise StepFailed(
            f"could not {step.clause!r}: the screen shows no '{what}' to change"
            + actor.closest(actor.screen, what)
        )


def retitled(new: str) -> Edit:
    """The text's first line that has words, saying `new` after the marks that make it a
    heading ("# Draft title": "# New title")."""

    def edit(text: str) -> str | None:
        m = re.search(r"^([ \t]*(?:#+|=+|\*+)?[ \t]*)(\S.*)$", text, re.M)
        return None if m is None else text[: m.start(2)] + new + text[m.end(2) :]

    return edit


def _retold(passage: passages.Passage, new: str) -> Edit:
    """The part of the text `passage` names, saying `new` instead (its line break kept)."""

    def edit(text: str) -> str | None:
        spans = passages.find(text, passage)
        if len(spans) != 1:
            return None
        start, end = spans[0]
        kept = len(text[start:end]) - len(text[start:end].rstrip())
        return text[:start] + new + text[end - kept :]

    return edit


def _either(first: Edit, second: Edit) -> Edit:
    def edit(text: str) -> str | None:
        done = first(text)
        return second(text) if done is None else done

    return edit


def _value_of_kind(screen: Screen, kind: str) -> str:
    pattern = lexicon().values.get(kind)
    if pattern is None:
        return ""
    for element in screen.elements:
        if element.kind in TEXT_KINDS and (m := pattern.search(element.text)):
            return m[0]
    return ""


# ---- lines ---------------------------------------------------------------------------------------


def ordered(reverse: bool = False) -> Edit:
    """The text's lines sorted as a person sorts them (letters, any case; blank lines left
    out), ending as the text ended."""

    def edit(text: str) -> str | None:
        rows = [line for line in text.split("\n") if line.strip()]
        if not rows:
            return None
        rows.sort(key=lambda line: line.strip().casefold(), reverse=reverse)
        return "\n".join(rows) + ("\n" if text.endswith("\n") else "")

    return edit


_MARKED = re.compile(r"^([ \t]*)(#|//|;|--|%)[ ]?", re.M)
"""A line that is a comment: its indent, its marker and the space after it."""


def commented(passage: passages.Passage, marker: str, off: bool = False) -> Edit:
    """The lines `passage` names as comments (`marker` after their indent), or with `off`
    their markers taken away; None when the text holds no such line."""
    if not passage.unit:
        passage = replace(passage, unit="line")  # "comment out print(total)": its line

    def edit(text: str) -> str | None:
        spans = passages.find(text, passage)
        if not spans:
            return None
        starts = [st for st in _line_starts(text)
                  if any(st < b and _line_span(text, st)[1] >= a for a, b in spans)]  # fmt: skip
        for start in reversed(starts):
            end = _line_span(text, start)[1]
            line = text[start:end]
            if off:
                line = _MARKED.sub(r"\1", line, count=1)
            elif line.strip() and not line.lstrip().startswith(marker):
                indent = re.match(r"[ \t]*", line)[0]  # type: ignore[index]
                line = f"{indent}{marker} {line[len(indent):]}"
            text = text[:start] + line + text[end:]
        return text

    return edit


def comment_marker(text: str, shown: list[str]) -> str:
    """What starts a comment here: the kind of the file a text on the screen names (the
    window's title), else the marker the text's own comments use, else "#"."""
    markers = lexicon().comment_markers
    for words in shown:
        for name in re.findall(r"[\w.-]+(\.[A-Za-z0-9]{1,10})\b", words):
            if (marker := markers.get(name.lower())) is not None:
                return marker
    used = [m[2] for m in _MARKED.finditer(text)]
    return max(set(used), key=used.count) if used else "#"


def comment(actor: OfflineActor, step: Step) -> None:
    """Lines commented out or back in, through an exact reading of the text."""
    text = document(actor, step)
    if text is None:
        raise StepFailed(f"could not {step.clause!r}: the editor's text could not be read exactly")
    marker = comment_marker(text, [e.text for e in actor.screen.elements])
    edit = commented(passages.read(step.target or ""), marker, off=step.where == "off")
    rewrite(actor, step, edit, f"line '{step.target}'", before=text)


def order(actor: OfflineActor, step: Step) -> None:
    """The lines sorted, only through an exact reading of the text: an editor whose text
    cannot be read is not retyped from what OCR made of it."""
    if not rewrite(actor, step, ordered(step.text == "reverse"), "lines"):
        raise StepFailed(f"could not {step.clause!r}: the editor's text could not be read exactly")


def lines(actor: OfflineActor, step: Step) -> None:
    """Lines typed where the caret is; lines "added" to a text that holds some already go at
    its end, each on a line of its own."""
    actor.state.memory.edited = True
    text = step.text or ""
    if words_of(step.clause)[:1] in (["add"], ["append"]):  # to what the text holds
        actor.blind(step, Hotkey(keys=("ctrl", "end")), None, CHANGE, "going to the end")
        text = "\n" + text
    actor.blind(step, Type(text=text), None, CHANGE, "writing the lines")


def insert(actor: OfflineActor, step: Step) -> None:
    """Text at the end or start of the document, on a new line below or above a line, or
    between two words."""
    text = step.text or ""
    where = step.where or "end"
    actor.state.memory.edited = True
    edit = inserted(text, where, step.target or "", step.destination or "", step.nth)
    if rewrite(actor, step, edit, f"'{step.target}'"):
        return
    if where.startswith(("end", "start")):
        key = "end" if where.startswith("end") else "home"
        typed = {"end line": "\n" + text, "start line": text + "\n"}.get(where, text)
        actor.blind(step, Hotkey(keys=("ctrl", key)), None, CHANGE, f"going to the {where}")
        actor.blind(step, Type(text=typed), None, CHANGE, f"typing at the {where}")
        return
    anchor = _occurrence(actor, step.target or "")
    if anchor is None:
        raise StepFailed(f"could not {step.clause!r}: the screen shows no '{step.target}'")
    element, part = anchor
    point = (part.right - 1, part.center[1])
    actor.blind(step, Click(target=Target(point=point)), point, CHANGE, "caret on the line")
    if where == "below":
        actor.blind(step, Hotkey(keys=("end",)), None, CHANGE, "end of the line")
        actor.blind(step, Type(text="\n" + text), None, CHANGE, "a new line below")
    elif where == "above":
        actor.blind(step, Hotkey(keys=("home",)), None, CHANGE, "start of the line")
        actor.blind(step, Type(text=text + "\n"), None, CHANGE, "a new line above")
    else:  # between
        after = _occurrence(actor, step.destination or "")
        same_line = after is not None and abs(after[1].center[1] - part.center[1]) < part.h / 2
        _select(actor, step, part, step.target or "")
        actor.blind(step, Hotkey(keys=("right",)), None, CHANGE, f"after '{step.target}'")
        if same_line:
            tail = re.search(r"[^\w\s]+$", element.text.strip())
            mark = tail[0] if tail and element.text.strip().endswith(tail[0]) else ""
            typed = f"{mark} {text}" if mark else f" {text}"
        else:
            actor.blind(step, Hotkey(keys=("end",)), None, CHANGE, "end of the line")
            typed = "\n" + text
        actor.blind(step, Type(text=typed), None, CHANGE, f"typing '{text}'")


def delete(actor: OfflineActor, step: Step) -> None:
    """All the text, the line that shows `step.target`, or the words `step.target` with one
    space beside them. Backspace removes what is selected, as a person types it."""
    if step.where == "all":
        actor.blind(step, Hotkey(keys=("ctrl", "a")), None, CHANGE, "selecting all the text")
        actor.blind(step, Hotkey(keys=("backspace",)), None, CHANGE, "deleting it")
        return
    passage = passages.read(step.target or "")
    if step.where == "duplicate":
        edit = duplicate_deleted
    elif step.where == "line":
        edit = line_deleted(step.target or "", step.nth)
    elif passage.named and passage.unit != "word":  # "the last two lines", "both DEBUG lines"
        edit = lambda text: passages.removed(text, found) if (  # noqa: E731
            found := passages.find(text, passage)) else None  # fmt: skip
    else:
        words, line = words_deleted(step.target or ""), line_deleted(step.target or "")
        edit = lambda text: words(text) or line(text)  # noqa: E731  # else the line about them
    what = f"line {step.nth}" if step.nth else f"'{step.target}'"
    if rewrite(actor, step, edit, what):
        return
    found = _occurrence(actor, step.target or "")
    if found is None:
        raise StepFailed(
            f"could not {step.clause!r}: the screen shows no '{step.target}'"
            + actor.closest(actor.screen, step.target or "")
        )
    _, part = found
    if step.where == "line":
        point = part.center
        actor.blind(step, Click(target=Target(point=point)), point, CHANGE, "caret on the line")
        for keys, why in (
            (("home",), "start of the line"),
            (("shift", "down"), "the line and its line break"),
            (("backspace",), "deleting them"),
        ):
            actor.blind(step, Hotkey(keys=keys), None, CHANGE, why)
        return
    last = not any(
        e.box.x > part.right and abs(e.box.center[1] - part.center[1]) < part.h / 2
        for e in actor.screen.elements
        if e.kind in TEXT_KINDS
    )
    _select(actor, step, part, step.target or "")
    actor.blind(step, Hotkey(keys=("backspace",)), None, CHANGE, f"deleting '{step.target}'")
    if not last:  # the space after it goes too
        actor.blind(step, Hotkey(keys=("shift", "right")), None, CHANGE, "the space after it")
    actor.blind(step, Hotkey(keys=("backspace",)), None, CHANGE, "and the space beside it")


# ---- saving and closing --------------------------------------------------------------------------


def _name_field_within(actor: OfflineActor, seconds: float) -> Element | None:
    """The Save dialog's name field, looked for on still screens until it shows: a file
    chooser opened for the first time on a busy machine can take seconds to draw."""
    deadline = time.monotonic() + seconds
    while (field := _name_field(actor.screen)) is None and time.monotonic() < deadline:
        actor.state.observe()
    return field


def _name_field(screen: Screen) -> Element | None:
    for field in fields(screen):
        if field.element.kind in FIELD_KINDS and any(
            text_similarity(name, field.label) >= 85 for name in SAVE_FIELDS
        ):
            return field.element
    return None


def save(actor: OfflineActor, step: Step) -> None:
    """Save: with keys, press them; with a name, through the Save dialog (opened with Save As
    when it is not open yet): the name, in the folder when one is named, then Enter."""
    if step.keys:
        actor.blind(step, Hotkey(keys=tuple(k.lower() for k in step.keys)), None, CHANGE,
                    "saving with " + "+".join(step.keys))  # fmt: skip
        return
    if not step.text and actor.state.memory.edited and not asks_to_save(actor.screen):
        actor.blind(step, Hotkey(keys=("ctrl", "s")), None, CHANGE, "saving the document")
        return
    if not step.text:
        actor.carry_out(Step("intent", step.clause, text="save"))
        return
    field = _name_field(actor.screen)
    for keys in (("ctrl", "shift", "s"), ("ctrl", "s")):
        if field is not None:
            break
        actor.blind(step, Hotkey(keys=keys), None, CHANGE, "opening the Save dialog")
        field = _name_field_within(actor, DIALOG_WAIT)
    if field is None:
        raise StepFailed(f"could not {step.clause!r}: no Save dialog with a name field opened")
    path = step.text
    if step.destination:
        folder = _folder(actor.screen, step.destination, field)
        if folder is not None:
            action = DoubleClick(target=Target(id=folder.id))
            actor.blind(step, action, folder.box.center, CHANGE, f"opening {step.destination}")
            field = _name_field(actor.screen) or field
        else:
            path = f"~/{step.destination}/{path}"
    actor.type_into(step, replace(field, name=field.name or "File name"), path)
    actor.blind(step, Hotkey(keys=("enter",)), None, CHANGE, f"saving as {path}")
    again = _name_field(actor.screen)
    if again is not None and again.box.iou(field.box) > 0.8:  # a completion list took Enter
        actor.blind(step, Hotkey(keys=("enter",)), None, CHANGE, "confirming the name")
    still = _name_field(actor.screen)
    if still is not None and still.box.iou(field.box) > 0.8:  # Enter does not save here
        lex = lexicon()
        button = intent_button(actor.screen, lex.intents["save"]) or intent_button(
            actor.screen, lex.intents["affirm"]
        )
        if button is not None and button.kind == "button":
            actor.click_element(step, button, f"'{button.text}' saves as {path}")


def _folder(screen: Screen, name: str, field: Element) -> Element | None:
    """The folder `name` in the dialog's list of files (a row, not the name field)."""
    rows = [
        e
        for e in screen.elements
        if e.kind in ("list_item", "text")
        and e.id != field.id
        and text_similarity(name, e.text) >= 95
    ]
    return max(rows, key=lambda e: e.box.w) if rows else None


def close(actor: OfflineActor, step: Step) -> None:
    """Close the window (Ctrl+W, else Alt+F4); "without saving" answers its question. "Close
    my account" on a page with a button for it is that button, not the window."""
    if step.target and not re.fullmatch(_WINDOWS, step.target, re.I):
        button = _button_named(actor.screen, f"close {step.target}") or _button_named(
            actor.screen, step.target
        )
        if button is not None:
            actor.click_element(step, button, f"'{button.text}' closes the {step.target}")
            return
    if step.text == "discard":
        asked = intent_button(actor.screen, lexicon().intents["discard"])
        if asked is not None and asked.kind == "button":  # the question shows already
            actor.click_element(step, asked, f"'{asked.text}' closes without saving")
            return
    for keys in (("ctrl", "w"), ("alt", "f4")):
        before = actor.screen
        actor.blind(step, Hotkey(keys=keys), None, CHANGE, "closing the window")
        if not actor.screen.frame.same_as(before.frame):
            break
    if step.text == "discard":
        actor.carry_out(Step("intent", step.clause, text="discard"))


# ---- a calculator --------------------------------------------------------------------------------


def compute(actor: OfflineActor, step: Step) -> None:
    """Press the calculation on the calculator's own buttons, key by key, as a person does; a
    calculation that starts with a number clears the calculator first. A key the calculator
    draws no button for, or the same key again, is typed."""
    buttons = lexicon().calculator_buttons
    tokens = (step.text or "").split()
    if not any(_button(actor.screen, buttons.get(d, (d,))) for d in "123456789"):
        _type_expression(actor, step, tokens)
        return
    keys = (["clear"] if tokens and tokens[0][0].isdigit() else []) + [
        key for token in tokens for key in ([token] if token in buttons else list(token))
    ]
    for index, key in enumerate(keys):
        button = _button(actor.screen, buttons.get(key, (key,)))
        if index and keys[index - 1] == key and len(key) == 1:
            button = None  # a second click on the same button may count as a double-click
        if button is not None:
            actor.click_element(step, button, f"the {key} key")
        elif key == "clear":
            actor.blind(step, Hotkey(keys=("esc",)), None, CHANGE, "clearing the calculator")
        elif len(key) == 1:
            actor.blind(step, Type(text=key), None, CHANGE, f"typing {key}")
        else:
            raise StepFailed(f"could not {step.clause!r}: the calculator shows no {key} key")


def _type_expression(actor: OfflineActor, step: Step, tokens: list[str]) -> None:
    """A calculator that shows no keys (Qalculate, a command line) takes the calculation
    written out in its entry, evaluated with Enter; one that starts with a number replaces
    what the entry holds."""
    expression = ""  # "5 km to miles" goes in as written
    for index, token in enumerate(tokens):
        if token in ("sqrt", "sin", "cos", "tan", "ln", "log"):
            expression = f"{token}({expression.strip()})"
        elif token == "=":  # keys "12 + 15 = / 2 =": what came before is worked out first
            if index < len(tokens) - 1 and tokens[index + 1] != "=":
                expression = f"({expression.strip()})"
        else:
            expression = f"{expression} {token}"
    expression = expression.strip()
    if tokens and tokens[0][0] in "0123456789(":
        actor.blind(step, Hotkey(keys=("ctrl", "a")), None, CHANGE, "selecting the entry")
    equals = _button(actor.screen, ("=",))
    actor.blind(step, Type(text=expression, enter=equals is None), None, CHANGE,
                f"typing {expression}")  # fmt: skip
    if equals is not None:  # Enter might take a completion the entry offers ("km" for "kilo")
        actor.click_element(step, equals, "the = key")


_WINDOWS = (
    r"(?:the\s+)?(?:window|dialog|dialogue|program|app|application|tab|file|document|editor"
    r"|it|this|that|[\w.-]+\.\w{1,5})"
)
"""What "close X" names when X is the window itself (or the file shown in it)."""


def _button_named(screen: Screen, words: str) -> Element | None:
    named = [e for e in screen.elements if e.kind in ("button", "link")
             and text_similarity(words, e.text) >= 90]  # fmt: skip
    return named[0] if named else None


def _button(screen: Screen, labels: tuple[str, ...]) -> Element | None:
    for label in labels:
        for element in screen.elements:
            if element.interactive and element.text.strip() == label:
                return element
    return None
