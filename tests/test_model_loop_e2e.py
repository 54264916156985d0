"""The model loop end to end: the real `clickwright run` command, the real openai SDK over real
HTTP to a scripted model on loopback, the real sample app on Xvfb, real input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.model_server import ModelServer, openai_answer
from tests.scripted_model import ScriptedModel, act

pytestmark = pytest.mark.slow

PLAN = ["Fill in name and email", "Choose the Pro plan", "Accept the terms", "Save and confirm"]


def run_model(
    display, url: str, task: str, tmp_path: Path, *flags: str, backend: str = "openai",
    model: str = "scripted", env: dict | None = None, as_json: bool = True,
):  # fmt: skip
    """The real command against the model at `url`: the process and its JSON summary."""
    result = run_cli(
        "run", task, "--display", display.name, "--backend", backend, "--base-url", url,
        "--model", model, "--runs-dir", str(tmp_path / "runs"), *flags,
        *(["--json"] if as_json else []),
        env={**os.environ, "CLICKWRIGHT_CONFIG": str(_config(tmp_path)), **(env or {})},
    )  # fmt: skip
    summary = json.loads(result.stdout.strip().splitlines()[-1]) if as_json else {}
    return result, summary


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    if not path.exists():
        path.write_text("")
    return path


def steps_of(summary: dict) -> list[dict]:
    lines = (Path(summary["run_dir"]) / "steps.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_model_fills_the_form_and_recovers_from_a_failed_action(display, sample_app, tmp_path):
    model = ScriptedModel(
        plan=PLAN,
        actor=[
            lambda p: act(
                {
                    "type": "type",
                    "text": "Ada Lovelace",
                    "target": {"id": p.id("Name", "input")},
                    "clear": True,
                },
                "the Name field is empty",
            ),
            lambda p: act(
                {
                    "type": "type",
                    "text": "ada@example.com",
                    "target": {"id": p.id("Email", "input")},
                    "clear": True,
                },
                subgoal_done=True,
            ),
            # a click on the empty desktop beside the window: nothing happens
            act({"type": "click", "target": {"point": [1150, 400]}}, "the plan is over there"),
            lambda p: act(
                {"type": "click", "target": {"point": p.centre("Pro", "radio")}},
                "Pro by its position",
                subgoal_done=True,
            ),
            lambda p: act(
                {"type": "click", "target": {"id": p.id("Accept terms", "checkbox")}},
                subgoal_done=True,
            ),
            lambda p: act({"type": "click", "target": {"id": p.id("Save", "button")}}),
            lambda p: act(
                {"type": "click", "target": {"id": p.id("Yes", "button")}}, subgoal_done=True
            ),
        ],
        critic=[{"verdict": "retry", "reason": "nothing happened where I clicked"}],
    )
    with ModelServer([], model) as server:
        result, summary = run_model(
            display,
            server.url + "/v1",
            "Register Ada Lovelace (ada@example.com) on the Pro plan",
            tmp_path,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary["outcome"] == "done"
    saved = sample_app.state()
    assert saved["name"] == "Ada Lovelace" and saved["email"] == "ada@example.com"
    assert saved["plan"] == "Pro" and saved["accept_terms"] is True
    assert saved["saved_via"] == "button"

    steps = steps_of(summary)
    verdicts = [s["verdict"] for s in steps]
    assert verdicts[2] == "retry", verdicts  # the critic noticed the click did nothing
    assert all(v in ("success", "unverified") for v in verdicts[3:]), verdicts
    assert steps[3]["target"]["kind"] == "radio"  # the point landed on Pro
    assert "did not work" in model.prompts["actor"][3].text  # and the actor was told
    assert len(model.prompts["critic"]) == 1  # asked only when the offline check doubted
    assert steps[-1]["action"]["type"] == "done"
    assert summary["usage"]["calls"] == len(model.prompts["actor"]) + 2
    assert summary["usage"]["input_tokens"] > 0
    calls = (Path(summary["run_dir"]) / "model_calls.jsonl").read_text().splitlines()
    assert [json.loads(c)["role"] for c in calls][:2] == ["planner", "actor"]


def test_the_anthropic_backend_drives_the_app_too(display, sample_app, tmp_path):
    model = ScriptedModel(
        plan=["Choose Pro", "Save"],
        actor=[
            lambda p: act({"type": "click", "target": {"id": p.id("Pro", "radio")}}),
            act({"type": "hotkey", "keys": ["ctrl", "s"]}, subgoal_done=True),
        ],
    )
    with ModelServer([], model) as server:
        result, _ = run_model(
            display, server.url, "Put the customer on the Pro plan and save", tmp_path,
            backend="anthropic", model="claude-scripted", env={"ANTHROPIC_API_KEY": "k"},
        )  # fmt: skip
        assert all(r.path == "/v1/messages" for r in server.requests)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sample_app.state()["plan"] == "Pro"
    assert sample_app.state()["saved_via"] == "shortcut"


def test_a_model_answering_nonsense_ends_the_run_with_exit_1(display, sample_app, tmp_path):
    model = ScriptedModel(plan=PLAN, actor=[], then="I like turtles.")
    with ModelServer([], model) as server:
        result, summary = run_model(display, server.url + "/v1", "Register Ada", tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert summary["outcome"] == "failed"
    assert "gave no usable answer in 3 tries" in summary["reason"]
    assert "could not be used: no JSON object" in model.prompts["actor"][1].text
    assert "Traceback" not in result.stderr


def test_risky_actions_the_task_did_not_name_wait_for_approval(display, sample_app, tmp_path):
    delete = [lambda p: act({"type": "click", "target": {"id": p.id("Delete customer")}})]
    with ModelServer([], ScriptedModel(plan=["Delete"], actor=list(delete))) as server:
        result, summary = run_model(display, server.url + "/v1", "Tidy up this record", tmp_path)
    assert result.returncode == 1
    assert summary["outcome"] == "stopped" and "not approved" in summary["reason"]
    assert "--yes" in summary["reason"]
    assert not sample_app.state_file.exists()  # nothing was deleted

    with ModelServer([], ScriptedModel(plan=["Delete"], actor=list(delete))) as server:
        result, summary = run_model(
            display, server.url + "/v1", "Tidy up this record", tmp_path, "--yes"
        )
    assert result.returncode == 0, result.stdout + result.stderr
    assert sample_app.state()["saved_via"] == "delete"
    assert steps_of(summary)[0]["approval"] == "approved in advance"


def test_a_risky_action_the_task_names_is_consented_by_the_task(display, sample_app, tmp_path):
    delete = [lambda p: act({"type": "click", "target": {"id": p.id("Delete customer")}})]
    with ModelServer([], ScriptedModel(plan=["Delete"], actor=list(delete))) as server:
        result, summary = run_model(display, server.url + "/v1", "Delete this customer", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sample_app.state()["saved_via"] == "delete"
    assert steps_of(summary)[0]["approval"] == "named by the task"


def test_a_question_in_a_headless_run_ends_it_with_the_question(display, sample_app, tmp_path):
    ask = act({"type": "ask_user", "question": "Which plan should Ada get?"})
    with ModelServer([], ScriptedModel(plan=["Ask"], actor=[ask])) as server:
        result, summary = run_model(display, server.url + "/v1", "Register Ada", tmp_path)
    assert result.returncode == 1
    assert summary["outcome"] == "question"
    assert "Which plan should Ada get?" in summary["reason"]


def test_the_cost_limit_stops_the_run(display, sample_app, tmp_path):
    _config(tmp_path).write_text('[prices."scripted"]\ninput = 1000.0\noutput = 1000.0\n')
    # each call costs (11 + 3) tokens x $1000 per million = $0.014
    wait = act({"type": "wait", "until": "stable", "timeout": 1})
    with ModelServer([], ScriptedModel(plan=["Wait"], actor=[], then=wait)) as server:
        result, summary = run_model(
            display, server.url + "/v1", "Wait", tmp_path, "--max-cost", "0.05"
        )
    assert result.returncode == 1
    assert "reached the cost limit of $0.05" in summary["reason"]
    assert summary["usage"]["calls"] == 4 and summary["usage"]["cost"] == pytest.approx(0.056)


def test_a_paid_model_without_a_price_cannot_run_under_a_cost_limit(display, tmp_path):
    with ModelServer([openai_answer("{}")]) as server:
        result, _ = run_model(
            display, "https://models.example.com/v1", "Register Ada", tmp_path, "--max-cost",
            "1", model="mystery-model", env={"OPENAI_API_KEY": "k"},
        )  # fmt: skip
        assert not server.requests
    assert result.returncode == 2
    assert "no price known for model 'mystery-model'" in result.stdout


def test_unreachable_endpoint_is_one_line_exit_2(display, tmp_path):
    result, _ = run_model(display, "http://127.0.0.1:9/v1", "Register Ada", tmp_path, as_json=False)
    assert result.returncode == 2
    assert "cannot reach http://127.0.0.1:9/v1" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    run_json = next(tmp_path.glob("runs/*/run.json"))
    assert json.loads(run_json.read_text())["outcome"] == "error"


def test_dry_run_shows_the_prompts_and_sends_nothing(display, sample_app, tmp_path):
    with ModelServer([]) as server:
        result, _ = run_model(
            display, server.url + "/v1", "Register Ada", tmp_path, "--dry-run", as_json=False
        )
        assert not server.requests
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# planner" in result.stdout and "# actor" in result.stdout
    assert "Task: Register Ada" in result.stdout
    assert '"Save"' in result.stdout  # the element list the actor would see
    assert "[image " in result.stdout


def test_at_a_terminal_the_person_answers_and_approves(display, sample_app, tmp_path):
    """The real command in a pseudo-terminal: the question and the approval are asked there."""
    import pty
    import select
    import subprocess
    import sys
    import time

    model = ScriptedModel(
        plan=["Ask which customer", "Delete it"],
        actor=[
            act({"type": "ask_user", "question": "Which customer?"}),
            lambda p: act({"type": "click", "target": {"id": p.id("Delete customer")}}),
        ],
    )
    with ModelServer([], model) as server:
        master, slave = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "clickwright.app", "run", "Clean up the customers",
             "--display", display.name, "--backend", "openai", "--base-url",
             server.url + "/v1", "--model", "scripted", "--runs-dir", str(tmp_path / "runs")],
            stdin=slave, stdout=slave, stderr=slave, close_fds=True,
            env={**os.environ, "CLICKWRIGHT_CONFIG": str(_config(tmp_path))},
        )  # fmt: skip
        os.close(slave)
        seen = b""

        def answer_when(prompt: bytes, reply: bytes) -> None:
            nonlocal seen
            deadline = time.monotonic() + 120
            while prompt not in seen:
                assert time.monotonic() < deadline, seen.decode(errors="replace")
                if select.select([master], [], [], 0.5)[0]:
                    seen += os.read(master, 4096)
            seen = seen.split(prompt, 1)[1]
            os.write(master, reply)

        answer_when(b"your answer", b"Ada\n")
        answer_when(b"allow it?", b"y\n")
        assert process.wait(timeout=120) == 0
        os.close(master)
    assert sample_app.state()["saved_via"] == "delete"
    assert "The user answered 'Which customer?': Ada" in model.prompts["actor"][1].text
