"""The agent loop, read top to bottom: plan, then observe -> act -> verify -> record per step."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from clickwright.agent.actor import OfflineActor
from clickwright.agent.interpreter import Step, interpret
from clickwright.agent.runlog import RunLog, looks_secret
from clickwright.agent.state import RunState, Settings, Stopped
from clickwright.devices.base import Device
from clickwright.errors import ClickwrightError, StepFailed
from clickwright.parsers.screen_parser import ScreenParser

Outcome = Literal["done", "failed", "stopped", "error"]


@dataclass(frozen=True)
class RunResult:
    outcome: Outcome
    reason: str
    run_dir: Path
    steps: int

    @property
    def ok(self) -> bool:
        return self.outcome == "done"


def secrets_in(steps: list[Step]) -> list[str]:
    """Texts typed into fields whose names say they are secret: kept out of every log."""
    return [s.text for s in steps if s.verb == "type" and s.text and looks_secret(s.target or "")]


def run_task(
    task: str,
    device: Device,
    runs_dir: Path | str = "runs",
    settings: Settings | None = None,
    parser: ScreenParser | None = None,
    on_step: Callable[[dict[str, Any]], None] | None = None,
    stop: threading.Event | None = None,
) -> RunResult:
    """Carry out `task` on `device`. A task the planner cannot read raises TaskError first."""
    settings = settings or Settings()
    steps = interpret(task)
    log = RunLog(
        Path(runs_dir),
        {
            "task": task,
            "device": device.describe(),
            "planner": "offline",
            "settings": {"max_steps": settings.max_steps, "dry_run": settings.dry_run},
        },
        secrets=secrets_in(steps),
    )
    state = RunState(
        task,
        device,
        parser or ScreenParser(),
        log,
        settings,
        on_step=on_step,
        stop=stop or threading.Event(),
    )
    actor = OfflineActor(state)
    outcome: Outcome = "error"
    reason = "internal error"
    try:
        state.observe()
        for step in steps:
            actor.carry_out(step)
        outcome, reason = "done", f"all {len(steps)} instruction(s) carried out"
        if settings.dry_run:
            reason = "dry run: planned every step, acted on nothing"
    except StepFailed as exc:
        outcome, reason = "failed", str(exc)
    except (KeyboardInterrupt, Stopped):
        outcome, reason = "stopped", "stopped by the user"
    except ClickwrightError as exc:
        outcome, reason = "error", str(exc)
    except Exception as exc:
        reason = f"internal error: {exc!r}"
        raise
    finally:
        log.finish(outcome, reason)
    return RunResult(outcome, reason, log.dir, log.steps)
