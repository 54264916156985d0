"""The `clickwright` command. Exit 0: task done; 1: failed or stopped; 2: usage or environment."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from clickwright.app.console import Printer, err, out, outcome_line, usage_line
from clickwright.app.options import Launch, device_command
from clickwright.app.session import session
from clickwright.devices.factory import DeviceSpec, open_device, start_program
from clickwright.errors import ClickwrightError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="A GUI automation agent: describe a task, clickwright sees the screen, acts and verifies.",
)



def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@app.command()
@device_command
def run(
    task: Annotated[
        str, typer.Argument(help="What to do, e.g. \"Type 'Ada' into Name and click Save\".")
    ],
    spec: DeviceSpec,
    launch: Launch = None,
    max_steps: Annotated[
        int | None,
        typer.Option(
            min=1, help="Most actions the run may take (default: [run] in the config, or 30)."
        ),
    ] = None,
    max_time: Annotated[
        float | None, typer.Option(min=1, help="Most seconds the run may take.")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option(min=0, help="Most US dollars the model calls may cost.")
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help="Model backend: offline, openai, anthropic, transformers.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name, or a local model folder.")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="API root of an OpenAI-compatible server.")
    ] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="Environment variable that holds the API key.")
    ] = None,
    role: Annotated[
        list[str] | None,
        typer.Option(
            help="Per-role setting ROLE.KEY=VALUE, e.g. grounder.backend=transformers "
            "(roles: planner, actor, grounder, critic, notetaker). Repeatable."
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", help="Carry out risky actions without asking.")
    ] = False,
    hybrid: Annotated[
        bool,
        typer.Option(
            "--hybrid", help="Call the model only for the steps the offline planner cannot do."
        ),
    ] = False,
    use_demos: Annotated[
        bool,
        typer.Option(
            "--use-demos", help="Replay a demonstration that does the task; show close ones."
        ),
    ] = False,
    demos_dir: Annotated[
        Path | None, typer.Option(help="Demonstrations folder (default: your library).")
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Parse and plan, act on nothing; with models, show prompts."
        ),
    ] = False,
    runs_dir: Annotated[Path, typer.Option(help="Where run logs and reports go.")] = Path("runs"),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary line.")] = False,
) -> None:
    """Carry out TASK on the screen."""
    from clickwright.agent.config import load_settings
    from clickwright.agent.interpreter import interpret
    from clickwright.agent.loop import PROMPTS_FILE, run_task
    from clickwright.agent.state import RunSettings
    from clickwright.app.report import write_report

    flags = {"backend": backend, "model": model, "base_url": base_url, "api_key_env": api_key_env}
    models = load_settings(flags, parse_role_flags(role or []))
    if not models.for_role("planner").is_model and not models.for_role("actor").is_model:
        interpret(task)  # a task the planner cannot read fails before any display starts
    limits = models.run  # the config file's [run] table, under the flags
    settings = RunSettings(
        max_steps=max_steps or limits.max_steps,
        max_time=max_time or limits.max_time,
        max_cost=max_cost if max_cost is not None else limits.max_cost,
        dry_run=dry_run,
        approve_risky=yes or limits.approve_risky,
        hybrid=hybrid or limits.hybrid,
    )
    knowledge = None
    if use_demos:
        from clickwright.agent.demos.knowledge import use_demos as closest

        knowledge = closest(task, demos_dir)
    with session(spec, launch, quiet=as_json) as on:
        result = run_task(
            task,
            on.device,
            runs_dir,
            settings,
            observer=None if as_json else Printer(),
            stop=on.stop,
            models=models,
            human=on.human,
            knowledge=knowledge,
        )
    report = write_report(result.run_dir)
    usage = result.usage
    if as_json:
        print(
            json.dumps(
                {
                    "outcome": result.outcome,
                    "reason": result.reason,
                    "steps": result.steps,
                    "usage": usage,
                    "run_dir": str(result.run_dir),
                    "report": str(report),
                }
            )
        )
    else:
        prompts = result.run_dir / PROMPTS_FILE
        if prompts.exists():
            out.print(escape(prompts.read_text(encoding="utf-8")))
        out.print(outcome_line(result.outcome, result.reason))
        if usage.get("calls"):
            out.print(usage_line(usage))
        out.print(f"report: {report}")
    raise typer.Exit(EXIT_CODES.get(result.outcome, 1))


EXIT_CODES = {"done": 0, "error": 2}


def parse_role_flags(values: list[str]) -> dict[str, dict[str, Any]]:
    """`["grounder.backend=transformers", "grounder.model=/m"]` as per-role settings."""
    roles: dict[str, dict[str, Any]] = {}
    for value in values:
        name, _, setting = value.partition(".")
        key, equals, given = setting.partition("=")
        if not name or not key or not equals:
            raise ClickwrightError(
                f"bad --role {value!r}", "use ROLE.KEY=VALUE, e.g. --role actor.model=gpt-4o"
            )
        number: Any = given
        if key in ("timeout", "tries"):
            try:
                number = float(given) if key == "timeout" else int(given)
            except ValueError:
                raise ClickwrightError(f"bad --role {value!r}: {key} must be a number") from None
        roles.setdefault(name.strip(), {})[key.strip()] = number
    return roles


def load_image(path: Path) -> Any:
    """An image file as an RGB frame, or a one-line error saying why it cannot be read."""
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    from clickwright.types import Frame

    try:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGB"))
    except (OSError, UnidentifiedImageError) as exc:
        raise ClickwrightError(f"cannot read image {str(path)!r}: {exc}") from None
    if pixels.size == 0:
        raise ClickwrightError(f"image {str(path)!r} is empty")
    return Frame(pixels)


@app.command()
@device_command
def parse(
    spec: DeviceSpec,
    image: Annotated[
        Path | None, typer.Option(help="Parse this screenshot instead of a screen.")
    ] = None,
    launch: Launch = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the elements as JSON.")
    ] = None,
    draw: Annotated[Path | None, typer.Option(help="Write the frame with numbered boxes.")] = None,
    sources: Annotated[
        str, typer.Option(help="Which of ocr,widgets,a11y to use.")
    ] = "ocr,widgets,a11y",
) -> None:
    """Show what clickwright sees: the elements parsed from a screen or a screenshot."""
    from PIL import Image
    from rich.table import Table

    from clickwright.devices.base import wait_until_stable
    from clickwright.parsers.marks import draw_marks
    from clickwright.parsers.screen_parser import SOURCES, ScreenParser

    wanted = frozenset(s.strip() for s in sources.split(",") if s.strip())
    if not wanted or wanted - SOURCES:
        raise ClickwrightError(f"bad --sources {sources!r}", "use a list of: ocr, widgets, a11y")
    tree = None
    if image is not None:
        if spec != DeviceSpec():
            raise ClickwrightError(
                "--image cannot be combined with --virtual, --display or --device"
            )
        frame = load_image(image)
    else:
        with open_device(spec) as device:
            if launch:
                start_program(device, launch)
            frame = wait_until_stable(device).frame
            tree = device.accessibility() if "a11y" in wanted else None
    if tree is not None and tree.reason and not tree:
        out.print(f"accessibility tree: none ({tree.reason})")
    parser = ScreenParser(sources=wanted)
    parsed = parser.parse(frame, tree)
    table = Table("id", "kind", "text", "label", "box", "source", "score", box=None)
    for e in parsed.elements:
        state = f" [{', '.join(sorted(e.state))}]" if e.state else ""
        table.add_row(
            str(e.id),
            escape(e.kind + state),
            escape(e.text),
            escape(e.name),
            ",".join(map(str, e.box)),
            e.source,
            f"{e.score:.2f}",
        )
    out.print(table)
    t = parser.last
    out.print(
        f"{len(parsed.elements)} elements; OCR {t.ocr * 1000:.0f} ms, widgets "
        f"{t.widgets * 1000:.0f} ms, fusion {t.fusion * 1000:.0f} ms"
    )
    if json_out is not None:
        json_out.write_text(json.dumps(parsed.to_json(), indent=1, ensure_ascii=False))
        out.print(f"elements: {json_out}")
    if draw is not None:
        Image.fromarray(draw_marks(frame.pixels, parsed.elements)).save(draw)
        out.print(f"drawing: {draw}")


@app.command()
def demo(
    runs_dir: Annotated[Path, typer.Option(help="Where run logs and reports go.")] = Path("runs"),
) -> None:
    """Run a sample multi-step task on the sample app, on a virtual display, offline."""
    from clickwright.app.demo import run_demo

    raise typer.Exit(run_demo(runs_dir, out))


@app.command("app")
def panel(
    device: Annotated[
        str | None, typer.Option(help="Screen to start on: desktop:N, sandbox, android:SERIAL.")
    ] = None,
    launch: Annotated[str | None, typer.Option(help="App to start in the sandbox.")] = None,
    runs_dir: Annotated[Path, typer.Option(help="Where run logs and reports go.")] = Path("runs"),
    theme: Annotated[str | None, typer.Option(help="light, dark or system.")] = None,
    size: Annotated[str | None, typer.Option(help="Window size, e.g. 1600x1000.")] = None,
    state_dump: Annotated[
        Path | None, typer.Option(help="Write what the panel shows to this JSON file.")
    ] = None,
) -> None:
    """Open the control panel: type a task, watch, pause, approve, see past runs."""
    from clickwright.app.panel.main import run_panel

    raise typer.Exit(run_panel(device, launch, runs_dir, theme, size, state_dump))


def _register_bench() -> None:
    from clickwright.app.bench.cli import bench

    app.add_typer(bench, name="bench")


_register_bench()


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


# The demonstration commands (record, replay, demos …) live in their own module.
from clickwright.app.demos_cli import register  # noqa: E402

register(app)

from clickwright.app.models_cli import register as register_models  # noqa: E402

register_models(app)
