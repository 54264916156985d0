"""Which protocol a model is spoken in, who plays which role then, and `clickwright models
check` against the loopback server through the real SDKs."""

from __future__ import annotations

import pytest
import typer
from model_server import ModelServer, anthropic_answer, openai_answer, openai_error
from scripted_model import run_state
from typer.testing import CliRunner

from clickwright.agent.config import BackendSettings, load_settings
from clickwright.agent.protocols import ProtocolError, choose
from clickwright.agent.protocols.actor import ProtocolActor
from clickwright.agent.protocols.check import check
from clickwright.agent.roles import Actor
from clickwright.agent.team import build_team, describe_roles
from clickwright.app.models_cli import register


@pytest.mark.parametrize(
    ("backend", "model", "protocol", "tool"),
    [
        ("anthropic", "claude-opus-4-7", "anthropic-computer", "computer_20251124"),
        ("anthropic", "claude-opus-4-6", "anthropic-computer", "computer_20251124"),
        ("anthropic", "claude-opus-4-5-20251101", "anthropic-computer", "computer_20251124"),
        ("anthropic", "claude-sonnet-4-6", "anthropic-computer", "computer_20251124"),
        ("anthropic", "claude-sonnet-4-5", "anthropic-computer", "computer_20250124"),
        ("anthropic", "claude-haiku-4-5-20251001", "anthropic-computer", "computer_20250124"),
        ("anthropic", "claude-opus-4-1", "anthropic-computer", "computer_20250124"),
        ("anthropic", "claude-sonnet-4-20250514", "anthropic-computer", "computer_20250124"),
        ("anthropic", "claude-3-7-sonnet-20250219", "anthropic-computer", "computer_20250124"),
        ("openai", "computer-use-preview", "openai-computer", "computer_use_preview"),
        ("openai", "computer-use-preview-2025-03-11", "openai-computer", "computer_use_preview"),
        ("openai", "ByteDance-Seed/UI-TARS-1.5-7B", "ui-tars", ""),
        ("openai", "hf.co/mradermacher/UI-TARS-1.5-7B-GGUF:Q4_K_M", "ui-tars", ""),
        ("transformers", "/models/UI-TARS-1.5-7B", "ui-tars", ""),
        ("openai", "qwen2.5vl:7b", "qwen-vl", "qwen2.5"),
        ("openai", "Qwen/Qwen2.5-VL-7B-Instruct", "qwen-vl", "qwen2.5"),
        ("openai", "qwen2.5-vl-7b-instruct", "qwen-vl", "qwen2.5"),
        ("openai", "qwen3-vl:8b", "qwen-vl", "qwen3"),
        ("openai", "Qwen/Qwen3-VL-30B-A3B-Instruct", "qwen-vl", "qwen3"),
    ],
)
def test_models_are_spoken_to_in_their_own_protocol(backend, model, protocol, tool):
    spec = choose(backend, model)
    assert spec is not None and (spec.protocol, spec.tool) == (protocol, tool)


@pytest.mark.parametrize(
    ("backend", "model"),
    [
        ("openai", "gpt-4o"),
        ("anthropic", "claude-scripted"),  # a name the table does not know
        ("openai", "claude-opus-4-5"),  # through an OpenAI-compatible proxy: no computer tool
        ("openai", "llava:13b"),
    ],
)
def test_other_models_keep_clickwright_s_json_actions(backend, model):
    assert choose(backend, model) is None


def test_the_config_s_protocol_overrides_the_name():
    assert choose("anthropic", "claude-opus-4-5", "json") is None
    spec = choose("openai", "my-gui-finetune", "ui-tars")
    assert spec is not None and spec.protocol == "ui-tars" and spec.coords == "pixels"
    spec = choose("anthropic", "claude-next", "anthropic-computer")
    assert spec is not None and spec.tool == "computer_20251124"
    with pytest.raises(ProtocolError, match="cannot run on the openai backend"):
        choose("openai", "claude-opus-4-5", "anthropic-computer")
    with pytest.raises(ProtocolError, match="unknown protocol 'tars'"):
        choose("openai", "ui-tars-1.5", "tars")


def test_a_native_model_only_acts_unless_another_role_is_set_apart(tmp_path):
    url = "http://localhost:8000/v1"
    alone = load_settings(
        {"backend": "openai", "model": "ui-tars-1.5-7b", "base_url": url},
        env={},
        path=tmp_path / "x",
    )
    team = build_team(alone, run_state(tmp_path))
    assert isinstance(team.actor, ProtocolActor)
    assert (
        team.planner is None
        and team.critic.model is None
        and team.grounder.actor_coords == "pixels"
    )
    roles = describe_roles(alone)
    assert roles["actor"] == "openai:ui-tars-1.5-7b (ui-tars)" and roles["planner"] == "offline"

    apart = load_settings(
        {"backend": "openai", "model": "ui-tars-1.5-7b", "base_url": url},
        {"critic": {"model": "gpt-4o"}},
        env={},
        path=tmp_path / "x",
    )
    team = build_team(apart, run_state(tmp_path))
    assert team.critic.model is not None and team.critic.model.config.model == "gpt-4o"

    generic = load_settings(
        {"backend": "openai", "model": "gpt-4o", "base_url": url}, env={}, path=tmp_path / "x"
    )
    team = build_team(generic, run_state(tmp_path))
    assert type(team.actor) is Actor and team.planner is not None


