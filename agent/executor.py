"""The one place that acts: approve, act through the device, wait for a still screen, judge the
effect, record the step.

The offline actor, the model loop, replay and the script API all hand their resolved action
here, so every way in gets the same approval policy, the same waiting, the same critic and the
same step record.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clickwright.agent.critic import Expectation, Verdict, judge
from clickwright.agent.runlog import looks_secret
from clickwright.agent.safety import Flag
from clickwright.agent.state import RunState, contained
from clickwright.errors import ActionError, StepFailed
from clickwright.parsers.colours import palette
from clickwright.types import Action, Box, Element, Hotkey, Screen, StepRecord, Type

Point = tuple[int, int]
Judge = Callable[[Screen, Screen, Expectation, Action, Sequence[Box], str], Verdict]
Verify = Callable[[Screen], tuple[Screen, Verdict]]
"""A check of its own (replay waits for the recorded effect): the screen before -> the screen
after and the verdict."""


def offline_judge(
    before: Screen,
    after: Screen,
    expect: Expectation,
    action: Action,
    ignore: Sequence[Box] = (),
    expected: str = "",
) -> Verdict:
    return judge(before, after, expect, ignore)


@dataclass(frozen=True)
class Aim:
    """Where an action acts, resolved on the screen before it: the point (and a drag's end),
    the element there, and how it was found."""

    point: Point | None = None
    end: Point | None = None
    element: Element | None = None
    how: str = ""


@dataclass(frozen=True)
class Done:
    after: Screen | None
    verdict: Verdict
    step: StepRecord


@dataclass
class Purpose:
    """What the record says beside the action: the instruction it serves, the reasoning, and
    anything a caller adds (candidates tried, the demo step, a model's expectation)."""

    instruction: str
    thought: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


CHANGE = Expectation("change")


class Executor:
    def __init__(self, state: RunState, judge: Judge = offline_judge) -> None:
        self.state = state
        self.judge = judge

    def act(
        self,
        action: Action,
        aim: Aim,
        before: Screen,
        expect: Expectation | Verify,
        purpose: Purpose,
        decided: float = 0.0,
        flag: Flag | None = None,
    ) -> Done:
        """Carry out `action`; a device that refuses it gives a `retry` verdict. `decided` is
        the seconds spent choosing it, for the record's timings; `flag` a risk the model's
        vendor flagged, for the approval."""
        state = self.state
        state.check_budget()
        _learn_secret(state, action, aim.element)
        if state.settings.dry_run:
            verdict = Verdict("unverified", "dry run: nothing was done")
            return Done(None, verdict, self.record(action, aim, before, None, verdict, purpose,
                                                   status="planned"))  # fmt: skip
        approval = state.approve(action, aim.element, flag)
        state.check_program()
        state.note_volatile(before)
        shown = action
        if isinstance(action, Type):
            shown = action.model_copy(update={"text": state.log.redact(action.text)})
        state.observer.action(shown, aim.point)
        started = time.perf_counter()
        try:
            contained(
                f"carry out {action.type}",
                state.device.kind,
                lambda: state.device.perform(action, aim.point, aim.end),
            )
        except ActionError as error:
            verdict = Verdict("retry", str(error))
            return Done(None, verdict, self.record(action, aim, before, None, verdict, purpose))
        acted = time.perf_counter()
        state.acted_on = before
        if callable(expect):
            after, verdict = expect(before)
        else:
            after = state.observe()
            hint = str(purpose.fields.get("expect") or "")
            verdict = self.judge(before, after, expect, action, state.volatile, hint)
        gone = None
        try:
            state.check_program(window=False)
        except StepFailed as exc:  # whatever the screen did, the program did not do it
            gone, verdict = exc, Verdict("failed", str(exc))
        timings = {
            "decide": round(decided, 4),
            "act": round(acted - started, 4),
            "verify": round(time.perf_counter() - acted, 4),
        }
        record = self.record(action, aim, before, after, verdict, purpose, approval, timings)
        if gone is not None:
            raise gone
        if verdict.status in ("success", "unverified"):
            _note_confirmation(state, action, aim.element, before)
        return Done(after, verdict, record)

    def record(
        self,
        action: Action | None,
        aim: Aim | None,
        before: Screen,
        after: Screen | None,
        verdict: Verdict,
        purpose: Purpose,
        approval: str = "",
        durations: dict[str, float] | None = None,
        status: str | None = None,
    ) -> StepRecord:
        """Write a step, also one that did not act (nothing to do, a target not found)."""
        element = aim.element if aim else None
        record = StepRecord(
            instruction=purpose.instruction,
            thought=purpose.thought,
            action=action,
            target=element.to_json() if element is not None else None,
            point=aim.point if aim else None,
            grounded=aim.how if aim else "",
            verdict=status or verdict.status,  # type: ignore[arg-type]
            verdict_reason=verdict.reason,
            approval=approval,
            durations=durations or {},
            **purpose.fields,
        )
        return self.state.record(record, before, after)


def _learn_secret(state: RunState, action: Action, element: Element | None) -> None:
    """Text typed into a field whose label says (or nearly says) it is secret is a secret from
    now on: masked in the step, its elements, the report and the terminal, whoever chose it."""
    if not isinstance(action, Type) or not action.text:
        return
    labels = [element.text, element.name] if element is not None else []
    labels.append(action.target.text or "" if action.target is not None else "")
    if any(looks_secret(label) for label in labels if label):
        state.log.add_secret(action.text)


_CHOICES = frozenset({"checkbox", "radio", "toggle", "list_item", "combo", "menuitem", "text"})
"""What a click chooses rather than does: a box, an option, a row, a day of a calendar."""
_CONFIRMING = frozenset({"button", "link", "icon"})
EDITOR_SHARE = 0.4
"""A text area at least this share of the screen's height is a document being edited, not a
field of a form."""


def _swatch(element: Element) -> bool:
    """A colour to choose ("purple dot", "red square"), not an icon that does something."""
    words = element.name.split()
    return element.kind == "icon" and words[-1:] in (["dot"], ["square"], ["circle"]) and (
        palette().name_in(element.name) is not None
    )


def _note_confirmation(state: RunState, action: Action, element: Element | None,
                       before: Screen) -> None:  # fmt: skip
    """Whether the action left a control changed (typed into a field, a box ticked, a row or an
    option chosen) or confirmed what was changed (a button, Enter)."""
    memory = state.memory
    if isinstance(action, Hotkey):
        if action.keys[-1] in ("enter", "return") or action.keys in (("ctrl", "s"),):
            memory.unconfirmed = ""
        return
    if element is None:
        return
    if isinstance(action, Type):
        tall = element.box.h >= EDITOR_SHARE * before.frame.size[1]
        if element.kind in ("input", "combo") and not tall:
            memory.unconfirmed = element.describe()
        if action.enter:
            memory.unconfirmed = ""
    elif action.type in ("click", "double_click"):
        if element.kind in ("button", "menuitem", "list_item", "link", "text") and element.text:
            shown = frozenset(tuple(e.box) for e in before.elements if e.kind == "button")
            memory.acted = (element.text, shown)
        if element.kind in _CHOICES or _swatch(element):
            memory.unconfirmed = element.describe()
        elif element.kind in _CONFIRMING:
            memory.unconfirmed = ""


def wait_for_text(
    state: RunState, text: str, timeout: float, before: Screen
) -> tuple[Screen, Verdict]:
    """Still screens until `text` shows, up to `timeout` seconds (a dry run looks once)."""
    deadline = time.monotonic() + timeout
    screen = before
    while not screen.shows(text):
        if time.monotonic() >= deadline or state.settings.dry_run:
            return screen, Verdict("retry", f"'{text}' did not appear within {timeout:g} s")
        screen = state.observe()
    return screen, Verdict("success", f"'{text}' is visible")
