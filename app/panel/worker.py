"""One agent run in a worker thread, reporting to the GUI through signals.

The GUI thread builds a `RunRequest`, moves a `RunWorker` to a QThread and starts it; the
worker calls run_task and reports steps, frames, parsed screens and the end. It never raises:
whatever ends the run (done, stopped, a vanished device, a bug) arrives as `ended`.
"""

from __future__ import annotations

import contextlib
import json
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from clickwright.a11y import A11yNode
from clickwright.agent.config import ModelSettings
from clickwright.agent.demos import Demo
from clickwright.agent.loop import run_task
from clickwright.agent.replay import replay_demo
from clickwright.agent.state import RunSettings
from clickwright.app.panel.control import RunControl
from clickwright.app.panel.human import PanelHuman
from clickwright.app.panel.watched import WatchedDevice
from clickwright.devices.base import Device, Point
from clickwright.errors import ClickwrightError
from clickwright.types import Action, Frame, Screen


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
    held = Signal(bool)
    """The run waits at the pause gate (True) or goes on (False)."""
    ended = Signal(object)

    def __init__(self, request: RunRequest, control: RunControl, human: PanelHuman) -> None:
        super().__init__()
        self.request = request
        self.control = control
        self.human = human
        control.on_hold = self.held.emit
        self.device = WatchedDevice(request.device, self.frame_seen.emit, self._acting)
        self.run_dir: Path | None = None
        self._known = _folders(request.runs_dir)

    def _stepped(self, step: dict[str, Any]) -> None:
        if self.run_dir is None:
            self.run_dir = _new_run(self.request.runs_dir, self._known, self.request.task)
        self.step_done.emit(step, self.run_dir)

    def _acting(self, action: Action, point: Point | None) -> None:
        self.acting.emit(action, point)
        self.control.acted()

    @Slot()
    def run(self) -> None:
        r = self.request
        parser = _Reporting(r.parser, self.screen_parsed.emit)
        try:
            if r.demo is not None:
                result = replay_demo(
                    r.demo, self.device, r.runs_dir, parser=parser, on_step=self._stepped,
                    stop=self.control.stop_event,
                )  # fmt: skip
            else:
                result = run_task(
                    r.task,
                    self.device,
                    r.runs_dir,
                    r.settings,
                    parser=parser,
                    on_step=self._stepped,
                    stop=self.control.stop_event,
                    models=r.models,
                    human=self.human,
                    before_action=self.control.before_action,
                )
            ended = Ended(result.outcome, result.reason, result.run_dir)
        except ClickwrightError as exc:
            ended = Ended("error", str(exc), None)
        except Exception as exc:  # a bug: the panel must stay usable and say what happened
            traceback.print_exc()
            ended = Ended("error", f"internal error: {exc!r} (details on the terminal)", None)
        finally:
            with contextlib.suppress(Exception):  # the device may be the thing that broke
                self.device.close()
        self.ended.emit(ended)


def _folders(runs_dir: Path) -> set[str]:
    return {p.name for p in runs_dir.iterdir()} if runs_dir.is_dir() else set()


def _new_run(runs_dir: Path, known: set[str], task: str) -> Path | None:
    """The folder this run writes to: the one that appeared since it started, for this task
    (run_task tells its folder only when it returns)."""
    for name in sorted(_folders(runs_dir) - known, reverse=True):
        try:
            info = json.loads((runs_dir / name / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(info, dict) and info.get("task") == task:
            return runs_dir / name
    return None


class _Reporting:
    """The parser, telling the panel about every screen it parsed."""

    def __init__(self, parser: Any, on_screen: Any) -> None:
        self.parser = parser
        self.on_screen = on_screen

    def parse(self, frame: Frame, nodes: Sequence[A11yNode] | None = None) -> Screen:
        screen = self.parser.parse(frame, nodes)
        self.on_screen(screen)
        return screen
