"""A scripted model behind the loopback model server: it tells the roles apart by their system
prompts and, like a model reading set-of-marks, finds element ids in the prompt's element list.

    model = ScriptedModel(plan=["Fill the form"], actor=[lambda p: click(p.id("Save", "button"))])
    with ModelServer([], model) as server: ...
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from clickwright.agent.runlog import RunLog
from clickwright.agent.state import RunSettings, RunState
from clickwright.types import Frame, Screen
from tests.model_server import (
    Reply,
    Request,
    anthropic_answer,
    anthropic_tool_use,
    openai_answer,
    openai_computer_call,
    openai_message,
)

_LINE = re.compile(
    r'^\[(?P<id>\d+)\] (?P<kind>\w+)(?: "(?P<text>.*?)")?(?: \(label: (?P<label>.*?)\))?'
    r"(?: \[.*?\])? at \((?P<x>\d+), (?P<y>\d+), (?P<w>\d+), (?P<h>\d+)\)$"
)


@dataclass
class Prompt:
    """The actor's prompt as the scripted model reads it."""

    system: str
    text: str

    def elements(self) -> list[dict[str, Any]]:
        listed = self.text.split("Elements:\n", 1)[-1]
        return [m.groupdict() for m in map(_LINE.match, listed.splitlines()) if m]

    def find(self, text: str, kind: str | None = None) -> dict[str, Any]:
        wanted = text.lower()
        for element in self.elements():
            names = [(element["text"] or "").lower(), (element["label"] or "").lower()]
            if kind and element["kind"] != kind:
                continue
            if any(name.rstrip(":") == wanted for name in names):
                return element
        raise AssertionError(f"the scripted model sees no {kind or ''} {text!r} in the prompt")

    def id(self, text: str, kind: str | None = None) -> int:
        return int(self.find(text, kind)["id"])

    def centre(self, text: str, kind: str | None = None) -> list[int]:
        """The element's centre in the pixels of the image the model saw."""
        e = self.find(text, kind)
        return [int(e["x"]) + int(e["w"]) // 2, int(e["y"]) + int(e["h"]) // 2]


Answer = dict[str, Any] | str | Callable[[Prompt], dict[str, Any] | str]


@dataclass
class ScriptedModel:
    plan: list[str]
    actor: list[Answer]
    critic: list[dict[str, Any]] = field(default_factory=list)
    then: Answer = field(default_factory=lambda: act({"type": "done", "summary": "all done"}))
    """What the actor answers once its script is used up."""
    prompts: dict[str, list[Prompt]] = field(
        default_factory=lambda: {"planner": [], "actor": [], "critic": []}
    )

    def __call__(self, request: Request) -> Reply:
        """Answers in the wire format asked: Anthropic Messages or OpenAI chat completions."""
        messages = request.body["messages"]
        if request.path.endswith("/messages"):
            system, turns, reply = request.body.get("system", ""), messages, anthropic_answer
        else:
            system, turns, reply = _text(messages[0]), messages[1:], openai_answer
        prompt = Prompt(system, "\n".join(_text(m) for m in turns))
        if prompt.system.startswith("You plan"):
            self.prompts["planner"].append(prompt)
            return reply(json.dumps({"subgoals": self.plan}))
        if prompt.system.startswith("You check whether"):
            self.prompts["critic"].append(prompt)
            return reply(json.dumps(self.critic.pop(0)))
        self.prompts["actor"].append(prompt)
        answer = self.actor.pop(0) if self.actor else self.then
        if callable(answer):
            answer = answer(prompt)
        return reply(answer if isinstance(answer, str) else json.dumps(answer))


def _text(message: dict[str, Any]) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")


def act(action: dict[str, Any], thought: str = "", **extra: Any) -> dict[str, Any]:
    return {"thought": thought, "action": action, "expect": "", **extra}


# ---- screens and run states for the protocol tests -------------------------------------------


def pattern_screen(width: int = 1920, height: int = 1080, seed: int = 0) -> Screen:
    """A screen whose every pixel tells where it is (and which screen it is): a crop or a
    resize that goes wrong shows; and it compresses, so tests stay fast."""
    y, x = np.indices((height, width))
    pixels = np.stack([x % 256, y % 256, (x // 256 * 16 + y // 256 * 64 + seed * 40) % 256], -1)
    return Screen(Frame(pixels.astype(np.uint8)))


class Desktop:
    kind = "desktop"


def run_state(
    tmp_path: Path, task: str = "Put the customer on the Pro plan", **settings: Any
) -> RunState:
    """A run's state with a log in `tmp_path`, for a role tested on its own."""
    log = RunLog(tmp_path, task)
    return RunState(task, Desktop(), None, log, RunSettings(**settings))  # type: ignore[arg-type]


# ---- a computer-use model that reads its screenshots ------------------------------------------


@dataclass
class Look:
    """The images a computer-use request shows, as a scripted model reads them: `screen` is the
    latest full screenshot, `last` the latest image of any kind (a zoom)."""

    images: list[np.ndarray]
    display: tuple[int, int]

    @property
    def screen(self) -> np.ndarray:
        return [i for i in self.images if (i.shape[1], i.shape[0]) == self.display][-1]

    @property
    def last(self) -> np.ndarray:
        return self.images[-1]

    def find(self, text: str, kind: str | None = None) -> list[int]:
        """Where `text` (an element of `kind`) is, in pixels of the screenshot, found by reading
        it with clickwright's own parser as a model would by looking (closely: the image is
        enlarged to a full-HD width first, as small text needs)."""
        from clickwright.agent.grounding import rank

        zoom = max(1.0, 1920 / self.screen.shape[1])
        found = rank(_parsed(self.screen, zoom), text, kind)
        if not found:
            raise AssertionError(f"the scripted model sees no {kind or ''} {text!r}")
        x, y = found[0].element.box.center
        return [round(x / zoom), round(y / zoom)]

    def reads(self, text: str, image: np.ndarray) -> bool:
        zoom = max(1.0, 1920 / self.screen.shape[1])
        return any(text.lower() in t.lower() for t in _parsed(image, zoom).texts())


def _parsed(image: np.ndarray, zoom: float) -> Screen:
    from clickwright.parsers.screen_parser import ScreenParser

    if zoom > 1:
        image = cv2.resize(image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    return ScreenParser().parse(Frame(image))


Step = Callable[[Look], "dict[str, Any] | list[dict[str, Any]] | str"]


@dataclass
class ComputerUseModel:
    """A scripted model on Anthropic's computer tool (/v1/messages) and OpenAI's Responses
    computer tool (/v1/responses): each step reads the request's screenshots (a `Look`) and
    answers tool inputs (a list: several in one answer) or, to end, text."""

    script: list[Step]
    finish: str = "The task is done."
    looks: list[Look] = field(default_factory=list)

    def __call__(self, request: Request) -> Reply:
        anthropic = request.path.startswith("/v1/messages")
        look = _anthropic_look(request.body) if anthropic else _responses_look(request.body)
        self.looks.append(look)
        step = self.script.pop(0)(look) if self.script else self.finish
        if isinstance(step, str):
            return anthropic_answer(step) if anthropic else openai_message(step)
        given = step if isinstance(step, list) else [step]
        return anthropic_tool_use(*given) if anthropic else openai_computer_call(*given)


def _png(data: str) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(data), np.uint8)
    return cv2.cvtColor(cv2.imdecode(raw, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _anthropic_look(body: dict[str, Any]) -> Look:
    tool = body["tools"][0]
    images = []
    for message in body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            inner = block.get("content") if block.get("type") == "tool_result" else [block]
            for part in inner if isinstance(inner, list) else []:
                if part.get("type") == "image":
                    images.append(_png(part["source"]["data"]))
    return Look(images, (tool["display_width_px"], tool["display_height_px"]))


def _responses_look(body: dict[str, Any]) -> Look:
    images = []
    for item in body["input"]:
        parts = (
            [item["output"]]
            if item.get("type") == "computer_call_output"
            else item.get("content", [])
        )
        for part in parts if isinstance(parts, list) else []:
            url = part.get("image_url", "") if isinstance(part, dict) else ""
            if url.startswith("data:image/png;base64,"):
                images.append(_png(url.split(",", 1)[1]))
    tool = body["tools"][0]
    size = images[-1].shape[1::-1]
    return Look(images, (tool.get("display_width", size[0]), tool.get("display_height", size[1])))
