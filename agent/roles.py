"""The model roles: planner, actor, grounder, critic and notetaker.

Each role is a small class with one method that builds its prompt (`messages`) and one that reads
the answer (`parse`); all of them read and write the one RunState (its Memory, usage and log).
A role without a model has an offline counterpart, so model and offline roles mix freely: an API
planner can hand simple steps to the offline actor, a model actor can point by element id and
leave grounding to the set-of-marks, a model critic is only asked when the offline check cannot
confirm an effect.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

import numpy as np

from clickwright.agent.backends.base import Backend, ChatResult, Message, Posted, one_line
from clickwright.agent.budget import Price
from clickwright.agent.config import BackendSettings
from clickwright.agent.critic import Expectation, Verdict, judge
from clickwright.agent.grounding import rank
from clickwright.agent.interpreter import SUPPORTED_FORMS
from clickwright.agent.model_output import extract_json
from clickwright.agent.safety import Flag
from clickwright.agent.screen_scaling import ScaledImage, read_point, to_frame_point
from clickwright.agent.state import RunState
from clickwright.devices.base import Point
from clickwright.errors import ActionError, StepFailed
from clickwright.parsers.marks import draw_marks, marks_text
from clickwright.types import (
    ANDROID_ONLY,
    DESKTOP_ONLY,
    Action,
    Box,
    Element,
    Screen,
    Target,
    action_json_schema,
    parse_action,
)

T = TypeVar("T")


def prompt_text(messages: Sequence[Message]) -> str:
    """Messages as a person reads them: what `--dry-run` prints and the call log keeps."""
    blocks = []
    for message in messages:
        parts = [
            part if isinstance(part, str) else f"[image {_image_size(part)}]"
            for part in message.content
        ]
        blocks.append(f"## {message.role}\n" + "\n".join(parts))
    return "\n\n".join(blocks)


def _image_size(part: np.ndarray | bytes) -> str:
    return f"{part.shape[1]}x{part.shape[0]}" if isinstance(part, np.ndarray) else "png"


class ModelRole:
    """A role played by a model: asks, counts tokens and dollars, and sends an unusable answer
    back with the reason, a bounded number of times."""

    role: ClassVar[str]
    max_tokens: ClassVar[int] = 512

    def __init__(
        self, backend: Backend, config: BackendSettings, state: RunState, price: Price | None
    ) -> None:
        self.backend = backend
        self.config = config
        self.state = state
        self.price = price

    def fit(self, pixels: np.ndarray) -> ScaledImage:
        return self.backend.image_limits.fit(pixels)

    def ask(self, messages: list[Message], parse: Callable[[str], T]) -> T:
        state = self.state
        tries = state.settings.answer_tries
        problem = ""
        for _ in range(tries):
            state.check_budget()
            result = self.backend.chat(
                messages, max_tokens=self.max_tokens, timeout=self.config.timeout
            )
            self.count(result, prompt_text(messages), result.text)
            try:
                return parse(result.text)
            except ActionError as error:
                problem = str(error)
                messages = [
                    *messages,
                    Message("assistant", [result.text]),
                    Message("user", [self.retry_text(problem)]),
                ]
        raise StepFailed(
            f"the {self.role} ({self.config.model}) gave no usable answer in {tries} tries; "
            f"last problem: {problem}"
        )

    def count(self, result: ChatResult | Posted, prompt: str, answer: str) -> None:
        """Add a call's tokens, dollars and time to the run, and log it."""
        state = self.state
        state.usage.add(result.input_tokens, result.output_tokens, self.price)
        state.model_seconds += result.seconds
        state.log.record.usage = state.usage.to_json()
        state.log.add_call(
            {
                "role": self.role,
                "model": result.model,
                "time": time.time(),
                "seconds": round(result.seconds, 3),
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
                "prompt": prompt,
                "answer": answer,
            }
        )

    def retry_text(self, problem: str) -> str:
        return (
            f"That answer could not be used: {problem}. Answer again with exactly one JSON "
            "object in the format asked for, and nothing else."
        )


def _scaled_elements(screen: Screen, image: ScaledImage) -> list[Element]:
    """The elements with their boxes in the pixels of the image the model sees."""
    sx, sy = image.size[0] / image.frame_size[0], image.size[1] / image.frame_size[1]
    return [
        replace(
            e,
            box=Box(
                round(e.box.x * sx),
                round(e.box.y * sy),
                max(1, round(e.box.w * sx)),
                max(1, round(e.box.h * sy)),
            ),
        )
        for e in screen.elements
    ]


def _screen_lines(screen: Screen, image: ScaledImage) -> str:
    """The set-of-marks list, as the model's image measures it."""
    return marks_text(_scaled_elements(screen, image)) or "(nothing was recognised on screen)"


