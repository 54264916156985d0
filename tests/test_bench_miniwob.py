"""The MiniWoB++ harness: real Chromium and ChromeDriver on Xvfb, the real `miniwob` pages, the
agent acting from pixels; local worker processes and a local Ray instance."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clickwright.app.bench import results
from clickwright.app.bench.cli import read_tasks
from clickwright.app.bench.miniwob import (
    DEV_SET,
    EpisodeResult,
    EpisodeSpec,
    check_browser,
    check_tasks,
)
from clickwright.errors import ClickwrightError
from tests.conftest import run_cli

pytest.importorskip("miniwob", reason="the bench extra is not installed")


def result(task: str, seed: int, success: bool, reason: str = "") -> EpisodeResult:
    return EpisodeResult(task, seed, success, 1.0 if success else -1.0, 2, 3.0, "done", reason,
                         "", None)  # fmt: skip


def test_tasks_come_from_a_list_a_file_or_the_dev_set(tmp_path):
    assert read_tasks("click-test, enter-text") == ["click-test", "enter-text"]
    listed = tmp_path / "tasks.txt"
    listed.write_text("click-test  # the simplest\n\nclick-tab\n")
    assert read_tasks(str(listed)) == ["click-test", "click-tab"]
    assert read_tasks(None) == list(DEV_SET)


def test_an_unknown_task_is_one_line_with_suggestions():
    with pytest.raises(ClickwrightError, match="unknown MiniWoB task 'click-buton'") as error:
        check_tasks(["click-test", "click-buton"])
    assert "click-button" in str(error.value)


def test_a_missing_browser_names_the_debian_packages(tmp_path):
    with pytest.raises(ClickwrightError, match="Chromium not found") as error:
        check_browser(str(tmp_path / "chromium"), "/usr/bin/chromedriver")
    assert "apt-get install -y chromium chromium-driver" in str(error.value)


def test_results_summarize_compare_and_render(tmp_path):
    episodes = [
        result("click-test", 0, True),
        result("click-test", 1, False, "the page gave reward -1"),
        result("enter-text", 0, True),
    ]
    data = results.results_json(episodes, {"planner": "offline"}, 12.0)
    assert data["mean_success"] == 0.75  # the mean of 50% and 100%
    assert data["tasks"][0]["failures"] == {"the page gave reward -1": 1}
    old = {**data, "tasks": [{"task": "click-test", "success_rate": 0.0}]}
    assert results.compare(data, old) == [("click-test", 0.0, 0.5), ("enter-text", None, 1.0)]
    chart, page = tmp_path / "chart.png", tmp_path / "index.html"
    results.write_chart(data, chart, old)
    results.write_html(data, page, chart)
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert "75.0% mean success" in page.read_text() and "chart.png" in page.read_text()
    saved = tmp_path / "results.json"
    saved.write_text(json.dumps(data))
    assert results.load_results(saved)["mean_success"] == 0.75
    saved.write_text("{}")
    with pytest.raises(ClickwrightError, match="not a clickwright MiniWoB results file"):
        results.load_results(saved)


@pytest.mark.slow
def test_the_command_runs_two_tasks_in_parallel_and_writes_its_results(tmp_path):
    done = run_cli(
        "bench", "miniwob", "--tasks", "click-test,click-button", "--episodes", "1",
        "--workers", "2", "--out", str(tmp_path), "--time-limit", "30",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (folder,) = tmp_path.glob("miniwob-*")
    data = json.loads((folder / "results.json").read_text())
    assert [t["task"] for t in data["tasks"]] == ["click-test", "click-button"]
    assert data["settings"]["time_limit"] == 30 and data["settings"]["planner"] == "offline"
    assert (folder / "index.png").read_bytes().startswith(b"\x89PNG")
    page = (folder / "index.html").read_text()
    for episode in data["episodes"]:
        assert (Path(episode["run_dir"]) / "report.html").exists()
        assert os.path.relpath(Path(episode["run_dir"]) / "report.html", folder) in page
    assert "mean success" in done.stdout


@pytest.mark.slow
def test_a_browser_that_dies_fails_its_episode_and_the_run_goes_on(tmp_path):
    from clickwright.app.bench.executors import run_local

    dying = tmp_path / "dying-chromium"
    dying.write_text('#!/bin/sh\n(sleep 1; kill -9 $$) &\nexec /usr/bin/chromium "$@"\n')
    dying.chmod(0o755)
    runs = str(tmp_path / "runs")
    specs = [
        EpisodeSpec("click-button-sequence", 0, runs, 30, browser=str(dying)),
        EpisodeSpec("click-button", 0, runs, 30),
    ]
    finished: list[EpisodeResult] = []
    run_local(specs, 1, finished.append)
    crashed, healthy = sorted(finished, key=lambda r: r.task != "click-button-sequence")
    assert not crashed.success
    assert "browser" in crashed.reason or "did not end" in crashed.reason, crashed.reason
    assert healthy.success, healthy.reason


@pytest.mark.slow
def test_the_ray_executor_runs_episodes_on_a_local_ray_instance(tmp_path):
    pytest.importorskip("ray")
    from clickwright.app.bench.executors import run_ray

    runs = str(tmp_path / "runs")
    specs = [EpisodeSpec("click-button", 0, runs, 30), EpisodeSpec("click-test", 0, runs, 30)]
    finished: list[EpisodeResult] = []
    run_ray(specs, None, finished.append)
    assert sorted(r.task for r in finished) == ["click-button", "click-test"]
    data = results.results_json(finished, {"executor": "ray"}, 1.0)
    assert {t["task"] for t in data["tasks"]} == {"click-button", "click-test"}
    assert all(Path(r.run_dir, "run.json").exists() for r in finished)
