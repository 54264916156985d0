"""The value types every layer shares: Frame, Element, Screen and Action.

Action is the one JSON format for model output, run logs and demonstrations; its JSON Schema in
`assets/action.schema.json` is generated from the models here (see `action_json_schema`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NamedTuple, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from clickwright.errors import ActionError
from clickwright.text import VISIBLE, text_similarity


class Box(NamedTuple):
    """An axis-aligned rectangle in frame pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def area(self) -> int:
        return max(0, self.w) * max(0, self.h)

    def contains(self, other: Box, slack: int = 0) -> bool:
        return (
            other.x >= self.x - slack
            and other.y >= self.y - slack
            and other.right <= self.right + slack
            and other.bottom <= self.bottom + slack
        )

    def contains_point(self, x: float, y: float) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom

    def distance_to(self, x: float, y: float) -> float:
        """Pixels from the point to the nearest edge; 0 inside."""
        dx = max(self.x - x, 0, x - self.right)
        dy = max(self.y - y, 0, y - self.bottom)
        return float((dx * dx + dy * dy) ** 0.5)

    def intersection(self, other: Box) -> int:
        w = min(self.right, other.right) - max(self.x, other.x)
        h = min(self.bottom, other.bottom) - max(self.y, other.y)
        return max(0, w) * max(0, h)

    def iou(self, other: Box) -> float:
        inter = self.intersection(other)
        union = self.area + other.area - inter
        return inter / union if union else 0.0

    def union(self, other: Box) -> Box:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Box(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)


@dataclass(frozen=True, eq=False)
class Frame:
    """One capture of a screen: RGB pixels plus where they sit in input coordinates.

    `origin` is the monitor's top-left in the desktop's logical coordinates and `scale` the ratio
    of frame pixels to logical pixels (2.0 on a 200% HiDPI monitor), so that a device can map a
    point in this frame back to where the mouse must go.
    """

    pixels: np.ndarray
    origin: tuple[int, int] = (0, 0)
    scale: float = 1.0
    time: float = field(default_factory=time.time)

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.pixels.shape[1]), int(self.pixels.shape[0]))

    def same_as(self, other: Frame | None) -> bool:
        return other is not None and np.array_equal(self.pixels, other.pixels)


ElementKind = Literal[
    "button",
    "input",
    "checkbox",
    "radio",
    "toggle",
    "combo",
    "menu",
    "menuitem",
    "tab",
    "link",
    "list_item",
    "icon",
    "text",
    "image",
    "container",
]
INTERACTIVE_KINDS = frozenset(get_args(ElementKind)) - {"text", "image", "container"}


@dataclass(frozen=True)
class Element:
    """One thing on screen the agent can read or act on."""

    id: int
    box: Box
    kind: ElementKind
    text: str = ""
    source: Literal["ocr", "widgets", "a11y", "merged"] = "ocr"
    score: float = 1.0
    interactive: bool = False
    name: str = ""
    state: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "box": list(self.box),
            "kind": self.kind,
            "text": self.text,
            "source": self.source,
            "score": round(self.score, 3),
            "interactive": self.interactive,
        }
        if self.name:
            data["name"] = self.name
        if self.state:
            data["state"] = sorted(self.state)
        return data

    def describe(self) -> str:
        label = self.text or self.name or "(no text)"
        state = f" [{', '.join(sorted(self.state))}]" if self.state else ""
        return f"{self.kind} '{label}'{state}"