# ---- planner ----------------------------------------------------------------------------------

PLANNER_SYSTEM = """You plan tasks for an agent that operates a computer's screen with the mouse \
and keyboard. Break the user's task into a short ordered list of concrete subgoals, each one \
visible on screen when done (e.g. "Open the Advanced tab", "Set Timeout to 30"). Use the names \
shown on screen. Do not include subgoals that are already done.
Answer with one JSON object and nothing else: {"subgoals": ["...", "..."]}"""

OFFLINE_ACTOR_RULE = """Each subgoal is carried out by a simple instruction follower, so write \
every subgoal as ONE instruction in one of these forms, with the exact names shown on screen, \
quoting text to type: """


class Planner(ModelRole):
    role = "planner"

    def __init__(self, *args: Any, for_offline_actor: bool = False) -> None:
        super().__init__(*args)
        self.for_offline_actor = for_offline_actor

    def messages(self, failure: str = "") -> list[Message]:
        state, memory = self.state, self.state.memory
        screen = state.screen or state.observe()
        image = self.fit(screen.frame.pixels)
        system = PLANNER_SYSTEM
        if self.for_offline_actor:
            system += "\n" + OFFLINE_ACTOR_RULE + "; ".join(SUPPORTED_FORMS)
        text = [f"Task: {state.task}", f"Notes:\n{memory.notes_text()}"]
        if state.examples:
            text.append(
                f"Demonstrations of similar tasks (follow them where they fit):\n{state.examples}"
            )
        if memory.turns:
            text.append(f"Done so far:\n{memory.recent_text()}")
        if failure:
            text.append(f"The plan so far ran into trouble: {failure}\nPlan what remains.")
        text.append(f"Elements on screen:\n{_screen_lines(screen, image)}")
        return [
            Message("system", [system]),
            Message("user", ["\n\n".join(text), "The screen now:", image.pixels]),
        ]

    def parse(self, text: str) -> list[str]:
        data = extract_json(text)
        goals = data.get("subgoals", data.get("plan"))
        if not isinstance(goals, list) or not goals:
            raise ActionError('expected {"subgoals": [...]} with at least one subgoal')
        goals = [" ".join(str(g).split()) for g in goals if str(g).strip()]
        if not goals or len(goals) > 30:
            raise ActionError("a plan has between 1 and 30 subgoals")
        return goals

    def plan(self, failure: str = "") -> list[str]:
        return self.ask(self.messages(failure), self.parse)


# ---- actor ------------------------------------------------------------------------------------

ACTOR_SYSTEM = """You operate a computer's screen to carry out the user's task, one action at a \
time. Each turn you get the task, the plan, notes, your recent actions, the current screenshot \
with numbered boxes on the elements found, and the list of those elements.
Choose the ONE next action. Rules:
- Point at an element by its number: "target": {{"id": 12}}. If what you need has no number, \
describe it: {{"text": "Save", "kind": "button"}}, or give {{"point": [x, y]}} in pixels of the \
screenshot.
- To fill a field use "type" with the field as target (it is clicked first); "clear": true \
replaces what is there.
- When the task is complete, answer the action {{"type": "done", "summary": "..."}}; when it \
cannot be done, {{"type": "fail", "reason": "..."}}; when only the user knows something you \
need, {{"type": "ask_user", "question": "..."}}.
- If your last action did not work, do not repeat it unchanged.
Answer with one JSON object and nothing else:
{{"thought": "why this action", "action": {{...}}, "expect": "what the screen should show \
afterwards", "note": "a fact from the screen worth remembering, or empty", \
"subgoal_done": true if this action completes the current subgoal}}
Actions follow this JSON schema: {schema}"""


@dataclass(frozen=True)
class Decision:
    thought: str
    action: Action
    expect: str = ""
    note: str = ""
    subgoal_done: bool = False
    flag: Flag | None = None


