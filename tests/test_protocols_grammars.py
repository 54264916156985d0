"""UI-TARS's and Qwen-VL's own action grammars: recorded answers from their repositories and
model cards read into actions, requests checked through the real `openai` SDK on the
OpenAI-compatible chat path (vLLM, Ollama, LM Studio), a closer look on a dense screen, and a
tiny local Qwen2.5-VL on the transformers path."""

from __future__ import annotations

import base64
import json
import math

import cv2
import numpy as np
import pytest
from model_server import ModelServer, openai_answer
from scripted_model import pattern_screen as screen
from scripted_model import run_state

from clickwright.agent.backends.openai_compat import OpenAICompatBackend
from clickwright.agent.config import BackendSettings
from clickwright.agent.protocols.actor import ProtocolActor
from clickwright.agent.protocols.base import Outcome, choose
from clickwright.agent.protocols.qwen_vl import QwenVL
from clickwright.agent.protocols.ui_tars import UITars, prompts
from clickwright.agent.screen_scaling import ImageLimits, smart_resize
from clickwright.errors import StepFailed

TASK = "Open the Advanced tab"


def ui_tars(model: str = "ByteDance-Seed/UI-TARS-1.5-7B", device: str = "desktop") -> UITars:
    return UITars(choose("openai", model), TASK, device, 2)


def qwen(model: str, device: str = "desktop") -> QwenVL:
    return QwenVL(choose("openai", model), TASK, device, 2)


def call(name: str = "computer_use", **arguments) -> str:
    """A Qwen answer calling its function, in the cookbooks' <tool_call> form."""
    body = json.dumps({"name": name, "arguments": arguments})
    return f"<tool_call>\n{body}\n</tool_call>"


def answer(protocol, text: str, shown=None):
    protocol.observe(Outcome(shown or screen()))
    protocol.request()
    return protocol.read(text)


def repo_point(x: float, y: float, width: int = 1920, height: int = 1080) -> tuple[int, int]:
    """README_coordinates.md's own mapping of a UI-TARS-1.5 point to the screen."""
    new_height, new_width = repo_smart_resize(height, width)
    return (int(x / new_width * width), int(y / new_height * height))


