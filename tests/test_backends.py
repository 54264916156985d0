"""API backends against a real loopback HTTP server through the real SDKs, and configuration."""

from __future__ import annotations

import base64
import socket
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from model_server import (
    ModelServer,
    Reply,
    Request,
    anthropic_answer,
    anthropic_error,
    openai_answer,
    openai_error,
)

from clickwright.agent.backends import (
    AuthenticationFailed,
    BadAnswer,
    EndpointUnreachable,
    Message,
    ModelError,
    ModelNotFound,
    ModelTimeout,
    RequestRejected,
)
from clickwright.agent.backends.anthropic_api import AnthropicBackend
from clickwright.agent.backends.openai_compat import OpenAICompatBackend
from clickwright.agent.config import (
    BackendSettings,
    ConfigError,
    load_settings,
    make_backend,
    save_settings,
)

pytest.importorskip("openai", reason="the api extra (openai) is not installed")
pytest.importorskip("anthropic", reason="the api extra (anthropic) is not installed")

IMAGE = np.zeros((20, 30, 3), np.uint8)
IMAGE[5:10, 5:20] = (255, 0, 0)  # red: proves channels arrive as RGB
PROMPT = [
    Message("system", ["You operate a GUI."]),
    Message("user", ["Where is Save?", IMAGE]),
]


def openai_backend(server: ModelServer, **kwargs) -> OpenAICompatBackend:
    kwargs.setdefault("backoff", 0.01)
    return OpenAICompatBackend("gui-model", base_url=server.url + "/v1", api_key="k", **kwargs)


def anthropic_backend(server: ModelServer, **kwargs) -> AnthropicBackend:
    kwargs.setdefault("backoff", 0.01)
    return AnthropicBackend("claude-x", base_url=server.url, api_key="k", **kwargs)


