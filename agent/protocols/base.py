"""What every native protocol shares: the interface, the model table, the pointer, key names.

A protocol speaks one model family's own computer-use dialect. It is a conversation: the actor
tells it what became of the last actions (`observe`), asks it for the request to send
(`request`), and gives it the answer (`read`), which comes back as clickwright Actions with
points already in frame pixels. Everything about the wire format stays inside the protocol;
everything about acting, approving and judging stays with the executor.
"""

from __future__ import annotations

import re
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from clickwright.agent.backends.base import Message, WireRequest
from clickwright.agent.config import PROTOCOLS
from clickwright.agent.safety import Flag
from clickwright.agent.screen_scaling import Convention, ImageLimits, ScaledImage
from clickwright.errors import ActionError, ClickwrightError
from clickwright.types import Action, AskUser, Done, Screen, Target, normalize_key

NAMES = tuple(name for name in PROTOCOLS if name != "auto")
"""The protocols a config file may name; "json" is clickwright's own action schema."""

BACKEND_OF = {
    "anthropic-computer": ("anthropic",),
    "openai-computer": ("openai",),
    "ui-tars": ("openai", "transformers"),
    "qwen-vl": ("openai", "transformers"),
}
"""Which backends can carry each protocol: the vendor tools need their vendor's API, the
grammars need any chat model."""


@dataclass(frozen=True)
class ModelSpec:
    """How one model speaks: its protocol, the tool version, its coordinates and image rule."""

    protocol: str
    model: str
    tool: str = ""
    coords: Convention = "pixels"
    limits: ImageLimits = field(default_factory=ImageLimits)


@dataclass(frozen=True)
class ChatRequest:
    """A request in a grammar protocol: chat messages for the model's chat backend."""

    messages: tuple[Message, ...]
    max_tokens: int


Request = WireRequest | ChatRequest


@dataclass(frozen=True)
class Outcome:
    """What became of the actions the model last asked for, told before it is asked again."""

    screen: Screen
    carried_out: int = 0
    """How many of them were carried out (all of them unless one failed)."""
    feedback: str = ""
    """Why the next one did not work; empty when all went."""
    notes: tuple[str, ...] = ()
    """New notes since then, said to the model as they are: the person's answers to its
    questions ("The user answered 'Which plan?': Pro")."""


@dataclass(frozen=True)
class Reading:
    """What one answer asks for. No actions and no problem: the protocol answered the model
    itself (a screenshot, a zoom, the pointer position) and wants to be asked again."""

    thought: str = ""
    actions: tuple[Action, ...] = ()
    flag: Flag | None = None
    """A risk the vendor flagged on these actions (OpenAI's pending safety checks)."""
    problem: str = ""
    """Why the answer could not be used; the protocol has already told the model."""
    target: str = ""
    """The first action's target in the model's words, for a closer look (focus)."""


class Protocol(ABC):
    """One model family's computer-use protocol, as a conversation with memory."""

    name: ClassVar[str]
    focusable: ClassVar[bool] = False
    """Whether a point can be refined on a full-resolution crop (`focus_request`)."""

    def __init__(self, spec: ModelSpec, task: str, device_kind: str, screenshots: int) -> None:
        self.spec = spec
        self.task = task
        self.device_kind = device_kind
        self.screenshots = max(1, screenshots)
        """How many recent screenshots the model gets to see (the current one included)."""
        self.pointer = Pointer()
        self._fitted: tuple[Screen, ScaledImage] | None = None

    def image(self, screen: Screen) -> ScaledImage:
        """The screenshot as this model takes it (fitted once per screen)."""
        if self._fitted is None or self._fitted[0] is not screen:
            self._fitted = (screen, self.spec.limits.fit(screen.frame.pixels))
        return self._fitted[1]

    @abstractmethod
    def observe(self, outcome: Outcome) -> None:
        """Take in what happened since the last answer (first call: the task's first screen).
        Called again before an answer, it replaces the outcome: the screen changed meanwhile."""

    @abstractmethod
    def request(self) -> Request:
        """The request to send now."""

    @abstractmethod
    def read(self, reply: Mapping[str, Any] | str) -> Reading:
        """Take in the model's answer and say what it asks for."""

    def focus_request(self, reading: Reading, crop: ScaledImage) -> ChatRequest:
        raise NotImplementedError(f"{self.name} has no focused look")

    def focus_point(self, text: str, crop: ScaledImage) -> tuple[int, int]:
        raise NotImplementedError(f"{self.name} has no focused look")


