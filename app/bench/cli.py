"""`clickwright bench miniwob`: the agent on MiniWoB++ tasks, from pixels, in parallel."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from clickwright.errors import ClickwrightError

bench = typer.Typer(help="Benchmarks: how well the agent does tasks it was not written for.")


def read_tasks(tasks: str | None) -> list[str]:
    """Task names from a comma list or a file of names (any spacing, # comments); none given:
    the dev set."""
    from clickwright.app.bench.miniwob import DEV_SET

    if not tasks:
        return list(DEV_SET)
    path = Path(tasks)
    text = path.read_text(encoding="utf-8") if path.is_file() else tasks.replace(",", "\n")
    names = [name for line in text.splitlines() for name in line.split("#")[0].split()]
    return [name for name in names if name] or list(DEV_SET)


@bench.command()
def miniwob(
    tasks: Annotated[
        str | None, typer.Option(help="Comma list of tasks, or a file of names. Default: dev set.")
    ] = None,
    episodes: Annotated[int, typer.Option(min=1, help="Episodes per task.")] = 5,
    workers: Annotated[int, typer.Option(min=1, help="Episodes at once.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the first episode of each task.")] = 0,
    executor: Annotated[str, typer.Option(help="local (worker processes) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster to use; default: a local Ray instance.")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(min=1, help="Seconds MiniWoB's own timer allows; default: the task's."),
    ] = None,
    max_steps: Annotated[int, typer.Option(min=1, help="Most actions per episode.")] = 15,
    device_scale: Annotated[
        float, typer.Option(help="Chromium's device scale: 2 (HiDPI, the default) or 1.")
    ] = 2.0,
    backend: Annotated[str | None, typer.Option(help="Model backend, as for `run`.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name or folder.")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible API root.")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Variable holding the key.")] = None,
    role: Annotated[list[str] | None, typer.Option(help="ROLE.KEY=VALUE, as for `run`.")] = None,
    out: Annotated[Path, typer.Option(help="Folder for results and run logs.")] = Path("bench"),
    json_out: Annotated[Path | None, typer.Option("--json", help="Results JSON path.")] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Results page path.")] = None,
    compare_to: Annotated[
        Path | None, typer.Option("--compare", help="An earlier results JSON to compare with.")
    ] = None,
) -> None:
    """MiniWoB++ episodes: real Chromium on Xvfb, the agent acting from pixels."""
    # the sentence-embedding tokenizer is loaded before the workers fork: its threads are of
    # no use to them, and its warning about it says nothing a person needs
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from clickwright.agent.config import load_settings
    from clickwright.app.bench import results
    from clickwright.app.bench.executors import run_local, run_ray
    from clickwright.app.bench.miniwob import (
        EpisodeSpec,
        check_browser,
        check_device_scale,
        check_tasks,
    )
    from clickwright.app.cli import parse_role_flags
    from clickwright.app.console import out as console

    if executor not in ("local", "ray"):
        raise ClickwrightError(f"unknown --executor {executor!r}", "use local or ray")
    names = read_tasks(tasks)
    check_tasks(names)
    check_device_scale(device_scale)
    spec_defaults = EpisodeSpec("", 0, "")
    check_browser(spec_defaults.browser, spec_defaults.chromedriver)
    flags = {"backend": backend, "model": model, "base_url": base_url, "api_key_env": api_key_env}
    given = {k: v for k, v in flags.items() if v is not None}
    models = load_settings(given, parse_role_flags(role or []))  # bad settings fail here
    old = results.load_results(compare_to) if compare_to else None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = out / f"miniwob-{stamp}"
    runs = folder / "runs"
    runs.mkdir(parents=True)
    specs = [
        EpisodeSpec(
            task,
            seed + n,
            str(runs.resolve()),
            time_limit,
            max_steps,
            {**given, "roles": list(role or [])},
            device_scale=device_scale,
        )  # fmt: skip
        for task in names
        for n in range(episodes)
    ]
    actor = models.for_role("actor")
    settings = {
        "tasks": len(names),
        "episodes": episodes,
        "seed": seed,
        "workers": workers,
        "executor": executor,
        "time_limit": time_limit or "task default",
        "max_steps": max_steps,
        "device_scale": device_scale,
        "planner": f"{actor.backend}:{actor.model}" if actor.is_model else "offline",
    }
    finished: list = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("success {task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    started = time.monotonic()
    with Progress(*columns, console=console) as progress:
        bar = progress.add_task("MiniWoB++", total=len(specs), rate="—")

        def record(result) -> None:
            finished.append(result)
            rate = f"{sum(r.success for r in finished) / len(finished) * 100:.0f}%"
            progress.update(bar, advance=1, rate=rate)
            mark = "[green]✔[/]" if result.success else "[red]✘[/]"
            progress.console.print(f"{mark} {result.task} #{result.seed} {result.seconds:.1f} s")

        if executor == "ray":
            run_ray(specs, ray_address, record)
        else:
            run_local(specs, workers, record)
    finished.sort(key=lambda r: (names.index(r.task), r.seed))
    data = results.results_json(finished, settings, time.monotonic() - started)
    json_path = json_out or folder / "results.json"
    html_path = html_out or folder / "index.html"
    chart = html_path.with_suffix(".png")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    html_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    results.write_chart(data, chart, old)
    results.write_html(data, html_path, chart)
    for task in data["tasks"]:
        console.print(f"  {task['task']:<24} {task['success_rate'] * 100:5.0f}%")
    if old is not None:
        for task, before, now in results.compare(data, old):
            was = "new" if before is None else f"{before * 100:.0f}%"
            console.print(f"  {task:<24} {was:>5} -> {now * 100:.0f}%")
    console.print(f"mean success {data['mean_success'] * 100:.1f}% over {len(names)} task(s)")
    console.print(f"results: {json_path}\npage: {html_path}\nchart: {chart}")
