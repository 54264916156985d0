"""End to end: real tasks on the real sample app on Xvfb, checked through what the app saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clickwright.agent.loop import RunResult, run_task
from clickwright.parsers.screen_parser import ScreenParser

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def parser() -> ScreenParser:
    return ScreenParser()


@pytest.fixture
def agent(device, parser, tmp_path):
    def run(task: str) -> RunResult:
        result = run_task(task, device, tmp_path / "runs", parser=parser)
        return result

    return run


def steps_of(result: RunResult) -> list[dict]:
    return [json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()]


def test_type_into_a_field_found_by_its_label(agent, sample_app):
    result = agent("Type 'Ada Lovelace' into the Name field, then press Ctrl+S")
    assert result.ok, result.reason
    state = sample_app.state()
    assert state["name"] == "Ada Lovelace" and state["saved_via"] == "shortcut"


def test_choose_from_a_combo_box(agent, sample_app):
    result = agent("choose Kenya from the Country dropdown and press Ctrl+S")
    assert result.ok, result.reason
    assert sample_app.state()["country"] == "Kenya"


def test_check_boxes_and_radio_buttons(agent, sample_app):
    result = agent(
        "check Subscribe to newsletter, uncheck Enable notifications, select Team, press Ctrl+S"
    )
    assert result.ok, result.reason
    state = sample_app.state()
    assert (state["subscribe"], state["notifications"], state["plan"]) == (True, False, "Team")


def test_menu_path_and_save_as_dialog(agent, sample_app):
    result = agent("open File > Save As…, type report.json into File name, then click Save")
    assert result.ok, result.reason
    state = sample_app.state()
    assert state["saved_via"] == "save_as"
    assert Path(state["saved_as"]).name == "report.json"
    assert (sample_app.save_dir / "report.json").exists()


def test_switch_tab_and_choose_there(agent, sample_app):
    result = agent("open the Advanced tab, choose Debug from Log level, then press Ctrl+S")
    assert result.ok, result.reason
    state = sample_app.state()
    assert (state["current_tab"], state["log_level"]) == ("Advanced", "Debug")


def test_multi_step_form_with_confirmation(agent, sample_app):
    result = agent(
        "Type 'Ada Lovelace' into the Name field, type ada@example.com into Email, "
        "type 555-0100 into Phone, choose Canada from the Country dropdown, select Pro, "
        "check Accept terms, click Save, then click Yes"
    )
    assert result.ok, result.reason
    assert result.steps >= 8
    state = sample_app.state()
    assert state["saved_via"] == "button"
    assert {k: state[k] for k in ("name", "email", "phone", "country", "plan", "accept_terms")} == {
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "phone": "555-0100",
        "country": "Canada",
        "plan": "Pro",
        "accept_terms": True,
    }


def test_critic_recovers_when_the_first_candidate_is_a_picture_of_a_button(agent, sample_app):
    result = agent("open the Advanced tab, click Apply, then press Ctrl+S")
    assert result.ok, result.reason
    assert sample_app.state()["applied"] is True
    apply_steps = [s for s in steps_of(result) if s["instruction"].lower() == "click apply"]
    assert [s["attempt"] for s in apply_steps] == [1, 2]
    assert [s["verdict"] for s in apply_steps] == ["retry", "success"]


def test_pick_from_a_list_box_and_type_unicode(agent, sample_app):
    result = agent("select Purple in Favourite colour, type 'Zoë Núñez' into Name, press Ctrl+S")
    assert result.ok, result.reason
    state = sample_app.state()
    assert (state["favourite_colour"], state["name"]) == ("Purple", "Zoë Núñez")


def test_impossible_task_fails_with_a_reason(agent, sample_app):
    result = agent("click Launch Rocket")
    assert result.outcome == "failed"
    assert "nothing on screen matches 'Launch Rocket'" in result.reason
    assert not sample_app.state_file.exists()


def test_scroll_a_list_to_reach_an_item(agent, sample_app):
    result = agent(
        "scroll down in Favourite colour, then select Navy in Favourite colour, press Ctrl+S"
    )
    assert result.ok, result.reason
    assert sample_app.state()["favourite_colour"] == "Navy"


def test_the_step_budget_ends_a_run_before_a_third_action(device, parser, sample_app, tmp_path):
    from clickwright.agent.state import RunSettings

    result = run_task(
        "select Pro, select Team, select Free",
        device,
        tmp_path / "runs",
        RunSettings(max_steps=2),
        parser=parser,
    )
    assert (result.outcome, result.steps) == ("failed", 2)
    assert "limit of 2 steps" in result.reason
