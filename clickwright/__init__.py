"""clickwright: a GUI automation agent that sees the screen, acts, and verifies."""

from typing import Any

from clickwright.errors import (
    ActionError,
    ClickwrightError,
    DemoError,
    DeviceError,
    StepFailed,
    TaskError,
)
from clickwright.types import Action, Box, Element, Frame, Screen, parse_action

__all__ = [
    "Action",
    "ActionError",
    "Box",
    "ClickwrightError",
    "DemoError",
    "DeviceError",
    "Element",
    "Frame",
    "Screen",
    "StepFailed",
    "TaskError",
    "connect",
    "parse_action",
]


def __getattr__(name: str) -> Any:
    """`clickwright.connect` (the scripting API) loads the devices and parsers only when used,
    so `import clickwright` stays light."""
    if name == "connect":
        from clickwright.agent.script import connect

        return connect
    raise AttributeError(f"module 'clickwright' has no attribute {name!r}")
