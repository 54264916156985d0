"""Anthropic's computer tool, at the wire: the real `anthropic` SDK against the loopback server,
which holds the conversation to the documented rules (strict mode). Answers are shaped as the
computer-use docs' examples."""

from __future__ import annotations

import base64
import math

import cv2
import numpy as np
import pytest
from model_server import ModelServer, anthropic_answer, anthropic_tool_use, png_size
from scripted_model import pattern_screen as screen
from scripted_model import run_state

from clickwright.agent.backends.anthropic_api import AnthropicBackend
from clickwright.agent.config import BackendSettings
from clickwright.agent.protocols.actor import ProtocolActor
from clickwright.agent.protocols.anthropic_computer import AnthropicComputer
from clickwright.agent.protocols.base import Outcome, choose
from clickwright.agent.state import RunState
from clickwright.errors import StepFailed

pytest.importorskip("anthropic", reason="the api extra (anthropic) is not installed")

TASK = "Put the customer on the Pro plan and save"


def doc_scale(width: int, height: int) -> float:
    """get_scale_factor, as the computer-use docs write it."""
    long_edge_scale = 1568 / max(width, height)
    total_pixels_scale = math.sqrt(1_150_000 / (width * height))
    return min(1.0, long_edge_scale, total_pixels_scale)


def decode(block: dict) -> np.ndarray:
    raw = base64.b64decode(block["source"]["data"])
    return cv2.cvtColor(
        cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB
    )


def talk(
    server: ModelServer, model: str = "claude-opus-4-5"
) -> tuple[AnthropicComputer, AnthropicBackend]:
    protocol = AnthropicComputer(choose("anthropic", model), TASK, "desktop", screenshots=3)
    backend = AnthropicBackend(model, api_key="k", base_url=server.url, backoff=0.01)
    return protocol, backend


def turn(protocol: AnthropicComputer, backend: AnthropicBackend, outcome: Outcome | None = None):
    if outcome is not None:
        protocol.observe(outcome)
    return protocol.read(backend.post(protocol.request(), timeout=5).body)


@pytest.mark.parametrize(
    ("model", "tool", "beta", "zoom"),
    [
        ("claude-opus-4-5-20251101", "computer_20251124", "computer-use-2025-11-24", True),
        ("claude-sonnet-4-6", "computer_20251124", "computer-use-2025-11-24", True),
        ("claude-sonnet-4-5-20250929", "computer_20250124", "computer-use-2025-01-24", False),
        ("claude-haiku-4-5", "computer_20250124", "computer-use-2025-01-24", False),
    ],
)
def test_the_first_request_is_the_documented_one_field_by_field(model, tool, beta, zoom):
    first = screen()
    with ModelServer([anthropic_answer("Nothing to do.")], strict=True) as server:
        protocol, backend = talk(server, model)
        reading = turn(protocol, backend, Outcome(first))
    (request,) = server.requests
    assert request.path == "/v1/messages"
    assert request.headers["anthropic-beta"] == beta
    assert request.headers["anthropic-version"]  # the SDK's own API version
    body = request.body
    assert set(body) == {"model", "max_tokens", "system", "tools", "messages"}
    assert body["model"] == model and body["max_tokens"] == 1024
    scale = doc_scale(1920, 1080)
    width, height = int(1920 * scale), int(1080 * scale)  # the docs' scaled_width/height
    expected_tool = {
        "type": tool,
        "name": "computer",
        "display_width_px": width,
        "display_height_px": height,
    }
    if zoom:
        expected_tool["enable_zoom"] = True
    assert body["tools"] == [expected_tool]
    (message,) = body["messages"]
    assert message["role"] == "user"
    text, image = message["content"]
    assert text == {"type": "text", "text": TASK}
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"
    assert png_size(image["source"]["data"]) == (width, height)
    sent = decode(image)
    expected = cv2.resize(first.frame.pixels, (width, height), interpolation=cv2.INTER_AREA)
    assert np.array_equal(sent, expected)
    assert reading.actions[0].type == "done" and reading.actions[0].summary == "Nothing to do."


def test_opus_4_7_takes_its_larger_screenshots():
    with ModelServer([anthropic_answer("ok")], strict=True) as server:
        protocol, backend = talk(server, "claude-opus-4-7")
        turn(protocol, backend, Outcome(screen(2560, 1440)))
    tool = server.requests[0].body["tools"][0]
    assert (tool["display_width_px"], tool["display_height_px"]) == (2560, 1440)


