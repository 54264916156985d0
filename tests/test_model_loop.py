"""The model loop's decisions, fast: going back, re-planning, giving up, notes. The device and
parser here are stand-ins that change the screen only when told to (the real ones are covered
end to end in test_model_loop_e2e.py); the models are in-process scripted backends."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from clickwright.agent import team
from clickwright.agent.config import load_settings
from clickwright.agent.loop import run_task
from clickwright.agent.state import RunSettings
from clickwright.types import Box, Element, Frame, Screen
from tests.test_roles import ScriptedBackend

SAVE = Element(3, Box(700, 600, 80, 30), "button", "Save", interactive=True)


class StubDevice:
    """A screen that changes only when an action's type is in `changes_on`."""

    kind = "stub"

    def __init__(self, changes_on: tuple[str, ...] = ()) -> None:
        self.changes_on = changes_on
        self.performed: list[dict] = []
        self.shade = 0

    def capture(self) -> Frame:
        return Frame(np.full((200, 300, 3), self.shade, np.uint8))

    def perform(self, action, point=None, end=None) -> None:
        self.performed.append(action.model_dump(mode="json", exclude_none=True))
        if action.type in self.changes_on:
            self.shade += 40

    def describe(self) -> dict:
        return {"kind": self.kind}

    def accessibility(self) -> None:
        return None


class StubParser:
    def parse(self, frame: Frame, nodes=None) -> Screen:
        return Screen(frame, (SAVE,))


def scripted(monkeypatch, **answers: list[str]) -> dict[str, ScriptedBackend]:
    """Each role's model answers from its own list (roles share a backend per setting, so
    every role gets its own model name)."""
    backends = {role: ScriptedBackend(list(texts)) for role, texts in answers.items()}
    monkeypatch.setattr(team, "make_backend", lambda settings: backends[settings.model])
    return backends


def run(tmp_path: Path, device: StubDevice, model_roles: tuple[str, ...], **settings) -> tuple:
    """Run with a scripted model in each of `model_roles`; the other roles are offline."""
    url = "http://localhost:1/v1"
    models = load_settings(
        None,
        {role: {"backend": "openai", "model": role, "base_url": url} for role in model_roles},
        env={},
        path=tmp_path / "none.toml",
    )
    result = run_task(
        "save the form", device, tmp_path, RunSettings(settle_timeout=0.5, **settings),
        parser=StubParser(), models=models,
    )  # fmt: skip
    steps = [json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()]
    return result, steps


def plan(*goals: str) -> str:
    return json.dumps({"subgoals": list(goals)})


def action(kind: str = "click", **fields) -> str:
    body = {"type": kind, **fields}
    if kind == "click":
        body.setdefault("target", {"id": 3})
    return json.dumps({"action": body, "thought": kind})


def test_the_critic_sends_the_loop_back_and_the_actor_is_told(monkeypatch, tmp_path):
    models = scripted(
        monkeypatch,
        planner=[plan("Save")],
        actor=[action(), action("done", summary="saved")],
        critic=['{"verdict": "back", "reason": "a wrong menu opened"}'],
    )
    result, steps = run(
        tmp_path, StubDevice(changes_on=("hotkey",)), ("planner", "actor", "critic")
    )
    assert result.outcome == "done" and result.reason == "saved"
    assert [s["verdict"] for s in steps] == ["back", "success", "success"]
    assert steps[1]["action"] == {"type": "hotkey", "keys": ["esc"]}
    second = models["actor"].seen[1][1].text
    assert "did not work: a wrong menu opened" in second


def test_repeated_failures_re_plan_then_give_up(monkeypatch, tmp_path):
    models = scripted(
        monkeypatch,
        planner=[plan("Save"), plan("Save again"), plan("Save once more")],
        actor=[action()] * 9,
        critic=['{"verdict": "retry", "reason": "nothing happened"}'] * 9,
    )
    result, steps = run(
        tmp_path, StubDevice(), ("planner", "actor", "critic"), max_attempts=3, max_replans=2
    )
    assert result.outcome == "failed"
    assert "gave up after 3 failed attempt(s) and 2 new plan(s)" in result.reason
    assert len(steps) == 9 and len(models["planner"].seen) == 3
    assert "ran into trouble: click element #3 did not work" in models["planner"].seen[1][1].text
    run_json = json.loads((result.run_dir / "run.json").read_text())
    assert run_json["plan"] == ["Save once more"]


