"""End to end on Xvfb: a person's input (xdotool) recorded by the real `clickwright record`,
then replayed against the sample app unchanged, moved and resized, slow, on another display
resolution and scale, with another parameter, without its Save button, as an exported
script, with a step the agent repairs, and from an agent's run. Each is checked through the
state the app saved."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli
from sample_app_driver import (
    SECRET,
    Recording,
    SampleApp,
    record_customer,
    start_sample_app,
    wait_for_file,
    xdotool,
)

from clickwright.agent.demos.format import DemoWriter, load_demo
from clickwright.agent.demos.replay import replay_demo
from clickwright.agent.loop import run_task
from clickwright.agent.state import RunSettings
from clickwright.devices.base import wait_until_stable
from clickwright.devices.virtual_display import VirtualDisplay
from clickwright.parsers.screen_parser import ScreenParser

pytestmark = pytest.mark.slow

STEPS = [
    "type '{name}' into 'Name'",
    "type '{email}' into 'Email'",
    "type '{password}' into 'Password'",
    "click the 'Country' dropdown",
    "click 'Canada'",
    "click 'Pro'",
    "click 'Subscribe to newsletter'",
    "click 'Save'",
    "click 'Yes'",
]
FILLED = {"country": "Canada", "plan": "Pro", "subscribe": True, "saved_via": "button"}


@pytest.fixture(scope="module")
def parser() -> ScreenParser:
    return ScreenParser()


@pytest.fixture(scope="module")
def recorded(display, device, parser, tmp_path_factory) -> Recording:
    """The demonstration 'customer', recorded by the real command while xdotool works."""
    return record_customer(display, device, parser, tmp_path_factory.mktemp("record"))


def test_recording_reads_well_and_keeps_no_secret(recorded):
    assert recorded.code == 0, recorded.err
    assert recorded.state["password"] == SECRET  # the person really typed it
    demo = load_demo(recorded.demos / "customer")
    assert [s.words for s in demo.steps] == STEPS
    params = demo.info.parameters
    assert params["name"].default == "Ada Lovelace" and params["email"].default == "ada@example.com"
    assert params["password"].secret and params["password"].default is None
    assert demo.info.description == "Sign up a customer on the Pro plan"
    assert "saved demonstration 'customer'" in recorded.out
    assert SECRET not in recorded.out
    for path in demo.dir.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    print(f"recorded in {demo.info.duration:.1f} s by xdotool ({recorded.took:.1f} s of driving)")


def replay_on(display, device, parser, recorded, tmp, app_args=(), **params):
    app = start_sample_app(display, device, tmp, "--password-field", *app_args)
    try:
        demo = load_demo(recorded.demos / "customer")
        result = replay_demo(demo, device, tmp / "runs", params=params, parser=parser)
        print(f"replayed in {result.seconds:.1f} s (recorded {demo.info.duration:.1f} s)")
        assert result.ok, result.reason
        return app.state(), result
    finally:
        app.close()
        wait_until_stable(device, timeout=5)


def test_replay_unchanged(display, device, parser, recorded, tmp_path):
    state, result = replay_on(display, device, parser, recorded, tmp_path, password="pw-1")
    assert state["name"] == "Ada Lovelace" and state["password"] == "pw-1"
    assert {k: state[k] for k in FILLED} == FILLED
    steps = (result.run_dir / "steps.jsonl").read_text()
    assert "pw-1" not in steps and "[secret]" in steps  # the replay log redacts it too


def test_replay_in_a_moved_and_resized_window_with_another_name(
    display, device, parser, recorded, tmp_path
):
    args = ("--pos", "330,140", "--size", "920x600")
    state, _ = replay_on(
        display, device, parser, recorded, tmp_path, args, password="pw-2", name="Grace Hopper"
    )
    assert (state["name"], state["email"], state["password"]) == (
        "Grace Hopper",
        "ada@example.com",
        "pw-2",
    )
    assert {k: state[k] for k in FILLED} == FILLED


def test_replay_waits_for_a_slow_app(display, device, parser, recorded, tmp_path):
    state, result = replay_on(
        display, device, parser, recorded, tmp_path, ("--lag", "1.5"), password="pw-3"
    )
    assert {k: state[k] for k in FILLED} == FILLED and state["password"] == "pw-3"
    assert result.seconds > 3  # both lags were waited out, not skipped


def test_replay_on_another_resolution_and_scale_from_the_cli(recorded, tmp_path):
    state_file = tmp_path / "state.json"
    with VirtualDisplay(1600, 1000) as big:
        env = dict(big.env(), QT_SCALE_FACTOR="1.25")  # bigger pixels, as on a HiDPI screen
        app = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clickwright.assets.sample_app",
                "--state-out",
                str(state_file),
                "--password-field",
                "--pos",
                "250,120",
            ],
            env=env,
            stderr=subprocess.DEVNULL,
        )
        try:
            xdotool(big.name, "search", "--sync", "--onlyvisible", "--name", "Customer Form")
            result = run_cli(
                "replay",
                "customer",
                "--display",
                big.name,
                "--param",
                "password=pw-4",
                "--demos-dir",
                str(recorded.demos),
                "--runs-dir",
                str(tmp_path / "runs"),
            )
        finally:
            app.terminate()
            app.wait(timeout=10)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "done: replayed 9 step(s)" in result.stdout
    state = json.loads(state_file.read_text())
    assert {k: state[k] for k in FILLED} == FILLED and state["password"] == "pw-4"


def test_a_button_that_is_gone_stops_the_replay_with_a_clear_report(
    display, device, recorded, tmp_path
):
    app = start_sample_app(display, device, tmp_path, "--password-field", "--hide-button", "Save")
    try:
        result = run_cli(
            "replay",
            "customer",
            "--display",
            display.name,
            "--param",
            "password=pw-gone",
            "--timeout",
            "2",
            "--demos-dir",
            str(recorded.demos),
            "--runs-dir",
            str(tmp_path / "runs"),
        )
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "failed: step 8 of 9, \"click 'Save'\": not found within 2 s (no text like 'Save'" in (
        result.stdout
    )
    assert "the screen when that step was recorded: " in result.stdout
    assert "customer/frames/0008.png" in result.stdout and "report: " in result.stdout
    assert "pw-gone" not in result.stdout and "[secret]" in result.stdout
    assert not app.state_file.exists()


def test_the_exported_script_runs_and_does_the_job(display, device, recorded, tmp_path):
    script = tmp_path / "customer.py"
    exported = run_cli(
        "demos",
        "export",
        "customer",
        "--python",
        "-o",
        str(script),
        "--demos-dir",
        str(recorded.demos),
    )
    assert exported.returncode == 0, exported.stderr
    app = start_sample_app(display, device, tmp_path, "--password-field", "--pos", "200,60")
    try:
        ran = subprocess.run(
            [
                sys.executable,
                str(script),
                "--display",
                display.name,
                "--password",
                "pw-5",
                "--name",
                "Alan Turing",
            ],
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert ran.returncode == 0, ran.stderr
        wait_for_file(app.state_file)
        state = app.state()
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    assert (state["name"], state["password"]) == ("Alan Turing", "pw-5")
    assert {k: state[k] for k in FILLED} == FILLED


def test_the_agent_repairs_a_step_whose_target_changed(display, device, parser, recorded, tmp_path):
    demos = tmp_path / "demos"
    shutil.copytree(recorded.demos / "customer", demos / "customer")
    steps = (demos / "customer" / "steps.jsonl").read_text().splitlines()
    pro = json.loads(steps[5])
    pro["target"].update(text="Pro plan", crop=None, neighbours=[])  # as if renamed since
    steps[5] = json.dumps(pro)
    (demos / "customer" / "steps.jsonl").write_text("\n".join(steps) + "\n")
    app = start_sample_app(display, device, tmp_path, "--password-field")
    try:
        result = replay_demo(
            load_demo(demos / "customer"),
            device,
            tmp_path / "runs",
            RunSettings(wait_timeout=2),
            params={"password": "pw-6"},
            repair=lambda task, where: run_task(
                task, device, where, RunSettings(finish_dialogs=False), parser=parser
            ),  # a step of the demo, not a task of its own: no dialog is finished for it
            parser=parser,
        )
        state = app.state()
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    assert result.ok, result.reason
    assert result.repaired == (6,) and "1 repaired by the agent (step 6)" in result.reason
    logged = [
        json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()
    ]
    (repaired,) = [s for s in logged if s.get("repair_run")]
    assert repaired["demo_step"] == 6 and Path(repaired["repair_run"]).is_dir()
    assert {k: state[k] for k in FILLED} == FILLED


def test_an_agent_run_becomes_a_demonstration_that_replays(display, device, parser, tmp_path):
    from clickwright.agent.demos.from_run import demo_from_run
    from clickwright.agent.demos.knowledge import use_demos
    from clickwright.agent.loop import run_task

    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    app = start_sample_app(display, device, tmp_path / "first")
    try:
        run = run_task(
            "Type 'Ada Lovelace' into the Name field, then press Ctrl+S",
            device,
            tmp_path / "runs",
            parser=parser,
        )
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    assert run.ok, run.reason
    demo = demo_from_run(run.run_dir, DemoWriter(tmp_path / "demos", "name-only"))
    assert [s.words for s in demo.steps] == ["type '{name}' into 'Name'", "press Ctrl+S"]
    assert demo.info.source == "run" and demo.info.parameters["name"].default == "Ada Lovelace"
    app = start_sample_app(display, device, tmp_path / "second", "--pos", "300,100")
    try:
        # the planner finds the demonstration that does the new task, and replays it
        task = "Type 'Grace' into the Name field, then press Ctrl+S"
        knowledge = use_demos(task, tmp_path / "demos")
        assert knowledge.shortcut is not None and knowledge.shortcut.params == {"name": "Grace"}
        result = run_task(task, device, tmp_path / "runs", parser=parser, knowledge=knowledge)
        assert result.ok and result.reason.startswith("replay steps 1-2"), result.reason
        assert (app.state()["name"], app.state()["saved_via"]) == ("Grace", "shortcut")
    finally:
        app.close()
        wait_until_stable(device, timeout=5)


def test_a_risky_step_the_task_did_not_name_waits_for_approval_in_replays(
    display, device, parser, tmp_path
):
    """One policy for runs and replays: a demonstration's 'Delete customer' stops a headless
    replay (and a --use-demos run whose task does not name it) until --yes."""
    from clickwright.agent.demos.from_run import demo_from_run

    demos = tmp_path / "demos"
    (tmp_path / "first").mkdir()
    app = start_sample_app(display, device, tmp_path / "first")
    try:  # the task names the button, so the run itself needs no approval
        run = run_task(
            "Type 'Ada' into the Name field, then click Delete customer",
            device,
            tmp_path / "runs",
            parser=parser,
        )
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    assert run.ok, run.reason
    demo_from_run(run.run_dir, DemoWriter(demos, "remove"))

    def attempt(name: str, *args: str) -> tuple[dict, SampleApp]:
        (tmp_path / name).mkdir()
        app = start_sample_app(display, device, tmp_path / name)
        try:
            result = run_cli(*args, "--display", display.name, "--demos-dir", str(demos),
                             "--runs-dir", str(tmp_path / "runs"), "--json")  # fmt: skip
        finally:
            app.close()
            wait_until_stable(device, timeout=5)
        assert "Traceback" not in result.stderr
        return json.loads(result.stdout.strip().splitlines()[-1]), app

    summary, app = attempt("replay", "replay", "remove")
    assert summary["outcome"] == "stopped" and "not approved" in summary["reason"]
    assert "Delete customer" in summary["reason"] and not app.state_file.exists()

    summary, app = attempt("replay-yes", "replay", "remove", "--yes")
    assert summary["outcome"] == "done", summary
    assert app.state()["saved_via"] == "delete"

    task = "Type 'Grace' into the Name field, then click Delete customers"
    summary, app = attempt("use-demos", "run", task, "--use-demos")
    assert summary["outcome"] == "stopped" and "not approved" in summary["reason"]
    assert not app.state_file.exists()

    summary, app = attempt("use-demos-yes", "run", task, "--use-demos", "--yes")
    assert summary["outcome"] == "done", summary
    assert (app.state()["name"], app.state()["saved_via"]) == ("Grace", "delete")
