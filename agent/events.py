"""Run events: how the CLI, the panel and anything else watch a run while it runs.

A run calls its observer when it starts (with its run folder), for every frame it captures and
every screen it parses, while a model call waits for its answer, just before every action, for
every recorded step, and when it ends (with the result and its usage). Nobody wraps a device or
a parser to find out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clickwright.types import Action, Frame, RunRecord, Screen, StepRecord

Point = tuple[int, int]
Outcome = Literal["done", "failed", "stopped", "question", "error"]


@dataclass(frozen=True)
class Waiting:
    """A model call not answered yet: what the terminal and the panel show while it lasts."""

    model: str
    endpoint: str
    seconds: float
    """Since this try began."""
    attempt: int
    tries: int
    retrying: str = ""
    """Why the previous try failed, when this one is a retry."""
    over: bool = False
    """The wait is over (an answer or an error came): the last report of a call that waited."""

    def describe(self) -> str:
        """What a person is told: how long it waited, or that a failed try is being retried."""
        tries = f" (try {self.attempt} of {self.tries})" if self.tries > 1 else ""
        if self.retrying and not self.seconds:
            return f"{self.retrying}; trying again{tries}"
        return f"waiting for {self.model} at {self.endpoint}: {self.seconds:.0f} s{tries}"


@dataclass(frozen=True)
class RunResult:
    outcome: Outcome
    reason: str
    run_dir: Path
    steps: int
    usage: dict[str, Any] = field(default_factory=dict)
    """Model calls, tokens and dollars, as in `run.json`."""
    failed_step: int | None = None
    """A replay: the demonstration step it stopped at."""
    repaired: tuple[int, ...] = ()
    """A replay: the steps the agent carried out instead."""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.outcome == "done"


class RunObserver:
    """Override what you need; every event does nothing by default. Events arrive on the
    run's thread: a GUI hands them to its own thread."""

    def started(self, run_dir: Path, run: RunRecord) -> None:
        """The run folder exists and `run.json` says what runs."""

    def frame(self, frame: Frame) -> None:
        """A capture, while the run waits for the screen to be still."""

    def screen(self, screen: Screen) -> None:
        """A still frame, parsed into elements."""

    def action(self, action: Action, point: Point | None) -> None:
        """About to act at `point` (frame pixels), after approval."""

    def waiting(self, waiting: Waiting) -> None:
        """A model call is still waiting for its answer (about once a second), then once more
        when the wait is `over`."""

    def step(self, step: StepRecord, run_dir: Path) -> None:
        """A step as written to `steps.jsonl` (secrets redacted), frames named relative to
        `run_dir`."""

    def ended(self, result: RunResult) -> None:
        """The run is over and its log is complete."""


class Observers(RunObserver):
    """Several observers as one, in order."""

    def __init__(self, observers: Sequence[RunObserver | None]) -> None:
        self.observers = [o for o in observers if o is not None]

    def started(self, run_dir: Path, run: RunRecord) -> None:
        for o in self.observers:
            o.started(run_dir, run)

    def frame(self, frame: Frame) -> None:
        for o in self.observers:
            o.frame(frame)

    def screen(self, screen: Screen) -> None:
        for o in self.observers:
            o.screen(screen)

    def action(self, action: Action, point: Point | None) -> None:
        for o in self.observers:
            o.action(action, point)

    def waiting(self, waiting: Waiting) -> None:
        for o in self.observers:
            o.waiting(waiting)

    def step(self, step: StepRecord, run_dir: Path) -> None:
        for o in self.observers:
            o.step(step, run_dir)

    def ended(self, result: RunResult) -> None:
        for o in self.observers:
            o.ended(result)


class OnStep(RunObserver):
    """The simplest observer: `fn` called with every step as written."""

    def __init__(self, fn: Callable[[StepRecord], None]) -> None:
        self.fn = fn

    def step(self, step: StepRecord, run_dir: Path) -> None:
        self.fn(step)