def test_a_model_planner_s_unreadable_subgoal_is_re_planned_for_the_offline_actor(
    monkeypatch, tmp_path
):
    models = scripted(
        monkeypatch, planner=[plan("Register the customer"), plan("press Enter", "press Tab")]
    )
    result, steps = run(tmp_path, StubDevice(changes_on=("hotkey",)), ("planner",))
    assert result.outcome == "done", result.reason
    assert steps[0]["verdict"] == "failed"  # read on the screen it met: the report shows it
    assert [s["action"]["keys"] for s in steps[1:]] == [["enter"], ["tab"]]
    first, second = (m[0].text + m[1].text for m in models["planner"].seen)
    assert "press Ctrl+S" in first  # told the forms the offline actor reads
    assert "'Register the customer' failed" in second


def test_the_notetaker_s_notes_reach_the_actor(monkeypatch, tmp_path):
    models = scripted(
        monkeypatch,
        planner=[plan("Save")],
        actor=[action(), action("done")],
        notetaker=['{"notes": ["the customer id is 4711"]}'],
    )
    result, _ = run(tmp_path, StubDevice(changes_on=("click",)), ("planner", "actor", "notetaker"))
    assert result.outcome == "done"
    assert "the customer id is 4711" in models["actor"].seen[1][1].text
    assert json.loads((result.run_dir / "run.json").read_text())["notes"] == [
        "the customer id is 4711"
    ]


def test_the_step_limit_counts_model_actions(monkeypatch, tmp_path):
    scripted(monkeypatch, planner=[plan("Save")], actor=[action()] * 5)
    result, steps = run(
        tmp_path, StubDevice(changes_on=("click",)), ("planner", "actor"), max_steps=2
    )
    assert result.outcome == "failed" and "limit of 2 steps" in result.reason
    assert len(steps) == 2


def test_the_actor_giving_up_fails_the_run_with_its_reason(monkeypatch, tmp_path):
    scripted(monkeypatch, planner=[plan("Save")], actor=[action("fail", reason="no Save button")])
    result, steps = run(tmp_path, StubDevice(), ("planner", "actor"))
    assert result.outcome == "failed" and result.reason == "the actor gave up: no Save button"
    assert steps[-1]["action"]["type"] == "fail"


def test_close_demonstrations_reach_the_model_planner_as_examples(monkeypatch, tmp_path):
    from clickwright.agent.demos.knowledge import Knowledge

    models = scripted(monkeypatch, planner=[plan("Save")], actor=[action("done")])
    examples = "Demonstration 'save': 1. click 'Save'"
    models_config = load_settings(
        None,
        {r: {"backend": "openai", "model": r, "base_url": "http://localhost:1/v1"}
         for r in ("planner", "actor")},
        env={},
        path=tmp_path / "none.toml",
    )  # fmt: skip
    result = run_task(
        "save the form", StubDevice(), tmp_path, RunSettings(settle_timeout=0.5),
        parser=StubParser(),
        models=models_config, knowledge=Knowledge(examples, (), None),
    )  # fmt: skip
    assert result.outcome == "done"
    assert "Demonstrations of similar tasks" in models["planner"].seen[0][1].text
    assert examples in models["planner"].seen[0][1].text


def test_a_target_hidden_in_a_collapsed_tree_is_found_by_opening_its_nodes(tmp_path):
    """The offline actor opens "+" nodes top first until the target shows."""
    device = StubDevice(changes_on=("click",))

    class Tree:
        def parse(self, frame: Frame, nodes=None) -> Screen:
            rows = [Element(0, Box(5, 10, 12, 12), "text", "+"), Element(1, Box(30, 8, 60, 16),
                    "text", "Alan")]  # fmt: skip
            if device.shade:  # Alan opened: its child shows, its node now reads "-"
                rows = [replace(rows[0], text="-"), rows[1],
                        Element(2, Box(50, 30, 60, 16), "text", "Deneen")]  # fmt: skip
            return Screen(frame, tuple(rows))

    settings = RunSettings(settle_timeout=0.5)
    result = run_task("click Deneen", device, tmp_path, settings, parser=Tree())
    steps = [json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()]
    assert result.outcome == "done", result.reason
    assert [s["target"]["text"] for s in steps] == ["+", "Deneen"]
    assert "not on screen: opening the collapsed node" in steps[0]["thought"]
