"""Replay: a demonstration's steps carried out again on the live screen.

Per step: wait for a still screen, find the target again by its signature (so a moved or
resized window, another resolution or another theme still works), act, and check that the step
did what it did when it was recorded: the same texts appeared or went, the typed text shows,
the box is checked, or at least the screen changed. Waiting is always for something (a target
to appear, an effect to show), never a fixed sleep, so a slow app is waited for and a fast one
is not. A step that cannot be found or checked stops the replay with a report of that step,
or, with `repair`, is handed to the agent in words ("click 'Save'") and the replay goes on.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from clickwright.agent.critic import Expectation, Verdict, changed_regions, expectation_for, judge
from clickwright.agent.demos.format import Demo, DemoStep, fill
from clickwright.agent.demos.signature import Found, Missing, Signature, locate
from clickwright.agent.events import Outcome, RunObserver, RunResult
from clickwright.agent.executor import Aim, Executor, Purpose
from clickwright.agent.runlog import RunLog
from clickwright.agent.safety import Consent, Human
from clickwright.agent.state import RunSettings, RunState, Stopped
from clickwright.devices.base import Device
from clickwright.errors import ClickwrightError, StepFailed
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Action, Box, Screen, Target

T = TypeVar("T")


Repair = Callable[[str, Path], RunResult]
"""Hands a step in words to the agent: (task, runs folder) -> the agent's run."""


class NotReplayed(Exception):
    """A step whose target is not on screen, or whose effect did not show."""

    def __init__(self, problem: str, recorded: bool = False) -> None:
        super().__init__(problem)
        self.recorded = recorded
        """The step's record already says so (it acted, and the effect did not show)."""


def replay_task(demo: Demo) -> str:
    """How a replay names its task in the run log (and so in reports and the panel)."""
    return f"replay '{demo.name}'" + (f": {demo.info.description}" if demo.info.description else "")


def replay_demo(
    demo: Demo,
    device: Device,
    runs_dir: Path | str = "runs",
    settings: RunSettings | None = None,
    *,
    params: dict[str, str] | None = None,
    task: str = "",
    speed: float = 0.0,
    repair: Repair | None = None,
    only: tuple[int, int] | None = None,
    parser: ScreenParser | None = None,
    observer: RunObserver | None = None,
    human: Human | None = None,
    stop: threading.Event | None = None,
) -> RunResult:
    """Replay `demo` (steps `only`=(first, last), numbered from 1, when given) with `params`
    over the recorded values, each step through the executor: a risky step that neither `task`
    nor the given values name waits for approval like any other. `speed` 0 goes as fast as the
    screen settles, 1 at the recorded pace; `repair` lets the agent carry out a step that
    cannot be found or checked. A missing or unknown parameter raises DemoError first."""
    settings = settings or RunSettings()
    observer = observer or RunObserver()
    given = params or {}
    values = demo.parameters(given)
    first, last = only or (1, len(demo.steps))
    chosen = list(enumerate(demo.steps, 1))[first - 1 : last]
    log = RunLog(
        Path(runs_dir),
        replay_task(demo),
        secrets=demo.secrets(values),
        device=device.describe(),
        planner="replay",
        demo={"name": demo.name, "dir": str(demo.dir), "steps": [first, last]},
        settings={
            "timeout": settings.wait_timeout,
            "speed": speed,
            "repair": repair is not None,
            "approve_risky": settings.approve_risky,
        },
    )
    state = RunState(
        task=task or replay_task(demo),
        device=device,
        parser=parser or ScreenParser(),
        log=log,
        settings=replace(settings, max_steps=max(settings.max_steps, 2 * len(chosen) + 1)),
        observer=observer,
        stop=stop or threading.Event(),
        consent=Consent(task, tuple(given.values())),
    )
    if human is not None:
        state.human = human
    observer.started(log.dir, log.record)
    player = _Player(demo, state, values, settings.wait_timeout)
    started = time.monotonic()
    repaired: list[int] = []
    done = 0
    outcome: Outcome = "error"
    reason, failed = "internal error", None
    try:
        for number, step in chosen:
            player.pace(started, step.time - chosen[0][1].time, speed)
            try:
                player.carry_out(number, step)
            except NotReplayed as exc:
                problem = f"step {number} of {len(demo.steps)}, {step.words!r}: {exc}"
                if repair is None:
                    if not exc.recorded:
                        player.record_failure(number, step, problem)
                    raise NotReplayed(problem) from None
                if not player.repair(number, step, problem, repair):
                    raise NotReplayed(problem + "; the agent could not repair it either") from None
                repaired.append(number)
            done += 1
        outcome, reason = "done", f"replayed {len(chosen)} step(s)"
        if repaired:
            reason += (
                f", {len(repaired)} repaired by the agent (step {', '.join(map(str, repaired))})"
            )
    except (NotReplayed, StepFailed) as exc:
        outcome, reason, failed = "failed", str(exc), chosen[done][0]
    except (KeyboardInterrupt, Stopped) as exc:
        outcome, reason = "stopped", str(exc) or "stopped by the user"
        failed = chosen[done][0] if done < len(chosen) else None
    except ClickwrightError as exc:
        outcome, reason, failed = "error", str(exc), chosen[done][0] if done < len(chosen) else None
    finally:
        log.record.seconds = round(time.monotonic() - started, 3)
        log.record.recorded_seconds = demo.info.duration
        log.finish(outcome, reason)
    result = RunResult(
        outcome, reason, log.dir, done, log.record.usage, failed, tuple(repaired),
        log.record.seconds or 0.0,
    )  # fmt: skip
    observer.ended(result)
    return result


