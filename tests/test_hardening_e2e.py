"""Issue 15 on a real display with the real sample app and the real `clickwright` command: the
display or the app going away, stop signals (also inherited as ignored), the fail-safe corner,
a recording stopped by a signal, and secrets typed in several ways. Every run must end with
its log finished, a reason and a report, and never a traceback."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from model_server import ModelServer, Reply
from sample_app_driver import SECRET, press_on, start_sample_app, xdotool

from clickwright.agent.runlog import read_run, read_steps
from clickwright.app.demo import sample_app_command
from clickwright.devices.base import wait_until_stable
from clickwright.devices.virtual_display import VirtualDisplay
from clickwright.parsers.screen_parser import ScreenParser
from tests.conftest import run_cli

pytestmark = pytest.mark.slow
LONG_TASK = ", ".join(["select Pro", "select Team"] * 15)


def start(*args: str, ignore_sigint: bool = False) -> subprocess.Popen:
    """The real command in the background; `ignore_sigint` as a script's `cmd &` starts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "clickwright.app", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        if ignore_sigint
        else None,
    )


def run_in_background(
    runs: Path, task: str = LONG_TASK, *extra: str, **options
) -> subprocess.Popen:
    """A run on its own virtual display with the sample app, once it has logged a step."""
    process = start(
        "run",
        task,
        "--virtual",
        "--max-steps",
        "60",
        "--launch",
        sample_app_command(runs.parent / "state.json"),
        "--runs-dir",
        str(runs),
        *extra,
        **options,
    )
    deadline = time.monotonic() + 180
    while not list(runs.glob("*/steps.jsonl")):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.2)
    return process


def children(pid: int) -> dict[int, str]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return {int(p): Path(f"/proc/{p}/comm").read_text().strip() for p in found.split()}


def ended(process: subprocess.Popen, runs: Path) -> tuple[str, str, Path]:
    """stdout, stderr and the run folder of a finished command; its log must be finished, its
    report whole, no traceback and no leftovers."""
    out, err = process.communicate(timeout=180)
    assert "Traceback" not in err, err
    (run_dir,) = [p for p in runs.iterdir() if p.is_dir()]
    run = read_run(run_dir)
    assert run is not None and run.outcome != "running" and run.reason
    assert run.steps == len(read_steps(run_dir))
    assert (run_dir / "report.html").read_text().rstrip().endswith("</html>")
    leftovers = [p.name for p in run_dir.iterdir() if p.name.startswith(".") or ".tmp" in p.name]
    assert not leftovers
    return out, err, run_dir


def test_the_display_going_away_ends_the_run_with_its_reason(tmp_path):
    runs = tmp_path / "runs"
    process = run_in_background(runs)
    (xvfb,) = [pid for pid, name in children(process.pid).items() if name == "Xvfb"]
    os.kill(xvfb, signal.SIGKILL)
    out, err, run_dir = ended(process, runs)
    assert process.returncode == 2
    run = read_run(run_dir)
    assert run.outcome == "error" and "desktop device" in run.reason, run.reason
    assert "report:" in out


@pytest.mark.parametrize(
    ("signum", "said"),
    [(signal.SIGKILL, "killed by signal 9"), (signal.SIGSTOP, "is stopped and does not respond")],
    ids=["app-killed", "app-hung"],
)
def test_the_app_going_away_ends_the_run_and_no_more_keys_are_sent(tmp_path, signum, said):
    runs = tmp_path / "runs"
    process = run_in_background(runs, ", ".join(["press Tab"] * 40))
    (app,) = [pid for pid, name in children(process.pid).items() if name.startswith("python")]
    os.kill(app, signum)
    gone_at = time.time()
    try:
        out, err, run_dir = ended(process, runs)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(app, signal.SIGKILL)  # a stopped app must not outlive the test
    assert process.returncode == 1
    run = read_run(run_dir)
    assert run.outcome == "failed" and said in run.reason, run.reason
    assert len([s for s in read_steps(run_dir) if s.time > gone_at + 2]) <= 1
    assert run.steps < 40


def test_the_next_run_closes_the_log_of_a_run_killed_outright(tmp_path):
    runs = tmp_path / "runs"
    process = run_in_background(runs)
    (killed,) = list(runs.iterdir())
    process.kill()  # SIGKILL: nothing of clickwright runs any more; its display dies with it
    process.communicate(timeout=30)
    assert read_run(killed).outcome == "running"
    result = run_cli("run", "select Pro", "--virtual", "--runs-dir", str(runs))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    run = read_run(killed)
    assert run.outcome == "error" and "killed" in run.reason
    assert run.steps == len(read_steps(killed)) and not (killed / ".running").exists()


