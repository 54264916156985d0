"""The scripting API on the real sample app: its actions go through the agent's executor, so
they are checked (an action with no effect fails), approved by the one policy, and logged."""

from __future__ import annotations

import json

import pytest

from clickwright.agent.script import ScreenSession
from clickwright.agent.state import Stopped
from clickwright.errors import StepFailed

pytestmark = pytest.mark.slow


def test_a_script_fills_the_form_and_its_steps_are_verified_and_logged(
    display, device, sample_app, tmp_path
):
    runs = tmp_path / "runs"
    with ScreenSession(device, timeout=5, runs_dir=runs) as screen:
        screen.type("Grace Hopper", into="Name", clear=True)
        screen.click(text="Pro")
        screen.click(text="Save")
        screen.click(text="Yes")
    assert sample_app.state()["name"] == "Grace Hopper"
    assert sample_app.state()["plan"] == "Pro"
    (run,) = runs.iterdir()
    steps = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    assert [s["verdict"] for s in steps] == ["success"] * 4
    assert steps[0]["verdict_reason"] == "the field now shows 'Grace Hopper'"
    assert steps[1]["verdict_reason"] == "it is now checked"
    assert json.loads((run / "run.json").read_text())["outcome"] == "done"


def test_an_action_with_no_effect_fails_like_the_agents(display, device, sample_app, tmp_path):
    with ScreenSession(device, timeout=3, runs_dir=tmp_path / "runs") as screen:
        blank = (device.size[0] - 5, device.size[1] - 5)  # bare desktop: nothing happens
        with pytest.raises(StepFailed, match="click point"):
            screen.click(point=blank)


def test_a_risky_element_reached_by_a_point_waits_for_approval(
    display, device, sample_app, tmp_path
):
    with ScreenSession(device, timeout=3, runs_dir=tmp_path / "runs") as screen:
        delete = screen.find("Delete customer", "button")
        with pytest.raises(Stopped, match="not approved"):
            screen.click(point=delete.box.center)  # the script never named it
    assert not sample_app.state_file.exists()
