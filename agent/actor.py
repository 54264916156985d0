"""The offline actor: carries out one interpreted step on the live screen.

Each verb grounds its target, acts on the best candidate, lets the critic judge the effect and,
when nothing happened, tries the next candidate. Multi-action verbs (choose from a combo box,
menu paths) chain clicks, each expecting the next target to appear.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from clickwright.agent.critic import Expectation, Verdict, judge
from clickwright.agent.grounding import Candidate, closest_texts, of_kind, rank, text_similarity
from clickwright.agent.interpreter import Step
from clickwright.agent.runlog import looks_secret
from clickwright.agent.state import RunState, ScreenChanged
from clickwright.devices.base import Point
from clickwright.errors import StepFailed
from clickwright.types import (
    Action,
    Box,
    Click,
    DoubleClick,
    Drag,
    Element,
    Hotkey,
    RightClick,
    Screen,
    Scroll,
    Target,
    Type,
    Wait,
    action_to_json,
)

Plan = tuple[Action, Point | None, Point | None, Expectation]
POINTER = {"click": Click, "double_click": DoubleClick, "right_click": RightClick}


TOGGLES = ("checkbox", "radio", "toggle")
EXPANDERS = frozenset({"+", "⊞", "⊕", "▸", "▶", "►", "›"})
"""What OCR reads on a collapsed tree node's button."""
MAX_REVEALS = 8


def _by_id(candidate: Candidate) -> Target:
    return Target(id=candidate.element.id)


CHANGE = Expectation("change")


def click(
    expect: Expectation | Callable[[Candidate], Expectation] = CHANGE,
    make: type[Click | DoubleClick | RightClick] = Click,
) -> Callable[[Candidate], Plan]:
    """The plan for pointing at a candidate's centre, expecting `expect` afterwards."""

    def plan(c: Candidate) -> Plan:
        expectation = expect(c) if callable(expect) else expect
        return make(target=_by_id(c)), c.point, None, expectation

    return plan


def state_after(
    wanted: Literal["checked", "unchecked"], kinds: tuple[str, ...] = TOGGLES
) -> Callable[[Candidate], Expectation]:
    """Expect a toggle to end up `wanted`; anything else that is clicked, just to change."""

    def expect(c: Candidate) -> Expectation:
        if c.element.kind in kinds:
            return Expectation("state", box=c.element.box, state=wanted)
        return CHANGE

    return expect


Judge = Callable[[Screen, Screen, Expectation, Action, Sequence[Box]], Verdict]


def offline_judge(
    before: Screen, after: Screen, expect: Expectation, action: Action, ignore: Sequence[Box]
) -> Verdict:
    return judge(before, after, expect, ignore)


