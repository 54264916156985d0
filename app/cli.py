"""The `clickwright` command. Exit 0: task done; 1: failed or stopped; 2: usage or environment."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from clickwright.errors import ClickwrightError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="A GUI automation agent: describe a task, clickwright sees the screen, acts and verifies.",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

VERDICT_STYLE = {"success": "green", "unverified": "yellow", "retry": "red", "dry_run": "cyan"}


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def open_device(
    virtual: bool, display: str | None, screen: int, size: str = "1280x800"
) -> Iterator[Any]:
    """The desktop device on a fresh virtual display, a named display, or the current one."""
    from clickwright.devices.desktop import DesktopDevice
    from clickwright.devices.virtual_display import VirtualDisplay

    if virtual and display:
        raise ClickwrightError("--virtual and --display cannot be used together")
    if not virtual:
        with DesktopDevice(screen=screen, display=display) as device:
            yield device
        return
    width, height = _parse_size(size)
    with (
        VirtualDisplay(width, height) as vd,
        DesktopDevice(screen=screen, display=vd.name) as device,
    ):
        try:
            yield device
        finally:
            device.end_launched()


def _parse_size(size: str) -> tuple[int, int]:
    try:
        width, height = (int(n) for n in size.lower().split("x"))
    except ValueError:
        raise ClickwrightError(f"bad --size {size!r}", "use WIDTHxHEIGHT, e.g. 1280x800") from None
    return width, height


def print_step(step: dict[str, Any]) -> None:
    action = step.get("action") or {}
    target = step.get("target") or {}
    label = target.get("text") or target.get("name") or ""
    what = (
        f"{action.get('type', 'skip')} {target.get('kind', '')} '{label}'"
        if label
        else action.get("type", "skip")
    )
    verdict = step["verdict"]
    style = VERDICT_STYLE.get(verdict, "white")
    attempt = f" (attempt {step['attempt']})" if step.get("attempt", 1) > 1 else ""
    out.print(
        f"  {step['index']:>3}. {what}{attempt} [{style}]{verdict}[/] — {step['verdict_reason']}"
    )


@app.command()
def run(
    task: Annotated[
        str, typer.Argument(help="What to do, e.g. \"Type 'Ada' into Name and click Save\".")
    ],
    virtual: Annotated[
        bool, typer.Option("--virtual", help="Work on a fresh private Xvfb display.")
    ] = False,
    display: Annotated[str | None, typer.Option(help="X display to work on, e.g. :1.")] = None,
    screen: Annotated[int, typer.Option(help="Monitor number, 0 = first.")] = 0,
    launch: Annotated[
        str | None, typer.Option(help="Program to start on the display first.")
    ] = None,
    max_steps: Annotated[int, typer.Option(min=1, help="Most actions the run may take.")] = 30,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Parse and plan, act on nothing.")
    ] = False,
    runs_dir: Annotated[Path, typer.Option(help="Where run logs and reports go.")] = Path("runs"),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary line.")] = False,
) -> None:
    """Carry out TASK on the screen."""
    from clickwright.agent.interpreter import interpret
    from clickwright.agent.loop import run_task
    from clickwright.agent.state import Settings
    from clickwright.app.report import write_report
    from clickwright.app.stop_hotkey import stop_hotkey

    interpret(task)  # a task the planner cannot read fails before any display starts
    settings = Settings(max_steps=max_steps, dry_run=dry_run)
    stop = threading.Event()
    with stop_hotkey(stop) as hotkey, open_device(virtual, display, screen) as device:
        if hotkey and not as_json:
            out.print(f"press {hotkey} to stop")
        if launch:
            start_program(device, launch)
        on_step = None if as_json else print_step
        result = run_task(task, device, runs_dir, settings, on_step=on_step, stop=stop)
    report = write_report(result.run_dir)
    if as_json:
        print(
            json.dumps(
                {
                    "outcome": result.outcome,
                    "reason": result.reason,
                    "steps": result.steps,
                    "run_dir": str(result.run_dir),
                    "report": str(report),
                }
            )
        )
    else:
        style = "green" if result.ok else "red"
        out.print(f"[{style}]{result.outcome}[/]: {result.reason}")
        out.print(f"report: {report}")
    raise typer.Exit(0 if result.ok else 1)


def start_program(device: Any, command: str, timeout: float = 30.0) -> None:
    """Launch `command` on the device's display and wait until its window has drawn."""
    import time

    from clickwright.devices.base import wait_until_stable

    blank = device.capture()
    device.launch(command)
    deadline = time.monotonic() + timeout
    while device.capture().same_as(blank):
        if time.monotonic() > deadline:
            raise ClickwrightError(f"{command!r} showed nothing within {timeout:g} s")
        time.sleep(0.1)
    wait_until_stable(device, timeout=10, quiet=0.5)


@app.command()
def demo(
    runs_dir: Annotated[Path, typer.Option(help="Where run logs and reports go.")] = Path("runs"),
) -> None:
    """Run a sample multi-step task on the sample app, on a virtual display, offline."""
    from clickwright.app.demo import run_demo

    raise typer.Exit(run_demo(runs_dir, out))


def main() -> None:
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        app()
    except ClickwrightError as exc:
        err.print(f"[red]error:[/] {exc}", soft_wrap=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err.print("stopped by the user")
        sys.exit(1)