# ---- clickwright models check ------------------------------------------------------------------


def findings(settings: BackendSettings) -> list[tuple[str, str]]:
    return [(f.mark, f.check) for f in check(settings)]


def test_a_working_local_server_passes_every_check():
    with ModelServer([openai_answer("Red")], models=("qwen2.5vl:7b",)) as server:
        settings = BackendSettings("openai", "qwen2.5vl:7b", server.url + "/v1", timeout=5)
        found = list(check(settings))
    assert [(f.mark, f.check) for f in found] == [
        ("ok", "reachable"), ("ok", "model listed"), ("ok", "vision"), ("ok", "round trip"),
        ("info", "protocol"),
    ]  # fmt: skip
    (ask,) = [r for r in server.requests if r.path.endswith("/chat/completions")]
    text, image = ask.body["messages"][0]["content"]
    assert "What colour is the square" in text["text"] and image["type"] == "image_url"
    assert found[-1].detail == "qwen-vl (qwen2.5), the model's own"


def test_a_model_the_server_does_not_have_and_a_text_only_model_fail():
    rejected = openai_error(400, "model llama3 does not support images")
    with ModelServer([rejected], models=("llama3:latest",)) as server:
        found = findings(
            BackendSettings("openai", "llama3", server.url + "/v1", timeout=5, tries=1)
        )
    assert found == [("ok", "reachable"), ("ok", "model listed"), ("fail", "vision")]
    with ModelServer([openai_answer("I cannot see")], models=("llava:13b",)) as server:
        found = findings(BackendSettings("openai", "qwen2.5vl:7b", server.url + "/v1", timeout=5))
    assert ("fail", "model listed") in found and ("warn", "round trip") in found


def test_an_unreachable_server_is_one_failed_check():
    settings = BackendSettings("openai", "qwen2.5vl:7b", "http://127.0.0.1:9/v1", timeout=5)
    assert findings(settings) == [("fail", "reachable")]


def test_a_native_protocol_makes_its_round_trip_in_its_own_protocol(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with ModelServer(
        [anthropic_answer("Red.")], models=("claude-opus-4-5",), strict=True
    ) as server:
        found = list(check(BackendSettings("anthropic", "claude-opus-4-5", server.url, timeout=5)))
    assert [f.mark for f in found] == ["ok", "ok", "ok", "ok", "info"]
    posted = server.requests[-1]
    assert posted.headers["anthropic-beta"] == "computer-use-2025-11-24"
    assert posted.body["tools"][0]["display_width_px"] == 224
    assert "anthropic-computer (computer_20251124)" in found[-1].detail


def test_the_command_prints_one_line_a_check_and_exits_1_on_a_failure(tmp_path):
    app = typer.Typer()
    app.callback()(lambda: None)
    register(app)
    env = {"CLICKWRIGHT_CONFIG": str(tmp_path / "none.toml")}
    (tmp_path / "none.toml").write_text("")
    with ModelServer([openai_answer("Red")], models=("qwen3-vl:8b",)) as server:
        flags = ["--backend", "openai", "--model", "qwen3-vl:8b", "--base-url", server.url + "/v1"]
        result = CliRunner().invoke(app, ["models", "check", *flags], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 5 and lines[0].startswith("OK    reachable")
    result = CliRunner().invoke(app, ["models", "check"], env=env)
    assert result.exit_code != 0 and "no model is configured for the actor" in str(result.exception)


# ---- a dry run shows the exact request -----------------------------------------------------


class StillDevice:
    kind = "desktop"

    def capture(self):
        from scripted_model import pattern_screen

        return pattern_screen(1920, 1080).frame

    def perform(self, action, point=None, end=None) -> None:
        raise AssertionError("a dry run acts on nothing")

    def describe(self) -> dict:
        return {"kind": self.kind}

    def accessibility(self) -> None:
        return None


class NothingParser:
    def parse(self, frame, nodes=None):
        from clickwright.types import Screen

        return Screen(frame)


def test_a_dry_run_writes_the_exact_first_request_and_sends_nothing(tmp_path, monkeypatch):
    from clickwright.agent.loop import PROMPTS_FILE, run_task
    from clickwright.agent.state import RunSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with ModelServer([], strict=True) as server:
        models = load_settings(
            {"backend": "anthropic", "model": "claude-opus-4-5", "base_url": server.url},
            env={},
            path=tmp_path / "none.toml",
        )
        result = run_task(
            "Save the form", StillDevice(), tmp_path, RunSettings(dry_run=True, settle_timeout=0.5),
            models=models, parser=NothingParser(),
        )  # fmt: skip
        assert not server.requests
    assert result.outcome == "done", result.reason
    text = (result.run_dir / PROMPTS_FILE).read_text()
    assert "POST /v1/messages\nanthropic-beta: computer-use-2025-11-24" in text
    assert '"display_width_px": 1429' in text and "<PNG 1429x804," in text
    assert "# planner" not in text  # the model acts alone
