"""UI-TARS's own action grammar, for UI-TARS served by vLLM, Ollama, LM Studio or transformers.

As github.com/bytedance/UI-TARS does it (codes/ui_tars/prompt.py for the prompts,
codes/ui_tars/action_parser.py for reading answers, README_coordinates.md for points): the
prompt lists the action space and the task; the conversation alternates screenshots and the
model's answers, the last five screenshots kept as UI-TARS-desktop does; each answer reads
`Thought: ...` then `Action: click(point='<point>x y</point>')` (older checkpoints write
`start_box='(x,y)'`). UI-TARS-1.5 points are pixels of the image it saw, which clickwright
sends already resized the way its Qwen2.5-VL processor would (sides multiples of 28 within
its pixel budget); UI-TARS 1.0 points are thousandths of the image.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from clickwright.agent.backends.base import Message
from clickwright.agent.protocols.base import (
    ChatRequest,
    ModelSpec,
    Outcome,
    Protocol,
    Reading,
    key_name,
)
from clickwright.agent.screen_scaling import ScaledImage, read_point, to_frame_point
from clickwright.errors import ActionError
from clickwright.types import (
    Action,
    AskUser,
    Back,
    Click,
    Done,
    DoubleClick,
    Drag,
    Home,
    Hotkey,
    Launch,
    LongPress,
    RightClick,
    Scroll,
    Target,
    Type,
    Wait,
)

SYSTEM = "You are a helpful assistant."
MAX_TOKENS = 400
"""UI-TARS's own deployment example asks for at most 400 tokens."""
IMAGES = 5
"""Screenshots kept in the conversation (UI-TARS-desktop's MAX_IMAGE_LENGTH)."""
SCROLL_CLICKS = 5
"""UI-TARS's parser scrolls 5 wheel clicks per scroll action."""
WAIT_SECONDS = 5
POINTED = {
    "click": Click,
    "left_single": Click,
    "left_double": DoubleClick,
    "right_single": RightClick,
    "long_press": LongPress,
}
PLAIN = {"press_home": Home, "press_back": Back}


@cache
def prompts() -> dict[str, str]:
    """UI-TARS's own prompts (assets/ui_tars_prompts.json), exactly as its repository has them."""
    text = resources.files("clickwright.assets").joinpath("ui_tars_prompts.json").read_text()
    return json.loads(text)


@dataclass(frozen=True)
class Call:
    """One action call in an answer: `click(start_box='(1,2)')` -> ("click", {...})."""

    name: str
    args: dict[str, str]


@dataclass(frozen=True)
class Turn:
    """One past step as the conversation keeps it."""

    image: ScaledImage
    told: tuple[str, ...]
    answer: str