def test_a_click_maps_back_and_its_result_carries_the_next_screenshot():
    first, after = screen(seed=1), screen(seed=2)
    replies = [
        anthropic_tool_use({"action": "left_click", "coordinate": [500, 300]}, text="Clicking."),
        anthropic_answer("Done."),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(first))
        (click,) = reading.actions
        scale = doc_scale(1920, 1080)
        # the docs scale back with x / scale; exact per-axis mapping agrees within a pixel
        assert click.type == "click" and reading.thought == "Clicking."
        assert abs(click.target.point[0] - 500 / scale) <= 1
        assert abs(click.target.point[1] - 300 / scale) <= 1
        turn(protocol, backend, Outcome(after, carried_out=1))
    second = server.requests[1].body["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    tool_use = second[1]["content"][1]
    assert tool_use["type"] == "tool_use" and tool_use["input"]["coordinate"] == [500, 300]
    (result,) = second[2]["content"]
    assert result["tool_use_id"] == tool_use["id"] and "is_error" not in result
    done, shot = result["content"]
    assert done == {"type": "text", "text": "done"}
    scaled = png_size(shot["source"]["data"])
    assert np.array_equal(
        decode(shot), cv2.resize(after.frame.pixels, scaled, interpolation=cv2.INTER_AREA)
    )


def test_a_failed_action_is_an_error_result_and_the_rest_of_the_turn_is_not_done():
    replies = [
        anthropic_tool_use(
            {"action": "left_click", "coordinate": [10, 10]},
            {"action": "type", "text": "Ada"},
        ),
        anthropic_answer("I will stop."),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(screen()))
        assert [a.type for a in reading.actions] == ["click", "type"]
        turn(protocol, backend, Outcome(screen(seed=3), 0, "nothing changed on screen"))
    failed, skipped = server.requests[1].body["messages"][2]["content"]
    assert (
        failed["is_error"] is True and failed["content"][0]["text"] == "nothing changed on screen"
    )
    assert failed["content"][1]["type"] == "image"
    assert skipped["is_error"] is True and "not done" in skipped["content"][0]["text"]


@pytest.mark.parametrize(
    ("given", "kind", "fields"),
    [
        ({"action": "key", "text": "ctrl+s"}, "hotkey", {"keys": ("ctrl", "s")}),
        ({"action": "key", "text": "Return"}, "hotkey", {"keys": ("enter",)}),
        ({"action": "key", "text": "Page_Down"}, "hotkey", {"keys": ("pagedown",)}),
        ({"action": "type", "text": "Hello, world!"}, "type", {"text": "Hello, world!"}),
        (
            {
                "action": "scroll",
                "coordinate": [500, 400],
                "scroll_direction": "down",
                "scroll_amount": 3,
            },
            "scroll",
            {"direction": "down", "amount": 3},
        ),
        ({"action": "double_click", "coordinate": [5, 5]}, "double_click", {}),
        ({"action": "right_click", "coordinate": [5, 5]}, "right_click", {}),
        ({"action": "wait", "duration": 2}, "wait", {"timeout": 2.0}),
        (
            {"action": "left_click_drag", "start_coordinate": [10, 10], "coordinate": [300, 200]},
            "drag",
            {},
        ),
    ],
)
def test_each_documented_action_becomes_a_clickwright_action(given, kind, fields):
    with ModelServer([anthropic_tool_use(given)], strict=True) as server:
        protocol, backend = talk(server)
        (action,) = turn(protocol, backend, Outcome(screen())).actions
    assert action.type == kind
    for name, value in fields.items():
        assert getattr(action, name) == value


def test_a_key_text_with_two_combinations_is_two_actions():
    with ModelServer([anthropic_tool_use({"action": "key", "text": "ctrl+a Delete"})]) as server:
        protocol, backend = talk(server)
        actions = turn(protocol, backend, Outcome(screen())).actions
    assert [a.keys for a in actions] == [("ctrl", "a"), ("delete",)]


def test_a_pointer_move_hovers_and_presses_and_lookups_are_answered_without_acting():
    replies = [
        anthropic_tool_use({"action": "mouse_move", "coordinate": [100, 100]}),
        anthropic_tool_use({"action": "cursor_position"}),
        anthropic_tool_use({"action": "left_mouse_down"}),
        anthropic_tool_use({"action": "mouse_move", "coordinate": [400, 250]}),
        anthropic_tool_use({"action": "left_mouse_up"}),
        anthropic_tool_use({"action": "left_click"}),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)

        def acted(reading):
            for action in reading.actions:
                protocol.pointer.follow(action)
            return turn(protocol, backend, Outcome(screen(), carried_out=len(reading.actions)))

        first = turn(protocol, backend, Outcome(screen()))
        lookup = acted(first)
        press = turn(protocol, backend)
        second = turn(protocol, backend)
        release = acted(second)
        click = acted(release)
    assert [a.type for a in first.actions + second.actions] == ["hover", "hover"]
    assert lookup.actions == press.actions == ()
    (drag,) = release.actions
    image = protocol.image(screen())
    start, end = image.to_model(*drag.source.point), image.to_model(*drag.to.point)
    assert max(abs(start[0] - 100), abs(start[1] - 100)) <= 1
    assert max(abs(end[0] - 400), abs(end[1] - 250)) <= 1
    (last,) = click.actions
    assert last.target.point == drag.to.point  # the pointer stayed where the drag ended
    position = server.requests[2].body["messages"][-1]["content"][0]["content"]
    assert position == [{"type": "text", "text": "X=100,Y=100"}]


def test_every_click_button_count_held_key_and_hold_is_a_real_action():
    replies = [
        anthropic_tool_use({"action": "triple_click", "coordinate": [5, 5]}),
        anthropic_tool_use({"action": "middle_click", "coordinate": [5, 5]}),
        anthropic_tool_use({"action": "left_click", "coordinate": [5, 5], "text": "shift"}),
        anthropic_tool_use({"action": "hold_key", "text": "ctrl", "duration": 2}),
        anthropic_tool_use(
            {
                "action": "scroll",
                "coordinate": [5, 5],
                "scroll_direction": "up",
                "scroll_amount": 2,
                "text": "ctrl",
            }
        ),  # fmt: skip
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        readings = [turn(protocol, backend, Outcome(screen()))]
        for _ in range(4):
            readings.append(turn(protocol, backend, Outcome(screen(), carried_out=1)))
    actions = [r.actions[0] for r in readings]
    assert [a.type for a in actions] == [
        "triple_click", "middle_click", "click", "hold_key", "scroll"
    ]  # fmt: skip
    assert actions[2].keys == ("shift",) and actions[4].keys == ("ctrl",)
    assert (actions[3].keys, actions[3].duration) == (("ctrl",), 2.0)


def test_zoom_sends_the_region_at_full_resolution():
    first = screen()
    replies = [
        anthropic_tool_use({"action": "zoom", "region": [100, 200, 400, 350]}),
        anthropic_answer("ok"),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        assert turn(protocol, backend, Outcome(first)).actions == ()
        turn(protocol, backend)
    (result,) = server.requests[1].body["messages"][2]["content"]
    (zoomed,) = result["content"]
    image = protocol.image(first)
    box = image.box_to_frame(100, 200, 400, 350)
    assert np.array_equal(decode(zoomed), first.frame.pixels[box.y : box.bottom, box.x : box.right])
    assert (
        abs(box.w - 300 / doc_scale(1920, 1080)) <= 2
        and abs(box.h - 150 / doc_scale(1920, 1080)) <= 2
    )


def test_zoom_is_an_error_on_the_older_tool_version():
    replies = [
        anthropic_tool_use({"action": "zoom", "region": [0, 0, 10, 10]}),
        anthropic_answer("ok"),
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server, "claude-sonnet-4-5")
        reading = turn(protocol, backend, Outcome(screen()))
        turn(protocol, backend)
    assert "zoom is not part of computer_20250124" in reading.problem
    (result,) = server.requests[1].body["messages"][2]["content"]
    assert result["is_error"] is True


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"action": "left_click", "coordinate": [5000, 10]}, "are outside display bounds"),
        ({"action": "hold_key", "text": "shift", "duration": 90}, "duration=90"),
        ({"action": "mouse_move"}, "mouse_move needs a coordinate"),
        (
            {
                "action": "scroll",
                "scroll_direction": "sideways",
                "scroll_amount": 2,
                "coordinate": [1, 1],
            },
            "scroll_direction",
        ),
        ({"action": "key", "text": "hyper+q"}, "unknown key"),
        ({"action": "left_click"}, "pointer has not been placed"),
        ({"action": "dance"}, "unknown action"),
    ],
)
def test_what_cannot_be_done_here_is_an_error_result_with_the_reason(given, said):
    with ModelServer([anthropic_tool_use(given), anthropic_answer("ok")], strict=True) as server:
        protocol, backend = talk(server)
        reading = turn(protocol, backend, Outcome(screen()))
        turn(protocol, backend)
    assert said in reading.problem and reading.actions == ()
    (result,) = server.requests[1].body["messages"][2]["content"]
    assert result["is_error"] is True and said in result["content"][0]["text"]