class Actor(ModelRole):
    role = "actor"
    max_tokens = 700

    def messages(self, screen: Screen, image: ScaledImage) -> list[Message]:
        memory = self.state.memory
        text = [
            f"Task: {self.state.task}",
            f"Plan:\n{memory.plan_text()}",
            f"Notes:\n{memory.notes_text()}",
            f"Recent actions:\n{memory.recent_text()}",
        ]
        if memory.feedback:
            text.append(f"Feedback on your last action: {memory.feedback}")
        content: list[Any] = ["\n\n".join(text)]
        for step, pixels in memory.screenshots:
            content += [f"The screen before action {step}:", pixels]
        marked = draw_marks(image.pixels, _scaled_elements(screen, image))
        content += [
            f"The screen now ({image.size[0]}x{image.size[1]} pixels, elements numbered):",
            marked,
            f"Elements:\n{_screen_lines(screen, image)}",
        ]
        return [Message("system", [self.system_text()]), Message("user", content)]

    def system_text(self) -> str:
        android = self.state.device.kind == "android"
        schema = _without(action_json_schema(), DESKTOP_ONLY if android else ANDROID_ONLY)
        return ACTOR_SYSTEM.format(schema=json.dumps(schema, separators=(",", ":")))

    def parse(self, text: str, screen: Screen) -> Decision:
        data = extract_json(text)
        raw = data.get("action", data if "type" in data else None)
        if not isinstance(raw, dict):
            raise ActionError('the answer has no "action" object')
        action = parse_action(raw)
        for target in _targets(action):
            if target.id is not None:
                ids = [e.id for e in screen.elements]
                if target.id not in ids:
                    raise ActionError(
                        f"there is no element {target.id} on screen (ids are "
                        f"{min(ids, default=0)}-{max(ids, default=0)})"
                    )
        return Decision(
            thought=one_line(str(data.get("thought", "")), 300),
            action=action,
            expect=one_line(str(data.get("expect", "")), 200),
            note=one_line(str(data.get("note") or ""), 300),
            subgoal_done=data.get("subgoal_done") is True,
        )

    def decide(self, screen: Screen) -> tuple[Decision, ScaledImage]:
        image = self.fit(screen.frame.pixels)
        decision = self.ask(self.messages(screen, image), lambda t: self.parse(t, screen))
        return decision, image


def _without(schema: dict[str, Any], types: frozenset[str]) -> dict[str, Any]:
    """The action schema less the action types this device has no input for."""
    mapping = schema.get("discriminator", {}).get("mapping", {})
    dropped = {ref for name, ref in mapping.items() if name in types}
    return {
        **schema,
        "oneOf": [s for s in schema.get("oneOf", []) if s.get("$ref") not in dropped],
        "discriminator": {
            **schema.get("discriminator", {}),
            "mapping": {k: v for k, v in mapping.items() if k not in types},
        },
        "$defs": {
            k: v for k, v in schema.get("$defs", {}).items() if f"#/$defs/{k}" not in dropped
        },
    }


def _targets(action: Action) -> list[Target]:
    found = [getattr(action, name, None) for name in ("target", "source", "to")]
    until = getattr(action, "until", None)
    return [t for t in [*found, until] if isinstance(t, Target)]


# ---- grounder ---------------------------------------------------------------------------------

GROUNDER_PROMPT = """Where should I click to reach this: {description}?
Answer with the point as (x, y) in pixels of this {width}x{height} image, and nothing else."""


class ModelGrounder(ModelRole):
    """A grounding model (UI-TARS, ShowUI, Qwen2.5-VL…): a description in, a point out."""

    role = "grounder"
    max_tokens = 64

    def messages(self, description: str, image: ScaledImage) -> list[Message]:
        prompt = GROUNDER_PROMPT.format(
            description=description, width=image.size[0], height=image.size[1]
        )
        return [Message("user", [image.pixels, prompt])]

    def parse(self, text: str, image: ScaledImage) -> Point:
        return to_frame_point(read_point(text), image, self.config.coords)  # type: ignore[arg-type]

    def point_for(self, description: str, screen: Screen) -> Point:
        image = self.fit(screen.frame.pixels)
        return self.ask(self.messages(description, image), lambda t: self.parse(t, image))


@dataclass(frozen=True)
class Placed:
    """Where an action acts: its point, where a drag ends, and the element it targets."""

    point: Point | None
    end: Point | None
    element: Element | None
    how: str