@pytest.mark.parametrize(
    ("signum", "ignored"),
    [(signal.SIGHUP, False), (signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["SIGHUP", "SIGTERM", "SIGINT-inherited-as-ignored"],
)
def test_a_stop_signal_finishes_the_log_and_the_report(tmp_path, signum, ignored):
    runs = tmp_path / "runs"
    process = run_in_background(runs, ignore_sigint=ignored)
    process.send_signal(signum)
    out, err, run_dir = ended(process, runs)
    assert process.returncode == 1
    assert read_run(run_dir).outcome == "stopped"
    assert "report:" in out


def test_a_second_signal_finishes_faster_and_leaves_valid_files(tmp_path):
    runs = tmp_path / "runs"
    process = run_in_background(runs, LONG_TASK, "--json")
    while len(read_steps(next(runs.iterdir()))) < 12:  # a report that takes a while to write
        assert process.poll() is None
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.5)  # the run has stopped and its report is being written
    process.send_signal(signal.SIGTERM)
    out, err, run_dir = ended(process, runs)
    assert process.returncode == 1
    summary = json.loads(out)
    assert summary["outcome"] == "stopped" and Path(summary["report"]).exists()


@pytest.fixture
def own_display(tmp_path):
    """A display of the test's own with the sample app on it (started by the test, so that no
    program the command launched outlives it on a display it does not own)."""
    from clickwright.devices.desktop import DesktopDevice

    with VirtualDisplay(1280, 800) as display, DesktopDevice(display=display.name) as device:
        app = start_sample_app(display, device, tmp_path)
        yield display
        app.close()


def test_a_pointer_left_in_a_corner_does_not_stop_the_next_run(tmp_path, own_display):
    xdotool(own_display.name, "mousemove", "0", "0")
    runs = tmp_path / "runs"
    result = run_cli("run", "select Pro", "--display", own_display.name, "--json", "--runs-dir",
                     str(runs))  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["outcome"] == "done"


def test_the_pointer_thrown_into_a_corner_stops_the_run_with_its_report(tmp_path, own_display):
    runs = tmp_path / "runs"
    process = start(
        "run",
        LONG_TASK,
        "--display",
        own_display.name,
        "--max-steps",
        "60",
        "--runs-dir",
        str(runs),
    )
    deadline = time.monotonic() + 180
    while not list(runs.glob("*/steps.jsonl")):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.2)
    xdotool(own_display.name, "mousemove", "1279", "799")
    out, err, run_dir = ended(process, runs)
    assert process.returncode == 1, out
    run = read_run(run_dir)
    assert run.outcome == "stopped" and "corner" in run.reason


def test_a_throw_landing_during_a_move_of_the_agent_is_not_undone_by_it():
    """The race the run above can lose: the throw waits while the agent's move holds the
    display, lands after it, and the next action sees the pointer in the corner."""
    from clickwright.devices.desktop import DesktopDevice
    from clickwright.types import Click, Target

    with VirtualDisplay(640, 480) as display, DesktopDevice(display=display.name) as device:
        with device._alone():
            throw = subprocess.Popen(["xdotool", "mousemove", "639", "479"], env=display.env())
            time.sleep(0.5)  # the throw is under way, waiting for the display
            device._gui.platformModule._moveTo(320, 240)
        throw.wait(timeout=10)
        assert tuple(device._gui.position()) == (639, 479)
        with pytest.raises(Exception, match="fail-safe"):
            device.perform(Click(target=Target(point=(100, 100))), (100, 100))


def test_a_recording_stopped_by_a_signal_is_saved(tmp_path, own_display):
    from clickwright.devices.desktop import DesktopDevice

    demos = tmp_path / "demos"
    with DesktopDevice(display=own_display.name) as device:
        recorder = start(
            "record",
            "signed",
            "--display",
            own_display.name,
            "--demos-dir",
            str(demos),
            ignore_sigint=True,
        )
        try:
            assert "recording on display" in recorder.stdout.readline()  # listening by now
            parser = ScreenParser()
            press_on(own_display.name, device, parser, "Pro", "radio")
            press_on(own_display.name, device, parser, "Team", "radio")
            wait_until_stable(device)
            recorder.send_signal(signal.SIGINT)  # `kill -INT` though it inherited SIGINT ignored
            out, err = recorder.communicate(timeout=240)
        finally:
            if recorder.poll() is None:
                recorder.kill()
    assert recorder.returncode == 0 and "Traceback" not in err, err
    assert "saved demonstration 'signed'" in out
    assert (demos / "signed" / "demo.json").exists() and not list(demos.glob(".*"))


