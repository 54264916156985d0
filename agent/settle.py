"""Reading a step's words against the screen it is about to act on.

The grammar cut the task's words without seeing anything; here the words that name something on
the screen become targets and the rest values: "Enter the PIN 4821" types 4821 into the field
labelled PIN; "Tick Milk and Butter" ticks two boxes when the screen shows no "Milk and Butter";
"Sign up Ada Lovelace with the email …, country Norway and no newsletter" fills each field named
by its label; "accept" picks the button that means yes; "the invoice from March" is the row
that shows March. Values named rather than given ("the coupon code", "the sum of subtotal and
shipping") are read from the screen or from what an earlier step read.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz import fuzz

from clickwright.agent import codes, passages, reading, sections, timetable
from clickwright.agent.clauses import Step, unquote
from clickwright.agent.dates import minutes_in, parse_date, time_of_day, times_in
from clickwright.agent.embeddings import similarities, vectors
from clickwright.agent.grounding import (
    FIELD_KINDS,
    TOGGLE_KINDS,
    Field,
    card_round,
    coloured_set,
    echoes,
    fields,
    files_named,
    grid_cell,
    grid_column,
    is_prose,
    list_boxes,
    names_row,
    normalize,
    of_kind,
    paragraphs,
    rank,
    row_menu,
    search_field,
    showing,
    showing_words,
    shows_words,
    star_row,
    text_lines,
    text_similarity,
    unseen_sliders,
)
from clickwright.agent.interpreter import interpret, unreadable
from clickwright.agent.lexicon import Intent, lexicon, phrase_at, words_of
from clickwright.agent.making import made_on, opening
from clickwright.agent.memory import Memory
from clickwright.agent.setting import item_field, quantity, taking
from clickwright.errors import StepFailed, TaskError
from clickwright.parsers.colours import palette
from clickwright.types import Element, Screen

__all__ = ["Settled", "asks_to_save", "intent_button", "read_value", "row_words", "settle"]

SHOWN = 85.0
"""Similarity at which a target counts as shown on the screen as named."""
LABEL = 80.0
"""Similarity at which words name a field's label."""
SETTLED = frozenset({"form", "label", "delete", "change", "intent", "set", "unread"})
"""Verbs whose words are always read against the screen; other verbs only when `soft`."""


@dataclass(frozen=True)
class Settled:
    """What the screen made of a step: the steps to carry out, and why, for the log."""

    steps: list[Step]
    why: str = ""


def settle(step: Step, screen: Screen, memory: Memory) -> Settled:
    """The step(s) `step` becomes on `screen`."""
    if step.scope and shows_words(screen, row_words(step.scope), rows=True) is None and (
        row := row_by_extreme(screen, step.scope)
    ):
        step = replace(step, scope=row)  # "whoever owes the most": the row that shows it
    if (owned := _owned_field(step, screen)) is not None:
        return owned
    if (opened := _opened(step, screen, memory)) is not None:
        return opened
    if (removed := _block_removed(step, screen)) is not None:
        return removed
    if (added := _block_added(step, screen, memory)) is not None:
        return added
    if step.verb in ("click", "drag", "form", "unread") and (
        shifted := _block_shifted(step.clause, screen)
    ):
        return shifted
    if step.verb == "drag" and step.target and step.destination and (
        moved := timetable.redated(screen, step.target, step.destination)
    ):
        return _redated(step, *moved)
    if step.verb in ("form", "unread") and (made := _block_made(step, screen)) is not None:
        return made
    if step.verb == "click" and step.target and (found := timetable.block(screen, step.target)):
        return Settled([replace(step, target=found.text)], f"'{step.target}' is '{found.text}'")
    if step.verb == "click" and step.target and (line := _line_by_when(screen, step.target)):
        opened = replace(step, target=line.text, where="open")  # opened, not ticked
        return Settled([opened], f"'{step.target}' is '{line.text}'")
    if step.source:
        return _sourced(step, screen, memory)
    match step.verb:
        case "form":
            return _form(step, screen, memory)
        case "label":
            if not step.target and step.clause in memory.submitted:
                if memory.form_verbs and step.text not in memory.form_verbs:
                    return _label(replace(step, text=memory.form_verbs[-1]), screen)
                return Settled([], "the row's own button did it")
            if _amends_the_change(step, screen, memory):
                return Settled([], f"'{step.text} it': the change before it is made")
            return _label(step, screen)
        case "delete":
            return _delete(step, screen)
        case "change":
            return _change(step, screen)
        case "intent" if (
            step.text == "save"
            and memory.edited
            and not asks_to_save(screen)
            and intent_button(screen, lexicon().intents["save"]) is None
        ):  # a dialog's own "Save changes" is pressed, not the browser's Ctrl+S
            keys = Step("press", step.clause, keys=("ctrl", "s"))
            return Settled([keys], "the document this run changed: Ctrl+S")
        case "intent" if (done := _pressed_before(step, screen, memory)):
            return Settled([], f"'{done}' was pressed before it and is gone: nothing left to do")
        case "intent":
            return _intent(step, screen)
        case "set" if step.target and step.text:
            return _set(step, screen)
        case "unread":
            return _unread(step, screen)
        case "type" if not step.soft and not step.target and describes(step):  # "write a
            return _unread(replace(step, verb="unread", target=step.clause), screen)  # review"
        case "type" if step.soft:
            return _type(step, screen)
        case "select" if step.soft:
            return _select(step, screen)
        case "check" | "uncheck" if step.target and (
            each := coloured_set(screen, step.target, step.every)
        ):
            ticks = [replace(step, target=e.text, kind=None, every=False, soft=False) for e in each]
            return Settled(ticks, f"'{step.target}': {', '.join(e.text for e in each)}")
        case "click" if (
            step.soft
            and step.target
            and words_of(step.clause)[:1] in (["select"], ["choose"], ["pick"])
            and (each := coloured_set(screen, step.target, step.every))
            and all(_boxed_row(screen, e) for e in each)
        ):  # "select the emails with a red flag": rows chosen by their boxes
            return Settled(_ticks(step.clause, each), f"'{step.target}': "
                           f"{', '.join(e.text for e in each)}")  # fmt: skip
        case "click" | "check" | "uncheck" | "double_click" | "right_click" if step.soft:
            return _pointed(step, screen)
        case "drag" if step.soft and step.target:
            return _moved(step, screen)
    return Settled([replace(step, soft=False)])


def _opened(step: Step, screen: Screen, memory: Memory) -> Settled | None:
    """ "write a 4 star review of the hoodie, title '…'": the button that opens the form for
    what the verb makes, then the rest of the sentence read on that form (its own button is
    pressed at the task's end, see `making`)."""
    if step.verb not in ("type", "unread", "form"):
        return None
    if memory.made and memory.made[0] == step.clause:  # its rest, on the form
        return None
    found = opening(step.clause, screen)
    if found is None:
        return None
    memory.made = made_on(screen, step.clause, found.verb, found.made)
    label = found.button.text or found.button.name
    click = Step("click", step.clause, target=label, kind=found.button.kind)
    if not found.rest:
        return Settled([click], f"'{label}' opens the form for the {found.made}")
    rest = Step("form", step.clause, target=found.rest, text="", soft=True)
    return Settled([click, rest], f"'{label}' opens the form for the {found.made}; then its fields")


_OWN_FIELD = re.compile(r"(?P<row>.+?)(?:'s|’s|s') (?P<field>\w+(?: \w+)?)$")
"""A row's own field: "Fjordkaffe's notes"."""
_IN_A_FIELD = ("delete", "change", "type", "insert", "lines")


def scope_row(scope: str) -> str:
    """The words of the row a scope names: "Fjordkaffe" in "Fjordkaffe's notes"."""
    said = _OWN_FIELD.fullmatch(scope)
    return row_words(said["row"] if said else scope)


def _owned_field(step: Step, screen: Screen) -> Settled | None:
    """ "In Fjordkaffe's notes, get rid of the line about their old address": the row's field
    is clicked into first (found behind the row's menu when the screen does not show it),
    then the edit is made in it."""
    said = _OWN_FIELD.fullmatch(step.scope or "")
    if step.verb not in _IN_A_FIELD or said is None or _labelled_as(screen, said["field"]):
        return None
    if shows_words(screen, row_words(said["row"]), rows=True) is None:
        return None
    into = Step("click", step.clause, target=said["field"], kind="input", scope=said["row"])
    return Settled([into, replace(step, scope=None)], f"in the {said['field']} of {said['row']}")


def _ticks(clause: str, rows: list[Element]) -> list[Step]:
    """Each row's box ticked, the row found again by its text when its turn comes."""
    return [Step("check", clause, target=e.text) for e in rows]


_RECIPIENTS = re.compile(r"\s(?:to|for)\s+(?P<rows>.+)$", re.I)
"""Whom a verb's thing goes to ("a payment reminder to everyone marked red")."""


def _to_marked_rows(step: Step, screen: Screen) -> Settled | None:
    """ "Send a payment reminder to everyone marked red": the rows the colour names, ticked by
    their boxes (each known by its first words, not a cell other rows share), and the verb's
    button after, as for "select the emails with a red flag and delete them"."""
    said = _RECIPIENTS.search(step.target or "")
    each = coloured_set(screen, said["rows"]) if said else None
    if not each or not all(_boxed_row(screen, e) for e in each):
        return None
    names = list(dict.fromkeys(n for e in each if (n := _ticked_name(screen, e))))
    if not names:
        return None
    ticks = [Step("check", step.clause, target=n) for n in names]
    return Settled(ticks, f"'{said['rows']}': {', '.join(names)}")


def _boxed_row(screen: Screen, element: Element) -> bool:
    """Whether `element` is on a row that starts with a check box (a mail, a file, a task)."""
    return _row_box(screen, element) is not None


def _ticked_name(screen: Screen, element: Element) -> str:
    """The words the check box on `element`'s row is labelled with, else the first right of
    it (a name over its e-mail address in a two-line cell is level with the box, not with the
    row's middle)."""
    box = _row_box(screen, element)
    if box is None or box.text.strip():
        return box.text.strip() if box else ""
    words = [e for e in screen.elements if e.kind in ("text", "link")
             and re.search(r"[^\W\d_]", e.text) and e.box.x > box.box.right
             and e.box.y < box.box.bottom and e.box.bottom > box.box.y]  # fmt: skip
    return min(words, key=lambda e: e.box.x).text.strip() if words else ""


def _row_box(screen: Screen, element: Element) -> Element | None:
    """The check box that starts `element`'s row."""
    middle = element.box.center[1]
    boxes = [e for e in screen.elements if e.kind == "checkbox" and e.box.x < element.box.x
             and abs(e.box.center[1] - middle) <= max(e.box.h, element.box.h) / 2]  # fmt: skip
    return boxes[0] if boxes else None


def _moved(step: Step, screen: Screen) -> Settled:
    """What a drag onto a place moves: the one thing named as shown ("Salt and pepper"), else
    each file of a kind ("the two .jpg files"), else each thing of a list ("report.pdf and
    notes.txt"), one drag each, each found again when its turn comes."""
    target = step.target or ""
    if _shown(screen, target):
        return _same(step)
    each = [e.text for e in files_named(screen, target) or coloured_set(screen, target) or ()]
    parts = _parts(target)
    if not each and len(parts) > 1 and all(_shown(screen, p) for p in parts):
        each = parts
    if not each:
        return _same(step)
    drags = [replace(step, target=name, soft=False) for name in each]
    return Settled(drags, f"'{target}': {', '.join(each)}, one at a time")


def _same(step: Step, why: str = "") -> Settled:
    return Settled([replace(step, soft=False)], why)


# ---- words neither grammar reads ---------------------------------------------------------------

MAX_SKIPPED = 3
"""Words at a clause's start passed over as a verb the lexicon lacks ("Connect to …", "get me
…") or a place ("in the title change …")."""


def _unread(step: Step, screen: Screen) -> Settled:
    """A clause neither grammar reads ("the playlist should be called Road trip 2025", "get me
    the pizza that costs 11", "in the title change 2024 to 2025"), read as a person reads it
    against the screen: past a first word or two that the lexicon lacks, the rest read again
    as a step; a first word that is a button's ("Connect to HomeNet"); the fields and boxes its
    words name by their labels; else the row or control they name."""
    clause = step.target or step.clause  # less a remark in brackets
    toks = [t for t in reading.tokens(clause) if t.word not in (",", ";")]
    if not toks:
        raise unreadable(clause, "it names nothing")
    lex = lexicon()
    if (options := _options(clause, screen)) is not None:
        return options
    if (timed := _block_timed(clause, screen)) is not None:
        return timed
    if (told := _as_said(clause, screen)) is not None:
        return told
    ranged = _range(clause, screen)
    if ranged is not None and ranged.steps and ranged.steps[0].verb == "set":
        return ranged  # "Night setback should run from 22:30 until 6:15": its two fields
    if (rows := _rows_showing(clause, screen)) is not None:
        return rows
    if (placed := _placed(clause, screen)) is not None:
        return placed
    for skip in range(1, min(MAX_SKIPPED, len(toks) - 1) + 1):
        rest = clause[toks[skip].start :]
        if not reading.starts_with_verb(rest):
            continue
        try:
            steps = interpret(rest)
        except TaskError:
            continue
        if steps and all(s.verb != "unread" for s in steps):
            skipped = clause[: toks[skip].start].strip()
            return Settled([replace(s, clause=clause) for s in steps], f"read past '{skipped}'")
    verb = toks[0].text
    said = [t.word for t in toks]
    if (
        len(toks) == 2
        and reading.is_pronoun(toks[1].text)
        and (lex.verb_at("form", said) == 1 or lex.verb_at("label", said) == 1)
    ):  # "create it" after the form: its Create button, however it goes on ("… workspace")
        return _label(Step("label", clause, text=verb), screen)
    if toks[0].word not in lex.determiners and len(toks) > 1 and _buttons(screen, verb):
        rest = clause[toks[1].start :]
        return _label(Step("label", clause, text=verb, target=rest), screen)
    labelled = _names_a_label(toks[0].text, screen)
    rest = clause[toks[1].start :] if len(toks) > 1 else ""
    row = row_words(rest) if rest else ""
    if row and row != reading.words_text(rest, reading.tokens(rest), 0, len(reading.tokens(rest))):
        if (cell := shows_words(screen, row, rows=True)) is not None and cell.kind in (
            "list_item",
            "text",
            "link",
        ):  # "attach the invoice from March": the file that shows March
            return Settled([Step("click", clause, target=cell.text)], f"the row with '{row}'")
    known = reading.starts_with_verb(clause)  # "Set up …": no row's own verb
    if not labelled and not known and rest and (acted := _row_verb(verb, rest, clause, screen)):
        return acted  # "refund order 1083": the row's Refund
    if filled := _fill(clause, screen, after_verb=not labelled, named_only=True):
        return Settled([replace(s, clause=clause) for s in filled], "the fields its words name")
    if (stated := _stated(clause, screen)) is not None:
        return stated
    if ranged is not None:
        return ranged
    starts = [0, 1] + ([2] if len(toks) > 2 and toks[1].word in lex.persons else [])
    for skip in starts[: len(toks)]:  # the words, past a verb, past "get me" (the object)
        rest = clause[toks[skip].start :]
        if (target := _named_on_screen(screen, rest)) is not None:
            whole = skip == 0 and len(toks) > 2 or len(target.split()) >= ECHO_WORDS
            if whole and not _control_named(screen, target):
                continue  # the verb and words, or a long run of them, in a plain text: the
                # page showing the task, not what it names
            return Settled([Step("click", clause, target=target)], f"'{target}' is shown")
    if step.where == "remark":
        return Settled([], "a remark on the step before: it names nothing on the screen")
    if (onward := _wizard_onward(step, screen, back=False)) is not None:
        return onward
    raise unreadable(clause, "and none of its words name anything on the screen")


_TIMED = re.compile(r"(?P<what>.+?) (?:should|must|needs? to|has to|is to|will) "
                    r"(?P<edge>start|begin|end|finish) (?:at )?(?P<time>.+?)"
                    r"(?:,? (?:not|instead of|rather than) .+)?", re.I)  # fmt: skip


def _block_timed(clause: str, screen: Screen) -> Settled | None:
    """ "the red event on thursday should start at 15:00 not 14:30": the block a week's view
    shows, opened, and the time its edge says set in what it opens."""
    said = _TIMED.fullmatch(clause.strip(" .!"))
    if said is None or (found := timetable.block(screen, said["what"])) is None:
        return None
    edge = "start" if said["edge"].lower() in ("start", "begin") else "end"
    opened = Step("click", clause, target=found.text)
    timed = Step("set", clause, target=edge, text=said["time"])
    return Settled([opened, timed], f"'{found.text}' opened, its {edge} set")


_SHIFTED = re.compile(r"(?:push|move|shift|bump|put|make|set|nudge)\s+(?P<said>.+?)\s+"
                      r"(?P<way>later|earlier|forward|back)", re.I)  # fmt: skip


def _block_shifted(clause: str, screen: Screen) -> Settled | None:
    """ "push the green thing on the 19th half an hour later": the entry opened and its start
    set to the time it shows moved by the span said (the form keeps its length, or the end
    is left to the task's words)."""
    said = _SHIFTED.fullmatch(clause.strip(" .!"))
    if said is None or (span := minutes_in(said["said"])) is None:
        return None
    what = re.sub(r"\s+(?:back|by)$", "", said["said"][: span[1]].strip(), flags=re.I)
    found = timetable.block(screen, what)
    if found is None or not (shown := times_in(found.text)):
        return None
    sign = -1 if said["way"].lower() in ("earlier", "forward") else 1
    start = (shown[0][0] * 60 + shown[0][1] + sign * span[0]) % (24 * 60)
    time = f"{start // 60:02d}:{start % 60:02d}"
    opened = Step("click", clause, target=found.text)
    moved = Step("set", clause, target="start", text=time)
    return Settled([opened, moved], f"'{found.text}' opened, its start set to {time}")


_ABOUT = re.compile(r"\b(?:from|about|by|re|regarding)\s", re.I)
"""Words that say what a row shows: who it is from, what it is about."""