class _Player:
    def __init__(self, demo: Demo, state: RunState, values: dict[str, str], timeout: float) -> None:
        self.demo, self.state, self.values, self.timeout = demo, state, values, timeout
        self.executor = Executor(state)

    def pace(self, started: float, offset: float, speed: float) -> None:
        """With a speed, never run ahead of the person's pace scaled by it."""
        if speed <= 0 or not math.isfinite(offset):
            return
        due = started + offset / speed
        while (left := due - time.monotonic()) > 0:
            if self.state.stop.wait(min(left, 0.1)):
                raise Stopped("stopped by the user")

    def carry_out(self, number: int, step: DemoStep) -> None:
        state = self.state
        before = state.screen or state.observe()  # the last step's check waited for stillness
        started = time.perf_counter()
        action = self._filled(step.action)
        found = to = None
        point = end = None
        aim = _aim_of(step.action)
        if step.target is not None or aim is not None:
            found = self._find(step.target, aim)  # for a wait, waiting is all there is to do
            before, point = state.screen or before, found.point
        if step.action.type == "drag":
            to = self._find(step.to, step.action.to)
            before, end = state.screen or before, to.point
        element = found.element if found else None
        done = self.executor.act(
            action,
            Aim(point, end, element, found.by if found else ""),
            before,
            lambda screen: self._verify(step, action, screen, found),
            Purpose(
                step.words,
                f"found by {found.by}: {found.why}" if found else "no target to find",
                {"demo_step": number},
            ),
            time.perf_counter() - started,
        )
        if done.verdict.status == "retry":
            raise NotReplayed(done.verdict.reason, recorded=True)

    def _filled(self, action: Action) -> Action:
        if action.type == "type":
            return action.model_copy(update={"text": fill(action.text, self.values)})
        return action

    def _find(self, signature: Signature | None, target: Target | None) -> Found:
        """The target on the current screen, waiting up to the timeout for it to appear."""
        if signature is None:
            if target is None or target.point is not None:
                return self._recorded_point(target)
            signature = Signature(
                text=target.text or "",
                kind=target.kind,
                box=(0, 0, 1, 1),
                screen=self.demo.info.screen,
            )
        crop = self.demo.image(signature.crop)
        result = self._poll(lambda screen: _found_or_none(locate(signature, screen, crop)))
        if isinstance(result, Found):
            return result
        last = locate(signature, self.state.screen or self.state.observe(), crop)
        why = last.reason if isinstance(last, Missing) else "it vanished"
        raise NotReplayed(f"not found within {self.timeout:g} s ({why})")

    def _recorded_point(self, target: Target | None) -> Found:
        """A step recorded only as a point (nothing there had words or a picture): the same
        place relative to the screen size."""
        screen = self.state.screen or self.state.observe()
        width, height = screen.frame.size
        x, y = target.point if target is not None and target.point else (0, 0)
        rw, rh = self.demo.info.screen
        point = (round(x * width / rw), round(y * height / rh))
        return Found(
            point, Box(point[0], point[1], 1, 1), None, "point", "the recorded point, scaled"
        )

    def _verify(
        self, step: DemoStep, action: Action, before: Screen, found: Found | None
    ) -> tuple[Screen, Verdict]:
        """Wait for the recorded effect, up to the timeout."""
        if action.type == "wait":
            return before, Verdict("success", "it is on screen")
        secret = any(self.demo.info.parameters[p].secret for p in step.placeholders())
        element = found.element if found else None
        expect = Expectation("change") if secret else expectation_for(action, element)
        last: list[str] = []

        def check(after: Screen) -> str | None:
            why, problem = _effect_shown(step, before, after, expect, secret)
            last[:] = [problem]
            return why

        why = self._poll(check, first=self.state.observe())
        after = self.state.screen or before
        if why is None:
            return after, Verdict("retry", f"it was done, but {last[0]}")
        return after, Verdict("success", why)

    def _poll(self, probe: Callable[[Screen], T | None], first: Screen | None = None) -> T | None:
        """`probe` on still screens until it gives something or the timeout passes."""
        deadline = time.monotonic() + self.timeout
        screen = first or self.state.screen or self.state.observe()
        while True:
            result = probe(screen)
            if result is not None or time.monotonic() > deadline:
                return result
            screen = self.state.observe()

    def record_failure(self, number: int, step: DemoStep, problem: str) -> None:
        """The step that stopped the replay, with the screen as it is now, for the report."""
        screen = self.state.screen or self.state.observe()
        self.executor.record(
            None, None, screen, None, Verdict("retry", problem),
            Purpose(step.words, "", {"demo_step": number}), status="failed",
        )  # fmt: skip

    def repair(self, number: int, step: DemoStep, problem: str, repair: Repair) -> bool:
        """Hand the step, in words, to the agent; its run is logged beside the replay."""
        state = self.state
        task = fill(step.words, self.values)
        result = repair(task, state.log.dir / "repairs")
        if result.outcome == "stopped":
            raise Stopped(result.reason)
        before = state.screen or state.observe()
        after = state.observe()
        how = "repaired by the agent" if result.ok else "the agent could not repair it"
        purpose = Purpose(
            step.words,
            f"could not replay it ({problem}); asked the agent to '{step.words}'",
            {"demo_step": number, "repair_run": str(result.run_dir)},
        )
        verdict = Verdict("success" if result.ok else "failed", f"{how}: {result.reason}")
        self.executor.record(None, None, before, after, verdict, purpose)
        return result.ok