def repo_smart_resize(
    height, width, factor=28, min_pixels=100 * 28 * 28, max_pixels=16384 * 28 * 28
):
    """codes/ui_tars/action_parser.py's smart_resize, as written there."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def near(point, expected, slack: int = 1) -> bool:
    return abs(point[0] - expected[0]) <= slack and abs(point[1] - expected[1]) <= slack


# ---- UI-TARS -----------------------------------------------------------------------------------

# Answers as UI-TARS's repository records them: README.md, README_coordinates.md,
# README_deploy.md ("Expected Output") and codes/tests/action_parser_test.py.
RECORDED = [
    ("Thought: Click the button\nAction: click(start_box='(100,200)')", (100, 200)),
    ("Thought: xxx\nAction: click(start_box='(197,525)')", (197, 525)),
    ("Thought: test\nAction: click(point='<point>200 300</point>')", (200, 300)),
    (
        "Thought: 我看到Preferences窗口已经打开了，但这里显示的都是系统资源相关的设置。"
        "要设置图片的颜色模式，我得先看看左侧的选项列表。嗯，"
        '"Color Management"这个选项看起来很有希望，应该就是处理颜色管理的地方。'
        "让我点击它看看里面有什么选项。\nAction: click(start_box='(177,549)')",
        (177, 549),
    ),
    ("Action: click(start_box='<|box_start|>(640,360)<|box_end|>')", (640, 360)),
]


@pytest.mark.parametrize(("text", "point"), RECORDED)
def test_recorded_ui_tars_answers_land_where_its_own_parser_puts_them(text, point):
    reading = answer(ui_tars(), text)
    (click,) = reading.actions
    assert click.type == "click"
    assert near(click.target.point, repo_point(*point))


def test_ui_tars_images_are_what_its_processor_would_make():
    protocol = ui_tars()
    assert protocol.image(screen()).size == (1932, 1092)
    assert repo_smart_resize(1080, 1920) == (1092, 1932)
    assert smart_resize(1080, 1920, 28, 78_400, 12_845_056) == (1092, 1932)


@pytest.mark.parametrize(
    ("action", "kind", "fields"),
    [
        ("hotkey(key='ctrl v')", "hotkey", {"keys": ("ctrl", "v")}),
        ("hotkey(key='ctrl shift t')", "hotkey", {"keys": ("ctrl", "shift", "t")}),
        ("type(content='Ada Lovelace')", "type", {"text": "Ada Lovelace", "enter": False}),
        ("type(content='hello world\\n')", "type", {"text": "hello world", "enter": True}),
        ("type(content='it\\'s \"quoted\"')", "type", {"text": 'it\'s "quoted"'}),
        ("left_double(point='<point>10 20</point>')", "double_click", {}),
        ("right_single(point='<point>10 20</point>')", "right_click", {}),
        (
            "scroll(point='<point>500 500</point>', direction='down')",
            "scroll",
            {"direction": "down", "amount": 5},
        ),
        ("wait()", "wait", {"timeout": 5}),
        ("finished(content='The tab is open.')", "done", {"summary": "The tab is open."}),
    ],
)
def test_each_ui_tars_action_of_its_prompt_becomes_a_clickwright_action(action, kind, fields):
    (got,) = answer(ui_tars(), f"Thought: do it.\nAction: {action}").actions
    assert got.type == kind
    for name, value in fields.items():
        assert getattr(got, name) == value


def test_a_ui_tars_drag_and_several_actions_in_one_answer():
    text = (
        "Thought: drag the slider, then confirm.\n"
        "Action: drag(start_point='<point>100 100</point>', end_point='<point>400 100</point>')\n\n"
        "hotkey(key='enter')"
    )
    drag, enter = answer(ui_tars(), text).actions
    assert near(drag.source.point, repo_point(100, 100)) and near(
        drag.to.point, repo_point(400, 100)
    )
    assert enter.keys == ("enter",)


def test_ui_tars_1_0_answers_in_thousandths():
    (click,) = answer(ui_tars("ui-tars-7b-dpo"), "Action: click(start_box='(500,500)')").actions
    assert click.target.point == (960, 540)


def test_ui_tars_on_a_phone_speaks_the_mobile_action_space():
    protocol = ui_tars(device="android")
    assert "press_back()" in protocol.prompt and "left_double" not in protocol.prompt
    phone = screen(1080, 2400)
    actions = [
        answer(protocol, f"Action: {call}", phone).actions[0].type
        for call in ("long_press(point='<point>10 10</point>')", "press_back()", "press_home()",
                     "open_app(app_name='Settings')")
    ]  # fmt: skip
    assert actions == ["long_press", "back", "home", "launch"]


def test_an_unreadable_ui_tars_answer_is_a_problem_told_back():
    protocol = ui_tars()
    reading = answer(protocol, "I think I should click the Advanced tab.")
    assert 'no "Action:" line' in reading.problem
    protocol.request()
    last = protocol.request().messages[-1]
    assert "That answer could not be used" in last.content[0]


def test_the_ui_tars_request_on_the_wire(tmp_path):
    first, second = screen(seed=0), screen(seed=1)
    replies = [
        openai_answer(
            "Thought: The Advanced tab is at the top.\nAction: click(start_box='(300,40)')"
        ),
        openai_answer("Thought: Done.\nAction: finished(content='ok')"),
    ]
    with ModelServer(replies) as server:
        backend = OpenAICompatBackend("ui-tars-1.5-7b", base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", "ui-tars-1.5-7b", server.url + "/v1", timeout=5)
        state = run_state(tmp_path, TASK)
        role = ProtocolActor(backend, config, state, None, choose("openai", "ui-tars-1.5-7b"))
        role.decide(first)
        role.decide(second)
    body = server.requests[1].body
    assert body["model"] == "ui-tars-1.5-7b" and body["max_tokens"] == 400
    assert body["temperature"] == 0.0
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "user", "assistant", "user"]
    assert body["messages"][0]["content"] == "You are a helpful assistant."
    expected = prompts()["computer_use"].format(language="English", instruction=TASK)
    assert body["messages"][1]["content"] == expected
    assert (
        expected.startswith("You are a GUI agent.")
        and "## User Instruction\nOpen the Advanced" in expected
    )
    assert body["messages"][3]["content"].endswith(
        "click(start_box='<|box_start|>(300,40)<|box_end|>')"
    )
    (image,) = body["messages"][4]["content"]
    raw = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
    assert cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR).shape == (1092, 1932, 3)


def test_only_five_ui_tars_screenshots_stay_in_the_conversation():
    protocol = ui_tars()
    for seed in range(7):
        protocol.observe(Outcome(screen(seed=seed)))
        protocol.read("Action: wait()")
    messages = protocol.request().messages
    images = [part for m in messages for part in m.content if not isinstance(part, str)]
    assert len(images) == 5 and [m.role for m in messages].count("assistant") == 7


# ---- a closer look on a dense screen -----------------------------------------------------------


def test_a_dense_screen_gets_a_closer_look_and_the_point_lands_within_a_pixel(tmp_path):
    """A 4K screen for a model that sees about a megapixel: its first point can be off by
    the 3 screen pixels each of its pixels covers; the crop at full resolution fixes that."""
    big = screen(3840, 2160)
    intended = (3001, 1507)
    spec = choose("openai", "ui-tars-1.5-7b")
    spec = type(spec)(
        spec.protocol,
        spec.model,
        spec.tool,
        spec.coords,
        ImageLimits(factor=28, max_pixels=1280 * 28 * 28),
    )
    coarse = spec.limits.fit(big.frame.pixels)
    cx, cy = coarse.to_model(*intended)
    off = (int(cx) + 1, int(cy))  # a pixel of the small image: 3 screen pixels each way
    first = f"Thought: The OK button of the dialog.\nAction: click(start_box='{off}')"

    def closer_look(request):
        prompt, image = request.body["messages"][1]["content"]
        assert (
            prompt["text"].startswith("You are a GUI agent.") and "The OK button" in prompt["text"]
        )
        raw = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
        crop = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
        # the crop is at full resolution: find the intended pixel in it by its colour
        target = cv2.cvtColor(
            big.frame.pixels[intended[1] : intended[1] + 1, intended[0] : intended[0] + 1],
            cv2.COLOR_RGB2BGR,
        )[0, 0]
        ys, xs = np.nonzero(np.all(crop == target, axis=-1))
        return openai_answer(f"Action: click(start_box='({xs[0]},{ys[0]})')")

    with ModelServer([openai_answer(first)], closer_look) as server:
        backend = OpenAICompatBackend("ui-tars-1.5-7b", base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", "ui-tars-1.5-7b", server.url + "/v1", timeout=5)
        role = ProtocolActor(backend, config, run_state(tmp_path, TASK), None, spec)
        decision, _ = role.decide(big)
    assert len(server.requests) == 2
    assert not near(coarse.to_frame(*off), intended, 1)  # the first try was off
    assert near(decision.action.target.point, intended)
    assert role.state.usage.calls == 2


# ---- Qwen-VL -----------------------------------------------------------------------------------

NOUS_HEAD = (
    "You are a helpful assistant.\n\n# Tools\n\nYou may call one or more functions to assist "
    "with the user query.\n\nYou are provided with function signatures within <tools></tools> "
    "XML tags:\n<tools>\n"
)
NOUS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)


def test_the_qwen2_5_vl_system_prompt_is_qwen_agent_s_nous_template():
    protocol = qwen("qwen2.5vl:7b")
    image = protocol.image(screen())
    assert image.size == (1932, 1092)
    system = protocol.system(image)
    assert system.startswith(NOUS_HEAD) and system.endswith(NOUS_TAIL)
    declared = json.loads(system[len(NOUS_HEAD) : -len(NOUS_TAIL)])
    function = declared["function"]
    assert declared["type"] == "function"
    assert list(function) == ["name_for_human", "name", "description", "parameters", "args_format"]
    assert (
        function["name"] == "computer_use"
        and function["args_format"] == "Format the arguments as a JSON object."
    )
    assert "* The screen's resolution is 1932x1092.\n" in function["description"]
    assert function["parameters"]["properties"]["action"]["enum"] == [
        "key", "type", "mouse_move", "left_click", "left_click_drag", "right_click",
        "middle_click", "double_click", "scroll", "wait", "terminate",
    ]  # fmt: skip


def test_the_qwen3_vl_system_prompt_declares_a_1000_grid_and_its_response_format():
    protocol = qwen("Qwen/Qwen3-VL-8B-Instruct")
    system = protocol.system(protocol.image(screen()))
    assert system.startswith("\n\n# Tools\n\nYou may call one or more functions")
    assert "The screen's resolution is 1000x1000." in system
    assert "1) Thought: one concise sentence" in system and system.endswith(
        "use action=terminate in the tool call."
    )
    assert '"name_for_human"' not in system and '"triple_click"' in system


def test_the_qwen_request_on_the_wire(tmp_path):
    reply = openai_answer(call(action="left_click", coordinate=[1240, 783]))
    with ModelServer([reply]) as server:
        backend = OpenAICompatBackend("qwen2.5vl:7b", base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", "qwen2.5vl:7b", server.url + "/v1", timeout=5)
        role = ProtocolActor(
            backend, config, run_state(tmp_path, TASK), None, choose("openai", "qwen2.5vl:7b")
        )
        decision, _ = role.decide(screen())
    body = server.requests[0].body
    system, user = body["messages"]
    assert system["role"] == "system" and system["content"].startswith(NOUS_HEAD)
    text, image = user["content"]
    assert text["text"] == (
        f"The user query: {TASK}.\nTask progress (You have done the following operation on the "
        "current device): .\n"
    )
    assert image["type"] == "image_url"
    assert near(decision.action.target.point, (1240 * 1920 / 1932, 783 * 1080 / 1092))


def test_qwen3_vl_s_recorded_answer_lands_where_its_cookbook_puts_it():
    """cookbooks/mobile_agent.ipynb's recorded output on its 1440x3120 phone screenshot, mapped
    back with the notebook's rescale_coordinates: round(x / 999 * width)."""
    recorded = (
        "Thought: To search for Musk in X, I need to click on the search bar at the top of the "
        "screen. This will allow me to type in the search query.\n"
        'Action: "I tapped on the search bar to begin searching for Musk."\n'
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [447, 81]}}\n</tool_call>'
    )
    protocol = qwen("qwen3-vl:8b", device="android")
    assert "The screen's resolution is 999x999." in protocol.system(
        protocol.image(screen(1440, 3120))
    )
    reading = answer(protocol, recorded, screen(1440, 3120))
    (tap,) = reading.actions
    assert tap.type == "click"
    assert near(tap.target.point, (round(447 / 999 * 1440), round(81 / 999 * 3120)))
    assert reading.thought.startswith("To search for Musk")
    assert protocol.steps == ["I tapped on the search bar to begin searching for Musk."]
    assert "Step 1: I tapped on the search bar" in protocol.query(TASK)


