"""Text cut or copied, pasted somewhere else, and lines or paragraphs moved, as a person does
with an editor's clipboard ("cut the passport line and paste it at the top", "copy Lars's phone
number and paste it after 'Emergency contact:'", "move the third line to the end").

Where the editor's text reads exactly (agent/editing.py), the passage is found in that text
(agent/passages.py) and a change is made in one paste and read back. Elsewhere the words are
selected with the pointer and the program's own Ctrl+X or Ctrl+C takes them. What was taken is
kept in task memory, so a paste puts back exactly that, on lines of its own when whole lines
were taken.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from clickwright.agent import editing, passages, selecting
from clickwright.agent.clauses import Step
from clickwright.agent.executor import CHANGE
from clickwright.agent.grounding import text_similarity
from clickwright.agent.lexicon import words_of
from clickwright.agent.memory import Clip
from clickwright.agent.passages import Passage
from clickwright.agent.settle import read_value
from clickwright.errors import StepFailed
from clickwright.text import normalize
from clickwright.types import Hotkey, Type

if TYPE_CHECKING:
    from clickwright.agent.actor import OfflineActor

__all__ = ["move", "paste", "swap", "take"]

_KEYS = {"cut": ("ctrl", "x"), "copy": ("ctrl", "c")}
SAME_TEXT = 90
"""How alike (0-100) what a copy took and what the screen showed there must be."""
_PLACES = ("start", "end", "before", "after", "line start", "line end")
_INSERTED = {"start": "start", "end": "end", "before": "above", "after": "below"}
"""Where editing.insert puts words it types on screens whose text cannot be read exactly."""


def _ended(before: str, after: str) -> str:
    """`after` ending as `before` did: an editor that keeps no line break at the end of its
    text (pluma, gedit) gets none added by a move or a paste."""
    if not before.endswith("\n") and after.endswith("\n"):
        return after[:-1]
    return after


def _remember(actor: OfflineActor, step: Step, clip: Clip) -> None:
    memory = actor.state.memory
    memory.clip = clip
    if step.target:  # "paste it into Notes": the value the copy named
        memory.values[normalize(step.target)] = clip.text.strip("\n")


def _found(step: Step, text: str, passage: Passage) -> list[tuple[int, int]]:
    spans = passages.find(text, passage)
    if not spans:
        raise StepFailed(f"could not {step.clause!r}: the text holds no {step.target}")
    return spans


def take(actor: OfflineActor, step: Step, cut: bool) -> None:
    """Cut or copy the passage `step.target` names and remember it for a paste; a button
    that does it ("Copy link") where the screen has one."""
    verb = "cut" if cut else "copy"
    passage = passages.read(step.target or "")
    if not (passage.named or passage.exact):  # "copy the link": its button; "the code": its value
        if any(verb in words_of(e.text) for e in actor.screen.elements
               if e.kind in ("button", "link", "menuitem")):  # fmt: skip
            actor.carry_out(Step("label", step.clause, text=verb, target=step.target))
            return
        value = read_value(actor.screen, step.target or "", actor.state.task)
        if value:
            actor.record_noop(step, f"{step.target} is {value!r}")
            _remember(actor, step, Clip(value))
            return
    if not cut and _selected_and_copied(actor, step, passage):
        return
    text = editing.document(actor, step)
    if text is not None and len(text) <= editing.MAX_DOCUMENT:
        spans = _found(step, text, passage)
        clip = passages.clipped(text, spans, passage.unit)
        if cut:
            editing.rewrite(actor, step, lambda now: passages.removed(now, spans),
                            f"'{step.target}'", before=text)  # fmt: skip
        else:
            actor.record_noop(step, f"copied {clip.text.strip()[:60]!r}")
            editing.known(actor, text)
        _remember(actor, step, clip)
        return
    actor.do(Step("highlight", step.clause, target=step.target))
    actor.blind(step, Hotkey(keys=_KEYS[verb]), None, CHANGE, f"{verb} of the selection")
    taken = actor.state.device.clipboard()
    if not taken:
        raise StepFailed(f"could not {step.clause!r}: the clipboard holds nothing after the {verb}")
    _remember(actor, step, Clip(taken, lines=passage.unit in passages.WHOLE))


def _selected_and_copied(actor: OfflineActor, step: Step, passage: Passage) -> bool:
    """A copy as a person makes it, where the screen shows the words: selected with the
    pointer, then Ctrl+C, leaving them selected and on the clipboard. False (having done
    nothing, or only selected) where the screen does not show them as one stretch of text,
    or the clipboard then holds something else (the editor's exact text is read instead)."""
    if passage.unit not in ("", *passages.UNITS.values()):
        return False  # a value ("Lars's phone number") is found in the exact text
    shown = selecting.span(actor.screen, passage, actor.state.task)
    if shown is None or actor.state.device.clipboard() is None:
        return False
    actor.do(Step("highlight", step.clause, target=step.target))
    actor.blind(step, Hotkey(keys=_KEYS["copy"]), None, CHANGE, "copy of the selection")
    taken = actor.state.device.clipboard() or ""
    if text_similarity(" ".join(taken.split()), " ".join(shown.text.split())) < SAME_TEXT:
        return False
    _remember(actor, step, Clip(taken, lines=passage.unit in passages.WHOLE))
    return True


def _anchor(step: Step, text: str, unit: str = "") -> tuple[tuple[int, int] | None, bool]:
    """Where a paste or a move goes beside, and whether that is a whole line or paragraph;
    "the first one" is of the `unit` that moves."""
    if step.where not in ("before", "after", "line end", "line start"):
        return None, False
    anchor = passages.read(step.destination or step.target or "")
    if not anchor.unit and anchor.words.lower() in ("one", "ones", "") and unit:
        anchor = replace(anchor, unit=unit, words="")
    if step.where in ("line end", "line start") and not anchor.unit:
        anchor = replace(anchor, unit="line")
    spans = passages.find(text, anchor)
    if not spans:
        raise StepFailed(f"could not {step.clause!r}: the text holds no "
                         f"{step.destination or step.target}")  # fmt: skip
    return spans[0] if step.where == "before" else spans[-1], anchor.unit in passages.WHOLE


def paste(actor: OfflineActor, step: Step) -> None:
    """What the task cut or copied (else what the clipboard holds) at the start or end of the
    text, before or after what `step.target` names, or where the caret is."""
    clip = actor.state.memory.clip
    if clip is None:
        held = actor.state.device.clipboard()
        if not held:
            raise StepFailed(f"could not {step.clause!r}: nothing was cut or copied before it")
        clip = Clip(held, lines=held.endswith("\n"))
    where = step.where or ""
    if where not in _PLACES:  # at the caret, as Ctrl+V puts it
        actor.blind(step, Type(text=clip.text, paste=True), None, CHANGE, "pasting at the caret")
        return
    text = editing.document(actor, step)
    if text is not None and len(text) <= editing.MAX_DOCUMENT:
        anchor, whole = _anchor(step, text, "line" if clip.lines else "")
        placed = _ended(text, passages.placed(text, clip, where, anchor, whole))
        editing.rewrite(actor, step, lambda _: placed, f"'{step.target}'", before=text)
        return
    if where not in _INSERTED:
        raise StepFailed(f"could not {step.clause!r}: the text could not be read exactly")
    words = clip.text.strip("\n")
    editing.insert(
        actor,
        replace(
            step,
            verb="insert",
            text=words,
            where=_INSERTED[where] + (" line" if clip.lines and where in ("start", "end") else ""),
        ),
    )


def move(actor: OfflineActor, step: Step) -> bool:
    """A line, sentence or paragraph of an editor's text moved to the start or end, to the
    `nth` place, or before or after another ("move the passport line to the top"). False when
    the drag is not of a part of a readable text (then it is a drag with the mouse)."""
    passage = passages.read(step.target or "")
    if passage.unit == "" and passage.words and passages.in_a_file(step.clause):
        passage = replace(passage, unit="line")  # "move Heroes to the end of playlist.txt"
    if passage.unit not in passages.WHOLE:
        return False
    text = editing.document(actor, step)
    if text is None or len(text) > editing.MAX_DOCUMENT:
        return False
    spans = _found(step, text, passage)
    if step.where == "position" and step.nth not in (None, 1, -1):  # "to the third place"
        rest = passages.removed(text, spans)
        place = passages.find(rest, Passage(unit=passage.unit, nth=step.nth))
        clip = passages.clipped(text, spans, passage.unit)
        moved = passages.placed(rest, clip, "before" if place else "end",
                                place[0] if place else None, True)  # fmt: skip
    elif step.where == "position":
        moved = passages.moved(text, spans, passage.unit, "start" if step.nth != -1 else "end")
    elif step.where == "places":  # "up one line": among the text's lines, that many higher
        moved = _shifted(text, spans, passage.unit, step.amount * (-1 if step.direction == "up"
                                                                   else 1))  # fmt: skip
    elif step.where in ("before", "after"):
        anchor, whole = _anchor(step, text)
        if (moved := passages.moved(text, spans, passage.unit, step.where, anchor, whole)) is None:
            raise StepFailed(f"could not {step.clause!r}: it would go beside itself")
    else:
        return False
    editing.rewrite(actor, step, lambda _: _ended(text, moved), f"'{step.target}'", before=text)
    return True


def _shifted(text: str, spans: list[tuple[int, int]], unit: str, by: int) -> str:
    """`text` with the part at `spans` moved `by` places among its units (- up, + down)."""
    every = passages.find(text, Passage(unit=unit, plural=True))
    index = every.index(spans[0]) if spans[0] in every else 0
    rest = passages.removed(text, spans)
    clip = passages.clipped(text, spans, unit)
    others = passages.find(rest, Passage(unit=unit, plural=True))
    to = index + by
    if to <= 0:
        return passages.placed(rest, clip, "start")
    if to >= len(others):
        return passages.placed(rest, clip, "end")
    return passages.placed(rest, clip, "before", others[to], True)


def swap(actor: OfflineActor, step: Step) -> bool:
    """Two lines or paragraphs of an editor's text trade places ("swap the first two lines",
    "swap lines 1 and 3"). False when they are not parts of a readable text."""
    first = passages.read(step.target or "")
    second = passages.read(step.destination or "") if step.destination else None
    if (
        first.unit not in passages.WHOLE
        or second is not None
        and second.unit not in (passages.WHOLE)
    ):
        return False
    text = editing.document(actor, step)
    if text is None or len(text) > editing.MAX_DOCUMENT:
        return False
    spans = _found(step, text, first) + (_found(step, text, second) if second else [])
    if len(spans) != 2 or spans[0] == spans[1]:
        raise StepFailed(f"could not {step.clause!r}: it names {len(set(spans))} part(s), not two")
    (a, b), (c, d) = sorted(spans)
    one, other = text[a:b].rstrip("\n"), text[c:d].rstrip("\n")
    swapped = text[:a] + other + text[a + len(one) : c] + one + text[c + len(other) :]
    editing.rewrite(actor, step, lambda _: swapped, f"'{step.target}'", before=text)
    return True
