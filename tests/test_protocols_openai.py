"""OpenAI's computer tool in the Responses API, at the wire: the real `openai` SDK against the
loopback server, which holds the conversation to the API reference (strict mode): chaining by
`previous_response_id`, one `computer_call_output` per call, safety checks acknowledged exactly."""

from __future__ import annotations

import base64
import sys

import cv2
import numpy as np
import pytest
from model_server import ModelServer, openai_computer_call, openai_message, png_size
from scripted_model import pattern_screen as screen
from scripted_model import run_state

from clickwright.agent.backends.openai_compat import OpenAICompatBackend
from clickwright.agent.config import BackendSettings
from clickwright.agent.protocols.actor import ProtocolActor
from clickwright.agent.protocols.base import Outcome, ProtocolError, choose
from clickwright.agent.protocols.openai_computer import OpenAIComputer
from clickwright.agent.safety import Flag

pytest.importorskip("openai", reason="the api extra (openai) is not installed")

TASK = "Put the customer on the Pro plan and save"
MODEL = "computer-use-preview"


def talk(
    server: ModelServer, model: str = MODEL, tool: str = ""
) -> tuple[OpenAIComputer, OpenAICompatBackend]:
    spec = choose("openai", model, "openai-computer")
    if tool:
        spec = type(spec)(spec.protocol, model, tool, spec.coords, spec.limits)
    protocol = OpenAIComputer(spec, TASK, "desktop", screenshots=2)
    backend = OpenAICompatBackend(model, base_url=server.url + "/v1", api_key="k", backoff=0.01)
    return protocol, backend


def turn(protocol, backend, outcome: Outcome | None = None):
    if outcome is not None:
        protocol.observe(outcome)
    return protocol.read(backend.post(protocol.request(), timeout=5).body)


def decode(url: str) -> np.ndarray:
    raw = base64.b64decode(url.split(",", 1)[1])
    return cv2.cvtColor(
        cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB
    )


def test_the_first_request_is_the_documented_one_field_by_field():
    first = screen(1920, 1080)
    reply = openai_computer_call(
        {"type": "click", "button": "left", "x": 683, "y": 384}, summary="Click Pro."
    )
    with ModelServer([reply], strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(first))
    (request,) = server.requests
    assert request.path == "/v1/responses"
    assert request.headers["authorization"] == "Bearer k"
    body = request.body
    assert set(body) == {"model", "tools", "input", "reasoning", "truncation"}
    assert body["model"] == MODEL and body["truncation"] == "auto"
    assert body["reasoning"] == {"summary": "concise"}
    environment = {"linux": "linux", "win32": "windows", "darwin": "mac"}[sys.platform]
    # OpenAI's image rule: the short side is seen at 768 pixels, so that is what is sent
    assert body["tools"] == [
        {"type": "computer_use_preview", "display_width": 1365, "display_height": 768,
         "environment": environment}
    ]  # fmt: skip
    (message,) = body["input"]
    assert message["role"] == "user"
    text, image = message["content"]
    assert text == {"type": "input_text", "text": TASK}
    assert image["type"] == "input_image" and image["image_url"].startswith(
        "data:image/png;base64,"
    )
    sent = decode(image["image_url"])
    assert sent.shape == (768, 1365, 3)
    assert np.array_equal(
        sent, cv2.resize(first.frame.pixels, (1365, 768), interpolation=cv2.INTER_AREA)
    )
    (click,) = reading.actions
    assert click.type == "click" and reading.thought == "Click Pro."
    assert abs(click.target.point[0] - 683 * 1920 / 1365) <= 1
    assert abs(click.target.point[1] - 384 * 1080 / 768) <= 1


