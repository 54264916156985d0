"""The `clickwright` command. Exit 0: task done; 1: failed or stopped; 2: usage or environment."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from clickwright.app.console import (
    Printer,
    err,
    exit_code,
    out,
    outcome_line,
    report_line,
    usage_line,
)
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
    timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds a model call waits for its answer to begin, per try (default 20; "
            "3 tries).",
        ),
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
    from clickwright.agent.runlog import check_task, writable_folder
    from clickwright.agent.state import RunSettings
    from clickwright.app.report import run_and_report

    check_task(task)
    flags = {
        "backend": backend,
        "model": model,
        "base_url": base_url,
        "api_key_env": api_key_env,
        "timeout": timeout,
    }
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
    writable_folder(runs_dir, "run logs")  # before any display starts
    knowledge = None
    if use_demos:
        from clickwright.agent.demos.knowledge import use_demos as closest

        knowledge = closest(task, demos_dir)

    def carry_out(observer: Any) -> Any:
        with session(spec, launch, quiet=as_json) as on:
            return run_task(
                task,
                on.device,
                runs_dir,
                settings,
                observer=observer,
                stop=on.stop,
                models=models,
                human=on.human,
                knowledge=knowledge,
            )

    result, report, unreported = run_and_report(carry_out, None if as_json else Printer())
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
                    "report": str(report) if report else None,
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
        out.print(report_line(report, unreported))
    raise typer.Exit(exit_code(result.outcome))


def parse_role_flags(values: list[str]) -> dict[str, dict[str, Any]]:
    """`["grounder.backend=transformers", "grounder.model=/m"]` as per-role settings."""
    from clickwright.agent.config import NUMBERS

    roles: dict[str, dict[str, Any]] = {}
    for value in values:
        name, _, setting = value.partition(".")
        key, equals, given = setting.partition("=")
        if not name or not key or not equals:
            raise ClickwrightError(
                f"bad --role {value!r}", "use ROLE.KEY=VALUE, e.g. --role actor.model=gpt-4o"
            )
        number: Any = given
        if key in NUMBERS:
            try:
                number = int(given) if key == "tries" else float(given)
            except ValueError:
                raise ClickwrightError(f"bad --role {value!r}: {key} must be a number") from None
        roles.setdefault(name.strip(), {})[key.strip()] = number
    return roles


def load_image(path: Path) -> Any:
    """An image file as an RGB frame, or a one-line error saying why it cannot be read: not
    an image, damaged, or bigger than a screen clickwright reads (checked before decoding)."""
    import numpy as np
    from PIL import Image

    from clickwright.devices.factory import check_screen_size
    from clickwright.types import Frame

    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # the lower bound is ours
    try:
        with Image.open(path) as image:
            check_screen_size(*image.size, f"image {str(path)!r}")
            pixels = np.asarray(image.convert("RGB"))
    except (OSError, ValueError) as exc:
        raise ClickwrightError(f"cannot read image {str(path)!r}: {exc}") from None
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    if pixels.size == 0:
        raise ClickwrightError(f"image {str(path)!r} is empty")
    return Frame(pixels)


def _output(path: Path | None, what: str, image: bool = False) -> Path | None:
    """An output file checked before any work: its folder writable, a drawing's type known."""
    from PIL import Image

    from clickwright.agent.runlog import writable_folder

    if path is None:
        return None
    if image and path.suffix.lower() not in Image.registered_extensions():
        raise ClickwrightError(
            f"cannot draw to {str(path)!r}: no image type is named {path.suffix or '(none)'!r}",
            "end the name with .png or .jpg",
        )
    writable_folder(path.parent, what)
    try:
        folder = path.is_dir()
    except OSError as exc:
        raise ClickwrightError(f"cannot write {what} to {path}: {exc.strerror}") from None
    if folder:
        raise ClickwrightError(f"cannot write {what} to {path}: it is a folder", "name a file")
    return path


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

    from clickwright.agent.runlog import write_atomic
    from clickwright.devices.base import wait_until_stable
    from clickwright.parsers.marks import draw_marks
    from clickwright.parsers.screen_parser import SOURCES, ScreenParser

    wanted = frozenset(s.strip() for s in sources.split(",") if s.strip())
    if not wanted or wanted - SOURCES:
        raise ClickwrightError(f"bad --sources {sources!r}", "use a list of: ocr, widgets, a11y")
    json_out, draw = _output(json_out, "the elements"), _output(draw, "the drawing", image=True)
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
        text = json.dumps(parsed.to_json(), indent=1, ensure_ascii=False)
        write_atomic(json_out, text, "the elements")
        out.print(f"elements: {json_out}")
    if draw is not None:
        drawing = io.BytesIO()
        kind = Image.registered_extensions()[draw.suffix.lower()]
        Image.fromarray(draw_marks(frame.pixels, parsed.elements)).convert("RGB").save(
            drawing, kind
        )
        write_atomic(draw, drawing.getvalue(), "the drawing")
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
    """Every way a command can end is an exit status and at most one line on stderr: a usage
    or environment problem (2), a task that failed or was stopped (1); a bug too is one line,
    its traceback saved to a file for the report."""
    from clickwright.app.stop_hotkey import stop_signals

    with stop_signals():
        _command()


def _command() -> None:
    from clickwright.agent.runlog import check_text

    try:
        for argument in sys.argv[1:]:
            check_text(argument, "an argument")
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # click's usage errors: a bad option or value
        if type(exc).__name__ == "NoArgsIsHelpError":
            exc.show()  # type: ignore[attr-defined]
            sys.exit(0)
        message = " ".join(exc.format_message().split())
        _fail(f"{message} — see the command's --help", exc.exit_code)
    except ClickwrightError as exc:
        _fail(str(exc), exc.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        _fail("stopped by the user", 1, style="")
    except BrokenPipeError:  # stdout closed early (`| head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:
        _fail(f"internal error: {exc!r}".splitlines()[0] + f" — {_save_traceback()}", 2)
    if code == 130:  # click's word for Ctrl+C (or a stop signal) outside a run
        _fail("stopped by the user", 1, style="")
    sys.exit(code or 0)


def _fail(message: str, code: int, style: str = "[red]error:[/] ") -> None:
    err.print(style + escape(message), soft_wrap=True, highlight=False)
    sys.exit(code)


def _save_traceback() -> str:
    """The traceback of a bug, in a file to attach to a bug report."""
    import tempfile
    import traceback

    try:
        with tempfile.NamedTemporaryFile(
            "w", prefix="clickwright-traceback-", suffix=".txt", delete=False
        ) as saved:
            traceback.print_exc(file=saved)
        return f"a bug in clickwright; please report it with {saved.name}"
    except OSError:
        return "a bug in clickwright; please report it"


# The demonstration commands (record, replay, demos …) live in their own module.
from clickwright.app.demos_cli import register  # noqa: E402

register(app)

from clickwright.app.models_cli import register as register_models  # noqa: E402

register_models(app)
