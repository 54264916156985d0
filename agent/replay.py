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

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from clickwright.agent.critic import Expectation, changed_regions, expectation_for, judge
from clickwright.agent.demos import Demo, DemoStep, fill
from clickwright.agent.grounding import text_similarity
from clickwright.agent.runlog import RunLog
from clickwright.agent.signature import Found, Missing, Signature, locate
from clickwright.agent.state import RunSettings, RunState, Stopped
from clickwright.devices.base import Device
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Action, Box, Screen, Target, action_to_json

T = TypeVar("T")
VISIBLE = 85.0  # text similarity at which a recorded text counts as on screen


@dataclass(frozen=True)
class ReplaySettings:
    timeout: float = 10.0
    """Seconds to wait for a target to appear, or for a step's effect to show."""
    speed: float = 0.0
    """0: as fast as the screen settles; 1: the recorded person's pace; 2: twice as fast."""
    repair: bool = False
    """Let the agent carry out a step that cannot be found or checked, then go on."""
    settle_timeout: float = 5.0
    accessibility: bool = True


@dataclass(frozen=True)
class ReplayResult:
    outcome: Literal["done", "failed", "stopped"]
    reason: str
    run_dir: Path
    steps: int
    """Steps carried out (repaired ones included)."""
    failed_step: int | None = None
    repaired: tuple[int, ...] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.outcome == "done"


class NotReplayed(Exception):
    """A step whose target is not on screen, or whose effect did not show."""


def replay_task(demo: Demo) -> str:
    """How a replay names its task in the run log (and so in reports and the panel)."""
    return f"replay '{demo.name}'" + (f": {demo.info.description}" if demo.info.description else "")


def replay_demo(
    demo: Demo,
    device: Device,
    runs_dir: Path | str = "runs",
    params: dict[str, str] | None = None,
    settings: ReplaySettings | None = None,
    parser: ScreenParser | None = None,
    on_step: Callable[[dict[str, Any]], None] | None = None,
    stop: threading.Event | None = None,
    only: tuple[int, int] | None = None,
) -> ReplayResult:
    """Replay `demo` (steps `only`=(first, last), numbered from 1, when given) with `params`
    over the recorded values. A missing or unknown parameter raises DemoError first."""
    settings = settings or ReplaySettings()
    values = demo.parameters(params or {})
    first, last = only or (1, len(demo.steps))
    chosen = list(enumerate(demo.steps, 1))[first - 1 : last]
    log = RunLog(
        Path(runs_dir),
        {
            "task": replay_task(demo),
            "device": device.describe(),
            "planner": "replay",
            "demo": {"name": demo.name, "dir": str(demo.dir), "steps": [first, last]},
            "settings": {
                "timeout": settings.timeout,
                "speed": settings.speed,
                "repair": settings.repair,
            },
        },
        secrets=demo.secrets(values),
    )

    def shown(step: dict[str, Any]) -> None:  # what is shown is redacted like what is written
        if on_step is not None:
            on_step(log.redact(step))

    state = RunState(
        task=f"replay {demo.name}",
        device=device,
        parser=parser or ScreenParser(),
        log=log,
        settings=RunSettings(
            max_steps=len(chosen) + 1,
            settle_timeout=settings.settle_timeout,
            accessibility=settings.accessibility,
        ),
        on_step=shown,
        stop=stop or threading.Event(),
    )
    player = _Player(demo, state, values, settings)
    started = time.monotonic()
    repaired: list[int] = []
    done = 0
    outcome: Literal["done", "failed", "stopped"] = "done"
    reason, failed = f"replayed {len(chosen)} step(s)", None
    try:
        for number, step in chosen:
            player.pace(started, step.time - chosen[0][1].time)
            try:
                player.carry_out(number, step)
            except NotReplayed as exc:
                problem = f"step {number} of {len(demo.steps)}, {step.words!r}: {exc}"
                if not settings.repair:
                    player.record_failure(number, step, problem)
                    raise NotReplayed(problem) from None
                if not player.repair(number, step, problem):
                    raise NotReplayed(problem + "; the agent could not repair it either") from None
                repaired.append(number)
            done += 1
        if repaired:
            reason += (
                f", {len(repaired)} repaired by the agent (step {', '.join(map(str, repaired))})"
            )
    except NotReplayed as exc:
        outcome, reason, failed = "failed", str(exc), chosen[done][0]
    except (KeyboardInterrupt, Stopped):
        outcome, reason = "stopped", "stopped by the user"
    finally:
        log.info["seconds"] = round(time.monotonic() - started, 3)
        log.info["recorded_seconds"] = demo.info.duration
        log.finish(outcome, reason)
    return ReplayResult(
        outcome, reason, log.dir, done, failed, tuple(repaired), time.monotonic() - started
    )


