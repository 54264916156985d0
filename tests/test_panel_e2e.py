"""The control panel end to end: the real `clickwright app` on a virtual display, a task typed
into it with real key presses (xdotool), the offline planner driving the real sample app, and
what the app saved and what the panel's timeline showed checked afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clickwright.app.panel.sandbox import sample_app
from tests.conftest import start_sample_app
from tests.panel_driver import PanelProcess

pytestmark = pytest.mark.slow

TASK = "Type 'Ada' into Name, then click Save, then click Yes"
PANEL_TEXTS = {"Take over", "Record / Replay", "Back to live", "Last click", "Next target"}


def check_the_run(panel: PanelProcess, saved: Path) -> dict:
    """The run ended done, the app saved what was typed, the timeline shows the three steps."""
    state = panel.wait_for(lambda s: s["outcome"], timeout=150, what="the end of the run")
    assert state["outcome"] == "done", state
    assert state["message"].startswith("Done:")
    app = json.loads(saved.read_text())
    assert app["name"] == "Ada" and app["saved_via"] == "button"
    steps = state["steps"]
    assert [s["verdict"] for s in steps] == ["success"] * 3, steps
    assert steps[0]["title"].startswith('type "Ada" into input')
    assert steps[1]["title"].startswith("click button 'Save'")
    assert steps[2]["title"].startswith("click button 'Yes'")
    logged = Path(state["run_dir"], "steps.jsonl").read_text().splitlines()
    assert len(logged) == len(steps)
    return state


def test_a_task_typed_into_the_panel_runs_in_its_sandbox(tmp_path, display):
    app_state = tmp_path / "app-state.json"
    panel = PanelProcess(
        display, tmp_path, "--device", "sandbox", "--launch", sample_app(app_state)
    )
    try:
        panel.wait_for(lambda s: "running in the sandbox" in s["message"], 60, "the app started")
        panel.enter_task(TASK)
        check_the_run(panel, app_state)
    finally:
        assert panel.close() == 0, panel.output()
    assert "Traceback" not in panel.output()


def test_on_its_own_screen_the_panel_is_never_seen_nor_clicked(tmp_path, display, device):
    """The panel covers the whole display, the sample app included: the agent can only do the
    task if the panel steps aside for every capture and action."""
    app = start_sample_app(display, device, tmp_path)
    panel = PanelProcess(display, tmp_path, "--device", "desktop:0", "--size", "1280x800")
    try:
        panel.wait_for(lambda s: "message" in s, 30, "the panel")
        panel.enter_task(TASK)
        state = check_the_run(panel, app.state_file)
    finally:
        panel.close()
        app.close()
    for elements in Path(state["run_dir"], "elements").glob("*.json"):
        texts = {e["text"] for e in json.loads(elements.read_text())}
        assert not texts & PANEL_TEXTS, f"the agent saw the panel in {elements.name}"