@pytest.mark.parametrize(
    ("arguments", "kind", "fields"),
    [
        ({"action": "key", "keys": ["ctrl", "c"]}, "hotkey", {"keys": ("ctrl", "c")}),
        ({"action": "key", "keys": ["Return"]}, "hotkey", {"keys": ("enter",)}),
        ({"action": "type", "text": "Ada"}, "type", {"text": "Ada"}),
        ({"action": "scroll", "pixels": -5}, "scroll", {"direction": "down", "amount": 5}),
        ({"action": "scroll", "pixels": 3}, "scroll", {"direction": "up", "amount": 3}),
        ({"action": "wait", "time": 2}, "wait", {"timeout": 2}),
        ({"action": "terminate", "status": "success"}, "done", {}),
        ({"action": "terminate", "status": "failure"}, "fail", {}),
        ({"action": "double_click", "coordinate": [10, 10]}, "double_click", {}),
        ({"action": "right_click", "coordinate": [10, 10]}, "right_click", {}),
    ],
)
def test_each_computer_use_action_becomes_a_clickwright_action(arguments, kind, fields):
    (got,) = answer(qwen("qwen2.5vl:7b"), call(**arguments)).actions
    assert got.type == kind
    for name, value in fields.items():
        assert getattr(got, name) == value