@dataclass(frozen=True, eq=False)
class Screen:
    """A parsed frame: elements in reading order, ids stable within this Screen."""

    frame: Frame
    elements: tuple[Element, ...] = ()

    def by_id(self, element_id: int) -> Element:
        for element in self.elements:
            if element.id == element_id:
                return element
        raise ActionError(f"no element with id {element_id} on this screen")

    def texts(self) -> list[str]:
        return [e.text for e in self.elements if e.text]

    def shows(self, text: str) -> bool:
        """Whether `text` is on this screen (fuzzily: OCR confuses characters)."""
        return any(text_similarity(text, seen) >= VISIBLE for seen in self.texts())

    def element_at(self, point: tuple[int, int], scroll: bool = False) -> Element | None:
        """The element a press at `point` hits: the smallest interactive one that contains
        it, else the smallest of any kind (a container last unless `scroll`, where the pane is
        the target); a press within 4 pixels of an edge counts."""
        x, y = point
        hit = [e for e in self.elements if e.box.contains_point(x, y)] or [
            e for e in self.elements if e.box.distance_to(x, y) <= 4
        ]
        if not hit:
            return None

        def order(e: Element) -> tuple[int, int]:
            if scroll:
                return (0 if e.kind == "container" else 1, e.box.area)
            return (0 if e.interactive else 1 if e.kind != "container" else 2, e.box.area)

        return min(hit, key=order)

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.elements]


# ---- Actions -------------------------------------------------------------------------------

KEY_ALIASES = {
    "control": "ctrl",
    "ctl": "ctrl",
    "return": "enter",
    "escape": "esc",
    "del": "delete",
    "pgup": "pageup",
    "pgdn": "pagedown",
    "page_up": "pageup",
    "page_down": "pagedown",
    "super": "win",
    "meta": "win",
    "windows": "win",
    "cmd": "command",
    "option": "alt",
    "spacebar": "space",
    "bksp": "backspace",
    "ins": "insert",
    "arrowup": "up",
    "arrowdown": "down",
    "arrowleft": "left",
    "arrowright": "right",
    "plus": "+",
    "minus": "-",
}
NAMED_KEYS = frozenset(
    {
        "ctrl",
        "alt",
        "shift",
        "win",
        "command",
        "enter",
        "esc",
        "tab",
        "space",
        "backspace",
        "delete",
        "insert",
        "home",
        "end",
        "pageup",
        "pagedown",
        "up",
        "down",
        "left",
        "right",
        "capslock",
        "printscreen",
        "menu",
        "volumeup",
        "volumedown",
        "volumemute",
    }
    | {f"f{n}" for n in range(1, 25)}
)


