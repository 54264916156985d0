"""OpenAI's computer tool in the Responses API.

As the computer-use guide, the API reference (the `openai` SDK's `ResponseComputerToolCall`
and `ComputerCallOutput` types) and openai-cua-sample-app do it: the research preview model
gets the `computer_use_preview` tool with the display size and environment; the task and the
first screenshot go in as a user message; each answer's `computer_call` carries one `action`
(the GA `computer` tool: a list of `actions`) with coordinates in display pixels; the reply is a
`computer_call_output` with the new screenshot, chained to the answer by
`previous_response_id`, with `truncation: "auto"` so a long run stays within the context.

`pending_safety_checks` are never acknowledged by the protocol: they are raised as a flag on
the action, the executor's approval asks the person about them, and only an action the person
approved has its checks sent back as `acknowledged_safety_checks`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from clickwright.agent.backends.base import WireRequest, png_base64
from clickwright.agent.protocols.base import (
    ModelSpec,
    Outcome,
    Protocol,
    ProtocolError,
    Reading,
    finished,
    key_name,
)
from clickwright.agent.safety import Flag
from clickwright.agent.screen_scaling import ScaledImage, to_frame_point
from clickwright.errors import ActionError
from clickwright.types import (
    Action,
    Click,
    DoubleClick,
    Drag,
    Hotkey,
    Hover,
    MiddleClick,
    RightClick,
    Scroll,
    Target,
    Type,
    Wait,
)

PATH = "/v1/responses"
SCROLL_PIXELS = 100
"""Pixels of a `scroll_x`/`scroll_y` per wheel click (a browser's wheel step)."""
ENVIRONMENTS = {"linux": "linux", "win32": "windows", "darwin": "mac"}
BUTTONS = {"left": Click, "right": RightClick, "wheel": MiddleClick, "middle": MiddleClick}


class OpenAIComputer(Protocol):
    name = "openai-computer"

    def __init__(self, spec: ModelSpec, task: str, device_kind: str, screenshots: int) -> None:
        super().__init__(spec, task, device_kind, screenshots)
        if device_kind == "android":
            raise ProtocolError(
                "OpenAI's computer tool drives desktops and browsers, not phones",
                'use protocol = "json" for this model on a phone',
            )
        self.preview = spec.tool == "computer_use_preview"
        self.previous_id = ""
        self.call_id = ""
        """The computer_call the next request answers ("" when the model sent none)."""
        self.checks: list[dict[str, Any]] = []
        self.flag: Flag | None = None
        self.outcome: Outcome | None = None
        self.problem = ""

    def observe(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def request(self) -> WireRequest:
        assert self.outcome is not None, "observe the first screen before asking"
        image = self.image(self.outcome.screen)
        body: dict[str, Any] = {"model": self.spec.model, "tools": [self._tool(image)]}
        if self.previous_id:
            body["previous_response_id"] = self.previous_id
        body["input"] = self._input(image)
        body["reasoning"] = {"summary": "concise"}
        body["truncation"] = "auto"
        return WireRequest(PATH, body)

    def _tool(self, image: ScaledImage) -> dict[str, Any]:
        if not self.preview:
            return {"type": self.spec.tool}
        return {
            "type": "computer_use_preview",
            "display_width": image.size[0],
            "display_height": image.size[1],
            "environment": ENVIRONMENTS.get(sys.platform, "linux"),
        }

    def _input(self, image: ScaledImage) -> list[dict[str, Any]]:
        outcome = self.outcome
        assert outcome is not None
        url = f"data:image/png;base64,{png_base64(image.pixels)}"
        if not self.previous_id:
            content = [
                {"type": "input_text", "text": self.task},
                {"type": "input_image", "image_url": url},
            ]
            return [{"role": "user", "content": content}]
        items: list[dict[str, Any]] = []
        if self.call_id:
            shot: dict[str, Any] = {"type": "computer_screenshot", "image_url": url}
            if not self.preview:
                shot["detail"] = "original"
            item: dict[str, Any] = {
                "type": "computer_call_output",
                "call_id": self.call_id,
                "output": shot,
            }
            if self.checks and self.flag is not None and self.flag.approved:
                item["acknowledged_safety_checks"] = self.checks
            items.append(item)
        texts = list(outcome.notes)
        if outcome.feedback:
            texts.append(f"That did not work: {outcome.feedback}")
        if self.problem:
            texts.append(self.problem)
        if texts or not self.call_id:
            content = [{"type": "input_text", "text": "\n".join(texts) or "continue"}]
            if not self.call_id:  # the model ended its turn: show it the screen as it is now
                content.append({"type": "input_image", "image_url": url})
            items.append({"role": "user", "content": content})
        return items

    def read(self, reply: Mapping[str, Any] | str) -> Reading:
        assert isinstance(reply, Mapping) and self.outcome is not None
        image = self.image(self.outcome.screen)
        self.outcome = Outcome(self.outcome.screen)  # told once
        self.previous_id = str(reply.get("id", ""))
        self.problem = ""
        output = [item for item in reply.get("output", []) if isinstance(item, Mapping)]
        thought = " ".join(_texts(output)).strip()
        calls = [item for item in output if item.get("type") == "computer_call"]
        self.call_id, self.checks, self.flag = "", [], None
        if not calls:
            if reply.get("status") == "incomplete":
                self.problem = "Your answer was cut off; answer with one action."
                return Reading(thought, problem="the answer was incomplete")
            return Reading(thought, (finished(thought),))
        call = calls[-1]
        self.call_id = str(call.get("call_id", ""))
        self.checks = [
            {k: v for k, v in check.items() if k in ("id", "code", "message")}
            for check in _listed(call.get("pending_safety_checks"))
            if isinstance(check, Mapping)
        ]
        given = call.get("actions") or [call.get("action") or {}]
        actions: list[Action] = []
        try:
            if not isinstance(given, list):
                raise ActionError(f"actions={given!r} must be a list of action objects")
            for step in given:
                if not isinstance(step, Mapping):
                    raise ActionError(f"{step!r} is not an action object")
                actions.extend(self._act(step, image))
        except ActionError as error:
            self.problem = f"That action cannot be done here: {error}"
            return Reading(thought, problem=str(error))
        if not actions:  # a screenshot, a pointer move: the next request answers it
            return Reading(thought)
        if self.checks:
            said = "; ".join(str(c.get("message") or c.get("code") or "") for c in self.checks)
            self.flag = Flag(f"OpenAI's safety check: {said.strip('; ') or 'flagged'}")
        return Reading(thought, tuple(actions), flag=self.flag)

    def _act(self, given: Mapping[str, Any], image: ScaledImage) -> list[Action]:
        kind = given.get("type")
        held = _held(given) if kind != "keypress" else ()
        if kind in ("click", "double_click"):
            target = Target(point=self._point(given, image))
            if kind == "double_click":
                return [DoubleClick(target=target, keys=held)]
            button = given.get("button", "left")
            if not isinstance(button, str) or button not in BUTTONS:
                raise ActionError(f"this computer has no {button!r} button click")
            return [BUTTONS[button](target=target, keys=held)]
        if kind == "type":
            text = given.get("text")
            if not isinstance(text, str) or not text:
                raise ActionError("type needs text")
            return [Type(text=text)]
        if kind == "keypress":
            keys = given.get("keys")
            if not isinstance(keys, list) or not keys:
                raise ActionError("keypress needs keys")
            return [Hotkey(keys=tuple(key_name(str(k)) for k in keys))]
        if kind == "scroll":
            scroll = _scroll(given, Target(point=self._point(given, image)))
            return [scroll.model_copy(update={"keys": held})]
        if kind == "drag":
            path = given.get("path")
            if not isinstance(path, list) or len(path) < 2:
                raise ActionError("drag needs a path of at least two points")
            start, end = (Target(point=self._point(_xy(p), image)) for p in (path[0], path[-1]))
            return [Drag(**{"from": start, "to": end})]
        if kind == "wait":
            return [Wait(timeout=2)]
        if kind == "move":
            return [Hover(target=Target(point=self._point(given, image)))]
        if kind == "screenshot":
            return []
        raise ActionError(f"unknown action {kind!r}")

    def _point(self, given: Mapping[str, Any], image: ScaledImage) -> tuple[int, int]:
        x, y = given.get("x"), given.get("y")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
            raise ActionError(f"x={x!r}, y={y!r} must be numbers")
        width, height = image.size
        if not (0 <= x < width and 0 <= y < height):  # type: ignore[operator]
            raise ActionError(f"({x}, {y}) is outside the display ({width}x{height})")
        return to_frame_point((x, y), image, "pixels")  # type: ignore[arg-type]


def _scroll(given: Mapping[str, Any], target: Target) -> Scroll:
    dx, dy = given.get("scroll_x", 0), given.get("scroll_y", 0)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (dx, dy)):
        raise ActionError("scroll_x and scroll_y must be numbers")
    if dx == dy == 0:
        raise ActionError("a scroll needs scroll_x or scroll_y")
    if abs(dy) >= abs(dx):
        direction, pixels = ("down" if dy > 0 else "up"), abs(dy)
    else:
        direction, pixels = ("right" if dx > 0 else "left"), abs(dx)
    amount = min(50, max(1, round(pixels / SCROLL_PIXELS)))
    return Scroll(direction=direction, amount=amount, target=target)


def _held(given: Mapping[str, Any]) -> tuple[str, ...]:
    """The keys a mouse action holds down (`keys`, as in the newer tool's actions)."""
    keys = given.get("keys") or ()
    if not isinstance(keys, list | tuple):
        raise ActionError("keys must be a list of key names")
    return tuple(key_name(str(k)) for k in keys)


def _xy(point: object) -> Mapping[str, Any]:
    """A drag path point: `{x, y}` (the API reference) or `[x, y]` (the GA guide)."""
    if isinstance(point, list | tuple) and len(point) == 2:
        return {"x": point[0], "y": point[1]}
    if isinstance(point, Mapping):
        return point
    raise ActionError(f"{point!r} is not a point")


def _texts(output: list[Mapping[str, Any]]) -> list[str]:
    """The words in an answer: reasoning summaries and message text."""
    texts: list[str] = []
    for item in output:
        parts = item.get("summary") if item.get("type") == "reasoning" else item.get("content")
        for part in _listed(parts):
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                texts.append(part["text"])
    return texts


def _listed(value: object) -> list[Any]:
    """A list the answer gives, or none: a server may send anything where a list belongs."""
    return value if isinstance(value, list) else []