def test_qwen2_5_clicks_where_it_moved_the_pointer_and_drags_from_there():
    protocol = qwen("qwen2.5vl:7b")
    (hover,) = answer(protocol, call(action="mouse_move", coordinate=[966, 546])).actions
    assert hover.type == "hover"
    protocol.pointer.follow(hover)
    (got,) = answer(protocol, call(action="left_click")).actions
    assert got.target.point == (960, 540)
    (moved,) = answer(protocol, call(action="left_click_drag", coordinate=[0, 0])).actions
    assert moved.source.point == (960, 540) and moved.to.point == (0, 0)


def test_qwen3_triple_click_is_the_double_click_its_tool_says_and_answer_ends_the_task():
    protocol = qwen("qwen3-vl:8b")
    (got,) = answer(protocol, call(action="triple_click", coordinate=[500, 500])).actions
    assert got.type == "double_click" and got.target.point == (960, 540)
    (done,) = answer(protocol, call(action="answer", text="42")).actions
    assert done.type == "done" and done.summary == "42"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I would click the tab.", "calls no function"),
        (call("browser"), "no function 'browser'"),
        (call(action="dance", coordinate=[1, 1]), "unknown action"),
        (call(action="left_click", coordinate="here"), "must be [x, y]"),
    ],
)
def test_unusable_qwen_answers_are_told_back(text, said):
    protocol = qwen("qwen2.5vl:7b")
    reading = answer(protocol, text)
    assert said in reading.problem
    assert said in protocol.request().messages[1].content[0]


