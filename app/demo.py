"""`clickwright demo`: the sample app on a private display, a multi-step task, a report."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from rich.console import Console

from clickwright.agent.loop import run_task
from clickwright.app.report import write_report

DEMO_TASK = (
    "Type 'Ada Lovelace' into the Name field, type ada@example.com into Email, "
    "choose Canada from the Country dropdown, select Pro, check Subscribe to newsletter, "
    "click Save, then click Yes"
)
EXPECTED = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "country": "Canada",
    "plan": "Pro",
    "subscribe": True,
}


def sample_app_command(state_out: Path, save_dir: Path | None = None) -> str:
    parts = [sys.executable, "-m", "clickwright.assets.sample_app", "--state-out", str(state_out)]
    if save_dir is not None:
        parts += ["--save-dir", str(save_dir)]
    return shlex.join(parts)


def run_demo(runs_dir: Path, console: Console) -> int:
    """Returns the exit status: 0 only when the task ran and the app saved what was asked."""
    from clickwright.app.console import Printer
    from clickwright.devices.factory import open_device, start_program

    runs_dir.mkdir(parents=True, exist_ok=True)
    state_file = (runs_dir / "demo-state.json").resolve()
    state_file.unlink(missing_ok=True)
    console.print(f"task: [bold]{DEMO_TASK}[/]")
    with open_device("virtual") as device:
        console.print(f"virtual display {device.display}: starting the sample app")
        start_program(device, sample_app_command(state_file))
        result = run_task(DEMO_TASK, device, runs_dir, observer=Printer())
    report = write_report(result.run_dir)
    saved = json.loads(state_file.read_text()) if state_file.exists() else {}
    wrong = {k: saved.get(k) for k, v in EXPECTED.items() if saved.get(k) != v}
    style = "green" if result.ok and not wrong else "red"
    console.print(f"[{style}]{result.outcome}[/]: {result.reason}")
    if wrong:
        console.print(f"[red]the app saved different values:[/] {wrong}")
    else:
        console.print(f"the app saved: {json.dumps({k: saved[k] for k in EXPECTED})}")
    console.print(f"report: {report}")
    return 0 if result.ok and not wrong else 1
