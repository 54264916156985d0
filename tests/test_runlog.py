"""The run log: written as the run goes, and never holding a secret the user typed."""

from __future__ import annotations

import json

import numpy as np

from clickwright.agent.interpreter import interpret
from clickwright.agent.loop import secrets_in
from clickwright.agent.runlog import REDACTED, RunLog, looks_secret
from clickwright.types import Frame, Screen, StepRecord, Type


def test_secret_fields_are_recognised_by_their_label():
    assert looks_secret("Password:") and looks_secret("API key") and looks_secret("PIN")
    assert not looks_secret("Name") and not looks_secret("Email")


def test_typed_secrets_never_reach_the_log(tmp_path):
    task = "type 'hunter2 \"x\"' into the Password field, type 'Ada' into Name"
    secrets = secrets_in(interpret(task))
    assert secrets == ['hunter2 "x"']
    log = RunLog(tmp_path, task, secrets=secrets)
    frame = Frame(np.zeros((10, 10, 3), np.uint8))
    log.save_frame(frame, "0001")
    log.save_elements(Screen(frame), "0001")
    log.add_step(
        StepRecord(
            instruction="type 'hunter2 \"x\"' into the Password field",
            action=Type(text='hunter2 "x"'),
        )
    )
    log.finish("done", "ok")
    written = (log.dir / "steps.jsonl").read_text() + (log.dir / "run.json").read_text()
    assert "hunter2" not in written
    assert REDACTED in written and "Ada" in written
    assert json.loads((log.dir / "run.json").read_text())["outcome"] == "done"


def test_each_step_is_on_disk_as_soon_as_it_is_added(tmp_path):
    log = RunLog(tmp_path, "click Save")
    record = log.add_step(StepRecord(instruction="click Save", durations={"act": 0.5}))
    assert record.index == 1
    info = json.loads((log.dir / "run.json").read_text())
    assert info["steps"] == 1 and info["outcome"] == "running"
    assert info["durations"]["act"] == 0.5


def test_a_short_secret_is_redacted_where_it_stands_alone_only(tmp_path):
    log = RunLog(tmp_path, "type 'x' into PIN", secrets=["x"])
    log.add_step(StepRecord(instruction="type 'x' into PIN", action=Type(text="x")))
    written = json.loads((log.dir / "steps.jsonl").read_text())
    assert written["index"] == 1 and written["action"]["text"] == REDACTED
    assert written["instruction"] == f"type '{REDACTED}' into PIN"
    assert json.loads((log.dir / "run.json").read_text())["task"] == f"type '{REDACTED}' into PIN"


def test_a_password_named_in_the_task_is_a_secret_even_without_a_field():
    assert secrets_in([], 'Log in as ada with the password "hunter2" and open Mail') == ["hunter2"]
    assert secrets_in([], "Enter the PIN '0000'") == ["0000"]
    assert secrets_in([], 'Type "hello" into Search') == []