def test_the_actor_gives_up_after_the_run_s_tries_of_nonsense(tmp_path):
    replies = [openai_answer("I like turtles.") for _ in range(3)]
    with ModelServer(replies) as server:
        backend = OpenAICompatBackend("qwen2.5vl:7b", base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", "qwen2.5vl:7b", server.url + "/v1", timeout=5)
        role = ProtocolActor(
            backend, config, run_state(tmp_path, TASK), None, choose("openai", "qwen2.5vl:7b")
        )
        with pytest.raises(
            StepFailed,
            match="no usable answer in 3 tries; last problem: the answer calls no function",
        ):
            role.decide(screen())
    assert (
        "That answer could not be used"
        in server.requests[2].body["messages"][1]["content"][0]["text"]
    )


# ---- the transformers path, on a tiny Qwen2.5-VL ----------------------------------------------

torch = pytest.importorskip("torch", reason="the torch extra is not installed")
from test_transformers_backend import tiny_qwen  # noqa: E402,F401  (the fixture)


@pytest.mark.slow
def test_the_qwen_protocol_runs_on_a_local_model_at_its_processor_s_size(tiny_qwen, tmp_path):  # noqa: F811
    from clickwright.agent.backends.transformers_vlm import TransformersVLMBackend

    backend = TransformersVLMBackend(str(tiny_qwen), device="cpu")
    config = BackendSettings("transformers", str(tiny_qwen), timeout=60)
    spec = choose("transformers", "Qwen2.5-VL-tiny", "qwen-vl")
    role = ProtocolActor(backend, config, run_state(tmp_path, TASK), None, spec)
    image = role.protocol.image(screen(1280, 800))
    assert image.size == (140, 84)  # the processor's own budget, 112x112 pixels
    assert "The screen's resolution is 140x84." in role.protocol.system(image)
    with pytest.raises(StepFailed, match="no usable answer in 3 tries"):  # random weights
        role.decide(screen(1280, 800))
    calls = (role.state.log.dir / "model_calls.jsonl").read_text().splitlines()
    assert len(calls) == 3 and "[image 140x84]" in json.loads(calls[0])["prompt"]


def test_qwen_gets_its_closer_look_through_its_own_function(tmp_path):
    big = screen(3840, 2160)
    intended = (512, 1900)
    spec = choose("openai", "qwen2.5vl:7b")
    small = ImageLimits(factor=28, max_pixels=1280 * 28 * 28)
    spec = type(spec)(spec.protocol, spec.model, spec.tool, spec.coords, small)
    coarse = small.fit(big.frame.pixels)
    cx, cy = coarse.to_model(*intended)
    first = call(action="left_click", coordinate=[int(cx), int(cy) + 1])

    def closer_look(request):
        system, user = request.body["messages"]
        query, image = user["content"]
        crop_size = "{}x{}".format(*coarse.size)  # a crop the size of the model's image, 1:1
        assert f"The screen's resolution is {crop_size}." in system["content"]
        assert query["text"].startswith("The user query: ")
        raw = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
        crop = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
        pixel = big.frame.pixels[intended[1], intended[0]][::-1]
        ys, xs = np.nonzero(np.all(crop == pixel, axis=-1))
        return openai_answer(call(action="left_click", coordinate=[int(xs[0]), int(ys[0])]))

    with ModelServer([openai_answer(first)], closer_look) as server:
        backend = OpenAICompatBackend("qwen2.5vl:7b", base_url=server.url + "/v1", api_key="k")
        config = BackendSettings("openai", "qwen2.5vl:7b", server.url + "/v1", timeout=5)
        role = ProtocolActor(backend, config, run_state(tmp_path, TASK), None, spec)
        decision, _ = role.decide(big)
    assert len(server.requests) == 2
    assert near(decision.action.target.point, intended)
