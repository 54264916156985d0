"""The demonstration commands: `record`, `replay` and `demos list|show|rm|export|save-run`.

Kept out of app/cli.py; `register(app)` adds them to the main command.
"""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from clickwright.app.options import Launch, device_command
from clickwright.devices.factory import DeviceSpec
from clickwright.errors import ClickwrightError

demos = typer.Typer(
    no_args_is_help=True,
    help="The library of recorded demonstrations: list, show, remove, export, save a run.",
)

DemosDir = Annotated[
    Path | None,
    typer.Option(
        "--demos-dir",
        help="Where demonstrations live (default: $CLICKWRIGHT_DEMOS, else your data folder).",
    ),
]


def register(app: typer.Typer) -> None:
    app.command()(device_command(record))
    app.command()(device_command(replay))
    app.add_typer(demos, name="demos")


def record(
    name: Annotated[str, typer.Argument(help="Name of the new demonstration.")],
    spec: DeviceSpec,
    describe: Annotated[str, typer.Option(help="What the demonstration does, in words.")] = "",
    launch: Launch = None,
    demos_dir: DemosDir = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Overwrite a demonstration of that name.")
    ] = False,
) -> None:
    """Record what you do on the screen as a demonstration; Ctrl+C (or the stop keys) saves it."""
    from clickwright.agent.demos.format import DemoWriter, library_dir
    from clickwright.agent.demos.recorder import listen, save_recording
    from clickwright.app.console import out
    from clickwright.app.stop_hotkey import finishing, stop_hotkey
    from clickwright.devices.factory import open_device, start_program
    from clickwright.parsers.screen_parser import ScreenParser

    writer = DemoWriter(library_dir(demos_dir), name, replace)  # a bad or taken name fails first
    stop = threading.Event()
    try:
        with (
            stop_hotkey(stop) as hotkey,
            open_device(spec) as device,
        ):
            if launch:
                start_program(device, launch)
            keys = f" or {hotkey}" if hotkey else ""
            where = f"display {device.display}" if device.kind == "desktop" else device.kind
            recording = listen(
                device,
                stop,
                on_heard=_print_heard,
                on_ready=lambda: out.print(
                    f"recording on {where}: work in your app, then press Ctrl+C{keys} to stop"
                    " and save",
                    highlight=False,
                ),
            )
            with finishing():  # a signal now must not lose what was recorded
                out.print(f"heard {len(recording.heard)} input events; reading the screens…")
                platform = f"desktop/{sys.platform}" if device.kind == "desktop" else device.kind
                demo = save_recording(recording, writer, ScreenParser(), describe, platform)
    finally:
        writer.abandon()
    _print_steps(demo)
    out.print(f"saved demonstration '{demo.name}' in {demo.dir}")


def _print_heard(heard: Any) -> None:
    from clickwright.app.console import out

    event = heard.event
    if event.kind in ("down", "tap", "long_press", "swipe"):
        out.print(f"  {event.kind.replace('down', 'press')} at ({event.x}, {event.y})")


