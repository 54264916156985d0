"""Run events: an observer hears the run start, every capture, screen, action and step (as
written, secrets redacted), and its end with the usage; nothing wraps the device or parser."""

from __future__ import annotations

from pathlib import Path

from clickwright.agent.events import RunObserver
from clickwright.agent.loop import run_task
from clickwright.agent.runlog import read_steps
from clickwright.agent.state import RunSettings
from clickwright.types import Action, Box, Element, Frame, RunRecord, Screen, StepRecord
from tests.test_model_loop import SAVE, StubDevice

PASSWORD = Element(4, Box(100, 100, 200, 30), "input", "", interactive=True, name="Password:")


class FormParser:
    def parse(self, frame: Frame, nodes=None) -> Screen:
        return Screen(frame, (PASSWORD, SAVE))


class Recorder(RunObserver):
    def __init__(self) -> None:
        self.events: list[str] = []
        self.steps: list[StepRecord] = []
        self.frames = self.screens = 0

    def started(self, run_dir: Path, run: RunRecord) -> None:
        self.events.append("started")
        self.run_dir, self.task = run_dir, run.task

    def frame(self, frame: Frame) -> None:
        self.frames += 1

    def screen(self, screen: Screen) -> None:
        self.screens += 1

    def action(self, action: Action, point: tuple[int, int] | None) -> None:
        self.events.append(f"action {action.type} at {point}")

    def step(self, step: StepRecord, run_dir: Path) -> None:
        self.events.append(f"step {step.index} {step.verdict}")
        self.steps.append(step)

    def ended(self, result) -> None:
        self.events.append(f"ended {result.outcome}")
        self.result = result


def test_the_observer_hears_every_event_in_order(tmp_path):
    seen = Recorder()
    result = run_task(
        "type 'hunter2' into the Password field, then click Save",
        StubDevice(changes_on=("type", "click")),
        tmp_path,
        RunSettings(settle_timeout=0.5),
        parser=FormParser(),
        observer=seen,
    )
    assert result.ok, result.reason
    assert seen.events[0] == "started" and seen.run_dir == result.run_dir
    assert seen.events[-1] == "ended done" and seen.result is result
    assert "action click at (740, 615)" in seen.events
    assert seen.frames > 0 and seen.screens > 0
    assert [s.model_dump() for s in seen.steps] == [
        s.model_dump() for s in read_steps(result.run_dir)
    ]
    assert all("hunter2" not in s.model_dump_json() for s in seen.steps)  # redacted as written
    assert result.usage == {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost": 0.0}
    assert SAVE.text in seen.steps[-1].describe()