@pytest.mark.parametrize(
    "task",
    [
        f"type '{SECRET}' into the Password field, type '{SECRET}' into Name, then select Pro",
        f"type '{SECRET}' into Pasword, type '{SECRET}' into Name, then select Pro",
        f"type the password '{SECRET}' into Name, then select Pro",
    ],
    ids=["named-field", "misspelt-field", "named-in-the-task"],
)
def test_a_secret_is_in_no_file_a_run_writes_nor_on_the_terminal(tmp_path, task):
    runs = tmp_path / "runs"
    app = sample_app_command(tmp_path / "state.json") + " --password-field"
    result = run_cli("run", task, "--virtual", "--launch", app, "--runs-dir", str(runs))
    assert result.returncode == 0, result.stdout + result.stderr
    assert SECRET not in result.stdout + result.stderr
    (run_dir,) = list(runs.iterdir())
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    elements = "".join(p.read_text() for p in (run_dir / "elements").iterdir())
    assert "[secret]" in elements  # the Name field showed it before Pro was selected: masked


def test_a_model_endpoint_that_never_answers_ends_the_run_in_one_line(tmp_path):
    """It takes the request and holds it: each try ends at --timeout, the retries are said as
    they happen, and the run ends as an error (exit 2) with its log and report."""
    runs = tmp_path / "runs"
    with ModelServer([Reply(delay=600)] * 3) as server:
        result = run_cli(
            "run", "save the form", "--backend", "openai", "--base-url", server.url + "/v1",
            "--model", "m", "--timeout", "1", "--virtual", "--runs-dir", str(runs),
        )  # fmt: skip
    assert result.returncode == 2 and not result.stderr, result.stderr
    assert "did not answer within 1 s; trying again (try 2 of 3)" in result.stdout
    assert "error: " + server.url + "/v1 did not answer within 1 s (3 tries" in result.stdout
    (run_dir,) = list(runs.iterdir())
    run = read_run(run_dir)
    assert run.outcome == "error" and "3 tries" in run.reason
    assert (run_dir / "report.html").exists() and len(server.requests) == 3


def test_the_stop_hotkey_outlives_the_display_it_watches(tmp_path):
    """The display the person sits at goes away (a logout, a stopped Xvfb): the hotkey's
    watcher ends quietly, and leaving it raises nothing."""
    import threading

    from clickwright.app.stop_hotkey import stop_hotkey

    crashed: list[threading.ExceptHookArgs] = []
    hook, threading.excepthook = threading.excepthook, crashed.append
    try:
        with VirtualDisplay(320, 240) as display:
            with stop_hotkey(threading.Event(), display.name) as label:
                assert label == "Ctrl+Shift+F12"
                display.stop()
                time.sleep(0.5)  # the watcher looks at its display every 0.2 s
    finally:
        threading.excepthook = hook
    assert not crashed, crashed[0].exc_value


def test_a_replay_of_a_damaged_demonstration_says_so_and_exits_2(tmp_path):
    """A crop that is not a PNG: the run is an error of the demonstration (exit 2, as a run's
    errors are), never 'done' and never a bare 1."""
    from tests.test_demos import write_demo

    demo = write_demo(tmp_path / "demos")
    (demo.dir / demo.steps[0].target.crop).write_text("not a png")
    runs = tmp_path / "runs"
    result = run_cli(
        "replay", "signup", "--param", "password=pw", "--virtual", "--launch",
        sample_app_command(tmp_path / "state.json"), "--demos-dir", str(tmp_path / "demos"),
        "--runs-dir", str(runs),
    )  # fmt: skip
    assert result.returncode == 2 and not result.stderr, result.stderr
    assert "error: " in result.stdout and "not a readable PNG" in result.stdout
    (run_dir,) = list(runs.iterdir())
    assert read_run(run_dir).outcome == "error" and (run_dir / "report.html").exists()


def test_a_benchmark_worker_stops_the_display_of_the_task_it_leaves():
    """Each MiniWoB task a worker moves on to gets a display of its own: the one it leaves is
    stopped (it was not, so a worker's Xvfb servers piled up until it exited)."""
    from clickwright.app.bench.miniwob import _Worker

    worker = _Worker()
    worker.display = display = VirtualDisplay(320, 240).start()
    worker.close()
    assert not display.running and worker.display is None