def _line_by_when(screen: Screen, words: str) -> Element | None:
    """ "the 3pm planning thing on thursday", "the email from mum about sunday lunch": the one
    line (or row of a list) that shows the time (as a clock shows it, 15:00), the day (Thu)
    and the other words said, when the words do not show as they are; its longest text, to
    click."""
    times = times_in(words)
    day = next((d for w in words_of(words) if (d := timetable.day_of(w)) is not None), None)
    if not (times or day or _ABOUT.search(words)) or shows_words(screen, words) is not None:
        return None
    lex = lexicon()
    rest = re.sub(r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?\b", " ", words, flags=re.I)
    said = [w for w in words_of(_ABOUT.sub(" ", rest)) if w not in lex.determiners
            | lex.thing_nouns | lex.block_nouns and timetable.day_of(w) is None
            and w not in ("on", "at")]  # fmt: skip
    found = []
    for line in _rows_or_lines(screen):
        shown = " ".join(e.text for e in line)
        seen = words_of(shown)
        if times and times_in(shown)[:1] != times[:1]:
            continue  # the time said is the one it starts at ("the 11am thing": not 10-11)
        if day is not None and not any(timetable.day_of(w) == day for w in seen):
            continue
        if all(any(fuzz.ratio(w, v) >= 85 for v in seen) for w in said):
            found.append(max(line, key=lambda e: len(e.text)))
    unique = {e.id: e for e in found}  # a row and its own line: one
    return next(iter(unique.values())) if len(unique) == 1 else None


def _rows_or_lines(screen: Screen) -> list[list[Element]]:
    """The texts of each row of a list (a mail's sender and subject lines together), else of
    each line."""
    rows = [e.box for e in screen.elements if e.kind == "list_item"]
    lines = text_lines(screen)
    if not rows:
        return lines
    held = [[e for line in lines for e in line if row.contains(e.box, slack=2)] for row in rows]
    return [row for row in held if row] + lines


def _redated(step: Step, entry: Element, date: str) -> Settled:
    """A month's entry moved to another date where nothing is dragged: opened, its date set,
    and its start when a time is said ("… at 1pm")."""
    steps = [Step("click", step.clause, target=entry.text), Step("set", step.clause,
             target="date", text=date)]  # fmt: skip
    if times := times_in(step.destination or ""):
        hour, minute = times[0]
        steps.append(Step("set", step.clause, target="start", text=f"{hour:02d}:{minute:02d}"))
    return Settled(steps, f"'{entry.text}' opened, its date set to {date}")


_MADE_INTO = re.compile(r"(?:make|turn|set|mark|change)\s+(?P<said>.+)", re.I)


def _block_made(step: Step, screen: Screen) -> Settled | None:
    """ "make the expense report thing on the 25th an all day event": the entry the shortest
    start of the words names (up to the date said), opened, and the rest read on what opens."""
    said = _MADE_INTO.fullmatch(step.clause.strip(" .!"))
    if said is None:
        return None
    words = said["said"].split()
    least = timetable.date_words(said["said"])  # a date said is the entry's, not the change's
    for cut in range(max(1, least), len(words)):
        found = timetable.block(screen, " ".join(words[:cut]))
        if found is not None:
            opened = Step("click", step.clause, target=found.text)
            return Settled([opened, _made_into(step.clause, words[cut:])],
                           f"'{found.text}' opened; then the rest on it")  # fmt: skip
    return None


def _made_into(clause: str, words: list[str]) -> Step:
    """What an opened entry is made: "an all day event" turns its "All day" on; other words
    are read on its form."""
    lex = lexicon()
    said = [w for w in words if w.lower() not in lex.determiners]
    while said and said[-1].lower() in lex.block_nouns:
        said.pop()
    if said and palette().name_in(" ".join(said)) is None and len(said) <= 3:
        return Step("check", clause, target=" ".join(said), soft=True)
    return Step("form", clause, target=" ".join(words), text="", soft=True)


_CALLED = re.compile(r"\b(?:called|named|titled)\s+(?P<title>.+?)\s*(?=,|;|\s(?:on|at|from)\s|$)",
                     re.I)  # fmt: skip
"""A new thing's name ("called Call with bank")."""


def _timed(words: str, screen: Screen) -> Settled | None:
    """ "on friday 2pm to 2.30pm called Call with bank" on a new event's form: the day chosen
    in the drop-down that shows a day, the start and end times, and the title, each in the
    field made for it; None unless the words give a day or a time and the form shows it."""
    titled = _CALLED.search(words)
    rest = words[: titled.start()] + words[titled.end() :] if titled else words
    times = times_in(rest)
    day = next((d for w in words_of(rest) if (d := timetable.day_of(w)) is not None), None)
    known = fields(screen)
    dated = next((f for f in known if f.element.kind == "combo"
                  and timetable.day_of(f.element.text) is not None), None)  # fmt: skip
    steps = []
    named = next((e for e in screen.elements if e.kind in ("text", *FIELD_KINDS)
                  and {"title", "name"} & set(words_of(e.text or e.name))), None)  # fmt: skip
    if titled is not None and named is not None and named.kind == "text":  # "Add title" in
        steps.append(Step("type", words, target=named.text, kind="text",
                          text=titled["title"]))  # fmt: skip  # its field, not one it is over
    elif titled is not None:
        steps.append(Step("type", words, target="title", text=titled["title"]))
    if day is not None and dated is not None:
        label = dated.label or dated.element.text
        steps.append(Step("set", words, target=label, text=day[:3].title()))
    for edge, (hour, minute) in zip(("start", "end"), times[:2], strict=False):
        steps.append(Step("set", words, target=edge, text=f"{hour:02d}:{minute:02d}"))
    if not (times or day and dated):
        return None
    return Settled(steps, "its day, its times and its title, each in its field")


_OFF_IT = re.compile(r"\s+(?:in|from|off|on|of)\s+(?:the\s+)?(?:it|them|this|that|event|meeting|"
                     r"guests|list)$", re.I)  # fmt: skip
"""What a tag is taken off, said after its name ("tom in the it", "tom from the guests")."""


def tag_close(screen: Screen, words: str) -> tuple[Element, Element] | None:
    """A tag the words name ("Tom Becker ×" among an event's guests) and the × that takes it
    off, just right of its words on its line; None when no such tag is shown."""
    name = _OFF_IT.sub("", words).strip()
    shown = shows_words(screen, name) if name else None
    if shown is None or shown.kind in FIELD_KINDS:
        return None
    marks = {"close", "remove", "delete", "×", "x", "✕"}
    closes = [e for e in screen.elements if e.kind in ("button", "icon", "link")
              and normalize(e.name or e.text) in marks
              and abs(e.box.center[1] - shown.box.center[1]) < shown.box.h
              and -shown.box.h <= e.box.x - shown.box.right < 3 * shown.box.h]  # fmt: skip
    return (shown, closes[0]) if len(closes) == 1 else None


_ADDED_TO = re.compile(r"(?:add|invite|include|put) (?P<who>.+?) (?:to|on|in|into) (?P<what>.+)",
                       re.I)  # fmt: skip


def _block_added(step: Step, screen: Screen, memory: Memory) -> Settled | None:
    """ "add priya to the design review": the block opened, the name typed into the field
    for the people it has (its Guests, its "Add guests"), and the form it opened saved at
    the task's end."""
    said = _ADDED_TO.fullmatch(step.clause.strip(" .!"))
    if step.verb not in ("type", "unread") or said is None:
        return None
    if (found := timetable.block(screen, said["what"])) is None:
        return None
    memory.made = made_on(screen, step.clause, "edit", found.text)
    opened = Step("click", step.clause, target=found.text)
    typed = Step("type", step.clause, target="add guests", kind="text", text=said["who"],
                 enter=True)  # fmt: skip  # its empty field, shown by its placeholder
    return Settled([opened, typed], f"'{found.text}' opened, '{said['who']}' added to its guests")


_AS_SAID = re.compile(r"as (?P<who>.+?) says", re.I)
"""What is left of "do what lena says in her comment"."""


def _as_said(clause: str, screen: Screen) -> Settled | None:
    """ "do what lena says in her comment": her card's words, read as the change they state
    ("Wrong date – the launch is 14 March, not 4 March": 4 March becomes 14 March) or ask for
    ("please change X to Y"). Only a change of words is taken from a page, nothing it says to
    press; None when no card of hers is shown."""
    said = _AS_SAID.fullmatch(clause.strip(" .!"))
    if said is None or (name := shows_words(screen, said["who"])) is None:
        return None
    card = card_round(screen, name.box)
    if card is None:
        return None
    texts = [e for e in screen.elements if e.kind == "text" and card.contains(e.box, slack=2)
             and e.box.y >= name.box.bottom - 2 and len(e.text.split()) > 2]  # fmt: skip
    body = " ".join(e.text for e in sorted(texts, key=lambda e: (e.box.y // 8, e.box.x)))
    for piece in re.split(r"(?<=[.!?])\s+|\s+[–—−-]\s+", body):
        piece = piece.strip(" .!")
        found = next((m for p in lexicon().statements if (m := p.fullmatch(piece))), None)
        if found is not None and found.groupdict().get("old"):  # "…, not 4 March": those words
            change = Step("change", clause, text=found["new"], old=found["old"])
            return Settled([change], f"{name.text} says: {piece}")
        if (stated := _stated(piece, screen)) is not None:
            return Settled([replace(s, clause=clause) for s in stated.steps],
                           f"{name.text} says: {piece}")  # fmt: skip
        try:
            asked = interpret(piece)
        except TaskError:
            continue
        if asked and all(s.verb == "change" and s.old for s in asked):
            return Settled([replace(s, clause=clause) for s in asked], f"{name.text} asks: {piece}")
    raise StepFailed(
        f"could not read what {name.text} says as a change of words ({body[:80]!r})",
        "only a change a comment states is taken from the screen; say the change itself",
    )


def _block_removed(step: Step, screen: Screen) -> Settled | None:
    """ "cancel the dentist on wednesday", "delete the red event on friday": the block a week's
    view shows, opened, then its Delete."""
    if not step.target or not (
        step.verb == "delete" or step.verb == "intent" and step.text == "cancel"
    ):
        return None
    if (found := timetable.block(screen, step.target)) is None:
        return None
    opened = Step("click", step.clause, target=found.text)
    return Settled([opened, Step("label", step.clause, text="delete")],
                   f"'{found.text}' opened, then deleted")  # fmt: skip


def _placed(clause: str, screen: Screen) -> Settled | None:
    """Where something should be, said with no verb ("both red cards need review now", "the
    orange ones are receipts"): a drag of it onto the place the screen shows by that name (a
    column, a folder, a bin; "rejects" is Reject), to its top or bottom when said."""
    said = re.sub(r"\s*(?:\b(?:pls|plz|please)\b|[.!])\s*$", "", clause.strip(), flags=re.I)
    for pattern, meant in lexicon().placements:
        if (m := pattern.fullmatch(said)) is None:
            continue
        wheres = meant or (m["where"],)
        place = next((p for w in wheres if (p := _drop_place(screen, w)) is not None), None)
        what = m["what"].strip()
        if place is None or not what or reading.is_pronoun(what):
            continue
        if not (_shown(screen, what) or coloured_set(screen, what) or rank(screen, what)):
            lex = lexicon()  # "the login timeout bug": the words a card shows, less its kind
            what = " ".join(w for w in what.split()
                            if w.lower() not in lex.determiners | lex.thing_nouns)  # fmt: skip
            if not what or not rank(screen, what):
                continue
        if m.groupdict().get("end"):
            at = 1 if m["end"].lower() in ("top", "start") else -1
            drag = Step("drag", clause, target=what, destination=place.text, where="position",
                        nth=at, soft=True)  # fmt: skip
        else:
            drag = Step("drag", clause, target=what, destination=place.text, soft=True)
        return Settled([drag], f"'{what}' belongs in '{place.text}'")
    return None


def _drop_place(screen: Screen, words: str) -> Element | None:
    """The place on the screen `words` name ("review", "my Receipts folder", "rejects"): a short
    text that reads as them, singular or plural, kind words ("folder", "column") aside."""
    lex = lexicon()
    kept = [w for w in words_of(words) if w not in lex.determiners
            and w not in lex.drag_containers and w not in ("my", "the", "now")]  # fmt: skip
    if not kept or len(kept) > 3:
        return None
    name = " ".join(kept)
    forms = {normalize(f) for f in (name, name.removesuffix("s"), name.removesuffix("es"),
                                    f"{name}s")}  # fmt: skip
    shown = [e for e in screen.elements if e.kind in ("text", "list_item", "button", "link", "tab")
             and 0 < len(e.text.split()) <= 3
             and " ".join(w for w in normalize(e.text).split() if len(w) > 1) in forms]  # fmt: skip
    # (a mark before a place's name, "✔ Keep" read "x Keep", is no part of it)
    return min(shown, key=lambda e: (e.box.y, e.box.x)) if shown else None


def _names_a_label(word: str, screen: Screen) -> bool:
    return any(words_of(f.label)[:1] == words_of(word) for f in fields(screen))


ECHO_WORDS = 5
"""Words of a clause that a plain text on the screen repeats, from which it is the task shown
on the page rather than a thing the clause names."""


def _control_named(screen: Screen, words: str) -> bool:
    """Whether `words` are what a control (not a plain text) shows ("Connect to HomeNet")."""
    found = rank(screen, words)
    return bool(found) and found[0].element.interactive and found[0].element.kind != "text"


def _named_on_screen(screen: Screen, words: str) -> str | None:
    """The row or control `words` name: a row by its extreme value or by all its words, the
    words after a relative ("that costs 11"), all the words, or most of them."""
    if (extreme := row_by_extreme(screen, words)) is not None:
        return extreme
    if (cell := _row_showing(screen, words)) is not None:
        return cell.text
    row = row_words(words)
    if row != words and row and (cell := shows_words(screen, row)) is not None:
        return cell.text  # "that costs 11": the row showing "11 USD"
    if _shown(screen, words):
        return words
    return _shown_part(screen, words) or None


# ---- typing: which words name the field ----------------------------------------------------------


def _type(step: Step, screen: Screen) -> Settled:
    """ "the PIN 4821": the words at either end that name a field on the screen are the target;
    "City with Oslo and Zip with 0150" is a form."""
    text = step.text or ""
    if step.target and lexicon().value_kind(text) in ("date", "time"):
        dated = replace(step, verb="set", soft=False)  # written as the field writes dates
        return Settled([dated], f"'{text}' is a {lexicon().value_kind(text)}")
    if step.target:
        filled = _fill(f"{step.target} with {text}", screen)
        if len(filled) > 1:
            return Settled([replace(s, clause=step.clause) for s in filled], "a field per label")
        return _same(step)
    split = _label_at_edge(text, screen)
    if split is None and (row_button := _verb_button_for(step, screen)) is not None:
        return row_button
    if split is None:
        if value := _trailing_value(text):
            typed = replace(step, text=value, soft=False)
            return Settled([typed], f"'{value}' is the value the words name")
        if describes(step):  # "add the hoodie in dark red": no words to type anywhere
            return _unread(replace(step, verb="unread", target=step.clause), screen)
        return _same(step, "no field label among the words: all of them are the text")
    field, value = split
    if len(more := _fill(f"{field.label} {_cut_at_labels(value, screen, field)}", screen)) > 1:
        return Settled([replace(s, clause=step.clause) for s in more], "a field per label")
    settled = replace(step, target=field.label, kind="input", text=value, soft=False)
    return Settled([settled], f"'{field.label}' names a field; '{value}' is the text")


_SIZE = re.compile(r"\bsize (?P<size>[a-z0-9]{1,4})\b|\bin (?P<alone>xxs|xs|s|m|l|xl|xxl)\b", re.I)
_HOW_MANY = re.compile(r"\b(?P<n>\d{1,3}|two|three|four|five|six|seven|eight|nine|ten) (?:of "
                       r"(?:them|those|these|it)|pairs?|pieces?|items?|units?|packs?)\b|"
                       r"\b(?:qty|quantity)(?: of)? (?P<q>\d{1,3})\b", re.I)  # fmt: skip


def _options(clause: str, screen: Screen) -> Settled | None:
    """ "add the hoodie in the dark red colour, size L, 2 of them": a product's options chosen
    as a shopper does — the swatch of the colour named, the size's button, the quantity — then
    the button the verb is on (Add to cart); None unless the clause names an option and the
    screen shows such a button."""
    verb = words_of(clause)[:1]
    buttons = [b for b in screen.elements if b.kind == "button" and verb
               and verb[0] in lexicon().buying and words_of(b.text)[:1] == verb]  # fmt: skip
    if len(buttons) != 1:
        return None
    steps = []
    if (colour := palette().name_in(clause)) is not None:
        steps.append(Step("click", clause, target=f"{colour[0]} swatch"))
    if (size := _SIZE.search(clause)) is not None:
        label = (size["size"] or size["alone"]).upper()
        steps.append(Step("click", clause, target=label, kind="button", where="exact"))
    if (many := _HOW_MANY.search(clause)) is not None:
        count = lexicon().number(many["n"] or many["q"])
        steps.append(Step("set", clause, target="quantity", text=f"{count:g}"))
    if not steps:
        return None
    press = Step("click", clause, target=buttons[0].text, kind="button")
    return Settled([*steps, press], f"the options it names, then '{buttons[0].text}'")


def describes(step: Step) -> bool:
    """Whether the words a verb gives to type name things rather than being text: three
    words or more after the verb before anything quoted, the first an article ("use the
    discount code from the banner", "write a 4 star review of the hoodie, title '…'"); typed,
    they would go into whatever has the focus."""
    said = words_of(re.split(r"['\"“‘]", step.clause, maxsplit=1)[0])
    typing = said[:1] in (["type"], ["enter"], ["input"])  # "type the words hello": as said
    return not typing and len(said) >= 4 and said[1] in lexicon().determiners


def _cut_at_labels(value: str, screen: Screen, field: Field) -> str:
    """The value with a comma before each other field's label it holds ("Pay rent due
    2026-12-01" beside a Due field: "Pay rent, due 2026-12-01")."""
    others = [f.label for f in fields(screen) if f.element.id != field.element.id
              and f.element.kind in FIELD_KINDS and len(words_of(f.label)) == 1]  # fmt: skip
    for label in others:
        value = re.sub(rf"(?<=\S)\s+(?={re.escape(label)}\b)", ", ", value, flags=re.I)
    return value


_DESTINATION = re.compile(r"\s+(?:to|in|into|on)\s+(?:the|my|your|our)?\s*\w+$", re.I)
"""The place a button already names ("add the wool hat TO MY CART": Add to cart)."""


def _verb_button_for(step: Step, screen: Screen) -> Settled | None:
    """ "add the wool hat to my cart", "put the cheapest item in the cart": when buttons start
    with the verb or name the place, and the words (less the place) name a row on the screen,
    the button of that row, not typing."""
    verb = step.clause.split()[0].lower() if step.clause.split() else ""
    place = _DESTINATION.search(step.text or "")
    noun = words_of(place[0])[-1] if place else ""
    named = [b for b in screen.elements if b.kind == "button" and noun in words_of(b.text)]
    buttons = _buttons(screen, verb) if verb else []
    label = (buttons or named or [None])[0]
    what = _DESTINATION.sub("", step.text or "")
    if label is None or not what:
        return None
    if row_by_extreme(screen, what) is None and shows_words(screen, row_words(what)) is None:
        return None
    text = verb if buttons else label.text
    return _label(Step("label", step.clause, text=text, target=what), screen)


def _label_at_edge(text: str, screen: Screen) -> tuple[Field, str] | None:
    """The field whose label is the first (after "the") or last words of `text`, and the rest."""
    toks = reading.tokens(text)
    lex = lexicon()
    start = 0
    while start < len(toks) - 1 and toks[start].word in lex.determiners:
        start += 1
    editable = [f for f in fields(screen) if f.element.kind in FIELD_KINDS]
    best: tuple[float, Field, str] | None = None
    for n in range(1, min(4, len(toks) - start - 1) + 1):
        spans = [(start, start + n, start + n, len(toks)), (len(toks) - n, len(toks), start,
                                                           len(toks) - n)]  # fmt: skip
        for a, b, va, vb in spans:
            words = reading.words_text(text, toks, a, b)
            value = reading.words_text(text, toks, va, vb)
            value = re.sub(r"^(?:as|for|in|into)\s+", "", value, flags=re.I)
            if not words or not value:
                continue
            for field in editable:
                score = text_similarity(words, field.label)
                if score >= LABEL and (best is None or score > best[0]):
                    best = (score, field, value)
    return (best[1], best[2]) if best else None


def _trailing_value(text: str) -> str:
    """ "the code 9911", "my e-mail kim@berg.no": a value of a known kind after a short name
    that starts with "the", "my" or "your", when no field on the screen has that name."""
    lex = lexicon()
    words = text.split()
    if len(words) < 3 or len(words) > 5 or words[0].lower() not in lex.determiners:
        return ""
    kind = lex.value_kind(words[-1])
    return words[-1] if kind in ("number", "email", "date", "time", "money", "url") else ""


# ---- forms: a field for each label the sentence names --------------------------------------------


@dataclass
class _Segment:
    linker: str  # "with", "from", … that opened it ("" at the start or after a comma)
    words: list[reading.Token]
    text: str


def _form(step: Step, screen: Screen, memory: Memory) -> Settled:
    """Each field the sentence names gets the words that go with its label; a sentence that
    names no field is a button for a row ("Pay the invoice from March")."""
    if step.text and (marked := _to_marked_rows(step, screen)) is not None:
        return marked
    if step.text and (labelled := _verb_in_a_label(step, screen)):
        memory.submitted.add(step.clause)  # "order number 88123": no verb, nothing to submit
        return Settled([replace(s, clause=step.clause) for s in labelled], "a field per label")
    said = (step.target or "").split(None, 1)
    if step.soft and not step.text and len(said) == 2 and not _names_a_label(said[0], screen):
        if (acted := _row_verb(said[0], said[1], step.clause, screen)) is not None:
            return acted  # "refund order 1083": no label, a verb the row carries
    left: list[str] = []
    filled = _fill(step.target or "", screen, after_verb=bool(step.text), left=left)
    named = _LABELLED.fullmatch((step.target or "").strip())
    tabled = any(s.verb == "grid" for s in filled)  # "Rate the stay 4 stars: …": a table's
    if named and not step.text and not tabled and not _labelled_as(screen, named[1]):
        told: list[str] = []  # "new expense pls: Client lunch, 1240, …": what it is about
        if not (given := _fill(named[2], screen, left=told)):
            return Settled([Step("set", step.clause, target=named[1], text=named[2])], "its label")
        filled, left = given, told
    if not filled and not step.text:
        read = (
            _timed(step.target or "", screen)
            or _placed(step.clause, screen)
            or _stated(step.clause, screen)
            or _refused(step.clause, screen, memory)
            or _row_choice(step)
            or _range(step.clause, screen)
        )  # a statement, a refusal, "make X a Y", a range
        if read is not None:
            return read
        if (onward := _wizard_onward(step, screen, back=False, down=True)) is not None:
            return onward
        raise StepFailed(
            f"could not read {step.clause!r}: it starts with no verb and names no field on the "
            "screen",
            "say what to do with a verb (click, type, choose, tick …), or use a model backend",
        )
    if not filled:
        memory.submitted.add(step.clause)
        return _label(Step("label", step.clause, target=step.target, text=step.text), screen)
    if step.text:
        memory.form_verbs.append(step.text)
    filled = [replace(s, clause=step.clause) for s in filled]
    pages = int(step.where or "0")
    on = intent_button(screen, lexicon().intents["next"])
    rest = ", ".join(left)
    if not rest or pages >= MAX_PAGES:
        return Settled(filled, "a field per label")
    later = replace(step, target=rest, soft=True, where=str(pages + 1))
    if step.text and on is not None and on.kind == "button":
        onward = Step("click", step.clause, target=on.text, kind="button")  # the next page's
        return Settled([*filled, onward, later], f"a field per label, then '{on.text}'")
    down = Step("scroll", step.clause, direction="down", amount=FURTHER_DOWN)
    return Settled([*filled, down, later], "a field per label, then the rest further down")


FURTHER_DOWN = 5
"""Wheel clicks between two looks down a long form for the fields of the rest of a sentence."""


MAX_PAGES = 5
"""Pages of a wizard a form sentence is carried over ("Continue" after each)."""


_LABELLED = re.compile(r"([^\W\d][\w -]{0,30}?)\s*:\s+(\S.*)", re.S)
"""A clause that gives a label and its value ("Message: I was charged twice")."""


def _labelled_as(screen: Screen, label: str) -> bool:
    return any(text_similarity(label, f.label) >= LABEL for f in fields(screen))


def _verb_in_a_label(step: Step, screen: Screen) -> list[Step]:
    """The fields filled when a form verb is the first word of a label shown with the words
    after it ("order number 88123" beside the field Order number), else none."""
    said = words_of(f"{step.text} {step.target}")
    verb = words_of(step.text or "")
    if not any(words_of(f.label)[: len(verb)] == verb for f in fields(screen)):
        return []  # no label starts with the verb: the sentence is filled once, by _form
    filled = _fill(f"{step.text} {step.target}", screen)
    for s in filled:
        label = words_of(s.target or "")
        if len(label) > len(verb) and label[: len(verb) + 1] == said[: len(verb) + 1]:
            return filled
    return []


def _fill(
    words: str,
    screen: Screen,
    after_verb: bool = False,
    named_only: bool = False,
    left: list[str] | None = None,
) -> list[Step]:
    """Steps that fill the fields `words` names: set, tick, untick, choose. `after_verb`: the
    words follow a form verb, whose object ("contact support", "book a room") is no value;
    `named_only`: no field is guessed for a value its label does not come with; `left` gets
    the pieces after the first (what the verb makes, or what the sentence is about) that no
    step took, each with the word that linked it: their fields may be on a later page or
    further down."""
    lex = lexicon()
    known = fields(screen) + unseen_sliders(screen)
    segments = _segments(words)
    steps: list[Step] = []
    used: set[int] = set()
    named = {found[0].element.id: i for i, seg in enumerate(segments)
             if (found := _field_in(seg, known, set()))}  # fmt: skip
    pending: Field | None = None  # a field named with its value in the next segment
    made: list[tuple[_Segment, int]] = []  # each piece with the steps there were before it
    remarks: list[_Segment] = []
    index = -1
    denied = False  # "and not on weekends": a negation cut from its words by a linker
    while (index := index + 1) < len(segments):
        segment = segments[index]
        said = [t.word for t in segment.words]
        if said and lex.longest(lex.negations, said, 0) == len(said):
            denied = True
            continue
        made.append((segment, len(steps) if pending is None else -1))
        claimed = {field for field, i in named.items() if i > index}  # named further on
        if cells := _grid_reading(segment.text, screen, steps):
            steps += [replace(c, clause=words) for c in cells]  # both named: row and column
            continue
        found = _field_in(segment, known, used)
        main = said[: next((i for i, w in enumerate(said) if w in _CONDITIONS), len(said))]
        negated = denied or any(w in {" ".join(n) for n in lex.negations} for w in main)
        denied = False  # ("if I'm not home, leave it at the door" denies nothing)
        if found is None and (measured := _measured(segment)) is not None:
            steps.append(Step("set", words, target=measured[0], text=measured[1]))
            continue  # "100 wide" with no Width shown: looked for where it may be
        if found is None and (switch := _switch_off_side(segment.text, screen, known, used)):
            steps.append(_toggle(switch, not negated, words))  # "paid monthly": its side off
            used.add(switch.element.id)
            continue
        if found is None and (item := _item_amount(segment.text, screen, used)) is not None:
            steps.append(item)  # "the socks 3 packs": the Qty of the item showing socks
            continue
        if found is None and named_only and pending is None:
            kind = lex.value_kind(segment.text)
            made_for = showing([f for f in known if f.element.id not in used], kind or "")
            if kind in ("time", "date") and len(made_for) == 1:  # "at 06:45": the time field
                steps.append(_set_field(made_for[0], segment.text))
                used.add(made_for[0].element.id)
            elif (meant := _option_meant(segment, screen, known, used)) is not None:
                steps.append(_toggle(meant, False, words))  # "by express": Express delivery
                used.add(meant.element.id)
            elif (guess := _closed_list_for(segment, known, used)) is not None:
                steps.append(guess)  # "with the radio": Radio, if the one drop-down lists it
                used.add(next(f.element.id for f in known if f.label == guess.target))
            continue
        if found is None:
            value = _value_words(segment.text)
            said = re.split(r"\s+(?:is|are|was|were|will be|should be)\s+", value, maxsplit=1)
            if len(said) == 2 and _a_value(said[1]):
                value = said[1]  # "the guest is Anna Berg": who, not what is said of it
            if not value:
                continue
            if pending is not None:
                steps.append(_set_field(pending, value))
                used.add(pending.element.id)
                pending = None
                continue
            option = _option(value, known, used)
            if option is not None:
                steps.append(_toggle(option, negated, words))
                used.add(option.element.id)
                continue
            if (answer := _answer(segment.text, screen, known, used, negated)) is not None:
                steps.append(_toggle(answer, False, words))  # "I won't come back": No
                used.add(answer.element.id)
                continue
            if negated or lex.persons & set(words_of(value)) or _about_it(value):
                remarks.append(segment)  # read, and no value: nothing to carry further
                continue  # "don't ask me …", "ask them to call": an instruction, no value
            if after_verb and index == 0 and not segment.linker and not _a_value(value):
                proper = unquote(value) or _proper_name(value)  # "Create the Orbit Health …"
                free = [f for f in known if f.element.id not in used | claimed
                        and f.element.kind == "input" and not f.element.text.strip()
                        and "name" in words_of(f.label)]  # fmt: skip
                if proper and len(free) == 1:
                    steps.append(_set_field(free[0], proper))
                    used.add(free[0].element.id)
                continue  # "Contact support as …": what the verb acts on, no field's value
            guessed = _field_for_value(value, segment.linker, known, used | claimed)
            for field, part in guessed:
                steps.append(_set_field(field, part))
                used.add(field.element.id)
            if not guessed and (choice := _choice_shown(screen, value)) is not None:
                steps.append(Step("click", words, target=choice.text, kind=choice.kind))
            elif not guessed and (meant := _option_meant(segment, screen, known, used)):
                steps.append(_toggle(meant, False, words))
                used.add(meant.element.id)
            continue
        field, before, after, follows = found
        used.add(field.element.id)
        if follows and before:  # "action movies directed by Bowen": "action" is a value
            thing = before.split()  # for a field left over; "movies" what is looked for
            value = " ".join(thing[:-1]) if len(thing) > 1 and thing[-1].endswith("s") else before
            segments.append(_Segment("", reading.tokens(value), value))
            before = ""
        if field.element.kind in TOGGLE_KINDS:
            steps.append(_toggle(field, negated, words))
            rest = _Segment("", reading.tokens(after), after)
            if after and _field_in(rest, known, used):  # "Pro plan billed yearly": two choices
                segments.insert(index + 1, rest)
                named = {f: i + (i > index) for f, i in named.items()}
            continue
        value = _of_its_kind(field, after or before)
        if not value:
            pending = field
            continue
        steps.append(_set_field(field, value))
    if left is not None:
        ends = [n for _, n in made[1:]] + [len(steps)]
        left += [f"{segment.linker} {segment.text}".strip()
                 for i, ((segment, before), end) in enumerate(zip(made, ends, strict=True))
                 if before == end and i > 0 and segment not in remarks]  # fmt: skip
    return steps + _repeated(steps, known, used)


SEARCH_BUTTONS = ("Search", "Find", "Go")
"""Labels of the button that runs a search form, before the form's Submit."""


def searched_form(step: Step, screen: Screen) -> list[Step]:
    """ "search for action movies directed by Bowen from year 1998" on a form of several
    fields, not one search box: a field per label the words name, then the button that runs
    the search (Search, Find, Go, else the form's Submit); none when they name fewer."""
    filled = _fill(step.target or "", screen)
    if len(filled) < 2:
        return []
    labels = (*SEARCH_BUTTONS, *lexicon().intents["submit"].labels)
    button = next((found[0] for label in labels if (found := _buttons(screen, label))), None)
    steps = [replace(s, clause=step.clause) for s in filled]
    if button is not None:
        steps.append(Step("click", step.clause, target=button.text, kind="button"))
    return steps


def _item_amount(words: str, screen: Screen, used: set[int]) -> Step | None:
    """ "the socks 3 packs", "2 of the headlamps": a number for the field of the listed item
    the other words name (its own Qty)."""
    found = re.fullmatch(r"(?P<name>.*?[^\W\d_].*?)\s+(?P<n>\d+)(?:\s+\w+)?", words.strip())
    found = found or re.fullmatch(r"(?P<n>\d+)\s+(?:of\s+)?(?P<name>.*?[^\W\d_].*)", words.strip())
    if found is None:
        return None
    field = item_field(screen, found["name"], found["n"])
    if field is None or field.element.id in used:
        return None
    used.add(field.element.id)
    return replace(_set_field(field, found["n"]), scope=found["name"])


MEANT = 0.35
"""Closeness in meaning (sentence embeddings) from which words choose a radio button..."""
MEANT_MARGIN = 0.1
"""...when no other choice comes this close ("to my door": Standard, 3-5 days to your door)."""


def _option_meant(
    segment: _Segment, screen: Screen, known: Sequence[Field], used: set[int]
) -> Field | None:
    """The radio button the words mean though they name none of its words, read with what it
    says under its label ("cheapest delivery to my door": Home delivery – Standard, "3–5
    working days, to your door"), when the `models` extra gives the sentence model."""
    radios = [f for f in known if f.element.kind == "radio" and f.element.id not in used]
    if len(radios) < 2 or len(words_of(segment.text)) < 2:
        return None
    texts = [" ".join([f.label, *_said_under(screen, f.element)]) for f in radios]
    near = similarities(f"{segment.linker} {segment.text}".strip(), texts)
    if near is None:
        return None
    order = np.argsort(near)[::-1]
    best, second = near[order[0]], near[order[1]]
    return radios[order[0]] if best >= MEANT and best - second >= MEANT_MARGIN else None


def _said_under(screen: Screen, radio: Element) -> list[str]:
    """The line under a choice's label, in its own box (a card's description)."""
    label = [e for e in screen.elements if e.kind == "text" and e.box.x > radio.box.x
             and abs(e.box.center[1] - radio.box.center[1]) <= radio.box.h]  # fmt: skip
    if not label:
        return []
    first = min(label, key=lambda e: e.box.x)
    below = [e for e in screen.elements if e.kind == "text" and abs(e.box.x - first.box.x) <= 6
             and 0 <= e.box.y - first.box.bottom <= first.box.h]  # fmt: skip
    return [below[0].text] if below else []


def _closed_list_for(segment: _Segment, known: Sequence[Field], used: set[int]) -> Step | None:
    """A word or two after "with" or "as" that no label names, on a screen with one drop-down
    not set yet: that drop-down is opened to look for it among its options (and closed again
    when it is not one)."""
    value = _value_words(segment.text)
    if segment.linker not in ("with", "as", "using") or not value or _a_value(value):
        return None
    if len(value.split()) > 2 or lexicon().value_kind(value):
        return None
    lists = [f for f in known if f.element.kind == "combo" and f.element.id not in used]
    if len(lists) != 1:
        return None
    return replace(_set_field(lists[0], value), where="if listed")


_CONDITIONS = frozenset({"if", "when", "unless", "whenever", "in case"})


def _about_it(value: str) -> bool:
    """ "it goes", "that's all": a pronoun and a verb say something of a value, and are none."""
    said = words_of(value)
    return len(said) >= 2 and said[0] in ("it", "this", "that", "they", "these", "those")


def _repeated(steps: list[Step], known: Sequence[Field], used: set[int]) -> list[Step]:
    """ "Repeat password", "Confirm email": the value the task gave the field they repeat."""
    repeat = lexicon().repeat_fields
    given = {normalize(s.target or ""): s.text for s in steps if s.verb == "set" and s.text}
    more = []
    for field in known:
        words = words_of(field.label)
        if field.element.id in used or not words or words[0] not in repeat:
            continue
        rest = normalize(" ".join(words[1:]))
        if rest and (value := given.get(rest)):
            more.append(_set_field(field, value))
    return more


def _choice_shown(screen: Screen, value: str) -> Element | None:
    """A button that shows the value itself, one of a row of choices ("at 10:00": the 10:00 of
    the free times; "size M")."""
    wanted = normalize(value)
    said = words_of(value)
    shown = [e for e in screen.elements if e.kind in ("button", "link") and normalize(e.text)
             and (normalize(e.text) == wanted
                  or words_of(e.text) == said[: len(words_of(e.text))])]  # fmt: skip
    exact = [e for e in shown if normalize(e.text) == wanted]
    shown = exact or shown  # "51-200 people": the choice that reads 51–200
    return shown[0] if len(shown) == 1 else None


_STARS = re.compile(r"(?:\b|^)(\w+)\s+stars?\b", re.I)


def _grid_reading(words: str, screen: Screen, made: Sequence[Step] = ()) -> list[Step]:
    """ "cleanliness excellent" in a table of choices (a row "Cleanliness of the room", a
    column "Excellent"), "everything in the table Good" (each row the steps `made` so far
    did not set), or "4 stars" before a row of stars: the controls to choose."""
    lex = lexicon()
    if (m := _STARS.search(words)) is not None and (n := lex.number(m[1].lower())):
        stars = star_row(screen)
        if 1 <= n <= len(stars):
            return [Step("grid", words, target="stars", nth=int(n))]
    said = words.split()
    for cut in range(1, len(said)):
        row, column = " ".join(said[:cut]), _value_words(" ".join(said[cut:]))
        if _every_row(row) and (cells := grid_column(screen, column)):
            set_ = [s.target or "" for s in made if s.verb == "grid"]
            return [Step("grid", words, target=label.text, destination=head.text)
                    for label, head, _ in cells
                    if not any(names_row(r, label.text) for r in set_)]  # fmt: skip
        if (cell := grid_cell(screen, row, column)) is not None:
            return [Step("grid", words, target=row, destination=cell[1].text)]
    return []


def _every_row(words: str) -> bool:
    """ "everything in the table", "all the rest", "each row": every row of a table."""
    lex = lexicon()
    said = set(words_of(words)) - lex.determiners
    return bool(said & lex.every_row) and said <= lex.every_row | lex.every_row_fillers


def _of_its_kind(field: Field, value: str) -> str:
    """ "account sam@mail.no" after Email: the word that is an e-mail address, when the label
    names a kind of value and one word of the value is of that kind."""
    lex = lexicon()
    kind = next((k for k in ("email", "date", "time") if _labelled([field], lex.fields[k])), None)
    if kind is None or len(value.split()) < 2 or lex.value_kind(value) == kind:
        return value
    found = [w for w in value.split() if lex.value_kind(w.strip(",;")) == kind]
    return found[0].strip(",;") if len(found) == 1 else value


def _answer(
    said: str, screen: Screen, known: Sequence[Field], used: set[int], negated: bool
) -> Field | None:
    """The Yes or No option under the question the words answer ("I would come back" under
    "Would you come back?"): most of the words are the question's; a denial picks No."""
    lex = lexicon()
    negations = {" ".join(n) for n in lex.negations}
    quiet = lex.determiners | lex.persons | _LINKING_VERBS | negations | {"would", "say"}
    content = [w for w in words_of(said) if w not in quiet]
    wanted = lex.intents["decline" if negated else "affirm"].words
    questions = [t for t in screen.elements if t.text.rstrip().endswith("?")]
    for field in known:
        if field.element.kind not in TOGGLE_KINDS or field.element.id in used:
            continue
        label = normalize(field.label)
        if not content or not label or (label not in wanted and label.split()[0] not in wanted):
            continue  # "No", "No, thanks", "Yes, by email"
        above = [q for q in questions if q.box.bottom <= field.element.box.y + 4]
        if not above:
            continue
        asked = set(words_of(max(above, key=lambda q: q.box.bottom).text))
        if sum(w in asked for w in content) >= max(1, 0.6 * len(content)):
            return field
    return None


def _toggle(field: Field, negated: bool, words: str) -> Step:
    """A radio is chosen; a check box is ticked, or left off when the words deny it ("no
    newsletter")."""
    if field.element.kind == "radio":
        return Step("click", words, target=field.label, kind="radio")
    verb = "uncheck" if negated else "check"
    return Step(verb, words, target=field.label, kind=field.element.kind)


def _segments(words: str) -> list[_Segment]:
    """The sentence cut at commas, conjunctions and linking words ("with", "from", "as"): each
    piece names at most one field and its value."""
    lex = lexicon()
    toks = reading.tokens(words)
    segments: list[_Segment] = []
    current: list[reading.Token] = []
    linker = ""

    def close() -> None:
        if current:
            text = words[current[0].start : current[-1].end]
            segments.append(_Segment(linker, list(current), text))

    for index, tok in enumerate(toks):
        if tok.word in (",", ";", ":", "(", ")") or reading.joins(toks, index):
            close()
            current, linker = [], ""
        elif (
            tok.word in lex.linkers
            and not tok.quoted
            and index + 1 < len(toks)
            and not (current and _every_row(" ".join(t.word for t in current)))
        ):  # "everything in the table Good" is one piece
            close()
            current, linker = [], tok.word
        else:
            current.append(tok)
    close()
    return segments


def _field_in(
    segment: _Segment, known: Sequence[Field], used: set[int]
) -> tuple[Field, str, str, bool] | None:
    """The field whose label is named in the segment, the words before and after it, and
    whether its value follows in the next piece: a label said as a participle at the
    piece's end ("action movies directed" + "by Bowen": Director)."""
    toks = segment.words
    measures = lexicon().measures
    best: tuple[float, int, Field, int, int] | None = None
    for a in range(len(toks)):
        for b in range(a + 1, min(len(toks), a + 4) + 1):
            words = " ".join(measures.get(t.word, t.text) for t in toks[a:b])  # "wide": width
            if toks[a].word in lexicon().determiners or lexicon().value_kind(words):
                continue
            names = [words, *lexicon().synonyms.get(normalize(words), ())]  # "account": Username
            if b - a == 1:
                names += _participle_labels(toks[a].word)
            numbered = any(lexicon().number(t.word) is not None for t in toks[a:b])
            for field in known:
                if field.element.id in used:
                    continue
                if numbered and not any(c.isdigit() for c in field.label):
                    continue  # "snooze 5 minutes" is Snooze (minutes) and its value
                score = max(text_similarity(name, field.label) for name in names)
                if len(words) <= 2 and score < 100:
                    continue  # "I" is inside "Fair", and names nothing
                if score >= LABEL and (best is None or (score, b - a) > best[:2]):
                    best = (score, b - a, field, a, b)
    if best is None:
        return None
    _, _, field, a, b = best
    text = segment.text
    base = toks[0].start
    before = _value_words(text[: toks[a].start - base]) if a else ""
    follows = b - a == 1 and b == len(toks) and bool(_participle_labels(toks[a].word))
    unit = re.findall(r"\(([^)]*)\)", field.label.lower())  # "Snooze (minutes)"
    named_unit = toks[a].word in measures or toks[a].word in " ".join(unit).split()
    if named_unit and a and lexicon().number(toks[a - 1].word) is not None:
        before = toks[a - 1].text  # "new windows 100 wide", "snooze 5 minutes": the number
    after = _value_words(text[toks[b - 1].end - base :]) if b < len(toks) else ""
    return field, before, after, follows


def _participle_labels(word: str) -> list[str]:
    """The labels a participle may stand for ("directed": director, directer, direction)."""
    return [word[: -len(end)] + label for end, label in lexicon().participle_labels
            if word.endswith(end) and len(word) > len(end) + 3]  # fmt: skip


def _measured(segment: _Segment) -> tuple[str, str] | None:
    """ "new windows 100 wide": the field a measure word names and the number before it."""
    lex = lexicon()
    toks = segment.words
    for i in range(1, len(toks)):
        measure = toks[i].word in lex.measures and toks[i].text.islower()  # not "12 High St"
        if measure and lex.number(toks[i - 1].word) is not None:
            return lex.measures[toks[i].word].capitalize(), toks[i - 1].text
    return None


_LINKING_VERBS = frozenset({"is", "are", "be", "of", "should", "must", "shall", "will",
                            "needs", "need", "has", "have", "to", "set", "please", "thanks",
                            "pls"})  # fmt: skip
"""Words that only join a label to its value or are politeness ("Language should be Norsk",
"three children please")."""


def _value_words(text: str) -> str:
    """A value without the words around it that only join it ("the", "no", "is")."""
    lex = lexicon()
    drop = lex.determiners | {" ".join(n) for n in lex.negations} | _LINKING_VERBS
    words = text.split()
    while words and words[0].lower() in drop:
        words.pop(0)
    while words and words[-1].lower() in drop:
        words.pop()
    return " ".join(words).strip(" ,;:")


def _option(value: str, known: Sequence[Field], used: set[int]) -> Field | None:
    """A radio button or check box whose label the value is ("very satisfied"), or holds
    ("yes I'd recommend you" picks Yes)."""
    toggles = [f for f in known if f.element.kind in TOGGLE_KINDS and f.element.id not in used]
    best = max(toggles, key=lambda f: text_similarity(value, f.label), default=None)
    if best is not None and text_similarity(value, best.label) >= SHOWN:
        return best
    words = words_of(value)
    first = [f for f in toggles if words and words_of(f.label) == words[:1]]
    if len(first) == 1:
        return first[0]

    def holds(label: list[str]) -> bool:
        return bool(label) and any(words[i : i + len(label)] == label for i in range(len(words)))

    inside = [f for f in toggles if holds(words_of(f.label))]
    return inside[0] if len(inside) == 1 else None  # "the stay excellent": Excellent


def _switch_off_side(
    value: str, screen: Screen, known: Sequence[Field], used: set[int]
) -> Field | None:
    """The switch a value names by the word on its left ("Monthly [o ] Yearly": "paid
    monthly"), which it shows when it is off."""
    switches = [f for f in known if f.element.kind == "toggle" and f.element.id not in used]
    for field in switches:
        box = field.element.box
        left = [t for t in screen.elements if t.kind == "text"
                and abs(t.box.center[1] - box.center[1]) <= box.h / 2
                and 0 <= box.x - t.box.right <= box.h]  # fmt: skip
        said = words_of(value)
        if any(words_of(t.text) and set(words_of(t.text)) <= set(said) for t in left):
            return field
    return None


def _field_for_value(
    value: str, linker: str, known: Sequence[Field], used: set[int]
) -> list[tuple[Field, str]]:
    """Fields for a value that names none: by what it is (an e-mail address, a date, a time, a
    number, a person's name) and the word before it ("from Sweden", "as Bo Lind")."""
    lex = lexicon()
    free = [f for f in known if f.element.kind not in TOGGLE_KINDS and f.element.id not in used]
    if not free:
        return []
    kind = lex.value_kind(value)
    if kind in ("email", "date", "time", "address"):
        named = _labelled(free, lex.fields[kind]) or showing(free, kind)
        return [(named[0], value)] if named else []
    hinted = _labelled(free, lex.hints.get(linker, ()))
    if not _looks_like_name(value):  # "as Bo Lind" a name field, "as an editor" the Role
        hinted.sort(key=_is_name_field)
    if hinted:
        if hinted[0].label and _is_name_field(hinted[0]):
            return _names(value, free)
        return [(hinted[0], value)]
    if kind == "number" or kind == "money":
        named = _labelled(free, lex.fields["number"])
        return [(named[0], value)] if named else []
    if _looks_like_name(value) and (names := _names(value, free)):
        return names
    if _looks_like_name(value) and len(value.split()) == 1:
        towns = _labelled(free, lex.fields["city"])  # "…, Storgata 5, Oslo": the town
        if towns:
            return [(towns[0], value)]
    choices = {f.element.id: f for f in free if f.element.kind in ("combo", "button")}
    empty = {f.element.id: f for f in free if f.element.kind == "input" and not f.element.text}
    if len(empty) == 1 and (len(value.split()) == 1 and not choices or _looks_like_name(value)):
        return [(*empty.values(), value)]  # "sign in: mia@web.no, Tr0ub4dor": the one left
    order = sorted([*empty.values(), *choices.values()], key=lambda f: f.element.box.y)
    data = value[:1].isupper() or any(c.isdigit() for c in value)  # not "the default …"
    if data and order and order[0].element.kind == "input":
        return [(order[0], value)]  # "Client lunch, 1240, …": the values in the form's order
    if len(choices) != 1 or len(value.split()) > 2:
        return []  # the one choice box takes a short value, not a phrase ("new windows …")
    return [(*choices.values(), value)]


def _labelled(free: Sequence[Field], words: Sequence[str]) -> list[Field]:
    """Fields whose label holds one of `words`, in the order of `words`."""
    found = []
    for word in words:
        for field in free:
            label = normalize(field.label)
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", label) and field not in found:
                found.append(field)
    return found


def _is_name_field(field: Field) -> bool:
    return bool(_labelled([field], lexicon().fields["name"]))


def _a_value(words: str) -> bool:
    """A person's name or a value of a known kind (an e-mail address, a number, a date)."""
    return _looks_like_name(words) or lexicon().value_kind(words) is not None


def _proper_name(words: str) -> str:
    """The run of capitalised words in a phrase ("Orbit Health" in "Orbit Health workspace"),
    or "" when there is none of two letters or more."""
    runs = re.findall(r"(?:(?:\b[A-Z][\w&.'-]+|&)(?:\s+|$))+", words)  # "Kettle & Co"
    best = max((r.strip(" &") for r in runs), key=len, default="")
    return best if len(best) >= 2 else ""


def _looks_like_name(value: str) -> bool:
    words = value.split()
    return 1 <= len(words) <= 4 and all(w[:1].isupper() and w.isalpha() for w in words)


def _names(value: str, free: Sequence[Field]) -> list[tuple[Field, str]]:
    """A person's name: split over first and last name fields, else whole in a name field."""
    lex = lexicon()
    first, last = (
        _labelled(free, lex.fields["first_name"]),
        _labelled(free, lex.fields["last_name"]),
    )
    words = value.split()
    if first and last and len(words) >= 2:
        return [(first[0], " ".join(words[:-1])), (last[0], words[-1])]
    named = _labelled(free, lex.fields["name"])
    return [(named[0], value)] if named else []


def _set_field(field: Field, value: str) -> Step:
    """Setting a field; a number in words ("two adults") is set as its digits, a quoted
    value as what is inside its quotes."""
    value = unquote(value.strip()) or value
    number = lexicon().number(value.lower()) if value.isalpha() else None
    if number is not None and number == int(number):
        value = str(int(number))
    return Step("set", field.label, target=field.label, kind=field.element.kind, text=value)


def _set(step: Step, screen: Screen) -> Settled:
    """ "select Save as PDF": when nothing is labelled "PDF" but "Save as PDF" is shown, the
    words were a name, not a value and its field; "set Name to Ada and Age to 41" is a form."""
    listed = re.search(r",|\band\b", step.text or "")  # "… to Ada and Age to 41"
    if step.target and listed and len(filled := _fill(f"{step.target} to {step.text}", screen)) > 1:
        return Settled([replace(s, clause=step.clause) for s in filled], "a field per label")
    whole = f"{step.text} as {step.target}"
    named = any(text_similarity(step.target or "", f.label) >= 70
                for f in fields(screen) + unseen_sliders(screen))  # fmt: skip
    if not named and _shown(screen, whole):
        return Settled([Step("click", step.clause, target=whole)], f"'{whole}' is shown")
    if not named and (cell := _cell_of(screen, step.target or "")) is not None:
        typed = Step("type", step.clause, target=cell, kind="cell", text=step.text)
        return Settled([typed], f"cell {cell}: the column and the row {step.target!r} names")
    if not named and (line := _setting_line(screen, step.target or "")) is not None:
        change = Step("change", step.clause, target=step.target, text=step.text, old=line[1],
                      where="line")  # fmt: skip
        return Settled([change], f"'{line[0].text}' in the text")
    of = _FIELD_OF.fullmatch(step.target or "")
    row = _HELD_IN.sub("", of["row"]) if of else ""
    if not named and not step.scope and row and (
        shows_words(screen, row_words(row), rows=True) is not None
    ):  # "the quantity of the socks in my cart": the socks' row's quantity
        scoped = replace(step, target=of["field"], scope=row, soft=False)
        return Settled([scoped], f"the {of['field']} in the row of {row}")
    return _same(step)


_FIELD_OF = re.compile(r"(?:the |its |their )?(?P<field>[^\W\d_]+(?: [^\W\d_]+)?) (?:of|for) "
                       r"(?P<row>.+)", re.I)  # fmt: skip
"""A row's own field named before it ("the quantity of the socks")."""
_HELD_IN = re.compile(r"\s+(?:in|from|inside) (?:my|the|your|our) [^\W\d_]+$", re.I)
"""Where the row is kept ("in my cart"), which the row does not show."""


_SWITCHED = (("true", "false"), ("yes", "no"), ("on", "off"), ("1", "0"),
             ("enabled", "disabled"), ("enable", "disable"))  # fmt: skip
"""The values a setting in a text file is switched between."""


def _setting_line(screen: Screen, name: str) -> tuple[Element, str] | None:
    """The line of a text that sets `name` ("timeout = 30", "debug: true") and its value."""
    words = [re.escape(w) for w in re.split(r"[\s_-]+", name.strip()) if w]
    if not words:
        return None
    setting = re.compile(rf"(?:^|\s){'[ _-]?'.join(words)}\s*[=:]\s*(\S+)", re.I)
    for element in screen.elements:  # a text area may hold the lines as one
        if element.kind in ("text", "input") and (m := setting.search(element.text)):
            return element, m[1].strip("\"',;")
    return None


def _switched_on_line(step: Step, screen: Screen) -> Settled | None:
    """ "switch debug off" in a config file: "debug = true" becomes "debug = false"."""
    if (line := _setting_line(screen, step.target or "")) is None:
        return None
    value = line[1]
    for on, off in _SWITCHED:
        if value.lower() in (on, off):
            new = on if step.verb == "check" else off
            new = new.upper() if value.isupper() else new.title() if value.istitle() else new
            change = Step("change", step.clause, target=step.target, text=new, old=value,
                          where="line")  # fmt: skip
            return Settled([change], f"'{line[0].text}' in the text")
    return None


# ---- a button by what it means -------------------------------------------------------------------


def _pressed_before(step: Step, screen: Screen, memory: Memory) -> str:
    """ "… then click Send. send it": the button the intent means was the run's last press and
    the screen no longer shows it; its label, else ""."""
    if memory.acted is None or step.target or step.text not in ("submit", "affirm", "save"):
        return ""
    label = memory.acted[0]
    labels = {normalize(w) for w in lexicon().intents[step.text].labels}
    shown = any(normalize(e.text) == normalize(label) for e in screen.elements
                if e.kind in ("button", "link", "menu"))  # fmt: skip  # an icon's look is no label
    return label if normalize(label) in labels and not shown else ""


def _intent(step: Step, screen: Screen) -> Settled:
    """The button that means the intent; "unlock with the password s3cret!" fills the fields
    the words after "with" name first."""
    if (switch := _column_switch(step, screen) or _into_list(step, screen)) is not None:
        return switch  # "block the orange device": its switch; "block roblox.com": a new item
    intent = lexicon().intents[step.text or "affirm"]
    toggle = _toggle_said(screen, step.clause) or (
        _toggle_said(screen, _value_words(step.target)) if step.target else None
    )  # "say no to the newsletter": the box Newsletter
    if toggle is not None:
        if intent.name == "decline":  # "no newsletter": its box off
            return Settled([replace(s, verb="uncheck") for s in toggle.steps], toggle.why)
        return toggle  # "keep me signed in" ticks Remember me
    verb = step.clause.split()[0] if step.clause.split() else ""
    if (
        step.target
        and not re.match(r"(?:with|using)\s", step.target, re.I)
        and (acted := _row_verb(verb, step.target, step.clause, screen))
    ):
        return acted  # "Cancel the pending order from 3 October": that row's Cancel
    given = re.match(r"(?:with|using)\s+(.+)", step.target or "", re.I | re.S)
    filled = _fill(given[1], screen) if given else []
    if filled:
        step = replace(step, target=None)
    said = words_of(step.clause)[:1]  # "finish when done": the one button its verb is on
    named = [b for b in screen.elements if b.kind == "button" and said
             and said[0] in words_of(b.text) and not step.target]  # fmt: skip
    button = named[0] if len(named) == 1 else intent_button(screen, intent, step.target or "")
    if button is not None:
        label = button.text or button.name
        click = Step("click", step.clause, target=label, kind=button.kind)
        filled = [replace(s, clause=step.clause) for s in filled]
        return Settled([*filled, click], f"'{label}' means {intent.name}")
    if intent.name in _SENDING:  # "Submit it" below a long form: its button, scrolled to
        label = intent.labels[0]
        click = Step("click", step.clause, target=label, kind="button", where="exact")
        return Settled([*filled, click], f"a button that starts '{label}', once found")
    if (onward := _wizard_onward(step, screen)) is not None:
        return onward
    if intent.keys:
        keys = Step("press", step.clause, keys=intent.keys, where="answer")  # must change something
        return Settled([keys], f"no button means {intent.name}: pressing {'+'.join(intent.keys)}")
    return Settled([Step("click", step.clause, target=intent.labels[0], kind="button")])


def _wizard_onward(
    step: Step, screen: Screen, back: bool = True, down: bool = False
) -> Settled | None:
    """ "…, skip the invites", "free plan": on a wizard's page with nothing the step names,
    the page it is about comes later (a step indicator may name it already): Next, then the
    step again; with no Next in view and `down`, the page further down first. `back`: only
    where a Back button shows it is a wizard (an intent's own button is otherwise never
    guessed to be Next)."""
    topic = _value_words(step.target or step.clause)
    pages = int(step.where) if (step.where or "").isdigit() else 0
    if not topic or pages >= MAX_PAGES:
        return None
    intents = lexicon().intents
    onward = intent_button(screen, intents["next"])
    previous = intent_button(screen, intents["back"]) if back else None
    again = replace(step, where=str(pages + 1), soft=True)
    if onward is None and down and _gives_data(step.target or step.clause):
        scroll = Step("scroll", step.clause, direction="down", amount=FURTHER_DOWN)
        return Settled([scroll, again], f"'{topic}' names nothing in view: further down first")
    if onward is None or onward.kind != "button" or onward is previous:
        return None
    if back and previous is None:
        return None
    label = onward.text or onward.name
    click = Step("click", step.clause, target=label, kind="button")
    return Settled([click, again], f"'{topic}' is on a later page: '{label}' first")


def _gives_data(words: str) -> bool:
    """Words that hold values to put somewhere (a name or a title in capitals past the first
    word, a number, a quote), not a request that names nothing ("make me a sandwich")."""
    said = words.split()
    return any(w[:1].isupper() or any(c.isdigit() for c in w) for w in said[1:]) or bool(
        unquote(words.strip())
    )


_SENDING = frozenset({"submit", "checkout"})
"""Intents whose button a page may keep below the fold: looked for, never guessed by Enter."""


def asks_to_save(screen: Screen) -> bool:
    """Whether a question about saving shows (Save beside Discard or Cancel)."""
    lex = lexicon()
    saving = intent_button(screen, lex.intents["save"])
    other = intent_button(screen, lex.intents["discard"]) or intent_button(
        screen, lex.intents["cancel"]
    )
    if saving is None or other is None:
        return False
    row = [b for b in screen.elements if b.kind == "button"
           and abs(b.box.center[1] - saving.box.center[1]) < saving.box.h]  # fmt: skip
    return other in row and len(row) <= 4  # a question's few buttons, not a toolbar


def intent_button(screen: Screen, intent: Intent, topic: str = "") -> Element | None:
    """The button on the screen that carries `intent`: a label the lexicon lists for it (the
    earlier the better), a label with its words, one that names the topic ("Upgrade" for "go
    ahead with the upgrade"), with or without a negation as the intent wants; where none of
    that decides, the label closest in meaning to the intent (sentence embeddings)."""
    lex = lexicon()
    negative = {" ".join(n) for n in lex.negations} | lex.intents["decline"].words
    topic_words = {w for w in words_of(topic) if len(w) > 2} - lex.determiners
    scored: list[tuple[float, Element]] = []
    eligible: list[Element] = []
    for element in screen.elements:
        label = (element.text or element.name).strip()
        if not label or len(label) > 40:
            continue
        if element.kind in ("text", "menu"):  # a toolbar's flat button ("Tx"), where no key
            if (not intent.keys or element.kind == "menu") and label in intent.labels:
                scored.append((60.0, element))  # does it: by its label alone (a pill: "No")
            continue
        if element.kind not in ("button", "link", "icon"):
            continue
        words = words_of(label)
        said_no = bool(set(words) & negative) or any(
            fuzz.ratio(w, n) >= 85 for w in words for n in ("disagree", "decline")
        )
        if intent.polarity > 0 and said_no:
            continue
        if element.kind in ("button", "link") and element.interactive:
            eligible.append(element)  # an icon's name ("Question") is no answer
        score = 0.0
        for rank_, wanted in enumerate(intent.labels):
            if text_similarity(wanted, label) >= 90:
                score = max(score, 100.0 - 3 * rank_)
        for word in words:  # a short word only as itself ("dot" is no "dont")
            if any(fuzz.ratio(word, w) >= 85 if len(word) > 3 else word == w for w in intent.words):
                score = max(score, 70.0)
        if topic_words and any(
            fuzz.ratio(w, t) >= 80 or w.startswith(t[:4]) for w in words for t in topic_words
        ):
            score += 20.0 if intent.polarity >= 0 else 0.0
            if intent.polarity < 0 and said_no:
                score += 25.0
        if intent.polarity < 0 and said_no:
            score += 15.0
        if score > 0:
            scored.append((score, element))
    if not scored:
        return _closest_in_meaning(intent, eligible)
    scored.sort(key=lambda s: -s[0])
    return scored[0][1]


MEANING = 0.5
"""How close in meaning (cosine) a label must be to an intent's own labels and verbs to carry
it, where none of the lexicon's words is on it ("Maybe later" declines, "Sure" affirms)."""


def _closest_in_meaning(intent: Intent, buttons: Sequence[Element]) -> Element | None:
    """The button whose label is nearest in meaning to `intent` and to no other intent more."""
    labels = vectors([(b.text or b.name).strip() for b in buttons]) if buttons else None
    if labels is None:
        return None
    intents = lexicon().intents
    near = {name: _nearness(other, labels) for name, other in intents.items()}
    best: tuple[float, Element] | None = None
    for i, button in enumerate(buttons):
        mine = near[intent.name][i]
        others = max(n[i] for name, n in near.items() if name != intent.name)
        if mine >= MEANING and mine >= others - 0.02 and (best is None or mine > best[0]):
            best = (float(mine), button)
    return best[1] if best else None


def _nearness(intent: Intent, labels: np.ndarray) -> np.ndarray:
    """Each label's cosine to the nearest of the intent's own labels and verbs."""
    own = vectors([*intent.labels, *(" ".join(v) for v in intent.verbs)])
    assert own is not None  # the labels' vectors came from the same model
    return (labels @ own.T).max(axis=1)


# ---- a button named by the verb, for the row the words name --------------------------------------


ADDS = ("add", "+ add", "+add", "add to list")
"""What a list's adding button says, next to its field."""


def _into_list(step: Step, screen: Screen) -> Settled | None:
    """ "Block roblox.com": a value shown nowhere yet goes into the list its verb titles
    ("Blocked websites"), through the field under the title and the Add button beside it."""
    verb = words_of(step.clause)[:1]
    value = (step.target or "").strip()
    if not verb or not value or " " in value or _shown(screen, value):
        return None
    titles = [e for e in screen.elements if e.kind == "text" and len(words_of(e.text)) <= 4
              and any(w != verb[0] and w.startswith(verb[0])
                      for w in words_of(e.text))]  # fmt: skip  # "Blocked websites" for block
    if len(titles) != 1:
        return None
    inputs = sorted((e for e in screen.elements if e.kind == "input"
                     and e.box.y > titles[0].box.y), key=lambda e: e.box.y)  # fmt: skip
    for field in inputs:  # (a row of the list may read as a field: the one with Add beside)
        adds = [b for b in screen.elements if b.kind == "button"
                and normalize(b.text) in ADDS and b.box.x >= field.box.right - 2
                and abs(b.box.center[1] - field.box.center[1]) <= field.box.h / 2]  # fmt: skip
        if len(adds) == 1:
            break
    else:
        return None
    typed = Step("type", step.clause, target=field.text or field.name, kind="input", text=value)
    added = Step("click", step.clause, target=adds[0].text, kind="button")
    return Settled([typed, added], f"'{value}' into the list '{titles[0].text}'")


def _column_switch(step: Step, screen: Screen) -> Settled | None:
    """ "Block the device with the orange tag": the switch under the column headed by the
    verb (Block), on the row the words name; a table's switches carry no name of their own,
    so it is named by its place among the switches."""
    verb = words_of(step.clause)[:1]
    heads = [e for e in screen.elements
             if e.kind == "text" and verb and normalize(e.text) == verb[0]]  # fmt: skip
    if len(heads) != 1 or not step.target:
        return None
    head = heads[0].box
    found = rank(screen, step.target)
    if not found or found[0].score < SHOWN - 10:
        return None
    row = found[0].element.box
    under = [
        e
        for e in screen.elements
        if e.kind in TOGGLE_KINDS
        and e.box.y > head.bottom
        and e.box.x < head.right + head.w
        and e.box.right > head.x - head.w
        and abs(e.box.center[1] - row.center[1]) <= max(e.box.h, row.h) / 2
    ]
    if len(under) != 1:
        return None
    switch = under[0]
    nth = [c.element.id for c in of_kind(screen, switch.kind)].index(switch.id) + 1
    tick = Step("check", step.clause, target="", kind=switch.kind, nth=nth)
    return Settled([tick], f"the {heads[0].text} switch on the row of '{found[0].element.text}'")


def _label(step: Step, screen: Screen) -> Settled:
    """ "Pay the invoice from March": the Pay button of the row that shows March; "…, and
    book": the button that books; "Open forest.jpg": select it, then Open."""
    lex = lexicon()
    verb = (step.text or "").strip()
    toggle = _toggle_said(screen, f"{verb} {step.target or ''}")
    if toggle is not None:  # "Send me a copy": the box of that name, not the Send button
        return toggle
    if (switch := _column_switch(step, screen) or _into_list(step, screen)) is not None:
        return switch  # "block the orange device": its switch; "block roblox.com": a new item
    labels = [verb, *lex.submit.get(verb.lower(), ())]
    button = next((b for label in labels for b in _buttons(screen, label)), None)
    said = words_of(verb)
    menu = next((c for c in screen.elements if c.kind == "combo" and said
                 and words_of(c.text)[: len(said)] == said), None)  # fmt: skip  # "Move to ▾"
    if button is None and menu is not None and step.target:
        found = _COMPLEMENT.search(step.target)
        ticks = _rows_to_tick(screen, step.target, menu, step.clause)
        if found and ticks:  # "move X and Y to the Travel folder": tick them, then Move to
            chosen = Step("select", step.clause, target=menu.text, kind="combo",
                          text=_value_words(re.sub(r"\s+folder$", "", found["what"])))  # fmt: skip
            return Settled([*ticks, chosen], f"{len(ticks)} row(s) ticked, then '{menu.text}'")
    if step.target and reading.is_pronoun(step.target):
        step = replace(step, target=None)  # "yes, delete them": what the question asks about
    row = _row_named(screen, step.target or "", _buttons(screen, button.text or button.name)
                     if button is not None else [])  # fmt: skip
    if button is None:
        onward = intent_button(screen, lexicon().intents["next"])  # a wizard's Continue
        if not step.target and (
            intent_button(screen, lexicon().intents["affirm"]) is None or onward is not None
        ):
            label = verb[:1].upper() + verb[1:]  # "…, and book": below the form, "Book …"
            click = Step("click", step.clause, target=label, kind="button", where="exact")
            return Settled([click], f"a button that starts '{label}', once found")
        if not step.target:
            return _intent(Step("intent", step.clause, text="affirm"), screen)
        if not _shown(screen, row or step.target) and (
            filled := _fill(step.target, screen, named_only=True)
        ):
            filled = [replace(s, clause=step.clause) for s in filled]
            return Settled(filled, f"no '{verb}' button: the fields its words name")
        if (rows := _rows_showing(step.clause, screen)) is not None:
            return rows  # "Upload only the pictures from Rome": the rows, then OK at the end
        if (acting := _row_action(verb, step.target)) is not None:
            action, row = acting
            click = Step("click", step.clause, target=action, scope=row)
            return Settled([click], f"'{action}' for the row that shows '{row}'")
        if (timed := _at_part_of_day(screen, step.target)) is not None:
            return Settled([Step("click", step.clause, target=timed.text)], f"'{timed.text}'")
        if verb.lower() in lex.row_verbs:  # clicking the thing is not archiving it
            raise StepFailed(
                f"could not {step.clause!r}: no '{verb}' button shows for '{step.target}'",
                "open it first in the task's words, or name the button to press",
            )
        return _same(Step("click", step.clause, target=row or step.target), "no such button")
    label = button.text or button.name
    click = Step("click", step.clause, target=label, kind="button")
    if step.target and (ticks := _rows_to_tick(screen, step.target, button, step.clause)):
        steps = [*ticks, click]  # "Delete the two emails from LinkedIn": tick them, then Delete
        found = _COMPLEMENT.search(step.target)
        if found and found["how"].lower() in ("to", "into") and not _COMPLEMENT.search(label):
            steps.append(Step("click", step.clause, target=_value_words(found["what"])))
        return Settled(steps, f"{len(ticks)} row(s) ticked, then '{label}'")
    if not row:
        return Settled([click], f"'{label}' does it")
    in_row = [b for b in _buttons(screen, label)]
    if len(in_row) > 1:
        return Settled([replace(click, scope=row)], f"the '{label}' beside '{row}'")
    shown = shows_words(screen, row)
    if shown is None or shown.kind not in ("list_item", "icon", "link"):
        return Settled([click], f"'{label}' does it")  # "send the 50": no row to pick first
    pick = Step("click", step.clause, target=row)
    return Settled([pick, click], f"'{row}' first, then '{label}'")


def _row_verb(verb: str, words: str, clause: str, screen: Screen) -> Settled | None:
    """ "refund order 1083", "Cancel the pending order from 3 October": the verb as a row's
    own action (its button, or an entry of its menu) on the row the words name, when that row
    shows actions."""
    label = verb[:1].upper() + verb[1:]
    key = _row_key(screen, words)
    if key is None:
        row = row_words(words)
        marks = re.search(r"\d|@|\b[A-Z]", row)
        menus = [e for e in screen.elements if row_menu(screen, e.box) is e]
        paged = search_field(screen) is not None or bool(_buttons(screen, "Next"))
        if not marks or len(menus) < 2 or not paged:
            return None  # rows with menus, more than the page shows: the row may be elsewhere
        click = Step("click", clause, target=label, scope=row)  # on another page: looked for
        return Settled([click], f"'{label}' on the row that shows '{row}', once found")
    middle, shown = key.box.center[1], key.text or key.name
    acts = [e for e in screen.elements if e.id != key.id and e.kind in ("button", "icon", "link")
            and e.box.y <= middle <= e.box.bottom]  # fmt: skip
    if not acts or not shown:
        return None
    lex = lexicon()
    removers = [a for a in acts if a.kind == "icon" and a.name in lex.remove_icons]
    named = any(text_similarity(label, a.text or a.name) >= SHOWN for a in acts)
    if lex.verb_at("delete", [verb.lower()]) and not named and len(removers) == 1:
        click = Step("click", clause, target=removers[0].name, kind="icon", scope=shown)
        return Settled([click], f"the row that shows '{shown}' is removed by its "
                                f"'{removers[0].name}' mark")  # fmt: skip
    click = Step("click", clause, target=label, scope=shown)
    return Settled([click], f"'{label}' on the row that shows '{shown}'")


def _row_key(screen: Screen, words: str) -> Element | None:
    """What the row `words` name shows, by the words that tell rows apart: the words after
    a relative ("from 3 October", a date found however it is shown), a number, a name, a
    handle."""

    def shown(part: str) -> Element | None:
        return shows_words(screen, part, rows=True) if part else None

    row = row_words(words)
    if parse_date(row) is not None:
        return shown(row)  # a date is found whole, however the row shows it
    marks = [w.strip(",.") for w in words.split()
             if (w[:1].isupper() or any(c.isdigit() or c == "@" for c in w)
                 or re.search(r"\w\.\w", w))  # a site, a file: tiktok.com, notes.txt
             and len(w.strip(",.")) >= 3]  # fmt: skip  # "3" or "A" tells no rows apart
    if not marks:
        return None
    named = sorted(marks, key=len, reverse=True)
    parts = [row, *named] if any(m in row for m in marks) else [*named, row]
    for part in parts:  # "tiktok.com in the blocked websites": the site, not the list's title
        if found := shown(part):
            return found
    return None


_COMPLEMENT = re.compile(r"\s+(?P<how>as|to|into)\s+(?P<what>\S.*)$", re.I)
_OWNED = re.compile(r"^(?P<owner>.+?)['’]s?\s+\w+$")


def _row_action(verb: str, words: str) -> tuple[str, str] | None:
    """ "Mark Lena Fischer's order as shipped": the row's action "Mark as shipped" and the
    words its row shows, "Lena Fischer" (an action kept in the row's menu is found there)."""
    found = _COMPLEMENT.search(words)
    if found is None:
        return None
    owned = _OWNED.match(words[: found.start()].strip())
    row = row_words(owned["owner"] if owned else words[: found.start()])
    what = _value_words(found["what"])
    if not row or not what:
        return None
    return f"{verb} {found['how'].lower()} {what}", row


def _rows_to_tick(screen: Screen, words: str, button: Element, clause: str) -> list[Step]:
    """The rows `words` name in a list whose rows start with a check box, where `button` acts
    on the rows ticked (a toolbar's Delete, Mark as read, Move to): a step that ticks each,
    by its longest text (two rows may both show "LinkedIn")."""
    found = _COMPLEMENT.search(words)
    named = words[: found.start()] if found else words
    bands: dict[int, Element] = {}
    for part in _parts(named):
        owned = _OWNED.match(part.strip())
        key = row_words(owned["owner"] if owned else part)
        shown = showing_words(screen, key, rows=True)
        if not shown and (cell := _row_showing(screen, part)) is not None:
            shown = [cell]  # "the hotel receipt": a row that shows both words, apart
        if not shown:
            shown = coloured_set(screen, part, every=True) or []  # "… that have a red dot"
        rows = [e for e in shown
                if abs(e.box.center[1] - button.box.center[1]) > button.box.h]  # fmt: skip
        ticked = [e for e in rows if _tick_box(screen, e) is not None]
        if not ticked:
            return []
        for e in ticked:
            band = [t for t in screen.elements if t.kind in ("text", "link", "list_item")
                    and t.box.y <= e.box.center[1] <= t.box.bottom]  # fmt: skip
            unique = len(showing_words(screen, e.text, rows=True)) == 1  # else its longest text
            bands.setdefault(e.box.center[1] // max(1, e.box.h),
                             e if unique else max(band, key=lambda t: len(t.text)))  # fmt: skip
    return [Step("check", clause, target=t.text, kind="checkbox") for t in bands.values()]


def _tick_box(screen: Screen, element: Element) -> Element | None:
    """The check box that starts `element`'s row, left of it."""
    box = element.box  # on its line, or beside its first line (a two-line mail row)
    boxes = [b for b in screen.elements if b.kind == "checkbox" and b.box.right <= box.x
             and min(b.box.bottom, box.bottom) - max(b.box.y, box.y) > 0.25 * box.h]  # fmt: skip
    return min(boxes, key=lambda b: b.box.x) if boxes else None


def _toggle_said(screen: Screen, words: str) -> Settled | None:
    """Ticking the check box or radio whose label the clause says, in its words or in words
    people use for it ("keep me signed in": Remember me)."""
    said = " ".join(words.split())
    for toggle in (e for e in screen.elements if e.kind in TOGGLE_KINDS):
        label = toggle.text or toggle.name
        names = [label, *lexicon().synonyms.get(normalize(label), ())]
        if any(text_similarity(said, name) >= SHOWN for name in names):
            check = Step("check", said, target=label, kind=toggle.kind)
            return Settled([check], f"'{label}' is what it says")
    return None


_FLAT_BUTTON = re.compile(r"(?:[^\w\s]|[xX])\s+(?P<label>[^\W\d_][\w ]{1,24})")
"""A toolbar's button drawn as a mark and its word with no outline ("✖ Delete", read "x
Delete")."""


def _buttons(screen: Screen, label: str) -> list[Element]:
    """Buttons labelled `label`, or, for a one-word verb, short labels that start with it
    ("install" finds "Install now", "pay" finds "Pay $9")."""
    one = normalize(label) if len(label.split()) == 1 else ""
    exact, starting = [], []
    flats = [e.box for e in screen.elements
             if e.kind == "text" and _FLAT_BUTTON.fullmatch((e.text or "").strip())]  # fmt: skip
    rows = [e.box for e in screen.elements if e.kind == "list_item"  # a folder list's "✖ Trash",
            and sum(e.box.contains(f, slack=2) for f in flats) < 2]  # fmt: skip  # not a toolbar
    for e in screen.elements:
        text = e.text or e.name
        if e.kind == "text" and (flat := _FLAT_BUTTON.fullmatch(text.strip())):
            if text_similarity(label, flat["label"]) >= 90 and not any(
                r.contains(e.box, slack=2) for r in rows
            ):  # a toolbar's "✖ Delete", drawn
                exact.append(e)  # flat: a mark and a word
            continue
        if e.kind not in ("button", "link", "icon", "menuitem"):
            continue
        words = normalize(text).split()
        if text_similarity(label, text) >= 90:
            exact.append(e)
        elif one and 1 < len(words) <= 3 and fuzz.ratio(one, words[0]) >= 90:
            starting.append(e)
    return exact + starting


def row_words(words: str) -> str:
    """What a row is known by in "the invoice from March", "the user who lives in Bergen",
    "the order that is still pending", "the file that is 640 KB": the words after the relative
    word, less the words that only carry it; the words themselves when there is none, less
    the kind of thing said first ("the user @ana": @ana; a card need not say "user")."""
    lex = lexicon()
    toks = reading.tokens(words)
    marker = next(
        (i for i, t in enumerate(toks) if i > 0 and t.word in lex.relatives and i + 1 < len(toks)),
        None,
    )
    if marker is None:
        first = next((i for i, t in enumerate(toks) if t.word not in lex.determiners), 0)
        kind = toks[first] if first < len(toks) - 1 else None
        if kind is not None and not kind.quoted and kind.word.removesuffix("s") in lex.owned_things:
            first += 1
        return reading.words_text(words, toks, first if first < len(toks) else 0, len(toks))
    rest = toks[marker + 1 :]
    while len(rest) > 1 and rest[0].word in lex.relative_fillers:
        rest = rest[1:]
    return words[rest[0].start : rest[-1].end] if rest else ""


def _row_named(screen: Screen, words: str, buttons: Sequence[Element]) -> str:
    """The row `words` names: by what follows its relative word ("the invoice from March"),
    or by the words before it when only they are shown on a row of the `buttons` ("Jonas Lie
    from the team", the team being the page's title), or by its least or greatest value
    ("the cheapest item")."""
    if (extreme := row_by_extreme(screen, words)) is not None:
        return extreme
    row = row_words(words)
    toks = reading.tokens(words)
    lex = lexicon()
    cut = next((i for i, t in enumerate(toks) if i > 0 and t.word in lex.relatives), len(toks))
    before = reading.words_text(words, toks, 0, cut)

    def on_a_row(part: str) -> bool:
        shown = shows_words(screen, part) if part else None
        return shown is not None and (
            len(buttons) < 2
            or any(abs(shown.box.center[1] - b.box.center[1]) <= b.box.h / 2 for b in buttons)
        )

    if on_a_row(row) or not on_a_row(before) and len(buttons) < 2:
        return row
    if on_a_row(before):
        return before
    shown = [w for w in words_of(words) if len(w) > 2 and w not in lex.determiners
             and on_a_row(w)]  # fmt: skip
    return shown[0] if len(shown) == 1 else row  # "the photos email": Photos from the trip


def row_by_extreme(screen: Screen, words: str) -> str | None:
    """ "the cheapest item": the name of the row showing the least amount of money in a
    column of amounts (its first text), by the lexicon's superlatives; among the rows a
    condition leaves ("the cheapest flight that lands before 12"), or the one row it leaves."""
    lex = lexicon()
    said = words_of(words)
    found = next(((way, kind) for phrase, (way, kind) in lex.superlatives.items()
                  if any(phrase_at(said, i, phrase) for i in range(len(said)))), None)  # fmt: skip
    rows = _rows_meeting(screen, said)
    if found is None:
        return _row_name(screen, rows[0]) if rows is not None and len(rows) == 1 else None
    way, kind = found
    values = [(number, e) for e in screen.elements
              if (kind == "number" or lex.value_kind(e.text.strip()) == "money"
                  or MONEY_CELL.fullmatch(e.text.strip()))
              and (number := _amount(e.text)) is not None
              and re.fullmatch(r"\W{0,2}[\d.,]+\W{0,3}\w{0,3}|" + MONEY_CELL.pattern,
                               e.text.strip())]  # fmt: skip
    column = max(values, key=lambda v: sum(abs(v[1].box.center[0] - o.box.center[0]) < 20
                                          for _, o in values), default=None)  # fmt: skip
    if column is None:
        return None
    heads = next((h for phrase, h in lex.column_verbs.items()
                  if any(phrase_at(said, i, phrase) for i in range(len(said)))), ())  # fmt: skip
    named = [v for v in values if _named_column(screen, _column_of(v, values), said, heads)]
    column = max(named, key=lambda v: len(_column_of(v, values)), default=column)
    same = [v for v in _column_of(column, values) if not _a_total(screen, v[1])]
    if rows is not None:
        same = [v for v in same if any(abs(v[1].box.center[1] - y) < v[1].box.h / 2 for y in rows)]
    if len(same) < (1 if rows is not None else 2):
        return None
    _, cell = (min if way == "min" else max)(same, key=lambda v: v[0])
    return _row_name(screen, cell.box.center[1], cell.box.x, [v[1].box.center[1] for v in same])


def _a_total(screen: Screen, cell: Element) -> bool:
    """Whether the amount is a sum's, not a row's: the words before it on its line start with
    "Subtotal", "Total", "Delivery" (a cart's most costly thing is no total)."""
    middle = cell.box.center[1]
    line = [e for e in screen.elements if e.kind == "text" and e.box.right <= cell.box.x + 2
            and abs(e.box.center[1] - middle) < cell.box.h / 2]  # fmt: skip
    words = [words_of(e.text) for e in sorted(line, key=lambda e: -e.box.x)
             if _amount(e.text) is None]  # fmt: skip
    return bool(words) and words[0][:1] in ([w] for w in lexicon().totals)


def _column_of(
    cell: tuple[float, Element], values: list[tuple[float, Element]]
) -> list[tuple[float, Element]]:
    """The values in `cell`'s column (their middles within a few pixels, as numbers align)."""
    return [v for v in values if abs(v[1].box.center[0] - cell[1].box.center[0]) < 20]


MONEY_CELL = re.compile(r"[$€£]?\s?\d{1,3}(?:[ \u00a0]\d{3})+(?:[.,]\d+)?\s?[^\W\d_]{0,3}")
"""An amount with its thousands spaced ("2 140 kr")."""


def _amount(text: str) -> float | None:
    """The amount a cell shows, in its unit's smallest kin ("3.4 MB" is 3,400,000)."""
    spaced = MONEY_CELL.search(text)
    number = _as_number(re.sub(r"[ \u00a0]", "", spaced[0])) if spaced else _as_number(text)
    unit = re.search(r"\d\s?([^\W\d_]{1,5})\s*$", text)
    return number * lexicon().unit_scales.get(unit[1].lower(), 1.0) if number and unit else number


def _rows_meeting(screen: Screen, said: list[str]) -> list[float] | None:
    """The rows (their middles) whose cell meets the condition the words say: "that lands
    before 12" keeps the rows whose Arrives time is before 12:00 (the column a verb names, else
    the one column of that kind of value); None when the words say no condition."""
    lex = lexicon()
    at = next(((i, n, op) for i in range(len(said)) for phrase, op in lex.comparisons.items()
               if (n := len(phrase)) and phrase_at(said, i, phrase)), None)  # fmt: skip
    if at is None or at[0] + at[1] >= len(said):
        return None
    start, length, op = at
    value = " ".join(said[start + length : start + length + 2])
    verb = next((heads for phrase, heads in lex.column_verbs.items()
                 if start >= len(phrase) and tuple(said[start - len(phrase) : start]) == phrase),
                ())  # fmt: skip
    for kind, read in (("time", _clock), ("money", _amount)):
        wanted = _clock(value.split()[0]) if kind == "time" else _amount(value)
        if wanted is None:
            continue
        cells = [(got, e) for e in screen.elements if e.text.strip() and e.kind != "button"
                 and (kind != "time" or re.fullmatch(r"\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?",
                                                      e.text.strip(), re.I))
                 and (kind != "money" or lex.value_kind(e.text.strip()) == "money"
                      or MONEY_CELL.fullmatch(e.text.strip()))
                 and (got := read(e.text)) is not None]  # fmt: skip
        columns: dict[int, list[tuple[float, Element]]] = {}
        for got, cell in cells:
            key = next((k for k in columns if abs(k - cell.box.center[0]) < 20), cell.box.center[0])
            columns.setdefault(key, []).append((got, cell))
        named = [c for c in columns.values() if verb and _headed(screen, c, verb)]
        chosen = named or (list(columns.values()) if len(columns) == 1 else [])
        if len(chosen) != 1:
            continue
        keep = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__}[op]
        return [cell.box.center[1] for got, cell in chosen[0] if keep(float(got), float(wanted))]
    return None


def _clock(text: str) -> float | None:
    """A time of day in hours ("9:05": 9.08; "12", "noon": 12; "8pm": 20)."""
    said = time_of_day(text, bare=True)
    return said[0] + said[1] / 60 if said is not None else None


def _headed(screen: Screen, column: list[tuple[float, Element]], heads: Sequence[str]) -> bool:
    """Whether the column's heading (the text just above its first cell) is one of `heads`."""
    heading = _heading(screen, column)
    return heading is not None and bool(set(words_of(heading.text)) & set(heads))


def _named_column(
    screen: Screen, column: list[tuple[float, Element]], said: list[str], heads: Sequence[str]
) -> bool:
    """Whether the words name the column: by its verb ("owes": Balance due) or its heading's
    own words ("the highest credit limit")."""
    heading = _heading(screen, column)
    named = set(words_of(heading.text)) if heading is not None else set()
    return bool(named) and (bool(named & set(heads)) or named <= set(said))


def _heading(screen: Screen, column: list[tuple[float, Element]]) -> Element | None:
    """The text just above the column's first cell, aligned with it left or right."""
    top = min(column, key=lambda c: c[1].box.y)[1].box
    above = [e for e in screen.elements if e.text.strip() and e.box.bottom <= top.y + 2
             and (abs(e.box.x - top.x) < 30 or abs(e.box.right - top.right) < 30)
             and top.y - e.box.bottom < HEADING_REACH * top.h]  # fmt: skip
    return max(above, key=lambda e: e.box.y, default=None)


HEADING_REACH = 6
"""Line heights a column's heading may be above its first amount (a row or two with none,
"–", between them)."""


def _row_name(
    screen: Screen, middle: float, before: int | None = None, others: Sequence[float] = ()
) -> str | None:
    """The name of the row at `middle`: its first text with letters, left of `before`, that
    no other row shows (a customer's name over the city beside it; the name over the email
    under it in a cell of two lines); given the middles of the `others` rows, one in line with
    their names (a cart drawer's item, not the page behind it on the same line)."""

    def line(y: float) -> list[Element]:
        return [e for e in screen.elements if e.text.strip() and e.kind not in ("button", "link")
                and abs(e.box.center[1] - y) < max(e.box.h, 6)]  # fmt: skip

    def named(texts: list[Element]) -> list[Element]:
        return [e for e in texts if re.search(r"[^\W\d_]", e.text)
                and (before is None or e.box.right <= before)
                and not any(o is not e and e.box.contains(o.box, slack=2) for o in texts)
                ]  # fmt: skip

    names = named(line(middle))
    columns = [[o.box.x for o in named(line(y))] for y in others if y != middle]
    shown = Counter(normalize(e.text) for e in screen.elements)
    first = min(names, key=lambda e: (-sum(any(abs(e.box.x - x) < ALIGNED for x in c)
                                           for c in columns),
                                      shown[normalize(e.text)] > 1, e.box.x // ALIGNED,
                                      e.box.y), default=None)  # fmt: skip
    return first.text.strip() if first is not None else None  # not the whole row


ALIGNED = 20
"""Pixels within which texts start in one column (a name over its email a few pixels apart)."""


# ---- deleting: a row through its button, a line, a word, everything ------------------------------


def _delete(step: Step, screen: Screen) -> Settled:
    """A row through its Delete button; a line, a word or all of an editor's text by its
    words ("remove the line call mom" never presses a toolbar's delete icon)."""
    target = re.sub(r"\s+(?:at|on) the (?:very )?(?:top|bottom|start|end)(?: of (?:it|the \w+))?$",
                    "", step.target or "", flags=re.I)  # "that DRAFT line at the top": where it is
    said = words_of(step.clause)[:1]  # the verb as said: "Remove" is a button's label too
    verb = said[0] if said and lexicon().verb_at("delete", said) else "Delete"
    words = target.lower().split()
    passage = passages.read(target)
    in_the_text = bool(words) and (
        words[0] in _TEXT_UNITS or words[-1] in _TEXT_UNITS or passage.unit in passages.WHOLE
    )
    each = None if in_the_text else coloured_set(screen, target, step.every)
    if each and all(_boxed_row(screen, e) for e in each):  # "delete the emails with a red
        button = next((b for b in (verb, "Delete", "Remove") if _buttons(screen, b)), None)
        if button is not None:  # flag": each row's box ticked, then the one Delete button
            return Settled([*_ticks(step.clause, each), Step("label", step.clause, text=button)],
                           f"'{target}': {', '.join(e.text for e in each)}, then {button}")  # fmt: skip
    if not in_the_text and (chip := tag_close(screen, target)) is not None:
        return Settled([replace(step, where="tag")], f"the × on the tag '{chip[0].text}'")
    named = _OFF_IT.sub("", target).strip()
    unseen = named != target and not _shown(screen, named) and (
        shows_words(screen, row_words(named)) is None and row_by_extreme(screen, named) is None
    )  # "take tom off it" with no Tom shown: never the open event's own Delete
    for label in (verb, "Delete", "Remove"):
        if not in_the_text and not unseen and _buttons(screen, label):
            return _label(Step("label", step.clause, text=label, target=target), screen)
    if not words or " ".join(words) in lexicon().all_text:
        return Settled([replace(step, where="all", target=None)], "all the text")
    if " ".join(words) in lexicon().duplicate_words and _document(screen):
        return Settled([replace(step, where="duplicate", target=None)], "the line in it twice")
    if not in_the_text and (acted := _row_verb(verb, target, step.clause, screen)):
        return acted  # "delete the customer in Tromsø": its row's Delete, in its menu maybe
    if not in_the_text and not _document(screen):  # no editor: a button that deletes it
        label = f"{verb[:1].upper()}{verb[1:]} {target}"
        click = Step("click", step.clause, target=label, kind="button", where="exact")
        return Settled([click], f"'{label}', once found")
    if (
        passage.count
        or passage.plural
        or passage.blank
        or passage.within
        or (passage.unit in ("paragraph", "sentence"))
    ):  # "the last two lines", "the empty lines": found in the exact text
        return Settled([replace(step, where=None)], f"{target}, in the text")
    lex = lexicon()
    if len(words) == 2 and words[1] == "line" and (nth := lex.ordinal(words[0])):
        return Settled([replace(step, target=None, where="line", nth=nth)], f"line {nth}")
    if len(words) == 2 and words[0] == "line" and words[1].isdigit():
        return Settled([replace(step, target=None, where="line", nth=int(words[1]))])
    if len(words) > 1 and words[-1] in ("line", "lines"):  # "the DRAFT line"
        named = [w for w in target.split()[:-1] if w.lower() not in lex.determiners]
        if named:
            return Settled([replace(step, target=" ".join(named), where="line")], "a line")
    for unit in _TEXT_UNITS:
        if words[0] == unit and len(words) > 1:
            kept = target.split(None, 1)[1]
            kept = re.sub(r"\s+(?:from|in|on)\s+the\s+\w+$", "", kept)
            kept = re.sub(_SAYING, "", kept, flags=re.I)  # "the line that says pears"
            where = "line" if unit.startswith("line") else "word"
            items = _parts(kept) if unit in ("lines", "words") else [kept]  # "lines a and b"
            return Settled([replace(step, target=i.strip(" '\""), where=where) for i in items])
    return Settled([replace(step, where="word")])


def listed_end(step: Step, screen: Screen) -> Step | None:
    """ "put Bread at the top" on a screen with no document: a drag of the item named (or of
    the row a superlative names, "the most expensive thing") to its list's first or last
    place, or beside another item shown ("put X above Y"); None when it is an editor's
    insert."""
    said = step.text or ""
    if not said or _document(screen):
        return None
    if step.where in ("above", "below") and step.target and _shown(screen, said) and _shown(
        screen, step.target
    ):  # "put 'Fix login bug' above 'Write tests'": items of a list
        where = "before" if step.where == "above" else "after"
        return Step("drag", step.clause, target=said, destination=step.target, where=where)
    if step.where not in ("start", "end"):
        return None
    name = said if _shown(screen, said) else row_by_extreme(screen, said)
    if name is None:
        return None
    end = 1 if step.where == "start" else -1
    return Step("drag", step.clause, target=name, where="position", nth=end)


def _document(screen: Screen) -> bool:
    """Whether the screen shows a document being edited: a text area a good part of the
    screen's height, holding lines of text."""
    width, height = screen.frame.size

    def holds(area: Element, kinds: tuple[str, ...]) -> bool:
        return any(area.box.contains(e.box) for e in screen.elements
                   if e.kind in kinds and e.id != area.id)  # fmt: skip

    return any(
        e.kind in ("input", "container") and e.box.h >= 0.3 * height and e.box.w >= 0.3 * width
        and (holds(e, ("text",)) or len(e.text) >= 20)  # its lines, or its text (AT-SPI)
        and not holds(e, ("button", "input", "combo", "checkbox", "link"))
        for e in screen.elements
    )  # fmt: skip  # lines of text and no controls among them


_TEXT_UNITS = ("line", "lines", "word", "words", "phrase", "sentence")
_SAYING = r"^(?:about|with|containing|that (?:says|reads|contains|has|mentions)|saying|reading)\s+"


# ---- change: a field's value, or words in a text -------------------------------------------------


def _change(step: Step, screen: Screen) -> Settled:
    """ "Change the city from Bergen to Oslo": the field that shows Bergen; "change my password
    from A to B": the current and new password fields; "change draft to final": the words in
    the text; "change the language to Norsk": the field labelled Language."""
    lex = lexicon()
    known = fields(screen)
    old, new, what = step.old, step.text or "", step.target or ""
    if old:
        holding = [f for f in known if f.element.kind in (*FIELD_KINDS, "button")
                   and text_similarity(old, f.element.text) >= SHOWN]  # fmt: skip
        if holding:
            field = _best_label(holding, what) if what else holding[0]
            return Settled([_set_field(field, new)], f"'{field.label}' shows '{old}'")
        roles = _by_role(what, known)
        if roles:
            old_fields, new_fields = roles
            steps = [_set_field(f, old) for f in old_fields]
            steps += [_set_field(f, new) for f in new_fields]
            return Settled([replace(s, clause=step.clause) for s in steps], "current and new")
        if step.where == "line":
            return Settled([step], f"'{old}' on the line about '{what}'")
        return Settled([replace(step, target=None)], f"'{old}' in the text")
    named = [f for f in known if f.element.kind not in TOGGLE_KINDS
             and text_similarity(what, f.label) >= LABEL]  # fmt: skip
    program = _the_program(screen, what) or (
        re.fullmatch(r"[A-Z][\w.+-]*", what) is not None and shows_words(screen, what) is None
    )  # a name shown nowhere, not even in the text: the program's (its window is titled so)
    if not named and program:  # "switch IDLE to the dark theme"
        said = _value_words(new).split()
        chosen = (
            Step("set", step.clause, target=said[-1], text=" ".join(said[:-1]))  # Theme: dark
            if len(said) > 1
            else Step("click", step.clause, target=" ".join(said), soft=True)
        )
        return Settled([chosen], f"'{what}' is the program itself: '{new}' is a setting of it")
    if words_of(step.clause)[:1] == ["rename"]:  # "rename the workspace": its name, not its URL
        titles = [f for f in known if f.element.kind in ("input", "combo")
                  and {"name", "title"} & set(words_of(f.label))]  # fmt: skip
        if len(titles) == 1 and not named:  # "rename my wifi": the one name field shown
            named = titles
        named = [f for f in named if f in titles] or named
    if named:
        field = _best_label(named, what)
        return Settled([_set_field(field, new)], f"the field labelled '{field.label}'")
    if (cell := _cell_of(screen, what)) is not None:  # "the price of Apples" in a sheet
        typed = Step("type", step.clause, target=cell, kind="cell", text=new)
        return Settled([typed], f"cell {cell}: the column and the row {what!r} names")
    kind = next((k for k, names in lex.fields.items() if normalize(what) in names), None)
    if kind in lex.values:
        return Settled([replace(step, target=None, old=None, where=kind)], f"the {kind} shown")
    if step.where == "line":
        return Settled([step], f"the value on the line about '{what}'")
    if passages.read(what).unit in passages.WHOLE + ("sentence",):  # "the second line"
        return Settled([step], f"{what}, in the text")
    if normalize(what) in _HEADINGS and _document(screen):  # its first line, in the text
        return Settled([replace(step, target=None, old=None, where="heading")], "the heading")
    return Settled([replace(step, target=None, old=what)], f"'{what}' in the text")


_HEADINGS = frozenset({"heading", "title", "header", "headline", "main heading"})
"""What a document's first line is called when a task changes it."""


def _amends_the_change(step: Step, screen: Screen, memory: Memory) -> bool:
    """ "bananas cost 0.99 now, update it": "it" is what the run just changed, and there is no
    Update button to press for it."""
    return (
        (step.text or "").lower() in lexicon().amends
        and reading.is_pronoun(step.target or "")
        and bool(memory.edited or memory.unconfirmed)
        and not _buttons(screen, step.text or "")
    )


_MADE = re.compile(r"(?P<who>\S.*?)\s+(?:an?|the)\s+(?P<what>[^\W\d][\w-]*(?:\s+[\w-]+)?)", re.I)
"""A person or thing and what to make it ("Diego an admin", "Priya the owner")."""


def _row_choice(step: Step) -> Settled | None:
    """ "Make Diego an admin": where no field is named, the choice in the drop-down of the row
    that shows Diego (looked for on the page's tabs and pages when not in view)."""
    made = _MADE.fullmatch((step.target or "").strip())
    if made is None or words_of(step.clause)[:1] != ["make"]:
        return None
    who, what = made["who"], made["what"]
    chosen = Step("select", step.clause, kind="combo", text=what, scope=who)
    return Settled([chosen], f"'{what}' in the row that shows '{who}'")


def _refused(clause: str, screen: Screen, memory: Memory) -> Settled | None:
    """ "don't overwrite": the button that starts with the verb after the negation is not to be
    pressed; what follows may say what to do instead, else the task ends with the dialog's
    cancelling button (see the actor's confirm)."""
    lex = lexicon()
    said = words_of(clause)
    negation = lex.longest(lex.negations, said, 0)
    if not negation or len(said) <= negation:
        return None
    button = next(iter(_buttons(screen, said[negation])), None)
    if button is None or button.kind != "button":
        rest = " ".join(clause.split()[negation:])  # the words after the negation
        if shows_words(screen, rest) is None and shows_words(screen, _addressed(rest)) is None:
            look = Step("find", clause, target=_addressed(rest))  # further down, as a question
            again = Step("form", clause, target=clause, soft=True)
            return Settled([look, again], f"'{rest}' looked for first")
        off = Step("uncheck", clause, target=rest, soft=True)  # "don't contact me": its box
        return Settled([off], f"a box for '{rest}', left off")
    memory.refused = button.text or button.name
    return Settled([], f"'{memory.refused}' is not to be pressed")


_RANGE = re.compile(
    r"(?P<what>.*?)\s*\b(?:from|between)\s+(?P<a>\S.*?)\s+(?:to|and|until|till|through|-)\s+"
    r"(?P<b>\S.*?)[\s,.!]*(?:please)?[\s.!]*",
    re.I,
)


def _range(clause: str, screen: Screen) -> Settled | None:
    """ "quiet hours from 23:00 to 6:30": the two values go into the fields labelled From and
    To (Start and End …), the pair beside the words that name it when there are several."""
    found = _RANGE.fullmatch(clause.strip())
    lex = lexicon()
    if found is None:
        return None
    end_value, rest = _value_then_rest(found["b"])
    if not (lex.value_kind(found["a"]) and lex.value_kind(end_value)):
        return None
    known = [f for f in fields(screen) if f.element.kind in FIELD_KINDS]
    starts = [f for f in known if words_of(f.label)[:1] and words_of(f.label)[0] in lex.starts]
    ends = [f for f in known if words_of(f.label)[:1] and words_of(f.label)[0] in lex.ends]
    named = shows_words(screen, found["what"]) if found["what"].strip() else None
    if named is None and found["what"].strip() and not (starts and ends):
        look = Step("find", clause, target=found["what"])  # below the fold, on another tab
        return Settled([look, Step("unread", clause, target=clause)], "its fields looked for")
    if not starts:
        return None
    anchor = named.box if named is not None else starts[0].element.box
    start = min(starts, key=lambda f: f.element.box.distance_to(*anchor.center))
    box = start.element.box
    after = [f for f in known if f.element.box.x > box.right and f is not start
             and abs(f.element.box.center[1] - box.center[1]) < box.h / 2]  # fmt: skip
    ends = (
        ends or sorted(after, key=lambda f: f.element.box.x)[:1]
    )  # "From [22:00] to [07:00]": the field after it on its line
    if not ends:
        return None
    end = min(ends, key=lambda f: f.element.box.distance_to(*box.center))
    steps = [_set_field(start, found["a"]), _set_field(end, end_value)]
    if len(starts) > 1 and named is not None:
        steps = [replace(s, scope=found["what"]) for s in steps]
    if rest and (beside := _by_unit(screen, rest, start, known)) is not None:
        steps.append(beside)  # "… until 6:15 at 16.5 degrees": the field showing °C by them
    return Settled(steps, f"'{start.label}' and '{end.label}'")


def _value_then_rest(text: str) -> tuple[str, str]:
    """ "6:15 at 16.5 degrees": the value at the start of `text`, and the words after it."""
    words = text.split()
    for n in range(len(words) - 1, 0, -1):
        if lexicon().value_kind(" ".join(words[:n])):
            return " ".join(words[:n]), " ".join(words[n:])
    return text, ""


def _by_unit(screen: Screen, words: str, near: Field, known: list[Field]) -> Step | None:
    """ "at 16.5 degrees" said of a range: the one other field in its card whose number shows
    that unit (Night temperature (°C))."""
    said = words_of(words)
    value = " ".join(words.split()[1:]) if said[:1] and said[0] in lexicon().linkers else words
    unit = quantity(value)
    if unit is None or unit[1] is None:
        return None
    card = card_round(screen, near.element.box)
    if card is None:
        return None
    inside = [f for f in known if card.contains(f.element.box, slack=2) and f is not near]
    chosen = taking(screen, inside, value, card, strict=True)
    return _set_field(chosen[0], value) if len(chosen) == 1 else None


def _stated(clause: str, screen: Screen) -> Settled | None:
    """ "bananas cost 0.99 now", "Italy's capital is wrong, it should be Rome": a sentence that
    says what something should be, read as changing it (the field it names, else the value on
    the line about it in a text), or None when it says no such thing."""
    polite = r"[\s,.!]*\b(?:please|thanks|thank you)[\s.!]*$"
    said = re.sub(polite, "", clause.strip(" .!"), flags=re.I)
    found = next((m for p in lexicon().statements if (m := p.fullmatch(said))), None)
    if found is None:
        return None
    what = re.sub(r"^(?:the|my|our|your|its|their)\s+", "", found["what"], flags=re.I)
    old = found.groupdict().get("old")
    change = Step("change", clause, target=what, text=found["new"], old=old, where="line")
    return _change(change, screen)


def _the_program(screen: Screen, words: str) -> bool:
    """Whether `words` are the program's own name, as its window's title shows it ("IDLE
    Shell 3.11.2", "notes.txt - Mousepad": the topmost text, or one with a title's dash)."""
    texts = [e for e in screen.elements if e.text.strip()]
    first = min((e.box.y for e in texts), default=0)
    titled = re.compile(r"\s[-–—]\s")
    named = words[:1].isupper()  # a proper name may be the program's, in its topmost text
    titles = [e for e in texts if titled.search(e.text) or named and e.box.y <= first + 4]
    wanted = words_of(words)
    return bool(wanted) and any(
        any(words_of(t.text)[i : i + len(wanted)] == wanted for i in range(len(words_of(t.text))))
        for t in titles
    )


def _cell_of(screen: Screen, words: str) -> str | None:
    """The spreadsheet cell "the price of Apples" names: the column under the heading Price and
    the row that shows Apples, by the sheet's own column letters and row numbers."""
    m = re.fullmatch(r"(?:the\s+)?(.+?)\s+(?:of|for)\s+(?:the\s+)?(.+)", words, re.I)
    if m is None:
        return None
    heading, row_name = (shows_words(screen, w) for w in m.groups())
    if heading is None or row_name is None or heading.box.center[1] >= row_name.box.center[1]:
        return None
    above = [e for e in screen.elements if re.fullmatch(r"[A-Z]{1,3}", e.text.strip())
             and e.box.bottom <= heading.box.y + 2]  # fmt: skip
    rows = [[e for e in above if abs(e.box.center[1] - o.box.center[1]) < o.box.h / 2]
            for o in above]  # fmt: skip
    letters = max(rows, key=len, default=[])  # the sheet's column letters: A B C … in one row
    if len(letters) < 2:
        return None
    numbers = [e for e in screen.elements if re.fullmatch(r"\d{1,7}", e.text.strip())
               and e.box.center[0] < min(heading.box.x, row_name.box.x)]  # fmt: skip
    column = next((e for e in letters if _spans(e.box.x, e.box.right, heading.box.center[0])
                   or _spans(heading.box.x, heading.box.right, e.box.center[0])), None)  # fmt: skip
    middle = row_name.box.center[1]
    row = next((e for e in numbers if abs(e.box.center[1] - middle) < row_name.box.h / 2), None)
    return f"{column.text.strip()}{row.text.strip()}" if column and row else None


def _spans(start: int, end: int, x: int) -> bool:
    return start - 2 <= x <= end + 2


def _best_label(candidates: Sequence[Field], what: str) -> Field:
    return max(candidates, key=lambda f: text_similarity(what, f.label))


def _by_role(what: str, known: Sequence[Field]) -> tuple[list[Field], list[Field]] | None:
    """The fields for the old and the new value of `what` ("Current password", "New
    password", "Confirm password"), or None."""
    roles = lexicon().roles
    named = [f for f in known if f.element.kind in FIELD_KINDS and what
             and text_similarity(what, f.label) >= 70]  # fmt: skip
    old = [f for f in named if set(words_of(f.label)) & roles["old"]]
    new = [f for f in named if set(words_of(f.label)) & roles["new"]]
    return (old, new) if old and new else None


# ---- choosing in a list --------------------------------------------------------------------------


def _select(step: Step, screen: Screen) -> Settled:
    """ "select Banana and Date from the list" picks each; "Select the invoice from March" is
    the row that shows March when the screen shows no option "the invoice" and no list called
    March ("select Purple in Favourite colour" stays a choice in that list)."""
    option = step.text or ""
    if step.target and not _shown(screen, option) and not _is_list(screen, step.target):
        row = f"{option} from {step.target}"  # its row shows both, or the target alone
        return _pointed(Step("click", step.clause, target=row, soft=True), screen)
    parts = _parts(option)
    if not all(_shown(screen, p) for p in parts) and list_boxes(screen):
        parts = [p.strip() for p in option.split(",") if p.strip()]  # some scrolled out of view:
        # commas part them, an "and" may be inside a name ("Heard Island and McDonald Islands")
    if len(parts) > 1 and not _shown(screen, option):
        steps = [replace(step, text=p, soft=False, keys=("ctrl",) if i else ())
                 for i, p in enumerate(parts)]  # fmt: skip
        return Settled(steps, "one option each")
    return _same(step)


_PLURAL_ROWS = re.compile(
    r"\b(?P<only>only\s+|just\s+)?(?:all\s+|every\s+)?(?:the|those|these|my)\s+"
    r"(?P<noun>[a-z]+s)\s+(?:from|with|of|in|about|showing|mentioning|that show|that mention)"
    r"\s+(?P<what>.+)",
    re.I,
)


def _rows_showing(clause: str, screen: Screen) -> Settled | None:
    """ "Upload only the pictures from Rome": each row of a list (or check list) that shows
    Rome is picked (Ctrl for the next ones, so they add up), and with "only" the boxes of the
    others are cleared; the verb's own button, if any, follows as the dialog's confirmation."""
    found = _PLURAL_ROWS.search(clause)
    if found is None:
        return None
    rows = [e for e in screen.elements if e.kind in ("list_item", "checkbox") and e.text.strip()]
    rows += [e for e in screen.elements if e.kind == "button" and e.text.strip()
             and any(abs(e.box.x - r.box.x) <= 3 and abs(e.box.w - r.box.w) <= 4
                     for r in rows if r.kind == "list_item")]  # fmt: skip  # the current row
    words = found["what"].split()
    for n in range(len(words), 0, -1):  # "Rome to the album": the rows show "Rome"
        wanted = {normalize(w) for w in words[:n]}
        shown = sorted((e for e in rows if wanted <= set(normalize(e.text).split())),
                       key=lambda e: (e.box.y, e.box.x))  # fmt: skip
        if shown and len(shown) < len(rows):
            break
    else:
        return None
    if any(e.kind == "checkbox" for e in shown):
        steps = [Step("check", clause, target=e.text, kind="checkbox") for e in shown]
        if found["only"]:
            steps += [Step("uncheck", clause, target=e.text, kind="checkbox") for e in rows
                      if e.kind == "checkbox" and e not in shown
                      and "checked" in e.state]  # fmt: skip
    else:
        steps = [Step("click", clause, target=e.text, kind=e.kind,
                      keys=("ctrl",) if i else ()) for i, e in enumerate(shown)]  # fmt: skip
    return Settled(steps, f"each of the {found['noun']} that show {' '.join(words[:n])}")


def _is_list(screen: Screen, words: str) -> bool:
    """Whether `words` name a list or combo box on the screen (its label, or its kind)."""
    if reading.place(words) == "list":
        return True
    return any(
        f.element.kind in ("combo", "button", "input") and text_similarity(words, f.label) >= LABEL
        for f in fields(screen)
    )


# ---- pointing at something named -----------------------------------------------------------------


_ADDRESSED = {"me": "you", "my": "your", "i": "you", "mine": "yours", "myself": "yourself",
              "i'm": "you're", "us": "you", "our": "your", "we": "you"}  # fmt: skip


def _addressed(words: str) -> str:
    """A person's words about themselves as a screen says them to that person."""
    return re.sub(r"[\w']+", lambda m: _ADDRESSED.get(m[0].lower(), m[0]), words)


def _alike_in_meaning(step: Step, screen: Screen) -> Settled | None:
    """ "Select words similar to mild, delicious": for each word, the check box (or option)
    whose label is closest to it in meaning, by sentence embeddings."""
    said = (step.target or "").split()
    lex = lexicon()
    at = next((i for i in range(len(said)) if lex.longest(lex.similar_to, words_of(
        " ".join(said[i:])), 0)), None)  # fmt: skip
    if at is None or at > 2:
        return None
    rest = " ".join(said[at:])
    words = _parts(" ".join(rest.split()[lex.longest(lex.similar_to, words_of(rest), 0) :]))
    options = [e for e in screen.elements if e.kind in (*TOGGLE_KINDS, "list_item", "button")
               and (e.text or e.name).strip() and len((e.text or e.name).split()) <= 3]  # fmt: skip
    labels = [(e.text or e.name).strip() for e in options]
    picked: list[str] = []
    for word in words:
        scores = similarities(word, labels) if labels else None
        if scores is None:
            raise StepFailed(
                f"could not {step.clause!r}: choosing by meaning needs the models extra",
                "pip install 'clickwright[models]', or name the options",
            )
        order = [labels[i] for i in np.argsort(-scores) if labels[i] not in picked]
        if order:
            picked.append(order[0])
    verb = "check" if any(e.kind in TOGGLE_KINDS for e in options) else "click"
    steps = [Step(verb, step.clause, target=p) for p in picked]
    return Settled(steps, "closest in meaning: " + ", ".join(picked))


def _pointed(step: Step, screen: Screen) -> Settled:
    """A click or tick whose target the screen does not show as named: a list ("Milk and
    Butter"), a row by what it shows ("the order that is still pending"), part of the words
    ("the Premium plan"), a date for the calendar, or another reading of the clause ("check
    the summary" is a look)."""
    target = step.target or ""
    toggles = step.verb in ("check", "uncheck")
    if step.nth and (paged := _nth_in_pages(step, screen)) is not None:
        return paged
    if toggles and (switched := _switched_on_line(step, screen)) is not None:
        return switched  # "debug = true" in a text: no box to tick
    if toggles and step.every and lexicon().exceptions.search(target):
        return _same(step, "every one but those named after 'except'")
    if (alike := _alike_in_meaning(step, screen)) is not None:
        return alike
    if not target or (_toggle_named(screen, target) if toggles else _shown(screen, target)):
        return _labelled_verb(step, screen) or _same(step)
    if toggles and _labelled_box(screen, target):
        return _same(step, f"'{target}' is the label of a box")

    if toggles and (addressed := _addressed(target)) != target:  # "contact me": "contact you"
        if _toggle_named(screen, addressed) or not _shown(screen, target):
            return _same(replace(step, target=addressed), "the screen says 'you' for 'me'")
    parts = _parts(target)
    if len(parts) > 1:  # each is looked for in turn when the screen does not show it yet
        return Settled([_part_step(step, p, screen) for p in parts], "one each")
    if (timed := _at_part_of_day(screen, target)) is not None:
        return Settled([replace(step, target=timed.text, soft=False)], f"'{timed.text}'")
    said = step.clause.split(None, 1)[1] if len(step.clause.split()) > 1 else target
    if target.lower() not in said.lower():
        said = target  # a step the clause was rewritten to ("… in yellow": the yellow swatch)
    for words in (target, said):  # "choose the 2nd of May": the ordinal is the day
        if parse_date(words) is not None:
            return Settled([Step("set", step.clause, text=words)], "a date")
    if not toggles and (extreme := row_by_extreme(screen, target)) is not None:
        return Settled([replace(step, target=extreme, soft=False)], f"the row '{extreme}'")
    if toggles and (sharing := _toggle_sharing(screen, target)) is not None:
        name = sharing.text or sharing.name
        return Settled([replace(step, target=name, soft=False)], f"the one switch '{name}'")

    if (cell := _row_showing(screen, target)) is not None:
        why = f"the row that shows {' and '.join(words_of(target))}"
        return Settled([replace(step, target=cell.text, soft=False)], why)
    row = row_words(target)
    if row != target and _shown(screen, row):
        return Settled([replace(step, target=row, soft=False)], f"the row that shows '{row}'")
    head = re.split(r"\s+(?:on|for|in|from|to|at|with|into|onto)\s+", target, maxsplit=1)[0]
    if head != target and _shown(screen, head):  # "peppers on my pizza": what goes where
        return Settled([replace(step, target=head, soft=False)], f"'{head}' is shown")
    if not toggles and (chosen := _choice_before_label(screen, target)) is not None:
        field, value = chosen
        return Settled([_set_field(field, value)], f"'{value}' is a choice of '{field.label}'")
    part = _shown_part(screen, target)
    coloured = palette().name_in(target) is not None and palette().name_in(part or "") is None
    if part and not toggles and not coloured:  # "the green highlight swatch" is no "Highlight"
        return Settled([replace(step, target=part, soft=False)], f"'{part}' is shown")
    said = words_of(step.clause)
    if lexicon().verb_at("look", said, 0) and not _shown(screen, target):
        look = Step("look", step.clause, target=target)
        return Settled([look], f"no box called '{target}': it asks for a look")
    loose = reading.parse(step.clause, loose=True)
    if loose and loose[0].verb in ("look", "delete", "find", "label"):
        return settle(loose[0], screen, Memory())
    return _same(step)


_RESULTS = frozenset({"result", "results", "item", "items", "entry", "entries", "hit", "link"})
"""Words for the items of a list shown a page at a time ("the 7th search result")."""
_PAGER = re.compile(r"\d{1,3}|[<>«»›‹]|next|prev(?:ious)?", re.I)


def _nth_in_pages(step: Step, screen: Screen) -> Settled | None:
    """ "the 7th search result" with three results a page and a pager (1 2 3 >): the page it is
    on, then its place there."""
    nth = step.nth or 0
    named = words_of(step.target or "")
    if not named or named[-1] not in _RESULTS:
        return None
    links = [e for e in screen.elements if e.kind == "link" and e.text.strip()]
    pager = [e for e in links if _PAGER.fullmatch(e.text.strip())]
    items = [e for e in links if e not in pager and e.box.bottom <= min(
        (p.box.y for p in pager), default=0)]  # fmt: skip
    if not items or not any(p.text.strip().isdigit() for p in pager):
        return None
    page, place = (nth - 1) // len(items) + 1, (nth - 1) % len(items) + 1
    pick = Step("click", step.clause, kind="link", nth=place)
    if page == 1:
        return Settled([pick], f"result {place} of this page")
    if not any(p.text.strip() == str(page) for p in pager):
        return None
    turn = Step("click", step.clause, target=str(page), kind="link")
    return Settled([turn, pick], f"{len(items)} a page: page {page}, its link {place}")


def _choice_before_label(screen: Screen, words: str) -> tuple[Field, str] | None:
    """ "the dark theme": a drop-down labelled by the last words, and the choice before them."""
    said = [w for w in words.split() if w.lower() not in lexicon().determiners]
    choices = [f for f in fields(screen) if f.element.kind in ("combo", "button")]
    for n in range(1, min(3, len(said) - 1) + 1):
        label = " ".join(said[-n:])
        for field in choices:
            if text_similarity(label, field.label) >= LABEL:
                return field, " ".join(said[:-n])
    return None


def _part_step(step: Step, part: str, screen: Screen) -> Step:
    """One item of a list: "no product updates" unticks; one the screen does not show as
    said is settled again on its own ("peppers on my pizza")."""
    lex = lexicon()
    words = part.split()
    if n := lex.longest(lex.negations, [w.lower() for w in words], 0):
        return replace(step, verb="uncheck", target=" ".join(words[n:]), soft=False)
    return replace(step, target=part, soft=not _shown(screen, part))


def _at_part_of_day(screen: Screen, words: str) -> Element | None:
    """ "the thursday afternoon slot", "the morning window": the one choice or row that shows
    the other words the screen has anywhere (Thursday; "slot" is shown nowhere) and a time, or
    a range of times, in that part of the day."""
    lex = lexicon()
    said = words_of(words)
    part = next((lex.day_parts[w] for w in said if w in lex.day_parts), None)
    if part is None:
        return None
    quiet = lex.determiners | lex.persons | set(lex.day_parts)
    timed = [(e, hours) for e in screen.elements if e.kind not in ("container", "input", "combo")
             and e.text.strip() and (hours := _hours_in(e.text)) is not None]  # fmt: skip

    def shows(e: Element, word: str) -> bool:
        return shows_words(Screen(screen.frame, (e,)), word) is not None

    others = [w for w in said if w not in quiet and any(shows(e, w) for e, _ in timed)]
    found = [e for e, hours in timed if part[0] <= hours < part[1]
             and all(shows(e, w) for w in others)]  # fmt: skip
    found = [e for e in found if not any(o is not e and e.box.contains(o.box, 2) for o in found)]
    return found[0] if len(found) == 1 else None


def _hours_in(text: str) -> float | None:
    """The time of day a text shows: its time ("Thursday 16:00": 16), or the middle of its
    range ("08-12", "8:00–12:00": 10)."""
    ranged = re.search(r"\d\s?[-–]\s?\d", text) is not None
    hours = [hour + minute / 60 for hour, minute in times_in(text, bare=ranged)]
    if not hours or len(hours) > 2:
        return None
    return sum(hours) / len(hours) if ranged and len(hours) == 2 else hours[0]


def _row_showing(screen: Screen, words: str) -> Element | None:
    """The row that shows more of the words than any other ("the sales person in Bergen":
    the row with Sales and Bergen, not another row with Bergen alone): a row element, or the
    first cell of a band of cells across the screen."""
    lex = lexicon()
    quiet = lex.determiners | lex.relatives | lex.relative_fillers
    wanted = [w for w in words_of(words) if w not in quiet]
    if len(wanted) < 2:
        return None

    def count(texts: Sequence[str]) -> int:
        have = [w for t in texts for w in words_of(t)]
        return sum(1 for w in wanted if any(fuzz.ratio(w, h) >= 85 for h in have))

    nav = {e.id for e in sections.side_nav(screen)}  # a line of the page, not of its sidebar
    bands = [[e for e in band if e.id not in nav] for band in text_lines(screen)]
    bands = [band for band in bands  # less a list's column heads (buttons)
             if band and 2 * sum(e.kind == "button" for e in band) <= len(band)]  # fmt: skip
    rows = [(count([e.text for e in band]), min(band, key=lambda e: e.box.x)) for band in bands]
    rows += [(count([e.text]), e) for e in screen.elements if e.kind == "list_item"]
    rows.sort(key=lambda r: -r[0])
    if not rows or rows[0][0] < 2:
        return None
    best = [r for r in rows if r[0] == rows[0][0]]
    boxes = {(e.box.y, e.box.bottom) for _, e in best}
    same_row = all(abs(e.box.center[1] - best[0][1].box.center[1]) < e.box.h / 2 for _, e in best)
    return best[0][1] if len(boxes) == 1 or same_row else None


def _labelled_box(screen: Screen, words: str) -> bool:
    """Whether `words` are shown as a label (a text, not a menu or a button): the box it names
    may be drawn beside it as anything (a phone's switch read from pixels is an "input")."""
    if not _shown(screen, words):
        return False
    return rank(screen, words)[0].element.kind in ("text", "link", "list_item", *TOGGLE_KINDS)


def _toggle_sharing(screen: Screen, words: str) -> Element | None:
    """The one toggle on the screen whose label shares a word with what the task calls it
    ("turn on the guest wifi": the switch labelled Guest network)."""
    lex = lexicon()
    said = {w for w in words_of(words) if w not in lex.determiners and len(w) > 2}
    sharing = [
        e
        for e in screen.elements
        if e.kind in TOGGLE_KINDS
        and any(fuzz.ratio(w, h) >= SHOWN for w in said for h in words_of(e.text or e.name))
    ]
    return sharing[0] if len(sharing) == 1 else None


def _toggle_named(screen: Screen, words: str) -> bool:
    return any(
        e.kind in (*TOGGLE_KINDS, "list_item") and text_similarity(words, e.text or e.name) >= LABEL
        for e in screen.elements
    )


def _labelled_verb(step: Step, screen: Screen) -> Settled | None:
    """ "Open forest.jpg" in a file chooser: when the verb is also a button, select the row,
    then press it; when it is not, a verb that opens (open, play, launch) double-clicks the
    row or icon, as a person opens a file."""
    verb = step.clause.split()[0].lower() if step.clause.split() else ""
    if step.verb != "click" or not lexicon().verb_at("label", [verb], 0):
        return None
    target = rank(screen, step.target or "")
    if not target or target[0].element.kind not in ("list_item", "text", "icon"):
        return None
    buttons = [b for b in _buttons(screen, verb) if text_similarity(verb, step.target or "") < 90]
    if buttons:
        label = buttons[0].text or buttons[0].name
        steps = [replace(step, soft=False), Step("click", step.clause, target=label, kind="button")]
        return Settled(steps, f"'{step.target}' first, then '{label}'")
    if lexicon().verb_at("activate", [verb], 0) and target[0].element.kind != "text":
        opened = replace(step, verb="double_click", soft=False)
        return Settled([opened], f"{verb} '{step.target}' with a double-click")
    return None


def _shown(screen: Screen, words: str) -> bool:
    found = rank(screen, words)
    return (
        bool(found)
        and text_similarity(words, found[0].element.text or found[0].element.name) >= SHOWN
    )


def _parts(words: str) -> list[str]:
    return [p.strip() for p in re.split(r"\s*(?:,|\band\b|&)\s*", words) if p.strip()]


def _shown_part(screen: Screen, words: str) -> str:
    """The longest run of the words, half of them at least, that the screen shows as a whole
    text ("the Premium plan" -> "Premium")."""
    toks = words.split()
    content = [w for w in toks if w.lower() not in lexicon().determiners]
    for n in range(len(toks) - 1, max(0, (len(content) + 1) // 2 - 1), -1):
        for a in range(len(toks) - n + 1):
            part = " ".join(toks[a : a + n])
            if part.lower() in lexicon().determiners:
                continue
            if _shown(screen, part):
                return part
    return ""


# ---- values read from the screen -----------------------------------------------------------------


def _sourced(step: Step, screen: Screen, memory: Memory) -> Settled:
    """A value named, not given: read it, then type it."""
    source = step.source or ""
    value = memory.values.get(normalize(source)) or read_value(screen, source, step.clause)
    if value is None:
        raise StepFailed(f"could not {step.clause!r}: the screen shows no value for '{source}'")
    memory.values[normalize(source)] = value
    typed = replace(step, text=value, source=None, soft=False)
    if typed.target is None and typed.kind is None and (split := _best_field(screen, source)):
        typed = replace(typed, target=split.label, kind="input")
    return Settled([typed], f"{source} is {value}")


def _best_field(screen: Screen, words: str) -> Field | None:
    editable = [f for f in fields(screen) if f.element.kind in FIELD_KINDS]
    best = max(editable, key=lambda f: text_similarity(words, f.label), default=None)
    return best if best is not None and text_similarity(words, best.label) >= 60 else None


def read_value(screen: Screen, description: str, task: str = "") -> str | None:
    """The value `description` names on the screen: "the sum of A and B" adds what A and B
    show; "the total number of fruit" adds the numbers the text gives; otherwise what is
    shown beside a label, after "is" or after a colon. A paragraph that repeats `task` (a
    page showing its instruction) is not the one a part is counted in."""
    lex = lexicon()
    words = words_of(description)
    ops = lex.operations
    if (n := lex.longest(ops["plus"], words, 0)) and len(words) > n:
        parts = _parts(" ".join(description.split()[n:]))
        values = [read_value(screen, p, task) for p in parts]
        numbers = [_as_number(v) for v in values if v is not None]
        if len(parts) > 1 and len(numbers) == len(parts) and None not in numbers:
            return _format(sum(numbers))  # type: ignore[arg-type]
    if lex.longest(lex.solving, words, 0):  # "the answer to the math problem"
        return solved(screen)
    if codes.is_code_phrase(description):  # "the code from the banner"
        return codes.shown_code(screen, description)
    if n := lex.longest(lex.value_of, words, 0):  # "the value of Colour in the table"
        named = re.sub(r"\s+(?:in|on|from)\s+the\s+\w+$", "", " ".join(description.split()[n:]))
        return _labelled_value(screen, named)
    if len(words) > 2 and (nth := lex.ordinal(words[0])) and words[1] in lex.text_parts:
        return _nth_part(screen, nth, words[1], task)
    if lex.longest(ops["total"], words, 0):
        numbers = [
            float(n)
            for e in screen.elements
            if e.kind in ("text", "link") and e.text
            for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", e.text)
        ]
        if numbers:
            return _format(sum(numbers))
    return _labelled_value(screen, description)


SUM = re.compile(r"([\d.x ]+(?:[-+×*/÷] ?[\d.x ]+)+)= ?([\d.x ?]*)")
"""A sum or an equation shown on the screen: "7 + 5 =", "7 + 5 = ?", "3 + x = 8"."""
OPERATORS = {"×": "*", "÷": "/"}


def solved(screen: Screen) -> str | None:
    """The answer to the one sum or equation the screen shows: what its left side comes to,
    or the x that makes both sides equal (an equation with x once, added or taken away)."""
    for element in screen.elements:
        if not (m := SUM.search(element.text.lower().replace(" ", ""))):
            continue
        left = m[1].translate(str.maketrans(OPERATORS))
        right = m[2].strip("? ") or "0"
        if "x" not in left + right:
            value = _evaluated(left)
        else:  # linear in x: where the difference of the sides, at x = 0 and 1, is nought
            at = [_evaluated(f"({left})-({right})", x) for x in (0, 1)]
            value = None if None in at or at[0] == at[1] else -at[0] / (at[1] - at[0])  # type: ignore[operator]
        if value is not None:
            return _format(value)
    return None


def _evaluated(expression: str, x: float = 0.0) -> float | None:
    """An arithmetic expression of numbers, x, + - * / and brackets, worked out; None when it
    is anything else or divides by nought."""
    expression = re.sub(r"(\d)x", r"\1*x", expression).replace("x", f"({x})")
    try:
        value = _worked_out(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ZeroDivisionError, ValueError, OverflowError, RecursionError):
        return None  # not a sum, or none a float holds
    return value if math.isfinite(value) else None


_SIGNS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv}  # fmt: skip


def _worked_out(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_worked_out(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _SIGNS:
        return _SIGNS[type(node.op)](_worked_out(node.left), _worked_out(node.right))
    raise ValueError("not a sum")


def _nth_part(screen: Screen, nth: int, part: str, task: str) -> str | None:
    """The nth word (line, number) of the paragraph: the block of lines with the most words
    (of two as long, the one of more lines); not a list of "label: value" lines."""
    blocks = [b for b in paragraphs(screen) if not task or not echoes(b, normalize(task), "")]
    prose = [b for b in blocks if is_prose(b)]
    blocks = prose or blocks
    if not blocks:
        return None
    paragraph = max(blocks, key=lambda b: (len(b.split()), b.count("\n")))
    pieces = {
        "line": [line for line in paragraph.splitlines() if line.strip()],
        "number": re.findall(r"-?\d+(?:[.,]\d+)?", paragraph),
        "letter": [c for c in paragraph if c.isalpha()],
    }.get(part, re.findall(r"[\w'’-]+", paragraph))
    if not pieces or abs(nth) > len(pieces):
        return None
    return pieces[nth - 1 if nth > 0 else nth]


def _labelled_value(screen: Screen, description: str) -> str | None:
    for field in fields(screen):
        if field.element.kind in FIELD_KINDS and field.element.text.strip():
            if text_similarity(description, field.label) >= LABEL:
                return field.element.text.strip()
    said = normalize(description).split()
    if not said:
        return None
    # "Your booking code is K7Q2", "Your account: 4411-2031": all the words, else the longest
    for wanted in [said[-2:], *([w] for w in sorted(said, key=len, reverse=True) if len(w) > 3)]:
        after = re.compile(
            rf"{re.escape(wanted[-1])}\w*\W*(?:is|was|are|:|=)\s*(?P<value>[^\s,;·]+)", re.I
        )
        shown = [e.text for e in screen.elements]
        shown += [" ".join(e.text for e in row) for row in text_lines(screen)]  # word by word
        for line in shown:
            if all(w in normalize(line) for w in wanted) and (m := after.search(line)):
                return m["value"].rstrip(".")
    shown = shows_words(screen, description)
    if shown is None:
        return None
    right = [  # a label's box may be drawn wider than its words, over the value's cell
        e
        for e in screen.elements
        if e.text
        and e is not shown
        and e.box.center[0] > shown.box.right
        and e.box.x > shown.box.x
        and abs(e.box.center[1] - shown.box.center[1]) <= shown.box.h / 2
    ]
    return min(right, key=lambda e: e.box.x).text.strip() if right else None


def _as_number(text: str) -> float | None:
    m = re.search(r"-?\d+(?:[.,]\d+)?", text)
    return float(m[0].replace(",", ".")) if m else None


def _format(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.2f}"