def decode_png(b64: str) -> np.ndarray:
    bgr = cv2.imdecode(np.frombuffer(base64.b64decode(b64), np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def sent_key(request: Request) -> str:
    """The API key a request carried (Anthropic SDKs moved from x-api-key to a bearer token)."""
    return request.headers.get("x-api-key") or request.headers["authorization"].removeprefix(
        "Bearer "
    )


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- OpenAI-compatible -------------------------------------------------------------------------


def test_openai_answer_with_usage_and_image_as_data_url():
    with ModelServer([openai_answer("click(12, 34)", prompt_tokens=120, completion_tokens=7)]) as s:
        result = openai_backend(s).chat(PROMPT, max_tokens=64, timeout=5)
    assert (result.text, result.input_tokens, result.output_tokens) == ("click(12, 34)", 120, 7)
    assert result.model == "served-model" and result.seconds > 0
    (request,) = s.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer k"
    body = request.body
    assert (body["model"], body["max_tokens"], body["temperature"]) == ("gui-model", 64, 0.0)
    assert body["messages"][0] == {"role": "system", "content": "You operate a GUI."}
    text, image = body["messages"][1]["content"]
    assert text == {"type": "text", "text": "Where is Save?"}
    url = image["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert np.array_equal(decode_png(url.split(",", 1)[1]), IMAGE)


def test_openai_500_then_success_is_retried():
    with ModelServer([openai_error(500, "boom"), openai_answer("ok")]) as s:
        assert openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5).text == "ok"
    assert len(s.requests) == 2


def test_openai_429_honours_retry_after_then_succeeds():
    limited = openai_error(429, "slow down")
    limited.headers["retry-after"] = "0.2"
    with ModelServer([limited, openai_answer("ok")]) as s:
        result = openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    assert result.text == "ok" and result.seconds >= 0.2


def test_openai_wrong_key_is_one_line_and_not_retried():
    with ModelServer([openai_error(401, "Incorrect API key provided: k")]) as s:
        with pytest.raises(AuthenticationFailed) as caught:
            openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    message = str(caught.value)
    assert "\n" not in message and "rejected the API key (401)" in message
    assert "Incorrect API key" in message and "--api-key-env" in message
    assert len(s.requests) == 1


def test_openai_unknown_model():
    with ModelServer([openai_error(404, "The model `gui-model` does not exist")]) as s:
        with pytest.raises(ModelNotFound, match="model 'gui-model' not found at http") as caught:
            openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    assert "--model" in str(caught.value) and len(s.requests) == 1


def test_openai_bad_request_is_not_retried():
    with ModelServer([openai_error(400, "image input is not supported")]) as s:
        with pytest.raises(RequestRejected, match="image input is not supported"):
            openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    assert len(s.requests) == 1


def test_openai_slow_server_times_out_with_bounded_retries():
    slow = [Reply(delay=5, body=openai_answer("late").body) for _ in range(3)]
    with ModelServer(slow) as s:
        start = time.monotonic()
        with pytest.raises(ModelTimeout, match=r"did not answer within 0\.3 s") as caught:
            openai_backend(s, tries=2).chat(PROMPT, max_tokens=8, timeout=0.3)
        elapsed = time.monotonic() - start
    assert len(s.requests) == 2 and elapsed < 2.5
    assert "--timeout" in str(caught.value)


@pytest.mark.parametrize(
    "reply",
    [
        Reply(body=b"<html>502 Bad Gateway</html>", content_type="text/html"),
        Reply(body=b'{"choices": [tru', content_type="application/json"),
        Reply(body={"unexpected": "shape"}),
        Reply(body={"choices": []}),
    ],
    ids=["html", "broken-json", "foreign-json", "no-choices"],
)
def test_openai_garbage_is_a_bad_answer(reply: Reply):
    with ModelServer([reply]) as s:
        with pytest.raises(BadAnswer, match="not a chat answer") as caught:
            openai_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    assert "\n" not in str(caught.value) and len(s.requests) == 1


def test_unreachable_endpoint_fails_fast_in_one_line():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    backend = OpenAICompatBackend("m", base_url=url, api_key="k")
    start = time.monotonic()
    with pytest.raises(EndpointUnreachable) as caught:
        backend.chat(PROMPT, max_tokens=8, timeout=5)
    assert time.monotonic() - start < 2
    assert str(caught.value) == (
        f"cannot reach {url}: connection refused — is the server running? check --base-url"
    )


# --- Anthropic ---------------------------------------------------------------------------------


def test_anthropic_answer_system_apart_and_image_as_base64_block():
    with ModelServer(
        [anthropic_answer("Save is at (40, 12)", input_tokens=99, output_tokens=9)]
    ) as s:
        result = anthropic_backend(s).chat(PROMPT, max_tokens=32, timeout=5)
    assert (result.text, result.input_tokens, result.output_tokens) == (
        "Save is at (40, 12)",
        99,
        9,
    )
    (request,) = s.requests
    assert request.path == "/v1/messages" and sent_key(request) == "k"
    body = request.body
    assert body["system"] == "You operate a GUI."
    assert [m["role"] for m in body["messages"]] == ["user"]
    text, image = body["messages"][0]["content"]
    assert text == {"type": "text", "text": "Where is Save?"}
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"
    assert np.array_equal(decode_png(image["source"]["data"]), IMAGE)


def test_anthropic_overloaded_then_success():
    with ModelServer(
        [anthropic_error(529, "overloaded_error", "Overloaded"), anthropic_answer("ok")]
    ) as s:
        assert anthropic_backend(s).chat(PROMPT, max_tokens=8, timeout=5).text == "ok"
    assert len(s.requests) == 2


def test_anthropic_wrong_key_and_unknown_model():
    replies = [
        anthropic_error(401, "authentication_error", "invalid x-api-key"),
        anthropic_error(404, "not_found_error", "model: claude-x"),
    ]
    with ModelServer(replies) as s:
        with pytest.raises(AuthenticationFailed, match="invalid x-api-key"):
            anthropic_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
        with pytest.raises(ModelNotFound, match="model 'claude-x' not found"):
            anthropic_backend(s).chat(PROMPT, max_tokens=8, timeout=5)
    assert len(s.requests) == 2


def test_anthropic_timeout_and_garbage():
    replies = [Reply(delay=5), Reply(body=b"not json at all", content_type="text/plain")]
    with ModelServer(replies) as s:
        with pytest.raises(ModelTimeout):
            anthropic_backend(s, tries=1).chat(PROMPT, max_tokens=8, timeout=0.3)
        with pytest.raises(BadAnswer):
            anthropic_backend(s).chat(PROMPT, max_tokens=8, timeout=5)


# --- configuration -----------------------------------------------------------------------------

CONFIG = """\
backend = "openai"
model = "file-model"
base_url = "http://localhost:11434/v1"
timeout = 90

[roles.grounder]
backend = "transformers"
model = "/models/ui-tars"
device = "cpu"

[roles.critic]
model = "file-critic"
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    return path


def test_defaults_without_a_file(tmp_path: Path):
    settings = load_settings(env={}, path=tmp_path / "missing.toml")
    assert settings.default == BackendSettings() and settings.for_role("actor").backend == "offline"


def test_config_file_env_var_names_the_file(config_file: Path):
    settings = load_settings(env={"CLICKWRIGHT_CONFIG": str(config_file)})
    assert settings.default.model == "file-model" and settings.default.timeout == 90


def test_precedence_flags_over_env_over_file(config_file: Path):
    env = {"CLICKWRIGHT_MODEL": "env-model", "CLICKWRIGHT_BASE_URL": "http://env:8000/v1"}
    from_env = load_settings(env=env, path=config_file)
    assert (from_env.default.model, from_env.default.base_url) == (
        "env-model",
        "http://env:8000/v1",
    )
    from_flags = load_settings({"model": "flag-model", "base_url": None}, env=env, path=config_file)
    assert from_flags.default.model == "flag-model"
    assert from_flags.default.base_url == "http://env:8000/v1"  # None = flag not given


def test_per_role_overrides(config_file: Path):
    settings = load_settings(
        {"model": "flag-model"}, {"planner": {"model": "planner-model"}}, env={}, path=config_file
    )
    grounder = settings.for_role("grounder")
    # the file's grounder table is more specific than a global flag
    assert (grounder.backend, grounder.model, grounder.device) == (
        "transformers",
        "/models/ui-tars",
        "cpu",
    )
    assert grounder.base_url is None  # it belonged to the global openai backend
    assert settings.for_role("planner").model == "planner-model"
    assert settings.for_role("actor").model == "flag-model"
    file_only = load_settings(env={}, path=config_file)
    assert file_only.for_role("grounder").model == "/models/ui-tars"
    assert file_only.for_role("critic").model == "file-critic"
    assert file_only.for_role("critic").timeout == 90  # the rest comes from the top level


def test_switching_backend_drops_the_old_backends_model(config_file: Path):
    settings = load_settings(env={"CLICKWRIGHT_BACKEND": "anthropic"}, path=config_file)
    actor = settings.for_role("actor")
    assert (actor.backend, actor.model, actor.base_url, actor.timeout) == (
        "anthropic",
        "",
        None,
        90,
    )
    with pytest.raises(ConfigError, match="no model set for the anthropic backend"):
        make_backend(actor)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('backend = "openai"\nmodel = "x\n', r"config\.toml:2: malformed TOML"),
        ('model = "m"\nbackend = "gpt"\n', r"config\.toml:2: unknown backend 'gpt' — use one of"),
        ('model = "m"\n\n[roles.pilot]\nmodel = "x"\n', r"config\.toml:3: unknown role 'pilot'"),
        ('[roles.actor]\nmodle = "x"\n', r"config\.toml:2: \[roles.actor\] unknown setting"),
        ('timeout = "soon"\n', r"config\.toml:1: timeout must be a positive number"),
        ('model = "m"\napi_key = "sk-1"\n', r"config\.toml:2: api_key does not belong"),
    ],
    ids=["malformed", "backend", "role", "setting", "type", "key"],
)
def test_bad_config_is_one_line_naming_file_and_line(tmp_path: Path, text: str, expected: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=expected) as caught:
        load_settings(env={}, path=path)
    assert "\n" not in str(caught.value)


def test_bad_flag_and_missing_named_file(tmp_path: Path):
    with pytest.raises(ConfigError, match="flags: unknown backend 'nope'"):
        load_settings({"backend": "nope"}, env={}, path=tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="no config file at"):
        load_settings(env={"CLICKWRIGHT_CONFIG": str(tmp_path / "none.toml")})


def test_keys_come_from_env_and_are_never_written(config_file: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    settings = load_settings(
        {"api_key_env": "MY_KEY", "backend": "openai"}, env={}, path=config_file
    )
    with ModelServer([openai_answer("ok")]) as s:
        backend = make_backend(BackendSettings("openai", "m", s.url + "/v1", "MY_KEY"))
        backend.chat(PROMPT, max_tokens=4, timeout=5)
    assert sent_key(s.requests[0]) == "sk-secret-123"
    out = tmp_path / "saved" / "config.toml"
    save_settings(settings, out)
    written = out.read_text()
    assert "sk-secret-123" not in written and 'api_key_env = "MY_KEY"' in written
    assert load_settings(env={}, path=out) == settings


def test_key_from_keyring_when_env_is_empty(monkeypatch):
    import types

    keyring = types.SimpleNamespace(get_password=lambda service, name: f"{service}/{name}-secret")
    monkeypatch.setitem(__import__("sys").modules, "keyring", keyring)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with ModelServer([anthropic_answer("ok")]) as s:
        make_backend(BackendSettings("anthropic", "claude-x", s.url)).chat(
            PROMPT, max_tokens=4, timeout=5
        )
    assert sent_key(s.requests[0]) == "clickwright/ANTHROPIC_API_KEY-secret"


def test_missing_key_is_a_one_line_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setitem(__import__("sys").modules, "keyring", None)  # import fails
    with pytest.raises(ModelError, match=r"no API key for the anthropic backend — export ANTH"):
        make_backend(BackendSettings("anthropic", "claude-x"))