class _Player:
    def __init__(
        self, demo: Demo, state: RunState, values: dict[str, str], settings: ReplaySettings
    ) -> None:
        self.demo, self.state, self.values, self.settings = demo, state, values, settings

    def pace(self, started: float, offset: float) -> None:
        """With a speed, never run ahead of the person's pace scaled by it."""
        if self.settings.speed <= 0:
            return
        due = started + offset / self.settings.speed
        while (left := due - time.monotonic()) > 0:
            if self.state.stop.wait(min(left, 0.1)):
                raise Stopped("stopped by the user")

    def carry_out(self, number: int, step: DemoStep) -> None:
        state = self.state
        before = state.screen or self.state.observe()  # the last step's check waited for stillness
        started = time.perf_counter()
        action = self._filled(step.action)
        found = to = None
        point = end = None
        aim = _aim_of(step.action)
        if step.target is not None or aim is not None:
            found = self._find(step.target, aim)  # for a wait, waiting is all there is to do
            before, point = self.state.screen or before, found.point
        if step.action.type == "drag":
            to = self._find(step.to, step.action.to)
            before, end = self.state.screen or before, to.point
        decided = time.perf_counter()
        state.check_budget()
        state.device.perform(action, point, end)
        acted = time.perf_counter()
        after, why = self._verify(step, action, before, found)
        element = found.element if found else None
        record = {
            "instruction": step.words,
            "thought": f"found by {found.by}: {found.why}" if found else "no target to find",
            "action": action_to_json(action),
            "target": element.to_json() if element else None,
            "candidates": [],
            "attempt": 1,
            "point": list(point) if point else None,
            "verdict": "success",
            "verdict_reason": why,
            "demo_step": number,
            "found_by": found.by if found else None,
            "durations": {
                "decide": round(decided - started, 4),
                "act": round(acted - decided, 4),
                "verify": round(time.perf_counter() - acted, 4),
            },
        }
        state.record(record, before, after)

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
        raise NotReplayed(f"not found within {self.settings.timeout:g} s ({why})")

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
    ) -> tuple[Screen, str]:
        """Wait for the recorded effect; NotReplayed when it does not show in time."""
        if action.type == "wait":
            return before, "it is on screen"
        secret = any(self.demo.info.parameters[p].secret for p in step.placeholders())
        element = found.element if found else None
        expect = Expectation("change") if secret else expectation_for(action, element)
        last: list[str] = []

        def check(after: Screen) -> str | None:
            why, problem = _effect_shown(step, before, after, expect)
            last[:] = [problem]
            return why

        why = self._poll(check, first=self.state.observe())
        if why is None:
            raise NotReplayed(f"it was done, but {last[0]}")
        return self.state.screen or before, why

    def _poll(self, probe: Callable[[Screen], T | None], first: Screen | None = None) -> T | None:
        """`probe` on still screens until it gives something or the timeout passes."""
        deadline = time.monotonic() + self.settings.timeout
        screen = first or self.state.screen or self.state.observe()
        while True:
            result = probe(screen)
            if result is not None or time.monotonic() > deadline:
                return result
            screen = self.state.observe()

    def record_failure(self, number: int, step: DemoStep, problem: str) -> None:
        """The step that stopped the replay, with the screen as it is now, for the report."""
        screen = self.state.screen or self.state.observe()
        self.state.record(_unacted(step, number, "failed", problem), screen, None)

    def repair(self, number: int, step: DemoStep, problem: str) -> bool:
        """Hand the step, in words, to the agent; its run is logged beside the replay."""
        from clickwright.agent.loop import run_task

        state = self.state
        task = fill(step.words, self.values)
        result = run_task(
            task, state.device, state.log.dir / "repairs", parser=state.parser, stop=state.stop
        )
        if result.outcome == "stopped":
            raise Stopped("stopped by the user")
        before = state.screen or self.state.observe()
        after = self.state.observe()
        verdict = "success" if result.ok else "failed"
        how = "repaired by the agent" if result.ok else "the agent could not repair it"
        record = _unacted(step, number, verdict, f"{how}: {result.reason}")
        record.update(
            thought=f"could not replay it ({problem}); asked the agent to '{step.words}'",
            repaired=True,
            repair_run=str(result.run_dir),
        )
        state.record(record, before, after)
        return result.ok


def _unacted(step: DemoStep, number: int, verdict: str, reason: str) -> dict[str, Any]:
    """A log record for a step the replay itself did not act on."""
    return {
        "instruction": step.words,
        "thought": "",
        "action": None,
        "target": None,
        "candidates": [],
        "attempt": 1,
        "point": None,
        "verdict": verdict,
        "verdict_reason": reason,
        "demo_step": number,
    }


def _effect_shown(
    step: DemoStep, before: Screen, after: Screen, expect: Expectation
) -> tuple[str | None, str]:
    """(why it worked, None) or (None, what is missing) for the step's recorded effect."""
    if expect.kind != "change":
        verdict = judge(before, after, expect)
        if verdict.status == "success":
            return verdict.reason, ""
        return None, f"{expect.describe()} did not happen ({verdict.reason})"
    effect = step.effect
    for text in effect.appeared:
        if _visible(after, text) and not _visible(before, text):
            return f"'{text}' appeared, as when recorded", ""
    for text in effect.gone:
        if _visible(before, text) and not _visible(after, text):
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


def _visible(screen: Screen, text: str) -> bool:
    return any(text_similarity(text, t) >= VISIBLE for t in screen.texts())


def _found_or_none(result: Found | Missing) -> Found | None:
    return result if isinstance(result, Found) else None


def _aim_of(action: Action) -> Target | None:
    """Where the action acts (a drag: where it starts; a wait: what it waits for), if anywhere."""
    field = {"drag": "source", "wait": "until"}.get(action.type, "target")
    target = getattr(action, field, None)
    return target if isinstance(target, Target) else None
