"""Hybrid mode: the offline planner and actor do what they can; the model is called only for
the steps they cannot do, and a run that needs no model makes no call."""

from __future__ import annotations

import json

from clickwright.agent.config import load_settings
from clickwright.agent.loop import run_task
from clickwright.agent.state import RunSettings
from tests.test_model_loop import StubDevice, StubParser, scripted


def hybrid_run(tmp_path, task: str):
    url = "http://localhost:1/v1"
    models = load_settings(
        None,
        {"actor": {"backend": "openai", "model": "actor", "base_url": url}},
        env={},
        path=tmp_path / "none.toml",
    )
    result = run_task(
        task, StubDevice(changes_on=("click",)), tmp_path,
        RunSettings(settle_timeout=0.5, hybrid=True), parser=StubParser(), models=models,
    )  # fmt: skip
    steps = [json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()]
    return result, steps


def test_a_task_the_offline_planner_can_do_makes_no_model_call(monkeypatch, tmp_path):
    models = scripted(monkeypatch, actor=[])
    result, steps = hybrid_run(tmp_path, "click Save")
    assert result.ok and "no model call needed" in result.reason, result.reason
    assert models["actor"].seen == [] and result.usage["calls"] == 0
    assert [s["tokens"] for s in steps] == [0]


def test_only_the_step_it_cannot_do_goes_to_the_model(monkeypatch, tmp_path):
    done_it = json.dumps(
        {"action": {"type": "click", "target": {"id": 3}}, "thought": "the Save button is the "
         "way to submit here", "subgoal_done": True}
    )  # fmt: skip
    models = scripted(monkeypatch, actor=[done_it])
    result, steps = hybrid_run(tmp_path, "click Save, then click Submit the form")
    assert result.ok and "1 of them by the model" in result.reason, result.reason
    assert len(models["actor"].seen) == 1  # one call, for the one step
    prompt = models["actor"].seen[0][1].text
    assert "click Submit the form" in prompt and "could not do it" in prompt
    verdicts = [s["verdict"] for s in steps]
    assert verdicts[0] == "success" and "failed" in verdicts and verdicts[-1] == "success"
    assert sum(s["tokens"] for s in steps[:-1]) == 0 and steps[-1]["tokens"] > 0  # per step
