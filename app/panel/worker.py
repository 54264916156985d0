"""One agent run in a worker thread, reporting to the GUI through signals.

The GUI thread builds a `RunRequest`, moves a `RunWorker` to a QThread and starts it; the
worker calls run_task and reports steps, frames, parsed screens and the end. It never raises:
whatever ends the run (done, stopped, a vanished device, a bug) arrives as `ended`.
"""

from __future__ import annotations

import contextlib
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from clickwright.agent.config import ModelSettings
from clickwright.agent.demos.format import Demo
from clickwright.agent.demos.replay import replay_demo
from clickwright.agent.events import RunObserver, Waiting
from clickwright.agent.loop import run_task
from clickwright.agent.state import RunSettings
from clickwright.app.panel.control import RunControl
from clickwright.app.panel.human import PanelHuman
from clickwright.devices.base import Device, Point
from clickwright.errors import ClickwrightError
from clickwright.types import Action, Frame, Screen, StepRecord


@dataclass(frozen=True)
class RunRequest:
    task: str
    device: Device
    """Opened for this run by the GUI thread; closed by the worker when the run ends."""
    runs_dir: Path
    settings: RunSettings
    models: ModelSettings
    parser: Any
    """A ScreenParser (kept across runs for its cache), or a stand-in with the same `parse`."""
    demo: Demo | None = None
    """Replay this demonstration instead of running the task."""


@dataclass(frozen=True)
class Ended:
    outcome: str
    """done, failed, stopped, question or error."""
    reason: str
    run_dir: Path | None


class RunWorker(QObject):
    step_done = Signal(dict, object)
    """A step as written to the log, and the run folder (whose frames it names)."""
    frame_seen = Signal(object)
    """Every frame the agent captured (a `Frame`)."""
    screen_parsed = Signal(object)
    """Every screen the agent parsed (a `Screen`: the frame and its elements)."""
    acting = Signal(object, object)
    """An `Action` and the point it is about to act at (or None)."""
    waiting = Signal(object)
    """A model call still waiting for its answer (a `Waiting`)."""
    held = Signal(bool)
    """The run waits at the pause gate (True) or goes on (False)."""
    ended = Signal(object)

    def __init__(self, request: RunRequest, control: RunControl, human: PanelHuman) -> None:
        super().__init__()
        self.request = request
        self.control = control
        self.human = human
        control.on_hold = self.held.emit
        self.observer = _Signals(self)

    @Slot()
    def run(self) -> None:
        r = self.request
        try:
            if r.demo is not None:
                result = replay_demo(
                    r.demo, r.device, r.runs_dir, r.settings, parser=r.parser,
                    observer=self.observer, human=self.human, stop=self.control.stop_event,
                )  # fmt: skip
            else:
                result = run_task(
                    r.task,
                    r.device,
                    r.runs_dir,
                    r.settings,
                    models=r.models,
                    parser=r.parser,
                    observer=self.observer,
                    human=self.human,
                    stop=self.control.stop_event,
                )
            ended = Ended(result.outcome, result.reason, result.run_dir)
        except ClickwrightError as exc:
            ended = Ended("error", str(exc), None)
        except Exception as exc:  # a bug: the panel must stay usable and say what happened
            traceback.print_exc()
            ended = Ended("error", f"internal error: {exc!r} (details on the terminal)", None)
        finally:
            with contextlib.suppress(Exception):  # the device may be the thing that broke
                r.device.close()
        self.ended.emit(ended)


class _Signals(RunObserver):
    """The run's events as the worker's signals, for the GUI thread."""

    def __init__(self, worker: RunWorker) -> None:
        self.worker = worker

    def frame(self, frame: Frame) -> None:
        self.worker.frame_seen.emit(frame)

    def screen(self, screen: Screen) -> None:
        self.worker.screen_parsed.emit(screen)

    def action(self, action: Action, point: Point | None) -> None:
        self.worker.acting.emit(action, point)
        self.worker.control.acted()

    def waiting(self, waiting: Waiting) -> None:
        self.worker.waiting.emit(waiting)

    def step(self, step: StepRecord, run_dir: Path) -> None:
        self.worker.step_done.emit(step.to_json(), run_dir)
