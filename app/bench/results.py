"""Benchmark results: per-task figures, and the JSON, chart and HTML page they are written as."""

from __future__ import annotations

import html
import json
import os
import statistics
import subprocess
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clickwright.app.bench.miniwob import EpisodeResult
from clickwright.errors import ClickwrightError

FORMAT = 1


@dataclass(frozen=True)
class TaskSummary:
    task: str
    episodes: int
    success_rate: float
    mean_steps: float
    mean_seconds: float
    failures: dict[str, int]
    """Failure reasons and how often each occurred."""

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "episodes": self.episodes,
            "success_rate": round(self.success_rate, 4),
            "mean_steps": round(self.mean_steps, 2),
            "mean_seconds": round(self.mean_seconds, 2),
            "failures": self.failures,
        }


def summarize(results: list[EpisodeResult]) -> list[TaskSummary]:
    by_task: dict[str, list[EpisodeResult]] = {}
    for result in results:
        by_task.setdefault(result.task, []).append(result)
    return [
        TaskSummary(
            task=task,
            episodes=len(episodes),
            success_rate=sum(e.success for e in episodes) / len(episodes),
            mean_steps=statistics.mean(e.steps for e in episodes),
            mean_seconds=statistics.mean(e.seconds for e in episodes),
            failures=dict(Counter(_short(e.reason) for e in episodes if not e.success)),
        )
        for task, episodes in by_task.items()
    ]


def _short(reason: str) -> str:
    return reason if len(reason) <= 160 else reason[:159] + "…"


def mean_success(summaries: list[TaskSummary]) -> float:
    """The mean of per-task success rates, as MiniWoB papers report it."""
    return statistics.mean(s.success_rate for s in summaries) if summaries else 0.0


def results_json(
    results: list[EpisodeResult], settings: dict[str, Any], seconds: float
) -> dict[str, Any]:
    summaries = summarize(results)
    return {
        "format": FORMAT,
        "benchmark": "miniwob",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "commit": _commit(),
        "settings": settings,
        "seconds": round(seconds, 1),
        "mean_success": round(mean_success(summaries), 4),
        "tasks": [s.to_json() for s in summaries],
        "episodes": [r.to_json() for r in results],
    }


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def load_results(path: Path) -> dict[str, Any]:
    """A results file written by an earlier run, or a one-line error saying what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ClickwrightError(f"cannot read results {path}: {error}") from None
    if not isinstance(data, dict) or data.get("benchmark") != "miniwob" or "tasks" not in data:
        raise ClickwrightError(f"{path} is not a clickwright MiniWoB results file")
    return data


def compare(new: dict[str, Any], old: dict[str, Any]) -> list[tuple[str, float | None, float]]:
    """(task, old rate or None, new rate) per task of the new run."""
    before = {t["task"]: t["success_rate"] for t in old["tasks"]}
    return [(t["task"], before.get(t["task"]), t["success_rate"]) for t in new["tasks"]]


def write_chart(data: dict[str, Any], path: Path, old: dict[str, Any] | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = [t["task"] for t in data["tasks"]]
    rates = [t["success_rate"] * 100 for t in data["tasks"]]
    figure, axes = plt.subplots(figsize=(10, 0.32 * len(tasks) + 1.4))
    positions = range(len(tasks))
    if old is not None:
        before = {t["task"]: t["success_rate"] * 100 for t in old["tasks"]}
        axes.barh(
            [p + 0.2 for p in positions],
            [before.get(t, 0) for t in tasks],
            height=0.4,
            color="#cbd5e1",
            label="before",
        )
        axes.barh([p - 0.2 for p in positions], rates, height=0.4, color="#2563eb", label="now")
        axes.legend(loc="lower right")
    else:
        axes.barh(list(positions), rates, color="#2563eb")
    axes.set_yticks(list(positions), tasks)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("success rate (%)")
    axes.set_title(
        f"MiniWoB++ from pixels: mean {data['mean_success'] * 100:.1f}% "
        f"({data['settings'].get('planner', '')}, device scale "
        f"{data['settings'].get('device_scale', 2):g}, commit {data['commit'] or '?'})"
    )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_html(data: dict[str, Any], path: Path, chart: Path | None) -> None:
    """A page with the figures, the chart, and every episode linked to its run report."""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(t['task'])}</td><td>{t['success_rate'] * 100:.0f}%</td>"
        f"<td>{t['episodes']}</td><td>{t['mean_steps']:.1f}</td><td>{t['mean_seconds']:.1f}</td>"
        f"<td>{'<br>'.join(f'{n}× {e(r)}' for r, n in t['failures'].items())}</td></tr>"
        for t in data["tasks"]
    )
    episodes = "".join(
        f"<tr><td>{e(r['task'])}</td><td>{r['seed']}</td>"
        f"<td>{'✔' if r['success'] else '✘'}</td><td>{r['reward']:g}</td><td>{r['steps']}</td>"
        f"<td>{r['seconds']:.1f}</td><td>{_report_link(r, path)}</td><td>{e(r['reason'])}</td></tr>"
        for r in data["episodes"]
    )
    picture = f'<img src="{e(chart.name)}" alt="success by task">' if chart else ""
    settings = e(json.dumps(data["settings"]))
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<title>MiniWoB++ results — {data["mean_success"] * 100:.1f}%</title>
<style>body{{font:14px system-ui,sans-serif;margin:24px;color:#1f2937}}
table{{border-collapse:collapse;margin:12px 0}}td,th{{border-bottom:1px solid #e5e7eb;
padding:4px 10px;text-align:left;vertical-align:top}}img{{max-width:100%}}</style></head><body>
<h1>MiniWoB++ from pixels: {data["mean_success"] * 100:.1f}% mean success</h1>
<p>{e(data["date"])} · commit {e(data["commit"] or "?")} · {data["seconds"]:.0f} s ·
settings <code>{settings}</code></p>{picture}
<h2>Tasks</h2><table><tr><th>task</th><th>success</th><th>episodes</th><th>mean steps</th>
<th>mean s</th><th>failures</th></tr>{rows}</table>
<h2>Episodes</h2><table><tr><th>task</th><th>seed</th><th></th><th>reward</th><th>steps</th>
<th>s</th><th>report</th><th>reason</th></tr>{episodes}</table></body></html>"""
    path.write_text(page, encoding="utf-8")


def _report_link(result: dict[str, Any], page: Path) -> str:
    if not result["run_dir"]:
        return ""
    report = Path(result["run_dir"]) / "report.html"
    href = os.path.relpath(report, page.parent)
    return f'<a href="{html.escape(href)}">report</a>'