@dataclass
class Pointer:
    """Where the mouse is, in frame pixels, as far as this run moved it: the vendor tools click
    "at the cursor", ask where it is, and press and release the button in separate actions."""

    at: tuple[int, int] | None = None
    pressed: tuple[int, int] | None = None

    def target(self, what: str) -> Target:
        if self.at is None:
            raise ActionError(f"{what} needs a coordinate: the pointer has not been placed yet")
        return Target(point=self.at)

    def follow(self, action: Action) -> None:
        """After `action` is carried out, the pointer is where it acted."""
        for name in ("target", "to"):
            target = getattr(action, name, None)
            if isinstance(target, Target) and target.point is not None:
                self.at = (int(target.point[0]), int(target.point[1]))


def finished(text: str) -> Action:
    """A vendor model that stops asking for actions is done, or is asking the person."""
    text = text.strip()
    return AskUser(question=text) if text.endswith("?") else Done(summary=text)


# ---- key names --------------------------------------------------------------------------------

XDOTOOL_KEYS = {
    "return": "enter",
    "kp_enter": "enter",
    "prior": "pageup",
    "next": "pagedown",
    "caps_lock": "capslock",
    "print": "printscreen",
    "super_l": "win",
    "super_r": "win",
    "control_l": "ctrl",
    "control_r": "ctrl",
    "alt_l": "alt",
    "alt_r": "alt",
    "shift_l": "shift",
    "shift_r": "shift",
    "meta_l": "win",
    "period": ".",
    "comma": ",",
    "slash": "/",
    "backslash": "\\",
    "semicolon": ";",
    "apostrophe": "'",
    "grave": "`",
    "equal": "=",
    "bracketleft": "[",
    "bracketright": "]",
    "option": "alt",
}
"""xdotool keysym names (what Claude and the Qwen tools write) that clickwright calls otherwise;
the rest (ctrl, Escape, Page_Down, BackSpace, F5…) normalize_key knows."""


def key_name(key: str) -> str:
    """A key as a vendor model names it -> clickwright's name, or ActionError."""
    name = key.strip()
    return normalize_key(XDOTOOL_KEYS.get(name.lower(), name))


def key_combos(text: str) -> list[tuple[str, ...]]:
    """xdotool `key` syntax ("ctrl+s", "Return", "ctrl+a Delete") -> key combinations."""
    combos = [tuple(key_name(k) for k in combo.split("+") if k) for combo in text.split()]
    if not combos or not all(combos):
        raise ActionError(f"no key in {text!r}")
    return combos


# ---- which protocol a model speaks ------------------------------------------------------------


class ProtocolError(ClickwrightError):
    """A protocol that cannot work with this backend or model."""


@cache
def _table() -> dict[str, Any]:
    text = resources.files("clickwright.assets").joinpath("model_protocols.toml").read_text()
    return tomllib.loads(text)


def _spec(protocol: str, model: str, entry: Mapping[str, Any]) -> ModelSpec:
    values = {**_table()["defaults"][protocol], **entry}
    limits = ImageLimits(
        max_side=values.get("max_side", 100_000),
        factor=values.get("factor"),
        max_pixels=values.get("max_pixels"),
        min_pixels=values.get("min_pixels", 56 * 56),
        max_short_side=values.get("max_short_side"),
    )
    coords = values.get("coords", "pixels")
    return ModelSpec(protocol, model, values.get("tool", ""), coords, limits)


def choose(backend: str, model: str, override: str = "auto") -> ModelSpec | None:
    """The protocol `model` speaks on `backend` (None: clickwright's JSON actions). By name
    from assets/model_protocols.toml, only where the backend carries it; `override` (the
    config's `protocol`) names one outright, and a backend that cannot carry it is an error."""
    if override == "json":
        return None
    if override not in ("auto", *NAMES):
        raise ProtocolError(
            f"unknown protocol {override!r}", f"use one of: auto, {', '.join(NAMES)}"
        )
    lowered = model.lower()
    for entry in _table()["models"]:
        if override not in ("auto", entry["protocol"]) or not re.search(entry["match"], lowered):
            continue
        if backend in BACKEND_OF[entry["protocol"]]:
            fields = {k: v for k, v in entry.items() if k not in ("match", "protocol")}
            return _spec(entry["protocol"], model, fields)
        break
    if override == "auto":
        return None
    if backend not in BACKEND_OF[override]:
        raise ProtocolError(
            f"the {override} protocol cannot run on the {backend} backend",
            f'use --backend {" or ".join(BACKEND_OF[override])}, or protocol = "json"',
        )
    return _spec(override, model, {})