class OfflineActor:
    """`judge` is the critic: the offline one by default, or a model critic from the team."""

    def __init__(self, state: RunState, judge: Judge = offline_judge) -> None:
        self.state = state
        self.judge = judge

    @property
    def screen(self) -> Screen:
        return self.state.screen or self.state.observe()

    def carry_out(self, step: Step) -> None:
        getattr(self, "_" + step.verb)(step)

    # ---- verbs ------------------------------------------------------------------------------

    def _click(self, step: Step) -> None:
        expect = state_after("checked", ("radio",)) if step.verb == "click" else CHANGE
        self._on_target(
            step, step.target or "", step.kind, click(expect, POINTER[step.verb]), nth=step.nth
        )

    _double_click = _right_click = _click

    def _check(self, step: Step) -> None:
        wanted = "checked" if step.verb == "check" else "unchecked"
        kind = step.kind or "checkbox"
        best = self._best(step.target or "", kind)
        if best is not None and best.element.kind in TOGGLES:
            if ("checked" in best.element.state) == (wanted == "checked"):
                self._record_noop(step, f"{best.element.describe()} is already {wanted}")
                return
        self._on_target(step, step.target or "", kind, click(state_after(wanted)))

    _uncheck = _check

    def _select(self, step: Step) -> None:
        """Choose an option: open the combo box, then click the option it shows, or type it."""
        option = step.text or ""
        field = self._best(step.target or "", step.kind or "combo")
        # a list named only by its kind ("from the list") is the list, whatever it looks like
        named_list = field is not None and not step.target and step.kind == "combo"
        if field is None or (field.element.kind != "combo" and not named_list):
            near = field.element.box if field else None
            self._on_target(step, option, "list_item", click(), near=near)
            return
        closed = self.screen
        box = field.element.box
        self._on_target(step, step.target or "", "combo", click(Expectation("appears", option)))
        shows_option = Expectation("text_in", option, box)
        if self._best(option, "list_item", new_since=closed, near=box) is None:
            self._blind(
                step,
                Type(text=option, enter=True),
                None,
                shows_option,
                f"'{option}' is not listed in view; typing it selects it in the open list",
            )
            return
        self._on_target(step, option, "list_item", click(shows_option), new_since=closed, near=box)

    def _open_menu(self, step: Step) -> None:
        previous: Screen | None = None
        for index, part in enumerate(step.path):
            following = step.path[index + 1] if index + 1 < len(step.path) else None
            expect = Expectation("appears", following) if following else CHANGE
            current = self.screen
            kind = "menu" if index == 0 else "menuitem"
            self._on_target(step, part, kind, click(expect), new_since=previous)
            previous = current

    def _type(self, step: Step) -> None:
        text = step.text or ""
        if step.target is None:
            self._blind(
                step,
                Type(text=text, enter=step.enter),
                None,
                CHANGE,
                "typing into the focused element",
            )
            return

        def plan(c: Candidate) -> Plan:
            secret = looks_secret(c.element.name or step.target or "")
            expect = CHANGE if secret else Expectation("text_in", text, c.element.box)
            action = Type(text=text, target=_by_id(c), enter=step.enter, clear=True)
            return action, c.element.box.center, None, expect

        if step.every:
            fields = of_kind(self.screen, step.kind or "input")
            for nth in range(1, len(fields) + 1):
                self._on_target(step, "", step.kind or "input", plan, nth=nth)
            return
        self._on_target(step, step.target, step.kind or "input", plan, nth=step.nth)

    def _press(self, step: Step) -> None:
        self._blind(
            step,
            Hotkey(keys=step.keys),
            None,
            CHANGE,
            "pressing " + "+".join(step.keys),
        )

    def _scroll(self, step: Step) -> None:
        direction = step.direction or "down"
        if step.target:
            # a named area to scroll is usually the list or pane beside its label
            self._on_target(
                step,
                step.target,
                step.kind or "container",
                lambda c: (
                    Scroll(direction=direction, amount=step.amount, target=_by_id(c)),
                    c.element.box.center,
                    None,
                    CHANGE,
                ),
            )
            return
        w, h = self.screen.frame.size
        self._blind(
            step,
            Scroll(direction=direction, amount=step.amount),
            (w // 2, h // 2),
            CHANGE,
            f"scrolling {direction} in the middle of the screen",
        )

    def _drag(self, step: Step) -> None:
        destination = self._best(step.destination or "", None)
        if destination is None:
            raise self._not_found(step.destination or "", step)
        drop = destination.element

        self._on_target(
            step,
            step.target or "",
            step.kind,
            lambda c: (
                Drag(source=_by_id(c), to=Target(id=drop.id)),
                c.element.box.center,
                drop.box.center,
                CHANGE,
            ),
        )

    def _wait_for(self, step: Step) -> None:
        state, wanted = self.state, step.target or ""
        before = self.screen
        deadline = time.monotonic() + state.settings.wait_timeout
        screen = before
        while not any(text_similarity(wanted, t) >= 85 for t in screen.texts()):
            if time.monotonic() > deadline or state.settings.dry_run:
                raise StepFailed(
                    f"'{wanted}' did not appear within {state.settings.wait_timeout:g} s"
                    + self._closest(screen, wanted)
                )
            screen = state.observe()
        action = Wait(until=Target(text=wanted), timeout=state.settings.wait_timeout)
        self._record(
            step,
            action,
            before,
            screen,
            None,
            Verdict("success", f"'{wanted}' is visible"),
            thought=f"waiting until '{wanted}' shows",
        )

    # ---- the shared act-and-verify primitive -------------------------------------------------

    def _candidates(
        self,
        screen: Screen,
        description: str,
        kind: str | None,
        nth: int | None = None,
        **hints: Any,
    ) -> list[Candidate]:
        """By text when the step names one, else the elements of the kind it names."""
        if not description:
            return of_kind(screen, kind, nth)
        return rank(screen, description, kind, echo_of=self.state.task, **hints)

    def _best(self, description: str, kind: str | None, **hints: Any) -> Candidate | None:
        candidates = self._candidates(self.screen, description, kind, **hints)
        return candidates[0] if candidates else None

    def _on_target(self, *args: Any, **hints: Any) -> None:
        """`_act_on_target`, started over on a fresh look when the person changed the screen
        while the run was held."""
        while True:
            try:
                return self._act_on_target(*args, **hints)
            except ScreenChanged:
                continue

    def _act_on_target(
        self,
        step: Step,
        description: str,
        kind: str | None,
        plan: Callable[[Candidate], Plan],
        new_since: Screen | None = None,
        near: Box | None = None,
        nth: int | None = None,
    ) -> None:
        """Act on the best candidate for `description`; on a `retry` verdict try the next."""
        state = self.state
        before = self.screen
        started = time.perf_counter()
        candidates = self._candidates(
            before, description, kind, nth, new_since=new_since, near=near
        )
        decided = time.perf_counter() - started
        if not candidates:
            if state.settings.dry_run:
                self._record(
                    step,
                    None,
                    before,
                    None,
                    None,
                    Verdict("unverified", f"'{description}' is not on screen yet"),
                    thought="dry run: the target would appear after earlier steps",
                )
                return
            candidates = self._reveal(step, description, kind, nth)
            before = self.screen
        if not candidates:
            failure = self._not_found(description, step)
            self._record(step, None, before, None, None, Verdict("retry", str(failure)), "")
            raise failure
        verdict = Verdict("retry", "no candidate tried")
        for attempt, candidate in enumerate(candidates[: state.settings.max_attempts], 1):
            action, point, end, expect = plan(candidate)
            thought = f"{description!r} is {candidate.element.describe()} ({candidate.why})"
            extra = {
                "target": candidate.element.to_json(),
                "attempt": attempt,
                "candidates": [c.to_json() for c in candidates[:5]],
            }
            after, verdict, timings = self._perform(
                action, point, end, before, expect, candidate.element
            )
            timings["decide"] = round(decided, 4)
            self._record(step, action, before, after, point, verdict, thought, extra, timings)
            if verdict.status != "retry":
                return
            before = after or before
        tried = min(len(candidates), state.settings.max_attempts)
        raise StepFailed(
            f"could not {step.clause!r}: {tried} candidate(s) for '{description}' tried, "
            f"last result: {verdict.reason}"
        )

    def _reveal(
        self, step: Step, description: str, kind: str | None, nth: int | None
    ) -> list[Candidate]:
        """The target is not on screen: open collapsed tree nodes (a "+" or "▸" beside a row),
        top first, until it shows, as a person looks through a tree. Children's own nodes
        come next in reading order, so the search goes down before it goes on."""
        opened: list[Box] = []
        for _ in range(MAX_REVEALS):
            screen = self.screen
            closed = [
                e
                for e in screen.elements
                if e.text.strip() in EXPANDERS and not any(e.box.iou(b) > 0.5 for b in opened)
            ]
            if not closed:
                return []
            node = closed[0]
            opened.append(node.box)
            action = Click(target=Target(id=node.id))
            after, verdict, timings = self._perform(
                action, node.box.center, None, screen, CHANGE, node
            )
            thought = f"{description!r} is not on screen: opening the collapsed node at {node.box}"
            extra = {"target": node.to_json()}
            self._record(step, action, screen, after, node.box.center, verdict, thought, extra,
                         timings)  # fmt: skip
            if found := self._candidates(self.screen, description, kind, nth):
                return found
        return []

    def _blind(
        self, step: Step, action: Action, point: Point | None, expect: Expectation, thought: str
    ) -> None:
        """An action with no alternatives to try: no change means 'unverified', not failure."""
        while True:
            before = self.screen
            try:
                after, verdict, timings = self._perform(action, point, None, before, expect)
                break
            except ScreenChanged:
                continue
        if verdict.status == "retry":
            verdict = Verdict("unverified", f"no visible change after {thought}")
        self._record(step, action, before, after, point, verdict, thought, timings=timings)

    def _perform(
        self,
        action: Action,
        point: Point | None,
        end: Point | None,
        before: Screen,
        expect: Expectation,
        element: Element | None = None,
    ) -> tuple[Screen | None, Verdict, dict[str, float]]:
        state = self.state
        state.check_budget()
        if state.settings.dry_run:
            return None, Verdict("unverified", "dry run: nothing was done"), {}
        state.approve(action, element)
        state.note_volatile(before)
        started = time.perf_counter()
        state.device.perform(action, point, end)
        acted = time.perf_counter()
        after = state.observe()
        judged = time.perf_counter()
        verdict = self.judge(before, after, expect, action, state.volatile)
        return (
            after,
            verdict,
            {"act": round(acted - started, 4), "verify": round(time.perf_counter() - judged, 4)},
        )

    def _record(
        self,
        step: Step,
        action: Action | None,
        before: Screen,
        after: Screen | None,
        point: Point | None,
        verdict: Verdict,
        thought: str,
        extra: dict[str, Any] | None = None,
        timings: dict[str, float] | None = None,
    ) -> None:
        status = "dry_run" if self.state.settings.dry_run and action is not None else verdict.status
        record = {
            "instruction": step.clause,
            "thought": thought,
            "action": action_to_json(action) if action is not None else None,
            "target": None,
            "candidates": [],
            "attempt": 1,
            "point": list(point) if point else None,
            "verdict": status,
            "verdict_reason": verdict.reason,
            "durations": timings or {},
            **(extra or {}),
        }
        self.state.record(record, before, after)

    def _record_noop(self, step: Step, reason: str) -> None:
        self._record(
            step, None, self.screen, None, None, Verdict("success", reason), thought="nothing to do"
        )

    def _not_found(self, description: str, step: Step) -> StepFailed:
        return StepFailed(
            f"could not {step.clause!r}: nothing on screen matches '{description}'"
            + self._closest(self.screen, description)
        )

    @staticmethod
    def _closest(screen: Screen, description: str) -> str:
        near = closest_texts(screen, description)
        return f" (closest: {', '.join(repr(t) for t in near)})" if near else ""
