"""The `clickwright` command as a user runs it: exit codes, one-line errors, reports."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clickwright.app.demo import sample_app_command
from tests.conftest import run_cli


def one_line_error(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("task", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("press Ctrl+Banana", "Banana"),
    ],
)
def test_tasks_it_cannot_read_exit_2_with_one_line(task, message):
    result = run_cli("run", task, "--virtual")
    assert result.returncode == 2
    assert message in one_line_error(result)


def test_words_no_screen_settles_exit_2_naming_what_was_understood():
    """An unreadable clause is read on the screen it meets; where its words name nothing, the
    run ends there, as an error with the model backends as the way on."""
    result = run_cli("run", "make me a sandwich", "--virtual")
    assert result.returncode == 2
    said = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert len(said) == 1 and "understood the verb 'make'" in said[0] and "--backend" in said[0]
    assert "Traceback" not in result.stderr


def test_unknown_display_exits_2_with_one_line():
    result = run_cli("run", "click Save", "--display", ":987")
    assert result.returncode == 2
    assert "cannot connect to display ':987'" in one_line_error(result)


def test_virtual_and_display_together_is_a_usage_error():
    result = run_cli("run", "click Save", "--virtual", "--display", ":5")
    assert result.returncode == 2
    assert "cannot be used together" in one_line_error(result)


@pytest.mark.slow
def test_impossible_task_exits_1_with_reason_and_report(tmp_path):
    state = tmp_path / "state.json"
    result = run_cli(
        "run",
        "click the Launch Rocket button",
        "--virtual",
        "--json",
        "--launch",
        sample_app_command(state),
        "--runs-dir",
        str(tmp_path / "runs"),
    )
    assert result.returncode == 1, result.stderr
    summary = json.loads(result.stdout)
    assert summary["outcome"] == "failed"
    assert "Launch Rocket" in summary["reason"]
    assert Path(summary["report"]).exists()
    assert not state.exists()


@pytest.mark.slow
def test_dry_run_plans_and_draws_but_acts_on_nothing(tmp_path):
    state = tmp_path / "state.json"
    result = run_cli(
        "run",
        "type 'Ada' into Name, click Save, then click Yes",
        "--virtual",
        "--dry-run",
        "--json",
        "--launch",
        sample_app_command(state),
        "--runs-dir",
        str(tmp_path / "runs"),
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    steps = [
        json.loads(s) for s in (Path(summary["run_dir"]) / "steps.jsonl").read_text().splitlines()
    ]
    assert [s["verdict"] for s in steps[:2]] == ["planned", "planned"]
    assert steps[0]["target"]["name"].startswith("Name") and steps[0]["point"]
    assert "data:image/" in Path(summary["report"]).read_text()
    assert not state.exists()


@pytest.mark.slow
def test_ctrl_c_mid_run_stops_and_still_writes_the_report(tmp_path):
    state = tmp_path / "state.json"
    runs = tmp_path / "runs"
    task = ", ".join(["select Pro", "select Team"] * 10)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clickwright.app",
            "run",
            task,
            "--virtual",
            "--launch",
            sample_app_command(state),
            "--runs-dir",
            str(runs),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    deadline = time.monotonic() + 120
    while not list(runs.glob("*/steps.jsonl")):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 1
    run_dir = next(runs.iterdir())
    info = json.loads((run_dir / "run.json").read_text())
    assert info["outcome"] == "stopped" and info["steps"] >= 1
    assert (run_dir / "report.html").exists()
    assert "report:" in out