def _effect_shown(
    step: DemoStep, before: Screen, after: Screen, expect: Expectation, secret: bool = False
) -> tuple[str | None, str]:
    """(why it worked, None) or (None, what is missing) for the step's recorded effect. Typing
    a secret shows only masking dots, which OCR reads differently each time: any change counts."""
    if expect.kind != "change":
        verdict = judge(before, after, expect)
        if verdict.status == "success":
            return verdict.reason, ""
        return None, f"{expect.describe()} did not happen ({verdict.reason})"
    effect = step.effect.model_copy(update={"appeared": (), "gone": ()}) if secret else step.effect
    for text in effect.appeared:
        if after.shows(text) and not before.shows(text):
            return f"'{text}' appeared, as when recorded", ""
    for text in effect.gone:
        if before.shows(text) and not after.shows(text):
            return f"'{text}' went away, as when recorded", ""
    changed = bool(changed_regions(before.frame, after.frame))
    if effect.appeared or effect.gone:
        wanted = ", ".join(f"'{t}'" for t in effect.appeared) or ", ".join(
            f"'{t}' going" for t in effect.gone
        )
        seen = "the screen changed otherwise" if changed else "nothing changed on screen"
        return None, f"{seen}; when recorded, {wanted} followed"
    if changed or not effect.changed:
        return ("the screen changed" if changed else "nothing changed, as when recorded"), ""
    return None, "nothing changed on screen"


def _found_or_none(result: Found | Missing) -> Found | None:
    return result if isinstance(result, Found) else None


def _aim_of(action: Action) -> Target | None:
    """Where the action acts (a drag: where it starts; a wait: what it waits for), if anywhere."""
    field = {"drag": "source", "wait": "until"}.get(action.type, "target")
    target = getattr(action, field, None)
    return target if isinstance(target, Target) else None
