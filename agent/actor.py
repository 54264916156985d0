"""The offline actor: carries out one interpreted step on the live screen.

Each verb grounds its target, acts on the best candidate, lets the critic judge the effect and,
when nothing happened, tries the next candidate. Multi-action verbs (choose from a combo box,
menu paths) chain clicks, each expecting the next target to appear.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from clickwright.agent.critic import Expectation, Verdict
from clickwright.agent.executor import (
    CHANGE,
    Aim,
    Executor,
    Judge,
    Purpose,
    offline_judge,
    wait_for_text,
)
from clickwright.agent.grounding import Candidate, closest_texts, of_kind, rank
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
    Hotkey,
    RightClick,
    Screen,
    Scroll,
    Target,
    Type,
    Wait,
)

Plan = tuple[Action, Point | None, Point | None, Expectation]
POINTER = {"click": Click, "double_click": DoubleClick, "right_click": RightClick}


TOGGLES = ("checkbox", "radio", "toggle")
EXPANDERS = frozenset({"+", "⊞", "⊕", "▸", "▶", "►", "›"})
"""What OCR reads on a collapsed tree node's button."""
MAX_REVEALS = 8


def _by_id(candidate: Candidate) -> Target:
    return Target(id=candidate.element.id)


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


class OfflineActor:
    """`judge` is the critic: the offline one by default, or a model critic from the team."""

    def __init__(self, state: RunState, judge: Judge = offline_judge) -> None:
        self.state = state
        self.executor = Executor(state, judge)

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
        timeout = state.settings.wait_timeout
        action = Wait(until=Target(text=wanted), timeout=timeout)
        done = self.executor.act(
            action,
            Aim(),
            self.screen,
            lambda before: wait_for_text(state, wanted, timeout, before),
            Purpose(step.clause, f"waiting until '{wanted}' shows"),
        )
        if done.verdict.status == "retry":
            raise StepFailed(done.verdict.reason + self._closest(self.screen, wanted))

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
                self.executor.record(
                    None,
                    None,
                    before,
                    None,
                    Verdict("unverified", f"'{description}' is not on screen yet"),
                    Purpose(step.clause, "dry run: the target would appear after earlier steps"),
                    status="planned",
                )
                return
            candidates = self._reveal(step, description, kind, nth)
            before = self.screen
        if not candidates:
            failure = self._not_found(description, step)
            self._record_failure(step, before, str(failure))
            raise failure
        verdict = Verdict("retry", "no candidate tried")
        for attempt, candidate in enumerate(candidates[: state.settings.max_attempts], 1):
            action, point, end, expect = plan(candidate)
            thought = f"{description!r} is {candidate.element.describe()} ({candidate.why})"
            fields = {"attempt": attempt, "candidates": [c.to_json() for c in candidates[:5]]}
            aim = Aim(point, end, candidate.element, candidate.why)
            done = self.executor.act(
                action, aim, before, expect, Purpose(step.clause, thought, fields), decided
            )
            verdict = done.verdict
            if verdict.status != "retry":
                return
            before = done.after or before
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
            thought = f"{description!r} is not on screen: opening the collapsed node at {node.box}"
            self.executor.act(
                Click(target=Target(id=node.id)),
                Aim(node.box.center, None, node, "a collapsed tree node"),
                screen,
                CHANGE,
                Purpose(step.clause, thought),
            )
            if found := self._candidates(self.screen, description, kind, nth):
                return found
        return []

    def _blind(
        self, step: Step, action: Action, point: Point | None, expect: Expectation, thought: str
    ) -> None:
        """An action with no alternatives to try: no change means 'unverified', not failure."""
        executor, state = self.executor, self.state

        def check(before: Screen) -> tuple[Screen, Verdict]:
            after = state.observe()
            verdict = executor.judge(before, after, expect, action, state.volatile, "")
            if verdict.status == "retry":
                verdict = Verdict("unverified", f"no visible change after {thought}")
            return after, verdict

        while True:
            try:
                executor.act(action, Aim(point), self.screen, check, Purpose(step.clause, thought))
                return
            except ScreenChanged:
                continue

    def _record_noop(self, step: Step, reason: str) -> None:
        self.executor.record(
            None, None, self.screen, None, Verdict("success", reason),
            Purpose(step.clause, "nothing to do"),
        )  # fmt: skip

    def _record_failure(self, step: Step, screen: Screen, reason: str) -> None:
        verdict, purpose = Verdict("retry", reason), Purpose(step.clause)
        self.executor.record(None, None, screen, None, verdict, purpose, status="failed")

    def _not_found(self, description: str, step: Step) -> StepFailed:
        return StepFailed(
            f"could not {step.clause!r}: nothing on screen matches '{description}'"
            + self._closest(self.screen, description)
        )

    @staticmethod
    def _closest(screen: Screen, description: str) -> str:
        near = closest_texts(screen, description)
        return f" (closest: {', '.join(repr(t) for t in near)})" if near else ""
