"""Qwen2.5-VL's and Qwen3-VL's `computer_use` (and `mobile_use`) function, for Qwen served by
vLLM, Ollama, LM Studio or transformers.

As the QwenLM cookbooks do it (cookbooks/utils/agent_function_call.py and qwen_agent's
NousFnCallPrompt for Qwen2.5-VL; cookbooks/mobile_agent.ipynb for Qwen3-VL): the system prompt
declares the function inside <tools></tools>, with the screen's resolution in its description;
the user turn holds the task, the steps done so far and the screenshot; the answer calls the
function as `<tool_call>{"name": "computer_use", "arguments": {"action": "left_click",
"coordinate": [x, y]}}</tool_call>`. Qwen2.5-VL is told the size of the smart-resized image it
sees and answers in its pixels; Qwen3-VL is told the screen is 1000x1000 (a phone 999x999) and
answers on that grid. Function texts and prompts are in assets/qwen_vl_tools.json.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from json_repair import loads as repair_loads

from clickwright.agent.backends.base import Message
from clickwright.agent.protocols.base import (
    ChatRequest,
    ModelSpec,
    Outcome,
    Protocol,
    Reading,
    key_name,
)
from clickwright.agent.screen_scaling import ScaledImage, from_grid, to_frame_point
from clickwright.errors import ActionError
from clickwright.types import (
    Action,
    Back,
    Click,
    Done,
    DoubleClick,
    Drag,
    Fail,
    Home,
    Hotkey,
    Hover,
    Launch,
    LongPress,
    MiddleClick,
    RightClick,
    Scroll,
    Target,
    Type,
    Wait,
)

MAX_TOKENS = 512
CLICKS = {
    "left_click": Click,
    "right_click": RightClick,
    "double_click": DoubleClick,
    "middle_click": MiddleClick,
}
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S)
_LABEL = re.compile(r"^\s*(Thought|Action):\s*(.+?)\s*$", re.M)


@cache
def tools() -> dict[str, Any]:
    text = resources.files("clickwright.assets").joinpath("qwen_vl_tools.json").read_text()
    return json.loads(text)


class QwenVL(Protocol):
    name = "qwen-vl"
    focusable = True

    def __init__(self, spec: ModelSpec, task: str, device_kind: str, screenshots: int) -> None:
        super().__init__(spec, task, device_kind, screenshots)
        version = tools()[spec.tool]
        self.tool = "mobile_use" if device_kind == "android" else "computer_use"
        self.template: str = version["system"]
        self.function: dict[str, Any] = version["tools"][self.tool]["function"]
        grid = version["tools"][self.tool]["grid"]
        self.grid: tuple[int, int] | None = tuple(grid) if grid else None  # type: ignore[assignment]
        self.steps: list[str] = []
        """What was done so far, one line a step (the cookbook's "Task progress")."""
        self.outcome: Outcome | None = None
        self.problem = ""

    def observe(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def system(self, image: ScaledImage) -> str:
        """The function declaration, with the resolution the model is told."""
        function = copy.deepcopy(self.function)
        width, height = image.size
        function["description"] = (
            function["description"].replace("{width}", str(width)).replace("{height}", str(height))
        )
        declared = json.dumps({"type": "function", "function": function}, ensure_ascii=False)
        return self.template.replace("{tools}", declared)

    def query(self, task: str) -> str:
        progress = "".join(f"Step {i}: {step}; " for i, step in enumerate(self.steps, 1))
        return (
            f"The user query: {task}.\nTask progress (You have done the following operation "
            f"on the current device): {progress}.\n"
        )

    def request(self) -> ChatRequest:
        assert self.outcome is not None, "observe the first screen before asking"
        image = self.image(self.outcome.screen)
        told = [self.query(self.task), *self._told()]
        messages = (
            Message("system", [self.system(image)]),
            Message("user", ["\n".join(told), image.pixels]),
        )
        return ChatRequest(messages, MAX_TOKENS)

    def _told(self) -> list[str]:
        outcome = self.outcome
        assert outcome is not None
        told = list(outcome.notes)
        if outcome.feedback:
            told.append(f"The last action did not work: {outcome.feedback}")
        if self.problem:
            told.append(self.problem)
        return told

    def read(self, reply: Mapping[str, Any] | str) -> Reading:
        assert isinstance(reply, str) and self.outcome is not None
        image = self.image(self.outcome.screen)
        self.outcome = Outcome(self.outcome.screen)  # told once
        self.problem = ""
        thought, summary = _labels(reply)
        try:
            calls = self._calls(reply)
            actions = [a for arguments in calls for a in self._act(arguments, image, thought)]
        except ActionError as error:
            self.problem = (
                f"That answer could not be used: {error}. Call {self.tool} once, inside "
                "<tool_call></tool_call>."
            )
            return Reading(thought, problem=str(error))
        self.steps.append(summary or thought or json.dumps(calls[0], ensure_ascii=False))
        return Reading(thought, tuple(actions), target=summary or thought)

    def _calls(self, text: str) -> list[dict[str, Any]]:
        """The arguments of every function call in the answer."""
        calls = []
        for body in _TOOL_CALL.findall(text):
            try:
                call = repair_loads(body)
            except (ValueError, RecursionError):
                call = None
            if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
                raise ActionError(f"cannot read the tool call {body.strip()[:80]!r}")
            if call.get("name") != self.tool:
                raise ActionError(f"there is no function {call.get('name')!r}; call {self.tool}")
            calls.append(call["arguments"])
        if not calls:
            raise ActionError("the answer calls no function")
        return calls

    def _act(self, args: Mapping[str, Any], image: ScaledImage, thought: str) -> list[Action]:
        action = args.get("action")
        pointer = self.pointer
        if action in CLICKS or action in ("triple_click", "click", "long_press"):
            where = self._target(args, "coordinate", image, required=False)
            target = where or pointer.target(str(action))
            if action == "long_press":
                return [LongPress(target=target, duration=_seconds(args, "time", 1.0))]
            if action == "triple_click":  # as the Qwen3-VL tool itself says: a double-click
                return [DoubleClick(target=target)]
            return [CLICKS.get(str(action), Click)(target=target)]
        if action == "mouse_move":
            return [Hover(target=self._target(args, "coordinate", image))]
        if action in ("left_click_drag", "swipe"):
            if action == "swipe":
                start = self._target(args, "coordinate", image)
                end = self._target(args, "coordinate2", image)
            else:
                start, end = pointer.target(action), self._target(args, "coordinate", image)
            return [Drag(**{"from": start, "to": end})]
        if action in ("scroll", "hscroll"):
            pixels = args.get("pixels")
            if not isinstance(pixels, int | float) or isinstance(pixels, bool) or pixels == 0:
                raise ActionError(f"pixels={pixels!r} must be a non-zero number")
            if action == "scroll":
                direction = "up" if pixels > 0 else "down"
            else:
                direction = "right" if pixels > 0 else "left"
            amount = min(50, max(1, round(abs(pixels))))
            where = self._target(args, "coordinate", image, required=False)
            target = where or (pointer.target(action) if pointer.at else None)
            return [Scroll(direction=direction, amount=amount, target=target)]
        if action == "key":
            keys = args.get("keys", args.get("text"))
            keys = [keys] if isinstance(keys, str) else keys
            if not isinstance(keys, list) or not keys:
                raise ActionError("key needs keys")
            return [Hotkey(keys=tuple(key_name(str(k)) for k in keys))]
        if action == "type":
            text = args.get("text")
            if not isinstance(text, str) or not text:
                raise ActionError("type needs text")
            return [Type(text=text)]
        if action == "system_button":
            button = args.get("button")
            if button == "Enter":
                return [Hotkey(keys=("enter",))]
            if button in ("Back", "Home"):
                return [Back() if button == "Back" else Home()]
            raise ActionError(f"this phone has no {button!r} button to press")
        if action == "open":
            return [Launch(app=str(args.get("text") or ""))]
        if action == "wait":
            return [Wait(timeout=_seconds(args, "time", 2.0))]
        if action == "answer":
            return [Done(summary=str(args.get("text") or thought))]
        if action == "terminate":
            if args.get("status") == "failure":
                return [Fail(reason=thought or "the model says the task failed")]
            return [Done(summary=thought)]
        raise ActionError(f"unknown action {action!r}")

    def _target(
        self, args: Mapping[str, Any], name: str, image: ScaledImage, required: bool = True
    ) -> Target | None:
        value = args.get(name)
        if value is None and not required:
            return None
        if not (
            isinstance(value, list | tuple)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            raise ActionError(f"{name}={value!r} must be [x, y]")
        return Target(point=self._point((value[0], value[1]), image))

    def _point(self, point: tuple[float, float], image: ScaledImage) -> tuple[int, int]:
        if self.grid is None:
            return to_frame_point(point, image, "pixels")
        return from_grid(point, self.grid, image)

    # ---- a closer look at a dense screen ----------------------------------------------------

    def focus_request(self, reading: Reading, crop: ScaledImage) -> ChatRequest:
        query = f"The user query: {reading.target or self.task}.\n"
        messages = (Message("system", [self.system(crop)]), Message("user", [query, crop.pixels]))
        return ChatRequest(messages, MAX_TOKENS)

    def focus_point(self, text: str, crop: ScaledImage) -> tuple[int, int]:
        for args in self._calls(text):
            value = args.get("coordinate")
            if isinstance(value, list | tuple) and len(value) == 2:
                return self._point((float(value[0]), float(value[1])), crop)
        raise ActionError("the closer look named no point")


def _labels(text: str) -> tuple[str, str]:
    """The `Thought:` and `Action:` lines Qwen3-VL writes; Qwen2.5-VL's prose is its thought."""
    labels = {m[1]: m[2].strip().strip('"') for m in _LABEL.finditer(text.split("<tool_call>")[0])}
    if labels:
        return labels.get("Thought", ""), labels.get("Action", "")
    return " ".join(text.split("<tool_call>")[0].split()), ""


def _seconds(args: Mapping[str, Any], name: str, default: float) -> float:
    value = args.get(name, default)
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 600:
        raise ActionError(f"{name}={value!r} must be seconds, above 0 and at most 600")
    return float(value)