def test_only_the_last_screenshots_stay_in_the_conversation():
    replies = [anthropic_tool_use({"action": "screenshot"}) for _ in range(4)] + [
        anthropic_answer("ok")
    ]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)  # keeps 3
        turn(protocol, backend, Outcome(screen()))
        for _ in range(4):
            turn(protocol, backend)
    last = server.requests[-1].body["messages"]
    images = [b for m in last for b in _blocks(m) if b.get("type") == "image"]
    omitted = [
        b for m in last for b in _blocks(m) if b.get("text", "").startswith("(an older screenshot")
    ]
    assert len(images) == 3 and len(omitted) == 2


def _blocks(message: dict) -> list[dict]:
    blocks = []
    for block in message["content"]:
        blocks.append(block)
        if block.get("type") == "tool_result":
            blocks += block["content"]
    return blocks


def test_a_question_is_asked_and_the_answer_goes_back_with_the_screen():
    replies = [anthropic_answer("Which plan should Ada get?"), anthropic_answer("Done.")]
    with ModelServer(replies, strict=True) as server:
        protocol, backend = talk(server)
        (question,) = turn(protocol, backend, Outcome(screen())).actions
        assert question.type == "ask_user" and question.question == "Which plan should Ada get?"
        said = "The user answered 'Which plan should Ada get?': Pro"  # as the loop notes it
        turn(protocol, backend, Outcome(screen(), 1, notes=(said,)))
    shot, answer = server.requests[1].body["messages"][2]["content"]
    assert shot["type"] == "image" and answer == {"type": "text", "text": said}