def normalize_key(key: str) -> str:
    """Canonical key name (`Control` -> `ctrl`), or ActionError for a key no keyboard has."""
    name = key.strip().lower().replace(" ", "")
    name = KEY_ALIASES.get(name, name)
    if name in NAMED_KEYS or (len(name) == 1 and name.isprintable()):
        return name
    raise ActionError(
        f"unknown key {key!r}",
        "use a single character or one of: "
        + ", ".join(sorted(NAMED_KEYS - {"menu"})[:20])
        + ", …",
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Target(_Model):
    """What to act on: an element id, a description by text (and kind), or a raw point."""

    id: int | None = Field(default=None, ge=0)
    text: str | None = Field(default=None, min_length=1)
    kind: ElementKind | None = None
    point: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _one_locator(self) -> Target:
        given = [name for name in ("id", "text", "point") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(
                f"a target needs exactly one of id, text or point (got {given or 'none'})"
            )
        if self.point is not None and min(self.point) < 0:
            raise ValueError("a target point cannot be negative")
        return self

    def describe(self) -> str:
        if self.id is not None:
            return f"element {self.id}"
        if self.point is not None:
            return f"point {tuple(self.point)}"
        return f"{self.kind} '{self.text}'" if self.kind else f"'{self.text}'"


class _NamesKeys(_Model):
    """Key names are normalised (`Control` -> `ctrl`) and checked on the way in."""

    @model_validator(mode="before")
    @classmethod
    def _normalize(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("keys"), list | tuple):
            data = {**data, "keys": tuple(normalize_key(str(k)) for k in data["keys"])}
        return data


class _Pointed(_NamesKeys):
    target: Target
    keys: tuple[str, ...] = Field(
        default=(), max_length=4, description="modifier keys held down during the click"
    )


class Click(_Pointed):
    type: Literal["click"] = "click"


class DoubleClick(_Pointed):
    type: Literal["double_click"] = "double_click"


class RightClick(_Pointed):
    type: Literal["right_click"] = "right_click"


class TripleClick(_Pointed):
    type: Literal["triple_click"] = "triple_click"


class MiddleClick(_Pointed):
    type: Literal["middle_click"] = "middle_click"


class Hover(_Model):
    """The pointer moved over the target and left there (a menu that opens on hover)."""

    type: Literal["hover"] = "hover"
    target: Target


class LongPress(_Pointed):
    type: Literal["long_press"] = "long_press"
    duration: float = Field(default=1.0, gt=0, le=30)


class Type(_Model):
    type: Literal["type"] = "type"
    text: str
    target: Target | None = None
    enter: bool = False
    clear: bool = Field(
        default=False, description="select all existing text first so it is replaced"
    )
    paste: bool = Field(
        default=False,
        description="put the text on the clipboard and paste it: one exact edit, which an "
        "editor does not re-indent as it would typed lines",
    )


class Hotkey(_NamesKeys):
    type: Literal["hotkey"] = "hotkey"
    keys: tuple[str, ...] = Field(min_length=1, max_length=5)


class HoldKey(_NamesKeys):
    type: Literal["hold_key"] = "hold_key"
    keys: tuple[str, ...] = Field(min_length=1, max_length=5)
    duration: float = Field(default=1.0, gt=0, le=30)


class Scroll(_NamesKeys):
    type: Literal["scroll"] = "scroll"
    direction: Literal["up", "down", "left", "right"]
    amount: int = Field(default=3, ge=1, le=50)
    target: Target | None = None
    keys: tuple[str, ...] = Field(
        default=(), max_length=4, description="modifier keys held down while scrolling"
    )


class Drag(_Model):
    type: Literal["drag"] = "drag"
    source: Target = Field(alias="from")
    to: Target


class Swipe(_Model):
    type: Literal["swipe"] = "swipe"
    direction: Literal["up", "down", "left", "right"]
    target: Target | None = None
    distance: float = Field(default=0.5, gt=0, le=1, description="fraction of the screen")


class Wait(_Model):
    type: Literal["wait"] = "wait"
    until: Target | Literal["stable"] = "stable"
    timeout: float = Field(default=10, gt=0, le=600)


class Launch(_Model):
    type: Literal["launch"] = "launch"
    app: str = Field(min_length=1)


class AskUser(_Model):
    type: Literal["ask_user"] = "ask_user"
    question: str = Field(min_length=1)


class Done(_Model):
    type: Literal["done"] = "done"
    summary: str = ""


class Fail(_Model):
    type: Literal["fail"] = "fail"
    reason: str = Field(min_length=1)


class Back(_Model):
    type: Literal["back"] = "back"


class Home(_Model):
    type: Literal["home"] = "home"


Action = Annotated[
    Click
    | DoubleClick
    | RightClick
    | TripleClick
    | MiddleClick
    | Hover
    | LongPress
    | Type
    | Hotkey
    | HoldKey
    | Scroll
    | Drag
    | Swipe
    | Wait
    | Launch
    | AskUser
    | Done
    | Fail
    | Back
    | Home,
    Field(discriminator="type"),
]
ANDROID_ONLY = frozenset({"swipe", "long_press", "back", "home"})
DESKTOP_ONLY = frozenset({"triple_click", "middle_click", "hover", "hold_key"})
_ACTION = TypeAdapter(Action)


def parse_action(data: str | bytes | dict[str, Any]) -> Action:
    """Validate an action from JSON text or a dict; ActionError names the first problem."""
    try:
        if isinstance(data, str | bytes):
            data = json.loads(data)
        return _ACTION.validate_python(data)
    except json.JSONDecodeError as exc:
        raise ActionError(f"action is not valid JSON: {exc.msg} at position {exc.pos}") from None
    except ValidationError as exc:
        raise ActionError(f"invalid action: {_first_problem(exc, data)}") from None


def _first_problem(exc: ValidationError, data: Any) -> str:
    error = exc.errors()[0]
    kind = data.get("type") if isinstance(data, dict) else None
    if error["type"] == "union_tag_invalid" or error["type"] == "union_tag_not_found":
        names = ", ".join(sorted(_ACTION.json_schema()["discriminator"]["mapping"]))
        return f"unknown action type {kind!r} (expected one of: {names})"
    if not isinstance(data, dict):
        return f"an action is a JSON object with a 'type', not {type(data).__name__}"
    where = ".".join(str(part) for part in error["loc"][1:]) or "action"
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "missing":
        return f"{kind} action needs '{where}'"
    if error["type"] == "extra_forbidden":
        return f"{kind} action has unknown field '{where}'"
    return f"{where}: {message}"


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as the JSON dict of the schema (`from` for drag sources, no nulls)."""
    return action.model_dump(mode="json", by_alias=True, exclude_none=True)


def action_json_schema() -> dict[str, Any]:
    return _ACTION.json_schema(by_alias=True)


# ---- What a run writes: the step record, the run record, and their words -------------------

Status = Literal[
    "success", "unverified", "retry", "back", "replan", "ask_user", "planned", "failed"
]
"""A step's verdict. The critic gives the first six (`back`, `replan` and `ask_user` only a
model critic); `planned` is a dry run's step, acted on nothing; `failed` a step that ended the
run or the replay."""
Tone = Literal["good", "warn", "bad", "info"]
STATUS_TONE: dict[str, Tone] = {
    "success": "good",
    "unverified": "warn",
    "retry": "warn",
    "back": "warn",
    "replan": "warn",
    "ask_user": "info",
    "planned": "info",
    "failed": "bad",
}
"""The one palette: every front end shows a verdict in its tone (CLI, report and panel map the
four tones to their own colours)."""
OUTCOME_TONE: dict[str, Tone] = {
    "done": "good",
    "failed": "bad",
    "error": "bad",
    "stopped": "warn",
    "question": "warn",
    "running": "info",
}


class _Record(BaseModel):
    """Records read back tolerate fields a newer or older clickwright wrote."""

    model_config = ConfigDict(extra="ignore")


class StepRecord(_Record):
    """One line of `steps.jsonl`: what a step saw, did, why, and whether it worked. Written by
    the executor, read by the report, the panel, and runs saved as demonstrations."""

    index: int = 0
    time: float = 0.0
    instruction: str = ""
    thought: str = ""
    action: Action | None = None
    target: dict[str, Any] | None = None
    """The element acted on, as `Element.to_json()`."""
    candidates: list[dict[str, Any]] = Field(default_factory=list)
    attempt: int = 1
    point: tuple[int, int] | None = None
    verdict: Status = "success"
    verdict_reason: str = ""
    expect: str | None = None
    grounded: str = ""
    """How the target was found (element id, a model's point, a demo's signature…)."""
    approval: str = ""
    durations: dict[str, float] = Field(default_factory=dict)
    tokens: int = 0
    cost: float | None = 0.0
    frame: str | None = None
    elements: str | None = None
    after_frame: str | None = None
    demo_step: int | None = None
    repair_run: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude_none=True)
        if self.action is not None:
            data["action"] = action_to_json(self.action)
        return data

    def describe(self) -> str:
        """The step's action in words, or what it decided without acting."""
        if self.action is None:
            return "nothing to do"
        return describe_action(self.action, self.target)


class RunRecord(_Record):
    """`run.json`: the task, where it ran, with which settings and models, and how it ended."""

    id: str
    task: str
    device: dict[str, Any] = Field(default_factory=dict)
    roles: dict[str, Any] = Field(default_factory=dict)
    planner: str = ""
    settings: dict[str, Any] = Field(default_factory=dict)
    demo: dict[str, Any] | None = None
    plan: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    usage: dict[str, Any] = Field(default_factory=dict)
    started: float = 0.0
    ended: float | None = None
    outcome: str = "running"
    reason: str = ""
    steps: int = 0
    durations: dict[str, float] = Field(default_factory=dict)
    seconds: float | None = None
    recorded_seconds: float | None = None


KEY_NAMES = {
    "ctrl": "Ctrl",
    "alt": "Alt",
    "shift": "Shift",
    "win": "Win",
    "command": "Cmd",
    "esc": "Esc",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "capslock": "CapsLock",
    "printscreen": "PrintScreen",
    "volumeup": "VolumeUp",
    "volumedown": "VolumeDown",
    "volumemute": "VolumeMute",
}


def describe_action(action: Action, element: dict[str, Any] | None = None) -> str:
    """One readable line for an action, e.g. `type "Ada" into input 'Name'`, `press Ctrl+S`.

    `element` (as `Element.to_json()`) is what the step resolved the target to; it names
    targets given only by id. The one wording for the CLI, the report, the panel and models.
    """

    def on(target: Target | None) -> str:
        return _describe_target(target, element)

    match action:
        case Click() | DoubleClick() | RightClick() | TripleClick() | MiddleClick():
            held = "".join(_key_name(key) + "+" for key in action.keys)
            return f"{held}{action.type.replace('_', '-')} {on(action.target)}"
        case Hover():
            return f"move the pointer over {on(action.target)}"
        case HoldKey():
            return f"hold {'+'.join(_key_name(k) for k in action.keys)} for {action.duration:g} s"
        case LongPress():
            return f"long-press {on(action.target)} for {_number(action.duration)} s"
        case Type():
            line = f'type "{action.text}"'
            line += f" into {on(action.target)}" if action.target else ""
            line += ", replacing what was there" if action.clear else ""
            return line + (", then press Enter" if action.enter else "")
        case Hotkey():
            return "press " + "+".join(_key_name(key) for key in action.keys)
        case Scroll():
            line = f"scroll {action.direction} {_number(action.amount)}"
            return line + (f" over {on(action.target)}" if action.target else "")
        case Swipe():
            where = f" on {on(action.target)}" if action.target else ""
            return f"swipe {action.direction}{where}"
        case Drag():
            return f"drag {on(action.source)} to {on(action.to)}"
        case Wait():
            until = action.until
            what = "the screen is stable" if until == "stable" else f"{on(until)} appears"
            return f"wait until {what} (up to {_number(action.timeout)} s)"
        case Launch():
            return f'launch "{action.app}"'
        case AskUser():
            return f'ask the user "{action.question}"'
        case Done():
            return f"done — {action.summary}" if action.summary else "done"
        case Fail():
            return f"give up — {action.reason}"
    return f"press {action.type.title()}"


def _describe_target(target: Target | str | None, element: dict[str, Any] | None) -> str:
    if not isinstance(target, Target):
        return "?"
    if target.point is not None:
        return "point (" + ", ".join(_number(v) for v in target.point) + ")"
    if target.text is not None:
        return f"{target.kind} '{target.text}'" if target.kind else f"'{target.text}'"
    if target.id is not None:
        if element and element.get("id") == target.id:
            label = element.get("text") or element.get("name") or "(no text)"
            state = element.get("state")
            shown = f" [{', '.join(map(str, state))}]" if state else ""
            return f"{element.get('kind', 'element')} '{label}'{shown} #{target.id}"
        return f"element #{target.id}"
    return "?"


def _key_name(key: str) -> str:
    if key.lower() in KEY_NAMES:
        return KEY_NAMES[key.lower()]
    return key.upper() if len(key) == 1 else key[:1].upper() + key[1:]


def _number(value: float) -> str:
    return f"{value:g}"