class UITars(Protocol):
    name = "ui-tars"
    focusable = True

    def __init__(self, spec: ModelSpec, task: str, device_kind: str, screenshots: int) -> None:
        super().__init__(spec, task, device_kind, screenshots)
        template = prompts()["mobile_use" if device_kind == "android" else "computer_use"]
        self.prompt = template.format(language="English", instruction=task)
        self.turns: list[Turn] = []
        self.outcome: Outcome | None = None
        self.problem = ""

    def observe(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def _told(self) -> tuple[str, ...]:
        """What the next user turn says besides the screenshot."""
        outcome = self.outcome
        assert outcome is not None
        told = list(outcome.notes)
        if outcome.feedback:
            told.append(f"The last action did not work: {outcome.feedback}")
        if self.problem:
            told.append(self.problem)
        return tuple(told)

    def request(self) -> ChatRequest:
        assert self.outcome is not None, "observe the first screen before asking"
        messages = [Message("system", [SYSTEM]), Message("user", [self.prompt])]
        first_with_image = len(self.turns) - (IMAGES - 1)
        for index, turn in enumerate(self.turns):
            if index >= first_with_image:
                messages.append(Message("user", [*turn.told, turn.image.pixels]))
            messages.append(Message("assistant", [turn.answer]))
        image = self.image(self.outcome.screen)
        messages.append(Message("user", [*self._told(), image.pixels]))
        return ChatRequest(tuple(messages), MAX_TOKENS)

    def read(self, reply: Mapping[str, Any] | str) -> Reading:
        assert isinstance(reply, str) and self.outcome is not None
        image = self.image(self.outcome.screen)
        self.turns.append(Turn(image, self._told(), add_box_token(reply)))
        self.outcome = Outcome(self.outcome.screen)  # told once
        self.problem = ""
        try:
            thought, calls = parse_answer(reply)
            actions = [a for call in calls for a in self._act(call, image, thought)]
        except ActionError as error:
            self.problem = (
                f"That answer could not be used: {error}. Answer with Thought: and Action: "
                "lines, the action from the action space."
            )
            return Reading(problem=str(error))
        return Reading(thought, tuple(actions), target=_last_sentence(thought))

    def _act(self, call: Call, image: ScaledImage, thought: str) -> list[Action]:
        name, args = call.name, call.args
        if name in POINTED:
            return [POINTED[name](target=self._target(args, "start_box", image))]
        if name in PLAIN:
            return [PLAIN[name]()]
        if name in ("drag", "select"):
            start = self._target(args, "start_box", image)
            return [Drag(**{"from": start, "to": self._target(args, "end_box", image)})]
        if name == "hotkey":
            keys = (args.get("key") or args.get("hotkey") or "").split()
            if not keys:
                raise ActionError("hotkey needs key='...'")
            return [Hotkey(keys=tuple(key_name(k) for k in keys))]
        if name == "press":
            return [Hotkey(keys=(key_name(args.get("key") or args.get("press") or ""),))]
        if name == "type":
            content = args.get("content", "")
            enter = content.endswith("\n")
            return [Type(text=content.rstrip("\n"), enter=enter)] if content.strip() else []
        if name == "scroll":
            direction = args.get("direction", "").strip().lower()
            if direction not in ("up", "down", "left", "right"):
                raise ActionError(f"scroll direction {direction!r} is not up, down, left or right")
            target = self._target(args, "start_box", image) if "start_box" in args else None
            return [Scroll(direction=direction, amount=SCROLL_CLICKS, target=target)]
        if name == "hover":
            self.pointer.at = self._target(args, "start_box", image).point
            return []
        if name == "wait":
            return [Wait(timeout=WAIT_SECONDS)]
        if name == "open_app":
            return [Launch(app=args.get("app_name", ""))]
        if name == "finished":
            return [Done(summary=args.get("content", "") or thought)]
        if name == "call_user":
            return [AskUser(question=thought or "The agent needs your help to go on.")]
        raise ActionError(f"unknown action {name}()")

    def _target(self, args: dict[str, str], name: str, image: ScaledImage) -> Target:
        if not args.get(name):
            raise ActionError(f"the action needs {name}")
        point = to_frame_point(read_point(args[name]), image, self.spec.coords)
        return Target(point=point)

    # ---- a closer look at a dense screen ----------------------------------------------------

    def focus_request(self, reading: Reading, crop: ScaledImage) -> ChatRequest:
        prompt = prompts()["grounding"].format(instruction=reading.target or self.task)
        messages = (Message("system", [SYSTEM]), Message("user", [prompt, crop.pixels]))
        return ChatRequest(messages, MAX_TOKENS)

    def focus_point(self, text: str, crop: ScaledImage) -> tuple[int, int]:
        _, calls = parse_answer(text)
        box = next((c.args["start_box"] for c in calls if c.args.get("start_box")), None)
        if box is None:
            raise ActionError("the closer look named no point")
        return to_frame_point(read_point(box), crop, self.spec.coords)


# ---- reading answers, as codes/ui_tars/action_parser.py does ----------------------------------

_POINT = re.compile(r"<point>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</point>")
_BBOX = re.compile(r"<bbox>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</bbox>")
_THOUGHT = re.compile(r"(?:Thought|Action_Summary):\s*(.+?)(?=\s*Action:|$)", re.S)
_CALL = re.compile(r"\s*(\w+)\((.*)\)\s*$", re.S)
_ARG = re.compile(r"(\w+)\s*=\s*(['\"])(.*?)\2(?=\s*,\s*\w+\s*=|\s*$)", re.S)


def parse_answer(text: str) -> tuple[str, list[Call]]:
    """A UI-TARS answer -> its thought and its action calls, with `point=` arguments renamed
    `start_box=` and `<point>x y</point>` written `(x,y)`, as UI-TARS's parser does."""
    text = text.replace("[EOS]", "").strip()
    text = _POINT.sub(r"(\1,\2)", text)
    text = _BBOX.sub(r"(\1,\2,\3,\4)", text)
    for old, new in (
        ("start_point=", "start_box="),
        ("end_point=", "end_box="),
        ("point=", "start_box="),
    ):
        text = text.replace(old, new)
    if "Action:" not in text:
        raise ActionError('the answer has no "Action:" line')
    match = _THOUGHT.search(text)
    thought = " ".join(match[1].split()) if match else ""
    calls = []
    for part in text.split("Action:")[-1].split(")\n\n"):
        part = part.strip()
        if not part:
            continue
        part = part if part.endswith(")") else part + ")"
        call = _CALL.match(part)
        if call is None:
            raise ActionError(f"cannot read the action {part[:60]!r}")
        args = {m[1]: _unescape(m[3]) for m in _ARG.finditer(call[2])}
        calls.append(Call(call[1], args))
    if not calls:
        raise ActionError("the Action: line names no action")
    return thought, calls


def _unescape(value: str) -> str:
    """Content the prompt asks to write with \\', \\" and \\n escapes."""
    return value.replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')


def add_box_token(answer: str) -> str:
    """A past answer as it goes back into the conversation: `start_box='(x,y)'` coordinates
    wrapped in <|box_start|> tokens, as UI-TARS's deployment example does."""
    return re.sub(
        r"(start_box|end_box)='\((\d+),\s*(\d+)\)'",
        r"\1='<|box_start|>(\2,\3)<|box_end|>'",
        answer,
    )


def _last_sentence(thought: str) -> str:
    """The prompt asks UI-TARS to end its thought with the next action and its target."""
    sentences = [s for s in re.split(r"(?<=[.!?。])\s+", thought.strip()) if s]
    return sentences[-1] if sentences else ""