def replay(
    name: Annotated[str, typer.Argument(help="Demonstration name (or folder).")],
    spec: DeviceSpec,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", help="A parameter's value, NAME=VALUE (repeatable)."),
    ] = None,
    speed: Annotated[
        float,
        typer.Option(
            min=0, help="1 replays at the recorded pace, 2 twice as fast; 0: as fast as it can."
        ),
    ] = 0.0,
    timeout: Annotated[
        float, typer.Option(min=0.5, help="Seconds to wait for a target or an effect.")
    ] = 10.0,
    repair: Annotated[
        bool,
        typer.Option("--repair", help="Let the agent carry out a step that cannot be replayed."),
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", help="Carry out risky steps without asking.")
    ] = False,
    only: Annotated[
        str | None, typer.Option(help="Replay only steps FIRST-LAST (numbered from 1).")
    ] = None,
    launch: Launch = None,
    demos_dir: DemosDir = None,
    runs_dir: Annotated[Path, typer.Option(help="Where replay logs and reports go.")] = Path(
        "runs"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary line.")] = False,
) -> None:
    """Replay a demonstration on the screen: each target found again, each effect checked."""
    from clickwright.agent.demos.format import demo_folder, library_dir, load_demo
    from clickwright.agent.demos.replay import replay_demo
    from clickwright.agent.loop import run_task
    from clickwright.agent.runlog import writable_folder
    from clickwright.agent.state import RunSettings
    from clickwright.app.console import Printer, exit_code, out, outcome_line, report_line
    from clickwright.app.report import run_and_report
    from clickwright.app.session import session
    from clickwright.parsers.screen_parser import ScreenParser

    demo = load_demo(demo_folder(name, library_dir(demos_dir)))
    values = parse_params(param or [])
    demo.parameters(values)  # a missing secret fails before any display starts
    steps = _step_range(only, len(demo.steps))
    settings = RunSettings(wait_timeout=timeout, approve_risky=yes)
    writable_folder(runs_dir, "run logs")

    def carry_out(observer: Any) -> Any:
        with session(spec, launch, quiet=as_json) as on:
            parser = ScreenParser()

            def by_agent(task: str, where: Path) -> Any:  # one step: the demo finishes dialogs
                step_settings = replace(settings, finish_dialogs=False)
                return run_task(
                    task, on.device, where, step_settings, parser=parser, human=on.human,
                    stop=on.stop,
                )  # fmt: skip

            return replay_demo(
                demo,
                on.device,
                runs_dir,
                settings,
                params=values,
                speed=speed,
                repair=by_agent if repair else None,
                only=steps,
                parser=parser,
                observer=observer,
                human=on.human,
                stop=on.stop,
            )

    result, report, unreported = run_and_report(carry_out, None if as_json else Printer())
    if as_json:
        summary = {
            "outcome": result.outcome,
            "reason": result.reason,
            "steps": result.steps,
            "failed_step": result.failed_step,
            "repaired": list(result.repaired),
            "seconds": round(result.seconds, 2),
            "recorded_seconds": demo.info.duration,
            "run_dir": str(result.run_dir),
            "report": str(report) if report else None,
        }
        print(json.dumps(summary))
    else:
        out.print(outcome_line(result.outcome, result.reason))
        failed = demo.steps[result.failed_step - 1] if result.failed_step else None
        if failed is not None and failed.frame:
            out.print(f"the screen when that step was recorded: {demo.dir / failed.frame}")
        out.print(f"took {round(result.seconds, 2):.1f} s (recorded: {demo.info.duration:.1f} s)")
        out.print(report_line(report, unreported))
    raise typer.Exit(exit_code(result.outcome))


def parse_params(items: list[str]) -> dict[str, str]:
    values = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ClickwrightError(f"bad --param {item!r}", "write it as NAME=VALUE, e.g. name=Ada")
        values[key.strip()] = value
    return values


def _step_range(only: str | None, count: int) -> tuple[int, int] | None:
    if only is None:
        return None
    first, _, last = only.partition("-")
    try:
        start, end = int(first), int(last or first)
    except ValueError:
        start = end = 0
    if not 1 <= start <= end <= count:
        raise ClickwrightError(f"bad --only {only!r}", f"give FIRST-LAST within 1-{count}")
    return start, end


@demos.command("list")
def list_command(demos_dir: DemosDir = None) -> None:
    """List the demonstrations."""
    from rich.table import Table

    from clickwright.agent.demos.format import library_dir, list_demos, load_demo
    from clickwright.app.console import out, visible

    root = library_dir(demos_dir)
    table = Table("name", "steps", "parameters", "source", "description", box=None)
    for folder in list_demos(root):
        try:
            demo = load_demo(folder)
        except ClickwrightError as exc:
            damaged = f"[red]damaged:[/] {visible(str(exc))}"
            table.add_row(visible(folder.name), "—", "", "", damaged)
            continue
        params = ", ".join(
            k + (" (secret)" if p.secret else "") for k, p in demo.info.parameters.items()
        )
        table.add_row(
            visible(demo.name),
            str(len(demo.steps)),
            escape(params),
            demo.info.source,
            visible(demo.info.description),
        )
    if table.row_count:
        out.print(table)
    out.print(f"{table.row_count} demonstration(s) in {root}")