def test_each_answer_is_chained_and_answered_with_a_screenshot():
    replies = [
        openai_computer_call({"type": "type", "text": "Ada"}),
        openai_computer_call({"type": "keypress", "keys": ["CTRL", "S"]}),
        openai_message("The customer is saved."),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        assert turn(protocol, backend, Outcome(screen())).actions[0].text == "Ada"
        (save,) = turn(protocol, backend, Outcome(screen(seed=1), 1)).actions
        assert save.keys == ("ctrl", "s")
        (done,) = turn(protocol, backend, Outcome(screen(seed=2), 1)).actions
    assert done.type == "done" and done.summary == "The customer is saved."
    first_id = server.answered[0]["id"]
    second = server.requests[1].body
    assert second["previous_response_id"] == first_id
    (output,) = second["input"]
    assert output["type"] == "computer_call_output"
    assert output["call_id"] == server.answered[0]["output"][1]["call_id"]
    assert output["output"]["type"] == "computer_screenshot"
    assert "acknowledged_safety_checks" not in output
    assert png_size(output["output"]["image_url"].split(",", 1)[1]) == (1365, 768)
    assert server.requests[2].body["previous_response_id"] == server.answered[1]["id"]


CHECK = {
    "id": "cu_sc_67cb",
    "code": "malicious_instructions",
    "message": "We've detected instructions that may cause your application to perform "
    "malicious or unauthorized actions. Please acknowledge this warning if you'd like to proceed.",
}


def test_safety_checks_are_acknowledged_only_once_the_approval_said_yes():
    replies = [
        openai_computer_call(
            {"type": "click", "button": "left", "x": 10, "y": 10}, checks=(CHECK,)
        ),
        openai_message("ok"),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(screen()))
        assert isinstance(reading.flag, Flag) and not reading.flag.approved
        assert "malicious or unauthorized" in reading.flag.why
        reading.flag.approved = True  # what the executor does when the person says yes
        turn(protocol, backend, Outcome(screen(seed=1), 1))
    (output,) = server.requests[1].body["input"]
    assert output["acknowledged_safety_checks"] == [CHECK]


def test_unapproved_safety_checks_are_never_acknowledged():
    replies = [
        openai_computer_call(
            {"type": "click", "button": "left", "x": 10, "y": 10}, checks=(CHECK,)
        ),
        openai_message("ok"),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        turn(protocol, backend, Outcome(screen()))
        turn(protocol, backend, Outcome(screen(seed=1), 0, "the action was not approved"))
    output, note = server.requests[1].body["input"]
    assert "acknowledged_safety_checks" not in output
    assert note["content"][0]["text"] == "That did not work: the action was not approved"


@pytest.mark.parametrize(
    ("action", "kind", "fields"),
    [
        ({"type": "double_click", "x": 100, "y": 200}, "double_click", {}),
        ({"type": "click", "button": "right", "x": 100, "y": 200}, "right_click", {}),
        (
            {"type": "scroll", "x": 300, "y": 300, "scroll_x": 0, "scroll_y": 300},
            "scroll",
            {"direction": "down", "amount": 3},
        ),
        (
            {"type": "scroll", "x": 300, "y": 300, "scroll_x": -150, "scroll_y": 0},
            "scroll",
            {"direction": "left", "amount": 2},
        ),
        ({"type": "keypress", "keys": ["ENTER"]}, "hotkey", {"keys": ("enter",)}),
        ({"type": "keypress", "keys": ["ARROWDOWN"]}, "hotkey", {"keys": ("down",)}),
        ({"type": "wait"}, "wait", {"timeout": 2}),
        (
            {
                "type": "drag",
                "path": [{"x": 10, "y": 20}, {"x": 50, "y": 60}, {"x": 300, "y": 200}],
            },
            "drag",
            {},
        ),
    ],
)
def test_each_action_of_the_reference_becomes_a_clickwright_action(action, kind, fields):
    with ModelServer([openai_computer_call(action)], strict=True) as server:
        protocol, backend = talk(server)
        (got,) = turn(protocol, backend, Outcome(screen())).actions
    assert got.type == kind
    for name, value in fields.items():
        assert getattr(got, name) == value


def test_a_screenshot_is_answered_without_acting_and_a_move_hovers():
    replies = [
        openai_computer_call({"type": "screenshot"}),
        openai_computer_call({"type": "move", "x": 40, "y": 50}),
        openai_message("ok"),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        assert turn(protocol, backend, Outcome(screen())).actions == ()
        (hover,) = turn(protocol, backend).actions
        protocol.pointer.follow(hover)
        turn(protocol, backend, Outcome(screen(), carried_out=1))
    assert hover.type == "hover" and protocol.pointer.at is not None
    for request in server.requests[1:]:
        assert [i["type"] for i in request.body["input"]] == ["computer_call_output"]


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ({"type": "click", "button": "back", "x": 1, "y": 1}, "no 'back' button"),
        ({"type": "click", "button": "left", "x": 5000, "y": 1}, "outside the display"),
        (
            {"type": "click", "button": "left", "x": 1, "y": 1, "keys": ["HYPER"]},
            "unknown key",
        ),
        ({"type": "fly"}, "unknown action"),
    ],
)
def test_what_cannot_be_done_is_told_beside_the_screenshot(action, said):
    with ModelServer([openai_computer_call(action), openai_message("ok")], strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(screen()))
        turn(protocol, backend)
    assert said in reading.problem
    output, note = server.requests[1].body["input"]
    assert output["type"] == "computer_call_output" and said in note["content"][0]["text"]


def test_the_ga_computer_tool_sends_batches_and_original_detail_screenshots():
    reply = openai_computer_call(
        {"type": "click", "button": "left", "x": 100, "y": 100},
        {"type": "type", "text": "Ada"},
        batched=True,
    )
    with ModelServer([reply, openai_message("ok")], strict=True) as server:
        protocol, backend = talk(server, "gpt-5.5", tool="computer")
        reading = turn(protocol, backend, Outcome(screen()))
        turn(protocol, backend, Outcome(screen(seed=1), 2))
    assert [a.type for a in reading.actions] == ["click", "type"]
    assert server.requests[0].body["tools"] == [{"type": "computer"}]
    (output,) = server.requests[1].body["input"]
    assert output["output"]["detail"] == "original"


def test_the_tool_refuses_to_drive_a_phone():
    with pytest.raises(ProtocolError, match="not phones"):
        OpenAIComputer(choose("openai", MODEL), TASK, "android", 2)


def test_the_actor_passes_the_flag_to_the_executor(tmp_path):
    state = run_state(tmp_path)
    reply = openai_computer_call(
        {"type": "click", "button": "left", "x": 10, "y": 10}, checks=(CHECK,)
    )
    with ModelServer([reply], strict=True) as server:
        backend = OpenAICompatBackend(MODEL, base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", MODEL, server.url + "/v1", timeout=5)
        role = ProtocolActor(backend, config, state, None, choose("openai", MODEL))
        decision, _ = role.decide(screen())
    assert decision.flag is not None and "OpenAI's safety check" in decision.flag.why
    assert state.usage.calls == 1 and state.usage.input_tokens == 1800