class Grounder:
    """Targets to pixels: ids through the set-of-marks, points through the screen scaling the
    actor saw, descriptions through the grounding model when there is one, else by text."""

    def __init__(self, model: ModelGrounder | None, actor_coords: str) -> None:
        self.model = model
        self.actor_coords = actor_coords

    def place(self, action: Action, screen: Screen, image: ScaledImage) -> Placed:
        if action.type == "drag":
            start, element, how = self.locate(action.source, screen, image)
            end, _, to = self.locate(action.to, screen, image)
            return Placed(start, end, element, f"{how} to {to}")
        target = getattr(action, "target", None)
        if target is None:
            if action.type in ("scroll", "swipe"):
                w, h = screen.frame.size
                return Placed((w // 2, h // 2), None, None, "the middle of the screen")
            return Placed(None, None, None, "")
        point, element, how = self.locate(target, screen, image)
        return Placed(point, None, element, how)

    def locate(
        self, target: Target, screen: Screen, image: ScaledImage
    ) -> tuple[Point, Element | None, str]:
        if target.id is not None:
            element = screen.by_id(target.id)
            return element.box.center, element, f"element {target.id}"
        if target.point is not None:
            point = to_frame_point(target.point, image, self.actor_coords)  # type: ignore[arg-type]
            return point, screen.element_at(point), f"point {tuple(target.point)}"
        description = target.describe()
        if self.model is not None:
            point = self.model.point_for(description, screen)
            return point, screen.element_at(point), f"{description} (grounding model)"
        candidates = rank(screen, target.text or "", target.kind)
        if not candidates:
            raise ActionError(f"nothing on screen matches {description}")
        element = candidates[0].element
        return element.box.center, element, f"{description} = {element.describe()}"


# ---- critic -----------------------------------------------------------------------------------

CRITIC_SYSTEM = """You check whether an action on a computer's screen had the intended effect. \
You get the task, the action, what it was expected to do, an automatic check's verdict, and \
the screen before and after.
Answer with one JSON object and nothing else: {"verdict": "...", "reason": "...", "question": \
"..."} where verdict is one of:
- "success": the intended effect is visible;
- "retry": nothing relevant happened; the action should be tried again or another way;
- "back": something wrong happened that must be undone first (a wrong menu, page or dialog);
- "replan": the screen shows the plan no longer fits;
- "ask_user": only the user can resolve this (then give the question)."""

VERDICTS = ("success", "retry", "back", "replan", "ask_user")


class ModelCritic(ModelRole):
    role = "critic"
    max_tokens = 300

    def messages(
        self, before: Screen, after: Screen, action: Action, expected: str, check: Verdict
    ) -> list[Message]:
        memory = self.state.memory
        goal = memory.plan[memory.current] if memory.current < len(memory.plan) else ""
        text = (
            f"Task: {self.state.task}\nCurrent subgoal: {goal or '(none)'}\n"
            f"Action: {json.dumps(action.model_dump(mode='json', exclude_none=True))}\n"
            f"Expected: {expected or 'the screen changes accordingly'}\n"
            f"Automatic check: {check.status} ({check.reason})"
        )
        return [
            Message("system", [CRITIC_SYSTEM]),
            Message(
                "user",
                [
                    text,
                    "Before:",
                    self.fit(before.frame.pixels).pixels,
                    "After:",
                    self.fit(after.frame.pixels).pixels,
                ],
            ),
        ]

    def parse(self, text: str) -> Verdict:
        data = extract_json(text)
        status = str(data.get("verdict", "")).strip().lower()
        if status not in VERDICTS:
            raise ActionError(f'"verdict" must be one of {", ".join(VERDICTS)}')
        question = str(data.get("question") or "")
        if status == "ask_user" and not question:
            raise ActionError('an "ask_user" verdict needs a "question"')
        return Verdict(status, one_line(str(data.get("reason", "")), 200), question)  # type: ignore[arg-type]


class Critic:
    """The offline check first; the model critic is asked only when that cannot confirm the
    effect, so a run with a model critic pays for it only on doubtful steps."""

    def __init__(self, model: ModelCritic | None) -> None:
        self.model = model

    def judge(
        self,
        before: Screen,
        after: Screen,
        expect: Expectation,
        action: Action,
        ignore: Sequence[Box] = (),
        expected: str = "",
    ) -> Verdict:
        check = judge(before, after, expect, ignore)
        if check.status == "success" or self.model is None:
            return check
        model = self.model
        return model.ask(model.messages(before, after, action, expected, check), model.parse)


# ---- notetaker --------------------------------------------------------------------------------

NOTETAKER_SYSTEM = """You keep notes for an agent working on a task on a computer's screen: \
facts the task will need later (names, numbers, dates, what was found where, what is done). \
Given the current notes and the screen, answer with the updated notes as one JSON object and \
nothing else: {"notes": ["...", "..."]}. Keep at most 12 short notes."""


class Notetaker(ModelRole):
    role = "notetaker"
    max_tokens = 400

    def messages(self, screen: Screen) -> list[Message]:
        memory = self.state.memory
        image = self.fit(screen.frame.pixels)
        text = (
            f"Task: {self.state.task}\nNotes so far:\n{memory.notes_text()}\n"
            f"Last actions:\n{memory.recent_text()}\n\nText on screen:\n"
            + "\n".join(screen.texts())
        )
        return [Message("system", [NOTETAKER_SYSTEM]), Message("user", [text, image.pixels])]

    def parse(self, text: str) -> list[str]:
        notes = extract_json(text).get("notes")
        if not isinstance(notes, list):
            raise ActionError('expected {"notes": [...]}')
        return [one_line(str(n), 300) for n in notes if str(n).strip()][:12]

    def update(self, screen: Screen) -> None:
        self.state.memory.notes = self.ask(self.messages(screen), self.parse)