# ---- the actor role through the protocol ---------------------------------------------------


def actor(server: ModelServer, state: RunState, model: str = "claude-opus-4-5") -> ProtocolActor:
    backend = AnthropicBackend(model, api_key="k", base_url=server.url, backoff=0.01)
    config = BackendSettings("anthropic", model, server.url, timeout=5)
    return ProtocolActor(backend, config, state, None, choose("anthropic", model))


def test_the_actor_hands_out_one_action_a_step_and_counts_every_call(tmp_path):
    state = run_state(tmp_path)
    replies = [
        anthropic_tool_use({"action": "screenshot"}),
        anthropic_tool_use(
            {"action": "left_click", "coordinate": [50, 60]}, {"action": "type", "text": "Ada"}
        ),
        anthropic_answer("All done."),
    ]
    with ModelServer(replies, strict=True) as server:
        role = actor(server, state)
        first, image = role.decide(screen())
        assert role.protocol.pointer.at == first.action.target.point  # "the cursor" is there now
        second, _ = role.decide(screen(seed=4))
        third, _ = role.decide(screen(seed=5))
    assert image.size == (1920, 1080) and image.scale == 1  # points are frame pixels already
    assert [first.action.type, second.action.type, third.action.type] == ["click", "type", "done"]
    assert len(server.requests) == 3  # the type came from the same answer as the click
    assert state.usage.calls == 3 and state.usage.input_tokens == 1500 * 2 + 11
    calls = (state.log.dir / "model_calls.jsonl").read_text().splitlines()
    assert len(calls) == 3
    assert "POST /v1/messages" in calls[0] and "<PNG 1429x804" in calls[0]


def test_unusable_answers_end_the_step_after_the_run_s_tries(tmp_path):
    state = run_state(tmp_path, answer_tries=2)
    replies = [anthropic_tool_use({"action": "dance"}), anthropic_tool_use({"action": "dance"})]
    with ModelServer(replies, strict=True) as server:
        role = actor(server, state)
        with pytest.raises(StepFailed, match="no usable answer in 2 tries; last problem: unknown"):
            role.decide(screen())


def test_the_dry_run_preview_is_the_exact_first_request(tmp_path):
    with ModelServer([], strict=True) as server:
        role = actor(server, run_state(tmp_path))
        text = role.preview(screen())
    assert not server.requests
    assert text.startswith("POST /v1/messages\nanthropic-beta: computer-use-2025-11-24\n\n{")
    assert '"type": "computer_20251124"' in text and '"display_width_px": 1429' in text
    assert "<PNG 1429x804," in text
