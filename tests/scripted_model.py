"""A scripted model behind the loopback model server: it tells the roles apart by their system
prompts and, like a model reading set-of-marks, finds element ids in the prompt's element list.

    model = ScriptedModel(plan=["Fill the form"], actor=[lambda p: click(p.id("Save", "button"))])
    with ModelServer([], model) as server: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.model_server import Reply, Request, anthropic_answer, openai_answer

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