@demos.command()
def show(name: Annotated[str, typer.Argument()], demos_dir: DemosDir = None) -> None:
    """Show a demonstration's steps."""
    from clickwright.agent.demos.format import demo_folder, library_dir, load_demo
    from clickwright.app.console import out

    demo = load_demo(demo_folder(name, library_dir(demos_dir)))
    _print_steps(demo)
    info = demo.info
    out.print(f"screen {info.screen[0]}x{info.screen[1]}, {info.platform}, {info.source}")
    out.print(f"folder: {demo.dir}")


def _print_steps(demo: Any) -> None:
    """The steps as what each action does (the loader derives the words from the action, so a
    launch shows its exact command)."""
    from clickwright.app.console import out, visible

    info = demo.info
    out.print(
        f"[bold]{visible(demo.name)}[/]"
        + (f": {visible(info.description)}" if info.description else "")
    )
    for number, step in enumerate(demo.steps, 1):
        out.print(f"  {number:>3}. {visible(step.words)}")
    for key, parameter in info.parameters.items():
        value = "secret, asked at every replay" if parameter.secret else repr(parameter.default)
        out.print(f"  parameter {key}: {escape(value)}")
    out.print(f"  recorded in {info.duration:.1f} s")


@demos.command()
def rm(name: Annotated[str, typer.Argument()], demos_dir: DemosDir = None) -> None:
    """Remove a demonstration."""
    from clickwright.agent.demos.format import library_dir, remove_demo
    from clickwright.app.console import out

    out.print(f"removed {remove_demo(name, library_dir(demos_dir))}")


@demos.command()
def export(
    name: Annotated[str, typer.Argument()],
    python: Annotated[bool, typer.Option("--python", help="Write a Python script.")] = False,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="File to write (default: print it).")
    ] = None,
    demos_dir: DemosDir = None,
) -> None:
    """Export a demonstration as a runnable Python script (clickwright's scripting API)."""
    from clickwright.agent.demos.format import demo_folder, library_dir, load_demo
    from clickwright.agent.runlog import write_atomic
    from clickwright.app.codegen import python_script
    from clickwright.app.console import out

    if not python:
        raise ClickwrightError("choose what to export to", "--python is the one format for now")
    script = python_script(load_demo(demo_folder(name, library_dir(demos_dir))))
    if output is None:
        print(script, end="")
        return
    write_atomic(output, script, "the script")
    out.print(f"wrote {output}")


@demos.command("save-run")
def save_run(
    run: Annotated[str, typer.Argument(help="Run folder, or its id under --runs-dir.")],
    name: Annotated[str, typer.Argument(help="Name of the new demonstration.")],
    describe: Annotated[str, typer.Option(help="What it does (default: the run's task).")] = "",
    runs_dir: Annotated[Path, typer.Option(help="Where run logs are.")] = Path("runs"),
    demos_dir: DemosDir = None,
    replace: Annotated[bool, typer.Option("--replace")] = False,
) -> None:
    """Save a finished agent run as a demonstration."""
    from clickwright.agent.demos.format import DemoWriter, library_dir
    from clickwright.agent.demos.from_run import demo_from_run, run_folder
    from clickwright.app.console import out

    folder = run_folder(run, runs_dir)
    writer = DemoWriter(library_dir(demos_dir), name, replace)
    try:
        demo = demo_from_run(folder, writer, describe)
    finally:
        writer.abandon()
    _print_steps(demo)
    out.print(f"saved demonstration '{demo.name}' in {demo.dir}")
