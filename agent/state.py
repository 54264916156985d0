"""The one state object the roles share: what each reads and writes is visible here."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from clickwright.a11y import A11yNode
from clickwright.agent.budget import Budget, Usage
from clickwright.agent.critic import changed_regions
from clickwright.agent.events import RunObserver
from clickwright.agent.memory import Memory
from clickwright.agent.runlog import RunLog
from clickwright.agent.safety import Consent, Flag, Human, Nobody, Risk, risk_of
from clickwright.devices.base import Device, Stable, wait_until_stable
from clickwright.errors import ClickwrightError, DeviceError, StepFailed
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Action, Box, Element, Frame, Screen, StepRecord

T = TypeVar("T")

QUIET = 0.25
"""Seconds a screen must stay unchanged to count as still."""
EARLY = 0.1
"""Seconds of that after which parsing starts: the rest passes during the parse."""


@dataclass(frozen=True)
class RunSettings:
    max_steps: int = 30
    max_attempts: int = 3
    dry_run: bool = False
    settle_timeout: float = 5.0
    wait_timeout: float = 10.0
    accessibility: bool = True
    max_time: float | None = None
    """Seconds the whole run may take."""
    max_cost: float | None = None
    """US dollars the run's model calls may cost."""
    approve_risky: bool = False
    """`--yes`: carry out risky actions without asking."""
    screenshots: int = 2
    """How many recent screenshots a model sees (the current one included)."""
    answer_tries: int = 3
    """How often a model may answer before its answers count as unusable."""
    max_replans: int = 2
    finish_dialogs: bool = True
    """A task that changed a dialog's or form's controls and pressed nothing after ends with
    its OK; off for a run that is one step of something larger (a replay's repair)."""
    hybrid: bool = False
    """With a model actor: the offline planner and actor do what they can, and the model is
    called only for the steps they cannot read or do."""

    def __post_init__(self) -> None:
        if min(self.max_steps, self.max_attempts, self.screenshots, self.answer_tries) < 1:
            raise ValueError(
                "max_steps, max_attempts, screenshots and answer_tries must be at least 1"
            )
        for name in ("max_time", "max_cost", "settle_timeout", "wait_timeout"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ClickwrightError(
                    f"{name.replace('_', '-')} cannot be {value}",
                    "give a number, or leave the limit out for none",
                )


class Stopped(Exception):
    """The user asked the run to stop (stop button, hotkey, a denied approval); not an error."""


def contained(doing: str, kind: str, call: Callable[[], T]) -> T:
    """`call()`, with what a device raises outside clickwright's own errors as one line: the
    fail-safe corner is a stop, anything else the device going away."""
    try:
        return call()
    except ClickwrightError:
        raise
    except Exception as exc:
        if type(exc).__name__ == "FailSafeException":  # pyautogui: mouse thrown into a corner
            raise Stopped("stopped: the mouse was moved into a corner of the screen") from None
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DeviceError(
            f"could not {doing} on the {kind} device: {said}",
            "check that it is still there (a display, a phone), then run again",
        ) from None


class ScreenChanged(Exception):
    """The person used the screen while the run was held: what was grounded is stale, so the
    step starts again from a fresh look."""


class NeedsAnswer(Exception):
    """The agent asked a question and nobody can answer it: the run ends with the question."""

    def __init__(self, question: str) -> None:
        super().__init__(question)
        self.question = question


BLANK_WAIT = 5.0
"""Seconds a run waits for a display that shows nothing yet (one colour all over)."""


def _blank(frame: Frame) -> bool:
    pixels = frame.pixels
    return bool(pixels.size) and bool((pixels == pixels.reshape(-1, pixels.shape[-1])[0]).all())


@dataclass
class RunState:
    """Everything a run knows: the device, the latest parsed screen, the log, the settings."""

    task: str
    device: Device
    parser: ScreenParser
    log: RunLog
    settings: RunSettings
    screen: Screen | None = None
    acted_on: Screen | None = None
    """The screen the latest action was taken on: what it changed is what it did."""
    observer: RunObserver = field(default_factory=RunObserver)
    stop: threading.Event = field(default_factory=threading.Event)
    capture_seconds: float = 0.0
    parse_seconds: float = 0.0
    model_seconds: float = 0.0
    tree_unavailable: str = ""
    human: Human = field(default_factory=Nobody)
    examples: str = ""
    """Worked examples from the closest demonstrations, for a model planner's prompt."""
    usage: Usage = field(default_factory=Usage)
    budget: Budget = field(default_factory=Budget)
    memory: Memory = field(default_factory=Memory)
    approved_all: bool = False
    consent: Consent = field(default_factory=Consent)
    """What the task itself names (set from the task when the run starts)."""
    volatile: list[Box] = field(default_factory=list)
    """Regions seen changing with no action, twice (clocks, countdowns): not an effect."""
    sightings: list[tuple[Box, int]] = field(default_factory=list)
    recorded_usage: tuple[int, float | None] = (0, 0.0)

    def __post_init__(self) -> None:
        s = self.settings
        self.budget = Budget(s.max_steps, s.max_time, s.max_cost)
        self.memory.screenshots_kept = s.screenshots

    def observe(self) -> Screen:
        """A still screen, parsed; timings go to the next recorded step.

        The parse overlaps the end of the quiet window: it starts once the screen has been
        unchanged for EARLY seconds, and the screen counts as still when it is the same after
        the parse and has by then been unchanged for QUIET seconds in all; a screen that
        changed meanwhile is parsed again. Never a fixed sleep.
        """
        if self.stop.is_set():
            raise Stopped("stopped by the user")
        deadline = time.monotonic() + self.settings.settle_timeout
        while True:
            start = time.perf_counter()
            left = max(deadline - time.monotonic(), 0.0)
            stable = self._settle(left, EARLY)
            parsed_at = time.perf_counter()
            self.screen = self.parser.parse(stable.frame, self.accessibility_nodes())
            self.observer.screen(self.screen)
            done = time.perf_counter()
            self.capture_seconds += parsed_at - start
            self.parse_seconds += done - parsed_at
            if not stable.settled or time.monotonic() >= deadline:
                return self.screen  # never still: the latest screen
            if stable.captures == 1 and stable.waited >= QUIET:
                return self.screen  # one slow capture (a phone) spanned the quiet window
            rest = QUIET - EARLY - (done - parsed_at)
            if rest > 0:  # a quick parse: wait out the rest of the quiet window
                still = self._settle(QUIET, rest)
                now, settled = still.frame, still.settled
            else:
                now, settled = self.capture(), True
            self.capture_seconds += time.perf_counter() - done
            if settled and now.same_as(stable.frame):
                return self.screen

    def first_look(self) -> Screen:
        """The first screen of a run; a desktop still blank (a program mapped but not yet
        drawn) is waited for, up to BLANK_WAIT seconds, before it is read."""
        deadline = time.monotonic() + (BLANK_WAIT if self.device.kind == "desktop" else 0.0)
        while time.monotonic() < deadline and _blank(self.capture()):
            if self.stop.is_set():
                raise Stopped("stopped by the user")
            time.sleep(0.2)
        return self.observe()

    def capture(self) -> Frame:
        return contained("capture the screen", self.device.kind, self.device.capture)

    def _settle(self, timeout: float, quiet: float) -> Stable:
        return contained(
            "capture the screen",
            self.device.kind,
            lambda: wait_until_stable(
                self.device, timeout=timeout, quiet=quiet, seen=self.observer.frame
            ),
        )

    def accessibility_nodes(self) -> list[A11yNode] | None:
        """The AT-SPI tree of a Linux desktop's active window, read after the frame settled.

        Once the tree proves unavailable (no session bus, nothing registered) the run stops
        asking, so a desktop without accessibility pays nothing per step.
        """
        if not self.settings.accessibility or self.tree_unavailable:
            return None
        tree = self.device.accessibility()
        if tree is not None and not tree and tree.reason:
            self.tree_unavailable = tree.reason
        return list(tree or ()) or None

    def record(self, step: StepRecord, before: Screen, after: Screen | None) -> StepRecord:
        """Write one step with its frames, timings and usage, and tell whoever watches the
        run; returns it as written (secrets redacted)."""
        log = self.log
        name = f"{log.steps + 1:04d}"
        tokens, cost = self.recorded_usage
        step = step.model_copy(
            update={
                "frame": log.save_frame(before.frame, name),
                "elements": log.save_elements(before, name),
                "after_frame": log.save_frame(after.frame, name + "-after") if after else None,
                "durations": {
                    "capture": round(self.capture_seconds, 4),
                    "parse": round(self.parse_seconds, 4),
                    "model": round(self.model_seconds, 4),
                    **step.durations,
                },
                "tokens": self.usage.tokens - tokens,
                "cost": None
                if self.usage.cost is None
                else round(self.usage.cost - (cost or 0), 6),
                "time": time.time(),
            }
        )
        self.capture_seconds = self.parse_seconds = self.model_seconds = 0.0
        self.recorded_usage = (self.usage.tokens, self.usage.cost)
        log.record.usage = self.usage.to_json()
        written = log.add_step(step)
        self.observer.step(written, log.dir)
        return written

    def check_program(self, window: bool = True) -> None:
        """StepFailed when the program the run works in has gone (crashed, stopped, or with
        `window` its window closed), so no more input goes to whatever window is left: before
        every action, and after it (then a window closing may be the action's very effect).
        Devices that cannot tell (a phone) say nothing."""
        vanished = getattr(self.device, "vanished", None)
        if callable(vanished):
            problem = contained(
                "watch the program under test", self.device.kind, lambda: vanished(window)
            )
            if problem:
                raise StepFailed(f"{problem}; stopped so that no input goes to another window")

    def check_budget(self) -> None:
        """Called before every action and model call, so a run never acts more than max_steps
        times nor goes on past its time or cost limit."""
        if self.human.hold() and not self.stop.is_set():
            self.observe()
            raise ScreenChanged("the screen changed while the run was held")
        if self.stop.is_set():
            raise Stopped("stopped by the user")
        self.budget.check(self.log.steps, self.usage)

    def note_volatile(self, before: Screen) -> None:
        """Just before acting, look again: whatever changed since `before` was parsed changed
        by itself. A region seen doing so twice is volatile for the rest of the run (clocks keep
        ticking); once may be a slow app still drawing an earlier action's effect."""
        for region in changed_regions(before.frame, self.capture()):
            for index, (box, seen) in enumerate(self.sightings):
                if region.intersection(box) >= 0.5 * region.area:
                    self.sightings[index] = (box.union(region), seen + 1)
                    break
            else:
                self.sightings.append((region, 1))
        self.volatile = [box for box, seen in self.sightings if seen >= 2]

    def approve(self, action: Action, element: Element | None, flag: Flag | None = None) -> str:
        """'' when `action` may go ahead unasked, else how it was approved; raises Stopped when
        the person (or nobody, headless) denies it. The task consents to what it names; a risk
        a model's vendor flagged (`flag`) is never consented by wording, and is marked approved
        only when the action is let go ahead."""
        flagged = flag is not None and not flag.approved
        risk = Risk(action, flag.why) if flagged and flag else risk_of(action, element)
        if risk is None:
            return ""
        if not flagged and self.consent.covers(risk):
            return "named by the task"
        if self.settings.approve_risky or self.approved_all:
            how = "approved in advance"
        else:
            decision = self.human.approve(risk)
            if decision == "deny":
                raise Stopped(
                    f"not approved: {risk.describe()} (approve it when asked, or run with --yes)"
                )
            self.approved_all = decision == "always"
            how = "approved by the user"
        if flag is not None:
            flag.approved = True
        return how
